"""The statistics equal statsmodels and scipy where the method is the same, and pinned values
where a mistake would move them."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats as st
from statsmodels.discrete.discrete_model import Logit
from statsmodels.stats.multitest import multipletests

from analysis.effects import Term, factor_effects
from analysis.stats import (
    adjust,
    clustered_difference,
    clustered_rates,
    games_for_half_width,
    per_game,
    rate_p_value,
    wilson,
)


def test_wilson_pinned_and_as_statsmodels():
    lo, hi = wilson([50, 0], [100, 10])
    assert np.allclose([lo[0], hi[0]], [0.403832, 0.596168], atol=1e-6)
    assert lo[1] == 0 and abs(hi[1] - 0.277533) < 1e-6
    assert np.isnan(wilson(0, 0)[0][0])  # no games, no interval


def test_rate_p_value_exact_below_30_and_score_test_above():
    assert rate_p_value(9, 12, 0.25) == pytest.approx(st.binomtest(9, 12, 0.25).pvalue)
    # score test: z = (0.3 - 0.25) / sqrt(0.25 * 0.75 / 1000)
    z = 0.05 / np.sqrt(0.25 * 0.75 / 1000)
    assert rate_p_value(300, 1000, 0.25) == pytest.approx(2 * st.norm.sf(z), rel=1e-12)


def test_adjustments_are_holm_and_bh_with_the_monotone_step():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    assert np.allclose(adjust(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    # BH needs its monotone step here: raw p*m/rank would give 0.045 > 0.04 for the second
    p2 = np.array([0.01, 0.02, 0.03, 0.04, 0.045])
    assert np.allclose(adjust(p2, "fdr_bh"), [0.045] * 5)
    assert np.allclose(adjust(p, "fdr_bh"), multipletests(p, method="fdr_bh")[1], atol=1e-16)
    with_nan = adjust(np.array([0.01, np.nan, 0.02]), "holm")
    assert np.isnan(with_nan[1]) and np.allclose(with_nan[[0, 2]], [0.02, 0.02])


def test_games_for_one_point_at_even_odds():
    assert games_for_half_width(0.5, 0.01) == 9604


def _clustered_table(seed=0, games=400, players=4):
    rng = np.random.default_rng(seed)
    game = np.repeat(np.arange(games), players)
    group = rng.integers(0, 3, len(game))
    win = (rng.random(len(game)) < 0.3 + 0.05 * group).astype(float)
    win[::11] = 0.5  # shared wins
    return win, game, group


def test_clustered_rates_equal_statsmodels_ols_with_cluster_covariance():
    win, game, group = _clustered_table()
    x = np.column_stack([(group == k).astype(float) for k in range(3)])
    ols = sm.OLS(win, x).fit(cov_type="cluster", cov_kwds={"groups": game})
    n, mean, cov = clustered_rates([per_game(win, game, 400, group == k) for k in range(3)])
    assert np.allclose(mean, ols.params, atol=1e-12)
    assert np.allclose(cov, ols.cov_params(), rtol=1e-10, atol=1e-16)
    # a difference of two groups is OLS of win on a constant and the first group's dummy
    keep = group < 2
    d = sm.OLS(win[keep], sm.add_constant((group[keep] == 0).astype(float))).fit(
        cov_type="cluster", cov_kwds={"groups": game[keep]})
    out = clustered_difference(per_game(win, game, 400, group == 0),
                               per_game(win, game, 400, group == 1))
    assert out[4] == pytest.approx(d.params[1], abs=1e-12)
    assert out[5] == pytest.approx(d.bse[1], rel=1e-10)


def test_factor_effects_equal_statsmodels_margeff_for_a_two_level_factor():
    win, game, group = _clustered_table(seed=3)
    rows = group == 1
    t = Term("causal", "g", "1", "0", rows, ~rows)
    x = np.column_stack([np.ones(len(win)), rows.astype(float)])
    res = Logit(win, x).fit(disp=0, cov_type="cluster", cov_kwds={"groups": game})
    ame, se = factor_effects(res, x, [t])
    me = res.get_margeff(at="overall", dummy=True)
    assert ame[0] == pytest.approx(me.margeff[0], rel=1e-10)
    assert se[0] == pytest.approx(me.margeff_se[0], rel=1e-6)


def test_factor_effects_move_a_seat_game_whole_between_levels():
    """Three levels: the effect of level 2 against 0 is the mean of p(level 2) - p(level 0)
    over every row, with the other level's dummy cleared (not a row in two levels)."""
    win, game, group = _clustered_table(seed=5)
    ts = [Term("causal", "g", str(k), "0", group == k, group == 0) for k in (1, 2)]
    x = np.column_stack([np.ones(len(win))] + [t.rows.astype(float) for t in ts])
    res = Logit(win, x).fit(disp=0, cov_type="cluster", cov_kwds={"groups": game})
    ame, _ = factor_effects(res, x, ts)
    b = res.params
    expit = st.logistic.cdf
    assert ame[1] == pytest.approx(expit(b[0] + b[2]) - expit(b[0]), rel=1e-12)
    # with only categorical terms the AME equals the difference of the level rates' model fit
    assert ame[0] == pytest.approx(expit(b[0] + b[1]) - expit(b[0]), rel=1e-12)
    frame = pd.DataFrame({"win": win, "g": group})
    raw = frame.groupby("g")["win"].mean()
    assert ame[1] == pytest.approx(raw[2] - raw[0], abs=1e-6)  # saturated: the raw difference
