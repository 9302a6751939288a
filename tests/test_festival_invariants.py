"""Invariants over thousands of compiled games, checked after every turn, and the checker
itself on broken states."""

import numpy as np
import pytest
from conftest import bump, played_positions

from sim.festival import play_chunk, prepare
from sim.festival import state as S
from sim.festival.invariants import CODES, check_state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ten_thousand_random_games_conserve_everything(players):
    p, _ = prepare(players, ["random"] * players)
    # check=True runs sim/festival/invariants.py after every turn and raises on a breach.
    df = play_chunk(p, seed=11, start=0, n=10_000, check=True).to_pandas()
    assert df["game_index"].nunique() == 10_000
    sources = df[["score_objectives", "score_crowd", "score_colour", "score_design"]].sum(axis=1)
    assert (sources == df["score"]).all()
    assert np.allclose(df.groupby("game_index")["win"].sum(), 1.0)
    games = df.groupby("game_index")
    # 16 tiles per stack: what is left plus what was taken is every stack's 16.
    assert (games["tiles_taken"].sum() + games["tiles_left"].first() == 16 * players).all()
    assert (df["objectives_open"] <= 6).all()
    assert (df[["score", "score_colour", "score_design"]] >= 0).all().all()
    # Equal turns: the last seat plays the final turn, so turns is a multiple of players.
    assert (df["turns"] % players == 0).all()
    # Ranks agree with scores; the best-ranked share the win.
    winners = df[df["win"] > 0]
    assert (winners["rank"] == 1).all()


def test_greedy_games_conserve_everything():
    p, _ = prepare(4, ["greedy", "hunter", "builder", "explorer"])
    df = play_chunk(p, seed=3, start=0, n=2000, check=True).to_pandas()
    assert np.allclose(df.groupby("game_index")["win"].sum(), 1.0)


B = S.SEAT + 1 * S.SEAT_SIZE  # seat 1


@pytest.mark.parametrize("breach,code", [
    pytest.param(lambda st: st.__setitem__(S.STACK, st[S.STACK + 1]), 1,
                 id="a-tile-twice-in-a-stack"),
    pytest.param(bump(S.STACK_N, -1), 2, id="a-tile-drawn-to-nowhere"),
    pytest.param(bump(B + S.TILES_TAKEN), 3, id="a-tile-more-taken"),
    pytest.param(bump(B + S.V_COL, 1 << 20), 4, id="a-view-out-of-date"),
    pytest.param(bump(S.PILE_N, -1), 5, id="an-objective-lost"),
    pytest.param(bump(B + S.HELD_N, 10), 6, id="too-many-objectives"),
    pytest.param(bump(B + S.CROWD_N), 7, id="a-crowd-pleaser-more"),
    pytest.param(bump(B + S.DONE_POINTS), 8, id="objective-points-from-nowhere")])
def test_each_invariant_catches_its_breach(position, breach, code):
    """The checker behind the invariant tests is not blind: on sound states reached by
    random play it reports 0, and each corruption gives its invariant's code."""
    for pos in list(played_positions(position, 4, seed=7, max_turns=12, n_players=3))[:2]:
        assert check_state(pos.st, pos.tab) == 0
        breach(pos.st)
        assert CODES[check_state(pos.st, pos.tab)] == CODES[code]
