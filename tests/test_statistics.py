"""The statistics equal statsmodels and scipy where the method is the same, and pinned values
where a mistake would move them."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats as st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

from analysis.effects import Factor, design, effects, fit_logit, level_means
from analysis.stats import (
    adjust,
    clustered_difference,
    clustered_rates,
    clustered_score_p,
    deviations,
    games_for_half_width,
    per_game,
    rate_p_value,
    wilson,
)
from sim.core.declaration import Element, ResultsDeclaration


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


def _one_factor(codes, win, game, bots=None):
    f = Factor("causal", "g", [str(k) for k in range(codes.max() + 1)], codes)
    bot_codes = np.zeros(len(win), dtype=int) if bots is None else bots
    x = design([f], bot_codes, int(bot_codes.max()) + 1)
    res = fit_logit(win, game, x)
    return f, x, res, bot_codes


def test_a_levels_contrast_equals_statsmodels_margeff_for_a_two_level_factor():
    win, game, group = _clustered_table(seed=3)
    codes = (group == 1).astype(int)
    f, x, res, bots = _one_factor(codes, win, game)
    means, grads = level_means(res, x, f, [f], bots, {"all": np.ones(len(win), bool)})["all"]
    me = res.get_margeff(at="overall", dummy=True)
    grad = grads[1] - grads[0]
    assert means[1] - means[0] == pytest.approx(me.margeff[0], rel=1e-10)
    assert np.sqrt(grad @ res.cov_params() @ grad) == pytest.approx(me.margeff_se[0], rel=1e-6)


def test_effects_are_deviations_from_the_average_of_the_levels():
    """Three levels, one bot: a level's effect is its model win rate minus the average of
    the three (they sum to zero); the model is saturated, so that is the raw rate's
    deviation, and the CSV's contrast with the first level is the raw difference."""
    win, game, group = _clustered_table(seed=5)
    df = pd.DataFrame({"game_index": game, "seat": 0, "bot": "b", "win": win,
                       "score": win * 10, "g": pd.Categorical(group.astype(str))})
    decl = ResultsDeclaration("t", ("score",), (Element("g", "dealt", "G"),))
    fx = effects(df, decl, seat_bot_confounded=False, model_games=0).table
    raw = df.groupby("g", observed=True)["win"].mean()
    assert list(fx["bot"]) == ["pooled"] * 3
    assert fx["effect_pp"].sum() == pytest.approx(0, abs=1e-9)
    assert np.allclose(fx["effect_pp"], 100 * (raw - raw.mean()), atol=1e-6)
    assert np.allclose(fx["vs_reference_pp"], 100 * (raw - raw.iloc[0]), atol=1e-6)
    assert (fx["ci_low_pp"] < fx["effect_pp"]).all() and (fx["effect_pp"] < fx["ci_high_pp"]).all()


def test_each_bot_gets_its_own_effect_and_the_pooled_one_averages_them():
    """Two bots with opposite planted effects: with the bot interactions each bot's effect
    is its own raw deviation (but for the seat term), the pooled one their seat-game-weighted
    average, and the interaction test rejects."""
    rng = np.random.default_rng(9)
    n = 20_000
    game = np.repeat(np.arange(n // 2), 2)
    bot = np.tile([0, 1], n // 2)
    g = rng.integers(0, 2, n)
    win = (rng.random(n) < np.where(bot == 0, 0.3 + 0.1 * g, 0.5 - 0.1 * g)).astype(float)
    df = pd.DataFrame({"game_index": game, "seat": (bot + game) % 2, "bot": np.where(bot, "y", "x"),
                       "win": win, "score": win, "g": pd.Categorical(g.astype(str))})
    decl = ResultsDeclaration("t", ("score",), (Element("g", "dealt", "G"),))
    fx = effects(df, decl, seat_bot_confounded=False, model_games=0).table
    fx = fx[fx["factor"] == "G"].set_index(["bot", "level"])
    for b, name in ((0, "x"), (1, "y")):
        rates = df[bot == b].groupby("g", observed=True)["win"].mean()
        assert fx.loc[(name, "1"), "effect_pp"] == pytest.approx(
            100 * (rates["1"] - rates.mean()), abs=0.05)  # the seat term: not saturated
    assert fx.loc[("x", "1"), "effect_pp"] > 3 and fx.loc[("y", "1"), "effect_pp"] < -3
    assert fx.loc[("pooled", "1"), "effect_pp"] == pytest.approx(
        (fx.loc[("x", "1"), "effect_pp"] + fx.loc[("y", "1"), "effect_pp"]) / 2, abs=0.2)
    assert fx.loc[("pooled", "1"), "interaction_p"] < 1e-10


def test_the_score_test_is_a_hand_derived_clustered_score_statistic():
    """Two games of three seats; holders are the first seat of each. The score statistic
    is U^2 / V with U = sum (h - h_bar)(y - y_bar) and V the sum over games of U_g^2 times
    G / (G - 1), all under the null (one pooled rate)."""
    win = np.array([1.0, 0, 0, 0, 1, 0])
    game = np.array([0, 0, 0, 1, 1, 1])
    held = np.array([1, 0, 0, 1, 0, 0], dtype=bool)
    h, y = held - 1 / 3, win - 1 / 3
    u = np.array([(h * y)[:3].sum(), (h * y)[3:].sum()])
    want = st.chi2.sf(u.sum() ** 2 / ((u**2).sum() * 2), 1)
    assert clustered_score_p(win, game, held, np.ones(6, bool)) == pytest.approx(want)
    assert np.isnan(clustered_score_p(win, game, held, np.zeros(6, bool)))


def test_the_score_test_agrees_with_the_pooled_two_proportion_test_on_independent_rows():
    rng = np.random.default_rng(4)
    n = 40_000
    held = rng.random(n) < 0.3
    win = (rng.random(n) < np.where(held, 0.27, 0.25)).astype(float)
    z = proportions_ztest([win[held].sum(), win[~held].sum()], [held.sum(), (~held).sum()])[1]
    p = clustered_score_p(win, np.arange(n), held, np.ones(n, bool))
    assert st.chi2.isf(p, 1) == pytest.approx(st.chi2.isf(z, 1), rel=0.02) and p < 0.01


def test_deviations_are_each_groups_rate_minus_the_average_with_clustered_errors():
    win, game, group = _clustered_table(seed=2)
    groups = [per_game(win, game, 400, group == k) for k in range(3)]
    dev, se = deviations(groups)
    _, mean, cov = clustered_rates(groups)
    assert np.allclose(dev, mean - mean.mean())
    c = np.array([2 / 3, -1 / 3, -1 / 3])  # the first group's contrast
    assert se[0] == pytest.approx(np.sqrt(c @ cov @ c))
