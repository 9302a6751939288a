"""Move features for the bots: one row per legal move, the same columns at every decision.

A move's features are what it changes in the seat's standing: the move is applied to a copy
of the state and a snapshot of the seat (stars, money, what can operate, dice, tiles, ...) is
taken before and after. Weights per decision kind (strategies/presets/dice_theme_park.toml)
then say what a bot cares about where. Bots see public information and their own hand only:
a snapshot reads the seat's own park and staging area, the public display and monorails.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.dice_theme_park import moves as M
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB

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
    "turn_sum",  # STAFF: the pair's pips (a low sum plays first)
    "income",  # STAFF: the pair's money
)
N_FEATURES = len(FEATURES)
N_SNAPSHOT = 10  # the first N_SNAPSHOT features are before/after differences


@njit
def snapshot(st, tab, p, out) -> None:
    """Seat p's standing: the first N_SNAPSHOT features' values."""
    b = S.seat(p)
    parties = np.empty((R.MAX_PARTIES, 3), dtype=np.int64)
    pending = 0
    operable = 0
    tiles = 0
    value = 0
    for h in range(S.HEXES):
        a = st[b + S.TILE + h]
        if a < 0:
            continue
        up = st[b + S.UPGRADE + h]
        per_op = tab[TB.ATT_STARS + a] + 2 * ((up >> S.SPECIAL_EFFECT) & 1)
        pending += st[b + S.CUBES_ON + h] * per_op
        value += per_op * (tab[TB.ATT_ICONS + a] + ((up >> S.GENERATOR) & 1))
        if tab[TB.ATT_STACK + a] != TB.STACK_ENTRANCE:
            tiles += 1
        if R.free_icon(st, tab, p, h) and R.parties(st, tab, p, h, parties) > 0:
            operable += 1
    dice = 0
    pips = 0
    for i in range(st[S.DICE_N]):
        at = st[S.DIE_AT + i]
        if at != S.NOWHERE and at // S.HEXES == p:
            dice += 1
            pips += st[S.DIE_PIPS + i]
    out[0] = st[b + S.STARS] + pending
    out[1] = st[b + S.MONEY]
    out[2] = operable
    out[3] = dice
    out[4] = pips
    out[5] = tiles
    out[6] = value
    out[7] = (st[b + S.MAPS_UP] + st[b + S.MASCOTS] - st[b + S.MASCOTS_USED]
              + R.played(st, p, R.GUIDE) - st[b + S.GUIDE_USED]
              + R.played(st, p, R.MANAGER) - st[b + S.MANAGER_USED])
    out[8] = R.objective_measure(st, tab, p, 5)
    out[9] = st[b + S.MASCOTS]


@njit
def move_features(st, tab, p, kind, ctx, moves, n, feats, work, before, after) -> None:
    """Feature rows of seat p's ``n`` legal ``moves`` at a ``kind`` decision into ``feats``.
    ``work`` is a state-sized buffer, ``before``/``after`` snapshot buffers."""
    snapshot(st, tab, p, before)
    wctx = np.empty(ctx.shape[0], dtype=np.int64)
    for m in range(n):
        work[:] = st
        wctx[:] = ctx
        M.apply(work, tab, p, kind, moves[m], wctx)
        snapshot(work, tab, p, after)
        for f in range(N_SNAPSHOT):
            feats[m, f] = after[f] - before[f]
        t, a, b, _ = M.decode(moves[m])
        feats[m, 10] = 1.0 if t == M.PASS else 0.0
        if kind == M.K_STAFF:
            feats[m, 11] = tab[TB.STAFF_PIPS + a] + tab[TB.STAFF_PIPS + b]
            feats[m, 12] = tab[TB.STAFF_MONEY + a] + tab[TB.STAFF_MONEY + b]
        else:
            feats[m, 11] = 0.0
            feats[m, 12] = 0.0
