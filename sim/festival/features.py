"""Move features: what a bot weighs. One row per legal move, public information only.

A bot sees its own board, the other boards, the top tile of each draw stack, the top card
of each objective pile and the crowd-pleasers; never a tile below a stack's top. Each
feature is computed on a copy of the seat's VIEW changed as the move would change it.
"""

import numpy as np
from numba import njit

from sim.festival import rules as R
from sim.festival import state as S
from sim.festival import tables as TB

DECISION_KINDS = ("turn", "start_side")
KIND_TURN = 0
KIND_START = 1

# Features of a turn move.
TURN_FEATURES = (
    "points",  # score gained now: board + objectives completed + crowd-pleasers
    "board",  # change of colour and design points on the board
    "objectives",  # points of objectives the move completes
    "crowd",  # points of crowd-pleasers the move claims
    "progress",  # change of sum(value * share of pattern met) over uncompleted objectives
    "take_objective",  # 1 for taking an objective card
    "objective_value",  # value of the card taken (0 for a tile)
    "crowd_progress",  # change of sum(value * share of condition met) over open crowd tiles
    "height",  # height of the cell after placing (0 for an objective)
    "empty_cell",  # 1 when the tile goes on an empty cell
    "late_objective",  # value of the card taken * share of the fullest draw stack used up
)
# Features of the starting-objective side choice.
START_FEATURES = (
    "cells",  # pattern cells
    "stacked",  # cells that must be stacked
    "own_colour",  # cells asking for the board's colour (they also score board points)
    "own_design",  # cells asking for the board's design
    "value",
)
N_FEATURES = max(len(TURN_FEATURES), len(START_FEATURES))

F_POINTS, F_BOARD, F_OBJ, F_CROWD, F_PROGRESS, F_TAKE, F_VALUE = 0, 1, 2, 3, 4, 5, 6
F_CROWD_PROGRESS, F_HEIGHT, F_EMPTY, F_LATE = 7, 8, 9, 10
SCRATCH = 32  # view copy (16) + cached "before" values


@njit(cache=True, inline="always")
def _copy_view(st, b, view):
    for k in range(S.VIEW_SIZE):
        view[k] = st[b + k]


@njit(cache=True, inline="always")
def _crowd_share(tab, cond, v, o):
    return min(1.0, R.crowd_measure(tab, cond, v, o) / tab[TB.CROWD_COUNT + cond])


@njit(cache=True, inline="always")
def _evaluate(tab, st, b, v, before):
    """(objective points, crowd points, progress, crowd progress) of view v for the seat.

    ``v`` is a hypothetical VIEW of the seat at ``st[b:]``; ``before`` holds the seat's
    current (progress, crowd progress), so the last two are changes.
    """
    obj = 0.0
    prog = 0.0
    for i in range(st[b + S.HELD_N]):
        card = st[b + S.HELD + i]
        got = R.pattern_progress(tab, card, v, 0)
        n = tab[TB.CARD_NCELLS + card]
        if got >= n:
            obj += tab[TB.CARD_VALUE + card]
            v[S.V_DONE_N] += 1
            v[S.V_DONE_VALUES] |= np.int64(1) << tab[TB.CARD_VALUE + card]
        else:
            prog += tab[TB.CARD_VALUE + card] * got / n
    crowd = 0.0
    crowd_prog = 0.0
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        if st[S.CROWD_OWNER + k] < 0:
            cond = st[S.CROWD_COND + k]
            if R.crowd_met(tab, cond, v, 0):
                crowd += tab[TB.CROWD_VALUE + cond]
            else:
                crowd_prog += tab[TB.CROWD_VALUE + cond] * _crowd_share(tab, cond, v, 0)
    return obj, crowd, prog - before[0], crowd_prog - before[1]


@njit(cache=True, inline="always")
def turn_features(st, tab, p, moves, n, feats, view, before):
    """Fill ``feats[:n]`` for seat p's legal ``moves``; ``view`` int64[16], ``before`` f64[2]."""
    b = S.SEAT + p * S.SEAT_SIZE
    for m in range(n):
        for f in range(feats.shape[1]):
            feats[m, f] = 0.0
    colour = st[b + S.COLOUR]
    design = st[b + S.DESIGN]
    # The seat as it stands: progress now, for the changes.
    _copy_view(st, b, view)
    before[0] = 0.0
    before[1] = 0.0
    _, _, prog_now, crowd_now = _evaluate(tab, st, b, view, before)
    before[0] = prog_now
    before[1] = crowd_now
    used = 0.0
    for s in range(st[S.N_PLAYERS]):
        used = max(used, 1.0 - st[S.STACK_N + s] / tab[TB.PARAMS + S.P_TILES_PER_PLAYER])
    for m in range(n):
        move = moves[m]
        if move == R.MOVE_PASS:
            continue
        _copy_view(st, b, view)
        if move >= R.MOVE_OBJECTIVE:
            q = move - R.MOVE_OBJECTIVE
            card = st[S.PILE + q * S.PILE_CAP + st[S.PILE_N + q] - 1]
            value = tab[TB.CARD_VALUE + card]
            # The board does not change, so held cards stay as they are (all unmet).
            obj = 0.0
            crowd = 0.0
            prog = 0.0
            cprog = 0.0
            got = R.pattern_progress(tab, card, view, 0)
            if got >= tab[TB.CARD_NCELLS + card]:
                obj = value
                view[S.V_DONE_N] += 1
                view[S.V_DONE_VALUES] |= np.int64(1) << value
                # Completing it may also meet a count-based crowd-pleaser.
                for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
                    cond = st[S.CROWD_COND + k]
                    if st[S.CROWD_OWNER + k] < 0 and R.crowd_met(tab, cond, view, 0):
                        crowd += tab[TB.CROWD_VALUE + cond]
            else:
                prog = value * got / tab[TB.CARD_NCELLS + card]
            feats[m, F_OBJ] = obj
            feats[m, F_CROWD] = crowd
            feats[m, F_POINTS] = obj + crowd
            feats[m, F_PROGRESS] = prog
            feats[m, F_CROWD_PROGRESS] = cprog
            feats[m, F_TAKE] = 1.0
            feats[m, F_VALUE] = value
            feats[m, F_LATE] = value * used
        else:
            s = R.stack_of(st, p, move // R.MOVE_TILE_RIGHT)
            cell = move % R.MOVE_TILE_RIGHT
            tile = R.top_tile(st, s)
            old = st[b + S.TOP + cell]
            h = st[b + S.HEIGHT + cell]
            R.place_on_view(tab, view, 0, cell, old, tile, h + 1)
            board = R.tile_points(tab, colour, design, tile, h + 1) - R.tile_points(
                tab, colour, design, old, h
            )
            obj, crowd, prog, cprog = _evaluate(tab, st, b, view, before)
            feats[m, F_BOARD] = board
            feats[m, F_OBJ] = obj
            feats[m, F_CROWD] = crowd
            feats[m, F_POINTS] = board + obj + crowd
            feats[m, F_PROGRESS] = prog
            feats[m, F_CROWD_PROGRESS] = cprog
            feats[m, F_HEIGHT] = h + 1
            feats[m, F_EMPTY] = 1.0 if h == 0 else 0.0


@njit(cache=True)
def start_features(st, tab, p, side_a, side_b, feats):
    """Features of the two sides of seat p's starting objective."""
    b = S.SEAT + p * S.SEAT_SIZE
    colour = st[b + S.COLOUR]
    design = st[b + S.DESIGN]
    for m in range(2):
        for f in range(feats.shape[1]):
            feats[m, f] = 0.0
    for m in range(2):
        card = side_a if m == 0 else side_b
        for i in range(tab[TB.CARD_NCELLS + card]):
            feats[m, 0] += 1.0
            feats[m, 1] += tab[TB.CARD_REQ + (card * 4 + i) * 3 + 2]
            feats[m, 2] += 1.0 if tab[TB.CARD_REQ + (card * 4 + i) * 3 + 0] == colour else 0.0
            feats[m, 3] += 1.0 if tab[TB.CARD_REQ + (card * 4 + i) * 3 + 1] == design else 0.0
        feats[m, 4] = tab[TB.CARD_VALUE + card]
