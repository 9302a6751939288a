"""Kernel result arrays -> the results table (one row per game and seat, DESIGN.md schema)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pyarrow as pa

from sim.core.results import SCORE, card_column, categorical, int_column, schema_columns
from sim.magnificent import batch as B
from sim.magnificent.data import BOARDS, MagnificentData
from sim.magnificent.state import SOURCES

SIDES = ("A", "B")


def offers(names: list[str], most: int) -> tuple[list[str], dict[int, int]]:
    """Every offer of 1 to ``most`` trainer tiles as a label "a + b + ..." (table order, so
    chunks agree), and the label's index by bit set."""
    labels, index = [], {}
    for k in range(1, most + 1):
        for combo in combinations(range(len(names)), k):
            index[sum(1 << i for i in combo)] = len(labels)
            labels.append(" + ".join(names[i] for i in combo))
    return labels, index


def to_table(data: MagnificentData, bots: list[str], side: int, seed: int, start: int,
             seat_out: np.ndarray, win_out: np.ndarray, game_out: np.ndarray) -> pa.Table:
    _, n, n_players = seat_out.shape
    f = {name: seat_out[i].ravel() for i, name in enumerate(B.SEAT_FIELDS)}
    columns = schema_columns(bots, seed, start, n, n_players, f["bot_slot"], f["score"],
                             f["rank"], win_out)
    for source in SOURCES:
        columns[f"score_{source}"] = int_column(f[f"score_{source}"], SCORE,
                                          f"score_{source}")
    labels, index = offers(data.trainer_names, data.params["trainer_offer_at_setup"])
    columns |= {
        "side": categorical(np.full(n * n_players, side), list(SIDES)),
        "board": categorical(f["board"], list(BOARDS)),
        "start_poster": categorical(f["start_poster"], data.poster_names),
        "trainer_offer": categorical(np.array([index[int(m)] for m in f["trainer_offered"]]),
                                     labels),
        "start_trainer": card_column(data.trainer_names, f["start_trainer"]),
        "masters_drafted": pa.array(f["masters_drafted"]),
        "trainers_drafted": pa.array(f["trainers_drafted"]),
    }
    for r in range(3):
        columns[f"scored_{r + 1}"] = card_column(data.master_card_names, f[f"scored_{r + 1}"])
    for name in ("coins", "squares", "sections", "shows", "tents", "builds", "travels",
                 "performs", "penalty_coins"):
        columns[name] = int_column(f[name], np.int16, name)
    return pa.table(columns)
