"""Move features against the rules: a move's "points" feature is the score it really adds."""

import numpy as np
import pytest

from sim.festival import features as F
from sim.festival import rules as R
from sim.festival import state as S
from tests.conftest import played_positions, reference_progress


def _score(st, tab, p):
    out = (np.zeros(4, dtype=np.int64), np.zeros((4, 4), dtype=np.int64), np.zeros(4),
           np.zeros(4, dtype=np.int64))
    R.final_scores(st, tab, *out)
    return out[0][p], out[1][p]


def test_points_feature_is_the_score_a_move_adds(position):
    checked = 0
    for pos in played_positions(position, 80, seed=3, max_turns=40):
        p = pos.st[S.CURRENT]
        n = R.legal_moves(pos.st, pos.tab, p, pos.moves)
        F.turn_features(pos.st, pos.tab, p, pos.moves, n, pos.feats, pos.before, pos.work)
        before, parts_before = _score(pos.st, pos.tab, p)
        for m in range(n):
            trial = pos.st.copy()
            _, placed = R.apply_move(trial, pos.tab, p, pos.moves[m], pos.log, 0)
            R.end_of_turn(trial, pos.tab, p, placed, pos.log, 0)
            after, parts_after = _score(trial, pos.tab, p)
            row = pos.feats[m]
            assert row[F.F_POINTS] == after - before
            assert row[F.F_OBJ] == parts_after[0] - parts_before[0]
            assert row[F.F_CROWD] == parts_after[1] - parts_before[1]
            assert row[F.F_BOARD] == (parts_after[2] + parts_after[3]
                                      - parts_before[2] - parts_before[3])
            checked += 1
    assert checked > 500


def _standing(st, tab, d, p):
    """(sum of value * share met over held unmet cards, the same over open crowd tiles),
    recomputed from scratch with the plain-Python matcher."""
    t = d.tables
    b = S.SEAT + p * S.SEAT_SIZE
    top, height = st[b + S.TOP : b + S.TOP + 9], st[b + S.HEIGHT : b + S.HEIGHT + 9]
    cards = 0.0
    for i in range(st[b + S.HELD_N]):
        card = st[b + S.HELD + i]
        got = reference_progress(d, card, top, height)
        if got < t.card_ncells[card]:
            cards += t.card_value[card] * got / t.card_ncells[card]
    crowd = 0.0
    for k in range(t.params[S.P_CROWD_TILES]):
        if st[S.CROWD_OWNER + k] < 0:
            cond = st[S.CROWD_COND + k]
            got = min(R.crowd_measure(tab, cond, st, b), t.crowd_count[cond])
            crowd += t.crowd_value[cond] * got / t.crowd_count[cond]
    return cards, crowd


def test_progress_features_are_the_change_of_standing(position):
    """The "progress" and "crowd_progress" features equal the change of the seat's
    standing recomputed from scratch after the move (the features re-evaluate only what a
    move can change)."""
    checked = 0
    for pos in played_positions(position, 60, seed=4, max_turns=40):
        p = pos.st[S.CURRENT]
        n = R.legal_moves(pos.st, pos.tab, p, pos.moves)
        F.turn_features(pos.st, pos.tab, p, pos.moves, n, pos.feats, pos.before, pos.work)
        cards, crowd = _standing(pos.st, pos.tab, pos.d, p)
        for m in range(n):
            trial = pos.st.copy()
            _, placed = R.apply_move(trial, pos.tab, p, pos.moves[m], pos.log, 0)
            R.end_of_turn(trial, pos.tab, p, placed, pos.log, 0)
            cards_after, crowd_after = _standing(trial, pos.tab, pos.d, p)
            assert abs(pos.feats[m, F.F_PROGRESS] - (cards_after - cards)) < 1e-9
            assert abs(pos.feats[m, F.F_CROWD_PROGRESS] - (crowd_after - crowd)) < 1e-9
            checked += 1
    assert checked > 400


def test_pair_objective_features_against_the_rules(position):
    """Seat 0 holds the identical-pair objective and its own stack shows a tile that is on
    its board already: covering that tile completes nothing, a tile anywhere else completes
    the pair (few random positions hold the pair card, so this one is built by hand)."""
    pos = position(n_players=2)
    pos.clear(0)
    pos.put(0, 0, "red", "D2")
    pos.put(0, 4, "blue", "D3")
    pos.hold(0, "pair-1")
    stack = pos.st[S.STACK : S.STACK + pos.st[S.STACK_N]]
    top = int(np.flatnonzero(stack == pos.tile("red", "D2"))[0])
    stack[top], stack[-1] = stack[-1], stack[top]
    n = R.legal_moves(pos.st, pos.tab, 0, pos.moves)
    F.turn_features(pos.st, pos.tab, 0, pos.moves, n, pos.feats, pos.before, pos.work)
    value = pos.d.tables.card_value[pos.card("pair-1")]
    _, parts_before = _score(pos.st, pos.tab, 0)
    completing = 0
    for m in range(n):
        trial = pos.st.copy()
        _, placed = R.apply_move(trial, pos.tab, 0, pos.moves[m], pos.log, 0)
        R.end_of_turn(trial, pos.tab, 0, placed, pos.log, 0)
        gained = _score(trial, pos.tab, 0)[1][0] - parts_before[0]
        assert pos.feats[m, F.F_OBJ] == gained
        completing += gained == value
    assert completing == 8  # the left stack onto any cell but cell 0


def test_card_features_one_by_one(position):
    """Taking a card: take_objective 1, objective_value its value, late_objective its value
    times the share used up of the emptiest draw stack; a tile move has none of them."""
    checked = 0
    for pos in played_positions(position, 60, seed=5, max_turns=50):
        p = pos.st[S.CURRENT]
        n = R.legal_moves(pos.st, pos.tab, p, pos.moves)
        F.turn_features(pos.st, pos.tab, p, pos.moves, n, pos.feats, pos.before, pos.work)
        players = pos.st[S.N_PLAYERS]
        per_player = pos.d.tables.params[S.P_TILES_PER_PLAYER]
        used = max(1 - pos.st[S.STACK_N + s] / per_player for s in range(players))
        for m in range(n):
            move, row = pos.moves[m], pos.feats[m]
            if move >= R.MOVE_OBJECTIVE and move != R.MOVE_PASS:
                q = move - R.MOVE_OBJECTIVE
                card = pos.st[S.PILE + q * S.PILE_CAP + pos.st[S.PILE_N + q] - 1]
                value = pos.d.tables.card_value[card]
                assert row[F.F_TAKE] == 1 and row[F.F_VALUE] == value
                assert row[F.F_LATE] == pytest.approx(value * used)
                checked += used > 0
            elif move != R.MOVE_PASS:
                assert row[F.F_TAKE] == row[F.F_VALUE] == row[F.F_LATE] == 0
    assert checked > 100


def test_starting_side_features_one_by_one(position):
    """cells, stacked, own_colour, own_design and value of each side, from the card table."""
    t = position().d.tables
    for colour in range(4):
        pos = position(colours=[colour, (colour + 1) % 4, (colour + 2) % 4, (colour + 3) % 4])
        design = t.board_design[colour]
        side_a, side_b = t.start_card[colour]
        feats = np.zeros((2, F.N_FEATURES))
        F.start_features(pos.st, pos.tab, 0, side_a, side_b, feats)
        for m, card in enumerate((side_a, side_b)):
            cells = t.card_req[card, : t.card_ncells[card]]
            assert feats[m, F.F_CELLS] == len(cells)
            assert feats[m, F.F_STACKED] == sum(c[2] for c in cells)
            assert feats[m, F.F_OWN_COLOUR] == sum(c[0] == colour for c in cells)
            assert feats[m, F.F_OWN_DESIGN] == sum(c[1] == design for c in cells)
            assert feats[m, F.F_START_VALUE] == t.card_value[card]
        assert feats[0, F.F_STACKED] != feats[1, F.F_STACKED]  # the sides differ (rules.md)


def test_tile_features_height_and_empty_cell(position):
    """A tile move: height is the cell's height once the tile is on it, empty_cell 1 when
    the cell had no tile."""
    checked = 0
    for pos in played_positions(position, 40, seed=9, max_turns=50):
        p = pos.st[S.CURRENT]
        n = R.legal_moves(pos.st, pos.tab, p, pos.moves)
        F.turn_features(pos.st, pos.tab, p, pos.moves, n, pos.feats, pos.before, pos.work)
        for m in range(n):
            move = pos.moves[m]
            if move >= R.MOVE_OBJECTIVE:
                continue
            cell = move % R.MOVE_TILE_RIGHT
            h = pos.st[pos.base(p) + S.HEIGHT + cell]
            assert pos.feats[m, F.F_HEIGHT] == h + 1
            assert pos.feats[m, F.F_EMPTY] == (1.0 if h == 0 else 0.0)
            checked += h > 0
    assert checked > 100
