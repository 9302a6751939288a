"""What matters: a logistic model of winning, effects as average marginal effects.

``win`` (a shared win counts 1/k: a fractional logit, fine with robust errors) is modelled
on seat, bot and every dealt element (but hands, answered per item in their own tables)
with statsmodels' Logit, standard errors clustered by game. Each level's effect against its
reference level is its average marginal effect (the mean change in win probability when a
seat-game switches from the reference to that level) in percentage points with its 95%
interval, beside the mean score difference with a bootstrap interval paired by game
(points.py). Kept elements enter a second model on top of the first, as a separate
observational block: a kept option is compared with the context's reference option for the
same dealt context (but a choice from a dealt hand, answered per item in its own table).

The model is fitted on the first ``model_games`` games of the run (every game when the run
is smaller): every game is dealt independently, so those are a random sample, and the
intervals are that sample's.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit
from statsmodels.discrete.discrete_model import Logit
from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

from analysis import MODEL_GAMES
from analysis.points import score_differences
from analysis.rates import game_codes
from analysis.stats import Z95, adjust, normal_p
from sim.core.declaration import ResultsDeclaration


@dataclass
class Term:
    block: str  # causal, observational or confounded
    factor: str  # seat, bot or an element's label
    level: str
    reference: str
    rows: np.ndarray  # bool: the seat-games at this level
    ref_rows: np.ndarray  # bool: the seat-games at the reference level
    within: np.ndarray | None = None  # bool: the seat-games that could take this level


def _levels(col: pd.Series) -> list:
    present = col.value_counts(sort=False)
    return [c for c in (col.cat.categories if hasattr(col, "cat") else sorted(present.index))
            if present.get(c, 0) > 0]


def _factor_terms(df: pd.DataFrame, column: str, factor: str, block: str) -> list[Term]:
    col = df[column]
    levels = _levels(col)
    ref = (col == levels[0]).to_numpy() if levels else None
    return [Term(block, factor, str(lv), str(levels[0]), (col == lv).to_numpy(), ref)
            for lv in levels[1:]]


def terms(df: pd.DataFrame, decl: ResultsDeclaration, seat_bot_confounded: bool
          ) -> tuple[list[Term], list[Term]]:
    """The causal terms (seat, bot, dealt elements) and the kept (observational) terms."""
    causal: list[Term] = []
    if seat_bot_confounded:
        bot = df.groupby("seat", observed=True)["bot"].first().astype(str)
        for t in _factor_terms(df, "seat", "seat with its bot", "confounded"):
            t.level = f"seat {t.level} with {bot[int(t.level)]}"
            t.reference = f"seat {t.reference} with {bot[int(t.reference)]}"
            causal.append(t)
    else:
        causal += _factor_terms(df, "seat", "seat", "causal")
        causal += _factor_terms(df, "bot", "bot", "causal")
    for e in decl.of_kind("dealt"):
        if not e.sep:
            causal += _factor_terms(df, e.column, e.label, "causal")
    kept: list[Term] = []
    for e in decl.of_kind("kept"):
        if decl.hand(e.context):
            continue
        ctx = df[e.context] if e.context else pd.Series("(any)", index=df.index)
        for c in _levels(ctx):
            in_ctx = (ctx == c).to_numpy()
            options = _levels(df.loc[in_ctx, e.column])
            ref = in_ctx & (df[e.column] == options[0]).to_numpy() if options else None
            kept += [Term("observational", e.label, str(o), f"{options[0]} (same {e.context})"
                          if e.context else str(options[0]),
                          in_ctx & (df[e.column] == o).to_numpy(), ref, in_ctx)
                     for o in options[1:]]
    return causal, kept


def _fit(win: np.ndarray, game: np.ndarray, ts: list[Term]):
    """Logit of win on the terms' dummies (after a constant), clustered by game."""
    x = np.column_stack([np.ones(len(win))] + [t.rows.astype(float) for t in ts])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (ConvergenceWarning, PerfectSeparationWarning,
                                         RuntimeWarning))
        return Logit(win, x).fit(disp=0, cov_type="cluster", cov_kwds={"groups": game}), x


def factor_effects(res, x: np.ndarray, ts: list[Term]) -> tuple[np.ndarray, np.ndarray]:
    """Average marginal effect of each term, level against reference, and its delta-method
    standard error from the model's (clustered) covariance.

    Computed here rather than by statsmodels' ``get_margeff(dummy=True)``, which sets one
    dummy column to 0 and 1 while leaving the factor's other dummies as they are: for a
    factor of three or more levels that averages over impossible seat-games (a seat that
    is seat 1 and seat 2 at once). Here every seat-game is moved whole from the reference
    level to the term's level. For a two-level factor the two agree (a test checks it).
    """
    b = res.params
    cov = res.cov_params()
    eta = x @ b
    ame, se = np.empty(len(ts)), np.empty(len(ts))
    by_factor: dict[tuple[str, str, str], list[int]] = {}
    for i, t in enumerate(ts):
        by_factor.setdefault((t.block, t.factor, t.reference), []).append(i + 1)
    for cols in by_factor.values():
        x0 = x.copy()
        x0[:, cols] = 0  # every seat-game at the reference level
        eta0 = eta - x[:, cols] @ b[cols]
        p0 = expit(eta0)
        for j in cols:
            # averaged over the seat-games that could take the level (a kept option: those
            # of its dealt context), each moved from the reference level to this one
            w = ts[j - 1].within
            w = np.ones(len(x), dtype=bool) if w is None else w
            p1 = expit(eta0[w] + b[j])
            ame[j - 1] = np.mean(p1 - p0[w])
            d1, d0 = p1 * (1 - p1), p0[w] * (1 - p0[w])
            grad = (d1 - d0) @ x0[w] / w.sum()
            grad[j] += d1.mean()
            var = grad @ cov @ grad
            # a bot that (almost) never wins separates the model: no standard error then
            se[j - 1] = np.sqrt(var) if var >= 0 else np.nan
    return ame, se


@dataclass
class Effects:
    table: pd.DataFrame  # effects.csv
    games: int  # games in the model sample
    seat_test: dict | None  # joint Wald test of "no seat effect"


def model_sample(df: pd.DataFrame, model_games: int) -> pd.DataFrame:
    first = df["game_index"].min()
    return df[df["game_index"] < first + model_games] if model_games else df


def effects(df: pd.DataFrame, decl: ResultsDeclaration, seat_bot_confounded: bool,
            model_games: int = MODEL_GAMES) -> Effects:
    sample = model_sample(df, model_games)
    game, n_games = game_codes(sample)
    win = sample["win"].to_numpy().astype(float)
    causal, kept = terms(sample, decl, seat_bot_confounded)
    rows, seat_test = [], None
    for block_terms, base in ((causal, []), (kept, causal)):
        if not block_terms:
            continue
        try:
            res, x = _fit(win, game, base + block_terms)
        except (np.linalg.LinAlgError, ValueError, ZeroDivisionError):
            continue  # too few games to fit: the tables below still stand
        ame, se = factor_effects(res, x, base + block_terms)
        ame, se = ame[len(base):], se[len(base):]
        if block_terms is causal:
            seats = [i + 1 for i, t in enumerate(causal) if t.factor == "seat"]
            if seats:
                w = res.wald_test(np.eye(len(res.params))[seats], scalar=True)
                seat_test = {"test": "no seat effect (joint Wald test of the model's seat "
                             "terms, clustered by game)", "games": n_games,
                             "statistic": float(w.statistic), "df": len(seats),
                             "p_value": float(w.pvalue)}
        score = sample["score"].to_numpy().astype(float)
        if block_terms is kept:  # kept options are compared within bot: bot means removed
            score = score - sample.groupby("bot", observed=True)["score"].transform("mean")
        pts, lo, hi = score_differences(np.asarray(score), game, n_games,
                                        [(t.rows, t.ref_rows) for t in block_terms])
        for t, e, s, p, a, b in zip(block_terms, ame, se, pts, lo, hi):
            rows.append({"block": t.block, "factor": t.factor, "level": t.level,
                         "reference": t.reference, "seat_games": int(t.rows.sum()),
                         "effect_pp": 100 * e, "ci_low_pp": 100 * (e - Z95 * s),
                         "ci_high_pp": 100 * (e + Z95 * s), "p_value": float(normal_p(e, s)),
                         "points": p, "points_ci_low": a, "points_ci_high": b})
    table = pd.DataFrame(rows)
    if len(table):
        table["p_holm"] = np.nan
        for idx in table.groupby("block").groups.values():
            table.loc[idx, "p_holm"] = adjust(table.loc[idx, "p_value"], "holm")
    return Effects(table, n_games, seat_test)
