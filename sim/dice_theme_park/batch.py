"""The batch kernel: games [start, start + n) of one seed, in parallel, into result arrays."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.lanes import run_lanes
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park.play import LOG_COLS, bot_of, final_standing, new_scratch, play_game
from strategies.selectors import search_switch

# Per (game, seat) integer results, field-major: seat_out[field, g, p].
# score_<source> in SOURCES order (state.SOURCES without "other", which nothing scores);
# the administrator and skill fields are -1 and 0 in the intro game.
SOURCES = S.SOURCES[:-1]
SEAT_FIELDS = ("score", *(f"score_{source}" for source in SOURCES), "rank", "bot_slot",
               "money", "dice_in_park", "start_position", "dealt_1", "dealt_2", "start_tile",
               "attractions", "upgrades", "mascots", "operations", "admin_dealt_1",
               "admin_dealt_2", "admin", "skill_dealt_1", "skill_dealt_2", "skill",
               "skills_taken")
(SO_SCORE, SO_PARTS, *_) = range(len(SEAT_FIELDS))
(SO_RANK, SO_BOT, SO_MONEY, SO_DICE, SO_POSITION, SO_DEALT, _, SO_KEPT, SO_ATTRACTIONS,
 SO_UPGRADES, SO_MASCOTS, SO_OPS, SO_ADMIN_DEALT, _, SO_ADMIN, SO_SKILL_DEALT, _, SO_SKILL,
 SO_TAKEN) = range(SO_PARTS + len(SOURCES), len(SEAT_FIELDS))
# Per game integer results, game_out[field, g]: objective_k is the card under the k-th
# objective round (-1 where the mode has fewer)
OBJECTIVES = 3  # the most objective rounds of a mode (the full game)
GAME_FIELDS = (*(f"objective_{k + 1}" for k in range(OBJECTIVES)), "substitutes", "check")
GO_OBJECTIVE, GO_SUBST, GO_CHECK = 0, OBJECTIVES, OBJECTIVES + 1
NS = len(SEAT_FIELDS)
NG = len(GAME_FIELDS)


@njit
def record(st, tab, g, seat_out, win_out, game_out, rotate, game_index, bad, dice, wins,
           ranks):
    """Write game g's results into the output arrays."""
    n = st[S.N_PLAYERS]
    final_standing(st, tab, dice, wins, ranks)
    for p in range(n):
        b = S.seat(p)
        seat_out[SO_SCORE, g, p] = st[b + S.STARS]
        for k in range(len(SOURCES)):
            seat_out[SO_PARTS + k, g, p] = st[b + S.SCORE + k]
        seat_out[SO_RANK, g, p] = ranks[p]
        seat_out[SO_BOT, g, p] = bot_of(p, game_index, n, rotate)
        seat_out[SO_MONEY, g, p] = st[b + S.MONEY]
        seat_out[SO_DICE, g, p] = dice[p]
        for i in range(n):
            if st[S.SETUP_ORDER + i] == p:
                seat_out[SO_POSITION, g, p] = i
        dealt = (st[b + S.DEALT], st[b + S.DEALT + 1])
        seat_out[SO_DEALT, g, p] = min(dealt)
        seat_out[SO_DEALT + 1, g, p] = max(dealt)
        seat_out[SO_KEPT, g, p] = st[b + S.KEPT]
        seat_out[SO_ATTRACTIONS, g, p] = R.objective_measure(st, tab, p, 3)
        seat_out[SO_UPGRADES, g, p] = R.objective_measure(st, tab, p, 5)
        seat_out[SO_MASCOTS, g, p] = st[b + S.MASCOTS]
        seat_out[SO_OPS, g, p] = st[b + S.OPS_TOTAL]
        for field, at in ((SO_ADMIN_DEALT, S.ADMIN_DEALT), (SO_SKILL_DEALT, S.SKILL_DEALT)):
            seat_out[field, g, p] = min(st[b + at], st[b + at + 1])
            seat_out[field + 1, g, p] = max(st[b + at], st[b + at + 1])
        seat_out[SO_ADMIN, g, p] = st[b + S.ADMIN]
        seat_out[SO_SKILL, g, p] = st[b + S.SKILL_KEPT]
        seat_out[SO_TAKEN, g, p] = st[b + S.TAKEN]
        win_out[g, p] = wins[p]
    k = 0
    for r in range(S.MAX_ROUNDS):
        if st[S.OBJECTIVE + r] >= 0 and k < OBJECTIVES:
            game_out[GO_OBJECTIVE + k, g] = st[S.OBJECTIVE + r]
            k += 1
    for j in range(k, OBJECTIVES):
        game_out[GO_OBJECTIVE + j, g] = -1
    game_out[GO_SUBST, g] = st[S.SUBST] + st[S.SUBST + 1] + st[S.SUBST + 2]
    game_out[GO_CHECK, g] = bad


@njit(nogil=True, cache=True)
def play_batch(tab, n_players, mode, seed, start, n, bots, rotate, check, searching, seat_out,
               win_out, game_out, first_lane, last_lane, lanes):
    """Play the games of lanes first_lane..last_lane - 1 of games start..start+n-1
    (sim/core/lanes.py), buffers reused in a lane."""
    for lane in range(first_lane, last_lane):
        st = np.zeros(S.SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        scratch = new_scratch()
        log = np.zeros((0, LOG_COLS), dtype=np.int64)
        dice = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
        wins = np.zeros(S.MAX_PLAYERS)
        ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
        for g in range(lane, n, lanes):
            game_index = start + g
            _, bad = play_game(tab, n_players, mode, seed, game_index, bots, rotate, st, rng,
                               scratch, log, check, searching)
            record(st, tab, g, seat_out, win_out, game_out, rotate, game_index, bad, dice,
                   wins, ranks)


def run_chunk(tab, n_players: int, mode: int, seed: int, start: int, n: int, bots,
              rotate: bool, check: bool = False):
    """Python entry: (seat_out [field, game, seat], win_out [game, seat], game_out)."""
    seat_out = np.zeros((NS, n, n_players), dtype=np.int64)
    win_out = np.zeros((n, n_players))
    game_out = np.zeros((NG, n), dtype=np.int64)
    run_lanes(play_batch, n, (tab, np.int64(n_players), np.int64(mode), np.int64(seed),
                              np.int64(start), np.int64(n), tuple(bots), rotate, check,
                              search_switch(bots), seat_out, win_out, game_out))
    return seat_out, win_out, game_out
