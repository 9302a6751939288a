"""The game loop: one game of Dice Theme Park (any mode), optionally logged: the loop of the
step interface (step.py), ``advance`` to the next decision, the seat's bot decides, ``apply``.

Every decision draws two numbers from the game's stream whatever the bot, so the stream
does not depend on which bots play (common random numbers stay aligned). The batch kernel
and ``replay`` call the same function, so a replayed game is the simulated game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.dice_theme_park import features as F
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import policy, search, step
from sim.dice_theme_park import state as S
from sim.dice_theme_park.invariants import MOVES_FULL_CODE, PATHS_CODE
from sim.dice_theme_park.policy import CHECKING, MOVES_FULL, PATHS_DIFFER
from strategies.selectors import SEARCH

LOG_COLS = 8  # round, decision kind, seat, move, what followed, three details (step._details)


@njit(cache=True)  # called from Python: an entry point
def bot_of(seat, game_index, n_players, rotate):
    """Bot slot playing ``seat``: with rotation, game i moves every bot i seats on."""
    return (seat + game_index) % n_players if rotate else seat


@njit(cache=True)  # called from Python: an entry point
def new_scratch():
    """A game lane's work buffers: moves, features, scores, the features' buffers, the legal
    moves' workspace, the decision's context, a log row's details, the features of the
    whole-copy path, flags (policy.CHECKING, PATHS_DIFFER, MOVES_FULL) and a search bot's
    (search.new_buffers). The
    buffers of MAX_MOVES rows are left uninitialised (np.empty): a decision writes the rows
    it reads, and rows never written are never touched, so the memory of a lane is what its
    largest decision uses, not MAX_MOVES rows."""
    return (np.empty(M.MAX_MOVES, dtype=np.int64), np.empty((M.MAX_MOVES, F.N_FEATURES)),
            np.empty(M.MAX_MOVES), F.new_buffers(), M.new_workspace(),
            np.zeros(S.CTX, dtype=np.int64), np.zeros(3, dtype=np.int64),
            np.empty((M.MAX_MOVES, F.N_FEATURES)), np.zeros(3, dtype=np.int64),
            search.new_buffers())


@njit(inline="always")  # called from a dozen places: docs/developers.md
def decide(st, tab, p, kind, ctx, bots, bot, rng, scratch, searching=True) -> int:
    """Seat p's move at a ``kind`` decision, chosen by bot slot ``bot``: a search bot's
    search, or the other bots' choice (policy.py); -1 when there is no legal move.
    ``searching`` None: no seat searches (selectors.search_switch), the search is not compiled."""
    if searching is not None:
        if bots[0][bot] == SEARCH:
            return search.search_move(st, tab, p, kind, ctx, bots, bot, rng, scratch)
    return policy.choose(st, tab, p, kind, ctx, bots, bot, rng, scratch)


@njit(cache=True, _nrt=False)  # called from Python (replay): an entry point
def play_game(tab, n_players, mode, seed, game_index, bots, rotate, st, rng, scratch, log,
              check, searching):
    """Play game ``game_index`` of ``seed`` to the end in ``st``: advance, decide, apply.
    Returns (log length, first invariant violation code or 0; checked after every operate
    step and phase when ``check``). ``searching``: selectors.search_switch(bots); with None the
    kernel is compiled without the search (half the compile time).

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
        # the search's branch is pruned when no seat searches; the operate decision with a
        # constant kind: the choice, inlined, is compiled for it alone (the random pick)
        if searching is not None and bots[0][bot] == SEARCH:
            move = search.search_move(st, tab, p, kind, ctx, bots, bot, rng, scratch)
            if log.shape[0]:  # replay: the moves it weighed
                nlog = search.log_weighed(scratch[9], st, p, kind, log, nlog, scratch[6])
        elif kind == M.K_OPERATE:
            move = policy.choose(st, tab, p, M.K_OPERATE, ctx, bots, bot, rng, scratch)
        else:
            move = policy.choose(st, tab, p, kind, ctx, bots, bot, rng, scratch)
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
    administrator one of its colour): step.standing with a buffer of its own."""
    step.standing(st, tab, dice_after, wins, ranks, np.empty(S.DICE, dtype=np.int64))


def new_buffers(log_rows: int = 0):
    """Per-game buffers for Python callers: state, rng, scratch and a log of ``log_rows``."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), new_scratch(),
            np.zeros((log_rows, LOG_COLS), dtype=np.int64))
