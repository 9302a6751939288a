"""The game loop: one game of Dice Theme Park (any mode), optionally logged: the loop of the
step interface (step.py), ``advance`` to the next decision, the seat's bot decides, ``apply``.

Every decision draws two numbers from the game's stream whatever the bot, so the stream
does not depend on which bots play (common random numbers stay aligned). The batch kernel
and ``replay`` call the same function, so a replayed game is the simulated game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import uniform
from sim.dice_theme_park import features as F
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import powers as W
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import step
from sim.dice_theme_park.invariants import MOVES_FULL_CODE, PATHS_CODE
from strategies.selectors import RANDOM, select, uniform_pick

LOG_COLS = 8  # round, decision kind, seat, move, what followed, three details (step._details)
CTX = 1 + S.DICE  # count, then dice slots


@njit(cache=True)  # called from Python: an entry point
def bot_of(seat, game_index, n_players, rotate):
    """Bot slot playing ``seat``: with rotation, game i moves every bot i seats on."""
    return (seat + game_index) % n_players if rotate else seat


# scratch[8]: a checked game; a decision's fast path differs; a decision's moves filled
# their buffer
CHECKING, PATHS_DIFFER, MOVES_FULL = 0, 1, 2


@njit(cache=True)  # called from Python: an entry point
def new_scratch():
    """A game lane's work buffers: moves, features, scores, the features' buffers, the legal
    moves' workspace, the decision's context, a log row's details, the features of the
    whole-copy path and flags (CHECKING, PATHS_DIFFER, MOVES_FULL). The
    buffers of MAX_MOVES rows are left uninitialised (np.empty): a decision writes the rows
    it reads, and rows never written are never touched, so the memory of a lane is what its
    largest decision uses, not MAX_MOVES rows."""
    return (np.empty(M.MAX_MOVES, dtype=np.int64), np.empty((M.MAX_MOVES, F.N_FEATURES)),
            np.empty(M.MAX_MOVES), F.new_buffers(), M.new_workspace(),
            np.zeros(CTX, dtype=np.int64), np.zeros(3, dtype=np.int64),
            np.empty((M.MAX_MOVES, F.N_FEATURES)), np.zeros(3, dtype=np.int64))


@njit(inline="always")  # called from a dozen places: docs/developers.md
def decide(st, tab, p, kind, ctx, bots, bot, rng, scratch) -> int:
    """Seat p's move at a ``kind`` decision, chosen by bot slot ``bot``; -1 when there is no
    legal move."""
    selectors, params, weights = bots
    moves, feats, scores, buffers, ws, _, _, exact, flags = scratch
    u1 = uniform(rng)
    u2 = uniform(rng)
    if selectors[bot] == RANDOM and kind == M.K_OPERATE:
        move = M.random_operate_move(st, tab, p, moves, ws, u1)
        if flags[CHECKING]:  # a checked game: the pick equals the one from the whole list
            n = M.legal_moves(st, tab, p, kind, ctx, moves, ws)
            if move != moves[uniform_pick(n, u1)]:
                flags[PATHS_DIFFER] = 1
            if n >= M.MAX_MOVES:
                flags[MOVES_FULL] = 1
        return move
    n = M.legal_moves(st, tab, p, kind, ctx, moves, ws)
    if flags[CHECKING] and n >= M.MAX_MOVES:  # never, by moves.max_moves: checked
        flags[MOVES_FULL] = 1
    if n == 0:
        return -1
    if selectors[bot] == RANDOM:
        return moves[uniform_pick(n, u1)]
    if n > 1:
        F.move_features(st, tab, p, kind, moves, n, feats, buffers)
        if flags[CHECKING]:  # a checked game: the footprint path equals the whole copy
            F.move_features(st, tab, p, kind, moves, n, exact, buffers, True)
            if F.differ(feats, exact, n):
                flags[PATHS_DIFFER] = 1
    return moves[select(selectors, params, weights, bot, kind, feats, scores, n, u1, u2)]


@njit(cache=True, _nrt=False)  # called from Python (replay): an entry point
def play_game(tab, n_players, mode, seed, game_index, bots, rotate, st, rng, scratch, log,
              check):
    """Play game ``game_index`` of ``seed`` to the end in ``st``: advance, decide, apply.
    Returns (log length, first invariant violation code or 0; checked after every operate
    step and phase when ``check``).

    Compiled without numba's reference counting (``_nrt=False``), which also applies to
    everything it calls: none of it allocates (buffers come in ``scratch``), and the counting
    (an atomic increment and decrement per array of every call) cost a third of the time."""
    scratch[8][CHECKING] = 1 if check else 0
    scratch[8][PATHS_DIFFER] = 0
    scratch[8][MOVES_FULL] = 0
    step.begin(st, tab, n_players, mode, seed, game_index, rng, check)
    ctx, details = scratch[5], scratch[6]
    nlog = 0
    first = bot_of(0, game_index, n_players, rotate)
    while True:
        kind, p, nlog = step.advance(st, tab, rng, ctx, details, log, nlog)
        if kind == step.OVER:
            break
        bot = (first + p) % n_players
        # the hot kinds with a constant kind: decide, inlined, is compiled for each alone
        if kind == M.K_OPERATE:
            move = decide(st, tab, p, M.K_OPERATE, ctx, bots, bot, rng, scratch)
        elif kind == M.K_MOVE:
            move = decide(st, tab, p, M.K_MOVE, ctx, bots, bot, rng, scratch)
        else:
            move = decide(st, tab, p, kind, ctx, bots, bot, rng, scratch)
        nlog = step.apply(st, tab, move, ctx, details, log, nlog)
    bad = st[S.F_BAD]
    if check and bad == 0 and scratch[8][PATHS_DIFFER]:
        bad = PATHS_CODE
    if check and bad == 0 and scratch[8][MOVES_FULL]:
        bad = MOVES_FULL_CODE
    return nlog, bad


@njit(cache=True)  # called from Python (replay): an entry point
def final_standing(st, tab, dice_after, wins, ranks) -> None:
    """Win shares and ranks (rules.standing) with the dice in the park counted after the 1s
    leave (a ticket agent played in the last round saves one, the discard-saving
    administrator one of its colour)."""
    n = st[S.N_PLAYERS]
    ones = np.empty(S.DICE, dtype=np.int64)
    for p in range(n):
        k = R.ones(st, p, ones)
        saves = R.played(st, p, R.TICKET_AGENT)
        if R.has_admin(st, tab, p, R.A_SAVE) and W.leaving_of_colour(
                st, p, W.admin_colour(st, tab, p), ones) > 0:
            saves += 1  # the ticket agents save the others first (rules.md 29)
        dice_after[p] = R.objective_measure(st, tab, p, 1) - k + min(k, saves)
    R.standing(st, dice_after, wins, ranks)


def new_buffers(log_rows: int = 0):
    """Per-game buffers for Python callers: state, rng, scratch and a log of ``log_rows``."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), new_scratch(),
            np.zeros((log_rows, LOG_COLS), dtype=np.int64))
