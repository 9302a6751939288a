"""Kernel result arrays -> the results table (one row per game and seat, DESIGN.md schema)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim.core.results import categorical, schema_columns
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
        columns[f"score_{source}"] = pa.array(f[f"score_{source}"].astype(np.int16))
    columns |= {
        "turns": pa.array(turns.astype(np.int16)),
        "rounds": pa.array(((turns + n_players - 1) // n_players).astype(np.int16)),
        "end_trigger": categorical(g["trigger"], list(S.TRIGGER_NAMES)),
        "trigger_turn": pa.array(g["trigger_turn"].astype(np.int16)),
        "board": categorical(f["board"], data.colours),
        "start_side": categorical(f["start_card"] - data.n_deck, data.cards[data.n_deck :]),
        "objectives_done": pa.array(f["objectives_done"].astype(np.int8)),
        "objectives_done_set": pa.array(f["objectives_done_set"]),
        "objectives_open": pa.array(f["objectives_open"].astype(np.int8)),
        "objectives_taken": pa.array(f["objectives_taken"].astype(np.int8)),
        "tiles_taken": pa.array(f["tiles_taken"].astype(np.int8)),
        "crowd_n": pa.array(f["crowd_n"].astype(np.int8)),
        "crowd_set": pa.array(f["crowd_set"].astype(np.int32)),
    }
    for k in range(data.tables.params[S.P_CROWD_TILES]):
        columns[f"crowd_{k + 1}"] = categorical(g[f"crowd_{k + 1}"], data.crowd)
    columns["tiles_left"] = pa.array(g["tiles_left"].astype(np.int16))
    return pa.table(columns)
