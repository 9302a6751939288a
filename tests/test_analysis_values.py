"""Each table's numbers on hand-made results tables whose answers are known."""

import numpy as np
import pandas as pd
import pytest
import toy_game as toy
from statsmodels.discrete.discrete_model import Logit

from analysis import convergence, distributions, elements, seats
from analysis.effects import effects
from analysis.points import score_differences
from analysis.rates import game_codes
from analysis.summary import summarise
from sim.core.declaration import GameElement


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


def test_points_are_level_minus_reference(table):
    game, n = game_codes(table)
    strong = (table["bot"] == "strong").to_numpy()
    plain = (table["bot"] == "plain").to_numpy()
    est, lo, hi = score_differences(table["score"].to_numpy(), game, n, [(strong, plain)])
    want = table.loc[strong, "score"].mean() - table.loc[plain, "score"].mean()
    assert est[0] == pytest.approx(want) and want > 0
    assert lo[0] < est[0] < hi[0]


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
    assert list(fx["factor"]) == ["seat", "Colour"]
    assert np.allclose(fx["effect_pp"], 100 * me["dy/dx"], rtol=1e-8)
    assert np.allclose(fx["ci_low_pp"], 100 * me["Conf. Int. Low"], rtol=1e-5)
    assert np.allclose(fx["ci_high_pp"], 100 * me["Cont. Int. Hi."], rtol=1e-5)


def test_the_summary_names_effects_on_either_side_of_zero():
    fx = pd.DataFrame({"block": ["causal"] * 3, "factor": ["bot", "bot", "Colour"],
                       "level": ["weak", "strong", "blue"],
                       "reference": ["plain", "plain", "red"], "effect_pp": [-8.0, 5.0, 0.3],
                       "ci_low_pp": [-9.0, 4.0, -0.5], "ci_high_pp": [-7.0, 6.0, 1.1],
                       "points": [-2.0, 1.0, 0.0], "points_ci_low": [-2.5, 0.5, -0.2],
                       "points_ci_high": [-1.5, 1.5, 0.2]})
    findings, limits = summarise(fx, pd.DataFrame(), False, 1000, 1000)
    assert findings[0].startswith("Bot: weak rather than plain: -8.0 percentage points")
    assert findings[1].startswith("Bot: strong rather than plain: +5.0")
    assert "Not resolved (intervals include zero): Colour blue." in limits


def test_running_rates_end_at_the_whole_runs_rates(table):
    run = convergence.running_rates(table, "seat")
    last = run[run["games"] == run["games"].max()].set_index("level")
    for seat in range(3):
        assert last.loc[str(seat), "win_rate"] == pytest.approx(
            table.loc[table["seat"] == seat, "win"].mean())
    first = run[run["games"] == 10].set_index("level")
    ten = table[table["game_index"] < 10]
    assert first.loc["0", "win_rate"] == pytest.approx(ten.loc[ten["seat"] == 0, "win"].mean())
