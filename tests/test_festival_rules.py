"""Festival rules on hand-built positions, each checked against the seed's text."""

import numpy as np
import pytest

from sim.festival import rules as R
from sim.festival import state as S
from tests.conftest import reference_met, reference_progress

TILE = R.MOVE_TILE_RIGHT
OBJ = R.MOVE_OBJECTIVE


def test_seed_scoring_example(position):
    """Seed: objectives 20 (4+7+5+4), crowd 5 (3+2), colour 5 (1+1+3), design 3 (1+1+1)."""
    pos = position(colours=[0, 1, 2, 3])  # seat 0: red board, target design D1
    b = pos.base(0)
    for name in ("mix-1", "red-A", "stk-3", "mix-2"):  # worth 4, 7, 5, 4
        pos.st[b + S.DONE_SET] |= 1 << pos.card(name)
        pos.st[b + S.DONE_POINTS] += pos.d.tables.card_value[pos.card(name)]
    pos.st[b + S.CROWD_POINTS] = 3 + 2
    pos.st[b + S.CROWD_N] = 2
    pos.put(0, 0, "red", "D2")
    pos.put(0, 1, "red", "D3")
    pos.put(0, 2, "red", "D4", height=3)
    pos.put(0, 3, "yellow", "D1")
    pos.put(0, 4, "blue", "D1")
    pos.put(0, 5, "green", "D1")
    scores = np.zeros(4, dtype=np.int64)
    parts = np.zeros((4, 4), dtype=np.int64)
    wins, ranks = np.zeros(4), np.zeros(4, dtype=np.int64)
    R.final_scores(pos.st, pos.tab, scores, parts, wins, ranks)
    assert list(parts[0]) == [20, 5, 5, 3]
    assert scores[0] == 33


def test_tile_matching_colour_and_design_scores_twice_covered_tiles_score_nothing(position):
    pos = position(colours=[0, 1, 2, 3])
    pos.put(0, 4, "red", "D1", height=3)  # red board, design D1: 3 + 3
    pos.put(0, 0, "yellow", "D2", height=2)  # covers whatever lies below: scores 0
    assert R.board_points(pos.st, pos.tab, 0) == (3, 3)


@pytest.mark.parametrize("n_players,left,right", [(2, 0, 1), (3, 0, 2), (4, 0, 3)])
def test_stack_access_by_player_count(position, n_players, left, right):
    """A seat takes from its own stack (on its left) and its right neighbour's only."""
    pos = position(n_players=n_players)
    assert R.stack_of(pos.st, 0, 0) == left
    assert R.stack_of(pos.st, 0, 1) == right
    for s in range(n_players):
        if s not in (left, right):
            pos.st[S.STACK_N + s] = 0  # emptying an unreachable stack changes nothing
    assert len([m for m in pos.legal(0) if m < OBJ]) == 18


def test_take_tile_places_on_any_cell_and_stacks_without_limit(position):
    pos = position(n_players=2)
    for _ in range(7):
        pos.st[S.OVER] = 0
        pos.play(0, 4)  # own stack onto the centre cell
    b = pos.base(0)
    assert pos.st[b + S.HEIGHT + 4] == 7
    assert pos.st[S.STACK_N + 0] == 16 - 7


def test_rotated_pattern_found_and_mirrored_only_pattern_not(position):
    """col-5 is an L: green, red below it, blue right of the red. Rotations count, mirrors not."""
    pos = position()
    pos.clear(0)
    pos.hold(0, "col-5")
    # Rotated a quarter turn: green (0,2), red (0,1), blue (1,1).
    pos.put(0, 2, "green", "D1")
    pos.put(0, 1, "red", "D2")
    pos.put(0, 4, "blue", "D3")
    assert pos.met(0, "col-5")
    pos.clear(0)
    # The mirror image: green (0,1), red (1,1), blue (1,0); no rotation gives it.
    pos.put(0, 1, "green", "D1")
    pos.put(0, 4, "red", "D2")
    pos.put(0, 3, "blue", "D3")
    assert not pos.met(0, "col-5")
    top = pos.st[pos.base(0) + S.TOP : pos.base(0) + S.TOP + 9]
    assert not reference_met(pos.d, pos.card("col-5"), top, np.ones(9, dtype=int))


def test_stacked_requirement_needs_a_tile_below(position):
    """stk-1: a D1 on top of at least one tile, next to a D2 (at any level)."""
    pos = position()
    pos.clear(0)
    pos.put(0, 0, "red", "D1", height=1)
    pos.put(0, 1, "blue", "D2", height=1)
    assert not pos.met(0, "stk-1")
    pos.put(0, 0, "red", "D1", height=2)
    assert pos.met(0, "stk-1")
    # The stacked tile must be the D1, not its neighbour.
    pos.put(0, 0, "red", "D1", height=1)
    pos.put(0, 1, "blue", "D2", height=4)
    assert not pos.met(0, "stk-1")


def test_seed_mixed_example_stacked_design_next_to_yellow(position):
    """mix-1 (the seed's example): a stacked D1 orthogonally next to a yellow tile."""
    pos = position()
    pos.clear(0)
    pos.put(0, 4, "green", "D1", height=2)
    pos.put(0, 0, "yellow", "D3")  # diagonal: not adjacent
    assert not pos.met(0, "mix-1")
    pos.put(0, 7, "yellow", "D4", height=3)  # below the centre: adjacent
    assert pos.met(0, "mix-1")


def test_identical_pair_objective(position):
    pos = position()
    pos.clear(0)
    pos.put(0, 0, "red", "D2")
    pos.put(0, 8, "red", "D3")
    assert not pos.met(0, "pair-1")
    pos.put(0, 8, "red", "D2")  # two identical tiles anywhere
    assert pos.met(0, "pair-1")


def test_kernel_matcher_agrees_with_reference_on_random_boards(position):
    """Progress (most cells at one placement) and met, on 400 boards x every card."""
    pos = position()
    rng = np.random.default_rng(5)
    n_cards = len(pos.d.cards)
    for _ in range(400):
        pos.clear(0)
        for cell in rng.choice(9, size=rng.integers(2, 10), replace=False):
            colour = pos.d.colours[rng.integers(4)]
            design = pos.d.designs[rng.integers(4)]
            pos.put(0, int(cell), colour, design, height=int(rng.integers(1, 4)))
        b = pos.base(0)
        top = pos.st[b + S.TOP : b + S.TOP + 9].copy()
        height = pos.st[b + S.HEIGHT : b + S.HEIGHT + 9].copy()
        for card in range(n_cards):
            want = reference_progress(pos.d, card, top, height)
            got = R.pattern_progress(pos.tab, card, pos.st, b)
            assert got == want, (pos.d.cards[card], top, height)
            assert pos.met(0, pos.d.cards[card]) == reference_met(pos.d, card, top, height), \
                (pos.d.cards[card], top, height)


def test_six_uncompleted_objectives_cap(position):
    pos = position()
    pos.hold(0, "col-1", "col-2", "col-3", "col-4", "col-5")
    assert any(m >= OBJ for m in pos.legal(0))
    pos.hold(0, "col-1", "col-2", "col-3", "col-4", "col-5", "col-6")
    assert not any(m >= OBJ for m in pos.legal(0))


def test_empty_objective_pile_shrinks_the_choice(position):
    pos = position()
    pos.st[S.PILE_N + 2] = 0
    assert sorted(m - OBJ for m in pos.legal(0) if m >= OBJ) == [0, 1, 3]


def test_taking_an_already_met_objective_completes_it_at_once(position):
    pos = position()
    pos.clear(0)
    pos.put(0, 0, "red", "D1")
    pos.put(0, 1, "red", "D2")
    top = pos.st[S.PILE + 0 * S.PILE_CAP + pos.st[S.PILE_N] - 1]
    pos.put(0, 3, "red", "D1")
    pos.put(0, 4, "red", "D2")  # a pair of identical tiles too
    pos.st[S.PILE + pos.st[S.PILE_N] - 1] = pos.card("pair-1")
    pos.play(0, OBJ + 0)
    b = pos.base(0)
    assert (pos.st[b + S.DONE_SET] >> pos.card("pair-1")) & 1
    assert pos.st[b + S.HELD_N] == 1  # only the starting objective left
    assert top >= 0


def test_several_objectives_and_crowd_pleasers_completed_in_one_turn(position):
    pos = position(colours=[0, 1, 2, 3])
    pos.clear(0)
    pos.hold(0, "col-1", "des-1", "mix-2")
    # One tile completes col-1 (red, yellow), des-1 (D1, D2) and mix-2 (stacked D2 + red).
    pos.put(0, 0, "red", "D1", height=1)
    for k in range(4):
        pos.st[S.CROWD_COND + k] = [0, 3, 5, 7][k]  # 4 of a colour, distinct values, 3 done...
    b = pos.base(0)
    s = R.stack_of(pos.st, 0, 0)
    pos.st[S.STACK + s * S.STACK_CAP + pos.st[S.STACK_N + s] - 1] = pos.tile("yellow", "D2")
    pos.st[b + S.HEIGHT + 1] = 1  # a tile below cell 1, so the new top is stacked
    pos.st[b + S.TOP + 1] = pos.tile("green", "D4")
    pos.rebuild_view(0)
    pos.play(0, 1)
    done = [c for c in ("col-1", "des-1", "mix-2") if (pos.st[b + S.DONE_SET] >> pos.card(c)) & 1]
    assert done == ["col-1", "des-1", "mix-2"]
    # 3 completed objectives (condition 5) is claimed in the same step.
    assert pos.st[S.CROWD_OWNER + 2] == 0
    assert pos.st[b + S.CROWD_POINTS] == pos.d.tables.crowd_value[5]


def test_crowd_pleaser_goes_to_the_first_only_and_at_the_end_of_own_turn(position):
    pos = position(colours=[0, 1, 2, 3])
    for p in (0, 1):
        pos.clear(p)
        for cell in range(9):
            pos.put(p, cell, "blue", "D1")
    pos.st[S.CROWD_COND + 3] = 6  # board full
    assert pos.st[S.CROWD_OWNER + 3] == -1  # seat 1 meets it, but it is seat 0's turn
    pos.play(0, 0)
    assert pos.st[S.CROWD_OWNER + 3] == 0
    pos.play(1, 0)
    assert pos.st[S.CROWD_OWNER + 3] == 0
    assert pos.st[pos.base(1) + S.CROWD_N] == 0


CONDITIONS = {  # condition row: (setup that meets it, setup that narrowly does not)
    0: ([("red", "D1"), ("red", "D2"), ("red", "D3"), ("red", "D4")],
        [("red", "D1"), ("red", "D2"), ("red", "D3"), ("blue", "D4")]),
    1: ([("red", "D2"), ("blue", "D2"), ("green", "D2"), ("yellow", "D2")],
        [("red", "D2"), ("blue", "D2"), ("green", "D2"), ("yellow", "D3")]),
    6: ([("red", "D1")] * 9, [("red", "D1")] * 8),
    7: ([("red", "D1"), ("yellow", "D2"), ("blue", "D3"), ("green", "D4")],
        [("red", "D1"), ("yellow", "D2"), ("blue", "D3"), ("green", "D3")]),
}


@pytest.mark.parametrize("cond", range(8))
def test_each_crowd_pleaser_condition_met_and_narrowly_not(position, cond):
    pos = position()
    b = pos.base(0)
    label = pos.d.crowd[cond]

    def check():
        return bool(R.crowd_measure(pos.tab, cond, pos.st, b) >= pos.d.tables.crowd_count[cond])

    for meets in (True, False):
        pos.clear(0)
        pos.st[b + S.V_DONE_N] = 0
        pos.st[b + S.V_DONE_VALUES] = 0
        if cond in CONDITIONS:
            for cell, (colour, design) in enumerate(CONDITIONS[cond][0 if meets else 1]):
                pos.put(0, cell, colour, design)
        elif cond == 2:  # a level-4 tile
            pos.put(0, 0, "red", "D1", height=4 if meets else 3)
        elif cond == 3:  # two level-3 tiles
            pos.put(0, 0, "red", "D1", height=3)
            pos.put(0, 8, "red", "D1", height=3 if meets else 2)
        elif cond == 4:  # 4 completed objectives of different values
            values = [3, 4, 5, 7] if meets else [3, 4, 5, 5]
            pos.st[b + S.V_DONE_N] = 4
            for v in values:
                pos.st[b + S.V_DONE_VALUES] |= 1 << v
        elif cond == 5:  # 3 completed objectives
            pos.st[b + S.V_DONE_N] = 3 if meets else 2
        assert check() == meets, (label, meets)


def test_end_by_sixth_objective_finishes_the_round(position):
    """Seat 1 completes its 6th objective: seats 2 and 3 still play, then the game ends."""
    pos = position(n_players=4)
    b = pos.base(1)
    pos.st[S.CURRENT] = 1
    pos.st[b + S.V_DONE_N] = 5
    pos.clear(1)
    pos.hold(1, "pair-1")
    pos.put(1, 0, "red", "D1")
    s = R.stack_of(pos.st, 1, 0)
    pos.st[S.STACK + s * S.STACK_CAP + pos.st[S.STACK_N + s] - 1] = pos.tile("red", "D1")
    pos.play(1, 8)
    assert pos.st[b + S.V_DONE_N] == 6
    assert pos.st[S.TRIGGER] == S.TRIGGER_OBJECTIVES and pos.st[S.OVER] == 0
    pos.play(2, 0)
    assert pos.st[S.OVER] == 0
    pos.play(3, 0)
    assert pos.st[S.OVER] == 1


def test_end_by_empty_stack_on_the_last_seat_ends_at_once(position):
    pos = position(n_players=3)
    pos.st[S.STACK_N + 2] = 1
    pos.play(2, 0)  # seat 2 (the start player's right) empties its own stack
    assert pos.st[S.TRIGGER] == S.TRIGGER_STACK and pos.st[S.OVER] == 1


def test_a_seat_with_no_action_passes(position):
    pos = position(n_players=2)
    pos.st[S.STACK_N + 0] = 0
    pos.st[S.STACK_N + 1] = 0
    pos.hold(0, "col-1", "col-2", "col-3", "col-4", "col-5", "col-6")
    assert pos.legal(0) == [R.MOVE_PASS]


def _final(pos, scores, crowd):
    for p, (sc, cr) in enumerate(zip(scores, crowd)):
        b = pos.base(p)
        pos.clear(p)
        pos.st[b + S.DONE_POINTS] = sc
        pos.st[b + S.CROWD_N] = cr
    out = np.zeros(4, dtype=np.int64), np.zeros((4, 4), dtype=np.int64), np.zeros(4), \
        np.zeros(4, dtype=np.int64)
    R.final_scores(pos.st, pos.tab, *out)
    return out


def test_tie_break_most_crowd_pleasers_then_shared(position):
    pos = position(n_players=4)
    _, _, wins, ranks = _final(pos, [30, 30, 28, 30], [1, 2, 3, 0])
    assert list(wins) == [0, 1, 0, 0] and list(ranks) == [2, 1, 4, 3]
    _, _, wins, ranks = _final(pos, [30, 30, 28, 30], [2, 2, 3, 0])
    assert list(wins) == [0.5, 0.5, 0, 0] and list(ranks) == [1, 1, 4, 3]
