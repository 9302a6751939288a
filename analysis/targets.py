"""What a tuning aims at: numbers from the analysis, each with its 95% interval, a goal and a
band, and the objective the search minimises.

A target term is ``METRIC[,goal=G][,band=B][,weight=W]``:

- ``seat-spread``: seat 0's win rate minus the last seat's, paired within games (pp);
- ``seat-max``: the largest distance of a seat's win rate from an even share (pp);
- ``effect:ELEMENT=LEVEL``: a dealt level's win rate against the average of the levels, the
  report's effect (pp), e.g. ``effect:admin_pair=recruiter``;
- ``spread:ELEMENT``: the best dealt level's win rate minus the worst's (pp; every level
  within a band of the others when it is at most the band);
- ``length``: the mean game length in the declaration's first unit (turns, rounds);
- ``score``: the mean score of a seat.

A term is met when its interval lies inside goal +- band (for ``seat-max`` and ``spread``,
which cannot be below zero, when its upper end is at most goal + band). The objective is the
sum of weight x |estimate - goal| / band: terms in different units weigh in bands.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.elements import dealt_table
from analysis.rates import game_codes
from analysis.seats import first_minus_last, seat_table
from analysis.stats import mean_interval, per_game
from sim.core.declaration import ResultsDeclaration
from sim.core.errors import PlaytestError

METRICS = ("seat-spread", "seat-max", "effect:ELEMENT=LEVEL", "spread:ELEMENT", "length",
           "score")
ONE_SIDED = ("seat-max", "spread")  # never below zero: met by the upper end alone
BOOTSTRAP = 400  # resamples of games for a spread's interval


@dataclass(frozen=True)
class Term:
    metric: str  # seat-spread, seat-max, effect, spread, length, score
    element: str = ""
    level: str = ""
    goal: float = 0.0
    band: float = 1.0
    weight: float = 1.0

    @property
    def name(self) -> str:
        if self.metric == "effect":
            return f"effect:{self.element}={self.level}"
        return f"spread:{self.element}" if self.metric == "spread" else self.metric

    @property
    def unit(self) -> str:
        return {"length": "", "score": " points"}.get(self.metric, " pp")

    def met(self, low: float, high: float) -> bool:
        if self.metric in ONE_SIDED:
            return bool(high <= self.goal + self.band)
        return bool(self.goal - self.band <= low and high <= self.goal + self.band)

    def miss(self, estimate: float) -> float:
        """How far the estimate is from the goal, in bands, weighted."""
        return self.weight * abs(estimate - self.goal) / self.band


def _number(text: str, what: str, term: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise PlaytestError(f"--target {term}: {what} must be a number, got '{text}'") from None
    if not np.isfinite(value):
        raise PlaytestError(f"--target {term}: {what} must be a finite number, got '{text}'")
    return value


def parse_term(text: str) -> Term:
    """One ``--target`` term (see the module's docstring); refused in one line."""
    if not isinstance(text, str) or not text.strip():
        raise PlaytestError(f"--target takes METRIC[,goal=G][,band=B][,weight=W], got {text!r}")
    head, *options = [p.strip() for p in text.split(",")]
    kind, colon, rest = head.partition(":")
    fields: dict = {"metric": kind}
    if kind in ("effect", "spread") and colon:
        element, eq, level = rest.partition("=")
        if not element or (kind == "effect") != bool(eq and level):
            raise PlaytestError(f"--target {text}: write {kind}:ELEMENT"
                                + ("=LEVEL" if kind == "effect" else ""))
        fields |= {"element": element, "level": level}
    elif colon or kind not in ("seat-spread", "seat-max", "length", "score"):
        raise PlaytestError(f"--target {text}: unknown metric '{head}' (metrics: "
                            f"{', '.join(METRICS)})")
    for option in options:
        key, eq, value = option.partition("=")
        if key not in ("goal", "band", "weight") or not eq:
            raise PlaytestError(f"--target {text}: '{option}' is not goal=G, band=B or weight=W")
        fields[key] = _number(value, key, text)
    if fields.get("band", 1.0) <= 0 or fields.get("weight", 1.0) <= 0:
        raise PlaytestError(f"--target {text}: band and weight must be above 0")
    return Term(**fields)


def _spread(df: pd.DataFrame, column: str, seed: int) -> tuple[float, float, float]:
    """Best level's win rate minus the worst's (pp), with no lower end (NaN) and a 95% upper
    bound, the 95th percentile of a Poisson bootstrap of whole games (levels share games).
    The bootstrap's max - min is biased upward (noise alone spreads the levels), so its
    lower end is no evidence of a spread; the upper bound, which decides "met", is
    conservative for the same reason."""
    game, _ = game_codes(df)
    n_games = int(game.max()) + 1
    win = df["win"].to_numpy()
    col = df[column].astype("category")
    sums, counts = zip(*[per_game(win, game, n_games, (col == lv).to_numpy())
                         for lv in col.cat.categories])
    s, n = np.array(sums), np.array(counts, dtype=float)  # levels x games
    rates = s.sum(1) / n.sum(1)
    rng = np.random.default_rng(seed)
    spread = []
    for _ in range(BOOTSTRAP // 50):  # 50 resamples at a time: memory flat in the games
        w = rng.poisson(1.0, (50, n_games)).astype(float)
        boot = (w @ s.T) / np.maximum(w @ n.T, 1)
        spread.append(boot.max(1) - boot.min(1))
    spread = np.concatenate(spread)
    hi = np.percentile(spread, 95)
    return 100 * float(rates.max() - rates.min()), np.nan, 100 * float(hi)


def _element(decl: ResultsDeclaration, term: Term, columns=None):
    """The dealt element a term names, refused in one line when the game deals no such
    element (or a spread is asked of a hand); ``columns``: the results' columns, if known."""
    dealt = [e for e in decl.elements if e.kind == "dealt"]
    found = next((e for e in dealt if e.column == term.element), None)
    if found is None or (columns is not None and found.column not in columns):
        raise PlaytestError(f"--target {term.name}: no dealt element '{term.element}' (this "
                            f"game deals: {', '.join(e.column for e in dealt)})")
    if term.metric == "spread" and found.sep:
        raise PlaytestError(f"--target {term.name}: a hand ({found.column}) has no spread of "
                            "levels; aim at one item with effect:")
    return found


def check_terms(terms: list[Term], decl: ResultsDeclaration) -> None:
    """Every term's element is one the game deals (before any game is played)."""
    for t in terms:
        if t.metric in ("effect", "spread"):
            _element(decl, t)
        if t.metric == "length" and not decl.length:
            raise PlaytestError(f"--target length: {decl.title} records no game length")


def measure(term: Term, df: pd.DataFrame, decl: ResultsDeclaration, seed: int = 0
            ) -> tuple[float, float, float]:
    """(estimate, low, high) of ``term`` on a results table."""
    if term.metric == "seat-spread":
        r = first_minus_last(df)
        return r["estimate_pp"], r["ci_low_pp"], r["ci_high_pp"]
    if term.metric == "seat-max":
        t = seat_table(df)
        d, lo, hi = t["diff_pp"].abs(), t["diff_low_pp"], t["diff_high_pp"]
        nearest = np.where((lo <= 0) & (hi >= 0), 0.0, np.minimum(lo.abs(), hi.abs()))
        return float(d.max()), float(nearest.max()), float(np.maximum(lo.abs(), hi.abs()).max())
    if term.metric == "length":
        column = decl.length[0] if decl.length else None
        if column is None:
            raise PlaytestError(f"--target length: {decl.title} records no game length")
        return mean_interval(df.loc[df["seat"] == 0, column].to_numpy(dtype=float))
    if term.metric == "score":
        per = df.groupby("game_index", observed=True)["score"].mean().to_numpy(dtype=float)
        return mean_interval(per)
    element = _element(decl, term, df.columns)
    if term.metric == "spread":
        return _spread(df, element.column, seed)
    game, _ = game_codes(df)
    table = dealt_table(df, game, element)
    row = table[table[element.column].astype(str) == term.level]
    if row.empty:
        raise PlaytestError(f"--target {term.name}: '{term.level}' was not dealt (levels: "
                            f"{', '.join(map(str, table[element.column]))})")
    r = row.iloc[0]
    return float(r["effect_pp"]), float(r["effect_low_pp"]), float(r["effect_high_pp"])


def measured_text(m: dict, name: str, unit: str) -> str:
    """A term's estimate with its 95% interval, or its 95% upper bound where the term has no
    lower end (a spread)."""
    est, lo, hi = m[name], m[f"{name} low"], m[f"{name} high"]
    if lo != lo:  # NaN: no meaningful lower end
        return f"{est:+.2f}{unit} (95% upper bound {hi:+.2f})"
    return f"{est:+.2f}{unit} [{lo:+.2f}, {hi:+.2f}]"


def measure_all(terms: list[Term], df: pd.DataFrame, decl: ResultsDeclaration, seed: int = 0
                ) -> dict:
    """Every term's estimate and interval, whether it is met, and the objective."""
    out: dict = {"objective": 0.0, "met": True}
    for t in terms:
        est, lo, hi = measure(t, df, decl, seed)
        out[t.name] = est
        out[f"{t.name} low"], out[f"{t.name} high"] = lo, hi
        out["objective"] += t.miss(est)
        out["met"] &= t.met(lo, hi)
    return out

