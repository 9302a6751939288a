"""Interval estimates, multiple-comparison corrections and sample sizes."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054
_erfc = np.frompyfunc(math.erfc, 1, 1)


def wilson(successes, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (Brown, Cai & DasGupta 2001). Works on arrays.

    ``successes`` may be fractional (shared wins count 1/k), which keeps the interval's
    centre at the observed rate.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def two_sided_p(rate, baseline, n) -> np.ndarray:
    """p-value of a rate against a fixed baseline (normal approximation to the binomial)."""
    rate, baseline, n = (np.asarray(x, dtype=float) for x in (rate, baseline, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(baseline * (1 - baseline) / n)
        zval = np.where(se > 0, (rate - baseline) / se, 0.0)
    return _erfc(np.abs(zval) / math.sqrt(2)).astype(float)


def holm(p) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (family-wise error)."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    m = len(p)
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * p[i])
        adj[i] = min(1.0, running)
    return adj


def benjamini_hochberg(p) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (false-discovery rate)."""
    p = np.asarray(p, dtype=float)
    m = len(p)
    order = np.argsort(p)[::-1]
    adj = np.empty(m)
    running = 1.0
    for rank, i in enumerate(order):
        running = min(running, p[i] * m / (m - rank))
        adj[i] = running
    return adj


def games_needed(p: float, half_width: float, z: float = Z95) -> int:
    """Observations for a 95% interval of +/- ``half_width`` around a rate ``p``."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.ceil(z * z * p * (1 - p) / (half_width * half_width))


def mean_ci(x, z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal-theory 95% interval (n is large in every use here)."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean())
    half = z * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return m, m - half, m + half
