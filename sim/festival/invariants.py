"""Conservation checks on a Festival state, compiled so that tests can run them after every
turn of thousands of games. Each returns a code: 0 when the state is sound."""

import numpy as np
from numba import njit

from sim.core.bits import popcount
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival import tables as TB

CODES = {
    0: "ok",
    1: "a draw stack is not a permutation of the tile set",
    2: "tiles on boards do not equal tiles drawn from the stacks",
    3: "a seat's tiles on board differ from the tiles it took",
    4: "a board view disagrees with the tiles on the board",
    5: "objective cards are lost or duplicated",
    6: "more uncompleted objectives than allowed",
    7: "crowd-pleaser owners disagree with the seats' counts",
    8: "completed-objective points disagree with the cards",
}


@njit
def check_state(st, tab):
    n = st[S.N_PLAYERS]
    tiles = tab[TB.PARAMS + S.P_TILES_PER_PLAYER]
    drawn = 0
    for s in range(n):
        seen = np.int64(0)
        for k in range(tiles):
            tile = st[S.STACK + s * S.STACK_CAP + k]
            if tile < 0 or tile >= tiles or (seen >> tile) & 1:
                return 1
            seen |= np.int64(1) << tile
        if not 0 <= st[S.STACK_N + s] <= tiles:
            return 1
        drawn += tiles - st[S.STACK_N + s]
    on_boards = 0
    cards = np.int64(0)
    crowd_total = 0
    for p in range(n):
        b = S.SEAT + p * S.SEAT_SIZE
        seat_tiles = 0
        for c in range(S.CELLS):
            h = st[b + S.HEIGHT + c]
            top = st[b + S.TOP + c]
            seat_tiles += h
            if (h == 0) != (top < 0):
                return 4
        # Every mask of the view, recomputed from the board (no allocation: see play_game).
        for k in range(S.V_DONE_N):
            expect = np.int64(0)
            for c in range(S.CELLS):
                top = st[b + S.TOP + c]
                if top < 0:
                    continue
                if k < S.V_DES:
                    hit = tab[TB.TILE_COLOUR + top] == k - S.V_COL
                elif k < S.V_LEVEL:
                    hit = tab[TB.TILE_DESIGN + top] == k - S.V_DES
                else:
                    hit = st[b + S.HEIGHT + c] > k - S.V_LEVEL
                if hit:
                    expect |= R.bit(c)
            if expect != st[b + k]:
                return 4
        for k in range(4):
            if (st[b + S.V_N_COL + k] != popcount(st[b + S.V_COL + k])
                    or st[b + S.V_N_DES + k] != popcount(st[b + S.V_DES + k])):
                return 4
        for k in range(S.LEVELS):
            if st[b + S.V_N_LEVEL + k] != popcount(st[b + S.V_LEVEL + k]):
                return 4
        if st[b + S.V_ALL] != -1 or st[b + S.V_NONE] != 0:
            return 4
        if seat_tiles != st[b + S.TILES_TAKEN]:
            return 3
        on_boards += seat_tiles
        if st[b + S.HELD_N] > tab[TB.PARAMS + S.P_MAX_UNCOMPLETED]:
            return 6
        points = 0
        done = st[b + S.DONE_SET]
        for card in range(TB.MAX_CARDS):
            if (done >> card) & 1:
                points += tab[TB.CARD_VALUE + card]
        if points != st[b + S.DONE_POINTS] or popcount(done) != st[b + S.V_DONE_N]:
            return 8
        for i in range(st[b + S.HELD_N]):
            card = st[b + S.HELD + i]
            if (cards >> card) & 1 or (done >> card) & 1:
                return 5
            cards |= np.int64(1) << card
        if cards & done:
            return 5
        cards |= done
        crowd_total += st[b + S.CROWD_N]
    if on_boards != drawn:
        return 2
    for q in range(tab[TB.PARAMS + S.P_PILES]):
        for k in range(st[S.PILE_N + q]):
            card = st[S.PILE + q * S.PILE_CAP + k]
            if (cards >> card) & 1:
                return 5
            cards |= np.int64(1) << card
    n_deck = tab[TB.PARAMS + S.P_PILES] * tab[TB.PARAMS + S.P_PILE_SIZE]
    for card in range(n_deck):
        if not (cards >> card) & 1:
            return 5
    if popcount(cards) != n_deck + n:
        return 5
    owned = 0
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        if st[S.CROWD_OWNER + k] >= 0:
            owned += 1
    if owned != crowd_total:
        return 7
    return 0
