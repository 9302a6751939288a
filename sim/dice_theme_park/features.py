"""Move features for the bots: one row per legal move, the same columns at every decision.

A move's features are what it changes in the seat's standing: the move is applied to a copy
of the state and a snapshot of the seat (stars, money, what can operate, dice, tiles, ...) is
taken before and after. Weights per decision kind (strategies/presets/dice_theme_park.toml)
then say what a bot cares about where. Bots see public information and their own hand only:
a snapshot reads the seat's own park and staging area, the public display and monorails.

Passes over the moves, not one game state per move: the copy is made once per decision, and
after each move only what the move can touch (the hexes and dice of its footprint) is read
again and put back (a monorail's: the entrance and the dice it brings). A move of a
``whole_kind`` (the starting tile, a free build: a few per game) gets a whole copy and
snapshot; ``exact=True`` takes that path for every move,
and a test holds the two paths equal. Moves that must come out alike share the work: a tile's
build on each of its hexes (``_as_previous``), a die's vacated hex whatever its
destination (``_after``'s ``left``), and an operate decision's die moves (a map, the guide, a
mascot's adjustments, a skill acting on dice), whose rows differ only in what their dice do
(``_die_part``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.arrays import copy_range
from sim.core.bits import popcount
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import powers as W
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB
from sim.dice_theme_park.data import ADMIN_POWERS, SKILL_POWERS

FEATURES = (
    "stars",  # stars, with those the cubes placed this round will score at upkeep
    "money",
    "operable",  # attractions with a free icon and a party ready
    "dice",  # dice in the park
    "pips",  # pips of the dice in the park
    "tiles",  # attractions in the park (not the entrance)
    "park_value",  # stars a round of every attraction would score (generators: twice)
    "resources",  # usable maps, mascots and staff powers left this round
    "upgrades",  # upgrades installed
    "mascots",  # mascots owned
    "pass",  # 1 for passing or stopping
    "turn_sum",  # STAFF: the pair's pips (a low sum plays first); LOWER: the sum's change;
    #              SWAP: the pips of the card kept over the one given
    "income",  # STAFF: the pair's money; SWAP: the money of the card kept over the one given
    # ADMIN, SKILL, TAKE_SKILL: 1 on the card's power; SWAP: -1 on the administrator's
    *(f"admin_{power}" for power in ADMIN_POWERS),
    *(f"skill_{power}" for power in SKILL_POWERS),
)
N_FEATURES = len(FEATURES)
F_PASS, F_TURN_SUM, F_INCOME = 10, 11, 12
F_ADMIN = 13  # the first admin_ column
F_SKILL = F_ADMIN + len(ADMIN_POWERS)
N_SNAPSHOT = 10  # the first N_SNAPSHOT features are before/after differences
F_STARS, F_MONEY, F_OPERABLE, F_DICE, F_PIPS, F_TILES, F_VALUE, F_RESOURCES, F_UPGRADES, \
    F_MASCOTS = range(N_SNAPSHOT)
_ADMINS = tuple(f"admin_{power}" for power in ADMIN_POWERS)
_SKILLS = tuple(f"skill_{power}" for power in SKILL_POWERS)
# The columns each decision kind's rows can be nonzero in: every kind the snapshot's and
# passing, a few their own (_move_parts). A bot's weight on any other multiplies a 0, so the
# kernel's weights leave it out (bots.bot_arrays): the greedy bot's 22 card powers weigh
# nothing at an operate decision. A test plays games and holds every row to this table.
_OWN = {"staff": ("turn_sum", "income"), "lower": ("turn_sum",),
        "swap": ("turn_sum", "income", *_ADMINS), "admin": _ADMINS, "skill": _SKILLS,
        "take_skill": _SKILLS}
FILLS = {kind: FEATURES[:F_PASS + 1] + _OWN.get(kind, ()) for kind in M.KINDS}
HEX_PARTS = (F_STARS, F_OPERABLE, F_TILES, F_VALUE, F_UPGRADES)  # summed over the hexes
H_OPERABLE = HEX_PARTS.index(F_OPERABLE)
FOOTPRINT = 3  # at most 3 hexes and 3 dice per move
# the die moves' rows (``_spending``): a (type, use) pair of a map, the guide or a mascot's
# adjustment, then a skill's use (each card spends a mascot alike: no feature tells which)
SPENDINGS = 2 * (M.T_TINT - M.T_MAP + 1) + 1
FOOTPRINT_PATH, EXACT_PATH = False, True  # move_features' ``exact``


@njit
def new_buffers():
    """The features' buffers, allocated once per game lane: a state copy, the snapshots
    before and after, for both the hexes' parts and the dice by hex (moves.sort_park), the
    copy of the decision's context a whole kind's moves are applied with, a
    hex's dice, the footprint (hexes, then dice), one hex's parts, a hex's share once a
    die has left it (``_after``), the die moves' rows without their die's part, with
    which of them are there, and the operable part of a hex once a die has left it
    (``_die_part``)."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(N_SNAPSHOT, dtype=np.int64),
            np.zeros(N_SNAPSHOT, dtype=np.int64),
            np.zeros((2, S.HEXES, len(HEX_PARTS)), dtype=np.int64),
            np.zeros((2, S.HEXES), dtype=np.int64),
            np.zeros((2, S.HEXES, S.PARK_DICE), dtype=np.int64),
            np.zeros(1 + S.DICE, dtype=np.int64), np.zeros(S.DICE, dtype=np.int64),
            np.zeros(2 * FOOTPRINT, dtype=np.int64), np.zeros(len(HEX_PARTS), dtype=np.int64),
            np.zeros(1 + len(HEX_PARTS), dtype=np.int64),
            np.zeros((SPENDINGS, N_FEATURES)), np.zeros(SPENDINGS, dtype=np.int64),
            np.zeros(2, dtype=np.int64))


@njit(inline="always")  # per feature row
def _hex_parts(st, tab, p, h, on, out) -> None:
    """Hex h's share of seat p's snapshot, in HEX_PARTS order, into ``out``; ``on``: the
    dice slots on it."""
    b = S.seat(p)
    a = st[b + S.TILE + h]
    if a < 0:
        for k in range(len(HEX_PARTS)):
            out[k] = 0
        return
    up = st[b + S.UPGRADE + h]
    per_op = tab[TB.ATT_STARS + a] + tab[R.P_EFFECT_STARS] * ((up >> S.SPECIAL_EFFECT) & 1)
    out[0] = st[b + S.CUBES_ON + h] * per_op
    out[1] = 1 if R.free_icon(st, tab, p, h) and R.has_party(st, tab, a, on) else 0
    out[2] = 0 if tab[TB.ATT_STACK + a] == TB.STACK_ENTRANCE else 1
    out[3] = per_op * (tab[TB.ATT_ICONS + a] + ((up >> S.GENERATOR) & 1))
    out[4] = popcount(up)


@njit(inline="always")  # per feature row
def _seat_parts(st, tab, p, out) -> None:
    """The snapshot's parts that are not the hexes' (the stars' pending part excepted)."""
    b = S.seat(p)
    out[F_STARS] = st[b + S.STARS]
    out[F_MONEY] = st[b + S.MONEY]
    out[F_RESOURCES] = (st[b + S.MAPS_UP] + st[b + S.MASCOTS] - st[b + S.MASCOTS_USED]
                        + R.played(st, p, R.GUIDE) - st[b + S.GUIDE_USED]
                        + R.played(st, p, R.MANAGER) - st[b + S.MANAGER_USED])
    out[F_MASCOTS] = st[b + S.MASCOTS]


@njit(inline="always")  # per feature row
def _die_parts(st, p, i):
    """Die slot i's (dice, pips) in seat p's park."""
    at = st[S.DIE_AT + i]
    if at == S.NOWHERE or at // S.HEXES != p:
        return 0, 0
    return 1, st[S.DIE_PIPS + i]


@njit
def snapshot(st, tab, p, out, hex_parts, counts, slots) -> None:
    """Seat p's standing: the first N_SNAPSHOT features' values; each hex's share into
    ``hex_parts``, the park's dice by hex into ``counts`` and ``slots``."""
    M.sort_park(st, p, counts, slots)
    _seat_parts(st, tab, p, out)
    out[F_OPERABLE] = 0
    out[F_TILES] = 0
    out[F_VALUE] = 0
    out[F_UPGRADES] = 0
    out[F_DICE] = 0
    out[F_PIPS] = 0
    for h in range(S.HEXES):
        _hex_parts(st, tab, p, h, slots[h, :counts[h]], hex_parts[h])
        for k in range(len(HEX_PARTS)):
            out[HEX_PARTS[k]] += hex_parts[h, k]
        out[F_DICE] += counts[h]
        for k in range(counts[h]):
            out[F_PIPS] += st[S.DIE_PIPS + slots[h, k]]


@njit
def whole_kind(kind) -> bool:
    """A kind whose moves change more than a footprint (the stacks, a rearrange's new
    dice, the card decks): a whole copy and snapshot per move, a few per game."""
    return kind == M.K_START or kind == M.K_FREE_BUILD \
        or kind == M.K_ADMIN or kind == M.K_SKILL or kind == M.K_TAKE_SKILL \
        or kind == M.K_REARRANGE or kind == M.K_LEFTOVER


@njit(inline="always")  # per feature row
def footprint(st, tab, p, kind, move, ctx, out) -> None:
    """The hexes (out[:3]) and dice slots (out[3:]) of seat p's park that ``move`` can
    change, -1 padded (not for a ``whole_kind``); ``ctx``: the context ``move`` was applied
    with (a monorail's: the slots its dice took)."""
    for k in range(2 * FOOTPRINT):
        out[k] = -1
    t, a, bb, c = M.decode(move)
    if t == M.PASS or kind == M.K_STAFF or kind == M.K_MASCOT or kind == M.K_MAP \
            or kind == M.K_LOWER or kind == M.K_SWAP:
        return
    if kind == M.K_MONORAIL:  # its dice onto the entrance
        out[0] = tab[R.P_ENTRANCE_HEX]
        for k in range(ctx[0]):
            out[FOOTPRINT + k] = ctx[1 + k]
        return
    if kind == M.K_OPERATE and t == M.T_SKILL:
        power = W.skill_power(st, tab, p, c)
        if power == R.SK_MONEY or power == R.SK_STARS:
            return  # the seat's money or stars: no hex, no die
        out[0] = st[S.DIE_AT + a] % S.HEXES
        out[3] = a
        if power == R.SK_NUDGE:
            out[4] = bb
        elif power == R.SK_PUSH or power == R.SK_PULL or power == R.SK_LEAP:
            out[1] = bb
    elif kind == M.K_BUILD or kind == M.K_UPGRADE:
        out[0] = bb
    elif kind == M.K_CONCIERGE:
        out[0] = tab[R.P_ENTRANCE_HEX]
        out[3] = a
        if t == 2:
            out[4] = bb
    elif kind == M.K_OPERATE and t == M.T_ACT:
        out[0] = a
        M.party_of(move, out[3:])
    else:  # a die moves or changes: MOVE, SAVE, BONUS_PIPS, OPERATE's maps, guide, mascots
        out[0] = st[S.DIE_AT + a] % S.HEXES
        out[3] = a
        if kind == M.K_SAVE or kind == M.K_ADMIN_SAVE:
            out[1] = tab[R.P_ENTRANCE_HEX]
        elif kind == M.K_MOVE or kind == M.K_AGAIN or t == M.T_MAP or t == M.T_GUIDE:
            out[1] = bb


@njit
def _sync(work, st, p) -> None:
    """``work`` = ``st`` where a move with a footprint reads or writes: the shared counters,
    the display and discard pile, the monorails, seat p's dice in use and the free slots
    after them a monorail's dice take, and its block (no such move reads another seat's)."""
    copy_range(work, st, 0, S.DICE_N + S.MAX_PLAYERS)
    first, last = S.park_slots(st, p)
    last = min(last + S.SPACES, first + S.PARK_DICE)  # and the free slots a monorail fills
    for field in (S.DIE_COL, S.DIE_PIPS, S.DIE_AT, S.DIE_TINT):
        copy_range(work, st, field + first, field + last)
    copy_range(work, st, S.seat(p), S.seat(p) + S.SEAT_SIZE)


@njit(inline="always")  # per feature row
def _restore(work, st, p, kind, move, fp) -> None:
    """Put back into ``work`` what ``move`` (of ``kind``, footprint ``fp``) changed."""
    b = S.seat(p)
    # the seat's counters before and after its hex arrays; those arrays at the footprint
    copy_range(work, st, b, b + S.TILE)
    copy_range(work, st, b + S.INSTALLED, b + S.SEAT_SIZE)
    for x in range(FOOTPRINT):
        h = fp[x]
        if h >= 0:
            for field in (S.TILE, S.UPGRADE, S.CUBES_ON, S.BANNED):
                work[b + field + h] = st[b + field + h]
    copy_range(work, st, S.BAG, S.BAG + S.COLOURS)
    if kind == M.K_BUILD:
        copy_range(work, st, S.DISPLAY_N, S.DISPLAY + S.DISPLAY_CAP)
    if kind == M.K_MONORAIL:
        copy_range(work, st, S.MONO_TAKEN, S.MONO_PIPS)
        work[S.DICE_N + p] = st[S.DICE_N + p]
    if kind == M.K_OPERATE and M.decode(move)[0] == M.T_ACT:
        # an operation clears the colour adjustments on its attraction
        first, last = S.park_slots(st, p)
        copy_range(work, st, S.DIE_TINT + first, S.DIE_TINT + last)
    for k in range(FOOTPRINT):
        i = fp[FOOTPRINT + k]
        if i >= 0:
            work[S.DIE_COL + i] = st[S.DIE_COL + i]  # the recolour skill
            work[S.DIE_PIPS + i] = st[S.DIE_PIPS + i]
            work[S.DIE_AT + i] = st[S.DIE_AT + i]
            work[S.DIE_TINT + i] = st[S.DIE_TINT + i]


@njit(inline="always")  # per feature row
def _dice_now_on(work, p, h, i, j, k, counts, slots, on) -> int:
    """The dice on hex h in ``work``, where only dice i, j and k (-1: none) may have moved
    or changed since the state whose dice by hex are ``counts`` and ``slots``: those that
    were there and are none of them, then those of them there now, into ``on``; how many."""
    m = 0
    for x in range(counts[h]):
        d = slots[h, x]
        if d != i and d != j and d != k:
            on[m] = d
            m += 1
    for d in (i, j, k):
        if d >= 0 and work[S.DIE_AT + d] == p * S.HEXES + h:
            on[m] = d
            m += 1
    return m


@njit(inline="always")  # per feature row
def _after(st, work, tab, p, fp, before, hex_parts, counts, slots, on, parts, out, left,
           leaves) -> None:
    """The snapshot of ``work`` from ``before`` (of ``st``: its hexes' parts, its dice by
    hex), reading again only the footprint ``fp``; ``on`` and ``parts`` are buffers.

    ``leaves``: the move takes die fp[3] off hex fp[0] and changes nothing else there (a map,
    the guide, a move after an operation), so that hex's new share is the same whatever the
    destination: ``left`` keeps it (left[0]: the die, left[1:]: the change of each part),
    and the die's next moves reuse it."""
    _seat_parts(work, tab, p, out)
    out[F_STARS] += before[F_STARS] - st[S.seat(p) + S.STARS]  # the pending stars follow
    for k in range(1, len(HEX_PARTS)):
        out[HEX_PARTS[k]] = before[HEX_PARTS[k]]
    for x in range(FOOTPRINT):
        h = fp[x]
        if h < 0 or (x > 0 and fp[0] == h) or (x > 1 and fp[1] == h):
            continue
        if x == 0 and leaves and left[0] == fp[FOOTPRINT]:
            for k in range(len(HEX_PARTS)):
                out[HEX_PARTS[k]] += left[1 + k]
            continue
        m = _dice_now_on(work, p, h, fp[FOOTPRINT], fp[FOOTPRINT + 1], fp[FOOTPRINT + 2],
                         counts, slots, on)
        _hex_parts(work, tab, p, h, on[:m], parts)
        for k in range(len(HEX_PARTS)):
            out[HEX_PARTS[k]] += parts[k] - hex_parts[h, k]
        if x == 0 and leaves:
            left[0] = fp[FOOTPRINT]
            for k in range(len(HEX_PARTS)):
                left[1 + k] = parts[k] - hex_parts[h, k]
    if work[S.seat(p) + S.CUBES] >= tab[R.P_CUBES]:
        out[F_OPERABLE] = 0  # the last cube: no hex is free any more
    out[F_DICE] = before[F_DICE]
    out[F_PIPS] = before[F_PIPS]
    for x in range(FOOTPRINT, 2 * FOOTPRINT):
        i = fp[x]
        if i >= 0:
            d0, p0 = _die_parts(st, p, i)
            d1, p1 = _die_parts(work, p, i)
            out[F_DICE] += d1 - d0
            out[F_PIPS] += p1 - p0


@njit(inline="always")  # per feature row
def _leaves(st, tab, p, kind, move) -> bool:
    """``move`` takes a die off its hex and changes nothing else there (``_after``)."""
    t, _, _, c = M.decode(move)
    if kind == M.K_OPERATE and t == M.T_SKILL:
        power = W.skill_power(st, tab, p, c)
        return power == R.SK_PUSH or power == R.SK_PULL or power == R.SK_LEAP
    return kind == M.K_MOVE or kind == M.K_AGAIN or (
        kind == M.K_OPERATE and (t == M.T_MAP or t == M.T_GUIDE))


@njit(inline="always")  # per feature row
def _as_previous(kind, moves, m) -> bool:
    """Move m's features are move m - 1's: the same tile built on another hex (a build hex
    is empty, and nothing in a snapshot depends on where the tile stands)."""
    if kind != M.K_BUILD or m == 0:
        return False
    t, a, _, _ = M.decode(moves[m])
    t0, a0, _, _ = M.decode(moves[m - 1])
    return t == M.T_ACT and t0 == M.T_ACT and a == a0


@njit(inline="always")  # per feature row
def _spending(st, tab, p, kind, move) -> int:
    """An operate decision's die move (a map, the guide, a mascot's or an extra
    adjustment, a skill acting on dice): what it spends, as a row of the die moves'
    rows (all that spend alike share every feature but the die's part, ``_die_part``); -1
    for another move."""
    t, _, _, c = M.decode(move)
    if kind != M.K_OPERATE or t < M.T_MAP:
        return -1
    if t == M.T_SKILL:
        power = W.skill_power(st, tab, p, c)
        if power == R.SK_MONEY or power == R.SK_STARS:
            return -1  # a gain that depends on the hex
        return SPENDINGS - 1
    return 2 * (t - M.T_MAP) + (c if t >= M.T_PIPS else 0)


@njit(inline="always")  # per hex of a die move
def _operable_part(st, work, tab, p, h, i, j, counts, slots, on) -> int:
    """Hex h's operable part in ``work``, where only dice i and j (-1: none) may have
    changed (moved to h, away from h, adjusted on h, discarded) since ``st``, whose dice by
    hex are ``counts`` and ``slots``."""
    if not R.free_icon(st, tab, p, h):
        return 0
    m = _dice_now_on(work, p, h, i, j, -1, counts, slots, on)
    return 1 if R.has_party(work, tab, st[S.seat(p) + S.TILE + h], on[:m]) else 0


@njit(inline="always")  # per die move
def _die_part(st, work, tab, p, move, hex_parts, counts, slots, on, gone) -> tuple:
    """What die move ``move`` changes through its dice alone (``M.change_die``): the
    changes of (operable, dice, pips); ``work`` is ``st`` there before and after. A nudge
    changes two dice on one hex, the others one die. ``gone``: (a die, its hex's operable
    part once it has left), the same for each of the die's moves away."""
    t, i, other, c = M.decode(move)
    j = other if t == M.T_SKILL and W.skill_power(st, tab, p, c) == R.SK_NUDGE else -1
    here = st[S.DIE_AT + i] % S.HEXES
    M.change_die(work, tab, p, move)
    to = work[S.DIE_AT + i]
    operable = 0
    for x in range(2):  # the die's hex, then the one it joins
        h = here if x == 0 else to % S.HEXES
        if x == 1 and (to == S.NOWHERE or h == here):
            break
        before = hex_parts[h, H_OPERABLE]
        away = x == 0 and j < 0 and to != st[S.DIE_AT + i]
        if (away and before == 0) or (x == 1 and before == 1):
            continue  # a die leaving a hex keeps none there, joining one keeps its parties
        if away and gone[0] == i:
            operable += gone[1] - before
            continue
        now = _operable_part(st, work, tab, p, h, i, j, counts, slots, on)
        if away:
            gone[0] = i
            gone[1] = now
        operable += now - before
    dice = 0
    pips = 0
    for d in (i, j):
        if d >= 0:
            d0, p0 = _die_parts(st, p, d)
            d1, p1 = _die_parts(work, p, d)
            dice += d1 - d0
            pips += p1 - p0
            for field in (S.DIE_COL, S.DIE_AT, S.DIE_PIPS, S.DIE_TINT):
                work[field + d] = st[field + d]
    copy_range(work, st, S.BAG, S.BAG + S.COLOURS)  # a die discarded or recoloured
    return operable, dice, pips


@njit
def move_features(st, tab, p, kind, moves, n, feats, buffers, ctx, exact) -> None:
    """Feature rows of seat p's ``n`` legal ``moves`` at a ``kind`` decision into ``feats``;
    ``buffers``: ``new_buffers()``; ``ctx``: the decision's context, which a move of a whole
    kind (the rearrange's new dice) is applied with. ``exact``: a whole copy and snapshot for
    every move (always given: a default left out is a type of its own, a second compile)."""
    work, before, after, hex_parts, counts, slots, wctx, on, fp, parts, left, spent, \
        seen, gone = buffers
    left[0] = -1
    gone[0] = -1
    for k in range(SPENDINGS):
        seen[k] = 0
    snapshot(st, tab, p, before, hex_parts[0], counts[0], slots[0])
    whole = exact or whole_kind(kind)
    if whole:
        copy_range(work, st, 0, S.SIZE)
    else:
        _sync(work, st, p)
    for m in range(n):
        if not whole and _as_previous(kind, moves, m):
            for f in range(N_FEATURES):
                feats[m, f] = feats[m - 1, f]
            continue
        spends = -1 if whole else _spending(st, tab, p, kind, moves[m])
        operable, dice, pips = 0, 0, 0
        if spends >= 0:  # one call site: the die moves' path is inlined once
            operable, dice, pips = _die_part(st, work, tab, p, moves[m], hex_parts[0],
                                             counts[0], slots[0], on, gone)
        if spends >= 0 and seen[spends]:  # the row of a die move spending alike, this die's part
            for f in range(N_SNAPSHOT):  # a die move's other features are 0 (_move_parts)
                feats[m, f] = spent[spends, f]
            for f in range(N_SNAPSHOT, N_FEATURES):
                feats[m, f] = 0.0
            feats[m, F_OPERABLE] += operable
            feats[m, F_DICE] += dice
            feats[m, F_PIPS] += pips
            continue
        if whole:  # a copy of the context too: the rearrange's moves read it
            copy_range(wctx, ctx, 0, ctx.shape[0])
        M.apply(work, tab, p, kind, moves[m], wctx)
        if not whole:
            footprint(st, tab, p, kind, moves[m], wctx, fp)
            _after(st, work, tab, p, fp, before, hex_parts[0], counts[0], slots[0], on, parts,
                   after, left, _leaves(st, tab, p, kind, moves[m]))
            _restore(work, st, p, kind, moves[m], fp)
        else:
            snapshot(work, tab, p, after, hex_parts[1], counts[1], slots[1])
            copy_range(work, st, 0, S.SIZE)
        for f in range(N_SNAPSHOT):
            feats[m, f] = after[f] - before[f]
        _move_parts(st, tab, p, kind, moves[m], feats[m])
        if spends >= 0:  # the first die move spending so: its row without its die's part
            for f in range(N_SNAPSHOT):
                spent[spends, f] = feats[m, f]
            spent[spends, F_OPERABLE] -= operable
            spent[spends, F_DICE] -= dice
            spent[spends, F_PIPS] -= pips
            seen[spends] = 1


@njit(inline="always")  # per feature row
def _move_parts(st, tab, p, kind, move, row) -> None:
    """The features a move has of its own (not snapshot differences): passing, the staff
    pair's pips and money, the power of a card kept or taken."""
    t, a, b, _ = M.decode(move)
    for f in range(N_SNAPSHOT, N_FEATURES):
        row[f] = 0.0
    row[F_PASS] = 1.0 if t == M.PASS else 0.0
    if kind == M.K_STAFF:
        row[F_TURN_SUM] = tab[TB.STAFF_PIPS + a] + tab[TB.STAFF_PIPS + b]
        row[F_INCOME] = tab[TB.STAFF_MONEY + a] + tab[TB.STAFF_MONEY + b]
    elif kind < M.K_ADMIN or t == M.PASS:
        return
    s = S.seat(p)
    if kind == M.K_ADMIN:
        row[F_ADMIN + tab[TB.ADM_POWER + st[s + S.ADMIN_DEALT + a]]] = 1.0
    elif kind == M.K_SKILL:
        row[F_SKILL + tab[TB.SK_POWER + st[s + S.SKILL_DEALT + a]]] = 1.0
    elif kind == M.K_TAKE_SKILL:
        row[F_SKILL + tab[TB.SK_POWER + st[S.SKILL_DISPLAY + a]]] = 1.0
    elif kind == M.K_LOWER:
        row[F_TURN_SUM] = -a
    elif kind == M.K_SWAP:
        kept = st[s + S.PLAYED + a]
        row[F_TURN_SUM] = tab[TB.STAFF_PIPS + kept] - tab[TB.STAFF_PIPS + b]
        row[F_INCOME] = tab[TB.STAFF_MONEY + kept] - tab[TB.STAFF_MONEY + b]
        row[F_ADMIN + tab[TB.ADM_POWER + st[s + S.ADMIN]]] = -1.0


@njit
def differ(feats, other, n) -> bool:
    """The first n feature rows of ``feats`` and ``other`` differ."""
    for m in range(n):
        for f in range(N_FEATURES):
            if feats[m, f] != other[m, f]:
                return True
    return False
