"""The Magnificent's engine as a whole: invariants over compiled games, determinism, replay,
hidden information, the bot ladder, and the runner and report on it."""

import json
import os
import subprocess
import sys
from io import StringIO

import numpy as np
import pandas as pd
import pytest
from conftest import bump, hide_magnificent_decks

import sim.magnificent as mag
from reports.cli import main
from sim import simulate
from sim.core.rng import game_stream
from sim.magnificent import moves as M
from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent.play import decide, new_buffers

LINEUP = ["greedy", "builder", "showman", "random"]


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_step_of_ten_thousand_random_games(players, side):
    """After every turn and round step (invariants.py): dice, gems (within the storage),
    camp tiles, tents, master cards, posters and trainer tiles conserved; coins never
    negative; the camp's squares those of its tiles (no overlap); the score the sum of its
    sources; one hat a seat; no more markers spent than owned. play_chunk raises on the
    first breach."""
    p, _ = mag.prepare(players, ["random"] * players, sets={"mode": side})
    df = mag.play_chunk(p, 11, 0, 10_000, check=True).to_pandas()
    assert len(df) == 10_000 * players and (df["side"] == side).all()
    parts = df[[f"score_{s}" for s in S.SOURCES]].sum(axis=1)
    assert (parts == df["score"]).all()
    assert np.allclose(df.groupby("game_index")["win"].sum(), 1)
    assert (df["score_penalties"] <= 0).all() and (df["coins"] >= 0).all()


def _breaches():
    """One corruption of a sound state per invariant: (what it does, the code it must give)."""
    b = S.seat(1)

    def more_gems_than_storage(st, tab):
        st[S.GEM_SUPPLY] -= tab[R.P_STORAGE] + 1 - st[b + S.GEMS]
        st[b + S.GEMS] = tab[R.P_STORAGE] + 1

    def tile_over_tile(st, tab):  # a second tile on the first one's squares
        st[S.TILE_SUPPLY] -= 1
        st[b + S.PLACED] += 1

    def gem_on_a_tile(st, tab):  # a gap filled where a tile lies
        st[b + S.FILLED] = st[b + S.CAMP] & -st[b + S.CAMP]

    return [
        pytest.param(bump(S.POOL + 2 * S.PIPS + 4), 1, id="a-die-more"),
        pytest.param(bump(S.GEM_SUPPLY + S.CLEAR), 2, id="a-gem-more"),
        pytest.param(more_gems_than_storage, 2, id="gems-over-storage"),
        pytest.param(bump(S.TILE_SUPPLY + 2), 3, id="a-tile-more"),
        pytest.param(tile_over_tile, 4, id="a-tile-over-a-tile"),
        pytest.param(gem_on_a_tile, 4, id="a-gem-on-a-tile"),
        pytest.param(bump(S.BOXED + S.B_TENTS), 5, id="a-tent-more"),
        pytest.param(bump(S.DISCARDED + S.D_MASTERS), 6, id="a-master-card-more"),
        pytest.param(bump(S.BOXED + S.B_POSTERS), 7, id="a-poster-more"),
        pytest.param(bump(S.DISCARDED + S.D_TRAINERS), 8, id="a-trainer-tile-more"),
        pytest.param(bump(b + S.COINS, -100), 9, id="negative-coins"),
        pytest.param(bump(b + S.SCORE), 10, id="a-point-from-nowhere"),
        pytest.param(bump(b + S.HAT), 11, id="a-hat-moved-alone"),
        pytest.param(bump(b + S.MARKERS_USED, 5), 12, id="markers-overspent"),
        pytest.param(bump(b + S.POSTERS_DUE), 13, id="posters-still-due")]


@pytest.mark.parametrize("breach,code", _breaches())
def test_each_invariant_catches_its_breach(breach, code):
    """The checker behind the invariant tests is not blind: on a sound state (a 3-player
    side-B setup with one tile placed on seat 1's camp) it reports 0, and each corruption
    gives its invariant's code."""
    from sim.magnificent import tables as T
    from sim.magnificent.data import load
    from sim.magnificent.invariants import CODES, check_state

    tab = T.pack(load())
    st = np.zeros(S.SIZE, dtype=np.int64)
    R.setup(st, tab, 3, 1, game_stream(2, 0), np.zeros(R.TMP, dtype=np.int64))
    b = S.seat(1)
    st[S.TILE_SUPPLY] -= 1
    st[b + S.PLACED] += 1
    st[b + S.CAMP] = tab[T.PLACE_MASK]  # tile kind 0's first placement
    assert check_state(st, tab) == 0
    breach(st, tab)
    assert CODES[check_state(st, tab)] == CODES[code]


@pytest.mark.parametrize("bots", [LINEUP, ["showman", "builder", "greedy"],
                                  ["greedy", "builder"]])
def test_invariants_hold_with_every_bot(bots):
    p, _ = mag.prepare(len(bots), bots, sets={"mode": "B"})
    df = mag.play_chunk(p, 3, 0, 500, check=True).to_pandas()
    assert (df["shows"] > 0).any() and (df["sections"] > 0).any()


@pytest.mark.parametrize("side", ["A", "B"])
def test_rows_do_not_depend_on_chunks_or_threads(side):
    import numba

    p, _ = mag.prepare(3, ["greedy", "showman", "random"], sets={"mode": side})
    whole = mag.play_chunk(p, 5, 0, 120).to_pandas()
    parts = [mag.play_chunk(p, 5, s, 40).to_pandas() for s in (0, 40, 80)]
    assert whole.equals(pd.concat(parts, ignore_index=True))
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        assert whole.equals(mag.play_chunk(p, 5, 0, 120).to_pandas())
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize("side", ["A", "B"])
def test_replay_is_the_recorded_game(side):
    bots = ["greedy", "builder", "showman"]
    p, _ = mag.prepare(3, bots, sets={"mode": side})
    df = mag.play_chunk(p, 9, 0, 12).to_pandas()
    for g in (0, 7, 11):
        lines, scores = mag.replay(9, g, 3, bots, sets={"mode": side})
        assert f"(side {side})" in lines[0]
        assert scores == list(df[df["game_index"] == g]["score"])
        text = "\n".join(lines)
        assert "places" in text and "takes" in text and lines[-1].startswith("  seat 2")


def test_compiled_kernel_plays_the_interpreted_games():
    """The compiled kernel and the same code run by Python (NUMBA_DISABLE_JIT) agree."""
    bots = "['greedy', 'showman', 'random']"
    code = ("from sim import simulate; import sys; "
            f"simulate('magnificent', games=3, players=3, bots={bots}, seed=4)"
            ".to_csv(sys.stdout, index=False)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, check=True)
    slow = pd.read_csv(StringIO(res.stdout))
    fast = simulate("magnificent", games=3, players=3, bots=["greedy", "showman", "random"],
                    seed=4)
    for col in ("score", *(f"score_{s}" for s in S.SOURCES), "win", "coins", "squares",
                "shows", "tents", "masters_drafted"):
        assert (slow[col].to_numpy() == fast[col].to_numpy()).all(), col


def _same_choice(st, tab, p, kind, ctx, bots, bot, g, k):
    a = decide(st, tab, p, kind, ctx, bots, bot, game_stream(1, k), new_buffers()[2])
    b = decide(hide_magnificent_decks(st, np.random.default_rng(k)), tab, p, kind, ctx, bots, bot,
               game_stream(1, k), new_buffers()[2])
    assert a == b, (M.KINDS[kind], g, k)
    return a


def test_hidden_decks_change_no_decision():
    """Turn by turn, every decision of every greedy-like bot is the same when the decks'
    orders are redrawn (bots see the display, their own cards and the decks' make-up):
    the game is driven here from Python, step by step, as step.advance does."""
    p, _ = mag.prepare(4, LINEUP[:3] + ["greedy"])
    tab, bots = p.tab, p.bots
    st, rng, scratch, _ = new_buffers()
    ctx = np.zeros(4, dtype=np.int64)
    k = 0
    for g in range(3):
        R.setup(st, tab, 4, 0, game_stream(5, g), scratch[6])
        for seat in range(3, -1, -1):
            M.apply(st, tab, seat, M.K_TRAINER_SETUP,
                    _same_choice(st, tab, seat, M.K_TRAINER_SETUP, ctx, bots, seat, g, k), ctx)
        R.end_setup_offer(st, tab, game_stream(6, g))
        for _turn in range(8):
            for seat in range(4):
                k += 1

                def step(kind, seat=seat, g=g, k=k):
                    move = _same_choice(st, tab, seat, kind, ctx, bots, seat, g, k)
                    if move >= 0:
                        return move, M.apply(st, tab, seat, kind, move, ctx)
                    return move, 0

                def posters(seat=seat, step=step):
                    while st[S.seat(seat) + S.POSTERS_DUE] > 0 and R.posters_left(st):
                        step(M.K_POSTER)
                        if st[S.seat(seat) + S.NEW_POSTER] >= 0:
                            step(M.K_POSTER_SPACE)
                    st[S.seat(seat) + S.POSTERS_DUE] = 0

                step(M.K_DIE)
                step(M.K_CARD)
                if st[S.seat(seat) + S.TAKEN] // 8 == S.CLEAR:
                    step(M.K_COLOUR)
                while True:
                    move, _ = step(M.K_BOOST)
                    posters()
                    if move == M.STOP:
                        break
                _, action = step(M.K_ACTION)
                if action == 0:
                    while (t := R.pending_tile(st, tab, seat)) >= 0:
                        ctx[0] = t
                        step(M.K_PLACE)
                        posters()
                elif action == 1:
                    posters()
                    if st[S.seat(seat) + S.TENT_DUE] >= 0:
                        step(M.K_TENT_SPACE)
                else:
                    while st[S.seat(seat) + S.SHOWS_LEFT] > 0 and step(M.K_SHOW)[0] != M.STOP:
                        pass
                    while step(M.K_REARRANGE)[0] != M.STOP:
                        pass
                R.end_turn(st, seat)
            if _turn == 3:  # the round end: the draft and the scoring
                order = np.zeros(4, dtype=np.int64)
                R.draft_order(st, order)
                for seat in order:
                    M.apply(st, tab, seat, M.K_DRAFT, _same_choice(
                        st, tab, seat, M.K_DRAFT, ctx, bots, seat, g, k), ctx)
                for seat in range(4):
                    M.apply(st, tab, seat, M.K_SCORE, _same_choice(
                        st, tab, seat, M.K_SCORE, ctx, bots, seat, g, k), ctx)
                R.next_round(st, tab, 0, game_stream(7, g))
                st[S.ROUND] = 1


@pytest.mark.parametrize("bot", ["greedy", "builder", "showman"])
def test_every_bot_beats_random(bot):
    """The ladder's first rung, in 2-player games (seats rotate)."""
    p, _ = mag.prepare(2, [bot, "random"])
    df = mag.play_chunk(p, 1, 0, 400).to_pandas()
    assert df[df["bot"] == bot]["win"].mean() >= 0.95


def test_simulate_and_report_run_on_the_magnificent(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["simulate", "magnificent", "--side", "B", "--games", "600", "--players",
                 "3", "--out", str(out), "--quiet", "--report"]) == 0
    page = (out / "report" / "index.html").read_text()
    assert "The Magnificent" in page and "Starting trainer tile kept" in page
    info = json.loads((out / "run.json").read_text())
    assert info["request"]["sets"] == {"mode": "B"}
    assert main(["replay", "--run", str(out), "--game", "5"]) == 0
    assert "(side B)" in capsys.readouterr().out
    assert main(["simulate", "magnificent", "--players", "5", "--out",
                 str(tmp_path / "bad"), "--quiet"]) == 2
    assert "The Magnificent is for 2 to 4 players, not 5" in capsys.readouterr().err


@pytest.mark.parametrize("argv,expect", [
    (["simulate", "magnificent", "--side", "C"], "--side 'C' is not a mode of magnificent "
                                                 "(its modes: A, B)"),
    (["simulate", "magnificent", "--set", "trainer_draft_rounds=3"], "more trainer tiles"),
    (["simulate", "magnificent", "--players", "2", "--bots", "greedy,juggler"],
     "unknown bot 'juggler'"),
])
def test_bad_input_is_one_line(tmp_path, capsys, argv, expect):
    out = tmp_path / "run"
    assert main([*argv, "--games", "10", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1
    assert not out.exists()


def _hats_and_turns(log, nlog, players, hats_on_top=False):
    """From a game's log: the seat order of each round's first die-taking, each round's
    draft order, and the hats' spaces at each round end, replayed from the performances."""
    hats = list(range(players))  # seat p's hat on space p at setup (the variant: reversed)
    if hats_on_top:
        hats.reverse()
    firsts, drafts, expected_first, expected_draft = {}, {}, {0: 0}, {}
    for r, kind, p, move, *_ in log[:nlog].tolist():
        if kind == M.K_DIE and r not in firsts:
            firsts[r] = p
        elif kind == M.K_ACTION and move >= M.A_PERFORM:
            hats[p] = move - M.A_PERFORM
        elif kind == M.K_DRAFT:
            drafts.setdefault(r, []).append(p)
            if r not in expected_draft:
                expected_draft[r] = sorted(range(players), key=lambda q: -hats[q])
                order = sorted(range(players), key=lambda q: hats[q])  # the slide
                for space, q in enumerate(order):
                    hats[q] = space
                expected_first[r + 1] = order[0]
    return firsts, drafts, expected_first, expected_draft


VARIANT = {"starting_trainer_pick_reverse": 0, "start_player_hat_on_top": 1}


@pytest.mark.parametrize("players,sets", [(2, {}), (3, {}), (4, {}), (3, VARIANT),
                                          (4, VARIANT)])
def test_the_log_follows_the_turn_order_the_draft_and_the_steps(players, sets):
    """Setup picks in reverse turn order; each round starts with the seat lowest on the
    performance track after the slide and goes clockwise; the draft goes from the highest
    hat down; a clear die's colour follows its card; every seat fills with gems at the
    end when it can. The variant: picks in turn order, the start player's hat on top."""
    from sim.magnificent.play import play_game

    p, _ = mag.prepare(players, LINEUP[:players], sets=sets)
    st, rng, scratch, log = new_buffers(log_rows=5000)
    seen_fill = seen_rearrange = False
    for g in range(20):
        nlog, _ = play_game(p.tab, players, 0, 3, g, p.bots, True, st, rng, scratch, log,
                            False, None)
        rows = log[:nlog].tolist()
        setup = [row[2] for row in rows if row[1] == M.K_TRAINER_SETUP]
        forward = sets.get("starting_trainer_pick_reverse") == 0
        assert setup == (list(range(players)) if forward else list(range(players - 1, -1, -1)))
        firsts, drafts, expected_first, expected_draft = _hats_and_turns(
            log, nlog, players, sets.get("start_player_hat_on_top") == 1)
        assert firsts == {r: expected_first[r] for r in range(3)}
        assert drafts == expected_draft
        for r in range(3):  # clockwise from the start player
            seats = [row[2] for row in rows if row[0] == r and row[1] == M.K_DIE][:players]
            assert seats == [(firsts[r] + i) % players for i in range(players)]
        for i, row in enumerate(rows):
            if row[1] == M.K_CARD and row[5] // 8 == S.CLEAR:
                assert rows[i + 1][1] == M.K_COLOUR and rows[i + 1][2] == row[2]
        seen_fill |= any(row[1] == M.K_FILL and row[3] != M.STOP for row in rows)
        seen_rearrange |= any(row[1] == M.K_REARRANGE and row[3] != M.STOP for row in rows)
        assert st[S.OVER] == 1
    assert seen_fill and seen_rearrange


def test_side_a_against_side_b_is_a_comparison_on_the_same_deals(tmp_path, capsys):
    """A game of fixed length (no length column) compares as any other; both arms play
    the same seeds, so side is all that differs."""
    out = tmp_path / "ab"
    assert main(["compare", "magnificent", "--players", "2", "--a-side", "A", "--b-side", "B",
                 "--games", "400", "--batch", "200", "--out", str(out), "--quiet"]) == 0
    summary = json.loads((out / "compare.json").read_text())["result"]
    assert summary["games"] == 400 and "length" not in {a["value"] for a in summary["also"]}
    a = json.loads((out / "a" / "run.json").read_text())
    b = json.loads((out / "b" / "run.json").read_text())
    assert a["request"]["sets"] == {"mode": "A"} and b["request"]["sets"] == {"mode": "B"}


def test_a_rule_override_plays_other_games():
    """--set gems_per_gap_square=0 turns the gem fill off: on the same seeds, fewer camp
    sections are full at the end, and the run's data hash records the override."""
    bots = ["greedy", "builder"]
    on, meta_on = mag.prepare(2, bots)
    off, meta_off = mag.prepare(2, bots, sets={"gems_per_gap_square": 0})
    a = mag.play_chunk(on, 8, 0, 300).to_pandas()
    b = mag.play_chunk(off, 8, 0, 300).to_pandas()
    assert meta_on["data_hash"] != meta_off["data_hash"]
    assert b["sections"].mean() < a["sections"].mean() - 0.5


def test_a_tent_spaces_poster_bonus_is_taken_in_the_same_turn(tmp_path):
    """A tent space's own bonus (rules.md 28) may be a poster, which the loader accepts: the
    poster is taken in the travel's turn, as every other poster due is (a checked game fails
    on one still due at the end of a turn). Every tent space but the printed one pays one."""
    from tests.conftest import edited_copy

    folder = edited_copy(mag.data.load().folder, tmp_path / "magnificent", "tent_spaces.csv",
                         "2,0,coins,2,", "2,0,poster,1,")
    text = (folder / "tent_spaces.csv").read_text()
    for old in ("3,0,trainer,1,", "4,0,clear_gem,1,", "5,0,points,3,"):
        text = text.replace(old, old.split(",")[0] + ",0,poster,1,")
    (folder / "tent_spaces.csv").write_text(text)
    p, _ = mag.prepare(3, ["greedy", "builder", "random"], str(folder))
    df = mag.play_chunk(p, 4, 0, 200, check=True).to_pandas()
    assert df["tents"].sum() > 0  # tents were placed, and their posters taken
