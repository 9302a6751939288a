"""Win rates with Wilson intervals, by any grouping of the results table."""

from __future__ import annotations

import pandas as pd

from analysis.stats import wilson


def win_rates(df: pd.DataFrame, by: str | list[str]) -> pd.DataFrame:
    """Win rate (shared wins count 1/k), its 95% Wilson interval, mean score and rank per
    group."""
    g = df.groupby(by, observed=True)
    out = pd.DataFrame({
        "seat_games": g["win"].size(),
        "wins": g["win"].sum(),
        "win_rate": g["win"].mean(),
        "mean_score": g["score"].mean(),
        "mean_rank": g["rank"].mean(),
    })
    out["ci_low"], out["ci_high"] = wilson(out["wins"], out["seat_games"])
    return out.reset_index()


def game_codes(df: pd.DataFrame) -> tuple:
    """(code 0..G-1 of each row's game, G): the clusters of every clustered estimate."""
    codes, uniques = pd.factorize(df["game_index"], sort=False)
    return codes.astype(int), len(uniques)
