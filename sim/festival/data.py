"""Festival as data: reads ``seeds/festival`` into the numpy tables the kernels take.

Every table is validated on load; a bad file gets one PlaytestError naming file, row and
field. Objective patterns are compiled here, once, into placement words for the matcher
(rules.py): per card, pattern cell and set of board cells, the placements (distinct
90-degree rotation x anchor cell) that put that pattern cell on one of those cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from sim.core.data import (
    data_folder,
    folder_hash,
    loads_tables,
    read_csv,
    read_toml,
    rules_label,
    unique_names,
    with_sets,
)
from sim.core.errors import PlaytestError
from sim.festival import state as S
from sim.festival.tables import (
    ANY,
    CROWD_CONDITIONS,
    KIND_SHAPE,
    KINDS,
    LOW_CELLS,
    MAX_CARDS,
    MAX_CROWD,
    PATTERN_CELLS,
    WORD_LOOKUP,
    pack,
)

ROTATIONS = 4

# the files a data folder holds: what the loader reads and the run's data hash covers
FILES = ("boards.csv", "crowd_pleasers.csv", "designs.csv", "objectives.csv", "rules.toml",
         "start_objectives.csv", "tiles.csv")


class Tables(NamedTuple):
    """Everything the kernels know about the game, as arrays (passed, never global)."""

    params: np.ndarray  # int64[N_PARAMS], see state.P_*
    tile_colour: np.ndarray  # int64[T]: one player's tile set
    tile_design: np.ndarray  # int64[T]
    board_design: np.ndarray  # int64[colours]: target design of each board colour
    card_value: np.ndarray  # int64[C]: deck cards 0..n_deck-1, then starting sides
    card_kind: np.ndarray  # int64[C]
    card_ncells: np.ndarray  # int64[C]
    card_req: np.ndarray  # int64[C, 4, 3]: colour, design (-1 any), stacked (0/1)
    card_pos: np.ndarray  # int64[C, 4, 2]: row and column of each pattern cell as drawn
    card_sel: np.ndarray  # int64[C, 4, 3]: VIEW entries whose AND is a cell's mask
    card_words: np.ndarray  # int64[C, 4, 48]: placement words by half board mask (_lookup)
    card_fits: np.ndarray  # int64[C, T]: bit i set when tile k fits pattern cell i's colour
    #                                     and design
    card_stacked: np.ndarray  # int64[C]: bit i set when pattern cell i must be stacked
    card_tiles: np.ndarray  # int64[C]: bit k set when tile k can fill some pattern cell
    start_card: np.ndarray  # int64[colours, 2]: card index of each side
    crowd_kind: np.ndarray  # int64[K]
    crowd_count: np.ndarray  # int64[K]
    crowd_level: np.ndarray  # int64[K]
    crowd_value: np.ndarray  # int64[K]
    crowd_sides: np.ndarray  # int64[tiles, 2]: condition row of each side


@dataclass(frozen=True)
class FestivalData:
    """The tables plus the names that turn indices back into words."""

    tables: Tables
    tab: np.ndarray  # the same, packed for the kernels (tables.py)
    colours: list[str]
    designs: list[str]
    tiles: list[str]
    cards: list[str]  # deck cards, then starting sides
    n_deck: int
    crowd: list[str]  # one label per condition row
    folder: Path
    hash: str


def _parse_cells(row, colours: list[str], designs: list[str]) -> list[tuple[int, ...]]:
    text = row.field("cells")
    cells = []
    for part in text.split(";"):
        bits = [b.strip() for b in part.split(",")]
        if len(bits) not in (4, 5) or (len(bits) == 5 and bits[4] != "stacked"):
            raise row.fail("cells", f"'{part}' is not 'row,col,colour,design[,stacked]'")
        r, c = row.whole("cells", bits[0]), row.whole("cells", bits[1])
        if not (0 <= r < 3 and 0 <= c < 3):
            raise row.fail("cells", f"'{part}': position outside the 3x3 board")
        if bits[2] != "any" and bits[2] not in colours:
            raise row.fail("cells", f"'{bits[2]}' is not a colour ({', '.join(colours)}, any)")
        if bits[3] != "any" and bits[3] not in designs:
            raise row.fail("cells", f"'{bits[3]}' is not a design ({', '.join(designs)}, any)")
        colour = ANY if bits[2] == "any" else colours.index(bits[2])
        design = ANY if bits[3] == "any" else designs.index(bits[3])
        cells.append((r, c, colour, design, int(len(bits) == 5)))
    if not 1 <= len(cells) <= PATTERN_CELLS:
        raise row.fail("cells", f"a pattern has 1 to {PATTERN_CELLS} cells")
    if len({(r, c) for r, c, *_ in cells}) != len(cells):
        raise row.fail("cells", "two cells share a position")
    return cells


def _compile_shape(cells) -> np.ndarray:
    """Placement words of a pattern, place[c, i]: bit 9 * r + a is set when the pattern's
    r-th distinct 90-degree rotation, with its first cell on board cell a, lies wholly on
    the board and puts pattern cell i on board cell c (at most 4 x 9 = 36 placements)."""
    place = np.zeros((S.CELLS, PATTERN_CELLS), dtype=np.int64)
    seen = []
    n = 0
    r0, c0 = cells[0][0], cells[0][1]
    offsets = [(r - r0, c - c0) for r, c, *_ in cells]
    for _ in range(ROTATIONS):
        # The same cells and requirements after translation: a duplicate rotation.
        lo_r = min(dr for dr, _ in offsets)
        lo_c = min(dc for _, dc in offsets)
        key = sorted((dr - lo_r, dc - lo_c, cell[2:]) for (dr, dc), cell in zip(offsets, cells))
        if key not in seen:
            seen.append(key)
            for anchor in range(S.CELLS):
                ar, ac = divmod(anchor, 3)
                spots = [(ar + dr, ac + dc) for dr, dc in offsets]
                if all(0 <= r < 3 and 0 <= c < 3 for r, c in spots):
                    for i, (r, c) in enumerate(spots):
                        place[r * 3 + c, i] |= 1 << (S.CELLS * n + anchor)
            n += 1
        offsets = [(dc, -dr) for dr, dc in offsets]  # a quarter turn
    return place


CARD_FIELDS = ("name", "value", "kind", "ncells", "req", "pos", "place")


def _read_cards(rows, colours, designs, id_field: str) -> dict[str, list]:
    """The cards of one file as lists by field (CARD_FIELDS), patterns compiled."""
    out = {field: [] for field in CARD_FIELDS}
    for row in rows:
        name = row.field(id_field)
        if name in out["name"]:
            raise row.fail(id_field, f"'{name}' appears twice")
        kind = KINDS.index(row.choice("kind", KINDS)) if "kind" in row else KIND_SHAPE
        value = row.integer("value", low=0, high=62)
        req = np.full((PATTERN_CELLS, 3), ANY, dtype=np.int64)
        req[:, 2] = 0
        pos = np.zeros((PATTERN_CELLS, 2), dtype=np.int64)
        place = np.zeros((S.CELLS, PATTERN_CELLS), dtype=np.int64)
        if kind == KIND_SHAPE:
            cells = _parse_cells(row, colours, designs)
            for i, (r, c, colour, design, stacked) in enumerate(cells):
                req[i] = (colour, design, stacked)
                pos[i] = (r, c)
            place = _compile_shape(cells)
            n = len(cells)
        else:
            if row.field("cells"):
                raise row.fail("cells", "a pair objective has no cells (any two identical tiles)")
            n = 2
        for field, x in zip(CARD_FIELDS, (name, value, kind, n, req, pos, place)):
            out[field].append(x)
    return out


SCALARS = {  # key: (index in the parameter vector, low, high)
    "min_players": (S.P_MIN_PLAYERS, 2, S.MAX_PLAYERS),
    "max_players": (S.P_MAX_PLAYERS, 2, S.MAX_PLAYERS),
    "tiles_per_player": (S.P_TILES_PER_PLAYER, 1, S.STACK_CAP),
    "objective_piles": (S.P_PILES, 1, S.PILES),
    "pile_size": (S.P_PILE_SIZE, 1, S.PILE_CAP),
    "max_uncompleted": (S.P_MAX_UNCOMPLETED, 1, S.HELD_CAP),
    "end_completed_objectives": (S.P_END_COMPLETED, 1, 64),
    "crowd_pleaser_tiles": (S.P_CROWD_TILES, 0, S.CROWD_TILES),
}
RANGES = {key: (low, high) for key, (_, low, high) in SCALARS.items()} | {
    "board_rows": (3, 3), "board_cols": (3, 3)}


def _params(folder: Path, sets: dict) -> np.ndarray:
    rules = with_sets(read_toml(folder, "rules.toml"), sets, "festival")
    path = rules_label(folder, sets)
    fixed = {"board_rows": 3, "board_cols": 3}
    for key, want in fixed.items():
        if rules.get(key, want) != want:
            raise PlaytestError(f"{path}: {key} = {rules[key]}: only a 3x3 board is supported")
    spec = SCALARS
    params = np.zeros(S.N_PARAMS, dtype=np.int64)
    for key in rules:
        if key not in spec and key not in fixed:
            raise PlaytestError(f"{path}: unknown parameter '{key}'")
    for key, (index, low, high) in spec.items():
        if key not in rules:
            raise PlaytestError(f"{path}: missing parameter '{key}'")
        value = rules[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise PlaytestError(f"{path}: {key} = {value!r} must be a whole number {low}..{high}")
        params[index] = value
    if params[S.P_MIN_PLAYERS] > params[S.P_MAX_PLAYERS]:
        raise PlaytestError(f"{path}: min_players is above max_players")
    return params


@loads_tables("festival")
def load(folder: str | Path | None = None, sets: dict | None = None) -> FestivalData:
    """Read and validate a Festival data folder (default: the shipped ``seeds/festival``),
    with the rule overrides ``sets`` ({rules.toml key: value})."""
    folder = data_folder("festival", folder)
    params = _params(folder, sets or {})

    boards = read_csv(folder, "boards.csv",
                      ["colour", "symbol", "target_design", "cities", "source"])
    design_rows = read_csv(folder, "designs.csv", ["design", "informal_label", "source"])
    designs = [r.field("design") for r in design_rows]
    colours = [r.field("colour") for r in boards]
    if len(colours) != 4 or len(set(colours)) != 4:
        raise PlaytestError(f"{folder / 'boards.csv'}: needs 4 boards of 4 different colours")
    if len(designs) != 4 or len(set(designs)) != 4:
        raise PlaytestError(f"{folder / 'designs.csv'}: needs 4 different designs")
    board_design = np.array([designs.index(r.choice("target_design", designs)) for r in boards])

    tile_rows = read_csv(folder, "tiles.csv", ["tile", "colour", "design", "per_player", "source"])
    unique_names(tile_rows, "tile")
    tiles, tile_colour, tile_design = [], [], []
    for r in tile_rows:
        colour = colours.index(r.choice("colour", colours))
        design = designs.index(r.choice("design", designs))
        for _ in range(r.integer("per_player", low=0, high=S.STACK_CAP)):
            tiles.append(r.field("tile"))
            tile_colour.append(colour)
            tile_design.append(design)
    want = params[S.P_TILES_PER_PLAYER]
    if len(tiles) != want:
        raise PlaytestError(
            f"{folder / 'tiles.csv'}: per_player adds up to {len(tiles)} tiles, "
            f"rules.toml says tiles_per_player = {want}"
        )

    deck_rows = read_csv(folder, "objectives.csv", ["card", "kind", "value", "cells", "source"])
    deck = _read_cards(deck_rows, colours, designs, "card")
    n_deck = len(deck["name"])
    if n_deck != params[S.P_PILES] * params[S.P_PILE_SIZE]:
        raise PlaytestError(
            f"{folder / 'objectives.csv'}: {n_deck} cards, rules.toml deals "
            f"{params[S.P_PILES]} piles of {params[S.P_PILE_SIZE]}"
        )
    start_rows = read_csv(
        folder, "start_objectives.csv", ["card", "colour", "side", "value", "cells", "source"]
    )
    start = _read_cards(start_rows, colours, designs, "card")
    start_card = np.full((4, 2), -1, dtype=np.int64)
    for i, r in enumerate(start_rows):
        colour = colours.index(r.choice("colour", colours))
        side = ("A", "B").index(r.choice("side", ("A", "B")))
        if start_card[colour, side] >= 0:
            raise r.fail("side", f"{colours[colour]} side {'AB'[side]} appears twice")
        start_card[colour, side] = n_deck + i
    if (start_card < 0).any():
        raise PlaytestError(f"{folder / 'start_objectives.csv'}: every colour needs sides A and B")
    cards = {field: deck[field] + start[field] for field in CARD_FIELDS}
    names = cards["name"]
    if len(names) > MAX_CARDS:
        raise PlaytestError(f"{folder}: {len(names)} objective cards, at most {MAX_CARDS}")
    if len(set(names)) != len(names):
        raise PlaytestError(f"{folder}: a starting objective shares its name with a deck card")

    crowd_rows = read_csv(
        folder, "crowd_pleasers.csv",
        ["tile", "side", "condition", "count", "level", "value", "source"],
    )
    n_crowd_tiles = params[S.P_CROWD_TILES]
    if len(crowd_rows) > MAX_CROWD:
        raise PlaytestError(f"{folder / 'crowd_pleasers.csv'}: at most {MAX_CROWD} rows")
    # the first crowd_pleaser_tiles tiles are in play; rows of further tiles are checked and
    # left out (a variant with fewer tiles needs no edited table)
    crowd_sides = np.full((max(n_crowd_tiles, 1), 2), -1, dtype=np.int64)
    seen = set()
    kind, count, level, value, labels = [], [], [], [], []
    for i, r in enumerate(crowd_rows):
        tile = r.integer("tile", low=1, high=MAX_CROWD) - 1
        side = ("A", "B").index(r.choice("side", ("A", "B")))
        if (tile, side) in seen:
            raise r.fail("side", f"tile {tile + 1} side {'AB'[side]} appears twice")
        seen.add((tile, side))
        if tile < n_crowd_tiles:
            crowd_sides[tile, side] = i
        k = CROWD_CONDITIONS.index(r.choice("condition", CROWD_CONDITIONS))
        kind.append(k)
        count.append(r.integer("count", low=1, high=16))
        level.append(r.integer("level", low=0, high=S.LEVELS))
        if CROWD_CONDITIONS[k] == "tiles_at_level" and level[-1] < 2:
            raise r.fail("level", f"tiles_at_level needs a level from 2 to {S.LEVELS}")
        value.append(r.integer("value", low=0))
        labels.append(_crowd_label(CROWD_CONDITIONS[k], count[-1], level[-1]))
    if n_crowd_tiles and (crowd_sides[:n_crowd_tiles] < 0).any():
        raise PlaytestError(f"{folder / 'crowd_pleasers.csv'}: every tile needs sides A and B")

    i64 = lambda x: np.ascontiguousarray(np.array(x, dtype=np.int64))  # noqa: E731
    req = i64(cards["req"])
    kinds = i64(cards["kind"])
    ncells = i64(cards["ncells"])
    fits = _fits(req, ncells, kinds, tile_colour, tile_design)
    tables = Tables(
        params=params,
        tile_colour=i64(tile_colour),
        tile_design=i64(tile_design),
        board_design=i64(board_design),
        card_value=i64(cards["value"]),
        card_kind=kinds,
        card_ncells=ncells,
        card_req=req,
        card_pos=i64(cards["pos"]),
        card_sel=_selectors(req, ncells, kinds),
        card_words=i64([_lookup(place) for place in cards["place"]]),
        card_fits=fits,
        card_stacked=(req[:, :, 2] << np.arange(PATTERN_CELLS)).sum(axis=1),
        # The pair objective can use any tile.
        card_tiles=np.where(kinds == KIND_SHAPE, (fits != 0) @ (1 << np.arange(len(tiles))),
                            (1 << len(tiles)) - 1),
        start_card=start_card,
        crowd_kind=i64(kind),
        crowd_count=i64(count),
        crowd_level=i64(level),
        crowd_value=i64(value),
        crowd_sides=crowd_sides,
    )
    return FestivalData(
        tables=tables,
        tab=pack(tables),
        colours=colours,
        designs=designs,
        tiles=[f"{colours[c]}-{designs[d]}" for c, d in zip(tile_colour, tile_design)],
        cards=names,
        n_deck=n_deck,
        crowd=labels,
        folder=folder,
        hash=folder_hash(folder, FILES, sets),
    )


def _lookup(place: np.ndarray) -> np.ndarray:
    """Placement words by board mask, in two halves: entry [i, m] for m < 32 is the word of
    pattern cell i when the cells satisfying it among 0..4 are the bits of m; entry
    [i, 32 + m] the same for cells 5..8. A word is the OR of its two halves."""
    out = np.zeros((PATTERN_CELLS, WORD_LOOKUP), dtype=np.int64)
    for first, count, at in ((0, LOW_CELLS, 0), (LOW_CELLS, S.CELLS - LOW_CELLS, 1 << LOW_CELLS)):
        for m in range(1 << count):
            for c in range(count):
                if (m >> c) & 1:
                    out[:, at + m] |= place[first + c]
    return out


def _selectors(req: np.ndarray, ncells: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """Per card and pattern cell, three VIEW entries whose AND is the cell's mask."""
    sel = np.full(req.shape, S.V_NONE, dtype=np.int64)
    for card in range(req.shape[0]):
        if kinds[card] != KIND_SHAPE:
            continue
        for i in range(ncells[card]):
            colour, design, stacked = req[card, i]
            sel[card, i, 0] = S.V_ALL if colour == ANY else S.V_COL + colour
            sel[card, i, 1] = S.V_ALL if design == ANY else S.V_DES + design
            sel[card, i, 2] = S.V_LEVEL + (1 if stacked else 0)
    return sel


def _fits(req, ncells, kinds, tile_colour, tile_design) -> np.ndarray:
    """Per card and tile, a bit per pattern cell whose colour and design the tile fits."""
    out = np.zeros((req.shape[0], len(tile_colour)), dtype=np.int64)
    for card in range(req.shape[0]):
        if kinds[card] != KIND_SHAPE:
            continue
        for k, (colour, design) in enumerate(zip(tile_colour, tile_design)):
            for i in range(ncells[card]):
                if req[card, i, 0] in (ANY, colour) and req[card, i, 1] in (ANY, design):
                    out[card, k] |= 1 << i
    return out


def _crowd_label(kind: str, count: int, level: int) -> str:
    return {
        "same_colour_visible": f"{count} visible of one colour",
        "same_design_visible": f"{count} visible of one design",
        "tiles_at_level": f"{count} tile(s) at level {level}",
        "distinct_objective_values": f"{count} objectives of different values",
        "completed_objectives": f"{count} completed objectives",
        "board_full": "board full" if count >= 9 else f"{count} spaces filled",
        "all_colours_and_designs": "all colours and designs visible",
    }[kind]
