"""Festival's analysis: every table of the report, computed from the results table alone."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.rates import precision, win_rates, with_lift
from analysis.stats import wilson
from sim.festival.results import SOURCES

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def seat_advantage(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate by seat (seat 0 is the start player) against an even share."""
    return with_lift(win_rates(df, "seat"), 1 / df["n_players"].iloc[0])


def bot_strength(df: pd.DataFrame) -> pd.DataFrame:
    return with_lift(win_rates(df, "bot"), 1 / df["n_players"].iloc[0])


def bot_by_seat(df: pd.DataFrame) -> pd.DataFrame:
    return win_rates(df, ["bot", "seat"])


def board_dealt(df: pd.DataFrame) -> pd.DataFrame:
    """Boards are dealt at random: a causal comparison."""
    return with_lift(win_rates(df, "board"), df["win"].mean())


def start_side_kept(df: pd.DataFrame) -> pd.DataFrame:
    """Starting objective sides as kept by the bots (a choice, so not causal), and how often
    each side is chosen when its colour is dealt."""
    out = with_lift(win_rates(df, "start_side"), df["win"].mean())
    dealt = df.groupby("board", observed=True).size()
    colour = out["start_side"].astype(str).str.rsplit("-", n=1).str[0]
    out["chosen_share"] = out["seat_games"].to_numpy() / dealt.reindex(colour).to_numpy()
    return out


def _holder_rates(df: pd.DataFrame, bits_column: str, names: list[str],
                  eligible: dict[str, np.ndarray] | None, label: str) -> pd.DataFrame:
    """Win rate of the seats holding each item (bit i of ``bits_column`` is ``names[i]``),
    with the lift over all eligible seats. Bits are read one at a time: a million-game
    table stays a million-game table."""
    rows = []
    wins = df["win"].to_numpy()
    bits = df[bits_column].to_numpy().astype(np.int64)
    everyone = np.ones(len(df), dtype=bool)
    for i, name in enumerate(names):
        mask = ((bits >> i) & 1).astype(bool)
        base = eligible[name] if eligible is not None else everyone
        n = int(mask.sum())
        if base.sum() == 0:
            continue
        k = float(wins[mask].sum())
        rows.append({label: name, "eligible_seat_games": int(base.sum()), "seat_games": n,
                     "held_share": n / base.sum(), "wins": k,
                     "win_rate": k / n if n else np.nan,
                     "baseline": float(wins[base].mean())})
    out = pd.DataFrame(rows)
    out["ci_low"], out["ci_high"] = wilson(out["wins"], out["seat_games"])
    return with_lift(out, out["baseline"])


def objectives_completed(df: pd.DataFrame, cards: list[str]) -> pd.DataFrame:
    """Per objective card of the deck: how often a seat completes it and how often that seat
    wins. (Starting objectives have their own table.)

    Observational: completing a card is a consequence of play, so the lift says which cards
    go with winning, not which cards cause it.
    """
    return _holder_rates(df, "objectives_done_set", cards, None, "card")


def crowd_claimed(df: pd.DataFrame, conditions: list[str]) -> pd.DataFrame:
    """Per crowd-pleaser condition: claim share when in play, win rate of the claimer."""
    crowd_cols = [c for c in df.columns if c.startswith("crowd_") and c[6:].isdigit()]
    in_play = {name: np.zeros(len(df), dtype=bool) for name in conditions}
    for c in crowd_cols:
        for name in conditions:
            in_play[name] |= (df[c] == name).to_numpy()
    return _holder_rates(df, "crowd_set", conditions, in_play, "condition")


def crowd_sides_in_play(df: pd.DataFrame) -> pd.DataFrame:
    """Per crowd-pleaser side in play (dealt at random): game length, scores, start-player
    win rate."""
    rows = []
    games = df[df["seat"] == 0]
    crowd_cols = [c for c in df.columns if c.startswith("crowd_") and c[6:].isdigit()]
    total = df.groupby("game_index")["score"].mean()
    for c in crowd_cols:
        for side, g in games.groupby(c, observed=True):
            lo, hi = wilson(g["win"].sum(), len(g))
            rows.append({"tile": c, "side_in_play": side, "games": len(g),
                         "share_of_games": len(g) / len(games),
                         "mean_turns": g["turns"].mean(),
                         "mean_score": total.loc[g["game_index"]].mean(),
                         "start_player_win_rate": g["win"].mean(),
                         "ci_low": float(lo), "ci_high": float(hi)})
    return pd.DataFrame(rows)


def _describe(x: pd.Series, **labels) -> dict:
    """Mean, sd, range and quantiles of one measure, as a table row."""
    x = x.astype(float)
    row = {**labels, "mean": x.mean(), "sd": x.std(), "min": x.min(), "max": x.max()}
    for q in QUANTILES:
        row[f"p{int(q * 100)}"] = x.quantile(q)
    return row


def score_distribution(df: pd.DataFrame) -> pd.DataFrame:
    """Total score and each source, by bot."""
    return pd.DataFrame([
        _describe(g[col], bot=bot, measure=col)
        for bot, g in df.groupby("bot", observed=True)
        for col in ["score"] + [f"score_{s}" for s in SOURCES]
    ])


def game_length(df: pd.DataFrame) -> pd.DataFrame:
    games = df[df["seat"] == 0]
    return pd.DataFrame([_describe(games[col], measure=col) for col in ("turns", "rounds")])


def end_triggers(df: pd.DataFrame) -> pd.DataFrame:
    games = df[df["seat"] == 0]
    counts = games["end_trigger"].value_counts()
    counts = counts[counts > 0]
    out = pd.DataFrame({"end_trigger": counts.index.astype(str), "games": counts.to_numpy()})
    out["share"] = out["games"] / len(games)
    out["ci_low"], out["ci_high"] = wilson(out["games"], len(games))
    mean_turns = games.groupby("end_trigger", observed=True)["turns"].mean()
    out["mean_turns"] = mean_turns.reindex(out["end_trigger"]).to_numpy()
    return out


def analyse(df: pd.DataFrame, cards: list[str], conditions: list[str]) -> dict[str, pd.DataFrame]:
    """Every table of the report, by name. ``cards`` are the deck's objective cards in bit
    order, ``conditions`` the crowd-pleaser conditions in bit order."""
    seats = seat_advantage(df)
    bots = bot_strength(df)
    tables = {
        "win_rate_by_seat": seats,
        "win_rate_by_bot": bots,
        "win_rate_by_bot_and_seat": bot_by_seat(df),
        "board_dealt": board_dealt(df),
        "start_side_kept": start_side_kept(df),
        "crowd_sides_in_play": crowd_sides_in_play(df),
        "crowd_claimed": crowd_claimed(df, conditions),
        "objectives_completed": objectives_completed(df, cards),
        "score_distribution": score_distribution(df),
        "game_length": game_length(df),
        "end_trigger": end_triggers(df),
    }
    prec = pd.concat([
        precision(seats).assign(table="win_rate_by_seat", group=seats["seat"].astype(str)),
        precision(bots).assign(table="win_rate_by_bot", group=bots["bot"].astype(str)),
    ])
    tables["precision"] = prec[["table", "group", "seat_games", "win_rate", "ci_half_width",
                                "games_for_1pp", "games_for_0.5pp"]]
    return tables
