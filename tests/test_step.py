"""The step interface: a game driven one decision at a time (sim.core.game) follows the rules
the batch kernel runs, decision for decision."""

import copy
import importlib

import numpy as np
import pandas as pd
import pytest

from analysis.tournaments import tournament
from sim import simulate
from sim.core.errors import PlaytestError
from sim.core.game import new_game, play, steps_of
from sim.core.registry import game_module

# (game, mode or side, line-up): every engine that can be driven, every mode
CASES = [("festival", None, ["greedy", "hunter", "builder", "random"]),
         *[("magnificent", side, ["greedy", "builder", "showman", "random"]) for side in "AB"],
         *[("dice_theme_park", mode, ["greedy", "builder", "operator", "random"])
           for mode in ("full", "short", "intro")]]


def ids(case):
    return f"{case[0]}-{case[1] or 'base'}"


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_built_in_bots_driven_from_python_play_the_simulated_games(case):
    game, mode, bots = case
    driven = play(game, bots, games=40, seed=3, mode=mode)
    simulated = simulate(game, 40, len(bots), bots=bots, seed=3, mode=mode)
    pd.testing.assert_frame_equal(driven, simulated)


def _random_moves(g, rng, count):
    for _ in range(count):
        if g.is_over():
            return
        moves = g.legal_moves()
        g.apply(int(moves[rng.integers(len(moves))]))


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_a_clone_played_on_with_the_same_moves_ends_as_the_original(case):
    game, mode, _ = case
    rng = np.random.default_rng(5)
    for k in range(12):
        g = new_game(game, seed=11, players=int(rng.integers(2, 5)), game_index=k, mode=mode)
        _random_moves(g, rng, int(rng.integers(0, 60)))
        c = g.clone()
        other = g.clone()
        _random_moves(other, np.random.default_rng(k), 30)  # a clone's moves touch no other
        turns = 0
        while not g.is_over():
            assert (c.decision, c.seat) == (g.decision, g.seat)
            assert np.array_equal(c.legal_moves(), g.legal_moves())
            if turns % 2:  # a bot draws from the game's stream: the clone has its own copy
                move = g.bot_move("greedy")
                assert c.bot_move("greedy") == move
            else:
                moves = g.legal_moves()
                move = int(moves[rng.integers(len(moves))])
            g.apply(move)
            c.apply(move)
            turns += 1
        assert c.is_over() and c.scores() == g.scores() and c.log() == g.log()


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_the_features_are_what_the_bots_weigh(case):
    """At every decision of a few games, the greedy bot's move is a best one by its weights
    over ``features()``, and ``legal_moves()`` holds it."""
    game, mode, _ = case
    _, _, weights = game_module(game).bots.bot_arrays(["greedy"])
    kinds = steps_of(game).DECISIONS
    checked = 0
    for k in range(4):
        g = new_game(game, seed=2, players=3, game_index=k, mode=mode)
        while not g.is_over():
            f = g.features()
            kind = next(code for code, name in kinds.items() if name == g.decision)
            score = f.to_numpy() @ weights[0, kind, : f.shape[1]]
            move = g.clone().bot_move("greedy")
            assert move in g.legal_moves() and list(f.index) == list(g.legal_moves())
            if len(f) > 1:
                assert score[list(f.index).index(move)] >= score.max() - 1e-9
                checked += 1
            g.apply(move)
    assert checked > 50


def _fills(game):
    """The engine's table of the columns each decision kind fills (features.FILLS), if any."""
    return getattr(importlib.import_module(f"sim.{game}.features"), "FILLS", None)


@pytest.mark.parametrize("case", [c for c in CASES if _fills(c[0])], ids=ids)
def test_a_kinds_rows_are_zero_outside_the_columns_it_fills(case):
    """The kernel's weights leave out what a kind never fills (the engine's FILLS): over
    games of random and greedy moves, every row of every decision holds to the table."""
    game, mode, _ = case
    fills = _fills(game)
    rng = np.random.default_rng(7)
    seen = set()
    for k in range(12):
        g = new_game(game, seed=5, players=2 + k % 3, game_index=k, mode=mode)
        while not g.is_over():
            f = g.features()
            outside = [c for c in f.columns if c not in fills[g.decision]]
            assert not f[outside].to_numpy().any(), (g.decision, f[outside].any())
            seen.add(g.decision)
            moves = g.legal_moves()
            g.apply(int(moves[rng.integers(len(moves))]) if k % 2 else g.bot_move("greedy"))
    assert len(seen) >= 10  # most kinds met


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_a_python_bot_plays_a_built_in_one(case):
    game, mode, _ = case
    calls = []

    def most_points(g):
        """The move with the most of the first feature (a plain Python bot)."""
        calls.append(g.seat)
        f = g.features()
        return int(f[f.columns[0]].idxmax())

    df = play(game, [most_points, "greedy"], games=30, seed=1, mode=mode)
    assert calls and len(df) == 60 and set(df["bot"]) == {"most_points", "greedy"}
    assert np.allclose(df.groupby("game_index")["win"].sum(), 1.0)
    parts = [c for c in df.columns if c.startswith("score_")]
    assert (df[parts].sum(axis=1) == df["score"]).all()
    # the seats rotate: each bot plays each seat in half the games
    assert (df.groupby(["bot", "seat"], observed=True).size() == 15).all()


def test_a_tournament_takes_python_bots():
    def first_legal(g):
        return int(g.legal_moves()[0])

    t = tournament("festival", 2, [first_legal, "greedy", "random"], games=60, seed=0)
    assert sorted(t.ratings["bot"]) == ["first_legal", "greedy", "random"]
    assert t.ratings["games"].sum() == 2 * t.summary["games"]
    with pytest.raises(PlaytestError, match="played in memory"):
        tournament("festival", 2, [first_legal, "greedy"], games=10, out="/nonexistent")


def test_a_wrong_move_or_call_is_one_clear_error():
    g = new_game("festival", seed=1, players=2)
    with pytest.raises(PlaytestError, match="is not a legal move here"):
        g.apply(999)
    with pytest.raises(PlaytestError, match="is not a legal move here"):
        g.apply(True)
    with pytest.raises(PlaytestError, match="not over"):
        g.scores()
    while not g.is_over():
        g.apply(int(g.legal_moves()[-1]))
    assert g.decision == "over" and g.seat == -1 and len(g.scores()) == 2
    with pytest.raises(PlaytestError, match="the game is over"):
        g.apply(0)
    with pytest.raises(PlaytestError, match="unknown game"):
        new_game("chess")
    with pytest.raises(PlaytestError, match="bots"):
        play("festival", ["greedy", 3])
    def off_board(g):
        return -1

    with pytest.raises(PlaytestError, match="the Python bot off_board played -1, which is not"):
        play("festival", [off_board, "greedy"], games=1)


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_a_copy_of_a_game_is_a_clone_not_a_second_view_of_it(copier):
    """copy.copy shared the engine's buffers: the original then played on the copy's
    position. Each now plays on alone and ends as a clone would."""
    g = new_game("festival", seed=3, players=3)
    c = copier(g)
    twin = g.clone()
    while not c.is_over():
        c.apply(int(c.legal_moves()[-1]))
    assert (g.decision, g.seat) == (twin.decision, twin.seat)
    assert np.array_equal(g.legal_moves(), twin.legal_moves())
    while not g.is_over():
        move = int(g.legal_moves()[0])
        g.apply(move)
        twin.apply(move)
    assert g.scores() == twin.scores() and g.log() == twin.log()


@pytest.mark.parametrize("bot", [lambda g: 1, 3, None])
def test_bot_move_names_what_it_takes(bot):
    g = new_game("festival", seed=1, players=2)
    with pytest.raises(PlaytestError, match="bot names a built-in bot of festival, got"):
        g.bot_move(bot)


def test_the_contract_is_the_engines_own_steps(toy_registered):
    """The toy game's Steps (tests/toy_game.py): the generic Game drives any engine that
    provides the contract."""
    g = new_game("toy", seed=1, players=3)
    assert g.decision == "roll" and list(g.legal_moves()) == [1, 2, 3]
    assert list(g.features()["value"]) == [1.0, 2.0, 3.0]
    c = g.clone()
    while not g.is_over():
        g.apply(g.bot_move("strong"))
    assert g.scores() == [9, 9, 9] and not c.is_over() and len(g.log()) == 9
    def plain(game):  # a Python bot under a name the toy's results know
        return 1

    df = play("toy", ["strong", plain], games=4, seed=0)
    assert (df.loc[df["bot"] == "strong", "win"] == 1).all()


def test_a_game_that_outgrows_its_log_is_refused_not_cut_short():
    g = new_game("festival", seed=2, players=4)
    g._s.log = g._s.log[:20]  # room for the setup and a few turns
    while not g.is_over():
        g.apply(g.bot_move("greedy"))
    with pytest.raises(PlaytestError, match="more than the 20 its log holds"):
        g.log()
