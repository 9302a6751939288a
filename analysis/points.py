"""Mean score differences with bootstrap intervals paired by game (scipy.stats.bootstrap).

Each difference compares the rows of one level with the rows of its reference level (seat k
against seat 0, a bot against the reference bot, a board against the reference board). Games
are resampled whole, so everything that shares a game (its seats, its deal) moves together.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats as st

RESAMPLES = 999


def score_differences(score: np.ndarray, game: np.ndarray, n_games: int,
                      pairs: list[tuple[np.ndarray, np.ndarray]], seed: int = 0
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each (level rows, reference rows) mask pair: mean score of the level minus mean
    score of the reference, and a 95% percentile bootstrap interval over games."""
    if not pairs:
        return np.array([]), np.array([]), np.array([])
    score = score.astype(float)
    # per game: score sum and row count of each side of each pair -> (games, 4 * pairs)
    cols = []
    for level, ref in pairs:
        for mask in (level, ref):
            cols.append(np.bincount(game[mask], weights=score[mask], minlength=n_games))
            cols.append(np.bincount(game[mask], minlength=n_games).astype(float))
    per_game = np.column_stack(cols)

    def diff(sums: np.ndarray) -> np.ndarray:
        s = sums.reshape(*sums.shape[:-1], len(pairs), 4)
        with np.errstate(invalid="ignore", divide="ignore"):
            return s[..., 0] / s[..., 1] - s[..., 2] / s[..., 3]

    def statistic(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        idx = np.atleast_2d(idx)
        weights = np.stack([np.bincount(row, minlength=n_games) for row in idx])
        return diff(weights @ per_game).T

    estimate = diff(per_game.sum(axis=0))
    if n_games < 2:
        return estimate, np.full(len(pairs), np.nan), np.full(len(pairs), np.nan)
    with warnings.catch_warnings():  # a level in too few games: no interval (NaN), no noise
        warnings.simplefilter("ignore", (st.DegenerateDataWarning, RuntimeWarning))
        res = st.bootstrap((np.arange(n_games),), statistic, vectorized=True,
                           method="percentile", n_resamples=RESAMPLES, batch=50,
                           rng=np.random.default_rng(seed))
    return estimate, res.confidence_interval.low, res.confidence_interval.high
