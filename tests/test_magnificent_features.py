"""The Magnificent's move features on hand-built positions: what each column says."""

import numpy as np

from sim.magnificent import features as F
from sim.magnificent import moves as M
from sim.magnificent import rules as R
from sim.magnificent import state as S
from tests.test_magnificent_rules import (
    CTX,
    GREEN,
    ORANGE,
    TAB,
    TENT,
    TILE,
    bits,
    fresh,
    placement,
    turn,
)


def features(st, p, kind, moves, ctx=CTX):
    moves = np.array(moves, dtype=np.int64)
    out = np.zeros((len(moves), F.N_FEATURES))
    F.move_features(st, TAB, p, kind, ctx, moves, len(moves), out, F.new_buffers())
    return {name: out[:, k].tolist() for k, name in enumerate(F.FEATURES)}


def test_a_placements_squares_bonuses_contact_and_completions():
    st = fresh()
    b = S.seat(0)
    st[b + S.CAMP] = bits(*[(r, c) for r in range(2) for c in range(4)]) & ~bits(
        (1, 1), (1, 2), (1, 3), (0, 2))  # section 1 (rows 0-1, cols 0-3) less a T's squares
    t = TILE["orange-small"]
    fill = placement(t, bits((1, 1), (1, 2), (1, 3), (0, 2)))
    apart = placement(t, bits((4, 4), (4, 5), (4, 6), (5, 5)))
    ctx = CTX.copy()
    ctx[0] = t
    f = features(st, 0, M.K_PLACE, [fill, apart], ctx)
    assert f["squares"] == [4, 4] and f["sections"] == [1, 0] and f["rows"] == [0, 0]
    assert f["markers"] == [0, 1]  # (4,4) is a trainer square
    # fill: 10 outer sides, 4 of them on free squares ((2,1), (2,2), (2,3) and (1,4))
    assert f["contact"][0] == 10 - 4
    block = TILE["green-large"]  # a 2x3 block: 10 outer sides; in a corner, 5 on the border
    ctx[0] = block
    corner = placement(block, bits((4, 5), (4, 6), (4, 7), (5, 5), (5, 6), (5, 7)))
    assert features(st, 0, M.K_PLACE, [corner], ctx)["contact"] == [5]


def test_a_dies_power_its_cost_and_the_penalty_it_adds():
    st = fresh()
    b = S.seat(0)
    st[b + S.SUM: b + S.SUM + 4] = [5, 2, 0, 0]
    st[b + S.COINS] = 6
    st[S.ROUND] = 1  # 2 points a missing coin
    f = features(st, 0, M.K_DIE, [ORANGE * 8 + 3, GREEN * 8 + 6, 3 * 8 + 2])
    assert f["power"] == [8, 8, 7]  # a clear die goes with the colour held most
    assert f["dice_cost"] == [3, 3, 2]  # orange to 8, green to 8, clear on top
    assert f["penalty"] == [-4, -4, -2]  # cost 5 -> 8 or 7 against 6 coins


def test_an_actions_gains():
    st = fresh()
    b = S.seat(0)
    turn(st, 0, ORANGE, 4)
    st[S.TRACK_TENT + 2] = -1  # a poster symbol on space 2
    st[S.TRACK_TENT + 4] = TENT["T01"]
    f = features(st, 0, M.K_ACTION, [M.A_BUILD + 1, M.A_TRAVEL + 3, M.A_TRAVEL + 4])
    assert f["build"] == [1, 0, 0] and f["squares"][0] == 6
    assert f["gems"] == [0, 2, 2] and f["posters"] == [0, 1, 1] and f["tent"] == [0, 0, 1]
    st[b + S.POSTER + 1] = 6  # P01 needs an orange small tile
    f = features(st, 0, M.K_ACTION, [M.A_BUILD + 0, M.A_BUILD + 1])
    assert f["needed"] == [1, 0]
    st[b + S.PLACED + TILE["orange-small"]] = 1  # built already: no longer needed
    assert features(st, 0, M.K_ACTION, [M.A_BUILD + 0])["needed"] == [0]


def test_a_boosts_gain_is_what_the_best_action_gains():
    st = fresh()
    b = S.seat(0)
    st[b + S.CAMP] = 0
    turn(st, 0, GREEN, 4)
    st[b + S.GEMS + GREEN] = 1
    now = F.action_value(st, TAB, 0, 4, 0, 0, 0, F.new_buffers())
    more = F.action_value(st, TAB, 0, 6, 0, 0, 0, F.new_buffers())
    f = features(st, 0, M.K_BOOST, [M.STOP, M.B_GEM])
    assert f["stop"] == [1, 0] and f["gems"] == [0, -1] and f["power"] == [0, 2]
    assert f["action_gain"] == [0, more - now] and more > now


def test_shows_and_the_draft_read_the_cards():
    st = fresh()
    b = S.seat(0)
    st[b + S.POSTER: b + S.POSTER + 5] = [0, -1, -1, -1, -1]  # Larissa over the printed tent
    st[b + S.PLACED + TILE["orange-small"]] = 1
    st[b + S.SHOWS_LEFT] = 1
    f = features(st, 0, M.K_SHOW, [M.STOP, 1])
    assert f["shows"] == [0, 4] and f["stop"] == [1, 0]
    row = 0
    card = st[S.DISPLAY_MASTER + row]
    f = features(st, 0, M.K_DRAFT, [row])
    assert f["master"] == [R.master_value(st, TAB, 0, card)] and f["trainer"][0] > 0


def test_a_poster_from_the_deck_is_worth_the_decks_mean_one_from_the_display_its_own():
    from tests.test_magnificent_rules import DATA

    st = fresh()
    b = S.seat(0)
    st[b + S.POSTERS_DUE] = 1
    deck = DATA.posters[DATA.posters["starting"] == 0]
    mean = float((deck["points"] + deck["coins"]).mean())
    shown = st[S.POSTER_DISPLAY + 1]
    f = features(st, 0, M.K_POSTER, [M.POSTER_DECK, 2])
    assert abs(f["posters"][0] - mean) < 1e-3
    assert f["posters"][1] == DATA.posters["points"][shown] + DATA.posters["coins"][shown]


def test_a_placement_completes_only_what_was_not_complete_before():
    st = fresh()
    b = S.seat(0)
    st[b + S.CAMP] = bits(*[(r, c) for r in range(2) for c in range(8)])  # rows 0-1 full
    t = TILE["green-large"]
    ctx = CTX.copy()
    ctx[0] = t
    below = placement(t, bits((2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2)))
    f = features(st, 0, M.K_PLACE, [below], ctx)
    assert f["rows"] == [0] and f["sections"] == [0]


def test_the_action_value_is_the_best_build_within_reach():
    """With no travel and no show within reach, a seat's action value is its best build: the
    squares of the richest level its power and trainers reach, at SQUARE_VALUE a square (an
    empty camp fits every tile, the supply is full); read once a decision from its parts."""
    from sim.magnificent import tables as T

    st = fresh()
    b = S.seat(0)
    st[b + S.CAMP] = 0
    colour = st[b + S.COLOUR]
    squares = [sum(TAB[(T.LEVEL_LARGE if large else T.LEVEL_SMALL) + level]
                   * TAB[T.TILE_CELLS + R.tile_kind(TAB, colour, large)] for large in (0, 1))
               for level in range(TAB[R.P_LEVELS])]
    assert max(squares) > 0
    for reach in range(TAB[R.P_LEVELS] + 1):
        expected = max([0.0, *(s * F.SQUARE_VALUE for s in squares[:reach])])
        assert F.action_value(st, TAB, 0, 0, reach, -99, -99, F.new_buffers()) == expected


def test_the_best_travel_is_the_best_stop_within_reach_not_the_last():
    """A travel moves one space up to its power (rules.md, interpretation 12): its value is
    the best stop's. On the orange track (gem, tent space, gem, tent space) with a tent on
    space 2 and a free tent space of the seat's own, two steps reach the tent (a gem and the
    tent: 0.6 + TENT_VALUE); three and four steps go on past it and gather less than the
    tent's worth, so their best stays at two steps. No build or show is within reach."""
    st = fresh()
    b = S.seat(0)
    st[b + S.COLOUR] = ORANGE
    st[S.WAGON + ORANGE] = 0
    st[S.TRACK_TENT + 2] = TENT["T01"]
    st[S.TRACK_TENT + 4] = -1  # a poster symbol: one poster, no tent
    st[b + S.TENT + 0] = -1
    assert R.free_tent_space(st, 0) >= 0
    tent = F.GEM_VALUE + F.TENT_VALUE
    expected = [0.0, F.GEM_VALUE, tent, tent, tent]
    got = [F.action_value(st, TAB, 0, 0, 0, steps, -99, F.new_buffers()) for steps in range(5)]
    assert got == expected
