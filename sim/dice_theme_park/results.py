"""Kernel result arrays -> the results table (one row per game and seat, DESIGN.md schema)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim.core.results import categorical, schema_columns
from sim.dice_theme_park import batch as B
from sim.dice_theme_park.data import MODES, STACKS, DiceThemeParkData

SOURCES = ("operations", "special_effects", "objectives", "money", "other")


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
        columns[f"score_{source}"] = pa.array(f[f"score_{source}"].astype(np.int16))
    columns |= {
        "mode": categorical(np.full(n * n_players, mode), list(MODES)),
        "operations": pa.array(np.repeat(ops, n_players).astype(np.int16)),
        "seat_operations": pa.array(f["operations"].astype(np.int16)),
        "money": pa.array(f["money"].astype(np.int16)),
        "dice_in_park": pa.array(f["dice_in_park"].astype(np.int16)),
        "start_position": categorical(f["start_position"],
                                      [f"{k + 1}" for k in range(n_players)]),
        "start_pair": categorical(np.array([pair_code[(int(a), int(b))]
                                            for a, b in zip(f["dealt_1"], f["dealt_2"])]),
                                  pair_names),
        "start_tile": categorical(f["start_tile"], tiles),
        "attractions": pa.array(f["attractions"].astype(np.int8)),
        "upgrades": pa.array(f["upgrades"].astype(np.int8)),
        "mascots": pa.array(f["mascots"].astype(np.int8)),
    }
    for k in range(B.OBJECTIVES):
        codes = g[f"objective_{k + 1}"]
        columns[f"objective_{k + 1}"] = categorical(
            np.where(codes < 0, len(objectives) - 1, codes), objectives)
    columns["substitutes"] = pa.array(g["substitutes"].astype(np.int16))
    return pa.table(columns)
