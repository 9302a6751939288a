"""Checks of a request's numbers and folders, before anything is computed or written."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from sim.core.errors import ParameterError, PlaytestError

MAX_SEED = 2**63 - 1  # seeds are unsigned 64-bit inside, but int64 in the results table
MAX_GAMES = 2**62  # game indices stay int64 with room to spare


def whole(name: str, value, low: int, high: int | None = None) -> int:
    """``value`` as an int when it is a whole number in [low, high]; zero or a negative
    number is never taken as "the default"."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ParameterError(name, f"must be a whole number, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        span = f"from {low:,} to {high:,}" if high is not None else f"{low:,} or more"
        raise ParameterError(name, f"must be {span}, got {value:,}")
    return value


def per_item(name: str, value, n: int, item: str, low: int, high: int) -> list[int]:
    """One whole number for every one of ``n`` items, or one per item: "N", "N1,N2,...", an
    int or a list; each in [low, high]."""
    if isinstance(value, str):
        try:
            value = [int(v) for v in value.split(",")]
        except ValueError:
            raise ParameterError(name, f"must be whole numbers, one for every {item} or one "
                                 f"per {item}, got '{value}'") from None
    items = list(value) if isinstance(value, list | tuple) else [value]
    if len(items) == 1:
        items = items * n
    if len(items) != n:
        raise ParameterError(name, f"gives {len(items)} numbers for {n} {item}"
                             f"{'s' if n != 1 else ''}: give one for every {item}, or one "
                             f"per {item}")
    return [whole(name, v, low, high) for v in items]


def path(name: str, value, optional: bool = True) -> Path | None:
    """``value`` as a Path (a string or path-like that names something), or None when
    ``optional``; anything else refused naming the parameter."""
    if value is None and optional:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        raise ParameterError(name, f"must name a folder, got {value!r}")
    return Path(value)


def text(name: str, value, optional: bool = True) -> str | None:
    """``value`` when it is a non-empty string (or None when ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ParameterError(name, f"must be a non-empty string, got {value!r}")
    return value


def flag(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise ParameterError(name, f"must be True or False, got {value!r}")
    return value


def rule_sets(name: str, value) -> dict:
    """Rule overrides: {rule name: value}, the names strings (``--set``'s KEY=VALUE)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ParameterError(name, f"must be a dict of rule: value, got {value!r}")
    for key in value:
        if not isinstance(key, str) or not key.strip():
            raise ParameterError(name, f"names each rule with a string, got {key!r}")
    return dict(value)


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable), else the machine's physical memory."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def chunk_fits(chunk_size: int, bytes_per_game: int, parallel: int = 1) -> None:
    """Refuse a chunk size whose arrays (``parallel`` chunks at once) would not fit in half
    the memory available, naming the largest that does."""
    budget = available_memory() // 2
    largest = max(1, budget // (bytes_per_game * parallel))
    if chunk_size > largest:
        raise ParameterError("chunk_size", f"of {chunk_size:,} games needs about "
                             f"{chunk_size * bytes_per_game * parallel / 2**30:.1f} GiB, more "
                             f"than half the free memory; at most {largest:,} fits")


def writable_folder(out: Path, name: str = "out") -> None:
    """``out`` can be a folder we write into: its name within the system's limits, not a
    file, its parent not a file, writable."""
    path_fits(out, name)
    if out.exists() and not out.is_dir():
        raise ParameterError(name, f"{out} is a file, not a folder")
    parent = out
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ParameterError(name, f"{out} cannot be made: {parent} is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise PlaytestError(f"cannot write to {parent}: permission denied")


# room left for what a command writes inside its folder (a balance tier's chunk file,
# tiers/NN-TIER/data/part-NNNNN.parquet with its temporary suffix, is about 50 bytes)
LONGEST_INSIDE = 64


def path_fits(out: Path, name: str) -> None:
    """Refuse a path the system cannot make (a component past NAME_MAX, the whole past
    PATH_MAX with room for the files written inside): os calls on it raise 'File name too
    long' mid-run otherwise."""
    try:  # the system's limits (a filesystem mounted below with others is not looked for)
        name_max = os.pathconf("/", "PC_NAME_MAX")
        path_max = os.pathconf("/", "PC_PATH_MAX")
    except (OSError, ValueError):
        name_max, path_max = 255, 4096
    long = next((part for part in out.parts if len(os.fsencode(part)) > name_max), None)
    if long is not None:
        raise ParameterError(name, f"'{long[:40]}...' is {len(os.fsencode(long))} bytes long; "
                                   f"a folder name may have at most {name_max}")
    size = len(os.fsencode(str(out.absolute())))
    if size + LONGEST_INSIDE > path_max:
        raise ParameterError(name, f"the path is {size} bytes long; with the files written "
                                   f"inside it, at most {path_max - LONGEST_INSIDE} fit")


def lineup(title: str, params: dict, n_players: int, bot_names: list[str]) -> None:
    """A game's player count within its rules' ``min_players``..``max_players`` and one
    bot a player; refused in one line that names the game."""
    lo, hi = params["min_players"], params["max_players"]
    if not lo <= n_players <= hi:
        raise PlaytestError(f"{title} is for {lo} to {hi} players, not {n_players}")
    if len(bot_names) != n_players:
        raise PlaytestError(f"{n_players} players need {n_players} bots, got "
                            f"{len(bot_names)}: {','.join(bot_names)}")


def first_violation(codes: tuple[str, ...], check: np.ndarray, start: int) -> None:
    """Raise on the first game of a checked chunk whose invariant check failed (``check``:
    each game's code, 0 for none)."""
    if check.any():
        bad = int(np.flatnonzero(check)[0])
        raise RuntimeError(f"game {start + bad}: {codes[int(check[bad])]}")


def logged(log: np.ndarray, nlog: int) -> int:
    """The events of a game's log to read: all ``nlog`` of them, or one error when the game
    made more than its log holds (a replay is never cut short in silence)."""
    if nlog > len(log):
        raise PlaytestError(f"this game logged {nlog:,} events, more than the {len(log):,} its "
                            "log holds: its replay would be cut short")
    return nlog
