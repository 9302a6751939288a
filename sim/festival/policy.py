"""The built-in bots' choice at a decision of Festival: a preset's selector over the legal
moves' features (strategies/selectors.py), from public information only. The game loop
(play.py) and a search bot's rollouts (search.py) choose with it; every decision draws two
numbers from the stream it is given, whatever the bot.
"""

from numba import njit

from sim.core.rng import uniform
from sim.festival import features as F
from sim.festival import rules as R
from sim.festival import step
from strategies.selectors import RANDOM, select, uniform_pick


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


SIDES = 2  # a starting objective's two sides: the start decision's moves


@njit
def decide_start(st, tab, p, bots, bot, rng, scratch):
    """Card index of the starting-objective side that seat p keeps."""
    selectors, params, weights = bots
    moves = scratch[0]
    step.legal(st, tab, step.START, p, moves)
    u1 = uniform(rng)
    u2 = uniform(rng)
    if selectors[bot] != RANDOM:
        step.features(st, tab, step.START, p, moves, SIDES, scratch)
    pick = select(selectors, params, weights, bot, F.KIND_START, scratch[1], scratch[2], SIDES,
                  u1, u2)
    return moves[pick]


@njit(inline="always")  # a dispatch: not a call that copies the scratch tuple
def choose(st, tab, decision, p, bots, bot, rng, scratch):
    """The move bot ``bot`` (not a search bot) plays for seat p at ``decision`` (step.START
    or step.TURN)."""
    if decision == step.START:
        return decide_start(st, tab, p, bots, bot, rng, scratch)
    return decide_turn(st, tab, p, bots, bot, rng, scratch)
