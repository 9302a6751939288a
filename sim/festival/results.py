"""Kernel result arrays -> the results table (one row per game and seat, DESIGN.md schema)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim.core.results import SCORE, categorical, int_column, schema_columns
from sim.festival import batch as B
from sim.festival import state as S
from sim.festival.data import FestivalData

SOURCES = ("objectives", "crowd", "colour", "design")



def to_table(data: FestivalData, bots: list[str], seed: int, start: int, seat_out: np.ndarray,
             win_out: np.ndarray, game_out: np.ndarray) -> pa.Table:
    _, n, n_players = seat_out.shape
    f = {name: seat_out[i].ravel() for i, name in enumerate(B.SEAT_FIELDS)}
    g = {name: np.repeat(game_out[i], n_players) for i, name in enumerate(B.GAME_FIELDS)}
    turns = g["turns"]
    columns = schema_columns(bots, seed, start, n, n_players, f["bot_slot"], f["score"],
                             f["rank"], win_out)
    for source in SOURCES:
        columns[f"score_{source}"] = int_column(f[f"score_{source}"], SCORE,
                                          f"score_{source}")
    columns |= {
        "turns": int_column(turns, np.int16, "turns"),
        "rounds": int_column((turns + n_players - 1) // n_players, np.int16, "rounds"),
        "end_trigger": categorical(g["trigger"], list(S.TRIGGER_NAMES)),
        "trigger_turn": int_column(g["trigger_turn"], np.int16, "trigger_turn"),
        "board": categorical(f["board"], data.colours),
        "start_side": categorical(f["start_card"] - data.n_deck, data.cards[data.n_deck :]),
        "objectives_done": int_column(f["objectives_done"], np.int8, "objectives_done"),
        "objectives_done_set": pa.array(f["objectives_done_set"]),
        "objectives_open": int_column(f["objectives_open"], np.int8, "objectives_open"),
        "objectives_taken": int_column(f["objectives_taken"], np.int8, "objectives_taken"),
        "tiles_taken": int_column(f["tiles_taken"], np.int8, "tiles_taken"),
        "crowd_n": int_column(f["crowd_n"], np.int8, "crowd_n"),
        "crowd_set": int_column(f["crowd_set"], np.int32, "crowd_set"),
    }
    for k in range(data.tables.params[S.P_CROWD_TILES]):
        columns[f"crowd_{k + 1}"] = categorical(g[f"crowd_{k + 1}"], data.crowd)
    columns["tiles_left"] = int_column(g["tiles_left"], np.int16, "tiles_left")
    return pa.table(columns)
