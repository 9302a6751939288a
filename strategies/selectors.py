"""Game-agnostic move selectors, compiled.

A bot is a selector plus one weight row per decision kind. The engine writes a feature row
per legal move; the selector scores moves by ``features @ weights`` and picks one. The
engine hands over two uniform numbers drawn from the game's own stream, so a choice
replays exactly with its seed and the selectors need no generator of their own.
"""

import numpy as np
from numba import njit

RANDOM = 0  # uniform over legal moves; features are not even computed
GREEDY = 1  # best score; ties broken uniformly
EPSILON = 2  # random with probability param, else greedy
SOFTMAX = 3  # probability proportional to exp(score / param)
NAMES = ("random", "greedy", "epsilon", "softmax")


@njit(cache=True)
def _score(w, bot, kind, feats, m):
    s = 0.0
    for f in range(feats.shape[1]):
        s += w[bot, kind, f] * feats[m, f]
    return s


@njit(cache=True)
def _greedy(w, bot, kind, feats, n, u):
    best = -np.inf
    ties = 0
    for m in range(n):
        s = _score(w, bot, kind, feats, m)
        if s > best + 1e-9:
            best = s
            ties = 1
        elif s >= best - 1e-9:
            ties += 1
    pick = int(u * ties)
    for m in range(n):
        if _score(w, bot, kind, feats, m) >= best - 1e-9:
            if pick == 0:
                return m
            pick -= 1
    return n - 1


@njit(cache=True)
def _softmax(w, bot, kind, feats, n, temperature, u):
    top = -np.inf
    for m in range(n):
        top = max(top, _score(w, bot, kind, feats, m))
    total = 0.0
    for m in range(n):
        total += np.exp((_score(w, bot, kind, feats, m) - top) / temperature)
    x = u * total
    for m in range(n):
        x -= np.exp((_score(w, bot, kind, feats, m) - top) / temperature)
        if x < 0:
            return m
    return n - 1


@njit(cache=True)
def select(selectors, params, weights, bot, kind, feats, n, u1, u2):
    """Index of the move that bot ``bot`` chooses among ``n`` at a ``kind`` decision.

    ``weights[bot, kind, feature]``; ``u1``, ``u2`` uniform in [0, 1).
    """
    if n <= 1:
        return 0
    selector = selectors[bot]
    if selector == RANDOM or (selector == EPSILON and u2 < params[bot]):
        return int(u1 * n)
    if selector == SOFTMAX:
        return _softmax(weights, bot, kind, feats, n, params[bot], u1)
    return _greedy(weights, bot, kind, feats, n, u1)


def needs_features(selector: int) -> bool:
    return selector != RANDOM
