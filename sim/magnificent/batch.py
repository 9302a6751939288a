"""The batch kernel: games [start, start + n) of one seed, in parallel, into result arrays."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import popcount
from sim.core.lanes import run_lanes
from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent.play import LOG_COLS, bot_of, new_scratch, play_game
from strategies.selectors import search_switch

# Per (game, seat) integer results, field-major: seat_out[field, g, p]. score_<source> in
# state.SOURCES order; the drafted fields are bit sets (bit k: master card or trainer tile
# k); scored_r is the master card scored at round r's end (-1: none).
SEAT_FIELDS = ("score", *(f"score_{source}" for source in S.SOURCES), "rank", "bot_slot",
               "board", "start_poster", "start_trainer", "trainer_offered", "masters_drafted",
               "trainers_drafted", "scored_1", "scored_2", "scored_3", "coins", "squares",
               "sections", "shows", "tents", "builds", "travels", "performs",
               "penalty_coins")
SO = {name: k for k, name in enumerate(SEAT_FIELDS)}
GAME_FIELDS = ("check",)
GO_CHECK = 0
NS = len(SEAT_FIELDS)
NG = len(GAME_FIELDS)
_SCORE, _PARTS, _RANK, _BOT = SO["score"], SO["score_masters"], SO["rank"], SO["bot_slot"]
_BOARD, _POSTER, _TRAINER, _OFFERED = (SO["board"], SO["start_poster"], SO["start_trainer"],
                                       SO["trainer_offered"])
_MASTERS, _TRAINERS, _SCORED = SO["masters_drafted"], SO["trainers_drafted"], SO["scored_1"]
_COINS, _SQUARES, _SECTIONS, _SHOWS, _TENTS = (SO["coins"], SO["squares"], SO["sections"],
                                               SO["shows"], SO["tents"])
_BUILDS, _TRAVELS, _PERFORMS, _PENALTY = (SO["builds"], SO["travels"], SO["performs"],
                                          SO["penalty_coins"])


@njit
def record(st, tab, g, seat_out, win_out, game_out, rotate, game_index, bad, wins, ranks):
    """Write game g's results into the output arrays."""
    n = st[S.N_PLAYERS]
    R.standing(st, wins, ranks)
    for p in range(n):
        b = S.seat(p)
        seat_out[_SCORE, g, p] = st[b + S.SCORE]
        for k in range(S.N_SOURCES):
            seat_out[_PARTS + k, g, p] = st[b + S.SRC + k]
        seat_out[_RANK, g, p] = ranks[p]
        seat_out[_BOT, g, p] = bot_of(p, game_index, n, rotate)
        seat_out[_BOARD, g, p] = st[b + S.BOARD]
        seat_out[_POSTER, g, p] = st[b + S.START_POSTER]
        seat_out[_TRAINER, g, p] = st[b + S.START_TRAINER]
        seat_out[_OFFERED, g, p] = st[b + S.OFFERED]
        masters = 0
        trainers = 0
        for r in range(3):
            if st[b + S.DRAFTED_MASTER + r] >= 0:
                masters |= 1 << st[b + S.DRAFTED_MASTER + r]
            if st[b + S.DRAFTED_TRAINER + r] >= 0:
                trainers |= 1 << st[b + S.DRAFTED_TRAINER + r]
            seat_out[_SCORED + r, g, p] = st[b + S.SCORED + r]
        seat_out[_MASTERS, g, p] = masters
        seat_out[_TRAINERS, g, p] = trainers
        seat_out[_COINS, g, p] = st[b + S.COINS]
        seat_out[_SQUARES, g, p] = popcount(st[b + S.CAMP])
        seat_out[_SECTIONS, g, p] = R.filled_sections(st, tab, p)
        seat_out[_SHOWS, g, p] = st[b + S.SHOWS]
        tents = 0
        for k in range(S.TENT_SPACES):
            tents += st[b + S.TENT + k] != -1
        seat_out[_TENTS, g, p] = tents
        seat_out[_BUILDS, g, p] = st[b + S.BUILDS]
        seat_out[_TRAVELS, g, p] = st[b + S.TRAVELS]
        seat_out[_PERFORMS, g, p] = st[b + S.PERFORMS]
        seat_out[_PENALTY, g, p] = st[b + S.PENALTY_COINS]
        win_out[g, p] = wins[p]
    game_out[GO_CHECK, g] = bad


@njit(nogil=True, cache=True)
def play_batch(tab, n_players, side, seed, start, n, bots, rotate, check, searching, seat_out,
               win_out, game_out, first_lane, last_lane, lanes):
    """Play the games of lanes first_lane..last_lane - 1 of games start..start+n-1
    (sim/core/lanes.py), buffers reused in a lane."""
    for lane in range(first_lane, last_lane):
        st = np.zeros(S.SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        scratch = new_scratch()
        log = np.zeros((0, LOG_COLS), dtype=np.int64)
        wins = np.zeros(S.MAX_PLAYERS)
        ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
        for g in range(lane, n, lanes):
            game_index = start + g
            _, bad = play_game(tab, n_players, side, seed, game_index, bots, rotate, st, rng,
                               scratch, log, check, searching)
            record(st, tab, g, seat_out, win_out, game_out, rotate, game_index, bad, wins,
                   ranks)


def run_chunk(tab, n_players: int, side: int, seed: int, start: int, n: int, bots,
              rotate: bool, check: bool = False):
    """Python entry: (seat_out [field, game, seat], win_out [game, seat], game_out)."""
    seat_out = np.zeros((NS, n, n_players), dtype=np.int64)
    win_out = np.zeros((n, n_players))
    game_out = np.zeros((NG, n), dtype=np.int64)
    run_lanes(play_batch, n, (tab, np.int64(n_players), np.int64(side), np.int64(seed),
                              np.int64(start), np.int64(n), tuple(bots), rotate, check,
                              search_switch(bots), seat_out, win_out, game_out))
    return seat_out, win_out, game_out
