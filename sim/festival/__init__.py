"""Festival (Le Scorpion Masqué): the engine and its adapter for the batch runner."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from sim.core.checks import first_violation, lineup, logged
from sim.core.declaration import Element, GameElement, HeldSet, ResultsDeclaration
from sim.core.errors import PlaytestError
from sim.festival import batch, bots, data
from sim.festival import state as S
from sim.festival.results import SOURCES, to_table
from strategies.selectors import search_switch

NAME = "festival"
BENCH_BOTS = ("random", "greedy")  # playtest bench: the fastest and a typical bot
PLAYERS = (2, S.MAX_PLAYERS)  # the player counts the engine supports
DEFAULT_BOTS = ("greedy", "hunter", "builder", "random")  # cut to the player count
# memory one game of a chunk takes at its peak (kernel arrays, results table, parquet
# writer), measured with a chunk of 1,000,000 4-player games; chunk sizes are checked on it
BYTES_PER_GAME = 2048
COMPILE_SECONDS = {"plain": 14, "search": 20}  # first compile by line-up kind, 2 cores


@dataclass(frozen=True)
class Prepared:
    """Everything a worker needs to play chunks, shipped whole (no file access on the worker,
    so a dask cluster needs no shared disk): the loaded data and the bots' arrays."""

    data: data.FestivalData
    n_players: int
    bot_names: tuple[str, ...]
    bots: tuple[np.ndarray, np.ndarray, np.ndarray]
    rotate: bool


def prepare(n_players: int, bot_names: list[str], data_dir: str | None = None,
            rotate: bool = True, sets: dict | None = None) -> tuple[Prepared, dict]:
    """Validate a request; returns the worker spec and metadata for run.json. ``sets``
    overrides rules.toml values ({key: value}, dotted keys for tables)."""
    d = data.load(data_dir, sets)
    lineup("Festival", {"min_players": int(d.tables.params[S.P_MIN_PLAYERS]),
                        "max_players": int(d.tables.params[S.P_MAX_PLAYERS])}, n_players,
           bot_names)
    arrays = bots.bot_arrays(bot_names)  # refuses unknown bots here, not in a worker
    meta = {"data_dir": str(d.folder), "data_hash": d.hash, "bots": list(bot_names),
            "cards": d.cards, "n_deck": d.n_deck, "crowd": d.crowd,
            "crowd_tiles": int(d.tables.params[S.P_CROWD_TILES])}
    return Prepared(d, n_players, tuple(bot_names), arrays, rotate), meta


def declare(info: dict) -> ResultsDeclaration:
    """Festival's results table (results.py) for the analysis; names from run.json."""
    tiles = tuple(f"crowd_{k + 1}" for k in range(info.get("crowd_tiles", len(info["crowd"]) // 2)))
    return ResultsDeclaration(
        title="Festival",
        sources=SOURCES,
        elements=(Element("board", "dealt", "Board"),
                  Element("start_side", "kept", "Starting objective side", context="board")),
        game_elements=(GameElement(tiles, "Crowd-pleaser sides in play"),),
        held_sets=(HeldSet("crowd_set", "Crowd-pleasers claimed", "condition",
                           tuple(info["crowd"]), in_play=tiles),
                   HeldSet("objectives_done_set", "Objective cards completed", "card",
                           tuple(info["cards"][: info["n_deck"]]))),
        length=("turns", "rounds"),
        end="end_trigger",
        notes=("A win shared by k players counts 1/k to each (official tie-breaks first: most "
               "points, then most crowd-pleasers).",
               "Reconstructed card data (objective patterns and values, crowd-pleaser pairs and "
               "values, target designs) is listed in seeds/festival/rules.md; results about "
               "single cards speak of that reconstruction."),
    )


def play_chunk(p: Prepared, seed: int, start: int, n: int, check: bool = False) -> pa.Table:
    """Games start..start+n-1 as a results table. With ``check``, the state invariants are
    tested after every turn and a breach raises."""
    seat_out, win_out, game_out = batch.run_chunk(p.data.tab, p.n_players, seed, start, n,
                                                  p.bots, p.rotate, check)
    if check:
        from sim.festival.invariants import CODES

        first_violation(CODES, game_out[batch.GO_CHECK], start)
    return to_table(p.data, list(p.bot_names), seed, start, seat_out, win_out, game_out)


def replay(seed: int, game_index: int, n_players: int, bot_names: list[str],
           rotate: bool = True, data_dir: str | None = None, sets: dict | None = None
           ) -> tuple[list[str], list[int]]:
    """Play one game with its log: (lines to print, final score per seat).

    Uses the kernel that ``simulate`` uses, so the game is the one recorded for
    ``game_index``.
    """
    from sim.festival import rules as R
    from sim.festival.log import format_final, format_log
    from sim.festival.play import bot_of, new_buffers, play_game

    prepared, _ = prepare(n_players, bot_names, data_dir, rotate, sets)
    d = prepared.data
    if game_index < 0:
        raise PlaytestError(f"--game must be zero or positive, got {game_index}")
    st, rng, scratch, log = new_buffers(log_rows=4096)
    nlog, _ = play_game(d.tab, n_players, seed, game_index, prepared.bots, rotate, st, rng,
                        scratch, log, False, search_switch(prepared.bots))
    scores = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    parts = np.zeros((S.MAX_PLAYERS, 4), dtype=np.int64)
    wins = np.zeros(S.MAX_PLAYERS)
    ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    R.final_scores(st, d.tab, scores, parts, wins, ranks)
    seat_bots = [bot_names[bot_of(p, game_index, n_players, rotate)] for p in range(n_players)]
    head = [f"Festival, seed {seed}, game {game_index}, {n_players} players; seat 0 starts"]
    lines = head + format_log(log, logged(log, nlog), d, seat_bots, n_players)
    lines += format_final(st, d, seat_bots, scores, parts, wins)
    return lines, [int(x) for x in scores[:n_players]]
