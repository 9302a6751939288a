"""Bot strength: per bot (clustered by game where a bot fills several slots), per slot, and
the null check that identical bots come out equal."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as st

from analysis.rates import win_rates
from analysis.stats import clustered_rates, clustered_wilson, per_game


def bot_table(df: pd.DataFrame, game: np.ndarray) -> pd.DataFrame:
    """Per bot: win rate and interval, the difference from an even share. A bot in several
    slots has several seat-games per game, correlated within the game: its interval is
    clustered by game."""
    out = win_rates(df, "bot")
    even = 1 / int(df["n_players"].iloc[0])
    slots = df.groupby("bot", observed=True)["bot_slot"].nunique()
    out["slots"] = slots.reindex(out["bot"]).to_numpy()
    out["interval"] = "Wilson"
    win = df["win"].to_numpy()
    n_games = int(game.max()) + 1
    for i, row in out.iterrows():
        if row["slots"] > 1:
            _, mean, cov = clustered_rates([per_game(win, game, n_games,
                                                     (df["bot"] == row["bot"]).to_numpy())])
            out.loc[i, ["ci_low", "ci_high"]] = clustered_wilson(
                mean[0], float(np.sqrt(cov[0, 0])), row["seat_games"])
            out.loc[i, "interval"] = "Wilson, clustered by game"
    out["even_share"] = even
    out["diff_pp"] = 100 * (out["win_rate"] - even)
    out["diff_low_pp"] = 100 * (out["ci_low"] - even)
    out["diff_high_pp"] = 100 * (out["ci_high"] - even)
    return out


def slot_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per bot slot (the position in --bots): each slot plays one seat-game per game."""
    return win_rates(df, ["bot_slot", "bot"])


def identical_bots(df: pd.DataFrame, game: np.ndarray) -> pd.DataFrame:
    """For each bot that fills several slots: do its slots win equally often? A Wald test of
    equal slot rates with the covariance clustered by game (slots of one game are
    correlated). Identical bots should pass it 95% of the time."""
    rows = []
    win = df["win"].to_numpy()
    slot = df["bot_slot"].to_numpy()
    n_games = int(game.max()) + 1
    for bot, g in df.groupby("bot", observed=True):
        slots = np.sort(g["bot_slot"].unique())
        if len(slots) < 2:
            continue
        _, mean, cov = clustered_rates([per_game(win, game, n_games, slot == s)
                                        for s in slots])
        r = np.hstack([-np.ones((len(slots) - 1, 1)), np.eye(len(slots) - 1)])  # slot j - first
        d = r @ mean
        stat = float(d @ np.linalg.solve(r @ cov @ r.T, d))
        spread = float(mean.max() - mean.min())
        rows.append({"bot": bot, "bot_slots": ", ".join(str(s) for s in slots),
                     "max_minus_min_pp": 100 * spread, "wald_chi2": stat, "df": len(slots) - 1,
                     "p_value": float(st.chi2.sf(stat, len(slots) - 1))})
    return pd.DataFrame(rows)
