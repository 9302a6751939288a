"""Statistics against values computed by hand."""

import numpy as np
import pandas as pd

from analysis.rates import win_rates
from analysis.stats import benjamini_hochberg, games_needed, holm, wilson


def test_wilson_matches_the_closed_form():
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-4 and abs(hi - 0.5962) < 1e-4
    lo, hi = wilson(0, 10)
    assert lo == 0 and abs(hi - 0.2775) < 1e-4


def test_holm_and_bh():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    assert np.allclose(holm(p), [0.03, 0.06, 0.06, 0.02])
    assert np.allclose(benjamini_hochberg(p), [0.02, 0.04, 0.04, 0.02])


def test_games_needed_for_one_point_at_even_odds():
    assert games_needed(0.5, 0.01) == 9604


def test_shared_wins_count_a_fraction():
    df = pd.DataFrame({"seat": [0, 1, 0, 1], "win": [0.5, 0.5, 1.0, 0.0], "score": [1, 1, 2, 0],
                       "rank": [1, 1, 1, 2]})
    r = win_rates(df, "seat").set_index("seat")
    assert r.loc[0, "win_rate"] == 0.75 and r.loc[1, "win_rate"] == 0.25


def test_lift_against_a_rate_or_a_baseline_per_row():
    from analysis.rates import with_lift

    rates = pd.DataFrame({"win_rate": [0.30, 0.25, np.nan], "ci_low": [0.28, 0.23, np.nan],
                          "ci_high": [0.32, 0.27, np.nan], "seat_games": [1000, 1000, 0]})
    out = with_lift(rates, 0.25)
    assert np.allclose(out["lift_pp"][:2], [5.0, 0.0]) and np.isnan(out["p_value"][2])
    assert out["p_holm"][2] == 1 and out["p_bh"][2] == 1
    assert out["significant_holm_5pct"].tolist() == [True, False, False]
    per_row = with_lift(rates, pd.Series([0.30, 0.20, 0.25]))
    assert np.allclose(per_row["lift_pp"][:2], [0.0, 5.0])
