"""The packed rule tables: every Magnificent table in one flat int64 array, ``tab``.

As the other games': kernels take one array, capacities are layout, values are data arriving
as an argument, so an edited card file or a ``--set`` never recompiles. Every placement of
every camp tile (each rotation, flip and position inside the camp area) is computed here
once, as a camp mask with the mask of the squares that touch it.
"""

from __future__ import annotations

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.layout import layout
from sim.magnificent import data as D
from sim.magnificent import state as S

MAX_PLACEMENTS = 8 * 64  # orientations x positions of one tile kind
MAX_SECTIONS = S.MAX_SECTIONS
MAX_ROWS = S.MAX_ROWS
MAX_LEVELS = S.MAX_LEVELS
MAX_BONUS_SQUARES = 64
PLACE_BONUSES = len(D.BONUSES) - 1  # every kind but "none"

RULE_PARAMS = ("rounds", "turns_per_round", "start_coins", "start_gems_per_colour",  # rules.toml
               "start_trainer_markers", "trainer_markers_per_player", "trainer_offer_at_setup",
               "starting_trainer_pick_reverse", "start_player_hat_on_top",
               "start_coins_by_turn_order",
               "trainer_tile_slots", "trainer_draft_rounds", "gem_power",
               "gem_storage_per_colour", "coins_per_excess_gem", "master_cards_held",
               "coins_per_point", "master_final_divisor", "points_per_section",
               "gems_per_gap_square")
PARAM_NAMES = RULE_PARAMS + (  # and what the tables give
    "gems_per_colour", "camp_rows", "camp_cols", "camp_all", "col_first", "col_last",
    "sections", "levels", "perf_spaces", "masters", "posters", "tents", "trainers",
    "board_spaces", "deck_poster_value")
P = {name: k for k, name in enumerate(PARAM_NAMES)}
# Effects of trainer tiles and board spaces, master card bonuses, tent and camp bonuses,
# scorings: indices into data's vocabularies.
(E_POWER, E_TRAVEL, E_SHOW, E_BUILD_LEVEL, E_COINS, E_CLEAR_GEM,
 E_POINTS) = range(len(D.TRAINER_EFFECTS))
(MB_COINS, MB_POINTS, MB_POWER, MB_GEM, MB_TRAINER, MB_POSTER,
 MB_COPY) = range(len(D.MASTER_BONUSES))
(SC_ROW, SC_SECTION, SC_SHOW, SC_TENT, SC_TILE, SC_LARGE, SC_GEM, SC_COINS, SC_TRAINER,
 SC_POSTER) = range(len(D.SCORINGS))
(BN_NONE, BN_COINS, BN_POINTS, BN_POSTER, BN_TRAINER, BN_CLEAR_GEM) = range(len(D.BONUSES))
TB_COINS, TB_POINTS, TB_TRAINER, TB_CLEAR_GEM = range(len(D.TENT_BONUSES))
KIND_START, KIND_GEM, KIND_TENT = range(len(D.TRAVEL_KINDS))

SHAPES = {
    "params": (len(PARAM_NAMES),),
    "dice": (S.MAX_PLAYERS + 1, S.KINDS),
    "display_rows": (S.MAX_PLAYERS + 1,),
    "poster_display": (S.MAX_PLAYERS + 1,),
    "penalty": (8,),
    "side_b": (4, 2 + S.KINDS),  # coins, markers, gems by kind
    "square_bonus": (MAX_BONUS_SQUARES,),  # by camp bit
    "square_amount": (MAX_BONUS_SQUARES,),
    "section_mask": (MAX_SECTIONS,),
    "row_mask": (MAX_ROWS,),
    "tile_colour": (S.TILE_KINDS,),
    "tile_large": (S.TILE_KINDS,),
    "tile_count": (S.TILE_KINDS,),
    "tile_cells": (S.TILE_KINDS,),
    "place_n": (S.TILE_KINDS,),
    "place_mask": (S.TILE_KINDS, MAX_PLACEMENTS),
    "place_touch": (S.TILE_KINDS, MAX_PLACEMENTS),  # squares sharing an edge with it
    # the bonuses of the squares it covers, by data.BONUSES kind (coins .. clear_gem)
    "place_bonus": (S.TILE_KINDS, MAX_PLACEMENTS, PLACE_BONUSES),
    "level_power": (MAX_LEVELS,),
    "level_small": (MAX_LEVELS,),
    "level_large": (MAX_LEVELS,),
    "tent_space_bonus": (S.TENT_SPACES,),
    "tent_space_amount": (S.TENT_SPACES,),
    "track_len": (S.TRACKS,),
    "track_kind": (S.TRACKS, S.MAX_TRACK),
    "track_gem": (S.TRACKS, S.MAX_TRACK),
    "perf_power": (S.MAX_PERF,),
    "perf_shows": (S.MAX_PERF,),
    "space_effect": (S.BOARD_SPACES,),
    "space_amount": (S.BOARD_SPACES,),
    "m_set": (S.MAX_MASTERS,),
    "m_bonus": (S.MAX_MASTERS,),
    "m_amount": (S.MAX_MASTERS,),
    "m_scoring": (S.MAX_MASTERS,),
    "m_points": (S.MAX_MASTERS,),
    "m_param": (S.MAX_MASTERS,),
    "p_starting": (S.MAX_POSTERS,),
    "p_tiles": (S.MAX_POSTERS, S.TILE_KINDS),  # tiles of each kind the poster shows
    "p_gem_colour": (S.MAX_POSTERS,),
    "p_gems": (S.MAX_POSTERS,),
    "p_points": (S.MAX_POSTERS,),
    "p_coins": (S.MAX_POSTERS,),
    "t_bonus": (S.MAX_TENTS,),
    "t_amount": (S.MAX_TENTS,),
    "t_points": (S.MAX_TENTS,),
    "t_coins": (S.MAX_TENTS,),
    "t_gem_colour": (S.MAX_TENTS,),
    "t_gems": (S.MAX_TENTS,),
    "tr_effect": (S.MAX_TRAINERS,),
    "tr_amount": (S.MAX_TRAINERS,),
}

OFFSETS, SIZE = layout(SHAPES)
PARAMS = OFFSETS["params"]
DICE = OFFSETS["dice"]
DISPLAY_ROWS = OFFSETS["display_rows"]
POSTER_DISPLAY = OFFSETS["poster_display"]
PENALTY = OFFSETS["penalty"]
SIDE_B = OFFSETS["side_b"]
SQUARE_BONUS = OFFSETS["square_bonus"]
SQUARE_AMOUNT = OFFSETS["square_amount"]
SECTION_MASK = OFFSETS["section_mask"]
ROW_MASK = OFFSETS["row_mask"]
TILE_COLOUR = OFFSETS["tile_colour"]
TILE_LARGE = OFFSETS["tile_large"]
TILE_COUNT = OFFSETS["tile_count"]
TILE_CELLS = OFFSETS["tile_cells"]
PLACE_N = OFFSETS["place_n"]
PLACE_MASK = OFFSETS["place_mask"]
PLACE_TOUCH = OFFSETS["place_touch"]
PLACE_BONUS = OFFSETS["place_bonus"]
LEVEL_POWER = OFFSETS["level_power"]
LEVEL_SMALL = OFFSETS["level_small"]
LEVEL_LARGE = OFFSETS["level_large"]
TENT_SPACE_BONUS = OFFSETS["tent_space_bonus"]
TENT_SPACE_AMOUNT = OFFSETS["tent_space_amount"]
TRACK_LEN = OFFSETS["track_len"]
TRACK_KIND = OFFSETS["track_kind"]
TRACK_GEM = OFFSETS["track_gem"]
PERF_POWER = OFFSETS["perf_power"]
PERF_SHOWS = OFFSETS["perf_shows"]
SPACE_EFFECT = OFFSETS["space_effect"]
SPACE_AMOUNT = OFFSETS["space_amount"]
M_SET = OFFSETS["m_set"]
M_BONUS = OFFSETS["m_bonus"]
M_AMOUNT = OFFSETS["m_amount"]
M_SCORING = OFFSETS["m_scoring"]
M_POINTS = OFFSETS["m_points"]
M_PARAM = OFFSETS["m_param"]
P_STARTING = OFFSETS["p_starting"]
P_TILES = OFFSETS["p_tiles"]
P_GEM_COLOUR = OFFSETS["p_gem_colour"]
P_GEMS = OFFSETS["p_gems"]
P_POINTS = OFFSETS["p_points"]
P_COINS = OFFSETS["p_coins"]
T_BONUS = OFFSETS["t_bonus"]
T_AMOUNT = OFFSETS["t_amount"]
T_POINTS = OFFSETS["t_points"]
T_COINS = OFFSETS["t_coins"]
T_GEM_COLOUR = OFFSETS["t_gem_colour"]
T_GEMS = OFFSETS["t_gems"]
TR_EFFECT = OFFSETS["tr_effect"]
TR_AMOUNT = OFFSETS["tr_amount"]


def orientations(cells: list[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct shapes of a tile turned and flipped, each moved to (0, 0) and sorted."""
    out = []
    for flip in (False, True):
        shape = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]
            r0, c0 = min(r for r, _ in shape), min(c for _, c in shape)
            norm = tuple(sorted((r - r0, c - c0) for r, c in shape))
            if norm not in out:
                out.append(norm)
    return out


def placements(cells: list[tuple[int, int]], squares: set[tuple[int, int]], cols: int
               ) -> list[tuple[int, int]]:
    """(mask, touching mask) of every placement of a tile inside the camp ``squares``."""
    out = []
    rows = max(r for r, _ in squares) + 1
    for shape in orientations(cells):
        for dr in range(rows):
            for dc in range(cols):
                placed = [(r + dr, c + dc) for r, c in shape]
                if not all(x in squares for x in placed):
                    continue
                mask = sum(1 << (r * cols + c) for r, c in placed)
                near = {(r + a, c + b) for r, c in placed
                        for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))}
                touch = sum(1 << (r * cols + c) for r, c in near & squares
                            if (r, c) not in placed)
                out.append((mask, touch))
    return out


def pack(d: D.MagnificentData) -> np.ndarray:
    """One flat array from the loaded data (each table padded to its capacity)."""
    p = d.params
    v: dict[str, np.ndarray] = {name: np.zeros(shape, dtype=np.int64)
                                for name, shape in SHAPES.items()}
    # every capacity is the loader's to refuse (data.py), each in one line naming its file
    rows, cols = int(d.camp["row"].max()) + 1, int(d.camp["col"].max()) + 1
    sections = sorted(set(d.camp["section"].tolist()))
    par = v["params"]
    for name in RULE_PARAMS:
        par[P[name]] = p[name]
    par[P["gems_per_colour"]] = p["components"]["gems_per_colour"]
    par[P["camp_rows"]], par[P["camp_cols"]] = rows, cols
    squares = {(int(r), int(c)) for r, c in zip(d.camp["row"], d.camp["col"])}
    par[P["camp_all"]] = sum(1 << (r * cols + c) for r, c in squares)
    par[P["col_first"]] = sum(1 << (r * cols) for r in range(rows))
    par[P["col_last"]] = sum(1 << (r * cols + cols - 1) for r in range(rows))
    par[P["sections"]] = len(sections)
    par[P["levels"]] = len(d.build_levels)
    par[P["perf_spaces"]] = len(d.performance)
    par[P["masters"]] = len(d.master_cards)
    par[P["posters"]] = len(d.posters)
    par[P["tents"]] = len(d.tents)
    par[P["trainers"]] = len(d.trainers)
    par[P["board_spaces"]] = len(d.trainer_spaces)
    deck = d.posters[d.posters["starting"] == 0]  # a deck poster's mean points and coins,
    par[P["deck_poster_value"]] = round(  # in thousandths (features.deck_value)
        1000 * float((deck["points"] + deck["coins"]).mean()) if len(deck) else 0)
    for n in range(p["min_players"], p["max_players"] + 1):
        v["dice"][n] = p["dice"][str(n)]
        v["display_rows"][n] = p["display_rows"][str(n)]
        v["poster_display"][n] = p["poster_display"][str(n)]
    v["penalty"][: len(p["missing_coin_penalty"])] = p["missing_coin_penalty"]
    for b, board in enumerate(D.BOARDS):
        start = p["side_b"][board]
        v["side_b"][b] = [start["coins"], start["trainer_markers"], *start["gems"]]
    for sq in d.camp:
        bit = int(sq["row"]) * cols + int(sq["col"])
        v["square_bonus"][bit] = sq["bonus"]
        v["square_amount"][bit] = sq["amount"]
        v["section_mask"][sections.index(int(sq["section"]))] |= 1 << bit
        v["row_mask"][int(sq["row"])] |= 1 << bit
    for t, tile in enumerate(d.camp_tiles):
        v["tile_colour"][t] = tile["colour"]
        v["tile_large"][t] = tile["size"]  # data.SIZES order: small, large
        v["tile_count"][t] = tile["count"]
        v["tile_cells"][t] = tile["n_cells"]
        cells = [tuple(int(x) for x in c) for c in tile["cells"][: tile["n_cells"]]]
        ways = placements(cells, squares, cols)
        if len(ways) > MAX_PLACEMENTS:
            raise PlaytestError(f"{d.folder}: a camp tile has more than {MAX_PLACEMENTS} "
                                "placements")
        v["place_n"][t] = len(ways)
        for k, (mask, touch) in enumerate(ways):
            v["place_mask"][t, k], v["place_touch"][t, k] = mask, touch
            for bit in range(rows * cols):
                if mask >> bit & 1 and v["square_bonus"][bit]:
                    v["place_bonus"][t, k, v["square_bonus"][bit] - 1] += v["square_amount"][bit]
    k = len(d.build_levels)
    v["level_power"][:k] = d.build_levels["power"]
    v["level_small"][:k] = d.build_levels["small"]
    v["level_large"][:k] = d.build_levels["large"]
    v["tent_space_bonus"][:] = d.tent_spaces["bonus"]
    v["tent_space_amount"][:] = d.tent_spaces["amount"]
    for sp in d.travel:
        v["track_len"][sp["track"]] += 1
        v["track_kind"][sp["track"], sp["position"]] = sp["kind"]
        v["track_gem"][sp["track"], sp["position"]] = sp["gem"]
    k = len(d.performance)
    v["perf_power"][:k] = d.performance["power"]
    v["perf_shows"][:k] = d.performance["shows"]
    k = len(d.trainer_spaces)
    v["space_effect"][:k] = d.trainer_spaces["effect"]
    v["space_amount"][:k] = d.trainer_spaces["amount"]
    m = d.master_cards
    for field, name in (("set", "m_set"), ("bonus", "m_bonus"), ("bonus_amount", "m_amount"),
                        ("scoring", "m_scoring"), ("points", "m_points"),
                        ("scoring_param", "m_param")):
        v[name][: len(m)] = m[field]
    po = d.posters
    for i, row in enumerate(po):
        v["p_starting"][i] = row["starting"]
        for t in row["tiles"][: row["n_tiles"]]:
            v["p_tiles"][i, t] += 1
        v["p_gem_colour"][i], v["p_gems"][i] = row["gem_colour"], row["gems"]
        v["p_points"][i], v["p_coins"][i] = row["points"], row["coins"]
    te = d.tents
    for field in ("bonus", "amount", "gem_colour", "gems"):
        v[f"t_{field}"][: len(te)] = te[field]
    v["t_points"][: len(te)] = te["show_points"]
    v["t_coins"][: len(te)] = te["show_coins"]
    v["tr_effect"][: len(d.trainers)] = d.trainers["effect"]
    v["tr_amount"][: len(d.trainers)] = d.trainers["amount"]
    tab = np.zeros(SIZE, dtype=np.int64)
    for name, block in v.items():
        tab[OFFSETS[name]: OFFSETS[name] + block.size] = block.ravel()
    return tab
