"""Each table's numbers on hand-made results tables whose answers are known."""

import numpy as np
import pandas as pd
import pytest
import toy_game as toy
from scipy import stats as st
from statsmodels.discrete.discrete_model import Logit

from analysis import convergence, distributions, elements, seats
from analysis.effects import effects
from analysis.points import score_deviations
from analysis.rates import game_codes
from analysis.stats import Z95
from analysis.summary import dealt_lines, named_power_z, seat_lines, sensitivity
from sim.core.declaration import Element, GameElement, ResultsDeclaration


@pytest.fixture(scope="module")
def table():
    return toy.results(3000, 3, ["plain", "strong", "twin"], seed=7)


def test_distributions_and_end_shares(table):
    dist = distributions.score_distribution(table, ("dice", "bonus")).set_index(
        ["bot", "measure"])
    scores = table.loc[table["bot"] == "strong", "score"]
    row = dist.loc[("strong", "score")]
    for q in (5, 25, 50, 75, 95):
        assert row[f"p{q}"] == pytest.approx(np.quantile(scores, q / 100))
    assert row["mean"] == pytest.approx(scores.mean())
    ends = distributions.end_table(table, "ending", "turns").set_index("ending")
    games = table[table["seat"] == 0]
    share = (games["ending"] == "timeout").mean()
    assert ends.loc["timeout", "share"] == pytest.approx(share)
    assert ends["share"].sum() == pytest.approx(1.0)
    assert ends.loc["timeout", "mean_turns"] == pytest.approx(
        games.loc[games["ending"] == "timeout", "turns"].mean())


def test_seat_numbers(table):
    t = seats.seat_table(table).set_index("seat")
    rate0 = table.loc[table["seat"] == 0, "win"].mean()
    assert t.loc[0, "diff_pp"] == pytest.approx(100 * (rate0 - 1 / 3))
    fl = seats.first_minus_last(table)
    w = table.pivot(index="game_index", columns="seat", values="win")
    assert fl["estimate_pp"] == pytest.approx(100 * (w[0] - w[2]).mean())
    assert fl["ci_low_pp"] < fl["estimate_pp"] < fl["ci_high_pp"]


def test_points_are_level_minus_the_average_of_the_levels(table):
    game, n = game_codes(table)
    bots = ["plain", "strong", "twin"]
    masks = [(table["bot"] == b).to_numpy() for b in bots]
    [(est, lo, hi)] = score_deviations(table["score"].to_numpy(), game, n, [masks])
    means = table.groupby("bot", observed=True)["score"].mean()[bots]
    assert np.allclose(est, means - means.mean()) and est[1] > 0
    assert (lo < est).all() and (est < hi).all()


def test_game_element_rows(table):
    t = elements.game_element_table(table, GameElement(("weather",), "Weather"), "turns")
    sun = t[t["level"] == "sun"].iloc[0]
    first = table[(table["seat"] == 0) & (table["weather"] == "sun")]
    assert sun["start_player_win_rate"] == pytest.approx(first["win"].mean())
    assert sun["games"] == len(first)
    assert sun["mean_turns"] == pytest.approx(first["turns"].mean())


def test_effect_intervals_equal_statsmodels_for_two_levels():
    """Two players, one bot, a dealt element of two levels: every factor has two levels, so
    the effects table must equal statsmodels' marginal effects row for row."""
    df = toy.results(4000, 2, ["plain", "plain"], seed=3)
    df = df[df["colour"].isin(["red", "blue"])].copy()
    df["colour"] = df["colour"].cat.remove_unused_categories()
    keep = df.groupby("game_index")["seat"].transform("size") == 2
    df = df[keep].reset_index(drop=True)
    decl = toy.declare({"medals": toy.MEDALS})
    fx = effects(df, decl, seat_bot_confounded=False, model_games=0).table
    fx = fx[fx["block"] == "causal"].reset_index(drop=True)
    x = np.column_stack([np.ones(len(df)), (df["seat"] == 1).to_numpy(float),
                         (df["colour"] == "blue").to_numpy(float)])
    game, _ = game_codes(df)
    res = Logit(df["win"].to_numpy(), x).fit(disp=0, cov_type="cluster",
                                             cov_kwds={"groups": game})
    me = res.get_margeff(at="overall", dummy=True).summary_frame()
    second = fx.groupby("factor", sort=False).nth(1)  # seat 1, blue: against the first
    assert list(second["factor"]) == ["seat", "Colour"]
    assert np.allclose(second["vs_reference_pp"], 100 * me["dy/dx"], rtol=1e-8)
    assert np.allclose(second["vs_reference_low_pp"], 100 * me["Conf. Int. Low"], rtol=1e-5)
    assert np.allclose(second["vs_reference_high_pp"], 100 * me["Cont. Int. Hi."], rtol=1e-5)
    # two levels: each is half the contrast away from their average, with half the error
    assert np.allclose(second["effect_pp"], 50 * me["dy/dx"], rtol=1e-8)
    assert np.allclose(second["ci_high_pp"] - second["effect_pp"],
                       50 * (me["Cont. Int. Hi."] - me["dy/dx"]), rtol=1e-5)


def _effects(factor, levels, effect, half, p_holm, bot="pooled", interaction_p=np.nan,
             p_value=None):
    effect = np.asarray(effect, float)
    return pd.DataFrame({"block": "causal", "factor": factor, "level": levels, "bot": bot,
                         "effect_pp": effect, "ci_low_pp": effect - half,
                         "ci_high_pp": effect + half, "p_holm": p_holm,
                         "p_value": p_holm if p_value is None else p_value,
                         "interaction_p": interaction_p, "vs_reference_pp": effect - effect[0],
                         "vs_reference_low_pp": effect - effect[0] - half,
                         "vs_reference_high_pp": effect - effect[0] + half})


DECL = ResultsDeclaration("t", elements=(Element("colour", "dealt", "Colour"),))


def test_the_board_names_only_what_survives_holm_and_bounds_the_rest():
    """Colour: blue survives Holm, red's raw interval excludes zero but its Holm p does
    not, so only blue is named; the seats survive nothing and get a bound."""
    colour = _effects("Colour", ["red", "blue", "green"], [1.5, 2.5, -4.0], 1.2,
                      [0.09, 0.001, 1e-6])
    lines = dealt_lines(colour, {}, DECL, ["a", "b"], band=3.0)
    texts = [line.text for line in lines]
    model = "the model's estimate; named by the model's Wald test"
    assert texts == [f"Colour: green -4.0 pp against the average colour [-5.2, -2.8] ({model}, "
                     "Holm p = 1e-06).",
                     f"Colour: blue +2.5 pp against the average colour [+1.3, +3.7] ({model}, "
                     "Holm p = 0.001)."]
    assert [line.flagged for line in lines] == [True, False]  # beyond the band of 3 pp
    seat = _effects("seat", ["0", "1"], [0.4, -0.4], 0.9, [0.8, 0.8])
    [line] = seat_lines(pd.DataFrame(), pd.DataFrame(), seat, False, ["a", "b"], 2.0)
    assert line.text.startswith("No seat effect larger than 1.3 pp")
    quiet = _effects("Colour", ["red", "blue"], [0.2, -0.2], 0.5, [0.6, 0.6])
    assert [x.text for x in dealt_lines(quiet, {}, DECL, ["a"], 2.0)] == [
        "No colour level differs from the average by more than 0.7 pp (95% intervals)."]


def test_a_seat_is_named_by_its_holm_p_not_its_raw_p():
    """Seat 3's raw p (0.01) is below 0.05, its Holm p (0.06) is not: the board names no
    seat and bounds them all; with the Holm p below 0.05 it names seat 3 alone."""
    seat = _effects("seat", ["0", "1", "2", "3"], [0.0, 0.5, 0.5, -3.0], 2.5,
                    [0.9, 0.9, 0.9, 0.06], p_value=[0.7, 0.6, 0.6, 0.01])
    [line] = seat_lines(pd.DataFrame(), pd.DataFrame(), seat, False, ["a", "b"], 2.0)
    assert line.text.startswith("No seat effect larger than 5.5 pp")
    seat["p_holm"] = [0.9, 0.9, 0.9, 0.04]
    lines = seat_lines(pd.DataFrame(), pd.DataFrame(), seat, False, ["a", "b"], 2.0)
    assert lines[0].text.startswith("Seat 3: -3.0 pp of win rate against the average seat")
    assert not any(line.text.startswith(("Seat 1", "Seat 2", "No seat")) for line in lines)


def test_the_board_says_when_the_bots_disagree():
    rows = pd.concat([_effects("Colour", ["red", "blue"], [1.0, -1.0], 0.5, [1e-4] * 2,
                               interaction_p=1e-5),
                      _effects("Colour", ["red", "blue"], [3.0, -3.0], 0.5, [0] * 2, "x"),
                      _effects("Colour", ["red", "blue"], [-1.0, 1.0], 0.5, [0] * 2, "y")])
    lines = dealt_lines(rows, {}, DECL, ["x", "y"], 2.0)
    assert lines[-1].text == ("The colour's effect differs by bot (interaction test p = 1e-05): "
                              "blue is -3.0 pp for x, +1.0 pp for y; pooled -1.0 pp. The effect "
                              "belongs to the line-up: read it per bot.")


def test_the_sensitivity_line_gives_the_power_of_the_holm_rule_per_element():
    """Two levels: named when p < 0.05 / 2, so 80% power needs z(1 - 0.025 / 2) + z(0.8)
    = 3.08 standard errors, not the unadjusted 2.8; a 20-level element gets its own figure
    (3.9 standard errors) and leaves the two-level element's unchanged."""
    fx = _effects("Colour", ["red", "blue"], [0.0, 0.0], Z95 * 0.5, [1, 1])
    [line] = sensitivity(fx, 10_000, 50_000)
    z2 = st.norm.isf(0.025 / 2) + st.norm.ppf(0.8)
    assert named_power_z(2) == pytest.approx(z2) and round(z2, 2) == 3.08
    detectable = z2 * 0.5
    assert f"Colour {detectable:.1f} pp (2 levels, 3.1 standard errors; 1 pp needs about " \
           f"{10_000 * detectable**2:,.0f} games)" in line.text
    assert "the model's 10,000 games" in line.text and "Holm" in line.text
    many = _effects("Tile", [f"t{k}" for k in range(20)], [0.0] * 20, Z95 * 0.5, [1] * 20)
    [both] = sensitivity(pd.concat([fx, many]), 10_000, 50_000)
    assert f"Colour {detectable:.1f} pp" in both.text
    assert f"Tile {named_power_z(20) * 0.5:.1f} pp (20 levels, 3.9 standard errors" in both.text


def test_the_holm_rules_power_is_what_the_line_says():
    """Simulated: a planted effect at the stated size among 4 null levels is named by Holm
    about 80% of the time (4,000 blocks: 0.8 +- 0.02). Holm's adjusted p of each block's
    levels, vectorised (the step-down's running maximum of (m - i) p_(i)), checked against
    analysis.stats.adjust on the first blocks."""
    from analysis.stats import adjust

    rng = np.random.default_rng(5)
    m = 5
    est = rng.normal(0.0, 1.0, (4000, m))
    est[:, 0] += named_power_z(m)
    p = 2 * st.norm.sf(np.abs(est))
    order = np.argsort(p, axis=1)
    ranked = np.take_along_axis(p, order, axis=1) * (m - np.arange(m))
    holm = np.empty_like(p)
    np.put_along_axis(holm, order, np.minimum(np.maximum.accumulate(ranked, axis=1), 1), 1)
    for row in range(3):
        assert np.allclose(holm[row], adjust(p[row], "holm"))
    assert abs((holm[:, 0] < 0.05).mean() - 0.8) < 0.02


def test_running_rates_end_at_the_whole_runs_rates(table):
    run = convergence.running_rates(table, "seat")
    last = run[run["games"] == run["games"].max()].set_index("level")
    for seat in range(3):
        assert last.loc[str(seat), "win_rate"] == pytest.approx(
            table.loc[table["seat"] == seat, "win"].mean())
    first = run[run["games"] == 10].set_index("level")
    ten = table[table["game_index"] < 10]
    assert first.loc["0", "win_rate"] == pytest.approx(ten.loc[ten["seat"] == 0, "win"].mean())


def test_the_board_names_a_level_by_its_setup_tables_score_test():
    """With the setup table there, its Holm-adjusted score test decides what is named (the
    model's Wald p-values run over at small thresholds); the numbers are the model's."""
    colour = _effects("Colour", ["red", "blue", "green"], [1.5, 2.5, -4.0], 1.2,
                      [0.09, 0.001, 1e-6])
    # blue's 0.07 is not named: the threshold is Holm's 0.05, not a looser one
    table = pd.DataFrame({"colour": ["red", "blue", "green"], "p_holm": [0.01, 0.07, 0.001]})
    lines = dealt_lines(colour, {"colour_dealt": table}, DECL, ["a", "b"], band=3.0)
    named = "the model's estimate; named by the setup table's score test"
    assert [line.text for line in lines] == [
        f"Colour: green -4.0 pp against the average colour [-5.2, -2.8] ({named}, Holm p = "
        "0.001).",
        f"Colour: red +1.5 pp against the average colour [+0.3, +2.7] ({named}, Holm p = "
        "0.01)."]
