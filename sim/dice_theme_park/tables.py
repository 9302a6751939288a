"""The packed rule tables: every Dice Theme Park table in one flat int64 array, ``tab``.

As Festival's: kernels take one array (a tuple of arrays is copied on each access inside
compiled code), capacities are layout, values are data arriving as an argument, so an edited
card file or a ``--set`` never recompiles.
"""

from __future__ import annotations

import numpy as np

from sim.core.layout import layout
from sim.dice_theme_park import data as D
from sim.dice_theme_park import state as S

MAX_ATTRACTIONS = S.MAX_ATTRACTIONS
MAX_MONORAILS = S.MAX_MONORAILS
MAX_OBJECTIVES = S.MAX_OBJECTIVES
N_MODES = len(D.MODES)

# rules.toml's scalars, packed as they are (each is read by the engine: a test changes
# every key and checks that some game changes)
RULE_PARAMS = ("start_money", "operating_cubes", "mascot_price", "map_price", "maps_at_start",
               "max_maps_bought", "max_upgrades_installed", "upgrades_of_each_kind",
               "gift_shop_money", "special_effect_stars", "money_per_star_at_end")
PARAM_NAMES = (*RULE_PARAMS, "bonus_set_any_pips", "bonus_draw_die_at", "bonus_draw_die_pips",
               "bonus_free_build", "attractions", "objectives", "monorails", "entrance_hex",
               "min_players", "max_players", "dice_per_colour", "administrators", "skills",
               "maps_in_supply", "mascots_per_player")
P = {name: k for k, name in enumerate(PARAM_NAMES)}

SHAPES = {
    "params": (32,),
    "rounds": (N_MODES,),
    "modules": (N_MODES,),  # 1: administrators and skills in play (all but the intro game)
    "objective_round": (N_MODES, S.MAX_ROUNDS),  # 1 when round r has an objective
    "stack_for_round": (N_MODES, S.MAX_ROUNDS),  # 0 stack A, 1 stack B
    "in_bag": (S.MAX_PLAYERS + 1,),  # dice of each colour in the bag, by player count
    "objective_stars": (S.MAX_PLAYERS + 1, S.MAX_PLAYERS),  # by player count and place
    "mono_players": (MAX_MONORAILS,),
    "mono_pips": (MAX_MONORAILS, S.SPACES),
    "staff_pips": (S.STAFF,),
    "staff_money": (S.STAFF,),
    "hex_role": (S.HEXES,),
    "hex_neighbours": (S.HEXES, 6),  # -1 where the neighbour is outside the park
    "att_stack": (MAX_ATTRACTIONS,),
    "att_cost": (MAX_ATTRACTIONS,),
    "att_income": (MAX_ATTRACTIONS,),
    "att_requirement": (MAX_ATTRACTIONS,),
    "att_requirement_colour": (MAX_ATTRACTIONS,),
    "att_stars": (MAX_ATTRACTIONS,),
    "att_amenity": (MAX_ATTRACTIONS,),
    "att_colour": (MAX_ATTRACTIONS,),
    "att_icons": (MAX_ATTRACTIONS,),
    "att_upgrade_cost": (MAX_ATTRACTIONS, 2),  # -1: no space
    "obj_colour": (MAX_OBJECTIVES,),
    "obj_measure": (MAX_OBJECTIVES,),
    "obj_best": (MAX_OBJECTIVES,),
    "hex_distance": (S.HEXES, S.HEXES),  # steps between two hexes of a park (the leap)
    # bit h of [x, d]: 1 <= distance(x, h) <= d (d = 1: x's neighbours), so a park's tile
    # mask counts the hexes a die can reach in one instruction (moves.random_operate_move)
    "hex_within": (S.HEXES, S.HEXES),
    "adm_power": (S.MAX_ADMINS,),  # data.ADMIN_POWERS index
    "adm_colour": (S.MAX_ADMINS,),
    "adm_amount": (S.MAX_ADMINS,),
    "adm_thresholds": (S.MAX_ADMINS, 3),
    "adm_stars": (S.MAX_ADMINS, 3),
    "sk_power": (S.MAX_SKILLS,),  # data.SKILL_POWERS index
    "sk_colour": (S.MAX_SKILLS,),
    "sk_amount": (S.MAX_SKILLS,),
    "sk_limit": (S.MAX_SKILLS,),
}

OFFSETS, SIZE = layout(SHAPES)

PARAMS = OFFSETS["params"]
ROUNDS = OFFSETS["rounds"]
MODULES = OFFSETS["modules"]
OBJECTIVE_ROUND = OFFSETS["objective_round"]
STACK_FOR_ROUND = OFFSETS["stack_for_round"]
IN_BAG = OFFSETS["in_bag"]
OBJECTIVE_STARS = OFFSETS["objective_stars"]
MONO_PLAYERS = OFFSETS["mono_players"]
MONO_PIPS = OFFSETS["mono_pips"]
STAFF_PIPS = OFFSETS["staff_pips"]
STAFF_MONEY = OFFSETS["staff_money"]
HEX_ROLE = OFFSETS["hex_role"]
HEX_NEIGHBOURS = OFFSETS["hex_neighbours"]
ATT_STACK = OFFSETS["att_stack"]
ATT_COST = OFFSETS["att_cost"]
ATT_INCOME = OFFSETS["att_income"]
ATT_REQUIREMENT = OFFSETS["att_requirement"]
ATT_REQUIREMENT_COLOUR = OFFSETS["att_requirement_colour"]
ATT_STARS = OFFSETS["att_stars"]
ATT_AMENITY = OFFSETS["att_amenity"]
ATT_COLOUR = OFFSETS["att_colour"]
ATT_ICONS = OFFSETS["att_icons"]
ATT_UPGRADE_COST = OFFSETS["att_upgrade_cost"]
OBJ_COLOUR = OFFSETS["obj_colour"]
OBJ_MEASURE = OFFSETS["obj_measure"]
OBJ_BEST = OFFSETS["obj_best"]
HEX_DISTANCE = OFFSETS["hex_distance"]
HEX_WITHIN = OFFSETS["hex_within"]
ADM_POWER = OFFSETS["adm_power"]
ADM_COLOUR = OFFSETS["adm_colour"]
ADM_AMOUNT = OFFSETS["adm_amount"]
ADM_THRESHOLDS = OFFSETS["adm_thresholds"]
ADM_STARS = OFFSETS["adm_stars"]
SK_POWER = OFFSETS["sk_power"]
SK_COLOUR = OFFSETS["sk_colour"]
SK_AMOUNT = OFFSETS["sk_amount"]
SK_LIMIT = OFFSETS["sk_limit"]

STACK_ENTRANCE, STACK_BASIC, STACK_A, STACK_B = range(len(D.STACKS))
ROLE_ENTRANCE, ROLE_BASIC, ROLE_SETUP, ROLE_OPEN = range(len(D.PARK_ROLES))


def pack(d: D.DiceThemeParkData) -> np.ndarray:
    """One flat array from the loaded data (each table padded to its capacity)."""
    p = d.params
    values: dict[str, np.ndarray] = {name: np.zeros(shape, dtype=np.int64)
                                     for name, shape in SHAPES.items()}
    par = values["params"]
    for name in RULE_PARAMS:
        par[P[name]] = p[name]
    bonus = p["amenity_bonus"]
    par[P["bonus_set_any_pips"]] = bonus["set_any_pips"]
    par[P["bonus_draw_die_at"]] = bonus["draw_die_at"]
    par[P["bonus_draw_die_pips"]] = bonus["draw_die_pips"]
    par[P["bonus_free_build"]] = bonus["free_build_from_discard"]
    par[P["attractions"]] = len(d.attractions)
    par[P["objectives"]] = len(d.objectives)
    par[P["monorails"]] = len(d.monorails)
    par[P["entrance_hex"]] = int(np.flatnonzero(d.park["role"] == ROLE_ENTRANCE)[0])
    par[P["min_players"]], par[P["max_players"]] = p["min_players"], p["max_players"]
    par[P["dice_per_colour"]] = p["dice"]["per_colour"]
    par[P["administrators"]] = len(d.administrators)
    par[P["skills"]] = len(d.skills)
    par[P["maps_in_supply"]] = p["components"]["maps_in_supply"]
    par[P["mascots_per_player"]] = p["components"]["mascots_per_player"]
    for m, mode in enumerate(D.MODES):
        values["rounds"][m] = p["rounds"][mode]
        values["modules"][m] = mode != "intro"  # the seed: the intro game leaves them out
        for r in p["objective_rounds"][mode]:
            values["objective_round"][m, r - 1] = 1
        for r, stack in enumerate(p["stack_for_round"][mode]):
            values["stack_for_round"][m, r] = 0 if stack == "A" else 1
    for n in range(p["min_players"], p["max_players"] + 1):
        values["in_bag"][n] = p["dice"]["in_bag"][str(n)]
        stars = p["objective_stars"][str(n)]
        values["objective_stars"][n, : len(stars)] = stars
    k = len(d.monorails)
    values["mono_players"][:k] = d.monorails["players"]
    values["mono_pips"][:k] = d.monorails["pips"]
    values["staff_pips"][:] = d.staff["pips"]
    values["staff_money"][:] = d.staff["money"]
    values["hex_role"][:] = d.park["role"]
    where = {(int(q), int(r)): i for i, (q, r) in enumerate(zip(d.park["q"], d.park["r"]))}
    for i, (q, r) in enumerate(zip(d.park["q"], d.park["r"])):
        for s, (dq, dr) in enumerate(D.HEX_STEPS):
            values["hex_neighbours"][i, s] = where.get((int(q) + dq, int(r) + dr), -1)
    q, r = d.park["q"].astype(np.int64), d.park["r"].astype(np.int64)
    dq, dr = q[:, None] - q[None, :], r[:, None] - r[None, :]
    distance = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    values["hex_distance"][:] = distance
    bit = np.int64(1) << np.arange(S.HEXES, dtype=np.int64)
    for reach in range(S.HEXES):
        values["hex_within"][:, reach] = ((distance >= 1) & (distance <= reach)) @ bit
    a = d.attractions
    k = len(a)
    for field in ("stack", "cost", "income", "requirement", "requirement_colour", "stars",
                  "amenity", "colour", "icons"):
        values[f"att_{field}"][:k] = a[field]
    values["att_upgrade_cost"][:k, 0] = a["upgrade_1"]
    values["att_upgrade_cost"][:k, 1] = a["upgrade_2"]
    k = len(d.objectives)
    values["obj_colour"][:k] = d.objectives["colour"]
    values["obj_measure"][:k] = d.objectives["measure"]
    values["obj_best"][:k] = d.objectives["best"]
    k = len(d.administrators)
    for field in ("power", "colour", "amount", "thresholds", "stars"):
        values[f"adm_{field}"][:k] = d.administrators[field]
    k = len(d.skills)
    for field in ("power", "colour", "amount", "limit"):
        values[f"sk_{field}"][:k] = d.skills[field]
    tab = np.zeros(SIZE, dtype=np.int64)
    for name, block in values.items():
        tab[OFFSETS[name] : OFFSETS[name] + block.size] = block.ravel()
    return tab
