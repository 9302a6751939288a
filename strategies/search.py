"""Search bots, the game-agnostic part: how a decision's rollouts are spread over its
candidate moves, how a rollout is valued, and which move is played.

A search bot (selector SEARCH, its parameters in ``params``: strategies/selectors.py) values
each candidate move by playing the game on from copies of the position: the engine's
search.py redraws what the seat cannot see (a determinization), plays the move and then every
seat with the rollout bot, to the end or to a horizon. The budget is spread by successive
halving (Karnin, Koren and Somekh, ICML 2013): ceil(log2(k)) rounds over k candidates, each
round giving every surviving move an equal share of the round's rollouts (at least one) and
keeping the better half by mean value (a tie goes to the move with more rollouts, then to
the earlier one). The last round's best is played. Since every survivor has a rollout a
round, k is cut (the best by the rollout bot's scores kept) until the schedule fits the
budget: a budget of N spends at most N rollouts a decision (``weighed``).

The moves are compared on common random numbers: a move's t-th rollout is played in the
t-th world (the hidden information redrawn, the rollout's dice and choices drawn, from the
t-th stream of the search), the same for every move. A difference between two moves' means
is then the moves' difference, not the worlds': at 64 rollouts a decision this alone takes
Festival's search from even to well above greedy.

A rollout's value for the searching seat is its win share (ties shared, as in the results)
plus MARGIN per point of its lead over the best other seat: between two moves that win as
often, the one that wins by more.

The search's streams are its own, keyed by the two numbers every decision draws from the
game's stream: the game's stream stays aligned whatever the bots (common random numbers
across runs), and a game with a search bot replays exactly.
"""

import numpy as np
from numba import njit

from sim.core.arrays import copy_range
from sim.core.rng import splitmix64_mix
from strategies.selectors import BUDGET, CANDIDATES, HORIZON, ROLLOUT, score_moves

MARGIN = 0.01  # value of a point of lead, beside a win's 1
TOP = 3  # moves a search records for replay: (move, mean value, rollouts) of the best
# a search's statistics, per candidate: stats[field, i]
MOVE, SUM, COUNT = range(3)
# its schedule (stats[4]): the budget, the rounds, the round, the moves left in it, the
# rollouts given in it
PLAN_BUDGET, PLAN_ROUNDS, PLAN_ROUND, PLAN_ALIVE, PLAN_GIVEN = range(5)


@njit
def new_stats(max_moves):
    """A search's buffers: per-candidate (move, value sum, rollouts), the candidates' order
    (best first once ranked), the record of the top moves, the key of its streams beside
    the rollouts played so far (a tally for ``playtest bench``) and its schedule."""
    return (np.zeros((3, max_moves)), np.zeros(max_moves, dtype=np.int64),
            np.zeros((TOP, 3)), np.zeros(2, dtype=np.uint64), np.zeros(5, dtype=np.int64))


@njit
def copy_into(dst, src):
    """``dst[:] = src`` (``arrays.copy_range``: a slice assignment may allocate, and the game
    kernels run without numba's allocator)."""
    copy_range(dst, src, 0, src.shape[0])


@njit
def prunes(params, bot, n):
    """Whether search bot ``bot`` weighs fewer than the ``n`` legal moves (the engine then
    computes their features for ``start``)."""
    return weighed(params, bot, n) < n


@njit
def weighed(params, bot, n):
    """How many of ``n`` legal moves search bot ``bot`` weighs: its ``candidates`` (0: all),
    fewer where the schedule would spend more than its budget on them (every surviving move
    gets a rollout a round), so that a budget of N is at most N rollouts a decision."""
    budget = np.int64(params[bot, BUDGET])
    limit = np.int64(params[bot, CANDIDATES])
    k = n if limit <= 0 or limit >= n else limit
    while k > 1 and spent(budget, k) > budget:
        k -= 1
    return k


@njit
def spent(budget, k):
    """Rollouts the schedule spends over ``k`` candidates at ``budget``."""
    n_rounds = rounds(k)
    alive, total = k, 0
    for _ in range(n_rounds):
        total += per_move(budget, n_rounds, alive) * alive
        alive = (alive + 1) // 2
    return total


@njit
def rollout_bot(params, bot):
    """(the slot of the bot that plays the rollouts, the rollouts' horizon)."""
    return np.int64(params[bot, ROLLOUT]), np.int64(params[bot, HORIZON])


@njit
def start(stats, moves, n, bots, bot, kind, feats, scores, u1, u2):
    """Begin search bot ``bot``'s search among ``n`` legal ``moves`` at a ``kind`` decision:
    its candidates (``pick_candidates``; ``feats`` the moves' features when it ``prunes``),
    its streams keyed on two uniform numbers drawn from the game's stream, its schedule.
    Returns the number of candidates."""
    _, params, weights = bots
    roll = np.int64(params[bot, ROLLOUT])
    k = pick_candidates(stats, moves, n, weighed(params, bot, n), weights, roll, kind, feats,
                        scores)
    stats[3][0] = np.uint64(u1 * 9007199254740992.0) ^ (np.uint64(u2 * 9007199254740992.0)
                                                        << np.uint64(11))
    plan = stats[4]
    plan[PLAN_BUDGET] = np.int64(params[bot, BUDGET])
    plan[PLAN_ROUNDS] = rounds(k)
    plan[PLAN_ROUND] = 0
    plan[PLAN_ALIVE] = k
    plan[PLAN_GIVEN] = 0
    return k


@njit
def next_candidate(stats):
    """The candidate of the next rollout, or -1 once the budget is spent: each round gives
    every surviving move ``per_move`` rollouts in turn, then keeps the better half."""
    plan = stats[4]
    per = per_move(plan[PLAN_BUDGET], plan[PLAN_ROUNDS], plan[PLAN_ALIVE])
    if plan[PLAN_GIVEN] == per * plan[PLAN_ALIVE]:
        plan[PLAN_ALIVE] = halve(stats, plan[PLAN_ALIVE])
        plan[PLAN_ROUND] += 1
        plan[PLAN_GIVEN] = 0
        if plan[PLAN_ROUND] == plan[PLAN_ROUNDS]:
            return -1
        per = per_move(plan[PLAN_BUDGET], plan[PLAN_ROUNDS], plan[PLAN_ALIVE])
    i = stats[1][plan[PLAN_GIVEN] // per]
    plan[PLAN_GIVEN] += 1
    return i


@njit
def move_of(stats, i):
    """Candidate i's move."""
    return np.int64(stats[0][MOVE, i])


@njit
def world(srng, stats, i):
    """Seed ``srng`` (uint64[4]) with the stream of candidate i's next rollout: the t-th
    world of the search, t being the rollouts i has had."""
    key = stats[3][0] ^ splitmix64_mix(np.uint64(stats[0][COUNT, i]) + np.uint64(1))
    for k in range(4):
        key = splitmix64_mix(key + np.uint64(0x9E3779B97F4A7C15))
        srng[k] = key


@njit
def pick_candidates(stats, moves, n, limit, weights, roll, kind, feats, scores):
    """Copy the moves to weigh into ``stats``: all ``n``, or the ``limit`` best by the
    rollout bot's scores of their features ``feats`` (ties: the earlier move). Returns how
    many."""
    table, order = stats[0], stats[1]
    k = n if limit <= 0 or limit >= n else limit
    if k == n:
        for m in range(n):
            order[m] = m
    else:
        score_moves(weights, roll, kind, feats, scores, n)
        for m in range(n):
            order[m] = m
        _rank(order, scores, n)
    for i in range(k):
        table[MOVE, i] = moves[order[i]]
        table[SUM, i] = 0.0
        table[COUNT, i] = 0.0
        order[i] = i
    return k


@njit
def _rank(order, key, n):
    """Insertion sort of ``order[:n]`` by ``key`` descending, stable."""
    for i in range(1, n):
        x = order[i]
        j = i - 1
        while j >= 0 and key[order[j]] < key[x]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x


@njit
def rounds(k):
    """Successive halving's rounds over ``k`` candidates: ceil(log2(k)), at least 1."""
    r = 0
    while (1 << r) < k:
        r += 1
    return max(r, 1)


@njit
def per_move(budget, n_rounds, alive):
    """Rollouts each surviving move gets in a round: the round's share of the budget split
    evenly, at least one."""
    return max(1, (budget // n_rounds) // alive)


@njit
def backup(stats, i, value):
    """Add one rollout's ``value`` to candidate i."""
    table = stats[0]
    table[SUM, i] += value
    table[COUNT, i] += 1.0
    stats[3][1] += np.uint64(1)


@njit
def _better(table, i, j):
    """Candidate i ranks above j: a higher mean; then more rollouts; then the earlier."""
    ci, cj = table[COUNT, i], table[COUNT, j]
    mi = table[SUM, i] / ci if ci > 0 else -np.inf
    mj = table[SUM, j] / cj if cj > 0 else -np.inf
    if mi != mj:
        return mi > mj
    if ci != cj:
        return ci > cj
    return i < j


@njit
def rank(stats, alive):
    """Order the first ``alive`` entries of the candidates' order best first."""
    table, order = stats[0], stats[1]
    for a in range(1, alive):
        x = order[a]
        b = a - 1
        while b >= 0 and _better(table, x, order[b]):
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = x


@njit
def halve(stats, alive):
    """Rank the survivors and keep the better half (rounded up): how many are left."""
    rank(stats, alive)
    return (alive + 1) // 2


@njit
def best(stats, k):
    """The move to play, the last round's best, after recording the top TOP of the ``k``
    candidates for replay: ranked by the round they fell in, then by mean. A move that fell
    early is never played, however lucky its few rollouts: on common worlds, one good world
    flatters every move it was tried in."""
    table, order, top = stats[0], stats[1], stats[2]
    for t in range(TOP):
        if t < k:
            i = order[t]
            top[t, 0] = table[MOVE, i]
            top[t, 1] = table[SUM, i] / max(table[COUNT, i], 1.0)
            top[t, 2] = table[COUNT, i]
        else:
            top[t, 0], top[t, 1], top[t, 2] = -1.0, 0.0, 0.0
    return np.int64(table[MOVE, order[0]])


def weighed_line(who: str, rank: int, move: str, value_thousandths: int, rollouts: int) -> str:
    """A replay's line for one of the moves a search weighed (``rank`` 0 is the best,
    the move played)."""
    head = f"{who} weighed" if rank == 0 else " " * (len(who) + 7)
    return (f"{head} {rank + 1}. {move}: value {value_thousandths / 1000:.3f} over "
            f"{rollouts} rollouts")


@njit
def value(wins, scores, p, n):
    """A finished (or valued) rollout's worth to seat p: its win share plus MARGIN per point
    of lead over the best other seat (negative when behind)."""
    other = -(1 << 40)
    for q in range(n):
        if q != p and scores[q] > other:
            other = scores[q]
    return wins[p] + MARGIN * (scores[p] - other)
