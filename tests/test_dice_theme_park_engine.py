"""Dice Theme Park's engine as a whole: invariants over compiled games, determinism, replay,
hidden information, the bot ladder, and the runner and report on it."""

import numpy as np
import pytest

import sim.dice_theme_park as dtp
from reports.cli import main
from sim.core.rng import game_stream
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import state as S
from sim.dice_theme_park.play import decide, new_buffers, play_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_step_of_ten_thousand_random_games(players):
    """Dice conserved (bag + set aside + monorails + parks = 63 + substitutes), money never
    negative, at most 17 cubes, stars the sum of their sources, tiles conserved, turn order a
    permutation, pips 1..6, each die in its park's slots; and every operate pick of the
    random bot, counted, is the one taken from the whole list: play_chunk raises on the
    first breach."""
    p, _ = dtp.prepare(players, ["random"] * players)
    df = dtp.play_chunk(p, 11, 0, 10_000, check=True).to_pandas()
    assert len(df) == 10_000 * players
    parts = df[[c for c in df.columns if c.startswith("score_")]].sum(axis=1)
    assert (parts == df["score"]).all()
    assert np.allclose(df.groupby("game_index")["win"].sum(), 1)


@pytest.mark.parametrize("bots", [["greedy", "builder", "operator", "random"],
                                  ["operator", "builder", "greedy"], ["greedy", "operator"]])
def test_invariants_and_features_hold_with_every_bot(bots):
    """Checked games also compute every decision's features twice: from the footprint of
    each move (what the bots use) and from a whole copy and snapshot per move. They must be
    equal (play_chunk raises on the first difference)."""
    p, _ = dtp.prepare(len(bots), bots)
    dtp.play_chunk(p, 3, 0, 300, check=True)


def test_rows_do_not_depend_on_chunks_or_threads():
    import numba

    p, _ = dtp.prepare(3, ["greedy", "operator", "random"])
    whole = dtp.play_chunk(p, 5, 0, 120).to_pandas()
    parts = [dtp.play_chunk(p, 5, s, 40).to_pandas() for s in (0, 40, 80)]
    import pandas as pd

    assert whole.equals(pd.concat(parts, ignore_index=True))
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        assert whole.equals(dtp.play_chunk(p, 5, 0, 120).to_pandas())
    finally:
        numba.set_num_threads(before)


def test_replay_is_the_recorded_game():
    bots = ["greedy", "builder", "random"]
    p, _ = dtp.prepare(3, bots)
    df = dtp.play_chunk(p, 9, 0, 12).to_pandas()
    for g in (0, 7, 11):
        lines, scores = dtp.replay(9, g, 3, bots)
        assert scores == list(df[df["game_index"] == g]["score"])
        assert any("operates" in line for line in lines) and lines[-1].startswith("  seat 2")


def test_hidden_stacks_and_bag_order_change_no_decision():
    """Mid-game, every seat's decision at every kind is the same when the face-down stacks
    and the bag's make-up are shuffled (bots see public information and their own hand)."""
    p, _ = dtp.prepare(4, ["greedy", "builder", "operator", "greedy"])
    st, rng, scratch, log = new_buffers()
    st_end = st.copy()
    for g in range(6):
        play_game(p.tab, 4, 0, 2, g, p.bots, True, st, rng, scratch, log, False)
        st_end[:] = st
        st_end[S.OVER] = 0
        for seat in range(4):
            for kind in (M.K_BUILD, M.K_OPERATE, M.K_UPGRADE, M.K_MASCOT):
                ctx = np.zeros(1 + S.DICE, dtype=np.int64)
                hidden = st_end.copy()
                shuffle = np.random.default_rng(g)
                n_a = hidden[S.STACK_A_N]
                hidden[S.STACK_A : S.STACK_A + n_a] = shuffle.permutation(
                    hidden[S.STACK_A : S.STACK_A + n_a])
                bag = hidden[S.BAG : S.BAG + 3].sum()
                hidden[S.BAG : S.BAG + 3] = shuffle.multinomial(bag, [1 / 3] * 3)
                a = decide(st_end, p.tab, seat, kind, ctx, p.bots, seat, game_stream(1, g),
                           scratch)
                b = decide(hidden, p.tab, seat, kind, ctx, p.bots, seat, game_stream(1, g),
                           scratch)
                assert a == b


def test_greedy_beats_random_in_two_player_games():
    p, _ = dtp.prepare(2, ["greedy", "random"])
    df = dtp.play_chunk(p, 1, 0, 400).to_pandas()
    assert df[df["bot"] == "greedy"]["win"].mean() >= 0.95


def test_simulate_and_report_run_on_dice_theme_park(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["simulate", "dice_theme_park", "--games", "600", "--players", "3", "--out",
                 str(out), "--quiet", "--report"]) == 0
    page = (out / "report" / "index.html").read_text()
    assert "Dice Theme Park" in page and "Starting tile kept" in page
    assert main(["simulate", "dice_theme_park", "--players", "5", "--out",
                 str(tmp_path / "bad"), "--quiet"]) == 2
    assert "Dice Theme Park is for 2 to 4 players, not 5" in capsys.readouterr().err


@pytest.mark.parametrize("argv,expect", [
    (["simulate", "dice_theme_park", "--mode", "full"], "full game is not playable yet"),
    (["simulate", "dice_theme_park", "--mode", "long"], "--mode 'long' is unknown"),
    (["simulate", "festival", "--mode", "intro"], "--mode festival has no modes"),
])
def test_a_mode_that_cannot_play_is_one_line(tmp_path, capsys, argv, expect):
    out = tmp_path / "run"
    assert main([*argv, "--games", "10", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1
    assert not out.exists()


def test_the_mode_is_recorded_and_replayed(tmp_path, capsys):
    import json

    out = tmp_path / "run"
    assert main(["simulate", "dice_theme_park", "--mode", "intro", "--games", "8",
                 "--players", "2", "--out", str(out), "--quiet"]) == 0
    info = json.loads((out / "run.json").read_text())
    assert info["request"]["sets"] == {"mode": "intro"} and info["mode"] == "intro"
    assert main(["replay", "--run", str(out), "--game", "5"]) == 0
    assert "(intro game)" in capsys.readouterr().out
    assert main(["replay", "--run", str(out), "--game", "5", "--mode", "short"]) == 2


def test_the_log_follows_the_rounds_steps():
    """From the action logs of compiled games: each concierge played gives one concierge
    step, an operation that leaves a lowered die in the park is followed by that die's move,
    and the seats' bots rotate one seat a game."""
    from sim.dice_theme_park import batch

    bots = ["greedy", "random", "operator", "random"]
    p, _ = dtp.prepare(4, bots)
    st, rng, scratch, log = new_buffers(log_rows=20_000)
    concierges = 0
    for g in range(30):
        nlog, _ = play_game(p.tab, 4, 0, 4, g, p.bots, True, st, rng, scratch, log, False)
        rows = log[:nlog]
        for r in range(4):
            for seat in range(4):
                mine = rows[(rows[:, 0] == r) & (rows[:, 2] == seat)]
                staff = mine[mine[:, 1] == M.K_STAFF][0, 3]
                played = [(staff >> 16) & 255, (staff >> 8) & 255].count(0)  # concierge: 0
                assert (mine[:, 1] == M.K_CONCIERGE).sum() == played
                concierges += played
        for k in np.flatnonzero((rows[:, 1] == M.K_OPERATE) & (rows[:, 4] > 0)):
            if M.decode(int(rows[k, 3]))[0] == M.T_ACT:
                assert rows[k + 1, 1] == M.K_MOVE and rows[k + 1, 2] == rows[k, 2]
    assert concierges > 0
    df = dtp.play_chunk(p, 4, 0, 30).to_pandas()
    assert (df["bot_slot"] == (df["seat"] + df["game_index"]) % 4).all()
    assert list(df["bot"].iloc[:4]) == bots
    assert (df.groupby("game_index")["start_position"].nunique() == 4).all()
    assert (df["start_position"].cat.codes != df["seat"]).any()
    assert df["dice_in_park"].between(0, 63).all() and df["dice_in_park"].mean() > 3
    assert batch.OBJECTIVES == 3 and (df["objective_3"] == "none").all()


def test_upkeeps_ones_leave_the_park_but_one_the_ticket_agent_saves():
    """The game loop's upkeep step on a hand-built park: both 1s leave without a ticket
    agent; with one played, one of them stays (on the entrance)."""
    from sim.core.rng import game_stream
    from sim.dice_theme_park import rules as R
    from sim.dice_theme_park.play import _ones_leave

    p, _ = dtp.prepare(2, ["random", "random"])
    for agents, left in ((0, 0), (1, 1)):
        st, _, scratch, log = new_buffers()
        R.setup(st, p.tab, 2, 0, game_stream(0, 0))
        for pips in (1, 1, 3):
            R.add_die(st, 0, 9, 0, pips)
        R.play_staff(st, p.tab, 0, R.TICKET_AGENT if agents else R.GUIDE, R.MASCOT)
        _ones_leave(st, p.tab, 0, scratch[5], p.bots, 0, game_stream(0, 1), scratch, log, 0, 0)
        ones = np.empty(S.DICE, dtype=np.int64)
        assert R.objective_measure(st, p.tab, 0, 1) == 1 + left
        assert R.ones(st, 0, ones) <= left
