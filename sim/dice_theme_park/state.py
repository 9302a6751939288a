"""Dice Theme Park's state layout: one flat int64 array with named offsets (as Festival's).

Offsets are layout, not rules: rule data arrives in the packed tables ``tab`` (tables.py).
A park is the 19 hexes of park.csv, indexed by their row there (``hex``); a tile of a park
is addressed by its hex. Guest dice in parks are individual (colour, pips, where) in a pool
of DICE slots, a range of them per park; dice in the bag, set aside or on monorails are
counts and spaces.

Layout::

    0  N_PLAYERS         players in this game (2..4)
    1  MODE              0 intro, 1 full, 2 short (data.MODES)
    2  ROUND             the round being played, 0-based
    3  ROUNDS            rounds in this mode
    4  PHASE             data.PHASES index of the phase being played
    5  OVER              1 after the end scoring
    8  ORDER[4]          seats in turn order, ORDER[0] first
    12 PREV_ORDER[4]     last round's turn order (the setup order in round 1)
    SETUP_ORDER[4]       the turn order drawn at setup (what a seat was dealt)
    OBJ_DECK[16]         the objective deck as shuffled at setup (objectives.csv rows)
    ADMIN_DECK[16]       the administrators as shuffled at setup (full and short games)
    SKILL_DECK_N, SKILL_DECK[32]         skill cards face down, top is the last
    SKILL_DISPLAY_N, SKILL_DISPLAY[8]    face-up skill cards to take when hiring
    SKILL_DISCARD_N, SKILL_DISCARD[32]   the skill display's leftovers (rules.md 40)
    16 BAG[3]            dice of each colour in the bag
    19 ASIDE[3]          dice set aside (not in play; refill an empty bag)
    22 SUBST[3]          substitute dice drawn from an empty bag, per colour (rules.md 1)
    25 MONO_N            monorails in play (players + 1)
    26 MONO_CARD[5]      monorail row (monorails.csv) of each monorail in play
    31 MONO_TAKEN[5]     seat that chose it this round, or -1
    36 MONO_COL[5][3]    colour of the die on each space, -1 when empty
    51 MONO_PIPS[5][3]   pips of that die
    66 OBJECTIVE[5]      objective card (objectives.csv row) under round r, or -1
    71 STACK_A_N, 72 STACK_A[24]     attraction rows, top is STACK_A[STACK_A_N - 1]
    96 STACK_B_N, 97 STACK_B[24]
    121 DISPLAY_N, 122 DISPLAY[8]    face-up attractions to build
    130 DISCARD_N, 131 DISCARD[48]   the face-up discard pile
    179 DICE_N[4]                    slots in use in each park's range (a free slot has
                                     DIE_AT -1): seat p's dice are slots p * PARK_DICE
                                     up to p * PARK_DICE + DICE_N[p] (``park_slots``)
    183 DIE_COL[DICE], DIE_PIPS[DICE], DIE_AT[DICE] (seat * HEXES + hex, or -1),
        DIE_TINT[DICE] (the colour it counts as for its attraction's next operation, or -1)
    SEAT + p * SEAT_SIZE: seat p's block, fields below relative to it
        0  MONEY             $
        1  STARS             total stars (the score)
        2..8 SCORE[7]        stars by source (SOURCES), adding up to STARS
        9  CUBES             operating cubes placed this round
        10 HAND[6]           staff cards in hand, a count per staff (data.STAFF order)
        16 PLAYED[2]         the staff played this round (-1 before planning)
        18 MAPS_UP, 19 MAPS_DOWN   map tokens usable, used this round
        20 MASCOTS           mascots owned, 21 MASCOTS_USED this round
        22 UPGRADES[3]       upgrades in the staging area: gift shop, special effect, generator
        25 DEALT[2]          the two A tiles dealt at setup, 27 KEPT (the one kept)
        28 OPS_ROUND, 29 STARS_ROUND, 30 MONEY_ROUND   this round's measures (objectives)
        31 TILE[HEXES]       attraction row on each hex, -1 when empty
        50 UPGRADE[HEXES]    installed upgrades on each hex: bit k for upgrade kind k
        69 CUBES_ON[HEXES]   cubes placed on each hex this round
        88 BANNED[HEXES]     bit k: an upgrade of kind k removed from this hex (rules.md 19)
        107 INSTALLED, 108 MAPS_BOUGHT, 109 REMOVED   upgrades installed, maps bought and
                             upgrades removed (architect) this round
        110 GUIDE_USED, 111 MANAGER_USED   staff powers used this round
        112 EXTRA_LEFT, 113 EXTRA_HEX      the mascot staff's extra adjustments left after
                             the last mascot use, and that use's hex
        114 OPS_TOTAL        operations in the game so far
        115 ADMIN            the administrator kept (administrators.csv row), -1: none
        116 ADMIN_GONE       1 once the staff swap sent it back to the box (rules.md 35)
        117 ADMIN_DEALT[2], 119 SKILL_DEALT[2]   the cards dealt at setup
        121 SKILL_KEPT       the skill kept at setup
        122 SKILLS_N, 123 SKILLS[8]   skill cards held, one per mascot (rules.md 40);
                             SKILLS[0] is the kept one
        131 SKILLS_USED      bit k: the mascot on SKILLS[k] was used this round
        132 TAKEN            bit k: skill row k taken from the display when hiring
        133 AGAIN_LEFT       moves left of the push or pull skill just used (its second)
        134 SUM_OFF          what the administrator took off this round's staff pips sum
"""

from numba import njit

MAX_PLAYERS = 4
COLOURS = 3
HEXES = 19
MONORAILS = 5
SPACES = 3
MAX_ROUNDS = 5
MAX_OBJECTIVES = 16
MAX_ATTRACTIONS = 48  # rows of the packed tables (tables.py)
MAX_MONORAILS = 16
STACK_CAP = 24
MAX_ADMINS = 16
MAX_SKILLS = 32  # the skills' bit set (TAKEN) must fit 63 bits
SKILLS_HELD = 8  # skill cards one player holds: one per mascot (6 in a colour)
DISPLAY_CAP = 8
DISCARD_CAP = 48
# A park's dice have their own range of slots, so that what reads one park's dice (legal
# moves, features) loops over that park alone: 64 each, more than the 63 dice of a game.
PARK_DICE = 64
# The most dice a park can hold: a die enters a park only from the monorail taken (SPACES a
# round), the administrator's leftover-monorail die (one a round) and the 3-amenity bonus
# (one a round: one build a round, and the free build from the discard pile gives no bonus);
# saves and recolours keep dice, never add them. The invariants check it, and the legal
# moves' buffers are sized on it (moves.max_moves).
MAX_PARK_DICE = MAX_ROUNDS * (SPACES + 2)
DICE = MAX_PLAYERS * PARK_DICE
CTX = 1 + DICE  # a decision's context (step.py): a count, then dice slots
STAFF = 6
UPGRADE_KINDS = 3
GIFT_SHOP, SPECIAL_EFFECT, GENERATOR = range(UPGRADE_KINDS)
# Where a seat's stars come from (the results table's score_<source> columns)
SOURCES = ("operations", "special_effects", "objectives", "money", "skills", "administrators",
           "other")
(SRC_OPERATIONS, SRC_EFFECTS, SRC_OBJECTIVES, SRC_MONEY, SRC_SKILLS, SRC_ADMINS,
 SRC_OTHER) = range(len(SOURCES))

N_PLAYERS = 0
MODE = 1
ROUND = 2
ROUNDS = 3
PHASE = 4
OVER = 5
ORDER = 8
PREV_ORDER = ORDER + MAX_PLAYERS
BAG = PREV_ORDER + MAX_PLAYERS
ASIDE = BAG + COLOURS
SUBST = ASIDE + COLOURS
MONO_N = SUBST + COLOURS
MONO_CARD = MONO_N + 1
MONO_TAKEN = MONO_CARD + MONORAILS
MONO_COL = MONO_TAKEN + MONORAILS
MONO_PIPS = MONO_COL + MONORAILS * SPACES
OBJECTIVE = MONO_PIPS + MONORAILS * SPACES
STACK_A_N = OBJECTIVE + MAX_ROUNDS
STACK_A = STACK_A_N + 1
STACK_B_N = STACK_A + STACK_CAP
STACK_B = STACK_B_N + 1
DISPLAY_N = STACK_B + STACK_CAP
DISPLAY = DISPLAY_N + 1
DISCARD_N = DISPLAY + DISPLAY_CAP
DISCARD = DISCARD_N + 1
DICE_N = DISCARD + DISCARD_CAP
DIE_COL = DICE_N + MAX_PLAYERS
DIE_PIPS = DIE_COL + DICE
DIE_AT = DIE_PIPS + DICE
DIE_TINT = DIE_AT + DICE
SETUP_ORDER = DIE_TINT + DICE
OBJ_DECK = SETUP_ORDER + MAX_PLAYERS
ADMIN_DECK = OBJ_DECK + MAX_OBJECTIVES
SKILL_DECK_N = ADMIN_DECK + MAX_ADMINS
SKILL_DECK = SKILL_DECK_N + 1
SKILL_DISPLAY_N = SKILL_DECK + MAX_SKILLS
SKILL_DISPLAY = SKILL_DISPLAY_N + 1
SKILL_DISCARD_N = SKILL_DISPLAY + DISPLAY_CAP
SKILL_DISCARD = SKILL_DISCARD_N + 1
SEAT = SKILL_DISCARD + MAX_SKILLS

MONEY = 0
STARS = 1
SCORE = 2
CUBES = 9
HAND = 10
PLAYED = 16
MAPS_UP = 18
MAPS_DOWN = 19
MASCOTS = 20
MASCOTS_USED = 21
UPGRADES = 22
DEALT = 25
KEPT = 27
OPS_ROUND = 28
STARS_ROUND = 29
MONEY_ROUND = 30
TILE = 31
UPGRADE = TILE + HEXES
CUBES_ON = UPGRADE + HEXES
BANNED = CUBES_ON + HEXES
INSTALLED = BANNED + HEXES
MAPS_BOUGHT = INSTALLED + 1
REMOVED = MAPS_BOUGHT + 1
GUIDE_USED = REMOVED + 1
MANAGER_USED = GUIDE_USED + 1
EXTRA_LEFT = MANAGER_USED + 1
EXTRA_HEX = EXTRA_LEFT + 1
OPS_TOTAL = EXTRA_HEX + 1
ADMIN = OPS_TOTAL + 1
ADMIN_GONE = ADMIN + 1
ADMIN_DEALT = ADMIN_GONE + 1
SKILL_DEALT = ADMIN_DEALT + 2
SKILL_KEPT = SKILL_DEALT + 2
SKILLS_N = SKILL_KEPT + 1
SKILLS = SKILLS_N + 1
SKILLS_USED = SKILLS + SKILLS_HELD
TAKEN = SKILLS_USED + 1
AGAIN_LEFT = TAKEN + 1
SUM_OFF = AGAIN_LEFT + 1
SEAT_SIZE = SUM_OFF + 1

# Where the game stands (step.py), after the seats: the pending decision, the point of the
# game loop to go on from, its loop counters and what the last move left for the loop.
FLOW = SEAT + MAX_PLAYERS * SEAT_SIZE
F_KIND = FLOW  # the pending decision (moves.K_*), step.RULES after a move, step.OVER at the end
F_WHO = FLOW + 1  # the seat to decide
F_PC = FLOW + 2  # the point of the game loop to go on from after the decision (step.P_*)
F_I = FLOW + 3  # the seat loop's index (in turn order, or seat by seat)
F_J = FLOW + 4  # the setup keeps' card kind (0 administrators, 1 skills)
F_K = FLOW + 5  # a seat's step count (concierges, upgrades, operate steps, ticket agents)
F_N = FLOW + 6  # that loop's bound, fixed as it starts
F_MOVE = FLOW + 7  # the last move played (-1: the seat had none)
F_FOLLOW = FLOW + 8  # what it left the loop (moves.apply's return)
F_LOG_ROUND = FLOW + 9  # the log's round of the decision (-1 in the setup)
F_CHECK = FLOW + 10  # 1 in a checked game
F_BAD = FLOW + 11  # the first invariant violation of a checked game, or 0
F_PICKS = FLOW + 12  # [MAX_PLAYERS]: the planning's secret staff picks, revealed together
FLOW_SIZE = 12 + MAX_PLAYERS

SIZE = FLOW + FLOW_SIZE

NOWHERE = -1  # DIE_AT of a free slot; MONO_COL of an empty space; TILE of an empty hex


@njit
def seat(p: int) -> int:
    """Offset of seat p's block."""
    return SEAT + p * SEAT_SIZE


@njit(inline="always")  # in every loop over a park's dice
def park_slots(st, p):
    """The range of die slots seat p's park may use: (first, past the last in use)."""
    return p * PARK_DICE, p * PARK_DICE + st[DICE_N + p]
