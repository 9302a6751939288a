"""Festival's state layout: one flat int64 array with named offsets.

A flat array copies in one call, crosses into every kernel as a single argument and keeps
``cache=True`` working (no jitclass). Offsets are layout, not rules: rule data arrives in the
packed tables ``tab`` (tables.py).

Board masks. A set of cells of the 3x3 board is a 9-bit mask: cell (r, c), row-major
``3 * r + c``, is bit ``3 * r + c``.

Layout::

    0  N_PLAYERS        players in this game (2..4)
    1  CURRENT          seat to play (seat 0 is the start player; turn order 0, 1, ...)
    2  TURNS            turns played so far
    3  TRIGGER          0 none yet, 1 a 6th completed objective, 2 a tile stack empty
    4  TRIGGER_TURN     the turn on which the end was triggered
    5  OVER             1 once the last turn of the final round is done
    6  DECISION         where the game stands (step.py): a starting side or a turn to decide,
                        the rules to run after a move, or the end
    7  PLACED           the tile the last move placed, -1 after an objective or a pass
    8  STACK[4][16]     draw stack s (left of seat s), bottom first; top is STACK_N[s] - 1
    72 STACK_N[4]       tiles left in each draw stack
    76 PILE[4][7]       objective pile q, bottom first; top is PILE_N[q] - 1
    104 PILE_N[4]
    108 CROWD_COND[4]   face-up condition (row of crowd_pleasers.csv) of crowd tile t
    112 CROWD_OWNER[4]  seat that claimed tile t, or -1
    120 SEAT[p] blocks of SEAT_SIZE, fields below relative to the block:
        0  VIEW: what objectives and crowd-pleasers look at, as board masks and counts
           0..3   COL[k]     cells whose visible tile has colour k
           4..7   DES[d]     cells whose visible tile has design d
           8..13  LEVEL[h]   cells with at least h + 1 tiles (LEVEL[0] = occupied)
           14     DONE_N     completed objectives
           15     DONE_VALUES bit v set when an objective worth v points is completed
           16     ALL        every bit set: the mask of an "any" requirement
           17     NONE       no bit set: the mask of a pattern cell that does not exist
           18..21 N_COL[k]   cells in COL[k] (the masks' sizes, kept beside them)
           22..25 N_DES[d]   cells in DES[d]
           26..31 N_LEVEL[h] cells in LEVEL[h]
        32 COLOUR, 33 DESIGN   the board's target colour and design
        34 START_CARD          the starting objective side chosen (card index)
        35 HEIGHT[9]           tiles on each cell (row-major)
        44 TOP[9]              visible tile on each cell, -1 when empty
        53 HELD_N, 54 HELD[8]  uncompleted objectives (card indices)
        62 DONE_POINTS, 63 DONE_SET (bit per card index)
        64 CROWD_N, 65 CROWD_POINTS, 66 CROWD_SET (bit per condition)
        67 TILES_TAKEN, 68 OBJECTIVES_TAKEN
"""

MAX_PLAYERS = 4
STACK_CAP = 16
PILES = 4
PILE_CAP = 7
CROWD_TILES = 4
HELD_CAP = 8
CELLS = 9
LEVELS = 6

N_PLAYERS = 0
CURRENT = 1
TURNS = 2
TRIGGER = 3
TRIGGER_TURN = 4
OVER = 5
DECISION = 6
PLACED = 7
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
V_N_COL = 18
V_N_DES = 22
V_N_LEVEL = 26
COLOUR = 32
DESIGN = 33
START_CARD = 34
HEIGHT = 35
TOP = 44
HELD_N = 53
HELD = 54
DONE_POINTS = 62
DONE_SET = 63
CROWD_N = 64
CROWD_POINTS = 65
CROWD_SET = 66
TILES_TAKEN = 67
OBJECTIVES_TAKEN = 68
SEAT_SIZE = 72

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

