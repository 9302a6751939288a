"""Balance across skill tiers (analysis/balance.py, analysis/verdicts.py): the verdict read
off hand-written intervals, the planted findings of the toy game found at the tiers they were
planted at, and the run folders, resumption and refusals of ``playtest balance``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import toy_game
from conftest import one_line
from scipy import stats as st

from analysis.balance import balance, tier_chunk
from analysis.ladder import step_verdict
from analysis.verdicts import (
    GROWS,
    HOLDS,
    LOW_ONLY,
    NEGLIGIBLE,
    REVERSES,
    SHRINKS,
    UNRESOLVED,
    VARIES,
    simultaneous,
    tier_state,
    verdict,
)
from reports.cli import main
from sim.core.run_folder import load_results

# ------------------------------------------------------------------ the verdict, by hand

@pytest.mark.parametrize("low, high, state", [
    (2.1, 5.0, "+"), (2.0, 5.0, "?"), (-5.0, -2.1, "-"), (-5.0, -2.0, "?"),
    (-2.0, 2.0, "0"), (-1.0, 1.5, "0"), (-1.0, 2.1, "?"), (-2.1, 1.0, "?"),
    (np.nan, np.nan, "?"), (-0.5, np.inf, "?")])
def test_a_tier_reads_its_interval_against_the_band(low, high, state):
    assert tier_state(low, high, 2.0) == state


def _v(*cells, band=2.0):
    """The verdict of (estimate, half-width) cells, weakest tier first."""
    est = np.array([c[0] for c in cells], float)
    half = np.array([c[1] for c in cells], float)
    return verdict(est, est - half, est + half, band)[0]


@pytest.mark.parametrize("cells, expected", [
    ([(5, 1), (3, 1.5)], UNRESOLVED),  # the strongest tier crosses the band's edge
    ([(0, 9), (5, 1)], UNRESOLVED),  # only the strongest tier resolves it
    ([(-6, 1), (0, 1)], LOW_ONLY),
    ([(6, 1), (1, 2), (0, 1)], LOW_ONLY),  # gone at the top, a lower tier beyond
    ([(6, 1), (0, 1), (0, 1)], LOW_ONLY),  # gone from the middle tier on
    ([(0, 1), (0.5, 1)], NEGLIGIBLE),
    ([(0, 9), (0, 1), (0.5, 1)], NEGLIGIBLE),  # a tier that cannot say is not counted
    ([(-5, 1), (5, 1)], REVERSES),
    ([(0, 1), (5, 1)], GROWS),  # appears with skill
    ([(1.5, 0.4), (2.6, 0.5)], GROWS),  # appears, though by less than the band
    ([(3, 0.5), (8, 0.5)], GROWS),
    ([(-3, 0.5), (-8, 0.5)], GROWS),  # magnitude, whatever the sign
    ([(8, 0.5), (3, 0.5)], SHRINKS),
    ([(-8, 0.5), (-3, 0.5)], SHRINKS),
    ([(3, 0.5), (4, 0.5)], HOLDS),  # changed by less than the band
    ([(3, 0.9), (5.5, 3.4)], HOLDS),  # by more than the band, but not clearly
    ([(4, 1), (0, 9), (4.5, 1)], HOLDS),
    ([(4, 1), (9, 0.5), (4.5, 1)], HOLDS),  # the weakest resolving tier against the top
    # only at the third of four tiers: not "only at lower skill", the weaker two read 0
    ([(0, 1), (0, 1), (6, 1), (0, 1)], VARIES),
    ([(6, 1), (0, 1), (6, 1)], VARIES),  # beyond, within, beyond: no growth
    # grows from the weakest to the top, but a middle tier is past the top (-9.3 to -5.9)
    ([(-3, 0.5), (-4, 0.5), (-9.3, 0.5), (-5.9, 0.5)], VARIES),
    ([(-3, 0.5), (-4, 0.5), (-5.0, 0.5), (-5.9, 0.5)], GROWS),
    # appears with skill, but rose past the top on the way (The Magnificent's seat 0)
    ([(0.5, 0.3), (-3.9, 0.2), (-9.3, 0.2), (-5.9, 1.2)], VARIES),
    ([(0.5, 0.3), (-3.9, 0.2), (-5.0, 0.2), (-5.9, 1.2)], GROWS),
])
def test_the_verdict_of_each_pattern_of_tiers(cells, expected):
    assert _v(*cells) == expected


def test_a_verdict_names_the_tiers_it_rests_on_and_those_that_resolved_nothing():
    est, half = np.array([0.0, 0.0, 0.5]), np.array([9.0, 1.0, 1.0])
    v, why = verdict(est, est - half, est + half, 2.0, ["random", "greedy", "search"])
    assert v == NEGLIGIBLE
    assert why == "within the band at greedy, search (random resolved nothing)"


def test_the_summary_never_reads_as_fair_when_the_strongest_tier_resolved_nothing():
    from analysis.verdicts import summary

    row = {"element": "seat", "label": "Seat", "level": "0", "verdict": UNRESOLVED,
           "reason": "", "greedy_pp": 0.1, "greedy_low_pp": -0.5, "greedy_high_pp": 0.7,
           "greedy_state": "0", "search_pp": 1.9, "search_low_pp": -4.2,
           "search_high_pp": 7.9, "search_state": "?"}
    tier = {"seat_spread": pd.DataFrame([{"test": "seat 0 minus seat 2", "estimate_pp": 1.0,
                                          "ci_low_pp": -1.0, "ci_high_pp": 3.0}]),
            "length": pd.DataFrame(), "scores": pd.DataFrame({"measure": ["score"],
                                                               "mean": [10.0]})}
    lines = summary(pd.DataFrame([row]), {"greedy": tier, "search": tier}, [660_000, 670],
                    2.0)
    assert lines[0].startswith("The strongest tier (search, 670 games) resolved none of the "
                               "1 findings")
    assert not any("No finding is beyond the band" in line for line in lines)
    # seen only at a middle tier: within the band at the strongest, so not listed beyond it
    row |= {"verdict": VARIES, "greedy_state": "+", "greedy_pp": 4.0, "search_state": "0",
            "search_pp": 0.2, "search_low_pp": -0.5, "search_high_pp": 0.9}
    lines = summary(pd.DataFrame([row]), {"greedy": tier, "search": tier}, [660_000, 670],
                    2.0)
    assert lines[0].startswith("No finding is beyond the band of 2 pp at the strongest tier "
                               "(search, 670 games), which resolved 1 of the 1 findings")
    assert lines[1].startswith("Varies across tiers, within the band at the strongest tier: "
                               "seat 0 (greedy +4.0, search +0.2)")


def test_the_band_is_the_verdicts_threshold():
    cells = [(-6, 1), (1.5, 0.4)]
    assert _v(*cells, band=2.0) == LOW_ONLY
    assert _v(*cells, band=0.5) == REVERSES


def test_the_intervals_hold_simultaneously_over_their_family():
    est = np.array([1.0, -2.0, 0.5, np.nan])
    half = np.array([1.0, 2.0, 0.5, np.nan])
    lo, hi = simultaneous(est, est - half, est + half)
    z = st.norm.ppf(1 - 0.025 / 3) / st.norm.ppf(0.975)  # three levels measured
    assert np.allclose((hi - lo)[:3] / 2, half[:3] * z)
    assert np.allclose((lo + hi)[:3] / 2, est[:3])


# ------------------------------------------------------------------ the toy game's tiers

@pytest.fixture
def toy_tiers(toy_registered, monkeypatch):
    """The toy game with a "random" and a "greedy" bot: blue planted for every bot, red
    (worse) and green (better) for random alone, so that the average of the levels is the
    same at both tiers."""
    for bot in ("random", "greedy"):
        monkeypatch.setitem(toy_game.BOT, bot, 0.0)
        monkeypatch.setitem(toy_game.CHOOSES_B, bot, 0.5)
    monkeypatch.setitem(toy_game.BOT_COLOUR, ("random", "red"), -0.5)
    monkeypatch.setitem(toy_game.BOT_COLOUR, ("random", "green"), 0.5)


def test_a_finding_planted_for_random_alone_is_only_at_low_skill(toy_tiers, tmp_path):
    b = balance("toy", "random,greedy", 4, games=20_000, out=tmp_path / "b")
    f = b.findings.set_index(["element", "level"])
    assert f.loc[("colour", "red"), "verdict"] == LOW_ONLY
    assert f.loc[("colour", "red"), "random_state"] == "-"
    assert f.loc[("colour", "red"), "greedy_state"] == "0"
    assert f.loc[("colour", "red"), "reason"] == "beyond the band at random, within it at greedy"
    assert f.loc[("colour", "blue"), "verdict"] == HOLDS
    assert f.loc[("colour", "blue"), "random_state"] == "+"
    assert f.loc[("colour", "blue"), "greedy_state"] == "+"
    # the summary leads with what holds at the strongest tier, then what is gone there
    # after the tiers' measured order, what holds at the strongest tier, then what is gone
    assert b.summary[0].startswith("Order of the tiers, measured") and \
        b.record["order"][0]["upper"] == "greedy"
    assert "Colour: blue" in b.summary[1] and HOLDS in b.summary[1]
    assert "red" in b.summary[2] and "Only at lower skill" in b.summary[2]


def test_every_tier_plays_the_same_deals_in_a_run_folder_of_its_own(toy_tiers, tmp_path):
    out = tmp_path / "b"
    balance("toy", "random,greedy", 2, games=[300, 500], out=out, seed=4)
    a = load_results(out / "tiers" / "00-random")
    g = load_results(out / "tiers" / "01-greedy")
    assert set(a["bot"]) == {"random"} and set(g["bot"]) == {"greedy"}
    assert a["game_index"].max() == 299 and g["game_index"].max() == 499
    assert (a["colour"].astype(str).to_numpy()
            == g["colour"].astype(str).to_numpy()[:len(a)]).all()
    record = json.loads((out / "balance.json").read_text())
    assert record["status"] == "complete"
    assert [t["games"] for t in record["tiers"]] == [300, 500]
    for name in ("tiers", "findings", "seats", "effects", "scores", "length", "ends"):
        assert len(pd.read_csv(out / f"{name}.csv"))


def test_the_command_writes_the_page_and_resumes_without_replaying(toy_tiers, tmp_path,
                                                                   capsys):
    out = tmp_path / "b"
    args = ["balance", "toy", "--tiers", "random,greedy", "--games", "2000", "--band", "3",
            "--out", str(out), "--quiet"]
    assert main(args) == 0
    page = (out / "index.html").read_text()
    for text in ("within the band at every resolving tier", "only at lower skill", "3 pp",
                 "playtest report", "Seat fairness", "Colour"):
        assert text in page, text
    assert main(["report", str(out / "tiers" / "01-greedy"), "--quiet"]) == 0
    assert (out / "tiers" / "01-greedy" / "report" / "index.html").exists()
    findings = (out / "findings.csv").read_text()
    seconds = json.loads((out / "tiers" / "00-random" / "run.json").read_text())["seconds"]
    capsys.readouterr()
    assert main(args) == 0
    assert (out / "findings.csv").read_text() == findings
    assert json.loads((out / "tiers" / "00-random" / "run.json").read_text())["seconds"] \
        == seconds  # nothing played again
    assert main(args + ["--band", "0.5"]) == 0  # another band re-reads the same games
    assert "0.5 pp" in (out / "index.html").read_text()
    assert (out / "findings.csv").read_text() != findings
    assert json.loads((out / "tiers" / "00-random" / "run.json").read_text())["seconds"] \
        == seconds
    capsys.readouterr()
    assert main(args + ["--games", "3000"]) == 2
    one_line(capsys, "holds a different balance (games [2000, 2000] there, [3000, 3000] now)")


def test_a_search_tier_plays_small_chunks_so_an_interruption_keeps_most_of_it():
    assert tier_chunk("festival", "search:4", 10_000) == 500
    assert tier_chunk("festival", "search", 300) == 300
    assert tier_chunk("festival", "greedy", 10_000) is None  # the runner's default


def test_a_time_budget_is_shared_by_the_tiers_and_kept_on_resumption(toy_tiers, tmp_path):
    out = tmp_path / "b"
    b = balance("toy", "random,greedy", 4, minutes=0.05, out=out)
    games = [t["games"] for t in b.record["tiers"]]
    assert all(n >= 100 for n in games)
    again = balance("toy", "random,greedy", 4, minutes=0.05, out=out)
    assert [t["games"] for t in again.record["tiers"]] == games


@pytest.mark.parametrize("args, expect", [
    (["--tiers", "random,nobody"], "unknown bot 'nobody'"),
    (["--tiers", "random"], "two tiers at least"),
    (["--tiers", "random,random"], "'random' is listed twice"),
    (["--games", "100,200,300"], "gives 3 numbers for 2 tiers"),
    (["--games", "many"], "must be whole numbers"),
    (["--games", "5"], "games"),
    (["--games", "100", "--minutes", "2"], "two budgets"),
    (["--minutes", "0"], "minutes"),
    (["--minutes", "nan"], "minutes"),
    (["--band", "0"], "band"),
    (["--players", "9"], "2 to 4 players"),
])
def test_bad_requests_are_one_line_before_any_game(toy_tiers, tmp_path, capsys, args,
                                                    expect):
    out = tmp_path / "b"
    base = ["balance", "toy", "--tiers", "random,greedy", "--out", str(out), "--quiet"]
    assert main(base + args) == 2
    one_line(capsys, expect)
    assert not out.exists()


def test_the_summary_says_whether_the_strongest_tier_is_established():
    from analysis.balance import order_lines
    from analysis.ladder import Ladder

    def ladder(*steps):
        rows = [{"lower": lo, "upper": up, "share": sh, "low": a, "high": b,
                 "games": 400, "verdict": step_verdict(a, b)} for lo, up, sh, a, b in steps]
        return Ladder(pd.DataFrame(rows), pd.DataFrame())

    tiers = ["random", "greedy", "search"]
    sure = order_lines(ladder(("random", "greedy", 0.9, 0.88, 0.92),
                              ("greedy", "search", 0.7, 0.66, 0.74)), tiers, 4, 200)
    assert "random < greedy < search; each tier beat the one below it, so search is " \
        "established as the strongest by this chain" in sure[0]
    open_top = order_lines(ladder(("random", "greedy", 0.9, 0.88, 0.92),
                                  ("greedy", "search", 0.52, 0.48, 0.56)), tiers, 4, 200)[0]
    assert "random < greedy ? search" in open_top
    assert "search against greedy 52.0% [48.0, 56.0], not resolved" in open_top
    assert "search is not established as the strongest tier" in open_top
    low_open = order_lines(ladder(("random", "greedy", 0.45, 0.40, 0.50),
                                  ("greedy", "search", 0.7, 0.66, 0.74)), tiers, 4, 200)[0]
    assert "random ? greedy < search" in low_open
    assert "search beat greedy, but a step below is open" in low_open
    assert "assumed, not established" in order_lines(None, tiers, 4, 0)[0]
