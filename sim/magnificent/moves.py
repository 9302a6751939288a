"""The Magnificent's decisions: each kind's legal moves and how a move is applied.

A turn is small steps, never scored whole: the die, the master card it goes on, a clear
die's colour, boosts one at a time (a gem, a card's top bonus, a trainer), the action, then
the action's own steps (each tile's placement, each poster and its space, the tent's space,
each show, each poster moved). A move is one int whose meaning depends on the kind (below).
``ctx[0]`` carries the tile kind being placed (K_PLACE).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent import tables as T

KINDS = ("trainer_setup", "die", "card", "colour", "boost", "action", "place", "poster",
         "poster_space", "tent_space", "show", "rearrange", "draft", "score", "fill")
(K_TRAINER_SETUP, K_DIE, K_CARD, K_COLOUR, K_BOOST, K_ACTION, K_PLACE, K_POSTER,
 K_POSTER_SPACE, K_TENT_SPACE, K_SHOW, K_REARRANGE, K_DRAFT, K_SCORE, K_FILL) = range(len(KINDS))
MAX_MOVES = T.MAX_PLACEMENTS
STOP = 0  # BOOST, SHOW, REARRANGE, FILL: stop
# BOOST moves
B_GEM, B_CLEAR, B_BONUS = 1, 2, 3  # a gem of the action's colour, a clear gem, the card's bonus
B_COPY = 4  # + hand position of the card whose bonus a copy card copies
B_TILE = B_COPY + S.CARD_SLOTS  # + trainer tile slot
B_SPACE = B_TILE + S.TRAINER_SLOTS  # + main-board trainer space
# ACTION moves
A_BUILD = 0  # + level (0-based)
A_TRAVEL = T.MAX_LEVELS  # + distance (1..)
A_PERFORM = A_TRAVEL + S.MAX_TRACK + 1  # + performance space
POSTER_DECK = 0  # POSTER: from the deck; 1 + display space
DISCARD_NEW = S.POSTER_SPACES  # POSTER_SPACE: every space full, the new poster discarded


@njit
def new_workspace():
    """A lane's context buffer (ctx)."""
    return np.zeros(4, dtype=np.int64)


@njit(inline="always")
def markers_free(st, p) -> bool:
    b = S.seat(p)
    return st[b + S.MARKERS] > st[b + S.MARKERS_USED]


@njit
def legal_moves(st, tab, p, kind, ctx, out) -> int:
    """Seat p's legal moves at a ``kind`` decision into ``out``; their number."""
    b = S.seat(p)
    n = 0
    if kind == K_TRAINER_SETUP:
        for i in range(S.DISPLAY_CAP):
            if st[S.OFFER + i] >= 0:
                out[n] = i
                n += 1
    elif kind == K_DIE:
        for k in range(S.KINDS):
            for pips in range(1, 7):
                if st[S.POOL + k * S.PIPS + pips] > 0:
                    out[n] = k * 8 + pips
                    n += 1
    elif kind == K_CARD:
        for i in range(S.CARD_SLOTS):
            if st[b + S.DIE + i] < 0 and st[b + S.HAND + i] >= 0:
                out[n] = i
                n += 1
    elif kind == K_COLOUR:
        for c in range(S.COLOURS):
            out[n] = c
            n += 1
    elif kind == K_BOOST:
        out[0] = STOP
        n = 1
        if st[b + S.GEMS + st[b + S.COLOUR]] > 0:
            out[n] = B_GEM
            n += 1
        if st[b + S.GEMS + S.CLEAR] > 0:
            out[n] = B_CLEAR
            n += 1
        if st[b + S.BONUS_LEFT]:
            card = st[b + S.HAND + st[b + S.SLOT]]
            if tab[T.M_BONUS + card] != T.MB_COPY:
                out[n] = B_BONUS
                n += 1
            else:
                for i in range(S.CARD_SLOTS):
                    other = st[b + S.HAND + i]
                    if i != st[b + S.SLOT] and other >= 0 and tab[T.M_BONUS + other] != T.MB_COPY:
                        out[n] = B_COPY + i
                        n += 1
        if markers_free(st, p):
            used = st[b + S.USED]
            for i in range(st[b + S.TRAINERS_N]):
                if not (used >> i) & 1:
                    out[n] = B_TILE + i
                    n += 1
            for i in range(tab[R.P_BOARD_SPACES]):
                if not (used >> (S.TRAINER_SLOTS + i)) & 1:
                    out[n] = B_SPACE + i
                    n += 1
    elif kind == K_ACTION:
        for level in range(tab[R.P_LEVELS]):
            if R.level_open(st, tab, p, level):
                out[n] = A_BUILD + level
                n += 1
        for d in range(1, R.reach(st, tab, p) + 1):
            out[n] = A_TRAVEL + d
            n += 1
        for s in range(tab[R.P_PERF]):
            if st[S.PERF + s] < 0 and tab[T.PERF_POWER + s] <= st[b + S.POWER]:
                out[n] = A_PERFORM + s
                n += 1
    elif kind == K_PLACE:
        t = ctx[0]
        camp = st[b + S.CAMP]
        for k in range(tab[T.PLACE_N + t]):
            if R.fits(tab, camp, t, k):
                out[n] = k
                n += 1
    elif kind == K_POSTER:
        if st[S.POSTER_DECK_N] > 0:
            out[n] = POSTER_DECK
            n += 1
        for i in range(S.DISPLAY_CAP):
            if st[S.POSTER_DISPLAY + i] >= 0:
                out[n] = 1 + i
                n += 1
    elif kind == K_POSTER_SPACE:
        for k in range(S.POSTER_SPACES):
            if st[b + S.POSTER + k] < 0:
                out[n] = k
                n += 1
        if n == 0:  # every space full: replace one, or let the new one go
            for k in range(S.POSTER_SPACES):
                out[n] = k
                n += 1
            out[n] = DISCARD_NEW
            n += 1
    elif kind == K_TENT_SPACE:
        for k in range(S.TENT_SPACES):
            if st[b + S.TENT + k] == -1:
                out[n] = k
                n += 1
    elif kind == K_SHOW:
        out[0] = STOP
        n = 1
        if st[b + S.SHOWS_LEFT] > 0:
            for k in range(S.POSTER_SPACES):
                if R.can_show(st, tab, p, k):
                    out[n] = 1 + k
                    n += 1
    elif kind == K_REARRANGE:
        out[0] = STOP
        n = 1
        for i in range(S.POSTER_SPACES):
            if st[b + S.POSTER + i] >= 0:
                for j in range(S.POSTER_SPACES):
                    if st[b + S.POSTER + j] < 0:
                        out[n] = 1 + i * S.POSTER_SPACES + j
                        n += 1
    elif kind == K_DRAFT:
        for i in range(S.DISPLAY_CAP):
            if st[S.DISPLAY_MASTER + i] >= 0:
                out[n] = i
                n += 1
    elif kind == K_SCORE:
        for i in range(S.HAND_CAP):
            if st[b + S.HAND + i] >= 0:
                out[n] = i
                n += 1
    elif kind == K_FILL:
        out[0] = STOP
        n = 1
        for s in range(tab[R.P_SECTIONS]):
            if R.can_fill(st, tab, p, s):
                out[n] = 1 + s
                n += 1
    return n


@njit
def boost(st, tab, p, move) -> None:
    b = S.seat(p)
    if move == B_GEM or move == B_CLEAR:
        R.spend_gem(st, p, st[b + S.COLOUR] if move == B_GEM else S.CLEAR)
        st[b + S.POWER] += tab[R.P_GEM_POWER]
    elif move == B_BONUS:
        st[b + S.BONUS_LEFT] = 0
        R.master_bonus(st, tab, p, st[b + S.HAND + st[b + S.SLOT]])
    elif move < B_TILE:
        st[b + S.BONUS_LEFT] = 0
        R.master_bonus(st, tab, p, st[b + S.HAND + move - B_COPY])
    elif move < B_SPACE:
        i = move - B_TILE
        st[b + S.USED] |= 1 << i
        st[b + S.MARKERS_USED] += 1
        t = st[b + S.TRAINERS + i]
        R.trainer_effect(st, tab, p, tab[T.TR_EFFECT + t], tab[T.TR_AMOUNT + t])
    else:
        i = move - B_SPACE
        st[b + S.USED] |= 1 << (S.TRAINER_SLOTS + i)
        st[b + S.MARKERS_USED] += 1
        R.trainer_effect(st, tab, p, tab[T.SPACE_EFFECT + i], tab[T.SPACE_AMOUNT + i])


@njit
def apply(st, tab, p, kind, move, ctx) -> int:
    """Apply seat p's ``move`` at a ``kind`` decision. Returns what the game loop needs
    next: the action's type at ACTION (0 build, 1 travel, 2 perform), else 0."""
    b = S.seat(p)
    if kind == K_TRAINER_SETUP:
        for i in range(S.DISPLAY_CAP):
            if st[S.OFFER + i] >= 0:
                st[b + S.OFFERED] |= 1 << st[S.OFFER + i]
        t = st[S.OFFER + move]
        st[S.OFFER + move] = -1
        st[b + S.TRAINERS] = t
        st[b + S.TRAINERS_N] = 1
        st[b + S.START_TRAINER] = t
    elif kind == K_DIE:
        R.take_die(st, p, move)
    elif kind == K_CARD:
        R.put_die(st, p, move)
        code = st[b + S.TAKEN]
        if code // 8 != S.CLEAR:
            R.set_colour(st, p, code // 8)
    elif kind == K_COLOUR:
        R.set_colour(st, p, move)
    elif kind == K_BOOST:
        if move != STOP:
            boost(st, tab, p, move)
    elif kind == K_ACTION:
        if move < A_TRAVEL:
            R.start_build(st, tab, p, move - A_BUILD)
            return 0
        if move < A_PERFORM:
            R.travel(st, tab, p, move - A_TRAVEL)
            return 1
        R.perform(st, tab, p, move - A_PERFORM)
        return 2
    elif kind == K_PLACE:
        R.place(st, tab, p, ctx[0], move)
    elif kind == K_POSTER:
        R.take_poster(st, tab, p, move - 1)
    elif kind == K_POSTER_SPACE:
        R.put_poster(st, p, -1 if move == DISCARD_NEW else move)
    elif kind == K_TENT_SPACE:
        R.place_tent(st, tab, p, move)
    elif kind == K_SHOW:
        if move != STOP:
            R.show(st, tab, p, move - 1)
    elif kind == K_REARRANGE:
        if move != STOP:
            i, j = divmod(move - 1, S.POSTER_SPACES)
            st[b + S.POSTER + j] = st[b + S.POSTER + i]
            st[b + S.POSTER + i] = -1
    elif kind == K_DRAFT:
        R.draft(st, tab, p, move, st[S.ROUND])
    elif kind == K_SCORE:
        R.score_master(st, tab, p, move, st[S.ROUND])
    elif kind == K_FILL:
        if move != STOP:
            R.fill(st, tab, p, move - 1)
    return 0
