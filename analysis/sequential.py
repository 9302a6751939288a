"""The sequential test of a paired comparison: an anytime-valid confidence sequence.

The per-game differences d = B - A are summarised after each batch by Robbins'
normal-mixture confidence sequence, in the asymptotic form of Waudby-Smith et al. (2024,
"Time-uniform central limit theory"): an interval that holds at every look at once, so it is
valid at the data-dependent stopping time, where a fixed-n interval is not. The comparison
stops at the first look where the interval says something:

- it excludes zero: "B better" or "A better" (under no difference, that happens at any look
  with probability at most alpha);
- it lies inside +/- delta: "no difference larger than delta" (under a difference of delta or
  more, at any look with probability at most alpha);
- else it plays on, up to max-games: "stopped without a decision within delta" (the interval
  still includes zero and reaches beyond +/- delta).

So every verdict is what its interval shows. An earlier version ran Wald's SPRT with an
indifference zone and stated its verdict beside the interval; the two disagreed (973 of 974
"no difference" verdicts of a null run had an interval reaching beyond delta), and once the
SPRT had decided a side it could not change its mind when the interval later pointed the
other way.

The interval's mixing variance is chosen at the first look to make it tightest at the games
a fixed-n paired t-test of the same alpha and power (1 - beta) needs at delta, or at the
horizon (max-games) when that is nearer.

Written here, from the paper, because no maintained package fits: ``expectation`` needs
Python 3.12, ``confseq`` does not build without Boost, ``sprt`` (2017) and ``msprt`` (numpy <
2, GPL) are unmaintained, ``savvi`` brings cvxpy for an interval only, and
``sequential-analysis`` is AGPL, which an MIT toolkit cannot depend on. Its error rates are
measured by ``python -m analysis.error_rates`` (numbers in the README).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as st
from statsmodels.stats.power import TTestPower
from statsmodels.tools.sm_exceptions import ConvergenceWarning

NO_DIFFERENCE = "no difference larger than delta"
UNDECIDED = "stopped without a decision within delta"
VERDICTS = ("A better", "B better", NO_DIFFERENCE, UNDECIDED)  # "A/B fairer": seat-spread


def confidence_sequence(mean: float, sd: float, n: int, alpha: float, rho2: float
                        ) -> tuple[float, float]:
    """Robbins' normal-mixture confidence sequence at level 1 - alpha around ``mean`` of
    ``n`` differences of spread ``sd``, mixing variance ``rho2`` (Waudby-Smith et al. 2024,
    eq. 2.4): mean +/- sd * sqrt(2 (n r + 1) / (n^2 r) * log(sqrt(n r + 1) / alpha))."""
    if n < 2 or not sd == sd:
        return -math.inf, math.inf
    nr = n * rho2
    radius = sd * math.sqrt(2 * (nr + 1) / (n * nr) * math.log(math.sqrt(nr + 1) / alpha))
    return mean - radius, mean + radius


@dataclass(frozen=True)
class Design:
    """Error rate, power and the indifference zone of a comparison."""

    alpha: float = 0.05
    beta: float = 0.2
    delta: float = 0.02

    def fixed_n(self, sd: float) -> int:
        """Games a two-sided paired t-test at alpha needs for power 1 - beta at delta
        (statsmodels' solver; where it finds no root, at an effect far beyond the spread or
        far below it, the normal approximation, which the t-test's need approaches)."""
        if not sd > 0:
            return 2
        effect = self.delta / sd
        try:
            with warnings.catch_warnings():  # no root: handled below
                warnings.simplefilter("ignore", (ConvergenceWarning, RuntimeWarning))
                n = float(TTestPower().solve_power(effect_size=effect, alpha=self.alpha,
                                                   power=1 - self.beta,
                                                   alternative="two-sided"))
        except (ValueError, ArithmeticError):
            n = math.nan
        if not math.isfinite(n):
            z = st.norm.isf(self.alpha / 2) + st.norm.isf(self.beta)
            n = (z / effect) ** 2
        return max(2, math.ceil(min(n, 2.0**62)))


@dataclass
class Sequential:
    """The running test: feed it the differences of each batch, read ``verdict``."""

    design: Design
    horizon: int | None = None  # the most games the test may see (max-games)
    n: int = 0
    total: float = 0.0
    squares: float = 0.0  # sum of squared deviations from the running mean (Chan et al.)
    rho2: float | None = None  # the confidence sequence's mixing variance, set at look 1
    verdict: str | None = None
    path: list = field(default_factory=list)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else float("nan")

    @property
    def sd(self) -> float:
        return math.sqrt(self.squares / (self.n - 1)) if self.n > 1 else float("nan")

    def update(self, d: np.ndarray) -> str | None:
        """Add a batch of differences; returns the verdict once decided (then stays)."""
        d = np.asarray(d, dtype=float)
        if d.size:
            m, n = float(d.mean()), d.size
            ss = float(((d - m) ** 2).sum())
            if self.n:
                gap = m - self.mean
                ss += gap * gap * self.n * n / (self.n + n)
            self.squares += ss
            self.total += float(d.sum())
            self.n += n
        low, high = self.interval()
        if self.verdict is None:
            delta = self.design.delta
            if low > 0:
                self.verdict = "B better"
            elif high < 0:
                self.verdict = "A better"
            elif -delta < low and high < delta:
                self.verdict = NO_DIFFERENCE
        self.path.append({"games": self.n, "difference": self.mean, "sd": self.sd,
                          "cs_low": low, "cs_high": high})
        return self.verdict

    def interval(self) -> tuple[float, float]:
        """The confidence sequence at level 1 - alpha, tuned at the first look to be
        tightest at the fixed-n test's sample size or the horizon, whichever is nearer
        (Waudby-Smith et al., eq. 2.4). Identical games (no spread) give a point."""
        if self.n < 2:
            return -math.inf, math.inf
        alpha = self.design.alpha
        if self.rho2 is None:
            target = self.design.fixed_n(self.sd)
            if self.horizon is not None:
                target = min(target, self.horizon)
            target = max(target, self.n)
            self.rho2 = (-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / target
        return confidence_sequence(self.mean, self.sd, self.n, alpha, self.rho2)


def paired_summary(a: np.ndarray, b: np.ndarray, alpha: float = 0.05) -> dict:
    """The fixed-n description of paired per-game values: B - A with a t interval, and the
    variance reduction of pairing (variance of an unpaired difference of arms of the same
    size over the variance of the paired one)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    n = d.size
    out = {"games": int(n), "a": float(a.mean()), "b": float(b.mean()),
           "difference": float(d.mean())}
    if n < 2:
        return out | {"ci_low": float("nan"), "ci_high": float("nan"), "p_value": float("nan"),
                      "variance_reduction": float("nan")}
    paired, unpaired = d.var(ddof=1), a.var(ddof=1) + b.var(ddof=1)
    if paired > 0:
        test = st.ttest_1samp(d, 0.0)
        ci = test.confidence_interval(1 - alpha)
        low, high, p = float(ci.low), float(ci.high), float(test.pvalue)
    else:  # every game gave the same difference
        low = high = float(d.mean())
        p = 1.0 if d.mean() == 0 else 0.0
    return out | {"ci_low": low, "ci_high": high, "p_value": p,
                  "sd_paired": float(math.sqrt(paired)),
                  "sd_unpaired": float(math.sqrt(unpaired)),
                  "variance_reduction": float(unpaired / paired) if paired > 0 else math.inf}
