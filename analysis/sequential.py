"""The sequential test of a paired comparison, and its anytime-valid confidence sequence.

The test is Wald's SPRT with an indifference zone, two-sided in Sobel and Wald's way: on the
per-game differences d = B - A it runs two one-sided SPRTs, mean 0 against +delta and mean 0
against -delta, each at alpha/2 and beta, on the normal log-likelihood ratio with the variance
estimated from the games so far. A side that rejects decides ("B better", "A better"); both
sides accepting the null decide "no difference within delta". Looked at after each batch
only, so the overshoot of a boundary makes the error rates a little smaller than stated.

The interval beside it is Robbins' normal-mixture confidence sequence, in the asymptotic form
of Waudby-Smith et al. (2024, "Time-uniform central limit theory"): it holds at every look at
once, so it is valid at the data-dependent stopping time, where a fixed-n interval is not.

Both are written here, from the papers, because no maintained package fits: ``expectation``
needs Python 3.12, ``confseq`` does not build without Boost, ``sprt`` (2017) and ``msprt``
(numpy < 2, GPL) are unmaintained, ``savvi`` brings cvxpy for an interval only, and
``sequential-analysis`` is AGPL, which an MIT toolkit cannot depend on. Their error rates
are measured by ``python -m analysis.error_rates`` (numbers in the README).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as st
from statsmodels.stats.power import TTestPower
from statsmodels.tools.sm_exceptions import ConvergenceWarning

VERDICTS = ("A better", "B better", "no difference within delta", "undecided at max-games",
            "undecided after the games asked")  # the last: the fixed-n mode's


@dataclass(frozen=True)
class Design:
    """Error rates and the indifference zone of a comparison."""

    alpha: float = 0.05
    beta: float = 0.2
    delta: float = 0.02

    @property
    def upper(self) -> float:
        """log-likelihood ratio at which a side rejects the null (Wald's A)."""
        return math.log((1 - self.beta) / (self.alpha / 2))

    @property
    def lower(self) -> float:
        """log-likelihood ratio at which a side accepts the null (Wald's B)."""
        return math.log(self.beta / (1 - self.alpha / 2))

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
class Sprt:
    """The running test: feed it the differences of each batch, read ``verdict``."""

    design: Design
    horizon: int | None = None  # the most games the test may see (max-games)
    n: int = 0
    total: float = 0.0
    squares: float = 0.0  # sum of squared deviations from the running mean (Chan et al.)
    sides: dict = field(default_factory=lambda: {"+": None, "-": None})  # None, "H0", "H1"
    rho2: float | None = None  # the confidence sequence's mixing variance, set at look 1
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
                delta = m - self.mean
                ss += delta * delta * self.n * n / (self.n + n)
            self.squares += ss
            self.total += float(d.sum())
            self.n += n
        plus, minus = self.llr()
        for side, llr in (("+", plus), ("-", minus)):
            if self.sides[side] is None:
                if llr >= self.design.upper:
                    self.sides[side] = "H1"
                elif llr <= self.design.lower:
                    self.sides[side] = "H0"
        low, high = self.interval()
        self.path.append({"games": self.n, "difference": self.mean, "sd": self.sd,
                          "llr_plus": plus, "llr_minus": minus, "cs_low": low,
                          "cs_high": high})
        return self.verdict

    def llr(self) -> tuple[float, float]:
        """log-likelihood ratios of +delta and -delta against 0, normal with the estimated
        variance (a variance of 0 counts as a tiny one: identical games accept the null)."""
        if self.n < 2:
            return 0.0, 0.0
        var = max(self.sd ** 2, 1e-12)
        delta = self.design.delta
        drift = self.n * delta * delta / 2
        return (delta * self.total - drift) / var, (-delta * self.total - drift) / var

    @property
    def verdict(self) -> str | None:
        if self.sides["+"] == "H1":
            return "B better"
        if self.sides["-"] == "H1":
            return "A better"
        if self.sides["+"] == "H0" and self.sides["-"] == "H0":
            return "no difference within delta"
        return None

    def interval(self) -> tuple[float, float]:
        """The confidence sequence at level 1 - alpha: mean +/- sd * sqrt(2 (n r + 1) /
        (n^2 r) * log(sqrt(n r + 1) / alpha)), r = rho^2 chosen at the first look to be
        tightest at the fixed-n test's sample size, or at the horizon when that is nearer
        (Waudby-Smith et al., eq. 2.4)."""
        if self.n < 2:
            return -math.inf, math.inf
        alpha = self.design.alpha
        if self.rho2 is None:
            target = self.design.fixed_n(self.sd)
            if self.horizon is not None:
                target = min(target, self.horizon)
            target = max(target, self.n)
            self.rho2 = (-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / target
        nr = self.n * self.rho2
        radius = self.sd * math.sqrt(2 * (nr + 1) / (self.n * nr)
                                     * math.log(math.sqrt(nr + 1) / alpha))
        return self.mean - radius, self.mean + radius


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
