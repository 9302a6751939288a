"""Seat advantage: per-seat win rates, first seat minus last paired within games."""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.weightstats import DescrStatsW

from analysis.rates import win_rates
from analysis.stats import adjust, rate_p_value


def confounded(df: pd.DataFrame) -> bool:
    """Seat and bot cannot be told apart: each seat always held the same bot, and the bots
    differ (a run without seat rotation)."""
    return df["bot"].nunique() > 1 and bool(
        (df.groupby("seat", observed=True)["bot"].nunique() == 1).all())


def seat_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per seat: win rate and interval, difference from an even share with a p-value (exact
    below 30 seat-games), Holm-adjusted across the seats. In a 2-player game seat 1 mirrors
    seat 0, so the two are one comparison: one p-value, a family of one."""
    out = win_rates(df, "seat")
    n = int(df["n_players"].iloc[0])
    even = 1 / n
    out["even_share"] = even
    out["diff_pp"] = 100 * (out["win_rate"] - even)
    out["diff_low_pp"] = 100 * (out["ci_low"] - even)
    out["diff_high_pp"] = 100 * (out["ci_high"] - even)
    out["p_value"] = [rate_p_value(k, m, even) for k, m in zip(out["wins"], out["seat_games"])]
    family = out["p_value"].to_numpy().copy()
    if n == 2:
        family[1:] = np.nan  # the mirror image of seat 0
    out["p_holm"] = adjust(family, "holm")
    if n == 2:
        out["p_holm"] = out["p_holm"].iloc[0]
    return out


def first_minus_last(df: pd.DataFrame) -> dict:
    """Win of the first seat minus win of the last seat, paired within each game."""
    last = int(df["n_players"].iloc[0]) - 1
    first_w = df.loc[df["seat"] == 0, ["game_index", "win"]].set_index("game_index")["win"]
    last_w = df.loc[df["seat"] == last, ["game_index", "win"]].set_index("game_index")["win"]
    d = DescrStatsW((first_w - last_w.reindex(first_w.index)).to_numpy())
    lo, hi = d.tconfint_mean() if d.nobs > 1 else (np.nan, np.nan)
    p = d.ttest_mean()[1] if d.nobs > 1 and d.std > 0 else np.nan
    return {"test": f"seat 0 minus seat {last}, paired within games", "games": int(d.nobs),
            "estimate_pp": 100 * d.mean, "ci_low_pp": 100 * lo, "ci_high_pp": 100 * hi,
            "statistic": np.nan, "df": np.nan, "p_value": p}
