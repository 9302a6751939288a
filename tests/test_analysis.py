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
