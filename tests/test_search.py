"""Search bots: the budget's spread and the move chosen (strategies/search.py), and for every
engine the search reads no hidden information, keeps the game's stream aligned, replays
exactly and shows in replay what it weighed."""

import importlib
import re

import numpy as np
import pandas as pd
import pytest
from conftest import hide_magnificent_decks

from reports.cli import main
from sim import simulate
from sim.core.game import Game, play
from sim.core.registry import game_module
from sim.core.rng import game_stream, redraw
from strategies import presets as PR
from strategies import search as SR

GAMES = ("festival", "magnificent", "dice_theme_park")
SMALL = "search:8"  # a budget that keeps the engine tests quick


# -- the game-agnostic part -------------------------------------------------------------

def _stats(means, counts):
    stats = SR.new_stats(8)
    table, order = stats[0], stats[1]
    for i, (m, c) in enumerate(zip(means, counts, strict=True)):
        table[SR.MOVE, i] = 100 + i
        table[SR.SUM, i] = m * c
        table[SR.COUNT, i] = c
        order[i] = i
    return stats


def test_successive_halving_rounds_and_shares():
    assert [SR.rounds(k) for k in (1, 2, 3, 4, 5, 8, 9, 23)] == [1, 1, 2, 2, 3, 3, 4, 5]
    assert SR.per_move(64, 3, 8) == 2  # 21 rollouts this round over 8 moves
    assert SR.per_move(64, 5, 23) == 1  # at least one each
    assert SR.per_move(256, 2, 2) == 64


def test_halving_keeps_the_better_half_and_the_last_rounds_best_is_played():
    stats = _stats([0.2, 0.9, 0.5, 0.7, 0.1], [4, 4, 4, 4, 4])
    assert SR.halve(stats, 5) == 3
    assert list(stats[1][:3]) == [1, 3, 2]
    # a move that fell in an earlier round keeps its lucky mean: it is still never played
    stats[0][SR.SUM, 4], stats[0][SR.COUNT, 4] = 5.0, 1.0
    for _ in range(9):  # the second round: move 3 wins all nine, its mean 0.908 > 0.9
        SR.backup(stats, 3, 1.0)
    assert stats[0][SR.SUM, 3] == pytest.approx(2.8 + 9) and stats[0][SR.COUNT, 3] == 13
    assert SR.halve(stats, 3) == 2 and list(stats[1][:2]) == [3, 1]
    assert SR.halve(stats, 2) == 1
    assert SR.best(stats, 5) == 103
    top = stats[2]
    assert list(top[:, 0]) == [103, 101, 102]  # by the round it fell in, then by mean
    assert top[0, 2] == 13 and top[1, 1] == pytest.approx(0.9)


def test_ties_go_to_more_rollouts_then_to_the_earlier_move():
    stats = _stats([0.5, 0.5, 0.5], [2, 3, 3])
    SR.rank(stats, 3)
    assert list(stats[1][:3]) == [1, 2, 0]


def test_value_is_the_win_share_and_a_small_margin():
    wins = np.array([0.5, 0.5, 0.0])
    scores = np.array([30, 30, 12])
    assert SR.value(wins, scores, 0, 3) == pytest.approx(0.5)
    assert SR.value(np.array([0.0, 1.0, 0.0]), scores - np.array([4, 0, 0]), 0, 3) == \
        pytest.approx(-0.04)
    assert SR.value(np.array([1.0, 0.0]), np.array([40, 10]), 0, 2) == pytest.approx(1.3)


def test_candidates_are_the_best_by_the_rollout_bots_scores():
    weights = np.zeros((2, 1, 2))
    weights[1, 0] = [1.0, -1.0]  # the rollout bot is slot 1
    feats = np.array([[0.0, 0.0], [3.0, 0.0], [1.0, 0.0], [5.0, 4.0], [2.0, 0.0]])
    moves = np.array([10, 11, 12, 13, 14])
    stats = SR.new_stats(8)
    k = SR.pick_candidates(stats, moves, 5, 3, weights, 1, 0, feats, np.zeros(5))
    assert k == 3 and list(stats[0][SR.MOVE, :3]) == [11, 14, 12]
    assert SR.pick_candidates(stats, moves, 5, 0, weights, 1, 0, feats, np.zeros(5)) == 5
    assert list(stats[0][SR.MOVE, :5]) == [10, 11, 12, 13, 14]


def test_a_redrawn_order_depends_on_the_contents_only():
    a = np.array([7, 3, 9, 1, 5, 2, 8])
    b = np.array([7, 1, 2, 3, 5, 8, 9])  # the same cards after index 0, in another order
    redraw(game_stream(4, 0), a, 1, 6)
    redraw(game_stream(4, 0), b, 1, 6)
    assert list(a) == list(b) and a[0] == 7 and sorted(a[1:]) == [1, 2, 3, 5, 8, 9]
    c = np.array([7, 3, 9, 1, 5, 2, 8])
    redraw(game_stream(5, 0), c, 1, 6)
    assert list(c) != list(a)  # another stream, another order


def _bots(budget, candidates=0):
    """One search bot (slot 0) whose rollouts slot 1 plays, over one decision kind."""
    params = np.zeros((2, 5))
    params[0, 1:] = [budget, 1, 0, candidates]
    return np.array([4, 1]), params, np.zeros((2, 1, 2))


def test_the_schedule_halves_the_moves_round_by_round_until_the_budget_is_spent():
    stats = SR.new_stats(8)
    moves = np.array([10, 11, 12])
    assert SR.start(stats, moves, 3, _bots(8), 0, 0, np.zeros((3, 2)), np.zeros(3), 0.1,
                    0.2) == 3
    given = []
    value = {0: 0.2, 1: 0.9, 2: 0.5}
    while (i := SR.next_candidate(stats)) >= 0:
        given.append(int(i))
        SR.backup(stats, i, value[int(i)])
    # two rounds: 8 // 2 // 3 = 1 rollout each, then 4 // 2 = 2 each for the better two
    assert given == [0, 1, 2, 1, 1, 2, 2]
    assert SR.best(stats, 3) == 11 and stats[3][1] == 7


def test_a_budget_of_n_spends_at_most_n_rollouts_weighing_as_many_moves_as_fit():
    """Every surviving move has a rollout a round, so 8 candidates cost 14 rollouts at any
    budget below that: the candidates are cut until the schedule fits (the most that fit),
    and a decision's rollouts, counted by playing the schedule out, never pass N."""
    for budget in range(1, 70):
        for limit in range(0, 13):
            for n in range(2, 30):
                params = _bots(budget, limit)[1]
                k = SR.weighed(params, 0, n)
                assert 1 <= k <= (n if limit == 0 else min(limit, n))
                assert k == 1 or SR.spent(budget, k) <= budget
                cap = n if limit == 0 else min(limit, n)
                assert all(SR.spent(budget, j) > budget for j in range(k + 1, cap + 1))
    assert SR.weighed(_bots(4, 8)[1], 0, 20) == 2 and SR.spent(4, 2) == 4
    assert SR.spent(4, 8) == 14  # what search:4 cost before the cut
    stats = SR.new_stats(20)
    moves = np.arange(20)
    feats, scores = np.zeros((20, 2)), np.zeros(20)
    for budget in (1, 3, 4, 7, 8, 13):
        k = SR.start(stats, moves, 20, _bots(budget, 8), 0, 0, feats, scores, 0.3, 0.6)
        before = stats[3][1]
        while (i := SR.next_candidate(stats)) >= 0:
            SR.backup(stats, i, 0.5)
        assert 1 <= k and stats[3][1] - before <= budget


@pytest.mark.parametrize("game", GAMES)
def test_search_4_spends_at_most_4_rollouts_a_decision_in_every_engine(game):
    module = game_module(game)
    prepared, _ = module.prepare(2, ["search:4", "greedy"])
    g = Game(game, prepared, 2, 3, 0)
    decided = 0
    while not g.is_over() and decided < 10:
        slot = 1
        if len(g._moves) > 1:
            before = g._s.rollouts()
            move = g._s.decide(prepared, 0, g._decision, g._seat)
            assert 0 < g._s.rollouts() - before <= 4
            decided += 1
        else:
            move = g._s.decide(prepared, slot, g._decision, g._seat)
        g._play(move)
    assert decided == 10


def test_each_rollout_world_has_its_own_stream_the_same_for_every_move():
    stats = SR.new_stats(4)
    SR.start(stats, np.array([1, 2]), 2, _bots(4), 0, 0, np.zeros((2, 2)), np.zeros(2), 0.25,
             0.75)
    one, two, three = (np.zeros(4, dtype=np.uint64) for _ in range(3))
    SR.world(one, stats, 0)
    SR.world(two, stats, 1)  # candidate 1's first rollout: the same world as candidate 0's
    assert list(one) == list(two)
    SR.backup(stats, 1, 0.5)
    SR.world(three, stats, 1)  # its second: the next world
    assert list(three) != list(one)
    assert stats[3][1] == 1  # the rollouts tally


# -- presets --------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_search_preset_and_budgets_by_name(game):
    known = PR.load_presets(game)
    assert known["search"].search[1] in known
    selectors, params, _ = game_module(game).bots.bot_arrays(["search:300", "greedy", "search"])
    roll = int(params[0, 2])
    assert roll == 3 and params[2, 2] == roll  # one rollout slot after the line-up
    assert params[0, 1] == 300 and params[2, 1] == known["search"].search[0]
    assert selectors[roll] == known[known["search"].search[1]].selector


@pytest.mark.parametrize("name, expect", [
    ("greedy:8", "only a search bot takes a budget, as NAME:ROLLOUTS (the search bots of "
                 "Festival: search;"),
    *[(f"search:{b}", "a search bot's budget is a whole number of rollouts from 1 to "
                      f"1,000,000, got '{b}'") for b in ("0", "-1", "abc", "2000000", "\u00b2")],
    ("nope:4", "unknown bot 'nope:4'")])
def test_a_budget_on_the_wrong_bot_or_out_of_range_is_one_line(name, expect, capsys, tmp_path):
    assert main(["simulate", "festival", "--bots", f"{name},greedy", "--players", "2",
                 "--games", "2", "--out", str(tmp_path / "run"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and name in err and expect in err, err


@pytest.mark.parametrize("text,expect", [
    ('[s]\nselector = "search"\nrollout = "nobody"\n', "rollout 'nobody'"),
    ('[s]\nselector = "search"\nbudget = 0\n', "budget must be a whole number"),
    ('[s]\nselector = "search"\nhorizon = -1\n', "horizon must be"),
    ('[s]\nselector = "search"\nrollout = "s"\n', "not a search bot"),
    ('[g]\nselector = "greedy"\nbudget = 64\n', "a greedy bot has no budget"),
    ('[s]\nselector = "search"\nparam = 0.5\n', "a search bot has no param"),
    ('[s]\nselector = "search"\n[s.turn]\npoints = 1.0\n', "weighs no features"),
    ('[e]\nselector = "epsilon"\nparam = "high"\n', "param must be a number"),
    ('[g]\nselector = "greedy"\nbugdet = 64\n', "has no bugdet"),
    ('top = 3\n', "not a bot's table"),
])
def test_a_bad_search_preset_is_refused(tmp_path, text, expect):
    path = tmp_path / "bots.toml"
    path.write_text(text)
    with pytest.raises(PR.PresetError, match=expect):
        PR.load_presets("festival", path)


# -- the engines ------------------------------------------------------------------------

def _hide_festival(st, tab, shuffle, seat, decision):
    from sim.festival import state as S

    hidden = st.copy()
    for s in range(S.MAX_PLAYERS):
        n = hidden[S.STACK_N + s]
        below = hidden[S.STACK + s * S.STACK_CAP: S.STACK + s * S.STACK_CAP + n - 1]
        below[:] = shuffle.permutation(below)
    slots = [S.PILE + q * S.PILE_CAP + i for q in range(S.PILES)
             for i in range(hidden[S.PILE_N + q] - 1)]
    hidden[slots] = shuffle.permutation(hidden[slots])  # below the tops, across the piles
    return hidden


def _hide_magnificent(st, tab, shuffle, seat, decision):
    return hide_magnificent_decks(st, shuffle)


def _hide_dice_theme_park(st, tab, shuffle, seat, decision):
    """The face-down stacks and skill deck in another order, another seat's dealt tiles not
    yet kept swapped with stack A's, its unkept cards gone (99), its not yet kept
    administrators others seat ``seat`` has not seen, and the secret picks made before
    ``seat``'s other legal picks."""
    from sim.dice_theme_park import moves as M
    from sim.dice_theme_park import rules as R
    from sim.dice_theme_park import state as S
    from sim.dice_theme_park.step import legal

    hidden = st.copy()
    n = hidden[S.N_PLAYERS]
    for q in range(n):
        b = S.seat(q)
        for kept, dealt, pile, size in ((S.KEPT, S.DEALT, S.STACK_A, S.STACK_A_N),
                                        (S.SKILL_KEPT, S.SKILL_DEALT, S.SKILL_DECK,
                                         S.SKILL_DECK_N)):
            if q != seat and hidden[b + kept] < 0 <= hidden[b + dealt] and hidden[size] >= 2:
                hidden[[b + dealt, b + dealt + 1, pile, pile + 1]] = \
                    hidden[[pile, pile + 1, b + dealt, b + dealt + 1]]
    for top, base in ((S.STACK_A_N, S.STACK_A), (S.STACK_B_N, S.STACK_B),
                      (S.SKILL_DECK_N, S.SKILL_DECK)):
        k = hidden[top]
        hidden[base: base + k] = shuffle.permutation(hidden[base: base + k])
    own = set(hidden[S.seat(seat) + S.ADMIN_DEALT: S.seat(seat) + S.ADMIN_DEALT + 2])
    kept = {hidden[S.seat(q) + S.ADMIN] for q in range(n)}
    unseen = [a for a in range(tab[R.P_ADMINISTRATORS]) if a not in own and a not in kept]
    for q in range(n):
        b = S.seat(q)
        if q == seat:
            continue
        for dealt, keep in ((S.ADMIN_DEALT, S.ADMIN), (S.SKILL_DEALT, S.SKILL_KEPT)):
            for k in range(2):
                if hidden[b + keep] >= 0 and hidden[b + dealt + k] != hidden[b + keep]:
                    hidden[b + dealt + k] = 99  # gone to the box or the deck
        if hidden[b + S.ADMIN_DEALT] >= 0 and hidden[b + S.ADMIN] < 0:
            hidden[b + S.ADMIN_DEALT: b + S.ADMIN_DEALT + 2] = unseen[-2:]
            unseen = unseen[:-2]
    if decision == M.K_STAFF:
        moves = np.zeros(M.MAX_MOVES, dtype=np.int64)
        for q in range(seat):
            k = legal(hidden, tab, M.K_STAFF, q, moves, np.zeros(1 + S.DICE, np.int64),
                      M.new_workspace())
            others = [m for m in moves[:k] if m != hidden[S.F_PICKS + q]]
            hidden[S.F_PICKS + q] = others[int(shuffle.integers(len(others)))]
    return hidden


HIDE = {"festival": _hide_festival, "magnificent": _hide_magnificent,
        "dice_theme_park": _hide_dice_theme_park}


@pytest.mark.parametrize("game", GAMES)
def test_redrawing_the_hidden_information_changes_no_decision_of_a_search_bot(game):
    """Every decision of a game, taken by a search bot on the real position and on one with
    what that seat cannot see redrawn: the same move. The control: a change it can see
    changes some decision, so the test can fail."""
    module = game_module(game)
    players = 3
    prepared, _ = module.prepare(players, [SMALL] * players)
    shuffle = np.random.default_rng(2)
    searched = changed = 0
    for g_index in range(2):
        g = Game(game, prepared, players, 5, g_index)
        while not g.is_over():
            s, seat, decision = g._s, g._seat, g._decision
            secret = game == "dice_theme_park" and g.decision == "staff" and seat > 0
            if len(g._moves) > 1 and (searched < 60 or secret):
                a, b = s.copy(), s.copy()
                b.st[:] = HIDE[game](s.st, s.tab, shuffle, seat, decision)
                move = a.decide(prepared, 0, decision, seat)
                assert b.decide(prepared, 0, decision, seat) == move, (g_index, g.decision)
                assert np.array_equal(a.rng, b.rng)
                searched += 1
                c = s.copy()  # the control: another seat's score, in plain sight
                c.st[_score_field(game, (seat + 1) % players)] += 40
                changed += c.decide(prepared, 0, decision, seat) != move
            g._play(g._s.decide(prepared, g._seat, g._decision, g._seat))
    assert searched >= 40 and changed > 0


def test_dice_theme_parks_keeps_read_no_other_seats_dealt_pairs():
    """Every keep of the full game's setup (administrators, skills, starting tiles), taken
    by a search bot with the other seats' unkept dealt cards redrawn: the same move."""
    module = game_module("dice_theme_park")
    prepared, _ = module.prepare(3, [SMALL] * 3, sets={"mode": "full"})
    shuffle = np.random.default_rng(4)
    checked = 0
    for g_index in range(8):
        g = Game("dice_theme_park", prepared, 3, 9, g_index)
        while g.decision in ("admin", "skill", "start"):
            s, seat, decision = g._s, g._seat, g._decision
            if len(g._moves) > 1:
                a, b = s.copy(), s.copy()
                b.st[:] = _hide_dice_theme_park(s.st, s.tab, shuffle, seat, decision)
                move = a.decide(prepared, 0, decision, seat)
                assert b.decide(prepared, 0, decision, seat) == move, (g_index, g.decision)
                checked += 1
            g._play(g._s.decide(prepared, g._seat, g._decision, g._seat))
    assert checked >= 40


def _reorder(top_field: int, base: int, below_top: bool = False):
    """A shuffle of one hidden pile's order: the ``top_field`` cards from ``base`` (all, or
    all but the last, the face-up top, with ``below_top``)."""
    def shuffled(st, shuffle):
        hidden = st.copy()
        n = hidden[top_field] - (1 if below_top else 0)
        if n > 1:
            hidden[base: base + n] = shuffle.permutation(hidden[base: base + n])
        return hidden
    return shuffled


def _hidden_parts(game: str) -> dict:
    """Every hidden order of ``game``: its name and a shuffle of it alone."""
    S = importlib.import_module(f"sim.{game}.state")
    if game == "festival":
        stacks = [_reorder(S.STACK_N + s, S.STACK + s * S.STACK_CAP, True)
                  for s in range(S.MAX_PLAYERS)]
        piles = [_reorder(S.PILE_N + q, S.PILE + q * S.PILE_CAP, True)
                 for q in range(S.PILES)]

        def all_of(parts):
            def shuffled(st, shuffle):
                for part in parts:
                    st = part(st, shuffle)
                return st
            return shuffled
        return {"tiles below each stack's top": all_of(stacks),
                "objectives below each pile's top": all_of(piles)}
    if game == "magnificent":
        return {"master card deck": _reorder(S.MASTER_DECK_N, S.MASTER_DECK),
                "trainer tile deck": _reorder(S.TRAINER_DECK_N, S.TRAINER_DECK),
                "poster deck": _reorder(S.POSTER_DECK_N, S.POSTER_DECK)}
    return {"stack A": _reorder(S.STACK_A_N, S.STACK_A),
            "stack B": _reorder(S.STACK_B_N, S.STACK_B),
            "skill deck": _reorder(S.SKILL_DECK_N, S.SKILL_DECK)}


PARTS = [(game, part) for game in GAMES for part in _hidden_parts(game)]
# a search whose rollouts play to the end, so every refill from a hidden pile is within
# reach, with a rollout bot that takes from what is refilled: Dice Theme Park's shipped
# bots never build from the display nor hire a mascot (so never take a skill card), and no
# order of its stacks or deck could change their games; "hirer" does both
DEEP = {"selector": "search", "budget": 8, "horizon": 0, "candidates": 4}
ROLLOUT = {"festival": "builder", "magnificent": "builder", "dice_theme_park": "hirer"}
HIRER = {"selector": "greedy", "all": {"stars": 1.0, "tiles": 2.0, "mascots": 3.0,
                                       "money": 0.1}}


def _weighed(steps) -> np.ndarray:
    """The last search's record of its best moves: (move, mean value, rollouts) each."""
    stats = steps.scratch
    for i in steps.SEARCH_STATS:
        stats = stats[i]
    return stats[2].copy()


def _played_out(steps, bots, decision: int, seat: int) -> list[int]:
    """The final scores of the game played on from ``steps`` (a copy) by ``bots``."""
    while decision != steps.OVER:
        n = len(steps.legal(decision, seat))
        steps.apply(steps.decide(bots, seat, decision, seat) if n else -1)
        decision, seat = steps.advance()
    return steps.result(["-"] * steps.players, 0, 0, False)[1]


@pytest.mark.parametrize("game, part", PARTS, ids=[f"{g}-{p}" for g, p in PARTS])
def test_a_search_to_the_end_values_every_move_alike_whatever_a_hidden_order(game, part):
    """Each hidden order alone redrawn, at decisions of two games: a search whose rollouts
    play to the end (so they reach every refill from that pile) finds the same values for
    its best moves, to the bit, and plays the same move. The control that the comparison
    can fail: the game played on from there by the rollout bot at every seat, reading the
    real order, ends differently at some of those positions with the order redrawn; a
    search whose rollouts read it would have valued some move differently."""
    module = game_module(game)
    shuffle_part = _hidden_parts(game)[part]
    shuffle = np.random.default_rng(3)
    compared = reached = 0
    deep = {**DEEP, "rollout": ROLLOUT[game]}
    added = {"deep": ("the test", deep)} | (
        {"hirer": ("the test", HIRER)} if game == "dice_theme_park" else {})
    with PR.added_bots(game, added):
        prepared, _ = module.prepare(3, ["deep"] * 3)
        builder, _ = module.prepare(3, [ROLLOUT[game]] * 3)
        for g_index in range(3):
            g = Game(game, prepared, 3, 21, g_index)
            decisions = 0
            while not g.is_over() and compared < 12 * (g_index + 1):
                s, seat, decision = g._s, g._seat, g._decision
                decisions += 1
                hidden = shuffle_part(s.st, shuffle)
                if len(g._moves) > 1 and decisions % 5 == 0 and \
                        not np.array_equal(hidden, s.st):
                    a, b = s.copy(), s.copy()
                    b.st[:] = hidden
                    move = a.decide(prepared, 0, decision, seat)
                    assert b.decide(prepared, 0, decision, seat) == move
                    assert np.array_equal(_weighed(a), _weighed(b)), (g_index, g.decision)
                    compared += 1
                    c, d = s.copy(), s.copy()
                    d.st[:] = hidden
                    reached += _played_out(c, builder, decision, seat) != \
                        _played_out(d, builder, decision, seat)
                g._play(g._s.decide(builder, g._seat, g._decision, g._seat))
    assert compared >= 12 and reached > 0, (compared, reached)


def _score_field(game: str, seat: int) -> int:
    S = importlib.import_module(f"sim.{game}.state")
    if game == "festival":
        return S.SEAT + seat * S.SEAT_SIZE + S.DONE_POINTS
    return S.seat(seat) + (S.SCORE if game == "magnificent" else S.STARS)


@pytest.mark.parametrize("game", GAMES)
def test_a_rollout_is_valued_for_the_seat_that_searches(game):
    """Seat 1 searches with 400 points more than anyone: every rollout is its win and a lead
    of about 400 (a value above 1 + 0.01 * 300); with the 400 points given to seat 2 instead,
    a loss and a deficit (a value below -0.01 * 300). A value taken for another seat (the
    first, say) would read neither."""
    module = game_module(game)
    prepared, _ = module.prepare(3, [SMALL] * 3)
    g = Game(game, prepared, 3, 13, 0)
    while g.is_over() or g._seat != 1 or len(g._moves) < 2:
        g._play(g._s.decide(prepared, g._seat, g._decision, g._seat))
    for rich, low, high in ((1, 1 + SR.MARGIN * 300, np.inf), (2, -np.inf, -SR.MARGIN * 300)):
        s = g._s.copy()
        s.st[_score_field(game, rich)] += 400
        s.decide(prepared, 0, g._decision, 1)
        top = _weighed(s)
        assert low < top[0, 1] < high, (rich, top)


@pytest.mark.parametrize("game", GAMES)
def test_a_search_bot_draws_the_games_two_numbers_per_decision(game):
    """The game's stream after a search bot's decision is where any bot leaves it: the
    deals and dice of a game do not depend on which bots play it."""
    module = game_module(game)
    prepared, _ = module.prepare(2, [SMALL, "random"])
    g = Game(game, prepared, 2, 8, 0)
    for _ in range(30):
        if g.is_over():
            break
        if len(g._moves) > 1:
            a, b = g._s.copy(), g._s.copy()
            a.decide(prepared, 0, g._decision, g._seat)
            b.decide(prepared, 1, g._decision, g._seat)
            assert np.array_equal(a.rng, b.rng)
        g._play(g._s.decide(prepared, 1, g._decision, g._seat))


@pytest.mark.parametrize("game", GAMES)
def test_games_with_a_search_bot_replay_on_every_path(game, tmp_path):
    """The batch kernel on threads and in processes, in other chunks, and the game driven
    from Python give the same rows."""
    bots = [SMALL, "greedy"]
    threads = simulate(game, 4, 2, bots=bots, seed=6)
    again = simulate(game, 4, 2, bots=bots, seed=6, chunk_size=3, threads=1)
    processes = simulate(game, 4, 2, bots=bots, seed=6, out=str(tmp_path / "run"),
                         backend="processes", workers=2, chunk_size=2)
    driven = play(game, bots, games=4, seed=6)
    for other in (again, processes, driven):
        pd.testing.assert_frame_equal(threads.reset_index(drop=True),
                                      other.reset_index(drop=True), check_like=False)


def test_bench_counts_a_search_bots_rollouts():
    from analysis.ladder import rollouts_played, spent

    prepared, _ = game_module("festival").prepare(4, [SMALL, "greedy", "greedy", "greedy"])
    r = rollouts_played("festival", prepared, 2)
    # every searched decision of seat 0 plays at least one rollout per candidate
    assert r["search_decisions"] > 10 and r["rollouts"] >= 2 * r["search_decisions"]
    assert r["rollouts_per_s"] > 0
    assert 1 <= spent("festival", 2, "search:4", 1) <= 4  # what the ladder prints


@pytest.mark.parametrize("game", GAMES)
def test_replay_shows_what_the_search_weighed(game, capsys):
    assert main(["replay", game, "--players", "2", "--bots", f"{SMALL},greedy", "--seed", "2",
                 "--game", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = [i for i, line in enumerate(lines) if "weighed 1." in line]
    assert first and all("seat 0" in lines[i] for i in first)
    row = re.compile(r"(weighed|^ +) (\d)\. .*: value (-?[\d.]+) over (\d+) rollouts$")
    differ = 0
    for i in first:
        block = [row.search(lines[i])]
        block += [m for m in map(row.match, lines[i + 1: i + 3]) if m][: 2]
        ranks = [int(m[2]) for m in block]
        values = [float(m[3]) for m in block]
        rollouts = [int(m[4]) for m in block]
        assert ranks == list(range(1, len(block) + 1))
        assert rollouts[0] == max(rollouts)  # the move played survived every round
        differ += len(set(values)) > 1  # the moves were played before the rollouts
    assert differ > len(first) / 2
