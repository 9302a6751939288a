"""Comparisons: the sequential test, two arms on common random numbers, resumable folders,
and the same code for every registered game (the toy game)."""

import json

import numpy as np
import page_reader
import pytest

from analysis import compare
from analysis.comparisons import verdict_line
from analysis.sequential import (
    NO_DIFFERENCE,
    UNDECIDED,
    Design,
    Sequential,
    confidence_sequence,
    paired_summary,
)
from reports.cli import main
from reports.compare_page import write_compare_page
from sim.core.errors import PlaytestError


def _decide(mu: float, sd: float, design: Design, rng, batch: int = 50
            ) -> tuple[str, int, tuple[float, float]]:
    test = Sequential(design, horizon=400 * batch)
    for _ in range(400):
        verdict = test.update(rng.normal(mu, sd, batch))
        if verdict:
            return verdict, test.n, test.interval()
    return UNDECIDED, test.n, test.interval()


def test_the_sequential_test_holds_its_error_rates_and_its_verdicts_match_the_interval():
    """Normal differences: under the null at most alpha (plus 3 standard errors of 400
    repeats) decide a side; at +delta at least 1 - beta decide B better; every verdict is
    what its interval shows."""
    design = Design(alpha=0.05, beta=0.2, delta=0.1)
    rng = np.random.default_rng(3)
    null = [_decide(0.0, 1.0, design, rng) for _ in range(400)]
    planted = [_decide(0.1, 1.0, design, rng) for _ in range(400)]
    wrong = sum(v in ("A better", "B better") for v, _, _ in null) / 400
    assert wrong <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 400)
    assert sum(v == "B better" for v, _, _ in planted) / 400 >= 0.8
    assert _decide(-0.3, 1.0, design, rng)[0] == "A better"
    for verdict, _, (low, high) in null + planted:
        if verdict == NO_DIFFERENCE:
            assert -0.1 < low and high < 0.1
        elif verdict == "B better":
            assert low > 0
        elif verdict == UNDECIDED:
            assert low <= 0 <= high and (low <= -0.1 or high >= 0.1)
    assert sum(v == NO_DIFFERENCE for v, _, _ in null) > 300  # most nulls end decided


def test_the_test_stops_only_where_the_interval_says_something():
    """Differences centred on zero but too few to bound them within delta: no verdict."""
    test = Sequential(Design(delta=0.02))
    assert test.update(np.resize([0.5, -0.5], 100)) is None  # mean 0, sd 0.5: [-0.3, 0.3]
    low, high = test.interval()
    assert low < -0.02 and high > 0.02


def test_identical_games_say_no_difference_at_the_first_look():
    test = Sequential(Design(delta=0.02))
    assert test.update(np.zeros(1000)) == NO_DIFFERENCE
    assert test.interval() == (0.0, 0.0)


def test_the_confidence_sequence_covers_the_mean_at_every_look():
    """Anytime validity: over 300 paths of 40 looks, the share of paths whose sequence
    misses the true mean at some look stays near or below alpha."""
    rng = np.random.default_rng(5)
    missed = 0
    for _ in range(300):
        test = Sequential(Design(alpha=0.1, delta=0.05))
        hit = False
        for _ in range(40):
            test.update(rng.normal(0.3, 1.0, 100))
            low, high = test.interval()
            hit |= not low <= 0.3 <= high
        missed += hit
    assert missed / 300 <= 0.1 + 3 * np.sqrt(0.1 * 0.9 / 300)


def test_the_confidence_sequence_is_the_papers_formula():
    # Waudby-Smith et al. (2024) eq. 2.4 at n = 100, sd 2, rho^2 = 0.01, alpha 0.05
    low, high = confidence_sequence(0.5, 2.0, 100, 0.05, 0.01)
    radius = 2.0 * np.sqrt(2 * 2 / (100 * 1) * np.log(np.sqrt(2) / 0.05))
    assert (low, high) == pytest.approx((0.5 - radius, 0.5 + radius))


def test_fixed_n_is_the_t_tests_sample_size():
    # (z_0.975 + z_0.8)^2 / 0.2^2 = 196.2, plus the t correction
    assert 196 < Design(0.05, 0.2, 0.2).fixed_n(1.0) <= 200


def test_variance_reduction_is_unpaired_over_paired_variance():
    a = np.array([1.0, 2.0, 3.0, 4.0, 6.0])
    b = a + np.array([0.5, 0.0, 0.5, 1.0, 0.5])
    s = paired_summary(a, b)
    assert s["difference"] == pytest.approx(0.5)
    expected = (a.var(ddof=1) + b.var(ddof=1)) / (b - a).var(ddof=1)
    assert s["variance_reduction"] == pytest.approx(expected)
    assert s["ci_low"] < 0.5 < s["ci_high"]


def test_compare_runs_on_the_toy_game_and_finds_the_planted_bot(tmp_path, toy_registered):
    out = tmp_path / "cmp"
    c = compare("toy", 3, "plain", b_bots=["strong", "plain", "plain"], batch=500,
                max_games=20_000, delta=0.05, out=out)
    assert c.verdict == "B better"
    assert c.summary["metric_key"] == "win:slot=0"
    assert c.summary["ci_low"] > 0
    content = json.loads((out / "compare.json").read_text())
    assert content["result"]["verdict"] == "B better" and content["status"] == "complete"
    for key in ("verdict", "games", "difference", "ci_low", "ci_high", "metric"):
        assert key in content["result"]
    assert len(c.games) == c.summary["games"] == c.path["games"].iloc[-1]
    page = write_compare_page(out).read_text()
    assert "B better" in page and "variance_reduction" in page and "sequential" in page
    head = page_reader.run_header(page)
    assert head["bots (by slot)"] == "A: plain, plain, plain; B: strong, plain, plain"
    assert head["games"] == f"{c.summary['games']:,} per arm" and head["playtest version"]
    bad = [b for t in page_reader.read(page).tables for b in page_reader.unformatted(t, 3)]
    assert not bad, bad[:10]


def test_a_bot_under_another_name_makes_no_difference(toy_registered):
    """The toy's twin plays like plain: common random numbers give identical games, and the
    test accepts the null at once."""
    c = compare("toy", 2, "plain", b_bots=["twin", "plain"], batch=200, max_games=2000)
    assert c.verdict == NO_DIFFERENCE
    assert c.summary["games"] == 200 and c.summary["difference"] == 0


def test_common_random_numbers_deal_the_same_games():
    """Game i of both arms has the same crowd-pleasers and boards; only the bot differs."""
    from sim import simulate

    a = simulate("festival", 200, 4, "greedy", seed=3)
    b = simulate("festival", 200, 4, ["explorer", "greedy", "greedy", "greedy"], seed=3)
    dealt = ["board", "crowd_1", "crowd_2", "crowd_3", "crowd_4"]
    assert a[dealt].equals(b[dealt])
    assert not a["score"].equals(b["score"])


def test_a_rule_variant_keeps_the_deal_and_pairing_reduces_the_variance():
    """Fewer crowd-pleaser tiles: the boards are dealt the same, and the per-game differences
    vary less than those of unpaired arms."""
    c = compare("festival", 4, "greedy", b_sets={"crowd_pleaser_tiles": 2}, games=4000,
                batch=2000)
    rows = {r["value"]: r for r in c.summary["also"]}
    assert c.summary["metric_key"] == "win:seat=0"
    assert rows["table_score"]["variance_reduction"] > 1.2
    assert rows["table_score"]["difference"] < 0  # fewer crowd-pleasers, fewer points
    unpaired = compare("festival", 4, "greedy", b_sets={"crowd_pleaser_tiles": 2},
                       games=4000, batch=2000, b_seed=99)
    assert {r["value"]: r for r in unpaired.summary["also"]}["table_score"][
        "variance_reduction"] == pytest.approx(1, abs=0.1)


def test_an_interrupted_comparison_resumes_to_the_same_result(tmp_path):
    out = tmp_path / "cmp"
    kwargs = dict(b_seed=1, batch=500, delta=0.005, max_games=3000, out=out)
    first = compare("festival", 4, "greedy", **kwargs)
    assert first.verdict == UNDECIDED and len(first.path) == 6
    (out / "b" / "data" / "part-00001.parquet").unlink()  # as if stopped before it
    again = compare("festival", 4, "greedy", **kwargs)
    assert again.summary == first.summary
    assert again.path.equals(first.path)


def test_a_folder_with_another_comparison_is_refused(tmp_path):
    out = tmp_path / "cmp"
    compare("festival", 2, "greedy", b_bots=["random", "greedy"], batch=200, max_games=400,
            out=out)
    with pytest.raises(PlaytestError, match="holds a different compare"):
        compare("festival", 2, "greedy", b_bots=["hunter", "greedy"], batch=200,
                max_games=400, out=out)


@pytest.mark.parametrize("kwargs", [{"delta": 1e-4}, {"alpha": 1e-300}, {"delta": 0.999},
                                    {"metric": "score", "delta": 1e300}])
def test_extreme_designs_decide_or_say_undecided(kwargs):
    """The fixed-n power (and the confidence sequence tuned by it) at an effect far beyond
    or far below the spread: no solver failure escapes, the interval stays finite."""
    import math

    c = compare("festival", 2, "greedy", b_bots=["random", "greedy"], batch=100,
                max_games=300, **kwargs)
    assert c.verdict in ("A better", "B better", NO_DIFFERENCE, UNDECIDED)
    assert math.isfinite(c.summary["ci_low"]) and math.isfinite(c.summary["ci_high"])
    assert 2 <= c.summary["fixed_n"] <= 2**62
    if kwargs.get("delta") == 1e-4:  # the floor: the interval tuned to the games it may see
        assert c.summary["ci_high"] - c.summary["ci_low"] < 1


def test_a_stop_without_a_decision_says_where_and_why():
    c = compare("festival", 4, "greedy", b_seed=1, games=20, batch=10)
    assert c.verdict == UNDECIDED
    line = verdict_line(c.summary)
    assert line.startswith(f"{UNDECIDED}: after the games asked (20 per arm) the interval [")
    assert "still includes zero and reaches beyond +/- 2 points of win rate" in line


def test_fixed_n_mode_plays_exactly_n_games():
    c = compare("festival", 2, "greedy", b_bots=["random", "greedy"], games=600, batch=200)
    assert c.summary["games"] == 600 and c.verdict == "A better"
    assert c.summary["interval"].startswith("paired t interval")


@pytest.mark.parametrize("argv,expect", [
    (["--bots", "greedy"], "the two arms are identical"),
    (["--bots", "greedy", "--b-set", "pile_sise=3"], "unknown rule 'pile_sise'"),
    (["--bots", "greedy", "--b-set", "crowd_pleaser_tiles=7"],
     "crowd_pleaser_tiles = 7 must be a whole number 0..4"),
    (["--bots", "greedy", "--b-bots", "greedy,nobody,greedy,greedy"], "unknown bot 'nobody'"),
    (["--bots", "greedy", "--b-bots", "hunter", "--metric", "win"], "every slot's bot differs"),
    (["--bots", "greedy", "--b-seed", "1", "--target", "seat=7"], "seat=7 is out of range"),
    (["--bots", "greedy", "--b-seed", "1", "--target", "chair=1"], "is not seat=N"),
    (["--bots", "greedy", "--b-seed", "1", "--alpha", "0.7"], "--alpha"),
    (["--bots", "greedy", "--b-seed", "1", "--delta", "-1"], "--delta"),
    (["--bots", "greedy", "--b-seed", "1", "--batch", "5"], "--batch"),
    (["--bots", "greedy", "--b-seed", "1", "--players", "9"], "for 2 to 4 players"),
    # arms that differ only in how they are written play the same games
    (["--bots", "greedy", "--b-set", "crowd_pleaser_tiles=4"], "would play the same games"),
    (["--bots", "greedy", "--b-data", "SHIPPED_COPY"], "would play the same games"),
    # a difference of win rates is below 1
    (["--bots", "greedy", "--b-seed", "1", "--delta", "5"], "beyond a win rate's range"),
    (["--bots", "greedy", "--b-seed", "1", "--delta", "1e300"], "beyond a win rate's range"),
    (["--bots", "greedy", "--b-seed", "1", "--delta", "nan"], "--delta must be a positive"),
])
def test_bad_compare_input_is_one_line(tmp_path, capsys, argv, expect):
    import shutil

    from sim.core.data import seeds_dir

    if "SHIPPED_COPY" in argv:
        shutil.copytree(seeds_dir("festival"), tmp_path / "copy")
        argv = [str(tmp_path / "copy") if a == "SHIPPED_COPY" else a for a in argv]
    out = tmp_path / "cmp"
    assert main(["compare", "festival", *argv, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()


def test_compare_on_the_command_line_writes_json_and_page(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["compare", "festival", "--players", "2", "--bots", "greedy", "--b-bots",
                 "random,greedy", "--batch", "200", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("A better. In B, the win rate of slot 0 falls by ")
    assert "(delta 2 points of win rate, the default for this metric; 200 games" in printed
    assert (out / "compare.html").exists() and (out / "path.csv").exists()
    assert (out / "a" / "run.json").exists() and (out / "b" / "run.json").exists()


def test_the_seat_spread_says_whether_the_variant_is_fairer():
    """An earlier end (3 objectives) takes seat 0's lead down: B is the fairer game."""
    c = compare("festival", 4, "greedy", b_sets={"end_completed_objectives": 3},
                metric="seat-spread", games=6000, batch=3000)
    s = c.summary
    assert s["metric_key"] == "seat-spread:seat=0,3"
    assert c.verdict == "B fairer" and s["ci_high"] < 0
    want = (c.games["seat_spread_b"] - c.games["seat_spread_a"]).mean()
    assert s["difference"] == pytest.approx(want)
    way = "grows" if want > 0 else "shrinks"
    assert s["reading"].startswith(f"In B, seat 0's lead over seat 3 {way} by ")
    assert ("less fair" if want > 0 else "more fair") in s["reading"]
    with pytest.raises(PlaytestError, match="not taken by --metric seat-spread"):
        compare("festival", 4, "greedy", b_sets={"crowd_pleaser_tiles": 2},
                metric="seat-spread", target="seat=1", games=100, batch=50)


def test_a_card_holder_target_reads_the_seat_dealt_that_level():
    """Three players, four boards: a game without the red board has no holder and drops out
    of the pairs; the metric is the red board's seat's win rate."""
    c = compare("festival", 3, "greedy", b_sets={"crowd_pleaser_tiles": 2},
                target="holder=board:red", games=400, batch=200)
    s = c.summary
    assert s["metric"] == "win rate of the seat dealt red (board)"
    assert 0.6 * 400 < s["pairs"] < 400 == s["games"]
    assert c.games["win_a"].isna().sum() == 400 - s["pairs"]
    with pytest.raises(PlaytestError, match="'colour' is not a dealt element"):
        compare("festival", 3, "greedy", b_sets={"crowd_pleaser_tiles": 2},
                target="holder=colour:red", games=100, batch=50)


def test_p_values_only_after_a_fixed_number_of_games(tmp_path):
    seq = compare("festival", 2, "greedy", b_bots=["random", "greedy"], batch=200,
                  max_games=2000, out=tmp_path / "seq")
    fixed = compare("festival", 2, "greedy", b_bots=["random", "greedy"], games=400,
                    batch=200, out=tmp_path / "fixed")
    assert all("p_value" not in row for row in seq.summary["also"])
    assert all("p_value" in row for row in fixed.summary["also"])
    assert "p_value" not in write_compare_page(tmp_path / "seq").read_text()
    assert "p_value" in write_compare_page(tmp_path / "fixed").read_text()


@pytest.mark.parametrize("low, high", [(-0.01, 0.03), (-0.03, 0.01)])
def test_a_fixed_n_interval_past_delta_on_one_side_decides_nothing(low, high):
    """The fixed-n verdict "no difference larger than delta" needs the whole interval
    inside +/- delta: one inside on one side and beyond on the other is undecided."""
    from analysis.comparisons import _fixed_verdict

    design = Design(delta=0.02)
    main_row = {"ci_low": low, "ci_high": high, "p_value": 0.4, "difference": 0.01}
    assert _fixed_verdict(main_row, design)[0] == UNDECIDED
    inside = {"ci_low": -0.015, "ci_high": 0.015, "p_value": 0.4, "difference": 0.0}
    assert _fixed_verdict(inside, design)[0] == NO_DIFFERENCE
    beyond = {"ci_low": 0.001, "ci_high": 0.03, "p_value": 0.01, "difference": 0.015}
    assert _fixed_verdict(beyond, design)[0] == "B better"


@pytest.mark.parametrize("delta", [1e-300, 1e-5, 5e-324])
def test_a_delta_too_small_to_decide_is_refused_in_one_line(delta, capsys):
    code = main(["compare", "festival", "--bots", "greedy", "--b-bots", "random,greedy",
                 "--players", "2", "--games", "10", "--delta", str(delta), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--delta" in err and "below" in err, err
