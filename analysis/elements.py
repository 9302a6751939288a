"""Setup elements, each answered as its kind allows (sim/core/declaration.py):

- dealt: each level (each item, for a dealt hand) against the average of the levels, the
  number the model of effects.py gives too; beside it the lift (holders against
  non-holders) and, for what some games lack, the holder against the seat-games of games
  where nobody holds it (the holder's own gain, not its opponents' loss); a causal
  difference, its p-value from a score test clustered by game, Holm and BH;
- kept: compared within bot and within the dealt context, never against the overall mean,
  and only where the bot chose both options in at least ``POSITIVITY`` of its seat-games
  (elsewhere "not identified"); from a dealt hand, per item: kept it against passed it,
  among the seat-games dealt it;
- game-level dealt elements: game length, scores and the start player's rate per level;
- held sets (outcomes): holders against eligible non-holders, an association without tests.

Differences of holders and non-holders share games (a board one seat holds is not held by
the others of that game), so their intervals are clustered by game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import ttest_ind
from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

from analysis.stats import (
    EXACT_BELOW,
    Z95,
    adjust,
    clustered_difference,
    clustered_score_p,
    deviations,
    fisher_p,
    per_game,
    wilson,
)
from sim.core.declaration import Element, GameElement, HeldSet

POSITIVITY = 0.05  # a kept option is compared only where a bot chose each side this often


def hand_items(col: pd.Series, sep: str) -> tuple[list[str], np.ndarray]:
    """The items of a column of hands ("A + B"), and which rows hold each: (items, a bool
    matrix of rows by items)."""
    col = col.astype("category")
    hands = [set(str(c).split(sep)) for c in col.cat.categories]
    items = sorted(set().union(*hands))
    per_hand = np.array([[i in h for i in items] for h in hands] + [[False] * len(items)],
                        dtype=bool)  # the last row: a missing value (code -1)
    return items, per_hand[col.cat.codes.to_numpy()]


def _difference_rows(df: pd.DataFrame, game: np.ndarray, items: list[tuple[str, np.ndarray,
                     np.ndarray]]) -> pd.DataFrame:
    """For each (name, holders, eligible) mask pair: the holders' rate and interval, the
    eligible non-holders' rate, and holders minus non-holders, clustered by game; the same
    difference of mean scores (points)."""
    win = df["win"].to_numpy()
    score = df["score"].to_numpy().astype(float)
    n_games = int(game.max()) + 1
    totals: dict[int, tuple] = {}  # per-game sums of each eligible mask (win, score)
    rows = []
    for name, held, eligible in items:
        if id(eligible) not in totals:
            totals[id(eligible)] = (per_game(win, game, n_games, eligible),
                                    per_game(score, game, n_games, eligible))
        (s_all, n_all), (p_all, _) = totals[id(eligible)]
        s_held, n_held = per_game(win, game, n_games, held)
        n_a, rate_a, n_b, rate_b, diff, se = clustered_difference(
            (s_held, n_held), (s_all - s_held, n_all - n_held))
        if n_a == 0:
            continue
        p_held, _ = per_game(score, game, n_games, held)
        *_, points, points_se = clustered_difference((p_held, n_held),
                                                     (p_all - p_held, n_all - n_held))
        # the holder against the seat-games of games where nobody holds it
        unheld = (n_held == 0) & (n_all > 0)
        s_un, n_un = s_all * unheld, n_all * unheld
        if n_un.sum() > 0:
            *_, vs_unheld, un_se = clustered_difference((s_held, n_held), (s_un, n_un))
        else:
            vs_unheld = un_se = np.nan
        rows.append({"item": name, "eligible_seat_games": int(n_a + n_b),
                     "seat_games": int(n_a), "held_share": n_a / (n_a + n_b),
                     "wins": float(s_held.sum()), "win_rate": rate_a,
                     "others_win_rate": rate_b, "diff_pp": 100 * diff,
                     "diff_low_pp": 100 * (diff - Z95 * se),
                     "diff_high_pp": 100 * (diff + Z95 * se), "se": se, "others": n_b,
                     "unheld_seat_games": int(n_un.sum()),
                     "vs_unheld_pp": 100 * vs_unheld,
                     "vs_unheld_low_pp": 100 * (vs_unheld - Z95 * un_se),
                     "vs_unheld_high_pp": 100 * (vs_unheld + Z95 * un_se),
                     "points": points, "points_low": points - Z95 * points_se,
                     "points_high": points + Z95 * points_se})
    out = pd.DataFrame(rows)
    if len(out):
        out["ci_low"], out["ci_high"] = wilson(out["wins"], out["seat_games"])
    return out


def dealt_table(df: pd.DataFrame, game: np.ndarray, element: Element) -> pd.DataFrame:
    """Per level of a dealt seat element (per item, for a hand): its win rate against the
    average of the levels' (effect_pp, the model's number), the lift (holders against
    non-holders, diff_pp) and the holder against games where nobody holds it (vs_unheld),
    in win rate and in points, with p-values (a score test clustered by game; Fisher's
    exact test where a cell has fewer than 30 seat-games) adjusted by Holm (family-wise)
    and Benjamini-Hochberg (false discovery) across the levels."""
    col = df[element.column].astype("category")
    valid = col.notna().to_numpy()
    if element.sep:
        names, held = hand_items(col, element.sep)
        masks = {n: held[:, j] for j, n in enumerate(names)}
    else:
        masks = {str(lv): (col == lv).to_numpy() for lv in col.cat.categories}
    out = _difference_rows(df, game, [(n, m, valid) for n, m in masks.items() if m.any()])
    if not len(out):
        return out
    win = df["win"].to_numpy()
    n_games = int(game.max()) + 1
    dev, dev_se = deviations([per_game(win, game, n_games, masks[i]) for i in out["item"]])
    out.insert(out.columns.get_loc("diff_pp"), "effect_pp", 100 * dev)
    out.insert(out.columns.get_loc("diff_pp"), "effect_low_pp", 100 * (dev - Z95 * dev_se))
    out.insert(out.columns.get_loc("diff_pp"), "effect_high_pp", 100 * (dev + Z95 * dev_se))
    p = []
    for r in out.itertuples():
        held = masks[r.item]
        if min(r.seat_games, r.others) < EXACT_BELOW:
            p.append(fisher_p(r.wins, r.seat_games, win[valid & ~held].sum(), r.others))
        else:
            p.append(clustered_score_p(win, game, held, valid))
    out["p_value"] = p
    out["p_holm"] = adjust(out["p_value"], "holm")
    out["p_bh"] = adjust(out["p_value"], "fdr_bh")
    out["mean_score"] = [df.loc[masks[i], "score"].mean() for i in out["item"]]
    return out.rename(columns={"item": element.column}).drop(columns=["se", "others"])


def kept_table(df: pd.DataFrame, element: Element, random_bots: set[str]) -> pd.DataFrame:
    """Per bot, dealt context and option: how often the bot chose it, its win rate, and the
    difference from the context's first option for the same bot (Newcombe interval, a
    two-proportion test Holm-adjusted within the table). Observational, except for
    a bot that chooses at random, where the comparison is a randomised one (causal). The
    Newcombe interval takes a cell's seat-games as independent: a dealt context (a board)
    is held by one seat of a game, so one cell has at most one seat-game per game."""
    ctx = element.context
    keys = ["bot", ctx, element.column] if ctx else ["bot", element.column]
    g = df.groupby(keys, observed=True)["win"]
    out = pd.DataFrame({"seat_games": g.size(), "wins": g.sum()}).reset_index()
    if ctx is None:
        out.insert(1, "context", "(any)")
        ctx = "context"
    out["win_rate"] = out["wins"] / out["seat_games"]
    out["ci_low"], out["ci_high"] = wilson(out["wins"], out["seat_games"])
    cell = out.groupby(["bot", ctx], observed=True)
    out["chosen_share"] = out["seat_games"] / cell["seat_games"].transform("sum")
    first = cell.cumcount() == 0
    ref = out[first].set_index(["bot", ctx])
    idx = pd.MultiIndex.from_frame(out[["bot", ctx]])
    out["reference"] = ref[element.column].reindex(idx).astype(str).to_numpy()
    ref_wins = ref["wins"].reindex(idx).to_numpy()
    ref_n = ref["seat_games"].reindex(idx).to_numpy()
    out["diff_pp"] = 100 * (out["win_rate"] - ref_wins / ref_n)
    lo, hi = np.full(len(out), np.nan), np.full(len(out), np.nan)
    p = np.full(len(out), np.nan)
    for i in np.flatnonzero(~first.to_numpy()):
        args = (out["wins"].iat[i], out["seat_games"].iat[i], ref_wins[i], ref_n[i])
        lo[i], hi[i] = confint_proportions_2indep(*args, method="newcombe")
        with np.errstate(divide="ignore", invalid="ignore"):  # a rate of 0: its ratios
            p[i] = test_proportions_2indep(*args).pvalue
    out["diff_low_pp"], out["diff_high_pp"] = 100 * lo, 100 * hi
    out["p_value"] = p
    out.loc[first.to_numpy(), "diff_pp"] = np.nan
    ref_share = out["chosen_share"].where(first).groupby(
        [out["bot"], out[ctx]], observed=True).transform("first")
    # positivity: a bot that (almost) never chooses one of the two says nothing about it
    out["identified"] = (out["chosen_share"] >= POSITIVITY) & (ref_share >= POSITIVITY)
    gone = (~first & ~out["identified"]).to_numpy()
    out.loc[gone, ["diff_pp", "diff_low_pp", "diff_high_pp", "p_value"]] = np.nan
    out["p_holm"] = adjust(out["p_value"], "holm")
    out["causal"] = out["bot"].astype(str).isin(random_bots)
    return out


def kept_from_hand_table(df: pd.DataFrame, element: Element, sep: str,
                         random_bots: set[str]) -> pd.DataFrame:
    """A kept element chosen from a dealt hand, per bot and item: among the seat-games
    dealt the item, how often the bot kept it, and its win rate and mean score when kept
    against when passed (Newcombe and Welch intervals; p-values Holm-adjusted within the
    table). Observational, except for a bot that chooses at random (causal)."""
    names, dealt = hand_items(df[element.context], sep)
    kept_col = df[element.column].astype(str).to_numpy()
    win, score = df["win"].to_numpy(), df["score"].to_numpy().astype(float)
    rows = []
    for bot, idx in df.groupby("bot", observed=True).indices.items():
        for j, name in enumerate(names):
            rows_dealt = idx[dealt[idx, j]]
            kept = kept_col[rows_dealt] == name
            n_k, n_p = int(kept.sum()), int((~kept).sum())
            if n_k == 0 or n_p == 0:
                continue
            w_k, w_p = win[rows_dealt][kept].sum(), win[rows_dealt][~kept].sum()
            lo, hi = confint_proportions_2indep(w_k, n_k, w_p, n_p, method="newcombe")
            with np.errstate(divide="ignore", invalid="ignore"):  # a rate of 0: its ratios
                p = test_proportions_2indep(w_k, n_k, w_p, n_p).pvalue
            s_k, s_p = score[rows_dealt][kept], score[rows_dealt][~kept]
            ci = ttest_ind(s_k, s_p, equal_var=False).confidence_interval() \
                if min(n_k, n_p) > 1 else None
            share = n_k / (n_k + n_p)
            rows.append({"bot": bot, element.column: name, "dealt_seat_games": n_k + n_p,
                         "kept_share": share,
                         "identified": POSITIVITY <= share <= 1 - POSITIVITY,
                         "win_rate_kept": w_k / n_k,
                         "win_rate_passed": w_p / n_p, "diff_pp": 100 * (w_k / n_k - w_p / n_p),
                         "diff_low_pp": 100 * lo, "diff_high_pp": 100 * hi, "p_value": p,
                         "points": s_k.mean() - s_p.mean(),
                         "points_low": ci.low if ci else np.nan,
                         "points_high": ci.high if ci else np.nan})
    out = pd.DataFrame(rows)
    if len(out):
        # a bot that (almost) always keeps or passes an item says nothing about keeping it
        gone = ~out["identified"]
        out.loc[gone, ["diff_pp", "diff_low_pp", "diff_high_pp", "p_value", "points",
                       "points_low", "points_high"]] = np.nan
        out["p_holm"] = adjust(out["p_value"], "holm")
        out["causal"] = out["bot"].astype(str).isin(random_bots)
    return out


def game_element_table(df: pd.DataFrame, element: GameElement, length: str | None
                       ) -> pd.DataFrame:
    """Per column and level of a dealt game element: games, share, mean game length, mean
    score per seat, and the start player's win rate with its interval."""
    first = df[df["seat"] == 0]
    mean_score = df.groupby("game_index")["score"].mean().reindex(first["game_index"]).to_numpy()
    rows = []
    for c in element.columns:
        for level, idx in first.groupby(c, observed=True).indices.items():
            g = first.iloc[idx]
            lo, hi = wilson(g["win"].sum(), len(g))
            rows.append({"column": c, "level": level, "games": len(g),
                         "share_of_games": len(g) / len(first),
                         **({f"mean_{length}": g[length].mean()} if length else {}),
                         "mean_score": mean_score[idx].mean(),
                         "start_player_win_rate": g["win"].mean(),
                         "ci_low": float(lo[0]), "ci_high": float(hi[0])})
    return pd.DataFrame(rows)


def held_table(df: pd.DataFrame, game: np.ndarray, held: HeldSet) -> pd.DataFrame:
    """Per item of a held set: how often an eligible seat holds it, the holders' win rate,
    and holders minus eligible non-holders. An association: holding follows from play."""
    bits = df[held.column].to_numpy().astype(np.int64)
    everyone = np.ones(len(df), dtype=bool)
    in_play = [(df[c].cat.codes.to_numpy(), list(df[c].cat.categories)) for c in held.in_play]
    items = []
    for i, name in enumerate(held.names):
        eligible = np.logical_or.reduce([codes == cats.index(name) if name in cats else
                                         np.zeros(len(df), dtype=bool)
                                         for codes, cats in in_play]) if in_play else everyone
        if eligible.any():
            items.append((name, ((bits >> i) & 1).astype(bool) & eligible, eligible))
    out = _difference_rows(df, game, items)
    return out.rename(columns={"item": held.item}).drop(columns=["se", "others"],
                                                        errors="ignore")
