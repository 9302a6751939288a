"""The packed rule tables: every Festival table in one flat int64 array, ``tab``.

Kernels take ``tab`` instead of a tuple of arrays: a tuple of twenty arrays is copied as a
large aggregate on each access inside compiled code (hundreds of nanoseconds a call, the
bulk of a game), one array is not. Capacities are layout, like the state offsets; the
values are the data and arrive as an argument, so edited card files never recompile.
"""

import numpy as np

from sim.core.layout import layout

# The vocabulary of the tables: objective kinds, "any" in a requirement, crowd conditions.
KIND_SHAPE = 0
KIND_PAIR = 1
KINDS = ("shape", "pair")
ANY = -1
CROWD_CONDITIONS = (
    "same_colour_visible",  # at least `count` visible tiles of one colour
    "same_design_visible",  # at least `count` visible tiles of one design
    "tiles_at_level",  # at least `count` cells holding `level` tiles or more
    "distinct_objective_values",  # completed objectives with `count` different values
    "completed_objectives",  # at least `count` completed objectives
    "board_full",  # at least `count` occupied cells (9: no empty space)
    "all_colours_and_designs",  # at least `count` colours and `count` designs visible
)
(COND_COLOUR, COND_DESIGN, COND_LEVEL, COND_DISTINCT_VALUES, COND_COMPLETED, COND_FULL,
 COND_ALL) = range(len(CROWD_CONDITIONS))

MAX_CARDS = 63  # completed cards are bits of one int64
MAX_TILES = 16
MAX_CROWD = 16
PATTERN_CELLS = 4  # an objective's pattern has at most 4 cells
# A placement word is looked up in two halves of a 9-bit board mask: cells 0..4, cells 5..8.
LOW_CELLS = 5
WORD_LOOKUP = (1 << LOW_CELLS) + (1 << (9 - LOW_CELLS))

SHAPES = {
    "params": (16,),
    "tile_colour": (MAX_TILES,),
    "tile_design": (MAX_TILES,),
    "board_design": (4,),
    "card_value": (MAX_CARDS,),
    "card_kind": (MAX_CARDS,),
    "card_ncells": (MAX_CARDS,),
    "card_req": (MAX_CARDS, PATTERN_CELLS, 3),
    "card_sel": (MAX_CARDS, PATTERN_CELLS, 3),
    "card_words": (MAX_CARDS, PATTERN_CELLS, WORD_LOOKUP),
    "card_fits": (MAX_CARDS, MAX_TILES),
    "card_stacked": (MAX_CARDS,),
    "card_tiles": (MAX_CARDS,),
    "start_card": (4, 2),
    "crowd_kind": (MAX_CROWD,),
    "crowd_count": (MAX_CROWD,),
    "crowd_level": (MAX_CROWD,),
    "crowd_value": (MAX_CROWD,),
    "crowd_sides": (4, 2),
}

OFFSETS, SIZE = layout(SHAPES)

PARAMS = OFFSETS["params"]
TILE_COLOUR = OFFSETS["tile_colour"]
TILE_DESIGN = OFFSETS["tile_design"]
BOARD_DESIGN = OFFSETS["board_design"]
CARD_VALUE = OFFSETS["card_value"]
CARD_KIND = OFFSETS["card_kind"]
CARD_NCELLS = OFFSETS["card_ncells"]
CARD_REQ = OFFSETS["card_req"]
CARD_SEL = OFFSETS["card_sel"]
CARD_WORDS = OFFSETS["card_words"]
CARD_FITS = OFFSETS["card_fits"]
CARD_STACKED = OFFSETS["card_stacked"]
CARD_TILES = OFFSETS["card_tiles"]
START_CARD = OFFSETS["start_card"]
CROWD_KIND = OFFSETS["crowd_kind"]
CROWD_COUNT = OFFSETS["crowd_count"]
CROWD_LEVEL = OFFSETS["crowd_level"]
CROWD_VALUE = OFFSETS["crowd_value"]
CROWD_SIDES = OFFSETS["crowd_sides"]


def pack(tables) -> np.ndarray:
    """One flat array from data.Tables (each table padded to its capacity)."""
    tab = np.zeros(SIZE, dtype=np.int64)
    for name, shape in SHAPES.items():
        value = np.asarray(getattr(tables, name), dtype=np.int64)
        block = np.zeros(shape, dtype=np.int64)
        block[tuple(slice(0, n) for n in value.shape)] = value
        tab[OFFSETS[name] : OFFSETS[name] + block.size] = block.ravel()
    return tab
