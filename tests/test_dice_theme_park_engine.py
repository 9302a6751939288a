"""Dice Theme Park's engine as a whole: invariants over compiled games, determinism, replay,
hidden information, the bot ladder, and the runner and report on it."""

import numpy as np
import pytest
from conftest import bump

import sim.dice_theme_park as dtp
from reports.cli import main
from sim.core.rng import game_stream
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import state as S
from sim.dice_theme_park.play import decide, new_buffers, play_game

ENTRANCE = 9  # the entrance's hex


@pytest.mark.parametrize("mode", ["full", "short", "intro"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_step_of_ten_thousand_random_games(players, mode):
    """Dice conserved (bag + set aside + monorails + parks = 63 + substitutes), money never
    negative, at most 17 cubes, stars the sum of their sources, tiles conserved, turn order a
    permutation, pips 1..6, each die in its park's slots; and every operate pick of the
    random bot, counted, is the one taken from the whole list: play_chunk raises on the
    first breach. In the full and short games also: skill cards conserved, no more held
    than mascots."""
    p, _ = dtp.prepare(players, ["random"] * players, sets={"mode": mode})
    df = dtp.play_chunk(p, 11, 0, 10_000, check=True).to_pandas()
    assert len(df) == 10_000 * players
    parts = df[[c for c in df.columns if c.startswith("score_")]].sum(axis=1)
    assert (parts == df["score"]).all()
    assert np.allclose(df.groupby("game_index")["win"].sum(), 1)


def _breaches():
    """One corruption of a sound state per invariant on the state: (what it does, the code
    it must give). Code 8 compares two computations of a decision, not a state."""
    b = S.seat(1)

    def die(field, value):
        def change(st, die):
            st[field + die] = value(st)
        return change

    def bare_hex(st):  # a hex of seat 0's park without a tile
        return next(h for h in range(S.HEXES) if st[S.seat(0) + S.TILE + h] < 0)

    def too_many_dice(st, die):  # dice moved from the bag into seat 0's park, conserved
        from sim.dice_theme_park import rules as R

        for _ in range(S.MAX_PARK_DICE):
            st[S.BAG] -= 1
            R.add_die(st, 0, ENTRANCE, 0, 3)

    return [
        pytest.param(bump(S.BAG), 1, id="a-die-more"),
        pytest.param(bump(b + S.MONEY, -100), 2, id="negative-money"),
        pytest.param(bump(b + S.CUBES, 100), 3, id="cubes-beyond-the-supply"),
        pytest.param(bump(b + S.STARS), 4, id="a-star-from-nowhere"),
        pytest.param(bump(S.DISCARD_N), 5, id="a-tile-more"),
        pytest.param(lambda st, die: st.__setitem__(S.ORDER + 1, st[S.ORDER]), 6,
                     id="a-seat-twice-in-turn-order"),
        pytest.param(die(S.DIE_PIPS, lambda st: 7), 7, id="a-seven"),
        pytest.param(bump(b + S.HAND), 9, id="a-staff-card-more"),
        pytest.param(die(S.DIE_AT, bare_hex), 10, id="a-die-on-a-bare-hex"),
        pytest.param(die(S.DIE_AT, lambda st: S.HEXES + ENTRANCE), 11,
                     id="a-die-in-another-park"),
        pytest.param(bump(S.SKILL_DISCARD_N), 12, id="a-skill-card-more"),
        pytest.param(too_many_dice, 13, id="more-dice-than-a-park-can-get"),
        pytest.param(bump(b + S.MAPS_UP, 40), 14, id="maps-beyond-the-supply"),
        pytest.param(bump(b + S.MASCOTS, 6), 14, id="mascots-beyond-a-colour")]


@pytest.mark.parametrize("breach,code", _breaches())
def test_each_invariant_catches_its_breach(breach, code):
    """The checker behind the invariant tests is not blind: on a sound state (a 3-player full
    game's setup with a die drawn from the bag to seat 0's entrance) it reports 0, and each
    corruption gives its invariant's code."""
    from sim.dice_theme_park import data as D
    from sim.dice_theme_park import rules as R
    from sim.dice_theme_park import tables as TB
    from sim.dice_theme_park.invariants import CODES, check_state

    tab = TB.pack(D.load())
    st = np.zeros(S.SIZE, dtype=np.int64)
    R.setup(st, tab, 3, 1, game_stream(1, 0))
    rng = game_stream(2, 0)
    die = R.add_die(st, 0, ENTRANCE, R.draw_die(st, rng), 3)
    assert check_state(st, tab) == 0
    breach(st, die)
    assert CODES[check_state(st, tab)] == CODES[code]


@pytest.mark.parametrize("bots", [["greedy", "builder", "operator", "random"],
                                  ["operator", "builder", "greedy"], ["greedy", "operator"]])
def test_invariants_and_features_hold_with_every_bot(bots):
    """Checked games also compute every decision's features twice: from the footprint of
    each move (what the bots use) and from a whole copy and snapshot per move. They must be
    equal (play_chunk raises on the first difference)."""
    p, _ = dtp.prepare(len(bots), bots)
    dtp.play_chunk(p, 3, 0, 300, check=True)


@pytest.mark.parametrize("mode", ["full", "short", "intro"])
def test_rows_do_not_depend_on_chunks_or_threads(mode):
    import numba

    p, _ = dtp.prepare(3, ["greedy", "operator", "random"], sets={"mode": mode})
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


@pytest.mark.parametrize("mode", ["full", "short", "intro"])
def test_replay_is_the_recorded_game(mode):
    bots = ["greedy", "builder", "random"]
    p, _ = dtp.prepare(3, bots, sets={"mode": mode})
    df = dtp.play_chunk(p, 9, 0, 12).to_pandas()
    assert (df["mode"] == mode).all()
    for g in (0, 7, 11):
        lines, scores = dtp.replay(9, g, 3, bots, sets={"mode": mode})
        assert f"({mode} game)" in lines[0]
        assert scores == list(df[df["game_index"] == g]["score"])
        assert any("operates" in line for line in lines) and lines[-1].startswith("  seat 2")


def _hide(st, shuffle):
    """``st`` with what no player sees redrawn: the order of the face-down stacks and skill
    deck, the bag's make-up (its colours present stay present: the recolour skill may only
    take a colour the bag has), and each seat's unkept administrator and skill."""
    hidden = st.copy()
    for top, base in ((S.STACK_A_N, S.STACK_A), (S.STACK_B_N, S.STACK_B),
                      (S.SKILL_DECK_N, S.SKILL_DECK)):
        n = hidden[top]
        hidden[base : base + n] = shuffle.permutation(hidden[base : base + n])
    bag = hidden[S.BAG : S.BAG + 3]
    present = bag > 0
    bag[present] = 1 + shuffle.multinomial(bag.sum() - present.sum(),
                                           present / present.sum())
    for p in range(hidden[S.N_PLAYERS]):
        b = S.seat(p)
        for dealt, kept in ((S.ADMIN_DEALT, S.ADMIN), (S.SKILL_DEALT, S.SKILL_KEPT)):
            for k in range(2):
                if hidden[b + kept] >= 0 and hidden[b + dealt + k] != hidden[b + kept]:
                    hidden[b + dealt + k] = 99  # a card nobody else saw
    return hidden


@pytest.mark.parametrize("mode", ["intro", "short", "full"])
def test_hidden_cards_stacks_and_bag_order_change_no_decision(mode):
    """Mid-game, every seat's decision at every kind is the same when what is face down is
    redrawn (bots see public information and their own hand); at setup, a seat's keeps are
    the same whatever the other seats were dealt."""
    p, _ = dtp.prepare(4, ["greedy", "builder", "operator", "greedy"], sets={"mode": mode})
    st, rng, scratch, log = new_buffers()
    kinds = [M.K_BUILD, M.K_OPERATE, M.K_UPGRADE, M.K_MASCOT]
    if mode == "full":
        kinds += [M.K_TAKE_SKILL, M.K_SWAP, M.K_LOWER]
    for g in range(6):
        play_game(p.tab, 4, p.mode, 2, g, p.bots, True, st, rng, scratch, log, False, None)
        st_end = st.copy()
        st_end[S.OVER] = 0
        for seat in range(4):
            for kind in kinds:
                ctx = np.zeros(1 + S.DICE, dtype=np.int64)
                hidden = _hide(st_end, np.random.default_rng(g))
                a = decide(st_end, p.tab, seat, kind, ctx, p.bots, seat, game_stream(1, g),
                           scratch)
                b = decide(hidden, p.tab, seat, kind, ctx, p.bots, seat, game_stream(1, g),
                           scratch)
                assert a == b
    if mode == "full":  # the keeps at setup
        from sim.dice_theme_park import rules as R

        for g in range(20):
            R.setup(st, p.tab, 4, p.mode, game_stream(3, g))
            for seat in range(4):
                for kind in (M.K_ADMIN, M.K_SKILL):
                    other = st.copy()
                    for q in range(4):
                        if q != seat:
                            b = S.seat(q)
                            other[b + S.ADMIN_DEALT : b + S.ADMIN_DEALT + 2] = [12, 11]
                            other[b + S.SKILL_DEALT : b + S.SKILL_DEALT + 2] = [29, 28]
                    ctx = np.zeros(1 + S.DICE, dtype=np.int64)
                    assert decide(st, p.tab, seat, kind, ctx, p.bots, seat, game_stream(1, g),
                                  scratch) == decide(other, p.tab, seat, kind, ctx, p.bots,
                                                     seat, game_stream(1, g), scratch)


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
    (["simulate", "dice_theme_park", "--mode", "long"],
     "--mode 'long' is not a mode of dice_theme_park"),
    (["simulate", "festival", "--mode", "intro"],
     "--mode is for a game with modes; festival has none"),
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
    p, _ = dtp.prepare(4, bots, sets={"mode": "intro"})
    st, rng, scratch, log = new_buffers(log_rows=20_000)
    concierges = 0
    for g in range(30):
        nlog, _ = play_game(p.tab, 4, 0, 4, g, p.bots, True, st, rng, scratch, log, False,
                            None)
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


def test_the_full_games_log_follows_the_administrators_and_skills():
    """From the action logs of compiled full games: every seat keeps an administrator and a
    skill at setup; each administrator's decision comes only to its holder, at its moment
    (the staff swap at most once a game and never after the last round); a hire with cards
    on display takes one, and the display refills each round (a game takes more cards than
    the first display holds); a push or pull is followed by at most one more move."""
    from sim.dice_theme_park import rules as R

    bots = ["greedy", "random", "operator", "builder"]
    p, _ = dtp.prepare(4, bots)
    st, rng, scratch, log = new_buffers(log_rows=20_000)
    powers = p.tab[R.TB.ADM_POWER : R.TB.ADM_POWER + 13]
    seen = set()
    most_taken = 0
    for g in range(40):
        nlog, _ = play_game(p.tab, 4, p.mode, 6, g, p.bots, True, st, rng, scratch, log, False,
                            None)
        rows = log[:nlog]
        setup = rows[rows[:, 0] == -1]
        for kind in (M.K_ADMIN, M.K_SKILL):
            assert sorted(setup[setup[:, 1] == kind][:, 2]) == [0, 1, 2, 3]
        held = {seat: powers[st[S.seat(seat) + S.ADMIN]] for seat in range(4)}
        for kind, power in ((M.K_LOWER, R.A_LOWER_SUM), (M.K_REARRANGE, R.A_REARRANGE),
                            (M.K_LEFTOVER, R.A_LEFTOVER), (M.K_SWAP, R.A_SWAP),
                            (M.K_ADMIN_SAVE, R.A_SAVE)):
            mine = rows[rows[:, 1] == kind]
            assert all(held[seat] == power for seat in mine[:, 2])
            seen |= {kind} if len(mine) else set()
            if kind in (M.K_LOWER, M.K_REARRANGE) and len(mine):
                assert len(mine) == 5  # once a round
        swaps = rows[(rows[:, 1] == M.K_SWAP) & (rows[:, 3] > 0)]
        assert len(swaps) <= 1 and not (rows[rows[:, 1] == M.K_SWAP][:, 0] == 4).any()
        for k in np.flatnonzero(rows[:, 1] == M.K_MASCOT):
            if rows[k, 3] > 0 and k + 1 < nlog and rows[k + 1, 1] == M.K_TAKE_SKILL:
                seen.add(M.K_TAKE_SKILL)
        taken = (rows[:, 1] == M.K_TAKE_SKILL) & (rows[:, 3] != M.encode(M.PASS, 0, 0, 0))
        most_taken = max(most_taken, int(taken.sum()))
        for k in np.flatnonzero((rows[:, 1] == M.K_OPERATE) & (rows[:, 4] > 0)):
            if M.decode(int(rows[k, 3]))[0] == M.T_SKILL:
                assert rows[k + 1, 1] == M.K_AGAIN
                assert rows[k + 2, 1] != M.K_AGAIN
                seen.add(M.K_AGAIN)
    assert seen >= {M.K_LOWER, M.K_REARRANGE, M.K_LEFTOVER, M.K_TAKE_SKILL, M.K_AGAIN}
    assert most_taken > 4 + 1  # more than the first display's players + 1 cards


def test_upkeeps_ones_leave_the_park_but_one_the_ticket_agent_saves():
    """The game loop's upkeep step on a hand-built park: both 1s leave without a ticket
    agent; with one played, one of them stays (on the entrance)."""
    from conftest import dtp_ones_leave

    from sim.core.rng import game_stream
    from sim.dice_theme_park import rules as R

    p, _ = dtp.prepare(2, ["random", "random"])
    for agents, left in ((0, 0), (1, 1)):
        st, _, scratch, log = new_buffers()
        R.setup(st, p.tab, 2, 0, game_stream(0, 0))
        for pips in (1, 1, 3):
            R.add_die(st, 0, 9, 0, pips)
        R.play_staff(st, p.tab, 0, R.TICKET_AGENT if agents else R.GUIDE, R.MASCOT)
        dtp_ones_leave(st, p.tab, 0, p.bots, game_stream(0, 1), scratch)
        ones = np.empty(S.DICE, dtype=np.int64)
        assert R.objective_measure(st, p.tab, 0, 1) == 1 + left
        assert R.ones(st, 0, ones) <= left
