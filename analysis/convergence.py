"""Running estimates: the headline rates and their intervals as the games accumulate."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import wilson

POINTS = 60


def running_rates(df: pd.DataFrame, by: str) -> pd.DataFrame:
    """Win rate of each group of ``by`` after the first n games, for about 60 values of n
    spaced evenly on a log scale, with Wilson intervals."""
    games = np.sort(df["game_index"].unique())
    n_games = len(games)
    marks = np.unique(np.geomspace(min(10, n_games), n_games, POINTS).astype(int))
    order = np.searchsorted(games, df["game_index"].to_numpy())
    rows = []
    win = df["win"].to_numpy()
    for level in df[by].drop_duplicates().sort_values():
        mask = (df[by] == level).to_numpy()
        pos = order[mask]
        wins = np.bincount(pos, weights=win[mask], minlength=n_games).cumsum()
        count = np.bincount(pos, minlength=n_games).cumsum()
        k, n = wins[marks - 1], count[marks - 1]
        lo, hi = wilson(k, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            rows.append(pd.DataFrame({"factor": by, "level": str(level), "games": marks,
                                      "win_rate": k / n,
                                      "ci_low": lo, "ci_high": hi}))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
