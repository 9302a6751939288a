"""The Magnificent (Aporta Games): the engine and its adapter for the batch runner.

Every rule of the seed for 2 to 4 players on side A (every board starts alike, the default)
and side B (each board its own start): --mode A|B, also spelt --side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from sim.core.checks import first_violation, lineup, logged
from sim.core.declaration import Element, HeldSet, ResultsDeclaration
from sim.core.errors import PlaytestError
from sim.magnificent import batch, bots, data, tables
from sim.magnificent import state as S
from sim.magnificent.results import SIDES, to_table
from strategies.selectors import search_switch

NAME = "magnificent"
BENCH_BOTS = ("random", "greedy")
PLAYERS = (2, S.MAX_PLAYERS)
DEFAULT_BOTS = ("greedy", "builder", "showman", "random")
MODES = SIDES  # the player boards' side: --mode (or --side), recorded like an override
MODE_WORD = "side"  # what the command line and messages call a mode
DEFAULT_MODE = "A"  # the first game's side (research R1)
BYTES_PER_GAME = 1024  # a chunk's result arrays, table and parquet writer per game, at peak
COMPILE_SECONDS = {"plain": 22, "search": 30}  # first compile by line-up kind, 2 cores


@dataclass(frozen=True)
class Prepared:
    """Everything a worker needs to play chunks, shipped whole (no file access)."""

    data: data.MagnificentData
    tab: np.ndarray
    side: int  # SIDES index
    n_players: int
    bot_names: tuple[str, ...]
    bots: tuple[np.ndarray, np.ndarray, np.ndarray]
    rotate: bool


def prepare(n_players: int, bot_names: list[str], data_dir: str | None = None,
            rotate: bool = True, sets: dict | None = None) -> tuple[Prepared, dict]:
    """Validate a request; returns the worker spec and metadata for run.json. ``sets`` may
    hold ``mode`` (the side, A by default) beside rule overrides."""
    sets = dict(sets or {})
    side = sets.pop("mode", DEFAULT_MODE)
    if side not in SIDES:
        raise PlaytestError(f"--side {side!r} is unknown (The Magnificent: A or B)")
    d = data.load(data_dir, sets or None)
    lineup("The Magnificent", d.params, n_players, bot_names)
    arrays = bots.bot_arrays(bot_names)
    meta = {"data_dir": str(d.folder), "data_hash": d.hash, "bots": list(bot_names),
            "mode": side, "master_cards": list(d.master_card_names),
            "trainer_tiles": list(d.trainer_names)}
    return Prepared(d, tables.pack(d), SIDES.index(side), n_players, tuple(bot_names), arrays,
                    rotate), meta


def declare(info: dict) -> ResultsDeclaration:
    """The Magnificent's results table (results.py) for the analysis."""
    side = info.get("mode", DEFAULT_MODE)
    return ResultsDeclaration(
        title="The Magnificent",
        sources=S.SOURCES,
        elements=(Element("board", "dealt", "Player board (and its starting master cards)"),
                  Element("start_poster", "dealt", "Starting poster"),
                  Element("trainer_offer", "dealt", "Trainer tiles offered at the pick",
                          sep=" + "),
                  Element("start_trainer", "kept", "Starting trainer tile kept",
                          context="trainer_offer"),
                  Element("scored_1", "outcome", "Master card scored in round 1"),
                  Element("scored_2", "outcome", "Master card scored in round 2"),
                  Element("scored_3", "outcome", "Master card scored in round 3")),
        held_sets=(HeldSet("masters_drafted", "Master cards drafted", "card",
                           tuple(info.get("master_cards", ()))),
                   HeldSet("trainers_drafted", "Trainer tiles drafted", "tile",
                           tuple(info.get("trainer_tiles", ())))),
        notes=(f"Side {side} of the player boards"
               + (": every board starts alike." if side == "A"
                  else ": each board its own start (reconstructed)."),
               "A win shared by k players counts 1/k to each (tie-break: most coins left).",
               "Reconstructed data (camp, tiles, tracks, performance track, every card's "
               "numbers, side B) is listed in seeds/magnificent/rules.md; results about "
               "single cards speak of that reconstruction."),
        score_delta=2.0,  # scores run to 110-120: two points is what a designer notices
    )


def play_chunk(p: Prepared, seed: int, start: int, n: int, check: bool = False) -> pa.Table:
    """Games start..start+n-1 as a results table; ``check`` tests the invariants."""
    seat_out, win_out, game_out = batch.run_chunk(p.tab, p.n_players, p.side, seed, start, n,
                                                  p.bots, p.rotate, check)
    if check:
        from sim.magnificent.invariants import CODES

        first_violation(CODES, game_out[batch.GO_CHECK], start)
    return to_table(p.data, list(p.bot_names), p.side, seed, start, seat_out, win_out, game_out)


def replay(seed: int, game_index: int, n_players: int, bot_names: list[str],
           rotate: bool = True, data_dir: str | None = None, sets: dict | None = None
           ) -> tuple[list[str], list[int]]:
    """Play one game with its log: (lines to print, final points per seat)."""
    from sim.magnificent.log import format_final, format_log
    from sim.magnificent.play import bot_of, new_buffers, play_game
    from sim.magnificent.rules import standing

    prepared, _ = prepare(n_players, bot_names, data_dir, rotate, sets)
    if game_index < 0:
        raise PlaytestError(f"--game must be zero or positive, got {game_index}")
    st, rng, scratch, log = new_buffers(log_rows=20_000)
    nlog, _ = play_game(prepared.tab, n_players, prepared.side, seed, game_index, prepared.bots,
                        rotate, st, rng, scratch, log, False, search_switch(prepared.bots))
    wins = np.zeros(S.MAX_PLAYERS)
    ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    standing(st, wins, ranks)
    seat_bots = [bot_names[bot_of(p, game_index, n_players, rotate)] for p in range(n_players)]
    head = [f"The Magnificent (side {SIDES[prepared.side]}), seed {seed}, game {game_index}, "
            f"{n_players} players"]
    lines = head + format_log(log, logged(log, nlog), prepared.data, prepared.tab, st,
                              seat_bots)
    lines += format_final(st, prepared.data, seat_bots, wins)
    return lines, [int(st[S.seat(p) + S.SCORE]) for p in range(n_players)]
