"""Reading a game's seed folder: CSV tables and rules.toml, with errors that name the spot."""

from __future__ import annotations

import copy
import csv
import functools
import hashlib
import importlib
import json
import re
import threading
import tomllib
from collections.abc import Callable
from pathlib import Path

from sim.core.errors import PlaytestError

SOURCES = ("seed", "public", "reconstructed")
# The largest magnitude a table's whole number may have unless its loader says otherwise:
# far beyond any card, and small enough that no sum of them in a game comes near what the
# engines' int64 arithmetic or the results' columns hold (sim.core.results.fit checks the
# columns as they are written).
MAX_VALUE = 100_000
# a whole number as a table may write it: ASCII digits with an optional sign
_WHOLE = re.compile(r"[+-]?[0-9]+")
# The module whose load(folder) reads and validates each game's data folder.
LOADERS = {"festival": "sim.festival.data", "dice_theme_park": "sim.dice_theme_park.data",
           "magnificent": "sim.magnificent.data"}


def _short(text: str) -> str:
    """A value for an error line: a long one cut in the middle."""
    return text if len(text) <= 24 else f"{text[:10]}...{text[-10:]} ({len(text)} characters)"


def seeds_dir(game: str) -> Path:
    """The shipped data folder of ``game`` (a checkout's ``seeds/<game>``)."""
    here = Path(__file__).resolve().parents[2] / "seeds" / game
    if not here.is_dir():
        raise PlaytestError(f"{game} has no shipped data folder ({here} is missing)")
    return here


def data_folder(game: str, folder: str | Path | None) -> Path:
    """``folder`` as an absolute Path (default: the shipped ``seeds/<game>``), so that a run
    records where its data is from any directory; refused if missing."""
    if folder is not None and not isinstance(folder, str | Path):
        raise PlaytestError(f"a data folder is a path, got {folder!r}")
    path = Path(folder) if folder is not None else seeds_dir(game)
    if not path.is_dir():
        raise PlaytestError(f"no such data folder: {path}")
    return path.resolve()


class Row(dict):
    """One CSV row; ``where`` is ``file, row N`` for error messages (header is row 1)."""

    where: str

    def field(self, name: str) -> str:
        return self[name].strip()

    def fail(self, name: str, why: str) -> PlaytestError:
        return PlaytestError(f"{self.where}, field '{name}': {why}")

    def integer(self, name: str, low: int | None = None, high: int | None = None) -> int:
        return self.whole(name, self.field(name), low, high)

    def whole(self, name: str, text: str, low: int | None = None,
              high: int | None = None) -> int:
        """``text`` (the field ``name`` or a part of it) as a whole number in [low, high]
        (default: +-MAX_VALUE). The one parser of every table's numbers, whole cells and
        the parts of list-valued ones alike: ASCII digits with an optional sign only, so
        that superscripts, other scripts' digits, '1_000' and '1e5' are refused, and bounded
        so that no value can wrap round the engines' int64 arithmetic."""
        text = text.strip()
        if not _WHOLE.fullmatch(text):
            raise self.fail(name, f"'{_short(text)}' is not a whole number")
        low = -MAX_VALUE if low is None else low
        high = MAX_VALUE if high is None else high
        # past 30 digits the value is out of any range: int() is not handed thousands
        value = int(text) if len(text) <= 30 else (-1 if text[0] == "-" else 1) * 10 ** 30
        if value < low:
            raise self.fail(name, f"{_short(text)} is below {low}")
        if value > high:
            raise self.fail(name, f"{_short(text)} is above {high}, the most it may be")
        return value

    def wholes(self, name: str, low: int | None = None, high: int | None = None,
               sep: str = ";") -> list[int]:
        """The field's ``sep``-separated whole numbers (empty parts skipped), each as
        ``whole`` reads it."""
        return [self.whole(name, part, low, high)
                for part in self.field(name).split(sep) if part.strip()]

    def choice(self, name: str, allowed: list[str] | tuple[str, ...]) -> str:
        text = self.field(name)
        if text not in allowed:
            raise self.fail(name, f"'{text}' is not one of {', '.join(allowed)}")
        return text


def _regular_file(path: Path) -> None:
    """Refuse what is not a regular file (a folder, a broken link, a device or a pipe, which
    would never end a read) in one line."""
    if not path.is_file():
        why = "missing" if not path.exists() and not path.is_symlink() else \
            "not a regular file"
        raise PlaytestError(f"cannot read {path}: {why}")


# ------------------------------------------------------------ table cells (--set T.R.C=V)

# The cell overrides of the load in progress in this thread, by table: ``_LOAD.cells`` =
# {table: {(row, column): value}}. Set by ``loads_tables`` around a loader's ``load`` and
# read by ``read_csv``, so that a cell override passes the same checks as the file's own
# value without every helper of a loader passing it on.
_LOAD = threading.local()


def table_names(game: str) -> tuple[str, ...]:
    """The CSV tables of ``game`` (``boards`` for boards.csv), which --set TABLE.ROW.COLUMN
    reaches into."""
    if game not in LOADERS:
        return ()
    files = importlib.import_module(LOADERS[game]).FILES
    return tuple(f[:-4] for f in files if f.endswith(".csv"))


def is_cell(game: str, key: object) -> bool:
    """Whether the override ``key`` names a table cell (a dotted key whose first part is a
    table of the game) rather than a rule of rules.toml (The Magnificent's tent_spaces is
    both: the rule, undotted, and tent_spaces.csv)."""
    return isinstance(key, str) and "." in key and key.split(".", 1)[0] in table_names(game)


def cell_sets(game: str, sets: dict | None) -> dict[str, dict[tuple[str, str], object]]:
    """The table-cell overrides among ``sets``, by table: ``TABLE.ROW.COLUMN`` (a row is
    named by the value of the table's first column, or of its first two, joined by ':',
    where the first alone repeats; a row name may hold dots)."""
    out: dict[str, dict[tuple[str, str], object]] = {}
    for key, value in (sets or {}).items():
        if not is_cell(game, key):
            continue
        table, _, rest = key.partition(".")
        row, dot, column = rest.rpartition(".")
        if not dot or not row or not column:
            raise PlaytestError(f"'{key}': a table cell is set as {table}.ROW.COLUMN=VALUE "
                                f"(playtest data {game} --keys lists the rows and columns)")
        out.setdefault(table, {})[(row, column)] = value
    return out


def loads_tables(game: str) -> Callable:
    """Decorate a loader's ``load(folder, sets)`` so that its CSV tables are read with the
    table-cell overrides among ``sets`` applied (read_csv), each checked as the file's own
    value; rules.toml's checks (with_sets) leave those keys to this."""
    def wrap(load: Callable) -> Callable:
        @functools.wraps(load)
        def loaded(folder=None, sets: dict | None = None):
            outer = getattr(_LOAD, "cells", {})
            _LOAD.cells = cell_sets(game, sets)
            try:
                return load(folder, sets)
            finally:
                _LOAD.cells = outer
        return loaded
    return wrap


def row_names(rows: list[Row], columns: list[str]) -> tuple[list[str], int]:
    """How --set names each row, and how many columns the names take: the first column,
    or the first two joined by ':' when the first repeats (a park's q and r, a
    crowd-pleaser's tile and side)."""
    first = [r.field(columns[0]) for r in rows]
    if len(set(first)) == len(first) or len(columns) < 2:
        return first, 1
    return [f"{a}:{r.field(columns[1])}" for a, r in zip(first, rows)], 2


def _cell_text(value: object) -> str:
    """An override's value as the CSV would hold it (true and false as 1 and 0; anything
    else as written, for the loader's check)."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def _apply_cells(path: Path, rows: list[Row], columns: list[str]) -> None:
    """The load's cell overrides of this table, written into its rows; an unknown row or
    column is refused naming those that exist, a row's name and its source are not set.
    Under ``table_cells`` the table's rows and settable columns are recorded instead."""
    table = path.stem
    names, keyed = row_names(rows, columns)
    settable = [c for c in columns[keyed:] if c != "source"]
    if getattr(_LOAD, "seen", None) is not None:
        _LOAD.seen[table] = (names, settable, rows)
    cells = getattr(_LOAD, "cells", {}).get(table)
    for (row, column), value in (cells or {}).items():
        key = f"{table}.{row}.{column}"
        if row not in names:
            shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
            raise PlaytestError(f"--set {key}: {path.name} has no row '{row}' (rows: {shown})")
        if column not in settable:
            why = "names the row" if column in columns[:keyed] else \
                "is where the value comes from, not a value" if column == "source" else \
                f"is not a column of {path.name}"
            raise PlaytestError(f"--set {key}: '{column}' {why} (columns to set: "
                                f"{', '.join(settable)})")
        target = rows[names.index(row)]
        target[column] = _cell_text(value)
        target.where += f" (with {key}={value!r} set)"


def read_csv(folder: Path, name: str, columns: list[str]) -> list[Row]:
    """Rows of ``folder/name``; every listed column must be present once and every row
    complete. The table-cell overrides of the load in progress (loads_tables) are applied."""
    path = folder / name
    _regular_file(path)
    try:
        # utf-8-sig: a spreadsheet's byte-order mark is not part of the first column's name
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            twice = sorted({c for c in header if header.count(c) > 1})
            if twice:
                raise PlaytestError(f"{path}: column(s) {', '.join(twice)} appear twice")
            missing = [c for c in columns if c not in header]
            if missing:
                raise PlaytestError(f"{path}: missing column(s) {', '.join(missing)}")
            rows = []
            for i, raw in enumerate(reader, start=2):
                if None in raw or any(raw[c] is None for c in columns):
                    raise PlaytestError(f"{path}, row {i}: wrong number of fields")
                row = Row(raw)
                row.where = f"{path}, row {i}"
                if "source" in columns:
                    row.choice("source", SOURCES)
                rows.append(row)
    except UnicodeDecodeError:
        raise PlaytestError(f"cannot read {path}: it is not UTF-8 text") from None
    except (OSError, csv.Error) as e:
        raise PlaytestError(f"cannot read {path}: {e}") from None
    if not rows:
        raise PlaytestError(f"{path}: no rows")
    _apply_cells(path, rows, columns)
    return rows


def read_toml(folder: Path, name: str) -> dict:
    path = folder / name
    _regular_file(path)
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except UnicodeDecodeError:
        raise PlaytestError(f"cannot read {path}: it is not UTF-8 text") from None
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise PlaytestError(f"cannot read {path}: {e}") from None


def parse_sets(items: list[str] | dict | None) -> dict:
    """Rule overrides as {dotted key: value}: ``KEY=VALUE`` strings (``--set``), each value
    read as a TOML value (``5``, ``true``, ``[3, 4]``; anything else is a string), or a dict
    from the API."""
    if not items:
        return {}
    if isinstance(items, dict):
        return dict(items)
    sets = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise PlaytestError(f"--set takes KEY=VALUE, got '{item}'")
        try:
            value = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        key = key.strip()
        if key in sets and sets[key] != value:
            raise PlaytestError(f"--set {key} is given twice, as {sets[key]!r} and {value!r}: "
                                "give it once")
        sets[key] = value
    return sets


def with_sets(rules: dict, sets: dict, game: str) -> dict:
    """rules.toml's content with the overrides in ``sets`` applied (dotted keys reach into
    tables); a key rules.toml does not have is refused. The loader then checks every value
    as it checks the file's own. A table cell's override (TABLE.ROW.COLUMN) is read_csv's."""
    out = copy.deepcopy(rules)
    for key, value in sets.items():
        if not isinstance(key, str):
            raise PlaytestError(f"a rule is named by a string (KEY=VALUE), got {key!r}")
        if is_cell(game, key):
            continue
        node, parts = out, key.split(".")
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict) or parts[-1] not in node:
            raise PlaytestError(f"unknown rule '{key}' (playtest data {game} --keys lists "
                                "every rule with its value and range)")
        if isinstance(node[parts[-1]], dict):
            inner = ", ".join(k for k, _ in rule_items(node[parts[-1]], f"{key}."))
            raise PlaytestError(f"'{key}' is a table of rules: set each of them instead "
                                f"({inner})")
        node[parts[-1]] = value
    return out


def rule_notes(folder: Path) -> dict[str, str]:
    """What each rule of rules.toml says of itself: its comment (with the comment lines
    that continue it), by dotted key; a table's comment stands for its keys."""
    notes: dict[str, str] = {}
    table, last = "", None
    for line in (folder / "rules.toml").read_text(encoding="utf-8").splitlines():
        head = re.match(r"^\[([\w.]+)\]\s*(?:#\s*(.*))?$", line)
        item = re.match(r"^([\w\-]+)\s*=[^#]*(?:#\s*(.*))?$", line)
        if head:
            table = head.group(1) + "."
            last = table[:-1]
            if head.group(2):
                notes[last] = head.group(2).strip()
        elif item:
            last = table + item.group(1)
            if item.group(2):
                notes[last] = item.group(2).strip()
        elif line.startswith("#") and last in notes:  # a comment that goes on
            notes[last] += " " + line.lstrip("# ").strip()
        else:
            last = None
    return notes


def note_of(notes: dict[str, str], key: str) -> str:
    """A key's note, or its table's (naming the key's place in it)."""
    parts = key.split(".")
    for k in range(len(parts), 0, -1):
        found = notes.get(".".join(parts[:k]))
        if found:
            rest = ".".join(parts[k:])
            return found + (f" ({rest})" if rest else "")
    return ""


def rules_label(folder: Path, sets: dict) -> str:
    """How error messages name the rules: the file, and the overrides when there are any."""
    path = folder / "rules.toml"
    if not sets:
        return str(path)
    return f"{path} with {', '.join(f'{k}={v!r}' for k, v in sets.items())} set"


def rule_items(rules: dict, prefix: str = "") -> list[tuple[str, object]]:
    """Every rule as (dotted key, value), tables flattened."""
    items = []
    for key, value in rules.items():
        if isinstance(value, dict):
            items += rule_items(value, f"{prefix}{key}.")
        else:
            items.append((f"{prefix}{key}", value))
    return items


def whole(path: Path, key: str, value, low: int, high: int) -> int:
    """``value`` of rules.toml's ``key`` when it is a whole number in [low, high]."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PlaytestError(f"{path}: {key} = {value!r} must be a whole number {low}..{high}")
    return value


def read_rules(folder: Path, scalars: dict[str, tuple[int, int]], tables: tuple[str, ...],
               game: str, sets: dict | None = None) -> dict:
    """rules.toml (with ``sets`` applied) with every key known and present, each scalar a
    whole number in its (low, high) range, and min_players <= max_players. Tables are the
    loader's to check."""
    rules = with_sets(read_toml(folder, "rules.toml"), sets or {}, game)
    path = rules_label(folder, sets or {})
    for key in rules:
        if key not in scalars and key not in tables:
            raise PlaytestError(f"{path}: unknown parameter '{key}'")
    for key in (*scalars, *tables):
        if key not in rules:
            raise PlaytestError(f"{path}: missing parameter '{key}'")
    for key, (low, high) in scalars.items():
        whole(path, key, rules[key], low, high)
    for key in tables:
        if not isinstance(rules[key], (dict, list)):
            raise PlaytestError(f"{path}: {key} must be a table or a list")
    if rules.get("min_players", 0) > rules.get("max_players", 0):
        raise PlaytestError(f"{path}: min_players is above max_players")
    return rules


def capacity(what: Path | str, items: str, count: int, most: int) -> None:
    """``count`` ``items`` of ``what`` must fit the engine's ``most``; refused in one line."""
    if count > most:
        raise PlaytestError(f"{what}: {count} {items}, the engine holds at most {most}")


def check_count(what: Path | str, got: int, params: dict, key: str) -> None:
    """``got`` rows of ``what`` must be rules.toml's ``components.<key>``."""
    want = params["components"][key]
    if got != want:
        raise PlaytestError(f"{what}: {got} rows, rules.toml says components.{key} = {want}")


def unique_names(rows: list[Row], field: str) -> list[str]:
    """The non-empty, distinct ``field`` of every row, in order."""
    names = []
    for row in rows:
        name = row.field(field)
        if not name:
            raise row.fail(field, "empty")
        if name in names:
            raise row.fail(field, f"'{name}' appears twice")
        names.append(name)
    return names


def folder_hash(folder: Path, files: tuple[str, ...], sets: dict | None = None) -> str:
    """A short hash of the data files a game reads from ``folder`` (``files``: anything else
    there is not part of the game) and the rule overrides: runs record what they were played
    on."""
    h = hashlib.sha256()
    for name in sorted(files):
        path = folder / name
        _regular_file(path)
        h.update(name.encode())
        try:
            h.update(path.read_bytes())
        except OSError as e:
            raise PlaytestError(f"cannot read {path}: {e.strerror}") from None
    if sets:
        h.update(json.dumps(sets, sort_keys=True).encode())
    return h.hexdigest()[:16]


def files_changed(game: str, folder: str | Path | None) -> list[str] | None:
    """The data files of ``folder`` that differ from the shipped ones (missing ones included),
    [] for an identical copy, None when the folder is the shipped one or cannot be read."""
    if not folder:
        return None
    try:
        shipped, path = seeds_dir(game), Path(folder).resolve()
    except PlaytestError:
        return None
    if path == shipped.resolve() or game not in LOADERS:
        return None
    changed = []
    for name in importlib.import_module(LOADERS[game]).FILES:
        try:
            if (path / name).read_bytes() != (shipped / name).read_bytes():
                changed.append(name)
        except OSError:
            changed.append(name)
    return changed


def files_between(game: str, a: str | Path | None, b: str | Path | None) -> list[str]:
    """The data files that differ between two data folders of ``game`` (None: the shipped
    one); a folder that cannot be read counts as differing in every file."""
    if game not in LOADERS:
        return []
    out = []
    for name in importlib.import_module(LOADERS[game]).FILES:
        try:
            texts = [(Path(f) if f else seeds_dir(game)) / name for f in (a, b)]
            if texts[0].read_bytes() != texts[1].read_bytes():
                out.append(name)
        except (OSError, PlaytestError):
            out.append(name)
    return out


def table_cells(game: str, folder: str | Path | None = None
                ) -> dict[str, tuple[list[str], list[str], list[Row]]]:
    """Each CSV table of ``game`` as the loader reads it: {table: (row names as --set names
    them, the columns it can set, the rows)}."""
    _LOAD.seen = {}
    try:
        load_game_data(game, folder)
        return dict(_LOAD.seen)
    finally:
        _LOAD.seen = None


def load_game_data(game: str, folder: str | Path | None = None, sets: dict | None = None):
    """The validated data of ``game`` from ``folder`` (default: the shipped seeds), with
    the rule overrides ``sets``."""
    if game not in LOADERS:
        raise PlaytestError(f"no data loader for '{game}' (available: {', '.join(LOADERS)})")
    return importlib.import_module(LOADERS[game]).load(folder, sets)
