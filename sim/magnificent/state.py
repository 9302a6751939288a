"""The Magnificent's state layout: one flat int64 array with named offsets (as Festival's).

Offsets are layout, not rules: rule data arrives in the packed tables ``tab`` (tables.py).

Camp masks. The camp area is a grid of ``tab`` CAMP_ROWS x CAMP_COLS squares; square (r, c)
is bit ``r * CAMP_COLS + c`` of a mask (at most 63 squares). A camp is the mask of its
covered squares; a placement is the mask of a tile's squares, precomputed for every rotation,
flip and position (tables.py).

Colours: 0-2 the dice colours (orange, green, purple), 3 clear (dice and gems).

Layout::

    0  N_PLAYERS         players in this game (2..4)
    1  SIDE              0 side A, 1 side B of the player boards
    2  ROUND             the round being played, 0-based
    3  OVER              1 after the end scoring
    4  START             the round's start player; turns go clockwise (rules.md 17)
    5  TURN              turns played this round
    POOL[4][7]           dice in the main tent by colour and pips (index 1..6)
    WAGON[3]             each wagon's space on its track
    TRACK_TENT[3][16]    tent on each tent space of a track; -1 once taken (a poster symbol)
    PERF[16]             seat whose hat is on each performance space, -1 empty
    MASTER_DECK_N, MASTER_DECK[64]     master cards face down, top is the last
    TRAINER_DECK_N, TRAINER_DECK[16]   trainer tiles face down
    POSTER_DECK_N, POSTER_DECK[64]     posters face down
    DISPLAY_MASTER[4], DISPLAY_TRAINER[4]   the main display's rows, -1 empty
    POSTER_DISPLAY[4]    face-up posters, -1 empty
    OFFER[4]             the setup's trainer-tile offer, -1 once picked
    GEM_SUPPLY[4]        gems in the supply
    TILE_SUPPLY[6]       camp tiles in the supply (camp_tiles.csv rows)
    DISCARDED[3]         master cards, trainer tiles and posters discarded (rules.md 16)
    BOXED[2]             tents and starting posters back in the box at setup
    SEAT + p * SEAT_SIZE: seat p's block, fields below relative to it
        COINS, SCORE, SRC[N_SOURCES] (points by source, adding up to SCORE)
        BOARD            the player board's numeral, 0..3 (I..IV)
        MARKERS          trainer markers owned; MARKERS_USED spent this round
        GEMS[4]          gems held by colour
        CAMP             covered squares; FILLED squares filled with gems at the end
        PLACED[6]        camp tiles placed, by camp_tiles.csv row
        HAND[5]          master cards held (-1 empty); the first 4 have die slots
        DIE[4]           the die on each master card this round: colour * 8 + pips, -1 none
        SUM[4]           pips of this round's dice by colour (clear apart)
        POSTER[5]        poster in each poster space, -1 empty
        TENT[5]          tent on each tent space: -1 empty, PRINTED for the printed one
        TRAINERS_N, TRAINERS[3]   trainer tiles held
        SHOWS            shows performed (posters turned face down)
        HAT              performance space of the seat's hat
        -- this turn --
        TAKEN            the die taken (colour * 8 + pips), -1 between turns
        COLOUR           the action's colour; POWER the power; SLOT the master card slot
        BONUS_LEFT       1 while the card's top bonus is unused
        USED             bit k: trainer tile k used this turn; bit 3 + k: board space k
        TRAVEL_PLUS, SHOW_PLUS, LEVEL_PLUS   trainers' additions to one action
        PENDING[2]       the build's tiles still to place (small, large)
        POSTERS_DUE      posters to take; NEW_POSTER the one taken, to put in a space
        TENT_DUE         the tent taken, to put on a tent space (-1 none)
        SHOWS_LEFT       shows left in the performance; SHOW_TILES[6] tiles used by its shows
        -- results --
        START_POSTER, START_TRAINER, OFFERED (bit k: trainer tile k was in the offer at
        the seat's pick), DRAFTED_MASTER[3], DRAFTED_TRAINER[3], SCORED[3]
        BUILDS, TRAVELS, PERFORMS, PENALTY_COINS
"""

from numba import njit

MAX_PLAYERS = 4
COLOURS = 3
CLEAR = 3  # the clear colour's index among gems and dice
KINDS = 4  # gem and dice kinds: 3 colours and clear
PIPS = 7  # pips index 1..6
TRACKS = 3
MAX_TRACK = 16
MAX_PERF = 16
MAX_MASTERS = 64
MAX_TRAINERS = 16
MAX_POSTERS = 64
MAX_TENTS = 16
DISPLAY_CAP = 4
TILE_KINDS = 6
HAND_CAP = 5  # 4 master cards and the one drafted before a round's scoring
CARD_SLOTS = 4  # the master cards held, each a die's place: at most a die a turn
MAX_ROUNDS = 3  # the drafts and scorings kept per round (DRAFTED_*, SCORED)
MAX_SECTIONS = 16
MAX_ROWS = 16
MAX_LEVELS = 8
CAMP_SQUARES = 63  # a camp is a bit mask of its rows x columns
POSTER_SPACES = 5
TENT_SPACES = 5
TRAINER_SLOTS = 3
BOARD_SPACES = 3  # the main board's trainer spaces (bits 3.. of USED)
PRINTED = 99  # TENT of a space with the printed tent
SOURCES = ("masters", "masters_end", "posters", "tents", "bonuses", "sections", "coins",
           "penalties")
(SRC_MASTERS, SRC_MASTERS_END, SRC_POSTERS, SRC_TENTS, SRC_BONUSES, SRC_SECTIONS, SRC_COINS,
 SRC_PENALTIES) = range(len(SOURCES))
N_SOURCES = len(SOURCES)

N_PLAYERS = 0
SIDE = 1
ROUND = 2
OVER = 3
START = 4
TURN = 5
POOL = 8
WAGON = POOL + KINDS * PIPS
TRACK_TENT = WAGON + TRACKS
PERF = TRACK_TENT + TRACKS * MAX_TRACK
MASTER_DECK_N = PERF + MAX_PERF
MASTER_DECK = MASTER_DECK_N + 1
TRAINER_DECK_N = MASTER_DECK + MAX_MASTERS
TRAINER_DECK = TRAINER_DECK_N + 1
POSTER_DECK_N = TRAINER_DECK + MAX_TRAINERS
POSTER_DECK = POSTER_DECK_N + 1
DISPLAY_MASTER = POSTER_DECK + MAX_POSTERS
DISPLAY_TRAINER = DISPLAY_MASTER + DISPLAY_CAP
POSTER_DISPLAY = DISPLAY_TRAINER + DISPLAY_CAP
OFFER = POSTER_DISPLAY + DISPLAY_CAP
GEM_SUPPLY = OFFER + DISPLAY_CAP
TILE_SUPPLY = GEM_SUPPLY + KINDS
DISCARDED = TILE_SUPPLY + TILE_KINDS
D_MASTERS, D_TRAINERS, D_POSTERS = range(3)
BOXED = DISCARDED + 3
B_TENTS, B_POSTERS = range(2)
SEAT = BOXED + 2

COINS = 0
SCORE = 1
SRC = 2
BOARD = SRC + N_SOURCES
MARKERS = BOARD + 1
MARKERS_USED = MARKERS + 1
GEMS = MARKERS_USED + 1
CAMP = GEMS + KINDS
FILLED = CAMP + 1
PLACED = FILLED + 1
HAND = PLACED + TILE_KINDS
DIE = HAND + HAND_CAP
SUM = DIE + CARD_SLOTS
POSTER = SUM + KINDS
TENT = POSTER + POSTER_SPACES
TRAINERS_N = TENT + TENT_SPACES
TRAINERS = TRAINERS_N + 1
SHOWS = TRAINERS + TRAINER_SLOTS
HAT = SHOWS + 1
TAKEN = HAT + 1
COLOUR = TAKEN + 1
POWER = COLOUR + 1
SLOT = POWER + 1
BONUS_LEFT = SLOT + 1
USED = BONUS_LEFT + 1
TRAVEL_PLUS = USED + 1
SHOW_PLUS = TRAVEL_PLUS + 1
LEVEL_PLUS = SHOW_PLUS + 1
PENDING = LEVEL_PLUS + 1  # [2]: small and large tiles of the build still to place
POSTERS_DUE = PENDING + 2
NEW_POSTER = POSTERS_DUE + 1
TENT_DUE = NEW_POSTER + 1
SHOWS_LEFT = TENT_DUE + 1
SHOW_TILES = SHOWS_LEFT + 1
START_POSTER = SHOW_TILES + TILE_KINDS
START_TRAINER = START_POSTER + 1
OFFERED = START_TRAINER + 1
DRAFTED_MASTER = OFFERED + 1
DRAFTED_TRAINER = DRAFTED_MASTER + 3
SCORED = DRAFTED_TRAINER + 3
BUILDS = SCORED + 3
TRAVELS = BUILDS + 1
PERFORMS = TRAVELS + 1
PENALTY_COINS = PERFORMS + 1
SEAT_SIZE = PENALTY_COINS + 1

# Where the game stands (step.py), after the seats: the pending decision, the point of the
# game loop to go on from, its loop counters and what the last move left for the loop.
FLOW = SEAT + MAX_PLAYERS * SEAT_SIZE
F_KIND = FLOW  # the pending decision (moves.K_*), step.RULES after a move, step.OVER at the end
F_WHO = FLOW + 1  # the seat to decide
F_PC = FLOW + 2  # the point of the game loop to go on from after the decision (step.P_*)
F_RET = FLOW + 3  # where the posters' steps return to
F_I = FLOW + 4  # the seat loop's index (setup picks, turns, draft, scoring, gem fill)
F_T = FLOW + 5  # the turn of the round
F_K = FLOW + 6  # a turn's step count (boosts, poster moves, gem fills)
F_MOVE = FLOW + 7  # the last move played (-1: the seat had none)
F_FOLLOW = FLOW + 8  # what it left the loop (the action's type after ACTION)
F_LOG_ROUND = FLOW + 9  # the log's round of the decision (-1 setup, ROUNDS the gem fill)
F_TILE = FLOW + 10  # the tile kind to place (moves' ctx[0] at PLACE)
F_CHECK = FLOW + 11  # 1 in a checked game
F_BAD = FLOW + 12  # the first invariant violation of a checked game, or 0
F_ORDER = FLOW + 13  # [MAX_PLAYERS]: the draft order
FLOW_SIZE = 13 + MAX_PLAYERS

SIZE = FLOW + FLOW_SIZE


@njit(inline="always")
def seat(p: int) -> int:
    """Offset of seat p's block."""
    return SEAT + p * SEAT_SIZE
