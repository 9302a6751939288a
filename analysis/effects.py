"""What matters: a logistic model of winning, each effect per bot and pooled.

``win`` (a shared win counts 1/k: a fractional logit, fine with robust errors) is modelled
on seat, bot and every dealt element (but hands, answered per item in their own tables)
with statsmodels' Logit, standard errors clustered by game. An effect belongs to the
line-up that produced it, so when the line-up has several bots the model lets each bot have
its own seat and element effects (every term interacted with bot), and each effect is shown
for each bot beside the pooled one, with a Wald test of whether the bots differ. A bot that
wins under ``MIN_WIN`` of its seat-games (a random bot) says nothing about what wins: it is
left out of the model, so it does not dilute the pooled effects.

Each level's effect is its deviation from the average of the levels: the mean change in win
probability when a seat-game moves to this level from the levels' average (every seat-game
moved whole, all else as it was), in percentage points with a delta-method 95% interval.
The average of the levels, not an arbitrary first level, is what a designer compares a
board with, and it is what the lift of the setup tables estimates too. The contrast with
the first level stays in the CSV (``vs_reference``). Points: the same deviation of mean
scores, with a bootstrap interval that resamples whole games (points.py).

The model is fitted on the first ``model_games`` games of the run (every game when the run
is smaller): every game is dealt independently, so those are a random sample, and the
intervals are that sample's.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as st
from scipy.special import expit
from statsmodels.discrete.discrete_model import Logit
from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

from analysis import MODEL_GAMES
from analysis.points import score_deviations
from analysis.rates import game_codes
from analysis.stats import Z95, adjust, normal_p
from sim.core.declaration import ResultsDeclaration

MIN_WIN = 0.01  # a bot winning less often than this is left out of the model
POOLED = "pooled"  # the ``bot`` of a row averaged over the bots in the model


@dataclass
class Factor:
    """A factor of the model: its name, its levels (the first is the reference of the
    design) and each seat-game's level code."""

    block: str  # causal or confounded (a seat with its bot, without rotation)
    name: str
    levels: list[str]
    codes: np.ndarray  # int: index into levels
    columns: dict = field(default_factory=dict)  # (level index, bot index or -1) -> column


def _levels(col: pd.Series) -> list:
    present = col.value_counts(sort=False)
    return [c for c in (col.cat.categories if hasattr(col, "cat") else sorted(present.index))
            if present.get(c, 0) > 0]


def _factor(df: pd.DataFrame, column: str, name: str, block: str) -> Factor | None:
    col = df[column]
    levels = _levels(col)
    if len(levels) < 2:
        return None
    index = {v: k for k, v in enumerate(levels)}
    codes = col.map(index).to_numpy(dtype=float)
    return Factor(block, name, [str(v) for v in levels],
                  np.nan_to_num(codes, nan=-1).astype(int))


def factors(df: pd.DataFrame, decl: ResultsDeclaration, seat_bot_confounded: bool
            ) -> list[Factor]:
    """Seat (with its bot, when the two cannot be told apart), bot, and every dealt element
    that is not a hand."""
    out = []
    if seat_bot_confounded:
        bot = df.groupby("seat", observed=True)["bot"].first().astype(str)
        f = _factor(df, "seat", "seat with its bot", "confounded")
        if f:
            f.levels = [f"seat {s} with {bot[int(s)]}" for s in f.levels]
            out.append(f)
    else:
        out += [f for f in (_factor(df, "seat", "seat", "causal"),
                            _factor(df, "bot", "bot", "causal")) if f]
    for e in decl.of_kind("dealt"):
        if not e.sep:
            f = _factor(df, e.column, e.label, "causal")
            if f:
                out.append(f)
    return out


def design(fs: list[Factor], bot_codes: np.ndarray, n_bots: int) -> np.ndarray:
    """The design matrix: a constant, then each factor's level dummies (but its first
    level's), and, when there are several bots, those dummies again for each bot but the
    first (each bot's own effects). The bot factor itself is never interacted, nor a seat
    that always holds one bot."""
    cols = [np.ones(len(bot_codes))]
    for f in fs:
        for k in range(1, len(f.levels)):
            f.columns[(k, -1)] = len(cols)
            cols.append((f.codes == k).astype(float))
    for f in fs:
        if f.name == "bot" or f.block == "confounded" or n_bots < 2:
            continue  # a seat with its bot already is the bot's
        for b in range(1, n_bots):
            for k in range(1, len(f.levels)):
                f.columns[(k, b)] = len(cols)
                cols.append(((f.codes == k) & (bot_codes == b)).astype(float))
    return np.column_stack(cols)


def fit_logit(win: np.ndarray, game: np.ndarray, x: np.ndarray):
    """Logit of win on the design, clustered by game."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (ConvergenceWarning, PerfectSeparationWarning,
                                         RuntimeWarning))
        return Logit(win, x).fit(disp=0, cov_type="cluster", cov_kwds={"groups": game})


def moved(x: np.ndarray, f: Factor, k: int, fs: list[Factor], bot_codes: np.ndarray
          ) -> np.ndarray:
    """The design with every seat-game moved to level k of ``f``, all else as it was: f's
    dummies (and, per bot, its interactions) set for k. Moving a seat-game to another bot
    also gives it that bot's own effects of every other factor."""
    xk = x.copy()
    cols = list(f.columns.values())
    xk[:, cols] = 0.0
    if k:
        xk[:, f.columns[(k, -1)]] = 1.0
    if f.name == "bot":
        for g in fs:
            inter = [c for (_, bot), c in g.columns.items() if bot >= 0]
            if not inter:
                continue
            xk[:, inter] = 0.0
            if k:
                for level in range(1, len(g.levels)):
                    xk[g.codes == level, g.columns[(level, k)]] = 1.0
    else:
        for bot in range(1, bot_codes.max() + 1 if len(bot_codes) else 0):
            c = f.columns.get((k, bot))
            if c is not None:
                xk[bot_codes == bot, c] = 1.0
    return xk


def level_means(res, x: np.ndarray, f: Factor, fs: list[Factor], bot_codes: np.ndarray,
                groups: dict) -> dict:
    """For each group of seat-games (name -> bool mask) and each level k of ``f``: the mean
    win probability with every seat-game of the group moved to level k, and its gradient
    in the model's parameters: {group: (means[K], gradients[K, p])}."""
    b = res.params
    out = {name: (np.empty(len(f.levels)), np.empty((len(f.levels), len(b))))
           for name in groups}
    for k in range(len(f.levels)):
        xk = moved(x, f, k, fs, bot_codes)
        p = expit(xk @ b)
        w = p * (1 - p)
        for name, mask in groups.items():
            means, grads = out[name]
            means[k] = p[mask].mean()
            grads[k] = xk[mask].T @ w[mask] / mask.sum()
    return out


@dataclass
class Effects:
    table: pd.DataFrame  # effects.csv
    games: int  # games in the model sample
    seat_test: dict | None  # joint Wald test of "no seat effect"
    left_out: list[str]  # bots left out of the model (they hardly ever win)
    bots: list[str]  # bots in the model


def model_sample(df: pd.DataFrame, model_games: int) -> pd.DataFrame:
    first = df["game_index"].min()
    return df[df["game_index"] < first + model_games] if model_games else df


def _wald(res, columns: list[int]) -> tuple[float, int, float]:
    if not columns:
        return np.nan, 0, np.nan
    r = np.eye(len(res.params))[columns]
    d = r @ res.params
    v = r @ res.cov_params() @ r.T
    try:
        stat = float(d @ np.linalg.solve(v, d))
    except np.linalg.LinAlgError:
        return np.nan, len(columns), np.nan
    return stat, len(columns), float(st.chi2.sf(stat, len(columns)))


def effects(df: pd.DataFrame, decl: ResultsDeclaration, seat_bot_confounded: bool,
            model_games: int = MODEL_GAMES) -> Effects:
    sample = model_sample(df, model_games)
    rates = sample.groupby("bot", observed=True)["win"].mean()
    left_out = [str(b) for b, r in rates.items() if r < MIN_WIN]
    if len(left_out) < len(rates):
        sample = sample[~sample["bot"].astype(str).isin(left_out)]
    else:
        left_out = []
    bots = [str(b) for b in _levels(sample["bot"])]
    bot_codes = sample["bot"].astype(str).map({b: k for k, b in enumerate(bots)}).to_numpy()
    game, n_games = game_codes(sample)
    win = sample["win"].to_numpy().astype(float)
    fs = factors(sample, decl, seat_bot_confounded)
    empty = Effects(pd.DataFrame(), n_games, None, left_out, bots)
    if not fs:
        return empty
    x = design(fs, bot_codes, len(bots))
    try:
        res = fit_logit(win, game, x)
    except (np.linalg.LinAlgError, ValueError, ZeroDivisionError):
        return empty  # too few games to fit: the tables still stand
    cov = res.cov_params()
    groups = {POOLED: np.ones(len(sample), dtype=bool)}
    if len(bots) > 1:
        groups |= {b: bot_codes == k for k, b in enumerate(bots)}
    score = sample["score"].to_numpy().astype(float)
    points = score_deviations(score, game, n_games,
                              [[f.codes == k for k in range(len(f.levels))] for f in fs])
    rows, seat_test = [], None
    for f, (pts, pts_lo, pts_hi) in zip(fs, points):
        own = [c for (k, bot), c in f.columns.items() if bot >= 0]
        _, _, interaction_p = _wald(res, own)
        per = level_means(res, x, f, fs, bot_codes,
                          {POOLED: groups[POOLED]} if f.name == "bot" or f.block == "confounded"
                          else groups)
        for group, (means, grads) in per.items():
            n_group = int(groups[group].sum())
            dev = means - means.mean()
            dgrad = grads - grads.mean(axis=0)
            for k, level in enumerate(f.levels):
                se = float(np.sqrt(max(dgrad[k] @ cov @ dgrad[k], 0.0)))
                vs = means[k] - means[0]
                vgrad = grads[k] - grads[0]
                vse = float(np.sqrt(max(vgrad @ cov @ vgrad, 0.0)))
                at = groups[group] & (f.codes == k)
                rows.append({
                    "block": f.block, "factor": f.name, "level": level, "bot": group,
                    "seat_games": int(at.sum()), "of_seat_games": n_group,
                    "effect_pp": 100 * dev[k], "ci_low_pp": 100 * (dev[k] - Z95 * se),
                    "ci_high_pp": 100 * (dev[k] + Z95 * se),
                    "p_value": float(normal_p(dev[k], se)) if se > 0 else np.nan,
                    "win_rate_at_level": means[k],
                    "interaction_p": interaction_p if group == POOLED else np.nan,
                    "reference": f.levels[0], "vs_reference_pp": 100 * vs,
                    "vs_reference_low_pp": 100 * (vs - Z95 * vse),
                    "vs_reference_high_pp": 100 * (vs + Z95 * vse),
                    **({"points": pts[k], "points_ci_low": pts_lo[k],
                        "points_ci_high": pts_hi[k]} if group == POOLED else
                       {"points": np.nan, "points_ci_low": np.nan, "points_ci_high": np.nan})})
        if f.name == "seat":
            stat, dof, p = _wald(res, list(f.columns.values()))
            seat_test = {"test": "no seat effect (joint Wald test of the model's seat "
                         "terms, every bot's, clustered by game)", "games": n_games,
                         "statistic": stat, "df": dof, "p_value": p}
    table = pd.DataFrame(rows)
    table["p_holm"] = np.nan
    for _, idx in table.groupby(["factor", "bot"], sort=False).groups.items():
        table.loc[idx, "p_holm"] = adjust(table.loc[idx, "p_value"], "holm")
    return Effects(table, n_games, seat_test, left_out, bots)
