"""The game loop: one game of The Magnificent, optionally logged: the loop of the step
interface (step.py), ``advance`` to the next decision, the seat's bot decides, ``apply``.

Every decision draws two numbers from the game's stream whatever the bot, so the stream
does not depend on which bots play (common random numbers stay aligned). The batch kernel
and ``replay`` call the same function, so a replayed game is the simulated game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.magnificent import features as F
from sim.magnificent import moves as M
from sim.magnificent import policy, search, step
from sim.magnificent import rules as R
from sim.magnificent import state as S
from strategies.selectors import SEARCH

LOG_COLS = 8  # round, decision kind, seat, move, what followed, three details (step._details)


@njit(cache=True)  # called from Python: an entry point
def bot_of(seat, game_index, n_players, rotate):
    """Bot slot playing ``seat``: with rotation, game i moves every bot i seats on."""
    return (seat + game_index) % n_players if rotate else seat


@njit(cache=True)  # called from Python: an entry point
def new_scratch():
    """A game lane's work buffers: moves, features, scores, the features' buffer, the
    context, a log row's details, setup's work buffer, the draft order and a search bot's
    (search.new_buffers)."""
    return (np.zeros(M.MAX_MOVES, dtype=np.int64), np.zeros((M.MAX_MOVES, F.N_FEATURES)),
            np.zeros(M.MAX_MOVES), F.new_buffers(), M.new_workspace(),
            np.zeros(3, dtype=np.int64), np.zeros(R.TMP, dtype=np.int64),
            np.zeros(S.MAX_PLAYERS, dtype=np.int64), search.new_buffers())


@njit(inline="always")
def decide(st, tab, p, kind, ctx, bots, bot, rng, scratch, searching=True) -> int:
    """Seat p's move at a ``kind`` decision, chosen by bot slot ``bot``: a search bot's
    search, or the other bots' choice (policy.py); -1 when there is no legal move.
    ``searching`` None: no seat searches (selectors.search_switch), the search is not
    compiled."""
    if searching is not None:
        if bots[0][bot] == SEARCH:
            return search.search_move(st, tab, p, kind, bots, bot, rng, scratch)
    return policy.choose(st, tab, p, kind, ctx, bots, bot, rng, scratch)


@njit(cache=True, _nrt=False)  # called from Python (replay): an entry point
def play_game(tab, n_players, side, seed, game_index, bots, rotate, st, rng, scratch, log,
              check, searching):
    """Play game ``game_index`` of ``seed`` to the end in ``st``: advance, decide, apply.
    Returns (log length, first invariant violation code or 0; checked after every turn and
    round step when ``check``). ``searching``: selectors.search_switch(bots); with None the
    kernel is compiled without the search.

    Compiled without numba's reference counting (``_nrt=False``), as the other games': none
    of it allocates (buffers come in ``scratch``)."""
    step.begin(st, tab, n_players, side, seed, game_index, rng, scratch[6], check)
    nlog = 0
    first = bot_of(0, game_index, n_players, rotate)
    ctx, details, order = scratch[4], scratch[5], scratch[7]
    while True:
        kind, p = step.advance(st, tab, rng, order)
        if kind == step.OVER:
            break
        ctx[0] = st[S.F_TILE]
        bot = (first + p) % n_players
        move = decide(st, tab, p, kind, ctx, bots, bot, rng, scratch, searching)
        if searching is not None:
            if log.shape[0] and bots[0][bot] == SEARCH:  # replay: the moves it weighed
                nlog = search.log_weighed(scratch[8], st, p, kind, log, nlog)
        nlog = step.apply(st, tab, move, ctx, details, log, nlog)
    return nlog, st[S.F_BAD]


def new_buffers(log_rows: int = 0):
    """Per-game buffers for Python callers: state, rng, scratch and a log of ``log_rows``."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), new_scratch(),
            np.zeros((log_rows, LOG_COLS), dtype=np.int64))
