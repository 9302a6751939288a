"""The engines and the batch runner. ``from sim import simulate`` returns a DataFrame."""

from __future__ import annotations

import pandas as pd  # noqa: I001

import sim.core.kernel_cache  # noqa: F401  (first: decides where kernels are cached)
from sim.core.runner import load_results, run, seat_bots, simulate_frame

__all__ = ["simulate", "run", "load_results"]


def simulate(game: str = "festival", games: int = 10_000, players: int = 4,
             bots: list[str] | str = "greedy", seed: int = 0, out: str | None = None,
             **options) -> pd.DataFrame:
    """Simulate ``games`` games and return one row per (game, seat).

    ``bots`` is a list with one bot per seat, or one name (alone or in a list) for every
    seat. With ``out`` the games also go to a run folder (resumable, see
    sim.core.runner.run); without it they are played in memory.

    >>> df = simulate("festival", games=1000, players=3, bots="greedy", seed=7)
    """
    names = seat_bots(bots, players)
    if out is None:
        return simulate_frame(game, games, players, names, seed, **options)
    run(game, games, players, names, seed, out, progress=False, **options)
    return load_results(out)
