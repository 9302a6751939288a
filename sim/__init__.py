"""The engines and the batch runner. ``from sim import simulate`` returns a DataFrame."""

from __future__ import annotations

import pandas as pd  # noqa: I001

import sim.core.kernel_cache  # noqa: F401  (first: decides where kernels are cached)
from sim.core.errors import ParameterError, PlaytestError
from sim.core.run_folder import load_results
from sim.core.runner import run, simulate_frame, with_mode_or_side

__all__ = ["simulate", "run", "load_results", "PlaytestError"]


def simulate(game: str = "festival", games: int = 10_000, players: int = 4,
             bots: list[str] | str | None = None, seed: int = 0, out: str | None = None, *,
             start: int = 0, rotate: bool = True, data: str | None = None,
             chunk_size: int | None = None, threads: int | None = None,
             backend: str | None = None, workers: int | None = None,
             address: str | None = None, sets: dict | None = None,
             mode: str | None = None, side: str | None = None,
             **unknown) -> pd.DataFrame:
    """Simulate ``games`` games and return one row per (game, seat).

    ``bots`` is a list with one bot per seat, or one name (alone or in a list) for every
    seat; by default the game's line-up, as on the command line. ``start`` is the first
    game's index (in memory only: a run folder holds games 0..games-1). With ``out`` the
    games go to a run folder (resumable, see sim.core.runner.run; ``backend``, ``workers``
    and ``address`` choose where they are played); without it they are played in memory.
    ``sets`` overrides values of the game's rules.toml ({"pile_size": 6}, dotted keys for
    tables). ``mode`` (Dice Theme Park: "intro" or "full") or ``side`` (The Magnificent:
    "A" or "B") as on the command line. Bad input raises PlaytestError naming the
    parameter. The DataFrame's ``attrs["playtest"]`` records the run (its game and request),
    so ``analysis.analyse(df)`` needs nothing else.

    >>> df = simulate("festival", games=1000, players=3, bots="greedy", seed=7)
    >>> df = simulate("magnificent", games=1000, players=2, side="B")
    """
    if unknown:
        raise PlaytestError(f"simulate() has no parameter '{next(iter(unknown))}'")
    if not isinstance(game, str):
        raise ParameterError("game", f"must be a game's name, got {game!r}")
    sets = with_mode_or_side(game, sets, mode, side)
    if out is None:
        for name, value in (("backend", backend), ("workers", workers), ("address", address)):
            if value is not None:
                raise ParameterError(name, "plays into a run folder: give out= as well")
        return simulate_frame(game, games, players, bots, seed, start=start,
                              chunk_size=chunk_size, rotate=rotate, data=data, threads=threads,
                              sets=sets)
    if start != 0:
        raise ParameterError("start", "plays in memory only: a run folder starts at game 0")
    run(game, games, players, bots, seed, out, backend=backend or "threads",
        chunk_size=chunk_size, threads=threads, workers=workers, address=address,
        rotate=rotate, data=data, progress=False, sets=sets)
    return load_results(out)
