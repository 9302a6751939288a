"""The game loop: one full game of Festival, optionally logged.

A game is the loop of the step interface (step.py): ``advance`` to the next decision, the
seat's bot decides from the legal moves and their features, ``apply`` plays the move. The
batch kernel, ``replay`` and a game driven from Python (sim.core.game) run the same steps,
so a replayed game is the simulated game.
"""

import numpy as np
from numba import njit

from sim.core.rng import uniform
from sim.festival import features as F
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival import step
from sim.festival.invariants import check_state
from strategies.selectors import RANDOM, select, uniform_pick


@njit(cache=True)  # called from Python: an entry point
def bot_of(seat, game_index, n_players, rotate):
    """Bot slot playing ``seat``: with rotation, game i moves every bot i seats on."""
    return (seat + game_index) % n_players if rotate else seat


@njit
def decide_turn(st, tab, p, bots, bot, rng, scratch):
    """Seat p's move this turn, chosen by bot ``bot`` from public information only.

    ``bots`` is (selectors, params, weights) as built by bots.bot_arrays; ``scratch`` the
    buffers of new_scratch.
    """
    selectors, params, weights = bots
    moves, feats, scores = scratch[0], scratch[1], scratch[2]
    if selectors[bot] == RANDOM:
        return random_turn(st, tab, p, moves, rng)
    n = step.legal(st, tab, step.TURN, p, moves)
    u1 = uniform(rng)
    u2 = uniform(rng)
    if n > 1:
        step.features(st, tab, step.TURN, p, moves, n, scratch)
    return moves[select(selectors, params, weights, bot, F.KIND_TURN, feats, scores, n, u1, u2)]


@njit
def random_turn(st, tab, p, moves, rng):
    """A random bot's move, uniform over seat p's legal moves. Like every turn decision it
    draws two numbers, so the stream of a game does not depend on which bots play it."""
    n = R.legal_moves(st, tab, p, moves)
    u1 = uniform(rng)
    uniform(rng)
    return moves[uniform_pick(n, u1)]


@njit
def decide_start(st, tab, p, bots, bot, rng, scratch):
    """Card index of the starting-objective side that seat p keeps."""
    selectors, params, weights = bots
    moves = scratch[0]
    step.legal(st, tab, step.START, p, moves)
    u1 = uniform(rng)
    u2 = uniform(rng)
    if selectors[bot] != RANDOM:
        step.features(st, tab, step.START, p, moves, 2, scratch)
    pick = select(selectors, params, weights, bot, F.KIND_START, scratch[1], scratch[2], 2, u1,
                  u2)
    return moves[pick]


@njit(inline="always")  # a dispatch: not a call that copies the scratch tuple
def decide(st, tab, decision, p, bots, bot, rng, scratch):
    """The move bot ``bot`` plays for seat p at ``decision`` (step.START or step.TURN)."""
    if decision == step.START:
        return decide_start(st, tab, p, bots, bot, rng, scratch)
    return decide_turn(st, tab, p, bots, bot, rng, scratch)


@njit(cache=True, _nrt=False)
def play_game(tab, n_players, seed, game_index, bots, rotate, st, rng, scratch, log, check):
    """Play game ``game_index`` of ``seed`` to the end in ``st``: advance, decide, apply.

    Returns (log length, first invariant violation code or 0; checked after every turn
    when ``check``).

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
            move = random_turn(st, tab, p, scratch[0], rng)
        else:
            move = decide(st, tab, decision, p, bots, bot, rng, scratch)
        nlog = step.apply(st, tab, move, log, nlog)
    return nlog, bad


@njit(cache=True)  # called from Python: an entry point
def new_scratch():
    """A bot's work buffers: moves, their features, their scores, the seat's standing
    before the move and the feature passes' integers (features.py)."""
    return (
        np.zeros(R.MAX_MOVES, dtype=np.int64),
        np.zeros((R.MAX_MOVES, F.N_FEATURES)),
        np.zeros(R.MAX_MOVES),
        np.zeros(F.BEFORE_SIZE),
        np.zeros(F.WORK_SIZE, dtype=np.int64),
    )


def new_buffers(log_rows: int = 0):
    """Per-game buffers for Python callers: state, rng, scratch and a log of ``log_rows``."""
    return (
        np.zeros(S.STATE_SIZE, dtype=np.int64),
        np.zeros(4, dtype=np.uint64),
        new_scratch(),
        np.zeros((log_rows, R.LOG_COLS), dtype=np.int64),
    )
