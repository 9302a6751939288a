"""State invariants, checked after every decision when a run asks for it (tests do)."""

from __future__ import annotations

from numba import njit

from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB

CODES = ("ok", "dice not conserved", "negative money", "more cubes than a player has",
         "stars differ from the sum of their sources", "tiles not conserved",
         "turn order is not a permutation", "a die's pips out of 1..6",
         "a decision's fast path differs from its reference (features: the footprint "
         "against the whole copy; the random pick: counted against listed)",
         "staff cards not conserved", "a die on a hex without a tile",
         "a die outside its park's range of slots",
         "skill cards not conserved (deck, display, discard pile, held, dealt) or more held "
         "than mascots",
         "more dice in a park than the rules can bring in (state.MAX_PARK_DICE)",
         "more maps taken than the supply holds, or more mascots than a player's colour has",
         "a decision's legal moves filled their buffer (moves.MAX_MOVES)")
PATHS_CODE = 8  # checked in play.decide, not on the state
MOVES_FULL_CODE = 15  # as PATHS_CODE


@njit
def check_state(st, tab) -> int:
    """0, or the first broken invariant's code (CODES)."""
    n = st[S.N_PLAYERS]
    total = 0
    for c in range(S.COLOURS):
        total += st[S.BAG + c] + st[S.ASIDE + c] - st[S.SUBST + c]
    for k in range(st[S.MONO_N] * S.SPACES):
        total += st[S.MONO_COL + k] >= 0
    for i in range(S.DICE):
        at = st[S.DIE_AT + i]
        if at != S.NOWHERE:
            total += 1
            if not 1 <= st[S.DIE_PIPS + i] <= 6:
                return 7
            if st[S.seat(at // S.HEXES) + S.TILE + at % S.HEXES] < 0:
                return 10
            if at // S.HEXES != i // S.PARK_DICE or i >= S.park_slots(st, at // S.HEXES)[1]:
                return 11
    if total != S.COLOURS * tab[R.P_DICE_PER_COLOUR]:
        return 1
    for p in range(n):
        first, last = S.park_slots(st, p)
        in_park = 0
        for i in range(first, last):
            in_park += st[S.DIE_AT + i] != S.NOWHERE
        if in_park > S.MAX_PARK_DICE:
            return 13
        if st[S.seat(p) + S.MASCOTS] > tab[R.P_MASCOTS_EACH]:
            return 14
    if R.maps_left(st, tab) < 0:
        return 14
    tiles = st[S.STACK_A_N] + st[S.STACK_B_N] + st[S.DISPLAY_N] + st[S.DISCARD_N]
    seen = 0
    for p in range(n):
        b = S.seat(p)
        if st[b + S.MONEY] < 0:
            return 2
        if st[b + S.CUBES] > tab[R.P_CUBES]:
            return 3
        parts = 0
        for k in range(len(S.SOURCES)):
            parts += st[b + S.SCORE + k]
        if parts != st[b + S.STARS]:
            return 4
        for h in range(S.HEXES):
            a = st[b + S.TILE + h]
            if a >= 0 and (tab[TB.ATT_STACK + a] == TB.STACK_A
                           or tab[TB.ATT_STACK + a] == TB.STACK_B):
                tiles += 1
        for k in range(2):  # dealt and not yet kept or returned
            if st[b + S.KEPT] < 0 and st[b + S.DEALT + k] >= 0:
                tiles += 1
        seen |= 1 << st[S.ORDER + p]
    for k in range(S.STAFF):  # each player's set: n of each staff, in hands or played
        count = 0
        for p in range(n):
            b = S.seat(p)
            count += st[b + S.HAND + k] + R.played(st, p, k)
            if st[b + S.HAND + k] < 0:
                return 9
        if count != n:
            return 9
    stacks = 0
    for a in range(tab[R.P_ATTRACTIONS]):
        stacks += tab[TB.ATT_STACK + a] == TB.STACK_A or tab[TB.ATT_STACK + a] == TB.STACK_B
    if tiles != stacks:
        return 5
    if seen != (1 << n) - 1:
        return 6
    if tab[TB.MODULES + st[S.MODE]]:
        cards = st[S.SKILL_DECK_N] + st[S.SKILL_DISPLAY_N] + st[S.SKILL_DISCARD_N]
        for p in range(n):
            b = S.seat(p)
            if st[b + S.SKILLS_N] > st[b + S.MASCOTS]:
                return 12
            cards += st[b + S.SKILLS_N]
            if st[b + S.SKILL_KEPT] < 0 and st[b + S.SKILL_DEALT] >= 0:
                cards += 2  # dealt, not yet kept
        if cards != tab[R.P_SKILLS]:
            return 12
    return 0
