"""The game loop: one full game of Festival, optionally logged.

A game is the loop of the step interface (step.py): ``advance`` to the next decision, the
seat's bot decides from the legal moves and their features, ``apply`` plays the move. The
batch kernel, ``replay`` and a game driven from Python (sim.core.game) run the same steps,
so a replayed game is the simulated game.
"""

import numpy as np
from numba import njit

from sim.festival import features as F
from sim.festival import policy, search, step
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival.invariants import check_state
from strategies.selectors import RANDOM, SEARCH


@njit(cache=True)  # called from Python: an entry point
def bot_of(seat, game_index, n_players, rotate):
    """Bot slot playing ``seat``: with rotation, game i moves every bot i seats on."""
    return (seat + game_index) % n_players if rotate else seat


@njit(inline="always")  # a dispatch: not a call that copies the scratch tuple
def decide(st, tab, decision, p, bots, bot, rng, scratch, searching=True):
    """The move bot ``bot`` plays for seat p at ``decision`` (step.START or step.TURN): a
    search bot's search, or the other bots' choice (policy.py). ``searching`` None: no seat
    searches (selectors.search_switch), the search is not compiled."""
    if searching is not None:
        if bots[0][bot] == SEARCH:
            return search.search_move(st, tab, decision, p, bots, bot, rng, scratch)
    return policy.choose(st, tab, decision, p, bots, bot, rng, scratch)


@njit(cache=True, _nrt=False)
def play_game(tab, n_players, seed, game_index, bots, rotate, st, rng, scratch, log, check,
              searching):
    """Play game ``game_index`` of ``seed`` to the end in ``st``: advance, decide, apply.

    Returns (log length, first invariant violation code or 0; checked after every turn
    when ``check``). ``searching``: selectors.search_switch(bots); with None the kernel is
    compiled without the search.

    Compiled without numba's reference counting (``_nrt=False``), which also applies to
    everything it calls: none of it allocates, and the counting (an atomic increment and
    decrement per array argument of every call) otherwise costs more than the game itself.
    """
    nlog = step.begin(st, tab, n_players, seed, game_index, rng, log)
    bad = 0
    first = bot_of(0, game_index, n_players, rotate)  # seat p's bot follows without a modulo
    while True:
        decision, p, nlog = step.advance(st, tab, log, nlog)
        if check and bad == 0 and decision != step.START:
            bad = check_state(st, tab)
        if decision == step.OVER:
            break
        bot = first + p if first + p < n_players else first + p - n_players
        # a random bot's turn called directly: each array argument of a compiled call costs
        # a dozen words on the stack, more than a random turn.
        if decision == step.TURN and bots[0][bot] == RANDOM:
            move = policy.random_turn(st, tab, p, scratch[0], rng)
        else:
            move = decide(st, tab, decision, p, bots, bot, rng, scratch, searching)
            if searching is not None:
                if log.shape[0] and bots[0][bot] == SEARCH:  # replay: the moves it weighed
                    nlog = search.log_weighed(scratch[5], p, decision, log, nlog)
        nlog = step.apply(st, tab, move, log, nlog)
    return nlog, bad


@njit(cache=True)  # called from Python: an entry point
def new_scratch():
    """A bot's work buffers: moves, their features, their scores, the seat's standing
    before the move, the feature passes' integers (features.py) and a search bot's
    (search.new_buffers)."""
    return (
        np.zeros(R.MAX_MOVES, dtype=np.int64),
        np.zeros((R.MAX_MOVES, F.N_FEATURES)),
        np.zeros(R.MAX_MOVES),
        np.zeros(F.BEFORE_SIZE),
        np.zeros(F.WORK_SIZE, dtype=np.int64),
        search.new_buffers(),
    )


def new_buffers(log_rows: int = 0):
    """Per-game buffers for Python callers: state, rng, scratch and a log of ``log_rows``."""
    return (
        np.zeros(S.STATE_SIZE, dtype=np.int64),
        np.zeros(4, dtype=np.uint64),
        new_scratch(),
        np.zeros((log_rows, R.LOG_COLS), dtype=np.int64),
    )
