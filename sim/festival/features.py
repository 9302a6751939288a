"""Move features: what a bot weighs. One row per legal move, public information only.

A bot sees its own board, the other boards, the top tile of each draw stack, the top card
of each objective pile and the crowd-pleasers; never a tile below a stack's top. Each
feature is what the move would change in the seat's standing.
"""

import numpy as np
from numba import njit

from sim.core.bits import popcount
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
    "late_objective",  # value of the card taken * share used up of the emptiest draw stack
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


# Layout of the ``before`` buffer: the seat's standing before the move, computed once per
# decision so that each move recomputes only what it can change.
B_CARD = 0  # B_CARD + i: value * share met of held card i
B_TILE = S.HELD_CAP  # B_TILE + k: value * share met of crowd tile k
B_CARD_RATE = B_TILE + S.CROWD_TILES  # B_CARD_RATE + i: held card i's value / its cells
B_TILE_RATE = B_CARD_RATE + S.HELD_CAP  # B_TILE_RATE + k: crowd tile k's value / its count
BEFORE_SIZE = B_TILE_RATE + S.CROWD_TILES
# (The rates turn the divisions of the move loops into multiplications.)

# Layout of the ``work`` buffer (int64): the held cards' placement words (rules.py), then
# per move: the cell, tile, covered tile (-1: none) and new height of a tile move, and the
# objectives it completes (count, and a bit per value).
W_WORDS = 0
W_CELL = W_WORDS + S.HELD_CAP * TB.PATTERN_CELLS
W_TILE = W_CELL + R.MAX_MOVES
W_OLD = W_TILE + R.MAX_MOVES
W_HEIGHT = W_OLD + R.MAX_MOVES
W_DONE_N = W_HEIGHT + R.MAX_MOVES
W_DONE_VALUES = W_DONE_N + R.MAX_MOVES
WORK_SIZE = W_DONE_VALUES + R.MAX_MOVES


@njit
def _remember(tab, st, b, before, work):
    """Fill ``before`` with the seat's current standing (no held card and no open crowd tile
    is met now) and ``work`` with the held cards' placement words."""
    for i in range(st[b + S.HELD_N]):
        card = st[b + S.HELD + i]
        before[B_CARD_RATE + i] = tab[TB.CARD_VALUE + card] / tab[TB.CARD_NCELLS + card]
        w = W_WORDS + i * TB.PATTERN_CELLS
        work[w], work[w + 1], work[w + 2], work[w + 3] = R.card_words(tab, card, st, b)
        if tab[TB.CARD_KIND + card] == TB.KIND_PAIR:
            got = R.pattern_progress(tab, card, st, b)
        else:
            got = R.most_in_common(work[w], work[w + 1], work[w + 2], work[w + 3])
        before[B_CARD + i] = before[B_CARD_RATE + i] * got
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        if st[S.CROWD_OWNER + k] < 0:
            cond = st[S.CROWD_COND + k]
            got = R.crowd_measure(tab, cond, st, b)
            before[B_TILE_RATE + k] = tab[TB.CROWD_VALUE + cond] / tab[TB.CROWD_COUNT + cond]
            before[B_TILE + k] = before[B_TILE_RATE + k] * min(got, tab[TB.CROWD_COUNT + cond])


@njit
def turn_features(st, tab, p, moves, n, feats, before, work):
    """Fill ``feats[:n]`` for seat p's legal ``moves``.

    ``before`` (float64[BEFORE_SIZE]) and ``work`` (int64[WORK_SIZE]) are scratch buffers.
    The moves are measured in passes, one per held card and one per open crowd-pleaser, each
    a tight loop over the moves; the loops call no large function (a compiled call passes
    each array argument as a dozen words, more than the work of a move).
    """
    b = S.SEAT + p * S.SEAT_SIZE
    _remember(tab, st, b, before, work)
    n_tile = _describe_moves(st, tab, p, b, moves, n, feats, work)
    _held_cards(st, tab, b, n_tile, feats, before, work)
    _crowd_pleasers(st, tab, b, n, n_tile, feats, before, work)
    for m in range(n):
        feats[m, F_POINTS] = feats[m, F_BOARD] + feats[m, F_OBJ] + feats[m, F_CROWD]


@njit
def _describe_moves(st, tab, p, b, moves, n, feats, work):
    """Each move as it touches the board (work), the features that need no held card or
    crowd-pleaser, and the objective moves' own card. Returns the count of tile moves
    (they come first, rules.legal_moves)."""
    colour = st[b + S.COLOUR]
    design = st[b + S.DESIGN]
    left = R.top_tile(st, R.stack_of(st, p, 0))
    right = R.top_tile(st, R.stack_of(st, p, 1))
    used = 0.0
    for s in range(st[S.N_PLAYERS]):
        used = max(used, 1.0 - st[S.STACK_N + s] / tab[TB.PARAMS + S.P_TILES_PER_PLAYER])
    n_tile = 0
    for m in range(n):
        for f in range(feats.shape[1]):
            feats[m, f] = 0.0
        work[W_DONE_N + m] = 0
        work[W_DONE_VALUES + m] = 0
        move = moves[m]
        if move < R.MOVE_OBJECTIVE:
            cell = move % R.MOVE_TILE_RIGHT
            tile = left if move < R.MOVE_TILE_RIGHT else right
            old = st[b + S.TOP + cell]
            h = st[b + S.HEIGHT + cell] + 1
            work[W_CELL + m] = cell
            work[W_TILE + m] = tile
            work[W_OLD + m] = old
            work[W_HEIGHT + m] = h
            feats[m, F_BOARD] = R.tile_points(tab, colour, design, tile, h) - R.tile_points(
                tab, colour, design, old, h - 1)
            feats[m, F_HEIGHT] = h
            feats[m, F_EMPTY] = 1.0 if h == 1 else 0.0
            n_tile += 1
        elif move != R.MOVE_PASS:
            # Taking a card leaves the board and the held cards alone.
            q = move - R.MOVE_OBJECTIVE
            card = st[S.PILE + q * S.PILE_CAP + st[S.PILE_N + q] - 1]
            value = tab[TB.CARD_VALUE + card]
            got = R.pattern_progress(tab, card, st, b)
            if got >= tab[TB.CARD_NCELLS + card]:
                feats[m, F_OBJ] = value
                work[W_DONE_N + m] = 1
                work[W_DONE_VALUES + m] = np.int64(1) << value
            else:
                feats[m, F_PROGRESS] = value * got / tab[TB.CARD_NCELLS + card]
            feats[m, F_TAKE] = 1.0
            feats[m, F_VALUE] = value
            feats[m, F_LATE] = value * used
    return n_tile


@njit
def _held_cards(st, tab, b, n_tile, feats, before, work):
    """Objectives completed and progress changed by the tile moves, held card by held card.

    A card that neither the new tile nor the covered one can serve is unchanged; another
    changes its placement words only through the move's cell.
    """
    for i in range(st[b + S.HELD_N]):
        card = st[b + S.HELD + i]
        tiles = tab[TB.CARD_TILES + card]
        ncells = tab[TB.CARD_NCELLS + card]
        value = tab[TB.CARD_VALUE + card]
        share = before[B_CARD + i]
        rate = before[B_CARD_RATE + i]
        pair = tab[TB.CARD_KIND + card] == TB.KIND_PAIR
        w = W_WORDS + i * TB.PATTERN_CELLS
        w0, w1, w2, w3 = work[w], work[w + 1], work[w + 2], work[w + 3]
        for m in range(n_tile):
            tile = work[W_TILE + m]
            old = work[W_OLD + m]
            served = tiles >> tile
            if old >= 0:
                served |= tiles >> old
            if served & 1 == 0:
                continue
            cell = work[W_CELL + m]
            if pair:
                got = R.pair_after(tab, st, b, cell, tile)
            else:
                fit = R.fits(tab, card, tile, work[W_HEIGHT + m])
                got = R.most_in_common(R.word_after(tab, card, 0, w0, cell, fit),
                                       R.word_after(tab, card, 1, w1, cell, fit),
                                       R.word_after(tab, card, 2, w2, cell, fit),
                                       R.word_after(tab, card, 3, w3, cell, fit))
            if got >= ncells:
                feats[m, F_OBJ] += value
                feats[m, F_PROGRESS] -= share
                work[W_DONE_N + m] += 1
                work[W_DONE_VALUES + m] |= np.int64(1) << value
            else:
                feats[m, F_PROGRESS] += rate * got - share


@njit
def _crowd_pleasers(st, tab, b, n, n_tile, feats, before, work):
    """Crowd-pleasers claimable and crowd progress changed, open tile by open tile. A tile
    move changes the conditions on the board, a completion those on objectives."""
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        if st[S.CROWD_OWNER + k] >= 0:
            continue
        cond = st[S.CROWD_COND + k]
        if R.on_objectives(tab, cond):
            _objective_condition(st, tab, b, cond, n, feats, before[B_TILE + k],
                                 before[B_TILE_RATE + k], work)
        else:
            _board_condition(st, tab, b, cond, n_tile, feats, before[B_TILE + k],
                             before[B_TILE_RATE + k], work)


@njit
def _claim_or_progress(feats, m, got, need, value, share, rate):
    """Record crowd condition measure ``got`` after move m against its standing ``share``."""
    if got >= need:
        feats[m, F_CROWD] += value
        feats[m, F_CROWD_PROGRESS] -= share
    else:
        feats[m, F_CROWD_PROGRESS] += rate * got - share


@njit
def _objective_condition(st, tab, b, cond, n, feats, share, rate, work):
    """An open crowd-pleaser on completed objectives, over the moves that complete some."""
    kind = tab[TB.CROWD_KIND + cond]
    need = tab[TB.CROWD_COUNT + cond]
    value = tab[TB.CROWD_VALUE + cond]
    for m in range(n):
        if work[W_DONE_N + m] == 0:
            continue
        if kind == TB.COND_COMPLETED:
            got = st[b + S.V_DONE_N] + work[W_DONE_N + m]
        else:
            got = popcount(st[b + S.V_DONE_VALUES] | work[W_DONE_VALUES + m])
        _claim_or_progress(feats, m, got, need, value, share, rate)


@njit
def _board_condition(st, tab, b, cond, n_tile, feats, share, rate, work):
    """An open crowd-pleaser on the board, over the tile moves. Its measure after a move
    follows from the seat's counts (VIEW) and what the move changes: the number that
    rules.crowd_measure gives on the changed board, which the tests check."""
    kind = tab[TB.CROWD_KIND + cond]
    need = tab[TB.CROWD_COUNT + cond]
    value = tab[TB.CROWD_VALUE + cond]
    level = tab[TB.CROWD_LEVEL + cond] if kind == TB.COND_LEVEL else 1
    at_level = st[b + S.V_N_LEVEL + level - 1]
    # The colour and design counts, held in registers across the moves.
    c0, c1, c2, c3 = (st[b + S.V_N_COL], st[b + S.V_N_COL + 1], st[b + S.V_N_COL + 2],
                      st[b + S.V_N_COL + 3])
    d0, d1, d2, d3 = (st[b + S.V_N_DES], st[b + S.V_N_DES + 1], st[b + S.V_N_DES + 2],
                      st[b + S.V_N_DES + 3])
    for m in range(n_tile):
        if kind == TB.COND_LEVEL or kind == TB.COND_FULL:
            # A cell reaches the level when the move brings it there.
            got = at_level + (1 if work[W_HEIGHT + m] == level else 0)
        else:
            tile = work[W_TILE + m]
            old = work[W_OLD + m]
            gone_colour = tab[TB.TILE_COLOUR + old] if old >= 0 else -1
            gone_design = tab[TB.TILE_DESIGN + old] if old >= 0 else -1
            most_colour, colours = _counts_after(c0, c1, c2, c3, tab[TB.TILE_COLOUR + tile],
                                                 gone_colour)
            most_design, designs = _counts_after(d0, d1, d2, d3, tab[TB.TILE_DESIGN + tile],
                                                 gone_design)
            if kind == TB.COND_COLOUR:
                got = most_colour
            elif kind == TB.COND_DESIGN:
                got = most_design
            else:  # COND_ALL
                got = min(colours, designs)
        _claim_or_progress(feats, m, got, need, value, share, rate)


@njit
def _counts_after(n0, n1, n2, n3, gained, lost):
    """(largest, non-zero) of four counts after count ``gained`` rises by one and count
    ``lost`` (-1: none) falls by one."""
    n0 += int(gained == 0) - int(lost == 0)
    n1 += int(gained == 1) - int(lost == 1)
    n2 += int(gained == 2) - int(lost == 2)
    n3 += int(gained == 3) - int(lost == 3)
    return max(max(n0, n1), max(n2, n3)), int(n0 > 0) + int(n1 > 0) + int(n2 > 0) + int(n3 > 0)


@njit
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
