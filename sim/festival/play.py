"""The game loop: one full game of Festival, optionally logged.

At each decision the loop writes the legal moves, asks for their features when the seat's
bot weighs features, and lets the bot's selector pick. The batch kernel and ``replay`` call
the same function, so a replayed game is the simulated game.
"""

import numpy as np
from numba import njit

from sim.core.rng import seed_game, uniform
from sim.festival import features as F
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival import tables as TB
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
    moves, feats, scores, before, work = scratch
    if selectors[bot] == RANDOM:
        return random_turn(st, tab, p, moves, rng)
    n = R.legal_moves(st, tab, p, moves)
    u1 = uniform(rng)
    u2 = uniform(rng)
    if n > 1:
        F.turn_features(st, tab, p, moves, n, feats, before, work)
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
    feats = scratch[1]
    b = S.SEAT + p * S.SEAT_SIZE
    sides = TB.START_CARD + st[b + S.COLOUR] * 2
    u1 = uniform(rng)
    u2 = uniform(rng)
    if selectors[bot] != RANDOM:
        F.start_features(st, tab, p, tab[sides], tab[sides + 1], feats)
    pick = select(selectors, params, weights, bot, F.KIND_START, feats, scratch[2], 2, u1, u2)
    return tab[sides + pick]


@njit(cache=True, _nrt=False)
def play_game(tab, n_players, seed, game_index, bots, rotate, st, rng, scratch, log, check):
    """Play game ``game_index`` of ``seed`` to the end in ``st``.

    Returns (log length, first invariant violation code or 0; checked after every turn
    when ``check``).

    Compiled without numba's reference counting (``_nrt=False``), which also applies to
    everything it calls: none of it allocates, and the counting (an atomic increment and
    decrement per array argument of every call) otherwise costs more than the game itself.
    """
    seed_game(rng, seed, game_index)
    R.setup(st, tab, n_players, rng)
    nlog = 0
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        nlog = R.log_event(log, nlog, R.LOG_CROWD_SETUP, -1, k, st[S.CROWD_COND + k], 0, 0)
    for p in range(n_players):
        b = S.SEAT + p * S.SEAT_SIZE
        nlog = R.log_event(log, nlog, R.LOG_BOARD, p, st[b + S.COLOUR], st[b + S.DESIGN], 0, 0)
    for p in range(n_players):
        bot = bot_of(p, game_index, n_players, rotate)
        card = decide_start(st, tab, p, bots, bot, rng, scratch)
        R.choose_start_side(st, tab, p, card)
        nlog = R.log_event(log, nlog, R.LOG_START, p, card, 0, 0, 0)
    bad = 0
    first = bot_of(0, game_index, n_players, rotate)  # seat p's bot follows without a modulo
    while st[S.OVER] == 0:
        p = st[S.CURRENT]
        bot = first + p if first + p < n_players else first + p - n_players
        # decide_turn's own first step for a random bot, called directly: each array argument
        # of a compiled call costs a dozen words on the stack, more than a random turn.
        if bots[0][bot] == RANDOM:
            move = random_turn(st, tab, p, scratch[0], rng)
        else:
            move = decide_turn(st, tab, p, bots, bot, rng, scratch)
        nlog, placed = R.apply_move(st, tab, p, move, log, nlog)
        nlog = R.end_of_turn(st, tab, p, placed, log, nlog)
        nlog = R.advance(st, tab, p, log, nlog)
        if check and bad == 0:
            bad = check_state(st, tab)
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
