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

(F_POINTS, F_BOARD, F_OBJ, F_CROWD, F_PROGRESS, F_TAKE, F_VALUE, F_CROWD_PROGRESS, F_HEIGHT,
 F_EMPTY, F_LATE) = (TURN_FEATURES.index(name) for name in (
    "points", "board", "objectives", "crowd", "progress", "take_objective", "objective_value",
    "crowd_progress", "height", "empty_cell", "late_objective"))
F_CELLS, F_STACKED, F_OWN_COLOUR, F_OWN_DESIGN, F_START_VALUE = (
    START_FEATURES.index(name) for name in ("cells", "stacked", "own_colour", "own_design",
                                            "value"))


@njit(cache=True)
def _copy_view(st, b, view):
    for k in range(S.VIEW_SIZE):
        view[k] = st[b + k]


# Layout of the ``before`` buffer: the seat's standing before the move, computed once per
# decision so that each move recomputes only what it can change.
B_PROGRESS = 0  # sum over held cards of value * share met
B_CROWD = 1  # sum over open crowd tiles of value * share met
B_CARD = 2  # B_CARD + i: value * share met of held card i
B_TILE = 2 + S.HELD_CAP  # B_TILE + k: value * share met of crowd tile k (0 when claimed)
B_CARD_RATE = B_TILE + S.CROWD_TILES  # B_CARD_RATE + i: held card i's value / its cells
B_TILE_RATE = B_CARD_RATE + S.HELD_CAP  # B_TILE_RATE + k: crowd tile k's value / its count
BEFORE_SIZE = B_TILE_RATE + S.CROWD_TILES
WORDS_SIZE = S.HELD_CAP * TB.PATTERN_CELLS  # the held cards' placement words
# (The rates turn the divisions of the move loop into multiplications.)


@njit(cache=True)
def _remember(tab, st, b, before, words):
    """Fill ``before`` with the seat's current progress (no held card and no open crowd tile
    is met now) and ``words`` with the held cards' placement words (rules.py)."""
    total = 0.0
    for i in range(st[b + S.HELD_N]):
        card = st[b + S.HELD + i]
        before[B_CARD_RATE + i] = tab[TB.CARD_VALUE + card] / tab[TB.CARD_NCELLS + card]
        w = i * TB.PATTERN_CELLS
        words[w], words[w + 1], words[w + 2], words[w + 3] = R.card_words(tab, card, st, b)
        if tab[TB.CARD_KIND + card] == TB.KIND_PAIR:
            got = R.pattern_progress(tab, card, st, b)
        else:
            got = R.most_in_common(words[w], words[w + 1], words[w + 2], words[w + 3])
        before[B_CARD + i] = before[B_CARD_RATE + i] * got
        total += before[B_CARD + i]
    before[B_PROGRESS] = total
    total = 0.0
    for k in range(S.CROWD_TILES):
        before[B_TILE + k] = 0.0
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        if st[S.CROWD_OWNER + k] < 0:
            cond = st[S.CROWD_COND + k]
            got = R.crowd_measure(tab, cond, st, b)
            before[B_TILE_RATE + k] = tab[TB.CROWD_VALUE + cond] / tab[TB.CROWD_COUNT + cond]
            before[B_TILE + k] = before[B_TILE_RATE + k] * min(got, tab[TB.CROWD_COUNT + cond])
            total += before[B_TILE + k]
    before[B_CROWD] = total


@njit(cache=True)
def turn_features(st, tab, p, moves, n, feats, view, before, words):
    """Fill ``feats[:n]`` for seat p's legal ``moves``.

    ``view`` (int64[VIEW_SIZE]), ``before`` (float64[BEFORE_SIZE]) and ``words``
    (int64[WORDS_SIZE]) are scratch buffers. Each move changes the VIEW copy in place, is
    measured and put back. The loop calls no large function: in compiled code a call passes
    each array as a dozen words, which cost more than the work of a move.
    """
    b = S.SEAT + p * S.SEAT_SIZE
    colour = st[b + S.COLOUR]
    design = st[b + S.DESIGN]
    _remember(tab, st, b, before, words)
    used = 0.0
    for s in range(st[S.N_PLAYERS]):
        used = max(used, 1.0 - st[S.STACK_N + s] / tab[TB.PARAMS + S.P_TILES_PER_PLAYER])
    _copy_view(st, b, view)
    left = R.top_tile(st, R.stack_of(st, p, 0))
    right = R.top_tile(st, R.stack_of(st, p, 1))
    for m in range(n):
        for f in range(feats.shape[1]):
            feats[m, f] = 0.0
        move = moves[m]
        if move == R.MOVE_PASS:
            continue
        obj = 0.0
        prog = 0.0
        on_board = move < R.MOVE_OBJECTIVE
        if on_board:
            cell = move % R.MOVE_TILE_RIGHT
            tile = left if move < R.MOVE_TILE_RIGHT else right
            old = st[b + S.TOP + cell]
            h = st[b + S.HEIGHT + cell] + 1
            R.place_on_view(tab, view, 0, cell, old, tile, h)
            board = R.tile_points(tab, colour, design, tile, h) - R.tile_points(
                tab, colour, design, old, h - 1)
            # Held cards: one that neither the new tile nor the covered one can serve is
            # unchanged (and unmet), so it keeps its share; another changes its placement
            # words only through this cell.
            for i in range(st[b + S.HELD_N]):
                card = st[b + S.HELD + i]
                served = tab[TB.CARD_TILES + card] >> tile
                if old >= 0:
                    served |= tab[TB.CARD_TILES + card] >> old
                if served & 1 == 0:
                    prog += before[B_CARD + i]
                    continue
                if tab[TB.CARD_KIND + card] == TB.KIND_PAIR:
                    got = R.pattern_progress(tab, card, view, 0)
                else:
                    fit = R.fits(tab, card, tile, h)
                    w = i * TB.PATTERN_CELLS
                    got = R.most_in_common(R.word_after(tab, card, 0, words[w], cell, fit),
                                           R.word_after(tab, card, 1, words[w + 1], cell, fit),
                                           R.word_after(tab, card, 2, words[w + 2], cell, fit),
                                           R.word_after(tab, card, 3, words[w + 3], cell, fit))
                if got >= tab[TB.CARD_NCELLS + card]:
                    value = tab[TB.CARD_VALUE + card]
                    obj += value
                    view[S.V_DONE_N] += 1
                    view[S.V_DONE_VALUES] |= np.int64(1) << value
                else:
                    prog += before[B_CARD_RATE + i] * got
            prog -= before[B_PROGRESS]
            feats[m, F_BOARD] = board
            feats[m, F_HEIGHT] = h
            feats[m, F_EMPTY] = 1.0 if h == 1 else 0.0
        else:
            # Taking a card leaves the board and the held cards alone.
            q = move - R.MOVE_OBJECTIVE
            card = st[S.PILE + q * S.PILE_CAP + st[S.PILE_N + q] - 1]
            value = tab[TB.CARD_VALUE + card]
            got = R.pattern_progress(tab, card, st, b)
            if got >= tab[TB.CARD_NCELLS + card]:
                obj = value
                view[S.V_DONE_N] += 1
                view[S.V_DONE_VALUES] |= np.int64(1) << value
            else:
                prog = value * got / tab[TB.CARD_NCELLS + card]
            feats[m, F_TAKE] = 1.0
            feats[m, F_VALUE] = value
            feats[m, F_LATE] = value * used
        # Crowd-pleasers: none open is met before the move (it would have been claimed at
        # the end of the seat's last turn), so one whose inputs the move leaves alone keeps
        # its share.
        crowd = 0.0
        cprog = 0.0
        for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
            if st[S.CROWD_OWNER + k] >= 0:
                continue
            cond = st[S.CROWD_COND + k]
            if not (obj > 0 if R.on_objectives(tab, cond) else on_board):
                cprog += before[B_TILE + k]
                continue
            got = R.crowd_measure(tab, cond, view, 0)
            if got >= tab[TB.CROWD_COUNT + cond]:
                crowd += tab[TB.CROWD_VALUE + cond]
            else:
                cprog += before[B_TILE_RATE + k] * got
        feats[m, F_OBJ] = obj
        feats[m, F_CROWD] = crowd
        feats[m, F_POINTS] = feats[m, F_BOARD] + obj + crowd
        feats[m, F_PROGRESS] = prog
        feats[m, F_CROWD_PROGRESS] = cprog - before[B_CROWD]
        view[S.V_DONE_N] = st[b + S.V_DONE_N]
        view[S.V_DONE_VALUES] = st[b + S.V_DONE_VALUES]
        if on_board:
            _restore_view(st, b, view, tab, old, tile, h)


@njit(cache=True, inline="always")
def _restore_view(st, b, view, tab, old, tile, height):
    """Undo place_on_view on the VIEW copy: only these entries moved."""
    colour = tab[TB.TILE_COLOUR + tile]
    design = tab[TB.TILE_DESIGN + tile]
    view[S.V_COL + colour] = st[b + S.V_COL + colour]
    view[S.V_N_COL + colour] = st[b + S.V_N_COL + colour]
    view[S.V_DES + design] = st[b + S.V_DES + design]
    view[S.V_N_DES + design] = st[b + S.V_N_DES + design]
    if old >= 0:
        colour = tab[TB.TILE_COLOUR + old]
        design = tab[TB.TILE_DESIGN + old]
        view[S.V_COL + colour] = st[b + S.V_COL + colour]
        view[S.V_N_COL + colour] = st[b + S.V_N_COL + colour]
        view[S.V_DES + design] = st[b + S.V_DES + design]
        view[S.V_N_DES + design] = st[b + S.V_N_DES + design]
    if height <= S.LEVELS:
        view[S.V_LEVEL + height - 1] = st[b + S.V_LEVEL + height - 1]
        view[S.V_N_LEVEL + height - 1] = st[b + S.V_N_LEVEL + height - 1]


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
            req = TB.CARD_REQ + (card * 4 + i) * 3
            feats[m, F_CELLS] += 1.0
            feats[m, F_STACKED] += tab[req + 2]
            feats[m, F_OWN_COLOUR] += 1.0 if tab[req] == colour else 0.0
            feats[m, F_OWN_DESIGN] += 1.0 if tab[req + 1] == design else 0.0
        feats[m, F_START_VALUE] = tab[TB.CARD_VALUE + card]
