"""Dice Theme Park (Alley Cat Games): the engine and its adapter for the batch runner.

Every mode for 2 to 4 players: the full game (5 rounds with administrators and skills, the
default), the short game (4 rounds with them) and the intro game (4 rounds without).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from sim.core.checks import first_violation, lineup, logged
from sim.core.declaration import Element, GameElement, HeldSet, ResultsDeclaration
from sim.core.errors import PlaytestError
from sim.dice_theme_park import batch, bots, data, tables
from sim.dice_theme_park import state as S
from sim.dice_theme_park.results import SOURCES, to_table
from strategies.selectors import search_switch

NAME = "dice_theme_park"
BENCH_BOTS = ("random", "greedy")
PLAYERS = (2, S.MAX_PLAYERS)
DEFAULT_BOTS = ("greedy", "builder", "operator", "random")
MODES = data.MODES  # the game's modes: --mode (recorded in run.json's sets and a column)
DEFAULT_MODE = "full"  # the game people play (the seed recommends it after a first game)
# memory one game of a chunk takes at its peak (result arrays, table, parquet writer)
BYTES_PER_GAME = 2048
COMPILE_SECONDS = {"plain": 45, "search": 57}  # first compile by line-up kind, 2 cores


@dataclass(frozen=True)
class Prepared:
    """Everything a worker needs to play chunks, shipped whole (no file access)."""

    data: data.DiceThemeParkData
    tab: np.ndarray
    mode: int  # data.MODES index
    n_players: int
    bot_names: tuple[str, ...]
    bots: tuple[np.ndarray, np.ndarray, np.ndarray]
    rotate: bool


def prepare(n_players: int, bot_names: list[str], data_dir: str | None = None,
            rotate: bool = True, sets: dict | None = None) -> tuple[Prepared, dict]:
    """Validate a request; returns the worker spec and metadata for run.json. ``sets`` may
    hold ``mode`` (full by default) beside rule overrides."""
    sets = dict(sets or {})
    mode = sets.pop("mode", DEFAULT_MODE)
    if mode not in MODES:
        raise PlaytestError(f"--mode {mode!r} is unknown (Dice Theme Park: {', '.join(MODES)})")
    d = data.load(data_dir, sets or None)
    lineup("Dice Theme Park", d.params, n_players, bot_names)
    arrays = bots.bot_arrays(bot_names)
    meta = {"data_dir": str(d.folder), "data_hash": d.hash, "bots": list(bot_names),
            "mode": mode, "objectives_in_play": len(d.params["objective_rounds"][mode]),
            "skills": list(d.skill_names)}
    return Prepared(d, tables.pack(d), MODES.index(mode), n_players, tuple(bot_names), arrays,
                    rotate), meta


def declare(info: dict) -> ResultsDeclaration:
    """Dice Theme Park's results table (results.py) for the analysis: the administrator and
    skill columns where the run's mode has them."""
    intro = info.get("mode", DEFAULT_MODE) == "intro"
    elements = (Element("start_position", "dealt", "Position in the setup turn order"),
                Element("start_pair", "dealt", "Starting tiles dealt", sep=" + "),
                Element("start_tile", "kept", "Starting tile kept", context="start_pair"))
    held = ()
    if not intro:
        elements += (Element("admin_pair", "dealt", "Administrators dealt", sep=" + "),
                     Element("admin", "kept", "Administrator kept", context="admin_pair"),
                     Element("skill_pair", "dealt", "Skills dealt", sep=" + "),
                     Element("skill", "kept", "Skill kept", context="skill_pair"))
        held = (HeldSet("skills_taken", "Skills taken when hiring", "skill",
                        tuple(info.get("skills", ()))),)
    game = {"intro": "The intro game: 4 rounds, no administrators or skills.",
            "short": "The short game: 4 rounds with administrators and skills.",
            "full": "The full game: 5 rounds with administrators and skills."}
    return ResultsDeclaration(
        title="Dice Theme Park",
        sources=SOURCES if not intro else tuple(s for s in SOURCES
                                                if s not in ("skills", "administrators")),
        elements=elements,
        game_elements=(GameElement(tuple(f"objective_{k + 1}" for k in range(
            min(batch.OBJECTIVES, info.get("objectives_in_play", 3)))), "Objectives in play"),),
        held_sets=held,
        length=("operations",),
        notes=(game[info.get("mode", DEFAULT_MODE)],
               "A win shared by k players counts 1/k to each (tie-breaks first: most dice in "
               "the park after the 1s leave, then most money).",
               "Reconstructed card data (staff pips and money, monorails, most attractions, "
               "objectives, three administrators) is listed in seeds/dice_theme_park/rules.md; "
               "results about single cards speak of that reconstruction."),
    )


def play_chunk(p: Prepared, seed: int, start: int, n: int, check: bool = False) -> pa.Table:
    """Games start..start+n-1 as a results table; ``check`` tests the invariants."""
    seat_out, win_out, game_out = batch.run_chunk(p.tab, p.n_players, p.mode, seed, start, n,
                                                  p.bots, p.rotate, check)
    if check:
        from sim.dice_theme_park.invariants import CODES

        first_violation(CODES, game_out[batch.GO_CHECK], start)
    return to_table(p.data, list(p.bot_names), p.mode, seed, start, seat_out, win_out,
                    game_out)


def replay(seed: int, game_index: int, n_players: int, bot_names: list[str],
           rotate: bool = True, data_dir: str | None = None, sets: dict | None = None
           ) -> tuple[list[str], list[int]]:
    """Play one game with its log: (lines to print, final stars per seat)."""
    from sim.dice_theme_park.log import format_final, format_log
    from sim.dice_theme_park.play import bot_of, final_standing, new_buffers, play_game

    prepared, _ = prepare(n_players, bot_names, data_dir, rotate, sets)
    if game_index < 0:
        raise PlaytestError(f"--game must be zero or positive, got {game_index}")
    st, rng, scratch, log = new_buffers(log_rows=20_000)
    nlog, _ = play_game(prepared.tab, n_players, prepared.mode, seed, game_index, prepared.bots,
                        rotate, st, rng, scratch, log, False, search_switch(prepared.bots))
    dice = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    wins = np.zeros(S.MAX_PLAYERS)
    ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    final_standing(st, prepared.tab, dice, wins, ranks)
    seat_bots = [bot_names[bot_of(p, game_index, n_players, rotate)] for p in range(n_players)]
    head = [f"Dice Theme Park ({MODES[prepared.mode]} game), seed {seed}, game {game_index}, "
            f"{n_players} players"]
    lines = head + format_log(log, logged(log, nlog), prepared.data, st, seat_bots)
    lines += format_final(st, prepared.data, seat_bots, wins, dice)
    return lines, [int(st[S.seat(p) + S.STARS]) for p in range(n_players)]
