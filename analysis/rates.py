"""Win rates with Wilson intervals, by any grouping of the results table."""

from __future__ import annotations

import pandas as pd

from analysis.stats import benjamini_hochberg, games_needed, holm, two_sided_p, wilson


def win_rates(df: pd.DataFrame, by: str | list[str]) -> pd.DataFrame:
    """Win rate (shared wins count 1/k), its 95% Wilson interval and mean score per group."""
    g = df.groupby(by, observed=True)
    out = pd.DataFrame({
        "seat_games": g["win"].size(),
        "wins": g["win"].sum(),
        "mean_score": g["score"].mean(),
        "mean_rank": g["rank"].mean(),
    })
    out["win_rate"] = out["wins"] / out["seat_games"]
    out["ci_low"], out["ci_high"] = wilson(out["wins"], out["seat_games"])
    out["ci_half_width"] = (out["ci_high"] - out["ci_low"]) / 2
    return out.reset_index()


def with_lift(rates: pd.DataFrame, baseline) -> pd.DataFrame:
    """Lift over ``baseline`` (a rate, or one per row) in percentage points, p-values, and
    their Holm (family-wise) and Benjamini-Hochberg (false-discovery) adjustments across the
    rows. A row without games gets no p-value and counts as p = 1 in the adjustments."""
    out = rates.copy()
    out["baseline"] = baseline
    out["lift_pp"] = 100 * (out["win_rate"] - out["baseline"])
    out["lift_low_pp"] = 100 * (out["ci_low"] - out["baseline"])
    out["lift_high_pp"] = 100 * (out["ci_high"] - out["baseline"])
    out["p_value"] = two_sided_p(out["win_rate"], out["baseline"], out["seat_games"])
    p = out["p_value"].fillna(1).to_numpy()
    out["p_holm"] = holm(p)
    out["p_bh"] = benjamini_hochberg(p)
    out["significant_holm_5pct"] = out["p_holm"] < 0.05
    return out


def precision(rates: pd.DataFrame) -> pd.DataFrame:
    """How wide each interval is, and how many seat-games +/-1 and +/-0.5 points would take."""
    out = rates[[c for c in rates.columns if c not in ("wins",)]].copy()
    out["games_for_1pp"] = [games_needed(p, 0.01) for p in out["win_rate"]]
    out["games_for_0.5pp"] = [games_needed(p, 0.005) for p in out["win_rate"]]
    return out
