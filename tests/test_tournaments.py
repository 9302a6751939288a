"""Tournaments: balanced tables, ratings that follow the head-to-head results, a bot entered
twice rated equal, resumable folders, and the same code for every game (the toy game)."""

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from analysis import tournament
from analysis.tournaments import entrants, line_ups, rate
from reports.cli import main
from sim.core.errors import PlaytestError


@pytest.mark.parametrize("n,players", [(5, 4), (4, 2), (6, 3), (3, 3)])
def test_every_pair_meets_equally_often_and_in_both_orders(n, players):
    tables = line_ups(n, players)
    pairs = Counter(p for t in tables for p in itertools.combinations(sorted(t), 2))
    assert set(pairs) == set(itertools.combinations(range(n), 2))
    assert len(set(pairs.values())) == 1
    # who sits just after whom (cyclic seating) is balanced too
    follows = Counter((t[i], t[(i + 1) % players]) for t in tables for i in range(players))
    assert len(set(follows.values())) == 1 or players == 2


def _games(ranks: list[list[int]]) -> pd.DataFrame:
    """Rows of (game, entrant, score, rank, win): entrant k sits in seat k of every game."""
    rows = []
    for g, order in enumerate(ranks):
        top = order.count(1)
        rows += [(g, k, 10 - r, r, (1 / top) if r == 1 else 0.0) for k, r in enumerate(order)]
    return pd.DataFrame(rows, columns=["game", "entrant", "score", "rank", "win"])


def test_a_shared_rank_is_half_a_win_to_each_side():
    """Two bots tied in every game rate equal, each finishing above the other in half of
    their games; ties among three count a half for every pair."""
    t = rate(_games([[1, 1]] * 40), ["a", "b"], 2)
    h2h = t.head_to_head.set_index(["bot", "opponent"])
    assert h2h.loc[("a", "b"), "above"] == h2h.loc[("b", "a"), "above"] == 20
    assert h2h.loc[("a", "b"), "rate"] == 0.5
    r = t.ratings.set_index("bot")["rating"]
    assert r["a"] == pytest.approx(r["b"])
    # a beats b in 30 games and ties 10: 30 + 5 of 40 above, never 40
    t = rate(_games([[1, 2]] * 30 + [[1, 1]] * 10), ["a", "b"], 2)
    assert t.head_to_head.set_index(["bot", "opponent"]).loc[("a", "b"), "above"] == 35
    t = rate(_games([[1, 1, 1]] * 9 + [[1, 2, 3]] * 9), ["a", "b", "c"], 3)
    h2h = t.head_to_head.set_index(["bot", "opponent"])
    assert h2h.loc[("a", "b"), "above"] == h2h.loc[("a", "c"), "above"] == 9 + 4.5
    assert h2h.loc[("c", "a"), "above"] == h2h.loc[("b", "c"), "above"] - 9 == 4.5


def test_ratings_follow_a_known_strength_order():
    """Hand-made finishing orders drawn from Plackett-Luce strengths 3 > 2 > 1 > 0: the
    ratings come out in that order, the head-to-head rates agree, and the intervals of
    neighbours do not overlap."""
    rng = np.random.default_rng(0)
    strength = np.exp(np.array([0.0, 0.7, 1.4, 2.1]))
    rows = []
    for g in range(6000):
        seats = rng.permutation(4)
        order, left = [], list(seats)
        while left:
            p = strength[left] / strength[left].sum()
            order.append(left.pop(rng.choice(len(left), p=p)))
        place = {e: r + 1 for r, e in enumerate(order)}
        rows += [{"game": g, "entrant": e, "score": 10 - place[e], "rank": place[e],
                  "win": float(place[e] == 1)} for e in seats]
    t = rate(pd.DataFrame(rows), ["zero", "one", "two", "three"], 4)
    assert list(t.ratings["bot"]) == ["three", "two", "one", "zero"]
    r = t.ratings.set_index("bot")
    for better, worse in [("three", "two"), ("two", "one"), ("one", "zero")]:
        assert r.loc[better, "ci_low"] > r.loc[worse, "ci_high"]
        h = t.head_to_head.set_index(["bot", "opponent"]).loc[(better, worse)]
        assert h["ci_low"] > 0.5
    # Bradley-Terry on pairs of Plackett-Luce orders keeps the spacing roughly
    assert np.diff(r.loc[["zero", "one", "two", "three"], "rating"]) == pytest.approx(
        [0.7, 0.7, 0.7], abs=0.25)


def test_five_festival_bots_rank_as_their_head_to_head_results_say():
    """The issue's five bots: the rating order is the head-to-head order, and every pair
    that differs by more than 3 standard errors has rating intervals apart."""
    t = tournament("festival", 4, "random,builder,hunter,greedy,explorer", games=15_000)
    assert t.summary["disagreements"] == []
    h2h = t.head_to_head.set_index(["bot", "opponent"])["rate"]
    order = list(t.ratings["bot"])
    assert all(h2h[(a, b)] > 0.5 for a, b in zip(order, order[1:]))
    assert order[-1] == "random"


def test_a_rating_against_the_head_to_head_is_reported():
    from analysis.tournaments import disagreements

    t = rate(pd.DataFrame({"game": np.repeat(np.arange(400), 2), "entrant": [0, 1] * 400,
                           "score": 0, "rank": [1, 2] * 300 + [2, 1] * 100, "win": 0.0}),
             ["a", "b"], 2)
    t.ratings = t.ratings.iloc[::-1]  # b rated above a, though a finished above it 75%
    assert disagreements(t) == ["b is rated above a but finished above it in 25.0% of "
                                "their games"]


def test_the_same_bot_under_two_names_gets_equal_ratings():
    """greedy entered twice, against hunter and random at two-player tables."""
    t = tournament("festival", 2, "g1=greedy,g2=greedy,hunter,random", games=6000)
    r = t.ratings.set_index("bot")
    assert r.loc["g1", "ci_low"] <= r.loc["g2", "rating"] <= r.loc["g1", "ci_high"]
    assert r.loc["g2", "ci_low"] <= r.loc["g1", "rating"] <= r.loc["g2", "ci_high"]
    assert r.loc["random"].rating < r.loc["hunter"].rating < r.loc["g1"].rating
    assert set(r["games"]) == {3000}


def test_a_tournament_runs_on_the_toy_game(tmp_path, toy_registered):
    out = tmp_path / "t"
    assert main(["tournament", "toy", "--players", "3", "--bots",
                 "plain,strong,twin,p2=plain", "--games", "4000", "--out", str(out),
                 "--quiet"]) == 0
    ratings = pd.read_csv(out / "ratings.csv")
    assert ratings["bot"].iloc[0] == "strong"
    assert {"bot", "rating", "ci_low", "ci_high", "games"} <= set(ratings.columns)
    h2h = pd.read_csv(out / "head_to_head.csv")
    assert len(h2h) == 12 and {"bot", "opponent", "rate", "ci_low", "ci_high"} <= set(h2h)
    page = (out / "index.html").read_text()
    assert "Head to head" in page and "p2 (bot plain)" in page


def test_an_interrupted_tournament_resumes_to_the_same_ratings(tmp_path):
    out = tmp_path / "t"
    first = tournament("festival", 2, "greedy,hunter,random", games=1200, out=out)
    (out / "tables" / "0002" / "data" / "part-00000.parquet").unlink()
    again = tournament("festival", 2, "greedy,hunter,random", games=1200, out=out)
    assert again.ratings.equals(first.ratings)


@pytest.mark.parametrize("bots,players,expect", [
    ("greedy,greedy", "2", "'greedy' is entered twice"),
    ("greedy", "2", "at least two bots"),
    ("greedy,hunter", "3", "cannot fill 3-player tables"),
    ("greedy,nobody", "2", "unknown bot 'nobody'"),
    # an entrant of a later table only: refused before the first table is played
    ("greedy,hunter,random,nobody", "2", "unknown bot 'nobody'"),
    ("greedy,x=", "2", "is not BOT or NAME=BOT"),
])
def test_bad_tournament_input_is_one_line(tmp_path, capsys, bots, players, expect):
    out = tmp_path / "t"
    assert main(["tournament", "festival", "--bots", bots, "--players", players, "--out",
                 str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()


def test_entrants_read_aliases():
    assert entrants("greedy, g2=greedy") == [("greedy", "greedy"), ("g2", "greedy")]


@pytest.mark.parametrize("override,expect", [
    ("pile_sise=3", "unknown rule 'pile_sise'"),
    ("max_uncompleted=0", "max_uncompleted = 0 must be a whole number 1..8"),
])
def test_a_bad_override_of_a_tournament_is_one_line(tmp_path, capsys, override, expect):
    out = tmp_path / "t"
    assert main(["tournament", "festival", "--players", "2", "--bots", "greedy,hunter",
                 "--set", override, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1
    assert not out.exists()


def test_an_override_reaches_every_table(tmp_path):
    out = tmp_path / "t"
    tournament("festival", 2, "greedy,hunter,random", games=300, out=out,
               sets={"end_completed_objectives": 3})
    import json

    for table in sorted((out / "tables").iterdir()):
        info = json.loads((table / "run.json").read_text())
        assert info["request"]["sets"] == {"end_completed_objectives": 3}


def test_the_tournament_page_says_what_was_run_and_formats_every_number(tmp_path):
    import page_reader

    from reports.tournament_page import write_tournament_page

    out = tmp_path / "t"
    t = tournament("festival", 2, "greedy,g2=greedy,random", games=1200, seed=4, out=out,
                   sets={"end_completed_objectives": 3})
    page = write_tournament_page(t, out).read_text()
    head = page_reader.run_header(page)
    assert head["entrants"] == "greedy, g2 (bot greedy), random"
    assert head["rule overrides (--set)"] == "end_completed_objectives=3"
    assert head["data"] == "the shipped data" and head["seed"].startswith("4 ")
    assert head["games"] == "1,200" and head["playtest version"]
    bad = [b for table in page_reader.read(page).tables
           for b in page_reader.unformatted(table, decimals=3)]
    assert not bad, bad[:10]


def test_python_takes_the_name_bot_form_beside_a_python_bot():
    """As the README shows: a Python bot against one built-in bot entered three times; too
    few entrants are refused with the form named."""

    def first(game):
        return int(game.legal_moves()[0])

    t = tournament("festival", 4, [first, "greedy", "g2=greedy", "g3=greedy"], games=8)
    assert set(t.ratings["bot"]) == {"first", "greedy", "g2", "g3"}
    with pytest.raises(PlaytestError, match='as NAME=BOT \\("g2=greedy"'):
        tournament("festival", 4, [first, "greedy"], games=8)
