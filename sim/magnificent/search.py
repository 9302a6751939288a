"""The Magnificent's search bot: flat Monte Carlo over determinizations, the rollouts of
strategies/search.py (which holds how the budget is spread and the move chosen).

Each rollout copies the position into a work state, redraws the decks' orders
(step.determinize), plays the candidate move and then every seat with the rollout bot
(policy.py), to the end or for ``horizon`` decisions; a rollout stopped early is valued by
the end scoring as if the game ended there. The rollouts draw from the search's own stream
(the dice rolled in them too): the game's stream gives the search its two numbers, as it
gives any bot.
"""

import numpy as np
from numba import njit

from sim.core.rng import uniform
from sim.magnificent import moves as M
from sim.magnificent import policy, step
from sim.magnificent import rules as R
from sim.magnificent import state as S
from strategies import search as SR

LOG_WEIGHED = 64  # a log row of a search's weighed move (no decision kind is this high)


@njit(cache=True)  # called from Python (new_scratch): an entry point
def new_buffers():
    """A search's buffers: the work state, the search's stream, its statistics, the
    standing's outputs, an empty log and the log's details."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            SR.new_stats(M.MAX_MOVES), np.zeros(S.MAX_PLAYERS, dtype=np.int64),
            np.zeros(S.MAX_PLAYERS), np.zeros(S.MAX_PLAYERS, dtype=np.int64),
            np.zeros((0, 8), dtype=np.int64), np.zeros(3, dtype=np.int64))


@njit
def rollout(st, tab, p, bots, roll, horizon, rng, scratch):
    """Play the work state on with bot ``roll`` at every seat, to the end or for ``horizon``
    decisions (0: no limit); seat p's value of the position reached."""
    _, _, _, scores, wins, ranks, nolog, details = scratch[8]
    ctx, order = scratch[4], scratch[7]
    played = 0
    while horizon == 0 or played < horizon:
        kind, q = step.advance(st, tab, rng, order)
        if kind == step.OVER:
            break
        ctx[0] = st[S.F_TILE]
        move = policy.choose(st, tab, q, kind, ctx, bots, roll, rng, scratch)
        step.apply(st, tab, move, ctx, details, nolog, 0)
        played += 1
    if st[S.OVER] == 0:
        R.end_scoring(st, tab)
    R.standing(st, wins, ranks)
    n = st[S.N_PLAYERS]
    for q in range(n):
        scores[q] = st[S.seat(q) + S.SCORE]
    return SR.value(wins, scores, p, n)


@njit
def search_move(st, tab, p, kind, bots, bot, rng, scratch):
    """The move search bot ``bot`` plays for seat p at a ``kind`` decision: the best mean
    value over its rollouts (strategies/search.py); -1 when there is no legal move."""
    params = bots[1]
    moves = scratch[0]
    work, srng, stats, _, _, _, nolog, details = scratch[8]
    u1 = uniform(rng)  # the two numbers of every decision, whatever the bot
    u2 = uniform(rng)
    n = step.legal(st, tab, kind, p, moves, scratch)
    if n <= 1:
        return moves[0] if n == 1 else -1
    if SR.prunes(params, bot, n):  # the best by the rollout bot's scores
        step.features(st, tab, kind, p, moves, n, scratch)
    k = SR.start(stats, moves, n, bots, bot, kind, scratch[1], scratch[2], u1, u2)
    roll, horizon = SR.rollout_bot(params, bot)
    while True:  # the context (ctx[0], the tile to place) is set from the state by apply
        i = SR.next_candidate(stats)
        if i < 0:
            return SR.best(stats, k)
        SR.world(srng, stats, i)
        SR.copy_into(work, st)
        step.determinize(work, tab, p, srng)
        step.apply(work, tab, SR.move_of(stats, i), scratch[4], details, nolog, 0)
        SR.backup(stats, i, rollout(work, tab, p, bots, roll, horizon, srng, scratch))


@njit
def log_weighed(buffers, st, p, kind, log, nlog):
    """Log the top moves of seat p's last search (for replay): the move, its mean value in
    thousandths, its rollouts, its rank and the decision kind."""
    top = buffers[2][2]
    details = buffers[7]
    for t in range(SR.TOP):
        if top[t, 2] > 0:
            details[0] = np.int64(top[t, 2])
            details[1] = t
            details[2] = kind
            nlog = step.log_row(log, nlog, st[S.F_LOG_ROUND], LOG_WEIGHED, p,
                                np.int64(top[t, 0]), np.int64(round(top[t, 1] * 1000)),
                                details)
    return nlog
