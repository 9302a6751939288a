"""Mean score deviations with bootstrap intervals paired by game (scipy.stats.bootstrap).

Each level of a factor (a seat, a bot, a board) is compared with the average of the
factor's levels: its mean score minus the mean of the levels' mean scores, as the model's
effects are (effects.py). Games are resampled whole, so everything that shares a game (its
seats, its deal) moves together.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats as st

RESAMPLES = 999


def score_deviations(score: np.ndarray, game: np.ndarray, n_games: int,
                     factors: list[list[np.ndarray]], seed: int = 0
                     ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For each factor (a list of its levels' row masks): each level's mean score minus the
    average of the levels' mean scores, with a 95% percentile bootstrap interval over
    games: [(deviations, low, high)] per factor."""
    if not factors:
        return []
    score = score.astype(float)
    cols, sizes = [], []
    for levels in factors:
        sizes.append(len(levels))
        for mask in levels:
            cols.append(np.bincount(game[mask], weights=score[mask], minlength=n_games))
            cols.append(np.bincount(game[mask], minlength=n_games).astype(float))
    per_game = np.column_stack(cols)
    bounds = np.cumsum([0, *sizes])

    def deviations(sums: np.ndarray) -> np.ndarray:
        s = sums.reshape(*sums.shape[:-1], -1, 2)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = s[..., 0] / s[..., 1]
        parts = [means[..., a:b] - np.nanmean(means[..., a:b], axis=-1, keepdims=True)
                 for a, b in zip(bounds[:-1], bounds[1:])]
        return np.concatenate(parts, axis=-1)

    def statistic(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        idx = np.atleast_2d(idx)
        weights = np.stack([np.bincount(row, minlength=n_games) for row in idx])
        return deviations(weights @ per_game).T

    estimate = deviations(per_game.sum(axis=0))
    low = high = np.full(len(estimate), np.nan)
    if n_games >= 2:
        with warnings.catch_warnings():  # a level in too few games: no interval, no noise
            warnings.simplefilter("ignore", (st.DegenerateDataWarning, RuntimeWarning))
            res = st.bootstrap((np.arange(n_games),), statistic, vectorized=True,
                               method="percentile", n_resamples=RESAMPLES, batch=50,
                               rng=np.random.default_rng(seed))
        low, high = res.confidence_interval.low, res.confidence_interval.high
    return [(estimate[a:b], low[a:b], high[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
