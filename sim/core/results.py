"""What every engine's results table shares: the schema's fixed columns (DESIGN.md) and the
categorical columns, built the same way for every game."""

from __future__ import annotations

import numpy as np
import pyarrow as pa


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
        "n_players": pa.array(np.full(n * n_players, n_players, dtype=np.int8)),
        "seat": pa.array(np.tile(np.arange(n_players, dtype=np.int8), n)),
        "bot": categorical(np.array([names.index(b) for b in bots])[bot_slot], names),
        "bot_slot": pa.array(bot_slot.astype(np.int8)),
        "score": pa.array(score.astype(np.int16)),
        "rank": pa.array(rank.astype(np.int8)),
        "win": pa.array(win.ravel()),
    }
