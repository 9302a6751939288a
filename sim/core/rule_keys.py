"""What each rule of a game's rules.toml does and which values of it a user can really set:
``playtest data GAME --keys``.

A key's note is its comment in rules.toml. Its settable range is found by asking the same
checks ``simulate`` makes (``check_data``: the loader's, then the engine's for every player
count and mode) with the key changed alone, everything else as it is: a whole number is
tried at the ends of its declared range (or of 0..MAX_VALUE), and where an end is refused
the last accepted value is found by bisection from the current one (rules refuse values
beyond a bound, not between two accepted ones); a truth value is tried flipped. A key that
takes no other value says why, with the refusal a user would see.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from sim.core.data import LOADERS, MAX_VALUE, note_of, read_toml, rule_items, rule_notes
from sim.core.errors import PlaytestError


@dataclass
class RuleKey:
    key: str
    value: object
    settable: str  # "2..4", "true or false", "cannot change alone: ..."
    note: str


def _refusal(check, key: str, value) -> str | None:
    """None when ``key = value`` alone is accepted, else why not (the refusal's message
    without the "FOLDER/rules.toml with KEY=VALUE set:" that locates it, files by name)."""
    try:
        check({key: value})
    except PlaytestError as e:
        return re.sub(r"\S*/(?=[\w.-]+\.(csv|toml)\b)", "", str(e).split(" set: ", 1)[-1])
    return None


def _bound(check, key: str, ok: int, bad: int) -> int:
    """The accepted value nearest ``bad`` between ``ok`` (accepted) and ``bad`` (refused)."""
    while abs(bad - ok) > 1:
        mid = (ok + bad) // 2
        if _refusal(check, key, mid) is None:
            ok = mid
        else:
            bad = mid
    return ok


def settable(check, key: str, value, declared: tuple[int, int] | None) -> str:
    """The values of ``key`` a user can set alone (see the module's docstring)."""
    if isinstance(value, bool):
        why = _refusal(check, key, not value)
        return "true or false" if why is None else f"cannot change alone: {why}"
    if not isinstance(value, int):
        return "a list or a name, set whole (--set KEY=[...]); checked with the rules it " \
            "goes with"
    low, high = declared or (0, MAX_VALUE)
    ends = []
    for end, step in ((low, -1), (high, 1)):
        if end == value or _refusal(check, key, end) is None:
            ends.append(end)
        elif _refusal(check, key, value + step) is not None:
            ends.append(value)
        else:
            ends.append(_bound(check, key, value + step, end))
    if ends[0] == ends[1] == value:
        other = value + 1 if value < high else value - 1
        why = _refusal(check, key, other) if low != high else None
        if why is not None:
            return f"cannot change alone: {why}"
        return f"only {value}" + (" (the rules fix it)" if low == high else "")
    return f"{ends[0]}..{ends[1]}"


def rule_keys(game: str, folder: Path, sets: dict, check) -> list[RuleKey]:
    """Every rule of the rules.toml in ``folder`` (with ``sets`` applied), its note and the
    values it can take alone; ``check(sets)`` raises PlaytestError for a refused request."""
    from sim.core.data import with_sets

    ranges = importlib.import_module(LOADERS[game]).RANGES
    notes = rule_notes(folder)
    rules = with_sets(read_toml(folder, "rules.toml"), sets, game)
    return [RuleKey(key, value,
                    settable(lambda s: check({**sets, **s}), key, value, ranges.get(key)),
                    note_of(notes, key))
            for key, value in rule_items(rules)]


def _column_kind(values: list[str]) -> str:
    """How a column's values read: whole numbers with their range in the file, or text."""
    try:
        numbers = [int(v) for v in values if v.strip()]
    except ValueError:
        return "text"
    return f"{min(numbers)}..{max(numbers)} in the file" if numbers else "empty"


def table_lines(game: str, folder: Path | None) -> list[str]:
    """The CSV tables of ``game`` as ``--set TABLE.ROW.COLUMN=VALUE`` reaches them: each
    table's rows (as --set names them) and the columns that can be set, numbers with their
    range in the file (a cell's own range is the loader's check, as for the file)."""
    from sim.core.data import table_cells

    lines = []
    for table, (names, columns, rows) in table_cells(game, folder).items():
        shown = ", ".join(names[:8]) + (f", ... ({len(names)} rows)" if len(names) > 8 else "")
        lines.append(f"  {table}: rows {shown}")
        kinds = {c: _column_kind([r.field(c) for r in rows]) for c in columns}
        numeric = [f"{c} ({k})" for c, k in kinds.items() if k not in ("text", "empty")]
        text = [c for c, k in kinds.items() if k in ("text", "empty")]
        if numeric:
            lines.append(f"      numbers: {', '.join(numeric)}")
        if text:
            lines.append(f"      text: {', '.join(text)}")
    return lines
