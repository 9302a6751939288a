"""The Magnificent as data: reads ``seeds/magnificent`` into numpy tables.

The boards (the camp area of a player board, its build levels and tent spaces, the three
travel tracks, the performance track, the main board's trainer spaces), the camp tile
shapes and the cards (master cards, posters, tents, trainer tiles). Effects and conditions
are closed vocabularies of kinds with parameters. Every table is validated on load; a bad
file gets one PlaytestError naming the file, row and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.core.data import (
    capacity,
    check_count,
    data_folder,
    folder_hash,
    loads_tables,
    read_csv,
    read_rules,
    rules_label,
    unique_names,
    whole,
)
from sim.core.errors import PlaytestError
from sim.magnificent import state as S

SIZES = {"small": 4, "large": 6}  # squares of a camp tile
BONUSES = ("none", "coins", "points", "poster", "trainer", "clear_gem")
TRAVEL_KINDS = ("start", "gem", "tent")
MAX_SHAPE = 6  # cells of the largest shape
MAX_POSTER_TILES = 3
# A master card's top bonus (once, on the turn a die lands on it): kind -> takes an amount.
MASTER_BONUSES = {"coins": True, "points": True, "power": True, "gem": True,  # clear gems
                  "trainer": True, "poster": True, "copy": False}  # copy: another card's
# A master card's scoring condition: points per ... ; kind -> what its parameter is.
SCORINGS = {
    "per_row": None,  # completely filled camp row
    "per_section": None,  # completely filled camp section
    "per_show": None,  # show performed (poster turned face down)
    "per_tent": None,  # tent held (the printed one included)
    "per_tile": "colour",  # camp tile of the colour
    "per_large_tile": None,  # large camp tile
    "per_gem": None,  # gem held
    "per_coins": "number",  # every `number` coins held
    "per_trainer_tile": None,  # trainer tile held
    "per_poster": None,  # poster in the poster area
}
TENT_BONUSES = ("coins", "points", "trainer", "clear_gem")
TRAINER_EFFECTS = (
    "power",  # +amount power for this turn's action
    "travel",  # +amount spaces on a travel
    "show",  # +amount shows on a performance
    "build_level",  # build as if amount levels higher
    "coins", "clear_gem", "points",  # gain amount
)

SCALARS = {  # key: (low, high)
    "min_players": (2, S.MAX_PLAYERS), "max_players": (2, S.MAX_PLAYERS),
    "rounds": (1, S.MAX_ROUNDS),
    # a turn puts a die on a master card held, one die a card a round (the seed: 4 cards)
    "turns_per_round": (1, S.CARD_SLOTS), "start_coins": (0, 100),
    "start_gems_per_colour": (0, 10),
    "start_trainer_markers": (0, 8), "trainer_markers_per_player": (1, 20),
    "trainer_offer_at_setup": (1, 12), "starting_trainer_pick_reverse": (0, 1),
    "start_player_hat_on_top": (0, 1), "start_coins_by_turn_order": (-20, 20),
    "trainer_tile_slots": (1, S.TRAINER_SLOTS),
    "trainer_draft_rounds": (0, 10), "gem_power": (0, 10), "gem_storage_per_colour": (1, 10),
    # the player board's printed counts: fixed (the engine's layout holds exactly these)
    "coins_per_excess_gem": (0, 10), "tent_spaces": (S.TENT_SPACES, S.TENT_SPACES),
    "master_cards_held": (S.CARD_SLOTS, S.CARD_SLOTS),
    "coins_per_point": (1, 100), "master_final_divisor": (1, 10), "points_per_section": (0, 100),
    "gems_per_gap_square": (0, 10),
}
RANGES = SCALARS  # every scalar rule's range, for playtest data --keys
TABLES = ("missing_coin_penalty", "colours", "dice", "display_rows", "poster_display", "side_b",
          "components")
COMPONENTS = ("master_cards", "starting_master_cards", "posters", "starting_posters", "tents",
              "tents_on_board", "trainer_tiles", "gems_per_colour")
BOARDS = ("I", "II", "III", "IV")

# the files a data folder holds: what the loader reads and the run's data hash covers
FILES = ("build_levels.csv", "camp.csv", "camp_tiles.csv", "master_cards.csv",
         "performance.csv", "posters.csv", "rules.toml", "tent_spaces.csv", "tents.csv",
         "trainer_spaces.csv", "trainers.csv", "travel.csv")


@dataclass(frozen=True)
class MagnificentData:
    """The tables plus the names that turn indices back into words."""

    params: dict  # rules.toml, validated
    colours: list[str]  # the dice colours; the clear colour is params["colours"]["clear"]
    camp_tiles: np.ndarray  # colour, size, count, n_cells, cells[6, 2] (row, col)
    camp_tile_names: list[str]
    camp: np.ndarray  # row, col, section, bonus, amount
    build_levels: np.ndarray  # power, small, large (tiles of each size the level gives)
    tent_spaces: np.ndarray  # printed, bonus, amount
    travel: np.ndarray  # track (colour), position, kind, gem (colour index, clear = len,
    #                     -1 none)
    performance: np.ndarray  # power, shows (space order, lowest first)
    trainer_spaces: np.ndarray  # effect, amount
    master_cards: np.ndarray  # set (0 deck, 1-4 numerals I-IV), bonus, bonus_amount,
    #                           scoring, points, scoring_param
    master_card_names: list[str]
    posters: np.ndarray  # starting, n_tiles, tiles[3] (camp_tiles row), gem_colour,
    #                      gems, points, coins
    poster_names: list[str]
    tents: np.ndarray  # bonus, amount, show_points, show_coins, gem_colour, gems
    tent_names: list[str]
    trainers: np.ndarray  # effect, amount
    trainer_names: list[str]
    folder: Path
    hash: str


@loads_tables("magnificent")
def load(folder: str | Path | None = None, sets: dict | None = None) -> MagnificentData:
    """Read and validate a Magnificent data folder (default: the shipped one)."""
    folder = data_folder("magnificent", folder)
    params = _params(folder, sets or {})
    colours = list(params["colours"]["dice"])
    camp_tiles, names = _camp_tiles(folder, colours)
    masters, master_names = _master_cards(folder, params, colours)
    posters, poster_names = _posters(folder, params, colours, names)
    tents, tent_names = _tents(folder, params, colours)
    trainers, trainer_names = _effects(folder, "trainers.csv", "trainer", "trainer_tiles", params)
    return MagnificentData(
        params=params,
        colours=colours,
        camp_tiles=camp_tiles,
        camp_tile_names=names,
        camp=_camp(folder),
        build_levels=_build_levels(folder),
        tent_spaces=_tent_spaces(folder, params),
        travel=_travel(folder, params, colours),
        performance=_performance(folder, params),
        trainer_spaces=_effects(folder, "trainer_spaces.csv", "space", None, params)[0],
        master_cards=masters,
        master_card_names=master_names,
        posters=posters,
        poster_names=poster_names,
        tents=tents,
        tent_names=tent_names,
        trainers=trainers,
        trainer_names=trainer_names,
        folder=folder,
        hash=folder_hash(folder, FILES, sets),
    )


def _params(folder: Path, sets: dict) -> dict:
    rules = read_rules(folder, SCALARS, TABLES, "magnificent", sets)
    path = rules_label(folder, sets)
    for key in TABLES:
        if key != "missing_coin_penalty" and not isinstance(rules[key], dict):
            raise PlaytestError(f"{path}: {key} must be a table ([{key}])")
    penalty = rules["missing_coin_penalty"]
    if not isinstance(penalty, list) or len(penalty) != rules["rounds"]:
        raise PlaytestError(f"{path}: missing_coin_penalty needs one value per round")
    for k, p in enumerate(penalty):
        whole(path, f"missing_coin_penalty[{k}]", p, 0, 100)
    colours = rules["colours"].get("dice")
    clear = rules["colours"].get("clear")
    if not isinstance(colours, list) or len(colours) != 3 or len(set(colours)) != 3 \
            or not isinstance(clear, str) or clear in colours:
        raise PlaytestError(f"{path}: colours.dice must name 3 colours and colours.clear "
                            "another")
    for n in range(rules["min_players"], rules["max_players"] + 1):
        dice = rules["dice"].get(str(n))
        if not isinstance(dice, list) or len(dice) != 4:
            raise PlaytestError(f"{path}: dice.{n} must give 4 counts (3 colours and clear)")
        for k, count in enumerate(dice):
            whole(path, f"dice.{n}[{k}]", count, 0, 20)
        if sum(dice) < n * rules["turns_per_round"]:
            raise PlaytestError(f"{path}: dice.{n} has fewer dice than {n} players take a "
                                "round")
        rows = whole(path, f"display_rows.{n}", rules["display_rows"].get(str(n)), n,
                     max(n, S.DISPLAY_CAP))
        whole(path, f"poster_display.{n}", rules["poster_display"].get(str(n)), 0,
              S.DISPLAY_CAP)
        _check_trainer_supply(path, rules, n, rows)
    for key in COMPONENTS:
        whole(path, f"components.{key}", rules["components"].get(key), 0, 1000)
    for board in BOARDS:
        start = rules["side_b"].get(board)
        if not isinstance(start, dict) or set(start) != {"coins", "gems", "trainer_markers"}:
            raise PlaytestError(f"{path}: side_b.{board} needs coins, gems and "
                                "trainer_markers")
        whole(path, f"side_b.{board}.coins", start["coins"], 0, 100)
        whole(path, f"side_b.{board}.trainer_markers", start["trainer_markers"], 0,
               rules["trainer_markers_per_player"])
        gems = start["gems"]
        if not isinstance(gems, list) or len(gems) != 4:
            raise PlaytestError(f"{path}: side_b.{board}.gems needs 4 counts")
        for k, g in enumerate(gems):
            whole(path, f"side_b.{board}.gems[{k}]", g, 0, rules["gem_storage_per_colour"])
    return rules


def _check_trainer_supply(path: str, rules: dict, n: int, rows: int) -> None:
    """Every player count can be set up: the setup offer, then the drafts' trainer tiles
    (the offer's leftovers go back into the deck, rules.md 16), from the trainer tiles."""
    tiles = rules["components"].get("trainer_tiles")
    if not isinstance(tiles, int):
        return  # refused with the components below
    offer = rules["trainer_offer_at_setup"]
    need = n + rows * min(rules["trainer_draft_rounds"], rules["rounds"])
    if offer > tiles or need > tiles:
        raise PlaytestError(f"{path}: {n} players need {max(offer, need)} trainer tiles (setup "
                            f"offer {offer}, {rows} draft rows in "
                            f"{rules['trainer_draft_rounds']} rounds), the game has {tiles}")
    if 1 + rules["trainer_draft_rounds"] > rules["trainer_tile_slots"]:
        raise PlaytestError(f"{path}: a player would draft more trainer tiles than its "
                            f"{rules['trainer_tile_slots']} slots hold")


def _cells(row, field: str) -> list[tuple[int, int]]:
    cells = []
    for part in row.field(field).split(";"):
        bits = part.split(",")
        if len(bits) != 2:
            raise row.fail(field, f"'{part}' is not 'row,col'")
        cells.append((row.whole(field, bits[0]), row.whole(field, bits[1])))
    if len(set(cells)) != len(cells):
        raise row.fail(field, "a square appears twice")
    return cells


def _connected(cells: set[tuple[int, int]]) -> bool:
    first = next(iter(cells))
    seen, todo = {first}, [first]
    while todo:
        r, c = todo.pop()
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(cells)


def _camp_tiles(folder: Path, colours: list[str]) -> tuple[np.ndarray, list[str]]:
    path = folder / "camp_tiles.csv"
    rows = read_csv(folder, "camp_tiles.csv", ["tile", "colour", "size", "count", "cells",
                                                "source"])
    table = np.zeros(len(rows), dtype=[("colour", "i8"), ("size", "i8"), ("count", "i8"),
                                       ("n_cells", "i8"), ("cells", "i8", (MAX_SHAPE, 2))])
    names = unique_names(rows, "tile")  # posters name the tiles they show
    kinds = set()
    for i, row in enumerate(rows):
        colour = row.choice("colour", colours)
        size = row.choice("size", list(SIZES))
        if (colour, size) in kinds:
            raise row.fail("size", f"a second {size} {colour} shape")
        kinds.add((colour, size))
        cells = _cells(row, "cells")
        if len(cells) != SIZES[size]:
            raise row.fail("cells", f"a {size} tile covers {SIZES[size]} squares, not "
                                    f"{len(cells)}")
        if not _connected(set(cells)):
            raise row.fail("cells", "the squares of a tile must join edge to edge")
        t = table[i]
        t["colour"], t["size"] = colours.index(colour), list(SIZES).index(size)
        t["count"] = row.integer("count", low=1)
        t["n_cells"] = len(cells)
        t["cells"][: len(cells)] = cells
    if len(kinds) != len(colours) * len(SIZES):
        raise PlaytestError(f"{path}: every colour needs a small and a large shape")
    return table, names


def _camp(folder: Path) -> np.ndarray:
    path = folder / "camp.csv"
    rows = read_csv(folder, "camp.csv", ["row", "col", "section", "bonus", "amount", "source"])
    table = np.zeros(len(rows), dtype=[("row", "i8"), ("col", "i8"), ("section", "i8"),
                                       ("bonus", "i8"), ("amount", "i8")])
    seen = set()
    for i, row in enumerate(rows):
        r, c = row.integer("row", low=0, high=20), row.integer("col", low=0, high=20)
        if (r, c) in seen:
            raise row.fail("row", f"the square ({r}, {c}) appears twice")
        seen.add((r, c))
        bonus = row.choice("bonus", BONUSES)
        amount = row.integer("amount", low=0, high=20)
        if (bonus == "none") != (amount == 0):
            raise row.fail("amount", "a bonus square has an amount, a plain square none")
        table[i] = (r, c, row.integer("section", low=1, high=100), BONUSES.index(bonus), amount)
    if not _connected(seen):
        raise PlaytestError(f"{path}: the camp area is not connected")
    rows_n, cols_n = int(table["row"].max()) + 1, int(table["col"].max()) + 1
    capacity(path, "squares in the camp's rows x columns", rows_n * cols_n, S.CAMP_SQUARES)
    capacity(path, "rows", rows_n, S.MAX_ROWS)
    capacity(path, "sections", len(set(table["section"])), S.MAX_SECTIONS)
    for section in set(table["section"]):
        squares = {(r, c) for r, c, s in zip(table["row"], table["col"], table["section"])
                   if s == section}
        if not _connected(squares):
            raise PlaytestError(f"{path}: section {section} is not connected")
    return table


def _build_levels(folder: Path) -> np.ndarray:
    path = folder / "build_levels.csv"
    rows = read_csv(folder, "build_levels.csv", ["level", "power", "tiles", "source"])
    table = np.zeros(len(rows), dtype=[("power", "i8"), ("small", "i8"), ("large", "i8")])
    for i, row in enumerate(rows):
        if row.integer("level", low=1) != i + 1:
            raise row.fail("level", f"levels are numbered 1, 2, ... in order; expected {i + 1}")
        tiles = [t.strip() for t in row.field("tiles").split("+")]
        for t in tiles:
            if t not in SIZES:
                raise row.fail("tiles", f"'{t}' is not one of {', '.join(SIZES)}")
        table[i] = (row.integer("power", low=0), tiles.count("small"), tiles.count("large"))
    if np.any(np.diff(table["power"]) <= 0):
        raise PlaytestError(f"{path}: each level needs more power than the one before")
    capacity(path, "build levels", len(rows), S.MAX_LEVELS)
    return table


def _tent_spaces(folder: Path, params: dict) -> np.ndarray:
    path = folder / "tent_spaces.csv"
    rows = read_csv(folder, "tent_spaces.csv", ["space", "printed", "bonus", "amount",
                                                 "source"])
    table = np.zeros(len(rows), dtype=[("printed", "i8"), ("bonus", "i8"), ("amount", "i8")])
    for i, row in enumerate(rows):
        if row.integer("space", low=1) != i + 1:
            raise row.fail("space", f"spaces are numbered 1, 2, ... in order; expected {i + 1}")
        table[i] = (row.integer("printed", low=0, high=1),
                    BONUSES.index(row.choice("bonus", BONUSES)), row.integer("amount", low=0))
    if len(rows) != params["tent_spaces"]:
        raise PlaytestError(f"{path}: {len(rows)} tent spaces, rules.toml says "
                            f"{params['tent_spaces']}")
    if table["printed"][0] != 1 or table["printed"][1:].any():
        raise PlaytestError(f"{path}: the first tent space, and only it, has a printed tent")
    return table


def _travel(folder: Path, params: dict, colours: list[str]) -> np.ndarray:
    path = folder / "travel.csv"
    rows = read_csv(folder, "travel.csv", ["track", "position", "kind", "gem", "source"])
    table = np.zeros(len(rows), dtype=[("track", "i8"), ("position", "i8"), ("kind", "i8"),
                                       ("gem", "i8")])
    gems = [*colours, params["colours"]["clear"]]
    for i, row in enumerate(rows):
        kind = row.choice("kind", TRAVEL_KINDS)
        gem = row.field("gem")
        if (kind == "gem") != bool(gem):
            raise row.fail("gem", "a gem space names its gem colour, other spaces none")
        table[i] = (colours.index(row.choice("track", colours)), row.integer("position", low=0),
                    TRAVEL_KINDS.index(kind), gems.index(row.choice("gem", gems)) if gem else -1)
    tents = 0
    for k, colour in enumerate(colours):
        track = table[table["track"] == k]
        if sorted(track["position"]) != list(range(len(track))):
            raise PlaytestError(f"{path}: the {colour} track's positions must run 0, 1, ... "
                                "without gaps")
        start = track[track["kind"] == TRAVEL_KINDS.index("start")]
        if len(start) != 1 or start["position"][0] != 0:
            raise PlaytestError(f"{path}: the {colour} track needs one start space, at 0")
        tents += int((track["kind"] == TRAVEL_KINDS.index("tent")).sum())
        capacity(path, f"spaces on the {colour} track", len(track), S.MAX_TRACK)
    if tents != params["components"]["tents_on_board"]:
        raise PlaytestError(f"{path}: {tents} tent spaces, rules.toml puts "
                            f"{params['components']['tents_on_board']} tents on the board")
    return table


def _performance(folder: Path, params: dict) -> np.ndarray:
    path = folder / "performance.csv"
    rows = read_csv(folder, "performance.csv", ["space", "power", "shows", "source"])
    table = np.zeros(len(rows), dtype=[("power", "i8"), ("shows", "i8")])
    for i, row in enumerate(rows):
        if row.integer("space", low=1) != i + 1:
            raise row.fail("space", f"spaces are numbered 1, 2, ... in order; expected {i + 1}")
        table[i] = (row.integer("power", low=0), row.integer("shows", low=0, high=20))
    if np.any(np.diff(table["power"]) < 0):
        raise PlaytestError(f"{path}: the power needed may not fall up the track")
    if len(rows) < 2 * params["max_players"]:
        raise PlaytestError(f"{path}: {len(rows)} spaces; every player's hats need room")
    capacity(path, "spaces", len(rows), S.MAX_PERF)
    return table


NUMERALS = ("deck", "I", "II", "III", "IV")


def _gems(row, field: str, gems: list[str]) -> tuple[int, int]:
    """(colour index, count) of a 'colour:count' field; (-1, 0) when empty."""
    text = row.field(field)
    if not text:
        return -1, 0
    colour, _, count = text.partition(":")
    if colour not in gems:
        raise row.fail(field, f"'{text}' is not 'colour:count' ({', '.join(gems)}; 1..5)")
    return gems.index(colour), row.whole(field, count, 1, 5)


def _master_cards(folder: Path, params: dict, colours: list[str]) -> tuple[np.ndarray, list]:
    rows = read_csv(folder, "master_cards.csv", ["card", "set", "bonus", "bonus_amount",
                                                  "scoring", "points", "scoring_param",
                                                  "source"])
    table = np.zeros(len(rows), dtype=[("set", "i8"), ("bonus", "i8"), ("bonus_amount", "i8"),
                                       ("scoring", "i8"), ("points", "i8"),
                                       ("scoring_param", "i8")])
    names = unique_names(rows, "card")
    bonuses, scorings = list(MASTER_BONUSES), list(SCORINGS)
    for i, row in enumerate(rows):
        bonus = row.choice("bonus", bonuses)
        low = 1 if MASTER_BONUSES[bonus] else 0
        amount = row.integer("bonus_amount", low=low, high=10 if low else 0)
        scoring = row.choice("scoring", scorings)
        kind = SCORINGS[scoring]
        text = row.field("scoring_param")
        if kind is None:
            if text:
                raise row.fail("scoring_param", f"'{scoring}' takes no parameter")
            param = 0
        elif kind == "colour":
            param = colours.index(row.choice("scoring_param", colours))
        else:
            param = row.integer("scoring_param", low=1, high=100)
        table[i] = (NUMERALS.index(row.choice("set", NUMERALS)), bonuses.index(bonus), amount,
                    scorings.index(scoring), row.integer("points", low=1, high=100), param)
    check_count(folder / "master_cards.csv", len(rows), params, "master_cards")
    capacity(folder / "master_cards.csv", "master cards", len(rows), S.MAX_MASTERS)
    starting = int((table["set"] > 0).sum())
    check_count(f"{folder / 'master_cards.csv'} (starting cards)", starting, params,
                "starting_master_cards")
    per_set = np.bincount(table["set"], minlength=len(NUMERALS))[1:]
    if len(set(per_set)) != 1:
        raise PlaytestError(f"{folder / 'master_cards.csv'}: the starting sets I-IV need as "
                            f"many cards each, not {per_set.tolist()}")
    return table, names


def _posters(folder: Path, params: dict, colours: list[str], tile_names: list[str]
             ) -> tuple[np.ndarray, list]:
    rows = read_csv(folder, "posters.csv", ["poster", "starting", "tiles", "gems", "points",
                                             "coins", "source"])
    table = np.zeros(len(rows), dtype=[("starting", "i8"), ("n_tiles", "i8"),
                                       ("tiles", "i8", MAX_POSTER_TILES),
                                       ("gem_colour", "i8"), ("gems", "i8"), ("points", "i8"),
                                       ("coins", "i8")])
    names = unique_names(rows, "poster")
    gems = [*colours, params["colours"]["clear"]]
    for i, row in enumerate(rows):
        tiles = [t.strip() for t in row.field("tiles").split(";") if t.strip()]
        if not 1 <= len(tiles) <= MAX_POSTER_TILES:
            raise row.fail("tiles", f"a poster shows 1 to {MAX_POSTER_TILES} camp tiles")
        for t in tiles:
            if t not in tile_names:
                raise row.fail("tiles", f"'{t}' is not a camp tile ({', '.join(tile_names)})")
        t = table[i]
        t["starting"] = row.integer("starting", low=0, high=1)
        t["n_tiles"] = len(tiles)
        t["tiles"][: len(tiles)] = [tile_names.index(x) for x in tiles]
        t["gem_colour"], t["gems"] = _gems(row, "gems", gems)
        t["points"] = row.integer("points", low=0, high=100)
        t["coins"] = row.integer("coins", low=0, high=100)
    check_count(folder / "posters.csv", len(rows), params, "posters")
    capacity(folder / "posters.csv", "posters", len(rows), S.MAX_POSTERS)
    check_count(f"{folder / 'posters.csv'} (starting posters)", int(table["starting"].sum()),
                params, "starting_posters")
    return table, names


def _tents(folder: Path, params: dict, colours: list[str]) -> tuple[np.ndarray, list[str]]:
    rows = read_csv(folder, "tents.csv", ["tent", "bonus", "amount", "show_points",
                                           "show_coins", "gems", "source"])
    table = np.zeros(len(rows), dtype=[("bonus", "i8"), ("amount", "i8"),
                                       ("show_points", "i8"), ("show_coins", "i8"),
                                       ("gem_colour", "i8"), ("gems", "i8")])
    names = unique_names(rows, "tent")
    gems = [*colours, params["colours"]["clear"]]
    for i, row in enumerate(rows):
        colour, count = _gems(row, "gems", gems)
        table[i] = (TENT_BONUSES.index(row.choice("bonus", TENT_BONUSES)),
                    row.integer("amount", low=1, high=10),
                    row.integer("show_points", low=0, high=100),
                    row.integer("show_coins", low=0, high=100), colour, count)
    check_count(folder / "tents.csv", len(rows), params, "tents")
    capacity(folder / "tents.csv", "tents", len(rows), S.MAX_TENTS)
    if params["components"]["tents_on_board"] >= len(rows):
        raise PlaytestError(f"{folder / 'tents.csv'}: {len(rows)} tents cannot fill "
                            f"{params['components']['tents_on_board']} board spaces and leave "
                            "one in the box")
    return table, names


def _effects(folder: Path, name: str, id_field: str, count_key: str | None,
             params: dict) -> tuple[np.ndarray, list[str]]:
    """Trainer tiles and the main board's trainer spaces: an effect with an amount."""
    rows = read_csv(folder, name, [id_field, "effect", "amount", "source"])
    table = np.zeros(len(rows), dtype=[("effect", "i8"), ("amount", "i8")])
    names = unique_names(rows, id_field)
    for i, row in enumerate(rows):
        table[i] = (TRAINER_EFFECTS.index(row.choice("effect", TRAINER_EFFECTS)),
                    row.integer("amount", low=1, high=10))
    if count_key is not None:
        check_count(folder / name, len(rows), params, count_key)
    capacity(folder / name, "rows", len(rows),
             S.MAX_TRAINERS if count_key is not None else S.BOARD_SPACES)
    return table, names
