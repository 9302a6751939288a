"""State invariants, checked after every turn and round step when a run asks for it (tests
do)."""

from __future__ import annotations

from numba import njit

from sim.core.bits import popcount
from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent import tables as T

CODES = ("ok", "dice not conserved", "gems not conserved or over the storage",
         "camp tiles not conserved", "the camp overlaps (squares covered differ from the "
         "tiles' squares)", "tents not conserved", "master cards not conserved",
         "posters not conserved", "trainer tiles not conserved", "negative coins",
         "score differs from the sum of its sources", "hats not one a seat on distinct spaces",
         "trainer markers spent beyond those owned",
         "a turn ended with posters, tiles, a tent or shows still due")


@njit
def check_state(st, tab) -> int:
    """0, or the first broken invariant's code (CODES)."""
    n = st[S.N_PLAYERS]
    for k in range(S.KINDS):  # dice: the main tent, the master cards, the die in hand
        total = 0
        for pips in range(1, 7):
            total += st[S.POOL + k * S.PIPS + pips]
        for p in range(n):
            b = S.seat(p)
            for i in range(S.CARD_SLOTS):
                total += st[b + S.DIE + i] >= 0 and st[b + S.DIE + i] // 8 == k
            code = st[b + S.TAKEN]
            if code >= 0 and code // 8 == k and st[b + S.SLOT] < 0:
                total += 1
        if total != tab[T.DICE + n * S.KINDS + k]:
            return 1
    for k in range(S.KINDS):
        total = st[S.GEM_SUPPLY + k]
        for p in range(n):
            g = st[S.seat(p) + S.GEMS + k]
            if g < 0 or g > tab[R.P_STORAGE]:
                return 2
            total += g
        if total != tab[R.P_GEMS_PER_KIND]:
            return 2
    for t in range(S.TILE_KINDS):
        total = st[S.TILE_SUPPLY + t]
        for p in range(n):
            total += st[S.seat(p) + S.PLACED + t]
        if total != tab[T.TILE_COUNT + t]:
            return 3
    for p in range(n):
        b = S.seat(p)
        squares = 0
        for t in range(S.TILE_KINDS):
            squares += st[b + S.PLACED + t] * tab[T.TILE_CELLS + t]
        if squares != popcount(st[b + S.CAMP]) or st[b + S.CAMP] & st[b + S.FILLED]:
            return 4
    tents = st[S.BOXED + S.B_TENTS]
    for i in range(S.TRACKS * S.MAX_TRACK):
        tents += st[S.TRACK_TENT + i] >= 0
    masters = st[S.MASTER_DECK_N] + st[S.DISCARDED + S.D_MASTERS]
    posters = st[S.POSTER_DECK_N] + st[S.DISCARDED + S.D_POSTERS] + st[S.BOXED + S.B_POSTERS]
    trainers = st[S.TRAINER_DECK_N] + st[S.DISCARDED + S.D_TRAINERS]
    for i in range(S.DISPLAY_CAP):
        masters += st[S.DISPLAY_MASTER + i] >= 0
        trainers += int(st[S.DISPLAY_TRAINER + i] >= 0) + int(st[S.OFFER + i] >= 0)
        posters += st[S.POSTER_DISPLAY + i] >= 0
    hats = 0
    for s in range(S.MAX_PERF):
        q = st[S.PERF + s]
        if q >= 0:
            hats += 1
            if q >= n or st[S.seat(q) + S.HAT] != s:
                return 11
    if hats != n:
        return 11
    for p in range(n):
        b = S.seat(p)
        tents += st[b + S.TENT_DUE] >= 0
        posters += st[b + S.SHOWS] + (st[b + S.NEW_POSTER] >= 0)
        for k in range(S.TENT_SPACES):
            t = st[b + S.TENT + k]
            tents += t >= 0 and t != S.PRINTED
        for k in range(S.POSTER_SPACES):
            posters += st[b + S.POSTER + k] >= 0
        for k in range(S.HAND_CAP):
            masters += st[b + S.HAND + k] >= 0
        trainers += st[b + S.TRAINERS_N]
        if st[b + S.COINS] < 0:
            return 9
        total = 0
        for k in range(S.N_SOURCES):
            total += st[b + S.SRC + k]
        if total != st[b + S.SCORE]:
            return 10
        if st[b + S.MARKERS_USED] > st[b + S.MARKERS]:
            return 12
        if st[b + S.TAKEN] < 0 and (st[b + S.POSTERS_DUE] or st[b + S.TENT_DUE] >= 0
                                    or st[b + S.PENDING] or st[b + S.PENDING + 1]
                                    or st[b + S.SHOWS_LEFT] or st[b + S.NEW_POSTER] >= 0):
            return 13
    if tents != tab[R.P_TENTS]:
        return 5
    if masters != tab[R.P_MASTERS]:  # the unused starting sets are in the deck
        return 6
    if posters != tab[R.P_POSTERS]:
        return 7
    if trainers != tab[R.P_TRAINERS]:
        return 8
    return 0

