"""Intervals, tests and corrections: statsmodels and scipy.stats, called the same way everywhere.

Win counts may be fractional (a win shared by k players counts 1/k): intervals take them as
they are, exact tests round them to whole wins. Below ``EXACT_BELOW`` seat-games in a cell a
test is exact (binomial, Fisher); above, it uses the normal approximation.

One thing here is computed by hand, ``clustered_rates``: the cluster-robust covariance of
group mean wins, clustered by game. It is exactly what statsmodels' OLS with
``cov_type="cluster"`` gives (tests/test_statistics.py checks the two agree to 1e-10), but
statsmodels takes 2.6 s per item on a million-game run and a table has up to 36 items; from
per-game sums it takes a few hundredths of a second.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    proportion_confint,
    proportions_ztest,
    samplesize_confint_proportion,
)

Z95 = st.norm.ppf(0.975)
EXACT_BELOW = 30  # seat-games in a cell below which a test is exact


def wilson(wins, n) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson score interval of wins/n (arrays; NaN where n is 0)."""
    wins, n = np.broadcast_arrays(np.atleast_1d(np.asarray(wins, dtype=float)),
                                  np.atleast_1d(np.asarray(n, dtype=float)))
    lo = np.full(wins.shape, np.nan)
    hi = np.full(wins.shape, np.nan)
    ok = n > 0
    if ok.any():
        lo[ok], hi[ok] = proportion_confint(wins[ok], n[ok], alpha=0.05, method="wilson")
    return lo, hi


def rate_p_value(wins: float, n: float, p0: float) -> float:
    """Two-sided p-value of a rate against ``p0``: exact binomial below EXACT_BELOW, else the
    score test (standard error under the null)."""
    if n <= 0:
        return float("nan")
    if n < EXACT_BELOW:
        return float(st.binomtest(int(round(wins)), int(n), p0).pvalue)
    return float(proportions_ztest(wins, n, value=p0, prop_var=p0)[1])


def fisher_p(wins_a: float, n_a: float, wins_b: float, n_b: float) -> float:
    """Fisher's exact test of two rates (for cells below EXACT_BELOW)."""
    a, b = int(round(wins_a)), int(round(wins_b))
    return float(st.fisher_exact([[a, int(n_a) - a], [b, int(n_b) - b]])[1])


def normal_p(estimate, se) -> np.ndarray:
    """Two-sided p-value of estimate/se against zero."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return 2 * st.norm.sf(np.abs(np.asarray(estimate, float) / np.asarray(se, float)))


def adjust(p, method: str) -> np.ndarray:
    """Holm (``"holm"``, family-wise) or Benjamini-Hochberg (``"fdr_bh"``) adjusted p-values;
    NaN p-values stay NaN and are not counted in the family."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], alpha=0.05, method=method)[1]
    return out


def games_for_half_width(rate: float, half_width: float) -> int:
    """Observations for a 95% interval of +/- ``half_width`` around ``rate``."""
    rate = min(max(rate, 1e-6), 1 - 1e-6)
    return math.ceil(samplesize_confint_proportion(rate, half_width, alpha=0.05))


def per_game(win: np.ndarray, game: np.ndarray, n_games: int, mask: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """(sum of win, count) of the rows in ``mask`` for each game 0..n_games-1."""
    g = game[mask]
    return (np.bincount(g, weights=win[mask], minlength=n_games),
            np.bincount(g, minlength=n_games).astype(float))


def clustered_rates(groups: list[tuple[np.ndarray, np.ndarray]]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean win of each group and the cluster-robust covariance of those means, from each
    group's per-game (win sums, row counts) (``per_game``; clusters are games).

    This is OLS of win on the group dummies with ``cov_type="cluster"``, statsmodels'
    small-sample correction included: G/(G-1) * (N-1)/(N-k). Returns (n, mean, cov).
    """
    n = np.array([c.sum() for _, c in groups])
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.array([s.sum() for s, _ in groups]) / n
    # game g's influence on mean j
    z = [(s - c * m) / nj if nj > 0 else np.zeros_like(s)
         for (s, c), m, nj in zip(groups, mean, n)]
    k = len(groups)
    g = np.count_nonzero(sum(c for _, c in groups))
    rows = n.sum()
    scale = g / (g - 1) * (rows - 1) / (rows - k) if g > 1 and rows > k else np.nan
    cov = np.array([[zi @ zj for zj in z] for zi in z]) * scale
    return n, mean, cov


def clustered_difference(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
                         ) -> tuple[float, float, float, float, float, float]:
    """Rate of group a minus rate of group b, each given as per-game (sums, counts),
    clustered by game: (n_a, rate_a, n_b, rate_b, difference, its standard error)."""
    n, mean, cov = clustered_rates([a, b])
    se = math.sqrt(max(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], 0.0))
    return n[0], mean[0], n[1], mean[1], mean[0] - mean[1], se


def clustered_score_p(win: np.ndarray, game: np.ndarray, held: np.ndarray,
                      eligible: np.ndarray) -> float:
    """Two-sided p-value of "holders win as often as the other eligible seat-games": the
    score test of the holding term of a linear model, its variance clustered by game and
    computed under the null (residuals from the pooled rate), with the G/(G-1) correction.

    A Wald test's sandwich variance, computed from each group's own rate, has heavy tails at
    the small thresholds Holm and Benjamini-Hochberg use (7.0% false discoveries where 5%
    were promised, on independent data); under the null the score statistic is close to
    chi-square with one degree of freedom there too (``python -m analysis.calibration``)."""
    y, h, g = win[eligible].astype(float), held[eligible].astype(float), game[eligible]
    if len(y) < 2:
        return float("nan")
    u = (h - h.mean()) * (y - y.mean())
    per_game = np.bincount(g, weights=u)
    clusters = np.count_nonzero(np.bincount(g))
    var = float((per_game**2).sum()) * clusters / max(clusters - 1, 1)
    if not var > 0:
        return float("nan")
    return float(st.chi2.sf(per_game.sum() ** 2 / var, 1))


def deviations(groups: list[tuple[np.ndarray, np.ndarray]]
               ) -> tuple[np.ndarray, np.ndarray]:
    """Each group's mean win minus the average of the groups' means, and its standard
    error, clustered by game (groups given as ``per_game`` sums and counts)."""
    _, mean, cov = clustered_rates(groups)
    k = len(groups)
    c = np.eye(k) - np.full((k, k), 1 / k)
    dev = c @ mean
    var = np.einsum("ij,jk,ik->i", c, cov, c)
    return dev, np.sqrt(np.maximum(var, 0.0))


def clustered_wilson(rate: float, se: float, n: float) -> tuple[float, float]:
    """A Wilson interval for a rate whose seat-games are correlated within games: Wilson at
    the effective sample size rate(1-rate)/se^2 (Kish's design effect), never above n."""
    if not se > 0:
        return tuple(float(x[0]) for x in wilson(rate * n, n))
    n_eff = min(rate * (1 - rate) / se**2, n) if 0 < rate < 1 else n
    lo, hi = wilson(rate * n_eff, n_eff)
    return float(lo[0]), float(hi[0])


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    """The mean of ``x`` and its 95% t interval (statsmodels' DescrStatsW); a constant
    sample's interval is the mean itself."""
    from statsmodels.stats.weightstats import DescrStatsW

    d = DescrStatsW(np.asarray(x, dtype=float))
    lo, hi = d.tconfint_mean() if len(x) > 1 and d.std > 0 else (d.mean, d.mean)
    return float(d.mean), float(lo), float(hi)
