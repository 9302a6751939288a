"""The registered game engines, by name.

A game is a module with the engine contract (DESIGN.md): ``prepare(players, bots, data,
rotate)`` and ``play_chunk(prepared, seed, start, n)`` for the runner; ``declare(info)``, the
declaration of its results table, for the analysis (sim/core/declaration.py); ``replay``;
``PLAYERS`` (fewest, most), ``DEFAULT_BOTS`` (the line-up without --bots), ``BENCH_BOTS``
(what ``playtest bench`` measures), ``BYTES_PER_GAME`` (memory per game of a chunk, to
refuse a chunk size that cannot fit) and, optionally, ``COMPILE_SECONDS`` (what the first
run's "compiling the kernels" line announces: {"plain": s, "search": s}, the kernel of a
line-up without and with a search bot).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from sim.core.errors import PlaytestError

GAMES = {"festival": "sim.festival", "dice_theme_park": "sim.dice_theme_park",
         "magnificent": "sim.magnificent"}
# Games with data but no engine yet: named in the refusal, so that a user knows why.
DATA_ONLY: tuple[str, ...] = ()


def register_game(name: str, module: str) -> None:
    """Make the engine in ``module`` (an importable module path) playable as ``name``."""
    GAMES[name] = module


def game_module(game: str) -> ModuleType:
    if not isinstance(game, str):
        raise PlaytestError(f"a game is named by a string (available: {', '.join(GAMES)}), "
                            f"got {game!r}")
    if game in DATA_ONLY and game not in GAMES:
        raise PlaytestError(f"{game} has data but no engine yet (check its data with "
                            f"'playtest data {game}'); engines: {', '.join(GAMES)}")
    if game not in GAMES:
        raise PlaytestError(f"unknown game '{game}' (available: {', '.join(GAMES)})")
    return importlib.import_module(GAMES[game])
