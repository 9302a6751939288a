"""The built-in bots' choice at a decision of The Magnificent: a preset's selector over the
legal moves' features (strategies/selectors.py), from public information only. The game
loop (play.py) and a search bot's rollouts (search.py) choose with it; every decision draws
two numbers from the stream it is given, whatever the bot.
"""

from numba import njit

from sim.core.rng import uniform
from sim.magnificent import features as F
from sim.magnificent import moves as M
from strategies.selectors import RANDOM, select, uniform_pick


@njit(inline="always")
def choose(st, tab, p, kind, ctx, bots, bot, rng, scratch) -> int:
    """Seat p's move at a ``kind`` decision, chosen by bot slot ``bot`` (not a search bot);
    -1 when there is no legal move."""
    selectors, params, weights = bots
    moves, feats, scores, values = scratch[0], scratch[1], scratch[2], scratch[3]
    u1 = uniform(rng)
    u2 = uniform(rng)
    n = M.legal_moves(st, tab, p, kind, ctx, moves)
    if n == 0:
        return -1
    if selectors[bot] == RANDOM or n == 1:
        return moves[uniform_pick(n, u1)]
    F.move_features(st, tab, p, kind, ctx, moves, n, feats, values)
    return moves[select(selectors, params, weights, bot, kind, feats, scores, n, u1, u2)]
