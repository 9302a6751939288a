"""The built-in bots' choice at a decision of Dice Theme Park: a preset's selector over the
legal moves' features (strategies/selectors.py), from public information only. The game
loop (play.py) and a search bot's rollouts (search.py) choose with it; every decision draws
two numbers from the stream it is given, whatever the bot.
"""

from numba import njit

from sim.core.rng import uniform
from sim.dice_theme_park import features as F
from sim.dice_theme_park import moves as M
from strategies.selectors import RANDOM, select, uniform_pick

# scratch[8]: a checked game; a decision's fast path differs; a decision's moves filled
# their buffer
CHECKING, PATHS_DIFFER, MOVES_FULL = 0, 1, 2


@njit(inline="always")  # called from a dozen places: docs/developers.md
def choose(st, tab, p, kind, ctx, bots, bot, rng, scratch) -> int:
    """Seat p's move at a ``kind`` decision, chosen by bot slot ``bot`` (not a search bot);
    -1 when there is no legal move."""
    selectors, params, weights = bots
    moves, feats, scores, buffers, ws = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    exact, flags = scratch[7], scratch[8]
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
        F.move_features(st, tab, p, kind, moves, n, feats, buffers, ctx, F.FOOTPRINT_PATH)
        if flags[CHECKING]:  # a checked game: the footprint path equals the whole copy
            F.move_features(st, tab, p, kind, moves, n, exact, buffers, ctx, F.EXACT_PATH)
            if F.differ(feats, exact, n):
                flags[PATHS_DIFFER] = 1
    return moves[select(selectors, params, weights, bot, kind, feats, scores, n, u1, u2)]
