"""Invariants over thousands of compiled games, checked after every turn."""

import numpy as np
import pytest

from sim.festival import play_chunk, prepare


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
