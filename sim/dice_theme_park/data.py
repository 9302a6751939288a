"""Dice Theme Park as data: reads ``seeds/dice_theme_park`` into numpy tables.

Every table is validated on load; a bad file gets one PlaytestError naming the file, row and
field. Tables with several fields are numpy structured arrays, so a column is read by name
(``d.attractions["stars"]``) and a kernel takes plain int arrays cut from them. Words
(requirement kinds, amenities, colours, ...) become indices into the vocabularies below.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.core.data import (
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
from sim.dice_theme_park import state as S

MODES = ("intro", "full", "short")
STAFF = ("concierge", "ticket_agent", "guide", "mascot", "manager", "architect")
STAFF_PHASES = ("welcome", "upkeep", "operate", "expand+operate", "improve")
# Operating requirements (rules.md "Operating requirements"): the seed's ten kinds plus the
# coloured variants its examples use. A coloured kind names the colour of one die.
REQUIREMENTS = (
    "single",  # 1 die (of the named colour, or any)
    "pair_even",  # 2 dice, both even
    "pair_odd",  # 2 dice, both odd
    "pair_greater",  # 2 dice, one greater than the other
    "low_high",  # 2 dice, one at 1-3 and the other at 3-6
    "pair_equal",  # 2 dice, equal pips
    "run_three",  # 3 dice, all different
    "three_equal",  # 3 dice, all equal
    "colour_greater",  # a die of the colour greater than another die
    "colour_smaller",  # a die of the colour smaller than another die
    "odd_even",  # an odd die of the colour and an even die of any colour (Ferris Wheel)
)
COLOUR_OPTIONAL = ("single",)
COLOUR_REQUIRED = ("colour_greater", "colour_smaller", "odd_even")
AMENITIES = ("food", "drink", "restroom", "shop", "photo", "seating", "first_aid",
             "information")
STACKS = ("entrance", "basic", "A", "B")
PARK_ROLES = ("entrance", "basic", "setup", "open")
MEASURES = ("money", "dice_in_park", "pips_in_park", "attractions", "amenity_kinds",
            "upgrades", "mascots", "operations_this_round", "stars_this_round")
BEST = ("most", "least")
PHASES = ("planning", "welcome", "expand", "improve", "operate", "upkeep", "end")
# Administrator powers (the seed's 13 abilities): name -> (names a dice colour, takes an
# amount, scores stars at 3 thresholds).
ADMIN_POWERS = {
    "save_discarded_die": (True, False, False),  # a discarded die of the colour: any pips,
    #                                              back on the entrance (once a round)
    "keep_pips": (True, False, False),  # operating an attraction of the colour: one party
    #                                     die of the colour is not lowered
    "operated_colour_stars": (True, False, True),  # different attractions of the colour
    #                                                operated this round
    "operated_stars": (False, False, True),  # different attractions operated this round
    "mascot_stars": (False, False, True),  # mascots hired
    "upgrade_discount": (False, True, False),  # $ off each upgrade
    "map_discount": (False, True, False),  # $ off the map bought
    "mascot_discount": (False, True, False),  # $ off each mascot
    "money_per_star": (False, True, False),  # $ per star at the end, instead of the rule's
    "lower_turn_sum": (False, True, False),  # lower the staff pips sum by up to amount
    "rearrange_monorail": (False, True, False),  # reset the chosen monorail's dice to its
    #                                              printed pips in any order, +amount to one
    "leftover_monorail_die": (False, False, False),  # a die from a monorail nobody chose
    "swap_staff_once": (False, False, False),  # once a game: swap a played staff card for
    #                                            one in hand, then the card leaves the game
}
# Skill powers (the seed's 9 abilities): name -> (names a dice colour, amount, limit).
SKILL_POWERS = {
    "shift_pips": (True, True, False),  # a die of the colour +-amount pips
    "two_five": (True, False, False),  # a die of the colour: 2 pips <-> 5 pips
    "money_per_die": (True, True, True),  # $amount per die of the colour here, at most limit
    "stars_per_die": (True, True, True),  # amount stars per die of the colour here, at most
    #                                       limit
    "nudge_two": (False, True, False),  # two different dice here, each +-amount
    "push": (False, True, False),  # a die from here to a neighbour, amount times
    "pull": (False, True, False),  # a die from a neighbour to here, amount times
    "leap": (False, True, False),  # a die from here to an attraction up to amount steps away
    "recolour": (False, False, False),  # exchange a die here for another colour, same pips
}
GREY = "grey"  # the colour of attractions that are not a dice colour
ANY = -1  # "any colour" in a requirement; "no amenity" for the entrance; no upgrade space
MAX_UPGRADE_SPACES = 2
HEX_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))  # axial neighbours

ATTRACTION_FIELDS = ("stack", "cost", "income", "requirement", "requirement_colour", "stars",
                     "amenity", "colour", "icons", "upgrade_1", "upgrade_2")

# the files a data folder holds: what the loader reads and the run's data hash covers
FILES = ("administrators.csv", "attractions.csv", "monorails.csv", "objectives.csv", "park.csv",
         "rules.toml", "skills.csv", "staff.csv")


@dataclass(frozen=True)
class DiceThemeParkData:
    """The tables plus the names that turn indices back into words."""

    params: dict  # rules.toml, validated
    colours: list[str]  # dice colours; attraction colours are these plus GREY (last)
    monorails: np.ndarray  # players, pips[3]
    monorail_names: list[str]
    staff: np.ndarray  # pips, money (row order: STAFF)
    park: np.ndarray  # q, r, role (axial hex coordinates)
    attractions: np.ndarray  # ATTRACTION_FIELDS
    attraction_names: list[str]
    objectives: np.ndarray  # colour, measure, best
    objective_names: list[str]
    objective_colours: list[str]
    administrators: np.ndarray  # power, colour, amount, thresholds[3], stars[3]
    administrator_names: list[str]
    skills: np.ndarray  # power, colour, amount, limit
    skill_names: list[str]
    folder: Path
    hash: str


@loads_tables("dice_theme_park")
def load(folder: str | Path | None = None, sets: dict | None = None) -> DiceThemeParkData:
    """Read and validate a Dice Theme Park data folder (default: the shipped one)."""
    folder = data_folder("dice_theme_park", folder)
    params = _params(folder, sets or {})
    colours = list(params["dice"]["colours"])
    monorails, monorail_names = _monorails(folder, params)
    attractions, attraction_names = _attractions(folder, params, colours)
    objectives, objective_names, objective_colours = _objectives(folder, params)
    administrators, administrator_names = _administrators(folder, params, colours)
    skills, skill_names = _skills(folder, params, colours)
    return DiceThemeParkData(
        params=params,
        colours=colours,
        monorails=monorails,
        monorail_names=monorail_names,
        staff=_staff(folder),
        park=_park(folder, params),
        attractions=attractions,
        attraction_names=attraction_names,
        objectives=objectives,
        objective_names=objective_names,
        objective_colours=objective_colours,
        administrators=administrators,
        administrator_names=administrator_names,
        skills=skills,
        skill_names=skill_names,
        folder=folder,
        hash=folder_hash(folder, FILES, sets),
    )


# ---------------------------------------------------------------- rules.toml

SCALARS = {  # key: (low, high)
    "min_players": (2, 4), "max_players": (2, 4), "start_money": (0, 100),
    "operating_cubes": (1, 100), "mascot_price": (0, 50), "map_price": (0, 50),
    "maps_at_start": (0, 10), "max_maps_bought": (0, 10), "max_upgrades_installed": (0, 10),
    "upgrades_of_each_kind": (0, 10), "gift_shop_money": (0, 20),
    "special_effect_stars": (0, 20), "money_per_star_at_end": (1, 100), "max_pips": (6, 6),
}
RANGES = SCALARS  # every scalar rule's range, for playtest data --keys
TABLES = ("rounds", "objective_rounds", "stack_for_round", "dice", "objective_stars",
          "amenity_bonus", "components")


def _params(folder: Path, sets: dict) -> dict:
    rules = read_rules(folder, SCALARS, TABLES, "dice_theme_park", sets)
    path = rules_label(folder, sets)
    for key in TABLES:
        if not isinstance(rules[key], dict):
            raise PlaytestError(f"{path}: {key} must be a table ([{key}])")
    players = range(rules["min_players"], rules["max_players"] + 1)
    for mode in MODES:
        rounds = whole(path, f"rounds.{mode}", rules["rounds"].get(mode), 1, S.MAX_ROUNDS)
        objective_rounds = rules["objective_rounds"].get(mode)
        if not isinstance(objective_rounds, list) or not all(
                isinstance(r, int) and 1 <= r <= rounds for r in objective_rounds):
            raise PlaytestError(f"{path}: objective_rounds.{mode} must list rounds 1..{rounds}")
        stacks = rules["stack_for_round"].get(mode)
        if not isinstance(stacks, list) or len(stacks) != rounds or not set(stacks) <= {"A", "B"}:
            raise PlaytestError(f"{path}: stack_for_round.{mode} needs {rounds} of 'A' or 'B'")
    dice = rules["dice"]
    colours = dice.get("colours")
    if not isinstance(colours, list) or len(colours) < 1 or len(set(colours)) != len(colours) \
            or GREY in colours:
        raise PlaytestError(f"{path}: dice.colours must name different colours (not '{GREY}')")
    if len(colours) != S.COLOURS:
        raise PlaytestError(f"{path}: dice.colours must name {S.COLOURS} colours (the engine "
                            f"holds {S.COLOURS})")
    # a park's slots hold every die of the game (state.PARK_DICE)
    per_colour = whole(path, "dice.per_colour", dice.get("per_colour"), 1,
                       S.PARK_DICE // S.COLOURS)
    for n in players:
        whole(path, f"dice.in_bag.{n}", dice.get("in_bag", {}).get(str(n)), 1, per_colour)
        stars = rules["objective_stars"].get(str(n))
        if not isinstance(stars, list) or len(stars) != n - 1:
            raise PlaytestError(f"{path}: objective_stars.{n} must give {n - 1} value(s)")
        for k, s in enumerate(stars):
            whole(path, f"objective_stars.{n}[{k}]", s, 0, 100)
    bonus = rules["amenity_bonus"]
    for key in ("set_any_pips", "draw_die_at", "free_build_from_discard"):
        whole(path, f"amenity_bonus.{key}", bonus.get(key), 2, len(AMENITIES) * 10)
    whole(path, "amenity_bonus.draw_die_pips", bonus.get("draw_die_pips"), 1, 6)
    for key in ("attractions_a", "attractions_b", "basic_attractions", "objectives",
                "administrators", "skills"):
        whole(path, f"components.{key}", rules["components"].get(key), 0, 1000)
    # every player's starting maps come from the supply; a player holds a skill card per
    # mascot (state.SKILLS_HELD)
    whole(path, "components.maps_in_supply", rules["components"].get("maps_in_supply"),
          rules["maps_at_start"] * rules["max_players"], 1000)
    whole(path, "components.mascots_per_player",
          rules["components"].get("mascots_per_player"), 1, S.SKILLS_HELD)
    return rules


# ---------------------------------------------------------------- tables


def _monorails(folder: Path, params: dict) -> tuple[np.ndarray, list[str]]:
    rows = read_csv(folder, "monorails.csv",
                    ["monorail", "players", "pips_1", "pips_2", "pips_3", "source"])
    table = np.zeros(len(rows), dtype=[("players", "i8"), ("pips", "i8", 3)])
    names = unique_names(rows, "monorail")
    low, high = params["min_players"], params["max_players"]
    for i, row in enumerate(rows):
        table[i]["players"] = row.integer("players", low=low, high=high)
        table[i]["pips"] = [row.integer(f"pips_{k}", low=1, high=6) for k in (1, 2, 3)]
    for n in range(low, high + 1):
        count = int((table["players"] == n).sum())
        if count != n + 1:
            raise PlaytestError(f"{folder / 'monorails.csv'}: {count} monorails for {n} "
                                f"players; a game uses players + 1 = {n + 1}")
    return table, names


def _staff(folder: Path) -> np.ndarray:
    rows = read_csv(folder, "staff.csv", ["staff", "pips", "money", "phase", "power", "source"])
    table = np.zeros(len(STAFF), dtype=[("pips", "i8"), ("money", "i8")])
    seen = set()
    for row in rows:
        name = row.choice("staff", STAFF)
        if name in seen:
            raise row.fail("staff", f"'{name}' appears twice")
        seen.add(name)
        row.choice("phase", STAFF_PHASES)
        k = STAFF.index(name)
        table[k]["pips"] = row.integer("pips", low=1, high=6)
        table[k]["money"] = row.integer("money", low=0)
    if seen != set(STAFF):
        missing = ", ".join(s for s in STAFF if s not in seen)
        raise PlaytestError(f"{folder / 'staff.csv'}: missing staff {missing}")
    return table


def _park(folder: Path, params: dict) -> np.ndarray:
    path = folder / "park.csv"
    rows = read_csv(folder, "park.csv", ["q", "r", "role", "source"])
    table = np.zeros(len(rows), dtype=[("q", "i8"), ("r", "i8"), ("role", "i8")])
    cells = {}
    for i, row in enumerate(rows):
        q, r = row.integer("q", low=-20, high=20), row.integer("r", low=-20, high=20)
        if (q, r) in cells:
            raise row.fail("q", f"the hex ({q}, {r}) appears twice")
        role = PARK_ROLES.index(row.choice("role", PARK_ROLES))
        cells[(q, r)] = role
        table[i] = (q, r, role)
    if len(rows) != S.HEXES:
        raise PlaytestError(f"{path}: {len(rows)} hexes; the engine's park has {S.HEXES}")
    roles = list(cells.values())
    want = {"entrance": 1, "basic": params["components"]["basic_attractions"]}
    for name, count in want.items():
        got = roles.count(PARK_ROLES.index(name))
        if got != count:
            raise PlaytestError(f"{path}: {got} hexes of role '{name}', the start piece has "
                                f"{count}")
    if PARK_ROLES.index("setup") not in roles:
        raise PlaytestError(f"{path}: no 'setup' hex for the starting attraction")
    if len(_reach(cells, set(cells))) != len(cells):
        raise PlaytestError(f"{path}: the park shape is not connected")
    start = {c for c, role in cells.items() if role <= PARK_ROLES.index("basic")}
    if len(_reach(cells, start)) != len(start):
        raise PlaytestError(f"{path}: the start piece (entrance and basic hexes) is not "
                            "connected")
    for cell, role in cells.items():
        if role == PARK_ROLES.index("setup") and not any(_step(cell, s) in start
                                                         for s in HEX_STEPS):
            raise PlaytestError(f"{path}: setup hex {cell} is not next to the start piece")
    return table


def _step(cell: tuple[int, int], step: tuple[int, int]) -> tuple[int, int]:
    return cell[0] + step[0], cell[1] + step[1]


def _reach(cells: dict, within: set) -> set:
    """The hexes of ``within`` connected to its first hex through hexes of ``within``."""
    first = next(iter(within))
    seen, todo = {first}, [first]
    while todo:
        cell = todo.pop()
        for s in HEX_STEPS:
            nxt = _step(cell, s)
            if nxt in within and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _attractions(folder: Path, params: dict, colours: list[str]) -> tuple[np.ndarray, list]:
    path = folder / "attractions.csv"
    rows = read_csv(folder, "attractions.csv",
                    ["attraction", "stack", "cost", "income", "requirement",
                     "requirement_colour", "stars", "amenity", "colour", "icons",
                     "upgrade_costs", "source"])
    table = np.zeros(len(rows), dtype=[(f, "i8") for f in ATTRACTION_FIELDS])
    names = unique_names(rows, "attraction")
    tile_colours = [*colours, GREY]
    for i, row in enumerate(rows):
        t = table[i]
        stack = row.choice("stack", STACKS)
        t["stack"] = STACKS.index(stack)
        t["cost"] = row.integer("cost", low=0)
        t["income"] = row.integer("income", low=0)
        t["stars"] = row.integer("stars", low=0)
        t["icons"] = row.integer("icons", low=1, high=2)
        kind = row.choice("requirement", REQUIREMENTS)
        t["requirement"] = REQUIREMENTS.index(kind)
        colour = row.choice("requirement_colour", ["any", *colours])
        if colour == "any" and kind in COLOUR_REQUIRED:
            raise row.fail("requirement_colour", f"'{kind}' names a dice colour")
        if colour != "any" and kind not in COLOUR_OPTIONAL + COLOUR_REQUIRED:
            raise row.fail("requirement_colour", f"'{kind}' takes dice of any colour")
        t["requirement_colour"] = ANY if colour == "any" else colours.index(colour)
        amenity = row.choice("amenity", ["none", *AMENITIES])
        if (amenity == "none") != (stack == "entrance"):
            raise row.fail("amenity", "every attraction but the entrance has one of "
                                      f"{', '.join(AMENITIES)}")
        t["amenity"] = ANY if amenity == "none" else AMENITIES.index(amenity)
        t["colour"] = tile_colours.index(row.choice("colour", tile_colours))
        # The seed: only grey attractions and some of stack B have income (and the entrance).
        if t["income"] > 0 and stack not in ("entrance", "B") and tile_colours[t["colour"]] != GREY:
            raise row.fail("income", "only grey attractions, B tiles and the entrance have income")
        costs = row.wholes("upgrade_costs", low=0)
        if len(costs) > MAX_UPGRADE_SPACES:
            raise row.fail("upgrade_costs", f"at most {MAX_UPGRADE_SPACES} upgrade spaces")
        t["upgrade_1"], t["upgrade_2"] = ANY, ANY
        for k, cost in enumerate(costs):
            t[f"upgrade_{k + 1}"] = cost
    counts = {"entrance": 1, "basic": params["components"]["basic_attractions"],
              "A": params["components"]["attractions_a"],
              "B": params["components"]["attractions_b"]}
    for stack, want in counts.items():
        got = int((table["stack"] == STACKS.index(stack)).sum())
        if got != want:
            raise PlaytestError(f"{path}: {got} attractions in '{stack}', rules.toml "
                                f"says {want}")
        if stack in ("A", "B") and got > S.STACK_CAP:
            raise PlaytestError(f"{path}: {got} attractions in '{stack}', the engine holds "
                                f"at most {S.STACK_CAP} per stack")
    if len(table) > S.MAX_ATTRACTIONS:
        raise PlaytestError(f"{path}: {len(table)} attractions, the engine holds at most "
                            f"{S.MAX_ATTRACTIONS}")
    return table, names


def _objectives(folder: Path, params: dict) -> tuple[np.ndarray, list[str], list[str]]:
    path = folder / "objectives.csv"
    rows = read_csv(folder, "objectives.csv", ["objective", "colour", "measure", "best",
                                               "source"])
    table = np.zeros(len(rows), dtype=[("colour", "i8"), ("measure", "i8"), ("best", "i8")])
    names = unique_names(rows, "objective")
    card_colours: list[str] = []
    for i, row in enumerate(rows):
        colour = row.field("colour")
        if not colour:
            raise row.fail("colour", "empty")
        if colour not in card_colours:
            card_colours.append(colour)
        table[i] = (card_colours.index(colour),
                    MEASURES.index(row.choice("measure", MEASURES)),
                    BEST.index(row.choice("best", BEST)))
    want = params["components"]["objectives"]
    if len(rows) != want:
        raise PlaytestError(f"{path}: {len(rows)} objectives, rules.toml says {want}")
    if len(rows) > S.MAX_OBJECTIVES:
        raise PlaytestError(f"{path}: {len(rows)} objectives, the engine holds at most "
                            f"{S.MAX_OBJECTIVES}")
    most_dealt = max(len(r) for r in params["objective_rounds"].values())
    if len(card_colours) < most_dealt:
        raise PlaytestError(f"{path}: {len(card_colours)} colour(s); a game deals "
                            f"{most_dealt} objectives of different colours")
    return table, names, card_colours


def _power_colour(row, colours: list[str], power: str, coloured: bool) -> int:
    """The colour a power names (index), or ANY; refused when the power and colour disagree."""
    colour = row.choice("colour", ["any", *colours])
    if coloured and colour == "any":
        raise row.fail("colour", f"'{power}' names a dice colour")
    if not coloured and colour != "any":
        raise row.fail("colour", f"'{power}' has no colour")
    return ANY if colour == "any" else colours.index(colour)


def _administrators(folder: Path, params: dict, colours: list[str]) -> tuple[np.ndarray, list]:
    rows = read_csv(folder, "administrators.csv",
                    ["administrator", "phase", "power", "colour", "amount", "thresholds",
                     "stars", "source"])
    table = np.zeros(len(rows), dtype=[("power", "i8"), ("colour", "i8"), ("amount", "i8"),
                                       ("thresholds", "i8", 3), ("stars", "i8", 3)])
    names = unique_names(rows, "administrator")
    powers = list(ADMIN_POWERS)
    for i, row in enumerate(rows):
        row.choice("phase", PHASES)
        power = row.choice("power", powers)
        coloured, amount, steps = ADMIN_POWERS[power]
        t = table[i]
        t["power"] = powers.index(power)
        t["colour"] = _power_colour(row, colours, power, coloured)
        t["amount"] = row.integer("amount", low=1 if amount else 0, high=10 if amount else 0)
        for field in ("thresholds", "stars"):
            values = row.wholes(field, low=0)
            if not steps:
                if values:
                    raise row.fail(field, f"'{power}' has no {field}")
                continue
            if len(values) != 3:
                raise row.fail(field, "three whole numbers, as '3;4;5'")
            if values != sorted(set(values)):
                raise row.fail(field, "must rise")
            t[field] = values
    check_count(folder / "administrators.csv", len(rows), params, "administrators")
    need = 2 * params["max_players"]  # two dealt to each player
    if not need <= len(rows) <= S.MAX_ADMINS:
        raise PlaytestError(f"{folder / 'administrators.csv'}: {len(rows)} administrators; "
                            f"the engine needs {need} to {S.MAX_ADMINS}")
    return table, names


def _skills(folder: Path, params: dict, colours: list[str]) -> tuple[np.ndarray, list]:
    rows = read_csv(folder, "skills.csv", ["skill", "power", "colour", "amount", "limit",
                                           "source"])
    table = np.zeros(len(rows), dtype=[("power", "i8"), ("colour", "i8"), ("amount", "i8"),
                                       ("limit", "i8")])
    names = unique_names(rows, "skill")
    powers = list(SKILL_POWERS)
    for i, row in enumerate(rows):
        power = row.choice("power", powers)
        coloured, amount, limit = SKILL_POWERS[power]
        table[i] = (powers.index(power), _power_colour(row, colours, power, coloured),
                    row.integer("amount", low=1 if amount else 0, high=10 if amount else 0),
                    row.integer("limit", low=1 if limit else 0, high=100 if limit else 0))
    check_count(folder / "skills.csv", len(rows), params, "skills")
    need = 2 * params["max_players"] + 1  # two dealt to each, one kept, a full display
    if not need <= len(rows) <= S.MAX_SKILLS:
        raise PlaytestError(f"{folder / 'skills.csv'}: {len(rows)} skills; the engine needs "
                            f"{need} to {S.MAX_SKILLS}")
    return table, names


