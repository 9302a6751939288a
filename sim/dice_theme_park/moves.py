"""Dice Theme Park's decisions as small steps: the legal moves of each decision kind and how a
move is applied. A move is one int: ``((type * 256 + a) * 256 + b) * 256 + c``.

Decision kinds (rules.md "A round"; each has its own moves and feature weights):

- START: keep dealt tile a on setup hex b.
- STAFF: play staff a and b (a <= b; the same only with two in hand).
- MONORAIL: take monorail a.
- CONCIERGE: raise new die a by b (1 or 2), or new dice a and b by 1 each (type 1); or pass.
- BUILD: display tile a on hex b; or pass.
- BONUS_PIPS: set die a to b pips (the 2-amenity bonus).
- FREE_BUILD: discard-pile tile a on hex b (the 4-amenity bonus).
- MASCOT: hire one (type 1) or pass.
- MAP: buy one (type 1) or pass.
- UPGRADE: install upgrade kind a on hex b; remove kind a from hex b first (type 2, the
  architect); or pass.
- OPERATE: operate hex a with a party (c = 1: the manager's extra operation; the party's
  dice slots in the bits above, ``party_of``); a map moves die a to the adjacent hex b;
  the guide moves die a to hex b; a mascot's +-1 on die a (b: 0 for -1, 1 for +1); a
  mascot's colour b for die a; or stop.
- MOVE: party die a moves to the adjacent hex b (after an operation: one of the party's dice
  still in the park, the administrator's unlowered one included, rules.md 4 and 28).
- SAVE: the ticket agent sets die a (at 1) to b pips on the entrance; or pass.

Full and short games (powers.py):

- ADMIN, SKILL: keep dealt administrator, skill a (setup).
- TAKE_SKILL: skill display card a for the mascot just hired.
- LOWER: take a off the staff pips sum (the planning administrator).
- REARRANGE: the monorail's new dice in order ``powers.PERMUTATIONS[a]``, new die b - 1 +1
  (b = 0: none); or pass.
- LEFTOVER: the die on space b of leftover monorail a onto the entrance; or pass.
- ADMIN_SAVE: the administrator sets die a (at 1, its colour) to b pips on the entrance; or
  pass.
- SWAP: played card a back to the hand, staff b from the hand passed instead; or pass.
- AGAIN: the push's or pull's next move: die a to hex b; or pass.
- OPERATE gains the skills (type 6: seat p's skill card c, ``powers.use_skill``'s a and b,
  the nudge's directions in the bits above), and operations whose party die k - 1 is not
  lowered (the operate administrator: c = manager + 2 * k).

Dice alike (same hex, colour, pips and adjustment) are one move, so option counts stay small;
an operation's parties are told apart by their dice's own colour and pips (the park they leave
behind, ``rules.parties_among``). No list is cut short: ``max_moves`` bounds every decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import popcount
from sim.dice_theme_park import powers as W
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB
from strategies.selectors import uniform_pick

KINDS = ("start", "staff", "monorail", "concierge", "build", "bonus_pips", "free_build",
         "mascot", "map", "upgrade", "operate", "move", "save", "admin", "skill",
         "take_skill", "lower", "rearrange", "leftover", "admin_save", "swap", "again")
(K_START, K_STAFF, K_MONORAIL, K_CONCIERGE, K_BUILD, K_BONUS_PIPS, K_FREE_BUILD, K_MASCOT,
 K_MAP, K_UPGRADE, K_OPERATE, K_MOVE, K_SAVE, K_ADMIN, K_SKILL, K_TAKE_SKILL, K_LOWER,
 K_REARRANGE, K_LEFTOVER, K_ADMIN_SAVE, K_SWAP, K_AGAIN) = range(len(KINDS))

PASS = 0  # type 0: pass or stop
T_ACT = 1  # the kind's action
T_REMOVE = 2  # UPGRADE: the architect's removal
T_MAP, T_GUIDE, T_PIPS, T_TINT, T_SKILL = 2, 3, 4, 5, 6  # OPERATE


def max_moves(dice: int = S.MAX_PARK_DICE) -> int:
    """The most legal moves a decision can have with ``dice`` dice in the park: an operate
    decision's, the largest (every other kind's moves are a few hundred at most). Each term
    is a bound of one part of ``_operate_moves``:

    - the operations: each hex's parties, at most C(d, size) of the d dice there and at most
      rules.MAX_PARTIES, spread over the hexes as unkindly as they can be, each with up to 3
      variants of the administrator's die not lowered (``_keeping``);
    - the skill uses, per card held (one per mascot, state.SKILLS_HELD at most): the larger
      of the nudge's (4 directions for each pair of dice on one hex) and the leap's (each die
      to every other tile), the powers with the most uses;
    - the dice moves, per die: a map to each of 6 neighbours, the guide to every other tile,
      and a mascot's and an extra adjustment, each -1, +1 or one of the other colours;
    - the stop.

    ``MAX_MOVES`` is at least this (a test checks it), so no list is ever cut short, and a
    checked game reports a decision that fills the buffer (invariants.MOVES_FULL_CODE)."""
    from math import comb

    def parties(d: int) -> int:
        return min(R.MAX_PARTIES, max(d, comb(d, 2), comb(d, 3)))

    best = [0] * (dice + 1)  # the most parties d dice on any number of hexes can have
    for d in range(1, dice + 1):
        best[d] = max(parties(k) + best[d - k] for k in range(1, d + 1))
    operations = best[dice] * (1 + R.MAX_PARTY)
    skills = S.SKILLS_HELD * max(4 * comb(dice, 2), dice * (S.HEXES - 1))
    dice_moves = dice * (6 + (S.HEXES - 1) + 2 * (2 + S.COLOURS - 1))
    return 1 + operations + skills + dice_moves


MAX_MOVES = 16384  # >= max_moves() (12,897)


@njit
def encode(t, a, b, c) -> int:
    return ((t * 256 + a) * 256 + b) * 256 + c


@njit
def decode(m):
    return (m >> 24) & 255, (m >> 16) & 255, (m >> 8) & 255, m & 255


@njit
def encode_operation(hex_, i, j, k, manager, keep=0) -> int:
    """OPERATE hex_ with dice slots i, j, k (-1: none), the manager's extra when 1, party
    die keep - 1 not lowered (0: all lowered)."""
    return encode(T_ACT, hex_, 0, manager + 2 * keep) | ((i + 1) << 32) | ((j + 1) << 40) | (
        (k + 1) << 48)


@njit
def party_of(m, out) -> None:
    """The dice slots of operation move m, -1 padded, into out[:3]."""
    for k in range(3):
        out[k] = ((m >> (32 + 8 * k)) & 255) - 1


# a die's code (``_die_code``): its colour, its tint (none or a colour) and its pips; park_dice
# marks the codes seen on each hex in CODE_WORDS words of 32 bits
DIE_CODES = S.COLOURS * (S.COLOURS + 1) * 8
CODE_WORDS = (DIE_CODES + 31) // 32
# buffers the operate decision borrows: park_dice's marks in the parties' work, before the
# parties; the random pick's ends of each card's uses in ws[0] (a hex each)
assert R.PARTY_WORK >= CODE_WORDS * S.HEXES and S.HEXES >= S.SKILLS_HELD


@njit
def new_workspace():
    """Buffers the legal moves work in, allocated once per game lane: hexes, dice slots,
    ``rules.parties``' work (``park_dice``'s marks before the parties) and its parties, a
    park's dice by hex (``sort_park``), and the operate decision's: each group's number of
    dice moves, then the park's tile hexes."""
    return (np.empty(S.HEXES, dtype=np.int64), np.empty(S.DICE, dtype=np.int64),
            np.empty(R.PARTY_WORK, dtype=np.int64),
            np.empty((R.MAX_PARTIES, 3), dtype=np.int64), np.empty(S.HEXES, dtype=np.int64),
            np.empty((S.HEXES, S.PARK_DICE), dtype=np.int64),  # a hex's dice are one park's
            np.empty(S.PARK_DICE + S.HEXES, dtype=np.int64))


@njit(inline="always")  # hot: docs/developers.md
def _alike(st, i, j) -> bool:
    return (st[S.DIE_AT + i] == st[S.DIE_AT + j] and st[S.DIE_COL + i] == st[S.DIE_COL + j]
            and st[S.DIE_PIPS + i] == st[S.DIE_PIPS + j]
            and st[S.DIE_TINT + i] == st[S.DIE_TINT + j])


@njit(inline="always")  # hot: docs/developers.md
def _die_code(st, i) -> int:
    """Die slot i's colour, tint and pips as one number below DIE_CODES: two dice on one hex
    are ``_alike`` when their codes are equal."""
    return ((st[S.DIE_COL + i] * (S.COLOURS + 1) + st[S.DIE_TINT + i] + 1) << 3) | \
        st[S.DIE_PIPS + i]


@njit
def sort_park(st, p, counts, slots) -> None:
    """Seat p's dice by hex, in slot order: slots[h, :counts[h]]."""
    for h in range(S.HEXES):
        counts[h] = 0
    first, last = S.park_slots(st, p)
    for i in range(first, last):
        at = st[S.DIE_AT + i]
        if at >= 0:
            h = at % S.HEXES
            slots[h, counts[h]] = i
            counts[h] += 1


@njit(inline="always")  # hot: docs/developers.md
def park_dice(st, p, out, counts, slots, marks) -> int:
    """One slot per group of alike dice in seat p's park, in slot order, into ``out``; their
    number. ``counts`` and ``slots`` (``sort_park``) are filled on the way; ``marks``
    (CODE_WORDS ints a hex) holds the dice codes seen on each hex."""
    for h in range(S.HEXES):
        counts[h] = 0
    for w in range(CODE_WORDS * S.HEXES):
        marks[w] = 0
    n = 0
    first, last = S.park_slots(st, p)
    for i in range(first, last):
        at = st[S.DIE_AT + i]
        if at < 0:
            continue
        h = at % S.HEXES
        slots[h, counts[h]] = i
        counts[h] += 1
        code = _die_code(st, i)  # dice alike share a hex and a code: a test, not a loop
        w = CODE_WORDS * h + (code >> 5)
        bit = 1 << (code & 31)
        if (marks[w] & bit) == 0:
            marks[w] |= bit
            out[n] = i
            n += 1
    return n


@njit
def legal_moves(st, tab, p, kind, ctx, moves, ws) -> int:
    """The legal moves of seat p at a ``kind`` decision into ``moves``; their number. ``ctx``
    holds what the decision is about: new dice (CONCIERGE), the party's dice (MOVE), dice at 1
    (SAVE), each as ctx[0] = count, ctx[1:] = slots. ``ws``: ``new_workspace()``."""
    b = S.seat(p)
    n = 0
    hexes = ws[0]
    if kind == K_START:
        nh = R.start_hexes(st, tab, p, hexes)
        for which in range(2):
            for k in range(nh):
                moves[n] = encode(T_ACT, which, hexes[k], 0)
                n += 1
        return n
    if kind == K_STAFF:
        for x in range(S.STAFF):
            for y in range(x, S.STAFF):
                if st[b + S.HAND + x] >= 1 + (x == y) and st[b + S.HAND + y] >= 1:
                    moves[n] = encode(T_ACT, x, y, 0)
                    n += 1
        return n
    if kind == K_MONORAIL:
        for m in range(st[S.MONO_N]):
            if st[S.MONO_TAKEN + m] < 0:
                moves[n] = encode(T_ACT, m, 0, 0)
                n += 1
        return n
    if kind == K_ADMIN or kind == K_SKILL:
        for which in range(2):
            moves[n] = encode(T_ACT, which, 0, 0)
            n += 1
        return n
    if kind == K_TAKE_SKILL:
        for k in range(st[S.SKILL_DISPLAY_N]):
            moves[n] = encode(T_ACT, k, 0, 0)
            n += 1
        return n
    if kind == K_LOWER:
        for by in range(R.admin_amount(st, tab, p, R.A_LOWER_SUM) + 1):
            moves[n] = encode(T_ACT, by, 0, 0)
            n += 1
        return n
    moves[0] = encode(PASS, 0, 0, 0)  # every other decision may pass (MOVE excepted)
    n = 1
    if kind >= K_REARRANGE:
        return _admin_moves(st, tab, p, kind, ctx, moves, ws)
    if kind == K_CONCIERGE:
        for k in range(ctx[0]):
            for up in (1, 2):
                moves[n] = encode(T_ACT, ctx[1 + k], up, 0)
                n += 1
            for j in range(k + 1, ctx[0]):
                moves[n] = encode(2, ctx[1 + k], ctx[1 + j], 0)
                n += 1
        return n
    if kind == K_BUILD:
        nh = R.build_hexes(st, tab, p, hexes)
        for k in range(st[S.DISPLAY_N]):
            if tab[TB.ATT_COST + st[S.DISPLAY + k]] <= st[b + S.MONEY]:
                for h in range(nh):
                    moves[n] = encode(T_ACT, k, hexes[h], 0)
                    n += 1
        return n
    if kind == K_FREE_BUILD:
        nh = R.build_hexes(st, tab, p, hexes)
        n = 0  # the bonus is taken (a tile is free)
        for k in range(st[S.DISCARD_N]):
            for h in range(nh):
                moves[n] = encode(T_ACT, k, hexes[h], 0)
                n += 1
        return n
    if kind == K_BONUS_PIPS:
        dice = ws[1]
        nd = park_dice(st, p, dice, ws[4], ws[5], ws[2])
        for k in range(nd):
            for pips in range(1, 7):
                if pips != st[S.DIE_PIPS + dice[k]]:
                    moves[n] = encode(T_ACT, dice[k], pips, 0)
                    n += 1
        return n
    if kind == K_MASCOT:
        if R.can_hire(st, tab, p):
            moves[n] = encode(T_ACT, 0, 0, 0)
            n += 1
        return n
    if kind == K_MAP:
        if R.can_buy_map(st, tab, p):
            moves[n] = encode(T_ACT, 0, 0, 0)
            n += 1
        return n
    if kind == K_UPGRADE:
        remove = st[b + S.REMOVED] < R.played(st, p, R.ARCHITECT) and \
            st[b + S.INSTALLED] == 0
        for h in range(S.HEXES):
            if st[b + S.TILE + h] < 0:
                continue
            kinds = R.installable(st, tab, p, h)
            for u in range(S.UPGRADE_KINDS):
                if (kinds >> u) & 1:
                    moves[n] = encode(T_ACT, u, h, 0)
                    n += 1
                if remove and (st[b + S.UPGRADE + h] >> u) & 1:
                    moves[n] = encode(T_REMOVE, u, h, 0)
                    n += 1
        return n
    if kind == K_MOVE:
        n = 0
        near = ws[0]
        for k in range(ctx[0]):
            i = ctx[1 + k]
            nn = R.neighbour_tiles(st, tab, p, st[S.DIE_AT + i] % S.HEXES, near)
            for j in range(nn):
                moves[n] = encode(T_ACT, i, near[j], 0)
                n += 1
        return n
    if kind == K_SAVE:
        for k in range(ctx[0]):
            for pips in range(1, 7):
                moves[n] = encode(T_ACT, ctx[1 + k], pips, 0)
                n += 1
        return n
    return _operate_moves(st, tab, p, moves, n, ws)


@njit
def _admin_moves(st, tab, p, kind, ctx, moves, ws) -> int:
    """``legal_moves`` of the administrators' decisions and the push's or pull's next move
    (moves[0] is the pass)."""
    b = S.seat(p)
    n = 1
    if kind == K_REARRANGE:  # each outcome once: the new dice as a sorted set of codes
        keys = ws[1]  # up to 6 orders x 4 raises: more than ws[0] holds
        k = ctx[0]
        keys[0] = _dice_key(st, ctx[1:], k, 0, -1)  # as taken: the pass
        for perm in range(6 if k == 3 else (2 if k == 2 else 1)):
            for plus in range(-1, k):
                if plus >= 0 and st[S.DIE_PIPS + ctx[1 + plus]] == 6:
                    continue
                key = _dice_key(st, ctx[1:], k, perm, plus)
                new = True
                for j in range(n):
                    new = new and keys[j] != key
                if new:
                    keys[n] = key
                    moves[n] = encode(T_ACT, perm, plus + 1, 0)
                    n += 1
        return n
    if kind == K_LEFTOVER:
        seen = 0  # bit colour * 8 + pips
        for m in range(st[S.MONO_N]):
            if st[S.MONO_TAKEN + m] >= 0:
                continue
            for sp in range(S.SPACES):
                c = st[S.MONO_COL + m * S.SPACES + sp]
                if c >= 0:
                    code = c * 8 + st[S.MONO_PIPS + m * S.SPACES + sp]
                    if not (seen >> code) & 1:
                        seen |= 1 << code
                        moves[n] = encode(T_ACT, m, sp, 0)
                        n += 1
        return n
    if kind == K_ADMIN_SAVE:
        if ctx[0] > 0:  # the dice of its colour at 1 are alike: one of them
            for pips in range(1, 7):
                moves[n] = encode(T_ACT, ctx[1], pips, 0)
                n += 1
        return n
    if kind == K_SWAP:
        for k in range(2):
            if k == 1 and st[b + S.PLAYED + 1] == st[b + S.PLAYED]:
                break
            for x in range(S.STAFF):
                if st[b + S.HAND + x] > 0 and x != st[b + S.PLAYED + k]:
                    moves[n] = encode(T_ACT, k, x, 0)
                    n += 1
        return n
    # AGAIN: ctx[0] the power (push or pull), ctx[1] the mascot's hex
    nd = park_dice(st, p, ws[1], ws[4], ws[5], ws[2])
    here = ctx[1]
    near = ws[0]
    for g in range(nd):
        i = ws[1][g]
        at = st[S.DIE_AT + i] % S.HEXES
        if ctx[0] == R.SK_PUSH and at == here:
            nn = R.neighbour_tiles(st, tab, p, here, near)
            for j in range(nn):
                moves[n] = encode(T_ACT, i, near[j], 0)
                n += 1
        elif ctx[0] == R.SK_PULL and at != here \
                and tab[TB.HEX_DISTANCE + at * S.HEXES + here] == 1:
            moves[n] = encode(T_ACT, i, here, 0)
            n += 1
    return n


@njit
def _dice_key(st, new, k, perm, plus) -> int:
    """The new dice after ``powers.rearrange(perm, plus)`` as one number (their codes
    colour * 8 + pips, sorted), without changing them. Scalars: the kernel allocates
    nothing (play.py)."""
    order = W.PERMUTATIONS[perm]
    big = 1 << 20  # after every code: the missing dice sort last
    c0 = st[S.DIE_COL + new[order[0]]] * 8 + st[S.DIE_PIPS + new[0]] + (plus == 0)
    c1 = st[S.DIE_COL + new[order[1]]] * 8 + st[S.DIE_PIPS + new[1]] + (plus == 1) \
        if k > 1 else big
    c2 = st[S.DIE_COL + new[order[2]]] * 8 + st[S.DIE_PIPS + new[2]] + (plus == 2) \
        if k > 2 else big
    lo = min(c0, c1, c2)
    hi = max(c0, c1, c2)
    return (lo * 64 + (c0 + c1 + c2 - lo - hi)) * 64 * 64 * 64 + hi


@njit(inline="always")  # hot: docs/developers.md
def _operate_moves(st, tab, p, moves, n, ws) -> int:
    nd = park_dice(st, p, ws[1], ws[4], ws[5], ws[2])
    n = _operations(st, tab, p, moves, n, ws[2], ws[3], ws[4], ws[5])
    n = _skill_moves(st, tab, p, moves, n, ws, nd)
    maps, guide, mascot = _die_powers(st, p)
    hexes = ws[6][S.PARK_DICE:]
    tiles = _tile_hexes(st, p, hexes) if guide else 0
    for k in range(nd):
        n = _die_moves(st, tab, p, ws[1][k], maps, guide, hexes, tiles, mascot, moves, n,
                       ws[0])
    return n


@njit  # a call, not inlined: compiled once for both its callers
def _operations(st, tab, p, moves, n, work, parties, counts, slots) -> int:
    """An operate decision's operations into ``moves`` from n on, hex by hex; the new n.
    Seat p's dice by hex are in ``counts`` and ``slots`` (``sort_park`` or ``park_dice``);
    ``work`` and ``parties`` are ``rules.parties_among``'s buffers."""
    b = S.seat(p)
    manager = st[b + S.MANAGER_USED] < R.played(st, p, R.MANAGER) and \
        st[b + S.CUBES] < tab[R.P_CUBES]
    keep = W.admin_colour(st, tab, p) if R.has_admin(st, tab, p, R.A_KEEP_PIPS) else -1
    for h in range(S.HEXES):
        if counts[h] == 0 or st[b + S.TILE + h] < 0:  # a party needs a die
            continue
        free = R.free_icon(st, tab, p, h)
        if not free and not manager:
            continue
        on = slots[h, :counts[h]]
        k = R.parties_among(st, tab, st[b + S.TILE + h], on, parties, work)
        keeps = keep >= 0 and tab[TB.ATT_COLOUR + st[b + S.TILE + h]] == keep
        for j in range(k):
            if n < MAX_MOVES:
                moves[n] = encode_operation(h, parties[j, 0], parties[j, 1], parties[j, 2],
                                            0 if free else 1)
                n += 1
            if keeps:
                n = _keeping(st, parties[j], keep, h, 0 if free else 1, moves, n)
    return n


@njit
def _keeping(st, party, colour, h, manager, moves, n) -> int:
    """The operate administrator's variants of an operation: each party die of its colour
    (alike dice once) left at its pips."""
    for x in range(R.MAX_PARTY):
        i = party[x]
        if i < 0 or st[S.DIE_COL + i] != colour:
            continue
        twin = False
        for y in range(x):
            twin = twin or (party[y] >= 0 and _alike(st, party[y], i))
        if not twin and n < MAX_MOVES:
            moves[n] = encode_operation(h, party[0], party[1], party[2], manager, x + 1)
            n += 1
    return n


@njit(inline="always")  # hot: docs/developers.md
def _usable_skills(st, p) -> int:
    """Seat p's skill cards it can use now, as bits of their places (a use takes a mascot;
    each card once a round)."""
    b = S.seat(p)
    if st[b + S.SKILLS_N] == 0 or st[b + S.MASCOTS_USED] >= st[b + S.MASCOTS]:
        return 0
    return ((1 << st[b + S.SKILLS_N]) - 1) & ~st[b + S.SKILLS_USED]


@njit
def _skill_moves(st, tab, p, moves, n, ws, nd) -> int:
    """An operate decision's skill uses into ``moves`` from n on, card by card; the new n.
    Seat p's dice by hex are in ws[4] and ws[5], one die per group of alike dice in
    ws[1][:nd]."""
    usable = _usable_skills(st, p)
    for k in range(S.SKILLS_HELD):
        if (usable >> k) & 1:
            n = _card_moves(st, tab, p, k, moves, n, ws, nd)
    return n


@njit
def _card_moves(st, tab, p, k, moves, n, ws, nd) -> int:
    """The uses of seat p's k-th skill card into ``moves`` from n on; the new n."""
    dice, near, counts, slots = ws[1], ws[2], ws[4], ws[5]
    card = st[S.seat(p) + S.SKILLS + k]
    power = tab[TB.SK_POWER + card]
    colour = tab[TB.SK_COLOUR + card]
    amount = tab[TB.SK_AMOUNT + card]
    if power == R.SK_MONEY or power == R.SK_STARS:  # where a die of its colour is
        for h in range(S.HEXES):
            for x in range(counts[h]):
                if st[S.DIE_COL + slots[h, x]] == colour:
                    if n < MAX_MOVES:
                        moves[n] = encode(T_SKILL, h, 0, k)
                        n += 1
                    break
    elif power == R.SK_NUDGE:
        n = _nudges(st, p, k, amount, counts, slots, moves, n)
    else:
        for g in range(nd):
            n = _skill_die_moves(st, tab, p, k, power, colour, amount, dice[g], near, moves,
                                 n)
    return n


@njit
def _card_count(st, tab, p, k, moves, n, ws, nd, tiles) -> int:
    """n plus the number of ``_card_moves``' uses: those of a power acting on one die
    counted without listing them, the others (a hex each, or a nudge's pairs) listed from n
    on. ``tiles``: seat p's tile hexes as bits (``_tile_mask``)."""
    dice = ws[1]
    card = st[S.seat(p) + S.SKILLS + k]
    power = tab[TB.SK_POWER + card]
    colour = tab[TB.SK_COLOUR + card]
    amount = tab[TB.SK_AMOUNT + card]
    if power == R.SK_MONEY or power == R.SK_STARS or power == R.SK_NUDGE:
        return _card_moves(st, tab, p, k, moves, n, ws, nd)
    bags = 0  # colours a die can be recoloured to
    if power == R.SK_RECOLOUR:
        for c in range(S.COLOURS):
            bags += int(st[S.BAG + c] > 0)
    reach = min(max(amount, 0), S.HEXES - 1) if power == R.SK_LEAP else 1
    for g in range(nd):  # _skill_die_moves' number on each group's die
        i = dice[g]
        pips = st[S.DIE_PIPS + i]
        own = st[S.DIE_COL + i]
        if power == R.SK_SHIFT:
            if own == colour:
                n += int(R.can_adjust(pips, -amount)) + int(R.can_adjust(pips, amount))
        elif power == R.SK_TWO_FIVE:
            n += int(own == colour and (pips == 2 or pips == 5))
        elif power == R.SK_RECOLOUR:
            n += bags - int(st[S.BAG + own] > 0)
        elif power == R.SK_PUSH or power == R.SK_LEAP or power == R.SK_PULL:
            here = st[S.DIE_AT + i] % S.HEXES
            n += popcount(tiles & tab[TB.HEX_WITHIN + here * S.HEXES + reach])
    return n


@njit
def _skill_die_moves(st, tab, p, k, power, colour, amount, i, near, moves, n) -> int:
    """The uses of seat p's k-th skill card (a power acting on one die) on die slot i."""
    b = S.seat(p)
    here = st[S.DIE_AT + i] % S.HEXES
    pips = st[S.DIE_PIPS + i]
    own = st[S.DIE_COL + i]
    if power == R.SK_SHIFT and own == colour:
        for up in range(2):
            if R.can_adjust(pips, amount if up else -amount) and n < MAX_MOVES:
                moves[n] = encode(T_SKILL, i, up, k)
                n += 1
    elif power == R.SK_TWO_FIVE and own == colour and (pips == 2 or pips == 5):
        if n < MAX_MOVES:
            moves[n] = encode(T_SKILL, i, 0, k)
            n += 1
    elif power == R.SK_PUSH or power == R.SK_LEAP:
        for h in range(S.HEXES):
            d = tab[TB.HEX_DISTANCE + here * S.HEXES + h]
            if st[b + S.TILE + h] >= 0 and 1 <= d and (
                    d <= amount if power == R.SK_LEAP else d == 1) and n < MAX_MOVES:
                moves[n] = encode(T_SKILL, i, h, k)
                n += 1
    elif power == R.SK_PULL:  # onto each neighbour tile: the mascot's attraction
        nn = R.neighbour_tiles(st, tab, p, here, near)
        for j in range(nn):
            if n < MAX_MOVES:
                moves[n] = encode(T_SKILL, i, near[j], k)
                n += 1
    elif power == R.SK_RECOLOUR:
        for c in range(S.COLOURS):
            if c != own and st[S.BAG + c] > 0 and n < MAX_MOVES:
                moves[n] = encode(T_SKILL, i, c, k)
                n += 1
    return n


@njit
def _nudges(st, p, k, amount, counts, slots, moves, n) -> int:
    """The nudge on seat p's k-th skill card: two different dice on one attraction, each
    +-amount, never above 6, a die taken to 0 discarded (rules.md 38); alike pairs and
    directions once."""
    for h in range(S.HEXES):
        c = counts[h]
        for x in range(c):
            i = slots[h, x]
            first = True
            for y in range(x):
                first = first and not _alike(st, slots[h, y], i)
            if not first:
                continue
            for y in range(x + 1, c):
                j = slots[h, y]
                first = True
                for z in range(x + 1, y):
                    first = first and not _alike(st, slots[h, z], j)
                if not first:
                    continue
                twins = _alike(st, i, j)
                for dirs in range(4):
                    if twins and dirs == 2:  # -1 on the first, +1 on the second: as dirs 1
                        continue
                    if R.can_adjust(st[S.DIE_PIPS + i], amount if dirs & 1 else -amount) \
                            and R.can_adjust(st[S.DIE_PIPS + j], amount if dirs & 2 else -amount) \
                            and n < MAX_MOVES:
                        moves[n] = encode(T_SKILL, i, j, k) | (dirs << 32)
                        n += 1
    return n


@njit(inline="always")  # hot: docs/developers.md
def _die_powers(st, p):
    """What can move or adjust seat p's dice now: (maps usable, a guide to play, a mascot
    to use)."""
    b = S.seat(p)
    return (st[b + S.MAPS_UP] > 0, st[b + S.GUIDE_USED] < R.played(st, p, R.GUIDE),
            st[b + S.MASCOTS_USED] < st[b + S.MASCOTS])


@njit(inline="always")  # hot: docs/developers.md
def _tile_mask(st, p) -> int:
    """The hexes of seat p's park that hold a tile, as bits."""
    b = S.seat(p)
    mask = 0
    for h in range(S.HEXES):
        if st[b + S.TILE + h] >= 0:
            mask |= 1 << h
    return mask


@njit(inline="always")  # hot: docs/developers.md
def _tile_hexes(st, p, out) -> int:
    """The hexes of seat p's park that hold a tile (where the guide can send a die), into
    ``out``; their number."""
    b = S.seat(p)
    n = 0
    for h in range(S.HEXES):
        if st[b + S.TILE + h] >= 0:
            out[n] = h
            n += 1
    return n


@njit(inline="always")  # hot: docs/developers.md
def _extra(st, p, here) -> bool:
    """The mascot staff's extra adjustments are left, on the attraction of the last mascot
    use."""
    b = S.seat(p)
    return st[b + S.EXTRA_LEFT] > 0 and st[b + S.EXTRA_HEX] == here


@njit(inline="always")  # hot: docs/developers.md
def _die_moves(st, tab, p, i, maps, guide, hexes, tiles, mascot, moves, n, near) -> int:
    """Die slot i's moves at an operate decision into ``moves`` from n on: a map to each
    neighbour tile, the guide to each other tile (``hexes[:tiles]``), a mascot's adjustments
    and the extra ones; the new n. ``near``: a buffer of 6. ``_die_move_at`` gives one of
    them; ``random_operate_move`` counts them."""
    here = st[S.DIE_AT + i] % S.HEXES
    extra = _extra(st, p, here)
    if maps:
        nn = R.neighbour_tiles(st, tab, p, here, near)
        for j in range(nn):
            if n < MAX_MOVES:
                moves[n] = encode(T_MAP, i, near[j], 0)
                n += 1
    if guide:
        for k in range(tiles):
            h = hexes[k]
            if h != here and n < MAX_MOVES:
                moves[n] = encode(T_GUIDE, i, h, 0)
                n += 1
    for use in range(2):  # c = 0: a mascot's use; c = 1: an extra adjustment
        if (use == 0 and not mascot) or (use == 1 and not extra) or n + 5 >= MAX_MOVES:
            continue
        moves[n] = encode(T_PIPS, i, 0, use)
        n += 1
        if st[S.DIE_PIPS + i] < 6:
            moves[n] = encode(T_PIPS, i, 1, use)
            n += 1
        for colour in range(S.COLOURS):
            if colour != R.die_colour(st, i):
                moves[n] = encode(T_TINT, i, colour, use)
                n += 1
    return n


@njit(inline="always")  # hot: docs/developers.md
def _die_move_at(st, tab, p, i, j, maps, guide, hexes, tiles, mascot, near) -> int:
    """The j-th of ``_die_moves``' moves for die slot i, without writing the others."""
    here = st[S.DIE_AT + i] % S.HEXES
    if maps:
        nn = R.neighbour_tiles(st, tab, p, here, near)
        if j < nn:
            return encode(T_MAP, i, near[j], 0)
        j -= nn
    for k in range(tiles):  # 0 without a guide to play
        if hexes[k] != here:
            if j == 0:
                return encode(T_GUIDE, i, hexes[k], 0)
            j -= 1
    up = st[S.DIE_PIPS + i] < 6
    use = 0 if mascot else 1  # the extra adjustments follow the mascot's
    if j >= S.COLOURS + up:
        use = 1
        j -= S.COLOURS + up
    if j == 0:
        return encode(T_PIPS, i, 0, use)
    if up and j == 1:
        return encode(T_PIPS, i, 1, use)
    j -= 1 + up
    own = R.die_colour(st, i)
    return encode(T_TINT, i, j + (j >= own), use)  # the colours but its own, in order


@njit  # not inlined: inside the inlined decide, the kernel took 15 minutes to compile
def random_operate_move(st, tab, p, moves, ws, u) -> int:
    """The move the RANDOM selector picks with ``u`` at seat p's operate decision:
    ``moves[uniform_pick(n, u)]`` of ``legal_moves``, but the dice moves, most of an
    operate decision's, are counted group by group and the skill uses card by card, and
    only the chosen move is made, or the chosen card's uses listed (listing them all was
    most of a random game's time)."""
    b = S.seat(p)
    dice, sizes = ws[1], ws[6]
    hexes = sizes[S.PARK_DICE:]
    maps, guide, mascot = _die_powers(st, p)
    mask = _tile_mask(st, p)
    tiles = popcount(mask) if guide else 0
    extra_hex = st[b + S.EXTRA_HEX] if st[b + S.EXTRA_LEFT] > 0 else -1
    nd = park_dice(st, p, dice, ws[4], ws[5], ws[2])
    dice_moves = 0
    for g in range(nd):  # each group's number of moves (``_die_moves``) in sizes[:nd]
        i = dice[g]
        h = st[S.DIE_AT + i] % S.HEXES
        m = (int(mascot) + (h == extra_hex)) * (S.COLOURS + (st[S.DIE_PIPS + i] < 6))
        if maps:  # R.neighbour_tiles' number
            m += popcount(mask & tab[TB.HEX_WITHIN + h * S.HEXES + 1])
        if guide:
            m += tiles - 1  # every tile but its own
        sizes[g] = m
        dice_moves += m
    moves[0] = encode(PASS, 0, 0, 0)
    operations = _operations(st, tab, p, moves, 1, ws[2], ws[3], ws[4], ws[5])
    ends = ws[0]  # past each card's uses (a die move's buffer, free until then)
    seen = operations
    usable = _usable_skills(st, p)
    for k in range(S.SKILLS_HELD):  # the skill uses, counted
        if (usable >> k) & 1:
            seen = _card_count(st, tab, p, k, moves, seen, ws, nd, mask)
        ends[k] = seen
    pick = min(uniform_pick(seen + dice_moves, u), MAX_MOVES - 1)
    if pick < operations:
        return moves[pick]
    if pick < seen:  # a skill use: the uses of its card listed
        k = 0
        while pick >= ends[k]:
            k += 1
        _card_moves(st, tab, p, k, moves, ends[k - 1] if k > 0 else operations, ws, nd)
        return moves[pick]
    if guide:  # the hexes the guide can send a die to
        _tile_hexes(st, p, hexes)
    k = 0  # the group whose moves hold the pick
    while k < nd - 1 and pick >= seen + sizes[k]:
        seen += sizes[k]
        k += 1
    return _die_move_at(st, tab, p, dice[k], pick - seen, maps, guide, hexes, tiles, mascot,
                        ws[0])


@njit(inline="always")  # per feature row: features._die_part
def change_die(st, tab, p, move) -> None:
    """What an operate decision's map, guide, mascot adjustment or skill use (``apply``)
    does to the dice, without spending the map, the guide or the mascot: the bots' features
    share the rest between such moves, and a checked game holds them equal to ``apply``'s."""
    t, a, bb, c = decode(move)
    if t == T_SKILL:
        W.skill_effect(st, tab, p, c, a, bb, move >> 32)
    elif t == T_MAP or t == T_GUIDE:
        R.move_die(st, p, a, bb)
    elif t == T_PIPS:
        R.adjust_pips(st, a, 1 if bb == 1 else -1)
    else:
        R.adjust_colour(st, a, bb)


@njit
def apply(st, tab, p, kind, move, ctx) -> int:
    """Apply seat p's ``move`` at a ``kind`` decision. Returns what must follow: for an
    operation, the number of party dice that may move (their slots in ctx); for a build, the amenity
    bonus (R.BONUS_*); for a push or pull skill, 1 (its power and hex in ctx); else 0. It
    draws nothing from the game's stream, so the bots' features can apply a move to a copy
    of the state."""
    t, a, bb, c = decode(move)
    b = S.seat(p)
    if t == PASS:  # START, STAFF, MONORAIL, FREE_BUILD and MOVE have no pass
        return 0
    if kind == K_START:
        R.keep_start_tile(st, tab, p, a, bb)
    elif kind == K_STAFF:
        R.play_staff(st, tab, p, a, bb)
    elif kind == K_MONORAIL:
        ctx[0] = R.take_monorail(st, tab, p, a, ctx[1:])
    elif kind == K_CONCIERGE:
        if t == T_ACT:
            R.raise_die(st, a, bb)
        else:
            R.raise_die(st, a, 1)
            R.raise_die(st, bb, 1)
    elif kind == K_BUILD:
        return R.build(st, tab, p, a, bb)
    elif kind == K_FREE_BUILD:
        R.build_from_discard(st, tab, p, a, bb)
    elif kind == K_BONUS_PIPS:
        st[S.DIE_PIPS + a] = bb
    elif kind == K_MASCOT:
        R.hire_mascot(st, tab, p)
    elif kind == K_MAP:
        R.buy_map(st, tab, p)
    elif kind == K_UPGRADE:
        if t == T_ACT:
            R.install(st, tab, p, a, bb)
        else:
            R.remove_upgrade(st, p, a, bb)
    elif kind == K_MOVE:
        R.move_die(st, p, a, bb)
    elif kind == K_SAVE or kind == K_ADMIN_SAVE:
        R.save_die(st, tab, p, a, bb)
    elif kind == K_ADMIN:
        R.keep_admin(st, tab, p, a)
    elif kind == K_SKILL:
        R.keep_skill(st, tab, p, a)
    elif kind == K_TAKE_SKILL:
        R.take_skill(st, p, a)
    elif kind == K_LOWER:
        W.lower_sum(st, p, a)
    elif kind == K_REARRANGE:
        W.rearrange(st, ctx[1:], ctx[0], a, bb - 1)
    elif kind == K_LEFTOVER:
        W.take_leftover(st, tab, p, a, bb)
    elif kind == K_SWAP:
        W.swap_staff(st, p, a, bb)
    elif kind == K_AGAIN:
        W.again(st, p, a, bb)
    elif kind == K_OPERATE:
        if t == T_ACT:
            if c & 1:
                st[b + S.MANAGER_USED] += 1
            # operate reads party[k] before it writes movable[n <= k]: one buffer serves both
            party_of(move, ctx[1:4])
            n = R.operate(st, tab, p, a, ctx[1:4], ctx[1:], (c >> 1) - 1)
            ctx[0] = n
            return n
        if t == T_SKILL:  # a second push or pull may follow: its power and hex in ctx
            if W.use_skill(st, tab, p, c, a, bb, move >> 32):
                ctx[0] = W.skill_power(st, tab, p, c)
                ctx[1] = st[b + S.EXTRA_HEX]
                return 1
            return 0
        if t == T_MAP:
            R.use_map(st, p, a, bb)
        elif t == T_GUIDE:
            R.use_guide(st, p, a, bb)
        elif t == T_PIPS or t == T_TINT:
            here = st[S.DIE_AT + a] % S.HEXES
            if c == 0:  # a mascot is used: the mascot staff's extras follow on its attraction
                st[b + S.MASCOTS_USED] += 1
                st[b + S.EXTRA_LEFT] = R.played(st, p, R.MASCOT)
                st[b + S.EXTRA_HEX] = here
            else:
                st[b + S.EXTRA_LEFT] -= 1
            change_die(st, tab, p, move)
    return 0
