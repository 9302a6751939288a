"""What every engine's results table shares: the schema's fixed columns (DESIGN.md) and the
categorical columns, built the same way for every game."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from sim.core.errors import PlaytestError

SCORE = np.int32  # scores and their parts: edited cards may be worth thousands of points


def int_column(values: np.ndarray, dtype, name: str) -> pa.Array:
    """``values`` as a column of ``dtype``; a value the column cannot hold is refused in one
    line that names the column, never wrapped round into a wrong number."""
    info = np.iinfo(dtype)
    if len(values):
        low, high = int(values.min()), int(values.max())
        if low < info.min or high > info.max:
            bad = low if low < info.min else high
            raise PlaytestError(f"a game gave {bad:,} for the results' column '{name}', which "
                                f"holds {info.min:,} to {info.max:,}: a card or rule value is "
                                "too large for it")
    return pa.array(values.astype(dtype))


def categorical(codes: np.ndarray, names: list[str]) -> pa.DictionaryArray:
    """A categorical column: ``codes`` index ``names`` (fixed, so chunks agree)."""
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int16)), pa.array(names))


def card_column(names: list[str], rows: np.ndarray, none: str = "none") -> pa.DictionaryArray:
    """A card column: rows of ``names``, -1 for no card (``none``)."""
    return categorical(np.where(rows < 0, len(names), rows), [*names, none])


def schema_columns(bots: list[str], seed: int, start: int, n: int, n_players: int,
                   bot_slot: np.ndarray, score: np.ndarray, rank: np.ndarray,
                   win: np.ndarray) -> dict[str, pa.Array]:
    """game_index, seed, n_players, seat, bot, bot_slot, score, rank and win of ``n`` games
    (rows game by game, seats in order; ``bot_slot``, ``score``, ``rank`` per row)."""
    names = list(dict.fromkeys(bots))  # a bot in several slots is one category
    return {
        "game_index": pa.array(np.repeat(np.arange(start, start + n, dtype=np.int64),
                                         n_players)),
        "seed": pa.array(np.full(n * n_players, seed, dtype=np.int64)),
        "n_players": int_column(np.full(n * n_players, n_players), np.int8, "n_players"),
        "seat": int_column(np.tile(np.arange(n_players), n), np.int8, "seat"),
        "bot": categorical(np.array([names.index(b) for b in bots])[bot_slot], names),
        "bot_slot": int_column(bot_slot, np.int8, "bot_slot"),
        "score": int_column(score, SCORE, "score"),
        "rank": int_column(rank, np.int8, "rank"),
        "win": pa.array(win.ravel()),
    }
