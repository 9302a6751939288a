"""The batch kernel: games [start, start + n) of one seed, in parallel, into result arrays."""

import numpy as np
from numba import njit, prange

from sim.festival import rules as R
from sim.festival import state as S
from sim.festival.play import bot_of, new_scratch, play_game

# Per (game, seat) integer results, seat_out[g, p, field].
SEAT_FIELDS = (
    "score", "score_objectives", "score_crowd", "score_colour", "score_design", "rank",
    "bot_slot", "board", "start_card", "objectives_done", "objectives_done_set",
    "objectives_open", "crowd_n", "crowd_set", "tiles_taken", "objectives_taken",
)
# Per game integer results, game_out[g, field].
GAME_FIELDS = ("turns", "trigger", "trigger_turn", "crowd_1", "crowd_2", "crowd_3", "crowd_4",
               "tiles_left", "check")
NS = len(SEAT_FIELDS)
NG = len(GAME_FIELDS)


@njit(cache=True)
def record(st, tab, g, seat_out, win_out, game_out, scores, parts, wins, ranks, rotate,
           game_index, bad):
    n = st[S.N_PLAYERS]
    R.final_scores(st, tab, scores, parts, wins, ranks)
    for p in range(n):
        b = S.SEAT + p * S.SEAT_SIZE
        row = seat_out[g, p]
        row[0] = scores[p]
        for k in range(4):
            row[1 + k] = parts[p, k]
        row[5] = ranks[p]
        row[6] = bot_of(p, game_index, n, rotate)
        row[7] = st[b + S.COLOUR]
        row[8] = st[b + S.START_CARD]
        row[9] = st[b + S.V_DONE_N]
        row[10] = st[b + S.DONE_SET]
        row[11] = st[b + S.HELD_N]
        row[12] = st[b + S.CROWD_N]
        row[13] = st[b + S.CROWD_SET]
        row[14] = st[b + S.TILES_TAKEN]
        row[15] = st[b + S.OBJECTIVES_TAKEN]
        win_out[g, p] = wins[p]
    game_out[g, 0] = st[S.TURNS]
    game_out[g, 1] = st[S.TRIGGER]
    game_out[g, 2] = st[S.TRIGGER_TURN]
    for k in range(S.CROWD_TILES):
        game_out[g, 3 + k] = st[S.CROWD_COND + k]
    left = 0
    for s in range(n):
        left += st[S.STACK_N + s]
    game_out[g, 7] = left
    game_out[g, 8] = bad


@njit(parallel=True, cache=True)
def play_batch(tab, n_players, seed, start, n, bots, rotate, check, seat_out, win_out, game_out):
    """Play games start..start+n-1; one lane of games per thread, buffers reused in a lane."""
    lanes = min(n, 64)
    for lane in prange(lanes):
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
                               log, check)
            record(st, tab, g, seat_out, win_out, game_out, scores, parts, wins, ranks, rotate,
                   game_index, bad)


def run_chunk(tab, n_players: int, seed: int, start: int, n: int, bots, rotate: bool,
              check: bool = False):
    """Python entry: allocate outputs, call the kernel, return (seat_out, win_out, game_out)."""
    seat_out = np.zeros((n, n_players, NS), dtype=np.int64)
    win_out = np.zeros((n, n_players))
    game_out = np.zeros((n, NG), dtype=np.int64)
    play_batch(tab, np.int64(n_players), np.int64(seed), np.int64(start), np.int64(n),
               tuple(bots), rotate, check, seat_out, win_out, game_out)
    return seat_out, win_out, game_out
