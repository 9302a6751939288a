"""The Magnificent's rules on hand-built positions: each action, each round-end step and the
end scoring, against the seed and rules.md's interpretations."""

import numpy as np
import pytest

from sim.core.bits import popcount
from sim.core.rng import game_stream
from sim.magnificent import data as D
from sim.magnificent import moves as M
from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent import tables as T

DATA = D.load()
TAB = T.pack(DATA)
COLS = 8
TILE = {name: i for i, name in enumerate(DATA.camp_tile_names)}
POSTER = {name: i for i, name in enumerate(DATA.poster_names)}
TENT = {name: i for i, name in enumerate(DATA.tent_names)}
CARD = {name: i for i, name in enumerate(DATA.master_card_names)}
TRAINER = {name: i for i, name in enumerate(DATA.trainer_names)}
ORANGE, GREEN, PURPLE, CLEAR = range(4)
CTX = np.zeros(4, dtype=np.int64)


def fresh(n=4, side=0, seed=0):
    st = np.zeros(S.SIZE, dtype=np.int64)
    R.setup(st, TAB, n, side, game_stream(seed, 0), np.zeros(R.TMP, dtype=np.int64))
    return st


def bits(*squares):
    return sum(1 << (r * COLS + c) for r, c in squares)


def placement(t, mask):
    """The index of tile kind t's placement covering exactly ``mask``."""
    for k in range(TAB[T.PLACE_N + t]):
        if TAB[T.PLACE_MASK + t * T.MAX_PLACEMENTS + k] == mask:
            return k
    raise AssertionError("no such placement")


def legal(st, p, kind, ctx=None):
    out = np.zeros(M.MAX_MOVES, dtype=np.int64)
    n = M.legal_moves(st, TAB, p, kind, np.zeros(4, dtype=np.int64) if ctx is None else ctx,
                      out)
    return sorted(out[:n].tolist())


def turn(st, p, colour, pips, slot=0, clear_as=None):
    """Seat p takes a die and puts it on a card: the action's colour and power set."""
    kind = CLEAR if clear_as is not None else colour
    st[S.POOL + kind * S.PIPS + pips] += 1
    R.take_die(st, p, kind * 8 + pips)
    M.apply(st, TAB, p, M.K_CARD, slot, np.zeros(4, dtype=np.int64))
    if clear_as is not None:
        R.set_colour(st, p, clear_as)


# ---- setup -------------------------------------------------------------------------------

@pytest.mark.parametrize("n,dice,rows,posters", [(2, [3, 3, 3, 2], 3, 3), (3, [4, 4, 4, 3], 3, 3),
                                                 (4, [5, 5, 5, 4], 4, 4)])
def test_setup_by_player_count(n, dice, rows, posters):
    st = fresh(n)
    pool = st[S.POOL: S.POOL + 4 * S.PIPS].reshape(4, S.PIPS)
    assert pool.sum(axis=1).tolist() == dice and pool[:, 0].sum() == 0
    assert (st[S.DISPLAY_MASTER: S.DISPLAY_MASTER + 4] >= 0).sum() == rows
    assert (st[S.DISPLAY_TRAINER: S.DISPLAY_TRAINER + 4] >= 0).sum() == rows
    assert (st[S.POSTER_DISPLAY: S.POSTER_DISPLAY + 4] >= 0).sum() == posters
    assert (st[S.OFFER: S.OFFER + 4] >= 0).sum() == 4
    tents = st[S.TRACK_TENT: S.TRACK_TENT + 3 * S.MAX_TRACK]
    assert (tents >= 0).sum() == 15 and st[S.BOXED + S.B_TENTS] == 1
    boards = set()
    for p in range(n):
        b = S.seat(p)
        boards.add(st[b + S.BOARD])
        hand = st[b + S.HAND: b + S.HAND + 5]
        assert hand[4] == -1 and {DATA.master_cards["set"][c] for c in hand[:4]} == {
            st[b + S.BOARD] + 1}
        assert st[b + S.COINS] == 6 and st[b + S.MARKERS] == 1
        assert st[b + S.GEMS: b + S.GEMS + 4].tolist() == [1, 1, 1, 0]
        assert DATA.posters["starting"][st[b + S.POSTER]] == 1
        assert st[b + S.TENT] == S.PRINTED and (st[b + S.TENT + 1: b + S.TENT + 5] == -1).all()
        assert st[S.PERF + p] == p and st[b + S.HAT] == p  # start player lowest
    assert len(boards) == n
    # the unused starting sets are in the deck: 40 + 4 per board not in play, less the display
    assert st[S.MASTER_DECK_N] == 40 + 4 * (4 - n) - rows
    assert st[S.BOXED + S.B_POSTERS] == 6 - n


def test_side_b_starts_each_board_its_own_way():
    st = fresh(4, side=1)
    for p in range(4):
        b = S.seat(p)
        start = DATA.params["side_b"][D.BOARDS[st[b + S.BOARD]]]
        assert st[b + S.COINS] == start["coins"]
        assert st[b + S.MARKERS] == start["trainer_markers"]
        assert st[b + S.GEMS: b + S.GEMS + 4].tolist() == start["gems"]


def test_leftover_offer_tiles_go_back_into_the_deck():
    st = fresh(2)
    deck = st[S.TRAINER_DECK_N]
    M.apply(st, TAB, 1, M.K_TRAINER_SETUP, legal(st, 1, M.K_TRAINER_SETUP)[0], CTX)
    M.apply(st, TAB, 0, M.K_TRAINER_SETUP, legal(st, 0, M.K_TRAINER_SETUP)[0], CTX)
    assert st[S.seat(1) + S.OFFERED] != 0 and bin(st[S.seat(1) + S.OFFERED]).count("1") == 4
    assert bin(st[S.seat(0) + S.OFFERED]).count("1") == 3  # seat 1 picked first
    R.end_setup_offer(st, TAB, game_stream(1, 1))
    assert st[S.TRAINER_DECK_N] == deck + 2 and (st[S.OFFER: S.OFFER + 4] == -1).all()


# ---- power -------------------------------------------------------------------------------

def test_power_adds_this_rounds_dice_of_the_colour_and_a_clear_die_only_its_turn():
    st = fresh()
    turn(st, 0, GREEN, 4, slot=0)
    assert st[S.seat(0) + S.POWER] == 4
    R.end_turn(st, 0)
    turn(st, 0, ORANGE, 3, slot=1, clear_as=GREEN)  # a clear 3 as green: 3 + 4
    assert st[S.seat(0) + S.POWER] == 7
    R.end_turn(st, 0)
    turn(st, 0, GREEN, 2, slot=2)  # the clear die does not add to a later turn
    assert st[S.seat(0) + S.POWER] == 6
    assert st[S.seat(0) + S.SUM: S.seat(0) + S.SUM + 4].tolist() == [0, 6, 0, 3]


def test_gems_of_the_colour_and_clear_gems_add_two_each():
    st = fresh()
    b = S.seat(0)
    st[b + S.GEMS: b + S.GEMS + 4] = [0, 2, 0, 1]
    turn(st, 0, GREEN, 1)
    assert M.B_GEM in legal(st, 0, M.K_BOOST) and M.B_CLEAR in legal(st, 0, M.K_BOOST)
    for move in (M.B_GEM, M.B_GEM, M.B_CLEAR):
        M.apply(st, TAB, 0, M.K_BOOST, move, CTX)
    assert st[b + S.POWER] == 7 and st[b + S.GEMS: b + S.GEMS + 4].tolist() == [0, 0, 0, 0]
    assert M.B_GEM not in legal(st, 0, M.K_BOOST) and M.B_CLEAR not in legal(st, 0, M.K_BOOST)
    st[b + S.GEMS + ORANGE] = 3  # another colour's gems add nothing
    assert legal(st, 0, M.K_BOOST)[:2] == [M.STOP, M.B_BONUS]


def test_a_cards_top_bonus_once_and_the_copy_card():
    st = fresh()
    b = S.seat(0)
    st[b + S.HAND: b + S.HAND + 4] = [CARD["M07"], CARD["I-2"], CARD["I-1"], CARD["M17"]]
    turn(st, 0, ORANGE, 2, slot=0)  # M07 copies another card's top bonus (not a copy's)
    assert [m for m in legal(st, 0, M.K_BOOST) if M.B_BONUS <= m < M.B_TILE] == [
        M.B_COPY + 1, M.B_COPY + 2]
    M.apply(st, TAB, 0, M.K_BOOST, M.B_COPY + 1, CTX)  # I-2: power +2
    assert st[b + S.POWER] == 4 and st[b + S.BONUS_LEFT] == 0
    assert not any(M.B_BONUS <= m < M.B_TILE for m in legal(st, 0, M.K_BOOST))


def test_trainer_tiles_and_board_spaces_once_a_turn_one_marker_each():
    st = fresh()
    b = S.seat(0)
    st[b + S.TRAINERS: b + S.TRAINERS + 2] = [TRAINER["TR01"], TRAINER["TR03"]]
    st[b + S.TRAINERS_N] = 2
    st[b + S.MARKERS] = 2
    turn(st, 0, PURPLE, 5)
    assert [m for m in legal(st, 0, M.K_BOOST) if m >= M.B_TILE] == [
        M.B_TILE, M.B_TILE + 1, M.B_SPACE, M.B_SPACE + 1, M.B_SPACE + 2]
    M.apply(st, TAB, 0, M.K_BOOST, M.B_TILE, CTX)  # TR01: power +3
    assert st[b + S.POWER] == 8 and st[b + S.MARKERS_USED] == 1
    assert M.B_TILE not in legal(st, 0, M.K_BOOST)
    M.apply(st, TAB, 0, M.K_BOOST, M.B_SPACE, CTX)  # board space 1: travel +3
    assert st[b + S.TRAVEL_PLUS] == 3 and st[b + S.MARKERS_USED] == 2
    assert not [m for m in legal(st, 0, M.K_BOOST) if m >= M.B_TILE]  # no marker left
    assert R.reach(st, TAB, 0) == min(11, 12)
    R.end_turn(st, 0)
    assert st[b + S.USED] == 0 and st[b + S.MARKERS_USED] == 2  # back at the round's end


# ---- build -------------------------------------------------------------------------------

def test_tiles_turn_and_flip():
    """Every rotation and reflection is a placement: the S tetromino comes as S and Z, the
    T 4 ways, the L tetromino 8, the 2x3 block 2."""
    def shapes(t):
        out = set()
        for k in range(TAB[T.PLACE_N + t]):
            mask = int(TAB[T.PLACE_MASK + t * T.MAX_PLACEMENTS + k])
            cells = [(i // COLS, i % COLS) for i in range(48) if mask >> i & 1]
            r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in cells)))
        return out
    assert len(shapes(TILE["orange-small"])) == 4
    assert len(shapes(TILE["purple-small"])) == 8
    assert len(shapes(TILE["green-large"])) == 2
    assert len(shapes(TILE["orange-large"])) == 8
    s = shapes(TILE["green-small"])
    assert ((0, 1), (0, 2), (1, 0), (1, 1)) in s and ((0, 0), (0, 1), (1, 1), (1, 2)) in s


def test_first_tile_anywhere_then_edge_contact_and_no_overlap():
    st = fresh()
    b = S.seat(0)
    t = TILE["green-large"]  # a 2x3 block
    assert all(R.fits(TAB, 0, t, k) for k in range(TAB[T.PLACE_N + t]))
    first = placement(t, bits((2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4)))
    st[b + S.PENDING + 1] = 1
    R.place(st, TAB, 0, t, first)
    camp = st[b + S.CAMP]
    beside = placement(t, bits((2, 5), (2, 6), (2, 7), (3, 5), (3, 6), (3, 7)))
    overlap = placement(t, bits((3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (4, 5)))
    corner = placement(t, bits((4, 5), (4, 6), (4, 7), (5, 5), (5, 6), (5, 7)))
    apart = placement(t, bits((0, 5), (0, 6), (0, 7), (1, 5), (1, 6), (1, 7)))
    assert R.fits(TAB, camp, t, beside)
    assert not R.fits(TAB, camp, t, overlap)
    assert not R.fits(TAB, camp, t, corner)  # a corner is not an edge
    assert not R.fits(TAB, camp, t, apart)
    ctx = np.zeros(4, dtype=np.int64)
    ctx[0] = t
    assert beside in legal(st, 0, M.K_PLACE, ctx) and corner not in legal(st, 0, M.K_PLACE, ctx)


def test_a_placed_tile_takes_every_covered_squares_bonus():
    st = fresh()
    b = S.seat(0)
    t = TILE["green-large"]  # covers (0,3) coins 2 and (1,6)? no: (0,2..4),(1,2..4)
    st[b + S.PENDING + 1] = 1
    R.place(st, TAB, 0, t, placement(t, bits((0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4))))
    assert st[b + S.COINS] == 6 + 2 and st[S.TILE_SUPPLY + t] == 11
    t = TILE["orange-small"]  # the T over (1,6) poster and ... (2,5) points 3
    R.place(st, TAB, 0, t, placement(t, bits((1, 5), (1, 6), (1, 7), (2, 6))))
    assert st[b + S.POSTERS_DUE] == 1
    t = TILE["purple-small"]
    R.place(st, TAB, 0, t, placement(t, bits((2, 3), (2, 4), (2, 5), (3, 3))))
    assert st[b + S.SCORE] == 3 and st[b + S.SRC + S.SRC_BONUSES] == 3
    assert st[b + S.PLACED: b + S.PLACED + 6].sum() == 3
    assert popcount(st[b + S.CAMP]) == 14


def test_build_levels_by_power_trainers_and_supply():
    st = fresh()
    b = S.seat(0)
    turn(st, 0, ORANGE, 5)  # power 5: levels 1 (2) and 2 (4)
    assert [m for m in legal(st, 0, M.K_ACTION) if m < M.A_TRAVEL] == [0, 1]
    st[b + S.LEVEL_PLUS] = 2  # two build levels above
    assert [m for m in legal(st, 0, M.K_ACTION) if m < M.A_TRAVEL] == [0, 1, 2, 3]
    st[S.TILE_SUPPLY + TILE["orange-large"]] = 0  # no large orange tile left
    assert [m for m in legal(st, 0, M.K_ACTION) if m < M.A_TRAVEL] == [0, 2]


def test_a_levels_tile_that_no_longer_fits_goes_back():
    """rules.md 21: a level is open when each of its tiles fits the camp as it stands; a
    tile that no longer fits after the level's first goes back to the supply."""
    st = fresh()
    b = S.seat(0)
    turn(st, 0, GREEN, 6)
    full = TAB[T.PARAMS + T.P["camp_all"]]
    st[b + S.CAMP] = full & ~bits((0, 0), (0, 1), (1, 0), (1, 1), (0, 6), (0, 7), (1, 6),
                                  (1, 7))  # two 2x2 holes: no 2x3 block, no S fits
    assert not R.level_open(st, TAB, 0, 1) and not R.level_open(st, TAB, 0, 2)
    st[b + S.CAMP] = full & ~bits((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
    assert R.level_open(st, TAB, 0, 1) and R.level_open(st, TAB, 0, 2)
    R.start_build(st, TAB, 0, 2)  # small + small: the first S fills half the hole
    t = R.pending_tile(st, TAB, 0)
    assert t == TILE["green-small"]
    R.place(st, TAB, 0, t, placement(t, bits((0, 1), (0, 2), (1, 0), (1, 1))))
    assert R.pending_tile(st, TAB, 0) == -1 and st[b + S.PENDING] == 0
    assert st[S.TILE_SUPPLY + t] == 15  # the second never left the supply


# ---- travel ------------------------------------------------------------------------------

def test_travel_takes_gems_passed_and_the_tent_it_ends_on():
    st = fresh()
    b = S.seat(0)
    turn(st, 0, ORANGE, 4)
    tent = st[S.TRACK_TENT + 4] = TENT["T01"]  # orange track: gem, tent, gem, tent
    R.travel(st, TAB, 0, 4)
    assert st[S.WAGON] == 4 and st[b + S.GEMS: b + S.GEMS + 4].tolist() == [2, 2, 1, 0]
    assert st[b + S.TENT_DUE] == tent and st[S.TRACK_TENT + 4] == -1
    assert st[S.TRACK_TENT + 2] >= 0  # passed, not taken
    assert st[b + S.POSTERS_DUE] == 0  # a space covered by a tent gives no poster
    assert legal(st, 0, M.K_TENT_SPACE) == [1, 2, 3, 4]
    coins = st[b + S.COINS]
    R.place_tent(st, TAB, 0, 1)  # tent space 2: 2 coins, and T01's own 2 coins
    assert st[b + S.COINS] == coins + 2 + 2 and st[b + S.TENT + 1] == tent
    st[b + S.TENT_DUE] = TENT["T04"]  # a clear gem, onto tent space 4: a clear gem
    R.place_tent(st, TAB, 0, 3)
    assert st[b + S.GEMS + CLEAR] == 2 and st[b + S.COINS] == coins + 4


def test_gems_beyond_three_become_coins_and_a_taken_tents_space_gives_posters():
    st = fresh()
    b = S.seat(0)
    st[b + S.GEMS + ORANGE] = 3
    st[S.TRACK_TENT + 2] = -1  # a tent taken earlier: its poster symbol shows
    turn(st, 0, ORANGE, 2)
    R.travel(st, TAB, 0, 2)
    assert st[b + S.GEMS + ORANGE] == 3 and st[b + S.COINS] == 7
    assert st[b + S.POSTERS_DUE] == 1 and st[b + S.TENT_DUE] == -1


def test_no_free_tent_space_no_tent_and_the_wagon_goes_round():
    st = fresh()
    b = S.seat(0)
    st[b + S.TENT + 1: b + S.TENT + 5] = [0, 1, 2, 3]
    st[S.WAGON] = 10
    turn(st, 0, ORANGE, 6)
    tent = st[S.TRACK_TENT + 4]
    R.travel(st, TAB, 0, 6)  # 11, 0 (start), 1, 2, 3, 4
    assert st[S.WAGON] == 4 and st[S.TRACK_TENT + 4] == tent and st[b + S.TENT_DUE] == -1


def test_posters_from_the_deck_or_display_and_a_full_board_replaces_or_lets_go():
    st = fresh()
    b = S.seat(0)
    st[b + S.POSTERS_DUE] = 1
    shown = st[S.POSTER_DISPLAY + 2]
    deck = st[S.POSTER_DECK_N]
    assert legal(st, 0, M.K_POSTER) == [0, 1, 2, 3, 4]
    R.take_poster(st, TAB, 0, 2)
    assert st[b + S.NEW_POSTER] == shown and st[S.POSTER_DECK_N] == deck - 1
    assert st[S.POSTER_DISPLAY + 2] >= 0  # refilled at once
    assert legal(st, 0, M.K_POSTER_SPACE) == [1, 2, 3, 4]
    st[b + S.POSTER + 1: b + S.POSTER + 5] = [10, 11, 12, 13]
    assert legal(st, 0, M.K_POSTER_SPACE) == [0, 1, 2, 3, 4, M.DISCARD_NEW]
    R.put_poster(st, 0, 3)
    assert st[b + S.POSTER + 3] == shown and st[S.DISCARDED + S.D_POSTERS] == 1


# ---- perform -----------------------------------------------------------------------------

def _board(st, p, posters, tents):
    b = S.seat(p)
    st[b + S.POSTER: b + S.POSTER + 5] = [POSTER[x] if x else -1 for x in posters]
    st[b + S.TENT: b + S.TENT + 5] = [S.PRINTED if x == "printed" else TENT[x] if x else -1
                                      for x in tents]


def test_a_show_needs_a_tent_below_the_tiles_and_the_gems():
    st = fresh()
    b = S.seat(0)
    _board(st, 0, ["Larissa", "P02", "P03", "P01", None], ["printed", "T01", "T13", None, None])
    st[b + S.PLACED + TILE["orange-small"]] = 1
    st[b + S.PLACED + TILE["orange-large"]] = 1
    st[b + S.GEMS: b + S.GEMS + 4] = [0, 0, 0, 0]
    st[b + S.SHOWS_LEFT] = 3
    # Larissa: orange-small, printed tent: yes. P02: orange-large + orange gem: no gem.
    # P03: orange-small + green-small: no green-small. P01: no tent below.
    assert legal(st, 0, M.K_SHOW) == [M.STOP, 1]
    st[b + S.GEMS + CLEAR] = 1  # a clear gem pays the orange gem (rules.md 20)
    assert legal(st, 0, M.K_SHOW) == [M.STOP, 1, 2]
    R.show(st, TAB, 0, 0)  # Larissa over the printed tent: 3 points, 1 coin, nothing more
    assert st[b + S.SCORE] == 3 and st[b + S.COINS] == 7 and st[b + S.SHOWS] == 1
    assert st[b + S.POSTER] == -1 and st[b + S.SHOWS_LEFT] == 2
    # the built orange-small served Larissa: no other poster may use it this performance
    _board(st, 0, ["Bronson", "P02", None, "P01", None], ["printed", "T01", "T13", "T02", None])
    st[b + S.PLACED + TILE["green-small"]] = 1
    assert legal(st, 0, M.K_SHOW) == [M.STOP, 1, 2]  # P01 needs the used orange-small
    R.show(st, TAB, 0, 1)  # P02 (6 + 1 coin) over T01 (4 points): the clear gem pays
    assert st[b + S.SCORE] == 3 + 6 + 4 and st[b + S.GEMS + CLEAR] == 0
    assert st[b + S.SRC + S.SRC_POSTERS] == 9 and st[b + S.SRC + S.SRC_TENTS] == 4


def test_a_gem_tent_costs_its_gem_at_each_show():
    st = fresh()
    b = S.seat(0)
    _board(st, 0, ["Bronson", None, None, None, None], ["T14", None, None, None, None])
    st[b + S.PLACED + TILE["green-small"]] = 1
    st[b + S.GEMS: b + S.GEMS + 4] = [3, 0, 3, 0]
    st[b + S.SHOWS_LEFT] = 1
    assert not R.can_show(st, TAB, 0, 0)  # T14 costs a green gem
    st[b + S.GEMS + GREEN] = 1
    R.show(st, TAB, 0, 0)
    assert st[b + S.GEMS + GREEN] == 0 and st[b + S.SCORE] == 3 + 6


def test_perform_on_a_free_space_the_power_reaches_up_or_down():
    st = fresh()
    b = S.seat(1)
    turn(st, 1, PURPLE, 5)
    spaces = [m - M.A_PERFORM for m in legal(st, 1, M.K_ACTION) if m >= M.A_PERFORM]
    assert spaces == [4, 5]  # 0-3 hold the hats; 5: power 3, 6: power 5
    R.perform(st, TAB, 1, 5)
    assert st[S.PERF + 1] == -1 and st[S.PERF + 5] == 1 and st[b + S.HAT] == 5
    R.end_turn(st, 1)
    turn(st, 1, PURPLE, 1, slot=1)  # power 6: down to the free space 2 is allowed
    spaces = [m - M.A_PERFORM for m in legal(st, 1, M.K_ACTION) if m >= M.A_PERFORM]
    assert 1 in spaces and 5 not in spaces


def test_rearranging_moves_a_poster_to_an_empty_space():
    st = fresh()
    b = S.seat(0)
    _board(st, 0, [None, "P05", None, None, None], ["printed", None, None, None, None])
    assert legal(st, 0, M.K_REARRANGE) == [M.STOP] + [1 + 5 + j for j in (0, 2, 3, 4)]
    M.apply(st, TAB, 0, M.K_REARRANGE, 1 + 5 + 0, CTX)
    assert st[b + S.POSTER] == POSTER["P05"] and st[b + S.POSTER + 1] == -1


# ---- round end ---------------------------------------------------------------------------

@pytest.mark.parametrize("r,penalty", [(0, 1), (1, 2), (2, 3)])
def test_paying_for_dice_and_the_missing_coin_penalty(r, penalty):
    st = fresh()
    b = S.seat(0)
    st[b + S.SUM: b + S.SUM + 4] = [5, 9, 3, 4]  # highest colour 9, plus clear 4
    assert R.dice_cost(st, 0) == 13
    st[b + S.COINS] = 10
    R.pay_dice(st, TAB, 0, r)
    assert st[b + S.COINS] == 0 and st[b + S.SCORE] == -3 * penalty
    assert st[b + S.SRC + S.SRC_PENALTIES] == -3 * penalty


def test_the_variant_puts_the_start_players_hat_on_top_so_it_drafts_first():
    """start_player_hat_on_top=1: the hats go on the track in reverse turn order, so seat 0
    drafts first in round 1 (the rulebook: the start player on the lowest space)."""
    tab = T.pack(D.load(sets={"start_player_hat_on_top": 1}))
    st = np.zeros(S.SIZE, dtype=np.int64)
    R.setup(st, tab, 3, 0, game_stream(0, 0), np.zeros(R.TMP, dtype=np.int64))
    assert [st[S.seat(p) + S.HAT] for p in range(3)] == [2, 1, 0]
    assert st[S.PERF: S.PERF + 3].tolist() == [2, 1, 0] and st[S.START] == 0
    order = np.zeros(4, dtype=np.int64)
    R.draft_order(st, order)
    assert order[:3].tolist() == [0, 1, 2]
    R.draft_order(fresh(3), order)
    assert order[:3].tolist() == [2, 1, 0]


def test_the_draft_goes_from_the_highest_hat_and_round_three_has_no_trainer_tiles():
    st = fresh(3)
    st[S.PERF: S.PERF + 12] = -1
    for p, space in ((0, 9), (1, 2), (2, 6)):
        st[S.PERF + space] = p
        st[S.seat(p) + S.HAT] = space
    order = np.zeros(4, dtype=np.int64)
    R.draft_order(st, order)
    assert order[:3].tolist() == [0, 2, 1]
    card, tile = st[S.DISPLAY_MASTER + 1], st[S.DISPLAY_TRAINER + 1]
    R.draft(st, TAB, 0, 1, 0)
    b = S.seat(0)
    assert st[b + S.HAND + 4] == card and st[b + S.TRAINERS_N] == 1 and st[b + S.TRAINERS] == tile
    assert legal(st, 2, M.K_DRAFT) == [0, 2]
    st[b + S.MARKERS_USED] = 1
    st[b + S.DIE] = 13
    st[b + S.SUM + ORANGE] = 5
    R.next_round(st, TAB, 0, game_stream(2, 2))  # the hats slide down, in order
    assert st[S.PERF: S.PERF + 3].tolist() == [1, 2, 0] and st[S.START] == 1
    assert st[b + S.MARKERS_USED] == 0 and st[b + S.DIE] == -1 and st[b + S.SUM] == 0
    assert (st[S.DISPLAY_TRAINER: S.DISPLAY_TRAINER + 4] >= 0).sum() == 3
    R.next_round(st, TAB, 1, game_stream(2, 3))  # the display for round 3's draft
    assert (st[S.DISPLAY_MASTER: S.DISPLAY_MASTER + 4] >= 0).sum() == 3
    assert (st[S.DISPLAY_TRAINER: S.DISPLAY_TRAINER + 4] >= 0).sum() == 0


def test_scoring_a_master_card_discards_it_and_the_hand_closes_up():
    st = fresh()
    b = S.seat(0)
    st[b + S.HAND: b + S.HAND + 5] = [CARD["I-1"], CARD["I-2"], CARD["I-3"], CARD["I-4"],
                                     CARD["M05"]]
    st[b + S.GEMS: b + S.GEMS + 4] = [2, 1, 0, 3]  # M05: 2 points a gem
    R.score_master(st, TAB, 0, 4, 1)
    assert st[b + S.SCORE] == 12 and st[b + S.SCORED + 1] == CARD["M05"]
    assert st[b + S.HAND + 4] == -1 and st[S.DISCARDED + S.D_MASTERS] == 1


@pytest.mark.parametrize("card,setup,points", [
    ("I-1", {"camp_rows": 2}, 14),  # 7 a filled row
    ("II-1", {"camp_sections": 1}, 5),  # 5 a filled section
    ("I-2", {"shows": 4}, 12),  # 3 a show
    ("II-2", {"tents": 3}, 9),  # 3 a tent held, the printed one counted
    ("I-3", {"placed": {"orange-small": 2, "orange-large": 1, "green-small": 5}}, 6),
    ("IV-2", {"placed": {"orange-large": 2, "purple-large": 1, "green-small": 5}}, 6),
    ("I-4", {"gems": [1, 2, 0, 1]}, 4),  # 1 a gem
    ("II-4", {"coins": 11}, 5),  # 1 per 2 coins
    ("III-4", {"trainers": 2}, 6),  # 3 a trainer tile
    ("IV-3", {"posters": 3}, 6),  # 2 a poster held
])
def test_every_scoring_condition(card, setup, points):
    st = fresh()
    b = S.seat(0)
    st[b + S.POSTER: b + S.POSTER + 5] = -1
    if "camp_rows" in setup:
        st[b + S.CAMP] = bits(*[(r, c) for r in range(2) for c in range(8)])
    if "camp_sections" in setup:
        st[b + S.CAMP] = bits(*[(r, c) for r in range(2) for c in range(4)]) | bits((3, 3))
    st[b + S.SHOWS] = setup.get("shows", 0)
    for k in range(1, setup.get("tents", 1)):
        st[b + S.TENT + k] = k
    for name, n in setup.get("placed", {}).items():
        st[b + S.PLACED + TILE[name]] = n
    if "gems" in setup:
        st[b + S.GEMS: b + S.GEMS + 4] = setup["gems"]
    st[b + S.COINS] = setup.get("coins", 0)
    st[b + S.TRAINERS_N] = setup.get("trainers", 0)
    for k in range(setup.get("posters", 0)):
        st[b + S.POSTER + k] = k
    assert R.master_value(st, TAB, 0, CARD[card]) == points


# ---- the end -----------------------------------------------------------------------------

def test_the_gem_fill_completes_a_section_with_a_gem_a_square():
    st = fresh()
    b = S.seat(0)
    section = bits(*[(r, c) for r in range(2) for c in range(4)])
    st[b + S.CAMP] = section & ~bits((0, 0), (1, 3))  # two gaps in section 1
    st[b + S.GEMS: b + S.GEMS + 4] = [1, 0, 0, 0]
    assert legal(st, 0, M.K_FILL) == [M.STOP]  # two gaps, one gem
    st[b + S.GEMS + CLEAR] = 1
    assert legal(st, 0, M.K_FILL) == [M.STOP, 1]
    R.fill(st, TAB, 0, 0)
    assert st[b + S.GEMS: b + S.GEMS + 4].tolist() == [0, 0, 0, 0]
    assert R.filled_sections(st, TAB, 0) == 1 and popcount(st[b + S.FILLED]) == 2
    assert st[b + S.PLACED: b + S.PLACED + 6].sum() == 0  # gems are no tiles
    # a section its gems filled is full: with gems to spare, it is not filled (nor paid) again
    st[b + S.GEMS: b + S.GEMS + 4] = [3, 3, 3, 3]
    assert R.section_gaps(st, TAB, 0, 0) == 0 and not R.can_fill(st, TAB, 0, 0)
    assert 1 not in legal(st, 0, M.K_FILL)  # (the empty sections are, 8 gems each)
    # gems already in a section count: one tile square and one gem square short of two
    st = fresh()
    st[b + S.CAMP] = section & ~bits((0, 0), (0, 1), (1, 3))
    st[b + S.FILLED] = bits((0, 0))
    st[b + S.GEMS: b + S.GEMS + 4] = [0, 0, 0, 2]
    assert R.section_gaps(st, TAB, 0, 0) == 2 and legal(st, 0, M.K_FILL) == [M.STOP, 1]
    R.fill(st, TAB, 0, 0)
    assert st[b + S.GEMS + CLEAR] == 0 and R.filled_sections(st, TAB, 0) == 1


def test_the_gem_fill_can_be_turned_off():
    d = D.load(sets={"gems_per_gap_square": 0})
    tab = T.pack(d)
    st = fresh()
    b = S.seat(0)
    st[b + S.CAMP] = bits(*[(r, c) for r in range(2) for c in range(4)]) & ~bits((0, 0))
    st[b + S.GEMS + CLEAR] = 3
    assert not R.can_fill(st, tab, 0, 0) and R.can_fill(st, TAB, 0, 0)


def test_end_scoring_halves_each_card_down_counts_coins_and_sections():
    st = fresh(2)
    b = S.seat(0)
    st[b + S.HAND: b + S.HAND + 5] = [CARD["I-2"], CARD["II-2"], CARD["I-4"], CARD["III-4"], -1]
    st[b + S.SHOWS] = 3  # I-2: 9 -> 4
    st[b + S.TENT + 1] = 5  # II-2: 2 tents, 6 -> 3
    st[b + S.GEMS: b + S.GEMS + 4] = [1, 0, 0, 0]  # I-4: 1 -> 0
    st[b + S.TRAINERS_N] = 1  # III-4: 3 -> 1
    st[b + S.COINS] = 14  # 2 points
    st[b + S.CAMP] = bits(*[(r, c) for r in range(4) for c in range(4)])  # sections 1 and 3
    R.end_scoring(st, TAB)
    assert st[b + S.SRC + S.SRC_MASTERS_END] == 4 + 3 + 0 + 1
    assert st[b + S.SRC + S.SRC_COINS] == 2 and st[b + S.SRC + S.SRC_SECTIONS] == 8
    assert st[b + S.SCORE] == 8 + 2 + 8 and st[S.OVER] == 1


def test_ties_go_to_the_most_coins_then_are_shared():
    st = fresh(3)
    for p, (score, coins) in enumerate([(50, 3), (50, 4), (50, 4)]):
        st[S.seat(p) + S.SCORE] = score
        st[S.seat(p) + S.COINS] = coins
    wins = np.zeros(4)
    ranks = np.zeros(4, dtype=np.int64)
    R.standing(st, wins, ranks)
    assert wins[:3].tolist() == [0, 0.5, 0.5] and ranks[:3].tolist() == [3, 1, 1]


@pytest.mark.parametrize("tent", range(16))
def test_every_tent_gives_its_placement_bonus_and_pays_its_show(tent):
    """Each of the 16 tents onto tent space 5 (3 points): its own bonus and the space's;
    then a show of Larissa (3 points, a coin) over it pays the tent's points and coins and
    costs its gem."""
    st = fresh()
    b = S.seat(0)
    st[b + S.TENT_DUE] = tent
    before = st[b: b + S.SEAT_SIZE].copy()
    R.place_tent(st, TAB, 0, 4)
    gain = st[b: b + S.SEAT_SIZE] - before
    kind, amount = D.TENT_BONUSES[DATA.tents["bonus"][tent]], DATA.tents["amount"][tent]
    assert gain[S.SCORE] == 3 + (amount if kind == "points" else 0)
    assert gain[S.COINS] == (amount if kind == "coins" else 0)
    assert st[b + S.MARKERS] == 1 + (amount if kind == "trainer" else 0)
    assert gain[S.GEMS + CLEAR] == (amount if kind == "clear_gem" else 0)
    _board(st, 0, [None, None, None, None, "Larissa"], ["printed", None, None, None,
                                                        DATA.tent_names[tent]])
    st[b + S.PLACED + TILE["orange-small"]] = 1
    st[b + S.GEMS: b + S.GEMS + 4] = [1, 1, 1, 1]
    st[b + S.SHOWS_LEFT] = 1
    score, coins = st[b + S.SCORE], st[b + S.COINS]
    R.show(st, TAB, 0, 4)
    t = DATA.tents[tent]
    assert st[b + S.SCORE] - score == 3 + t["show_points"]
    assert st[b + S.COINS] - coins == 1 + t["show_coins"]
    assert st[b + S.GEMS: b + S.GEMS + 4].sum() == 4 - t["gems"]


@pytest.mark.parametrize("poster", ["P01", "P02", "P03", "P13", "P15", "P16", "Alberic"])
def test_posters_of_one_two_and_three_tiles_with_and_without_gems(poster):
    """A poster's show needs each tile it shows (twice for two of a kind) and its gems,
    and pays its points and coins."""
    st = fresh()
    b = S.seat(0)
    row = DATA.posters[POSTER[poster]]
    _board(st, 0, [poster, None, None, None, None], ["T01", None, None, None, None])
    st[b + S.SHOWS_LEFT] = 1
    st[b + S.GEMS: b + S.GEMS + 4] = 0
    tiles = np.bincount(row["tiles"][: row["n_tiles"]], minlength=6)
    for t in range(6):
        st[b + S.PLACED + t] = tiles[t]
    if row["gems"]:
        assert not R.can_show(st, TAB, 0, 0)
        st[b + S.GEMS + row["gem_colour"]] = row["gems"]
    for t in np.flatnonzero(tiles):  # one tile short: no show
        st[b + S.PLACED + t] -= 1
        assert not R.can_show(st, TAB, 0, 0)
        st[b + S.PLACED + t] += 1
    assert R.can_show(st, TAB, 0, 0)
    R.show(st, TAB, 0, 0)
    assert st[b + S.SCORE] == row["points"] + 4  # T01: 4 points
    assert st[b + S.COINS] == 6 + row["coins"] and st[b + S.GEMS: b + S.GEMS + 4].sum() == 0


def test_no_show_without_a_tent_below_whatever_else_is_ready():
    st = fresh()
    b = S.seat(0)
    _board(st, 0, [None, "P01", "P17", None, None], ["printed", None, "T01", None, None])
    st[b + S.PLACED: b + S.PLACED + 6] = 3
    st[b + S.GEMS: b + S.GEMS + 4] = 3
    st[b + S.SHOWS_LEFT] = 2
    assert legal(st, 0, M.K_SHOW) == [M.STOP, 3]  # P17 over T01, not P01 over nothing


def test_the_coins_condition_reads_its_cards_parameter():
    """1 point per ``scoring_param`` coins: every shipped card says 2, so a card file's 3 is
    read from the card, not assumed."""
    tab = TAB.copy()
    card = CARD["II-4"]
    tab[T.M_PARAM + card] = 3
    st = fresh()
    st[S.seat(0) + S.COINS] = 11
    assert R.master_value(st, tab, 0, card) == 3 and R.master_value(st, TAB, 0, card) == 5


def test_scoring_a_card_from_the_middle_of_the_hand_keeps_the_other_four():
    st = fresh()
    b = S.seat(0)
    hand = [CARD["I-1"], CARD["I-2"], CARD["I-3"], CARD["I-4"], CARD["M05"]]
    st[b + S.HAND: b + S.HAND + 5] = hand
    R.score_master(st, TAB, 0, 1, 0)
    assert st[b + S.HAND: b + S.HAND + 5].tolist() == [hand[0], *hand[2:], -1]
    assert st[b + S.SCORED] == CARD["I-2"]
