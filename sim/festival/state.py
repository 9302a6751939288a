"""Festival's state layout: one flat int64 array with named offsets.

A flat array copies in one call, crosses into every kernel as a single argument and keeps
``cache=True`` working (no jitclass). Offsets are layout, not rules: rule data arrives in the
packed tables ``tab`` (tables.py).

Board geometry. The 3x3 board lives inside a 64-bit word with a padding of two on every
side and a row stride of 8: cell (r, c) is bit ``(r + 2) * 8 + (c + 2)``. A pattern cell at
offset (dr, dc) from the pattern's first cell is found by shifting a mask by
``dr * 8 + dc``; the padding keeps shifted bits from wrapping into another row.

Layout::

    0  N_PLAYERS        players in this game (2..4)
    1  CURRENT          seat to play (seat 0 is the start player; turn order 0, 1, ...)
    2  TURNS            turns played so far
    3  TRIGGER          0 none yet, 1 a 6th completed objective, 2 a tile stack empty
    4  TRIGGER_TURN     the turn on which the end was triggered
    5  OVER             1 once the last turn of the final round is done
    8  STACK[4][16]     draw stack s (left of seat s), bottom first; top is STACK_N[s] - 1
    72 STACK_N[4]       tiles left in each draw stack
    76 PILE[4][7]       objective pile q, bottom first; top is PILE_N[q] - 1
    104 PILE_N[4]
    108 CROWD_COND[4]   face-up condition (row of crowd_pleasers.csv) of crowd tile t
    112 CROWD_OWNER[4]  seat that claimed tile t, or -1
    120 SEAT[p] blocks of SEAT_SIZE, fields below relative to the block:
        0  VIEW: what objectives and crowd-pleasers look at, as board masks
           0..3  COL[k]     cells whose visible tile has colour k
           4..7  DES[d]     cells whose visible tile has design d
           8..13 LEVEL[h]   cells with at least h + 1 tiles (LEVEL[0] = occupied)
           14    DONE_N     completed objectives
           15    DONE_VALUES bit v set when an objective worth v points is completed
           16    ALL         every bit set: the mask of an "any" requirement
           17    NONE        no bit set: the mask of a pattern cell that does not exist
        20 COLOUR, 21 DESIGN   the board's target colour and design
        22 START_CARD          the starting objective side chosen (card index)
        23 HEIGHT[9]           tiles on each cell (row-major)
        32 TOP[9]              visible tile on each cell, -1 when empty
        41 HELD_N, 42 HELD[8]  uncompleted objectives (card indices)
        50 DONE_POINTS, 51 DONE_SET (bit per card index)
        52 CROWD_N, 53 CROWD_POINTS, 54 CROWD_SET (bit per condition)
        55 TILES_TAKEN, 56 OBJECTIVES_TAKEN
"""

from numba import njit

MAX_PLAYERS = 4
STACK_CAP = 16
PILES = 4
PILE_CAP = 7
CROWD_TILES = 4
HELD_CAP = 8
CELLS = 9
LEVELS = 6
VIEW_SIZE = 20

N_PLAYERS = 0
CURRENT = 1
TURNS = 2
TRIGGER = 3
TRIGGER_TURN = 4
OVER = 5
STACK = 8
STACK_N = STACK + MAX_PLAYERS * STACK_CAP
PILE = STACK_N + MAX_PLAYERS
PILE_N = PILE + PILES * PILE_CAP
CROWD_COND = PILE_N + PILES
CROWD_OWNER = CROWD_COND + CROWD_TILES
SEAT = 120

V_COL = 0
V_DES = 4
V_LEVEL = 8
V_DONE_N = 14
V_DONE_VALUES = 15
V_ALL = 16
V_NONE = 17
COLOUR = 20
DESIGN = 21
START_CARD = 22
HEIGHT = 23
TOP = 32
HELD_N = 41
HELD = 42
DONE_POINTS = 50
DONE_SET = 51
CROWD_N = 52
CROWD_POINTS = 53
CROWD_SET = 54
TILES_TAKEN = 55
OBJECTIVES_TAKEN = 56
SEAT_SIZE = 60

STATE_SIZE = SEAT + MAX_PLAYERS * SEAT_SIZE

TRIGGER_NONE = 0
TRIGGER_OBJECTIVES = 1
TRIGGER_STACK = 2
TRIGGER_NAMES = ("none", "6th objective", "empty stack")

# Parameter vector (tab[tables.PARAMS + P_*]), filled from rules.toml by data.py.
P_MIN_PLAYERS = 0
P_MAX_PLAYERS = 1
P_TILES_PER_PLAYER = 2
P_PILES = 3
P_PILE_SIZE = 4
P_MAX_UNCOMPLETED = 5
P_END_COMPLETED = 6
P_CROWD_TILES = 7
N_PARAMS = 8


@njit(cache=True)
def cell_bit(cell: int) -> int:
    """Bit position of board cell ``cell`` (row-major 0..8) in a board mask."""
    return (cell // 3 + 2) * 8 + (cell % 3 + 2)
