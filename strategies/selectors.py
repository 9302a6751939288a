"""Game-agnostic move selectors, compiled.

A bot is a selector plus one weight row per decision kind. The engine writes a feature row
per legal move; the selector scores moves by ``features @ weights`` and picks one. The
engine hands over two uniform numbers drawn from the game's own stream, so a choice
replays exactly with its seed and the selectors need no generator of their own.

A bot's parameters are a row of ``params``: the selector's own (epsilon's share, softmax's
temperature) and a search bot's (strategies/search.py), which the engine's search plays.
"""

import numpy as np
from numba import njit

RANDOM = 0  # uniform over legal moves; features are not even computed
GREEDY = 1  # best score; ties broken uniformly
EPSILON = 2  # random with probability param, else greedy
SOFTMAX = 3  # probability proportional to exp(score / param)
SEARCH = 4  # rollouts from the position (the engine's search.py); never reaches select
NAMES = ("random", "greedy", "epsilon", "softmax", "search")
# the columns of a bot's ``params`` row
PARAM = 0  # epsilon's exploration share, softmax's temperature
BUDGET = 1  # a search bot's rollouts per decision
ROLLOUT = 2  # the bot slot that plays a search bot's rollouts (every seat of them)
HORIZON = 3  # decisions a rollout plays before the position is valued; 0: to the end
CANDIDATES = 4  # moves a search bot weighs, the best by its rollout bot's scores; 0: all
N_PARAMS = 5


def search_switch(bots: tuple) -> bool | None:
    """The game kernels' search switch for a line-up's compiled ``bots``: True when a seat
    searches, else None. A kernel given None is compiled with its search pruned away (numba
    drops a branch on ``is not None`` of a None argument before typing it), so a line-up
    without a search bot compiles in half the time; each value is cached on its own."""
    return True if (np.asarray(bots[0]) == SEARCH).any() else None


@njit
def _greedy(scores, n, u):
    """A best move (within 1e-9 of the top score), ties broken by ``u``."""
    best = scores[0]
    for m in range(1, n):
        best = max(best, scores[m])
    best -= 1e-9
    ties = 0
    for m in range(n):
        ties += scores[m] >= best
    pick = int(u * ties)
    for m in range(n):
        if scores[m] >= best:
            if pick == 0:
                return m
            pick -= 1
    return n - 1


@njit
def _softmax(scores, n, temperature, u):
    top = -np.inf
    for m in range(n):
        top = max(top, scores[m])
    total = 0.0
    for m in range(n):
        total += np.exp((scores[m] - top) / temperature)
    x = u * total
    for m in range(n):
        x -= np.exp((scores[m] - top) / temperature)
        if x < 0:
            return m
    return n - 1


@njit
def uniform_pick(n, u):
    """The RANDOM selector: index of one of ``n`` moves, uniform for ``u`` in [0, 1)."""
    return int(u * n)


@njit
def select(selectors, params, weights, bot, kind, feats, scores, n, u1, u2):
    """Index of the move that bot ``bot`` chooses among ``n`` at a ``kind`` decision.

    ``weights[bot, kind, feature]``; ``scores`` is a scratch buffer of at least ``n``;
    ``u1``, ``u2`` uniform in [0, 1).
    """
    if n <= 1:
        return 0
    selector = selectors[bot]
    if selector == RANDOM or (selector == EPSILON and u2 < params[bot, PARAM]):
        return uniform_pick(n, u1)
    score_moves(weights, bot, kind, feats, scores, n)
    if selector == SOFTMAX:
        return _softmax(scores, n, params[bot, PARAM], u1)
    return _greedy(scores, n, u1)


@njit
def score_moves(weights, bot, kind, feats, scores, n):
    """``scores[m] = feats[m] @ weights[bot, kind]`` for the ``n`` moves."""
    for m in range(n):
        scores[m] = 0.0
    for f in range(feats.shape[1]):  # feature by feature: most weights of a bot are 0
        w = weights[bot, kind, f]
        if w != 0.0:
            for m in range(n):
                scores[m] += w * feats[m, f]
