"""Comparisons: the sequential test, two arms on common random numbers, resumable folders,
and the same code for every registered game (the toy game)."""

import json

import numpy as np
import pytest

from analysis import compare
from analysis.sequential import Design, Sprt, paired_summary
from reports.cli import main
from reports.compare_page import write_compare_page
from sim.core.errors import PlaytestError


def _decide(mu: float, sd: float, design: Design, rng, batch: int = 50) -> tuple[str, int]:
    test = Sprt(design)
    for _ in range(400):
        verdict = test.update(rng.normal(mu, sd, batch))
        if verdict:
            return verdict, test.n
    return "undecided", test.n


def test_the_sprt_holds_its_error_rates_and_beats_the_fixed_n_test():
    """Normal differences: under the null at most alpha (plus 3 standard errors of 400
    repeats) decide a side; at +delta at least 1 - beta decide B better; the average sample
    number at both is below the fixed-n paired t-test's."""
    design = Design(alpha=0.05, beta=0.2, delta=0.1)
    rng = np.random.default_rng(3)
    fixed = design.fixed_n(1.0)
    null = [_decide(0.0, 1.0, design, rng) for _ in range(400)]
    wrong = sum(v in ("A better", "B better") for v, _ in null) / 400
    assert wrong <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 400)
    assert np.mean([n for _, n in null]) < fixed
    planted = [_decide(0.1, 1.0, design, rng) for _ in range(400)]
    assert sum(v == "B better" for v, _ in planted) / 400 >= 0.8
    assert np.mean([n for _, n in planted]) < fixed
    assert _decide(-0.3, 1.0, design, rng)[0] == "A better"


def test_identical_games_accept_the_null_at_the_first_look():
    test = Sprt(Design(delta=0.02))
    assert test.update(np.zeros(1000)) == "no difference within delta"
    assert test.interval() == (0.0, 0.0)


def test_the_confidence_sequence_covers_the_mean_at_every_look():
    """Anytime validity: over 300 paths of 40 looks, the share of paths whose sequence
    misses the true mean at some look stays near or below alpha."""
    rng = np.random.default_rng(5)
    missed = 0
    for _ in range(300):
        test = Sprt(Design(alpha=0.1, delta=0.05))
        hit = False
        for _ in range(40):
            test.update(rng.normal(0.3, 1.0, 100))
            low, high = test.interval()
            hit |= not low <= 0.3 <= high
        missed += hit
    assert missed / 300 <= 0.1 + 3 * np.sqrt(0.1 * 0.9 / 300)


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


def test_a_bot_under_another_name_makes_no_difference(toy_registered):
    """The toy's twin plays like plain: common random numbers give identical games, and the
    test accepts the null at once."""
    c = compare("toy", 2, "plain", b_bots=["twin", "plain"], batch=200, max_games=2000)
    assert c.verdict == "no difference within delta"
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
    assert first.verdict == "undecided at max-games" and len(first.path) == 6
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


@pytest.mark.parametrize("kwargs", [{"delta": 1e-12}, {"alpha": 1e-300}, {"delta": 0.999},
                                    {"metric": "score", "delta": 1e300}])
def test_extreme_designs_decide_or_say_undecided(kwargs):
    """The fixed-n power (and the confidence sequence tuned by it) at an effect far beyond
    or far below the spread: no solver failure escapes, the interval stays finite."""
    import math

    c = compare("festival", 2, "greedy", b_bots=["random", "greedy"], batch=100,
                max_games=300, **kwargs)
    assert c.verdict in ("A better", "B better", "no difference within delta",
                         "undecided at max-games")
    assert math.isfinite(c.summary["ci_low"]) and math.isfinite(c.summary["ci_high"])
    assert 2 <= c.summary["fixed_n"] <= 2**62
    if kwargs.get("delta") == 1e-12:  # the interval tuned to the games it may see (300)
        assert c.summary["ci_high"] - c.summary["ci_low"] < 1


def test_fixed_n_undecided_is_not_called_max_games():
    c = compare("festival", 4, "greedy", b_seed=1, games=20, batch=10)
    assert c.verdict == "undecided after the games asked"


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
    assert printed.startswith("A better: win rate of slot 0")
    assert (out / "compare.html").exists() and (out / "path.csv").exists()
    assert (out / "a" / "run.json").exists() and (out / "b" / "run.json").exists()
