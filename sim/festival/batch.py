"""The batch kernel: games [start, start + n) of one seed, in parallel, into result arrays."""

import numpy as np
from numba import njit

from sim.core.lanes import run_lanes
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival.play import bot_of, new_scratch, play_game
from strategies.selectors import search_switch

# Per (game, seat) integer results, field-major: seat_out[field, g, p], so that each column
# of the results table is a contiguous slice.
SEAT_FIELDS = (
    "score", "score_objectives", "score_crowd", "score_colour", "score_design", "rank",
    "bot_slot", "board", "start_card", "objectives_done", "objectives_done_set",
    "objectives_open", "crowd_n", "crowd_set", "tiles_taken", "objectives_taken",
)
(SO_SCORE, SO_PARTS, _, _, _, SO_RANK, SO_BOT, SO_BOARD, SO_START, SO_DONE_N, SO_DONE_SET,
 SO_OPEN, SO_CROWD_N, SO_CROWD_SET, SO_TILES, SO_TAKEN) = range(len(SEAT_FIELDS))
# Per game integer results, game_out[field, g].
GAME_FIELDS = ("turns", "trigger", "trigger_turn", "crowd_1", "crowd_2", "crowd_3", "crowd_4",
               "tiles_left", "check")
GO_TURNS, GO_TRIGGER, GO_TRIGGER_TURN, GO_CROWD, _, _, _, GO_LEFT, GO_CHECK = range(
    len(GAME_FIELDS))
NS = len(SEAT_FIELDS)
NG = len(GAME_FIELDS)


@njit
def record(st, tab, g, seat_out, win_out, game_out, scores, parts, wins, ranks, rotate,
           game_index, bad):
    """Write game g's results (scores, tie-breaks, setup, end) into the output arrays."""
    n = st[S.N_PLAYERS]
    R.final_scores(st, tab, scores, parts, wins, ranks)
    for p in range(n):
        b = S.SEAT + p * S.SEAT_SIZE
        seat_out[SO_SCORE, g, p] = scores[p]
        for k in range(4):
            seat_out[SO_PARTS + k, g, p] = parts[p, k]
        seat_out[SO_RANK, g, p] = ranks[p]
        seat_out[SO_BOT, g, p] = bot_of(p, game_index, n, rotate)
        seat_out[SO_BOARD, g, p] = st[b + S.COLOUR]
        seat_out[SO_START, g, p] = st[b + S.START_CARD]
        seat_out[SO_DONE_N, g, p] = st[b + S.V_DONE_N]
        seat_out[SO_DONE_SET, g, p] = st[b + S.DONE_SET]
        seat_out[SO_OPEN, g, p] = st[b + S.HELD_N]
        seat_out[SO_CROWD_N, g, p] = st[b + S.CROWD_N]
        seat_out[SO_CROWD_SET, g, p] = st[b + S.CROWD_SET]
        seat_out[SO_TILES, g, p] = st[b + S.TILES_TAKEN]
        seat_out[SO_TAKEN, g, p] = st[b + S.OBJECTIVES_TAKEN]
        win_out[g, p] = wins[p]
    game_out[GO_TURNS, g] = st[S.TURNS]
    game_out[GO_TRIGGER, g] = st[S.TRIGGER]
    game_out[GO_TRIGGER_TURN, g] = st[S.TRIGGER_TURN]
    for k in range(S.CROWD_TILES):
        game_out[GO_CROWD + k, g] = st[S.CROWD_COND + k]
    left = 0
    for s in range(n):
        left += st[S.STACK_N + s]
    game_out[GO_LEFT, g] = left
    game_out[GO_CHECK, g] = bad


@njit(nogil=True, cache=True)
def play_batch(tab, n_players, seed, start, n, bots, rotate, check, searching, seat_out, win_out,
               game_out, first_lane, last_lane, lanes):
    """Play the games of lanes first_lane..last_lane - 1 of games start..start+n-1
    (sim/core/lanes.py), buffers reused in a lane."""
    for lane in range(first_lane, last_lane):
        st = np.zeros(S.STATE_SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        scratch = new_scratch()
        log = np.zeros((0, R.LOG_COLS), dtype=np.int64)
        scores = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
        parts = np.zeros((S.MAX_PLAYERS, 4), dtype=np.int64)
        wins = np.zeros(S.MAX_PLAYERS)
        ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
        for g in range(lane, n, lanes):
            game_index = start + g
            _, bad = play_game(tab, n_players, seed, game_index, bots, rotate, st, rng, scratch,
                               log, check, searching)
            record(st, tab, g, seat_out, win_out, game_out, scores, parts, wins, ranks, rotate,
                   game_index, bad)


def run_chunk(tab, n_players: int, seed: int, start: int, n: int, bots, rotate: bool,
              check: bool = False):
    """Python entry: allocate outputs, call the kernel, return (seat_out, win_out, game_out)
    shaped [field, game, seat], [game, seat] and [field, game]."""
    seat_out = np.zeros((NS, n, n_players), dtype=np.int64)
    win_out = np.zeros((n, n_players))
    game_out = np.zeros((NG, n), dtype=np.int64)
    run_lanes(play_batch, n, (tab, np.int64(n_players), np.int64(seed), np.int64(start),
                              np.int64(n), tuple(bots), rotate, check, search_switch(bots),
                              seat_out, win_out, game_out))
    return seat_out, win_out, game_out
