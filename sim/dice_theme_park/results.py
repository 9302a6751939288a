"""Kernel result arrays -> the results table (one row per game and seat, DESIGN.md schema)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim.core.results import SCORE, card_column, categorical, int_column, schema_columns
from sim.dice_theme_park import batch as B
from sim.dice_theme_park.data import MODES, STACKS, DiceThemeParkData

SOURCES = B.SOURCES
NONE = "none"  # the administrator and skill columns of an intro game


def _pairs(names: list[str], lo: np.ndarray, hi: np.ndarray) -> pa.DictionaryArray:
    """Two dealt cards (rows ``lo`` < ``hi`` of ``names``) as one category "a + b", every
    pair in table order so that chunks agree; "none" where nothing was dealt."""
    k = len(names)
    labels = [f"{names[a]} + {names[b]}" for a in range(k) for b in range(a + 1, k)]
    # pair (a, b) of k items, a < b, is number a * k - a * (a + 1) / 2 + b - a - 1
    code = lo * k - lo * (lo + 1) // 2 + hi - lo - 1
    return categorical(np.where(lo < 0, len(labels), code), [*labels, NONE])


def to_table(data: DiceThemeParkData, bots: list[str], mode: int, seed: int, start: int,
             seat_out: np.ndarray, win_out: np.ndarray, game_out: np.ndarray) -> pa.Table:
    _, n, n_players = seat_out.shape
    f = {name: seat_out[i].ravel() for i, name in enumerate(B.SEAT_FIELDS)}
    g = {name: np.repeat(game_out[i], n_players) for i, name in enumerate(B.GAME_FIELDS)}
    tiles = data.attraction_names
    # every pair of stack A tiles, in table order: the categories do not depend on the chunk
    stack_a = [k for k, s in enumerate(data.attractions["stack"]) if STACKS[s] == "A"]
    pairs = [(a, b) for i, a in enumerate(stack_a) for b in stack_a[i + 1 :]]
    pair_names = [f"{tiles[a]} + {tiles[b]}" for a, b in pairs]
    pair_code = {pair: k for k, pair in enumerate(pairs)}
    objectives = [*data.objective_names, "none"]
    ops = f["operations"].reshape(n, n_players).sum(axis=1)
    columns = schema_columns(bots, seed, start, n, n_players, f["bot_slot"], f["score"],
                             f["rank"], win_out)
    for source in SOURCES:
        columns[f"score_{source}"] = int_column(f[f"score_{source}"], SCORE,
                                          f"score_{source}")
    columns |= {
        "mode": categorical(np.full(n * n_players, mode), list(MODES)),
        "operations": int_column(np.repeat(ops, n_players), np.int16, "operations"),
        "seat_operations": int_column(f["operations"], np.int16, "seat_operations"),
        "money": int_column(f["money"], np.int16, "money"),
        "dice_in_park": int_column(f["dice_in_park"], np.int16, "dice_in_park"),
        "start_position": categorical(f["start_position"],
                                      [f"{k + 1}" for k in range(n_players)]),
        "start_pair": categorical(np.array([pair_code[(int(a), int(b))]
                                            for a, b in zip(f["dealt_1"], f["dealt_2"])]),
                                  pair_names),
        "start_tile": categorical(f["start_tile"], tiles),
        "attractions": int_column(f["attractions"], np.int8, "attractions"),
        "upgrades": int_column(f["upgrades"], np.int8, "upgrades"),
        "mascots": int_column(f["mascots"], np.int8, "mascots"),
    }
    columns |= {
        "admin_pair": _pairs(data.administrator_names, f["admin_dealt_1"], f["admin_dealt_2"]),
        "admin": card_column(data.administrator_names, f["admin"]),
        "skill_pair": _pairs(data.skill_names, f["skill_dealt_1"], f["skill_dealt_2"]),
        "skill": card_column(data.skill_names, f["skill"]),
        "skills_taken": pa.array(f["skills_taken"].astype(np.int64)),
    }
    for k in range(B.OBJECTIVES):
        codes = g[f"objective_{k + 1}"]
        columns[f"objective_{k + 1}"] = categorical(
            np.where(codes < 0, len(objectives) - 1, codes), objectives)
    columns["substitutes"] = int_column(g["substitutes"], np.int16, "substitutes")
    return pa.table(columns)
