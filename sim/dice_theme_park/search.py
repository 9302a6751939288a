"""Dice Theme Park's search bot: flat Monte Carlo over determinizations, the rollouts of
strategies/search.py (which holds how the budget is spread and the move chosen).

Each rollout copies the position and the decision's context into work buffers, redraws what
the seat cannot see (step.determinize; in the planning, the picks the seats before it made
in secret are played again by the rollout bot), plays the candidate move and then every
seat with the rollout bot (policy.py), to the end or for ``horizon`` decisions; a rollout
stopped early is valued by the end scoring as if the game ended there. The rollouts draw
from the search's own streams (the dice drawn in them too): the game's stream gives the
search its two numbers, as it gives any bot.
"""

import numpy as np
from numba import njit

from sim.core.rng import uniform
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import policy, step
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from strategies import search as SR

LOG_WEIGHED = 64  # a log row of a search's weighed move (no decision kind is this high)


@njit(cache=True)  # called from Python (new_scratch): an entry point
def new_buffers():
    """A search's buffers: the work state and context, the search's stream, its statistics,
    the determinization's pool, the standing's outputs and buffer, an empty log."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(S.CTX, dtype=np.int64),
            np.zeros(4, dtype=np.uint64), SR.new_stats(M.MAX_MOVES),
            np.zeros(64, dtype=np.int64), np.zeros(S.MAX_PLAYERS, dtype=np.int64),
            np.zeros(S.MAX_PLAYERS), np.zeros(S.MAX_PLAYERS, dtype=np.int64),
            np.zeros(S.DICE, dtype=np.int64), np.zeros((0, 8), dtype=np.int64))


@njit
def rollout(st, ctx, tab, p, bots, roll, horizon, rng, scratch):
    """Play the work state on with bot ``roll`` at every seat, to the end or for ``horizon``
    decisions (0: no limit); seat p's value of the position reached."""
    _, _, _, _, _, dice, wins, ranks, ones, nolog = scratch[9]
    details = scratch[6]
    played = 0
    while horizon == 0 or played < horizon:
        kind, q, _ = step.advance(st, tab, rng, ctx, details, nolog, 0)
        if kind == step.OVER:
            break
        move = policy.choose(st, tab, q, kind, ctx, bots, roll, rng, scratch)
        step.apply(st, tab, move, ctx, details, nolog, 0)
        played += 1
    if st[S.OVER] == 0:
        R.end_money(st, tab)
    step.standing(st, tab, dice, wins, ranks, ones)
    n = st[S.N_PLAYERS]
    for q in range(n):
        dice[q] = st[S.seat(q) + S.STARS]
    return SR.value(wins, dice, p, n)


@njit
def search_move(st, tab, p, kind, ctx, bots, bot, rng, scratch):
    """The move search bot ``bot`` plays for seat p at a ``kind`` decision: the best mean
    value over its rollouts (strategies/search.py); -1 when there is no legal move."""
    params = bots[1]
    moves = scratch[0]
    work, wctx, srng, stats, pool, _, _, _, _, nolog = scratch[9]
    u1 = uniform(rng)  # the two numbers of every decision, whatever the bot
    u2 = uniform(rng)
    n = step.legal(st, tab, kind, p, moves, ctx, scratch[4])
    if n <= 1:
        return moves[0] if n == 1 else -1
    if SR.prunes(params, bot, n):  # the best by the rollout bot's scores
        step.features(st, tab, kind, p, moves, n, scratch[1], scratch[3], ctx)
    k = SR.start(stats, moves, n, bots, bot, kind, scratch[1], scratch[2], u1, u2)
    roll, horizon = SR.rollout_bot(params, bot)
    while True:
        i = SR.next_candidate(stats)
        if i < 0:
            return SR.best(stats, k)
        SR.world(srng, stats, i)
        SR.copy_into(work, st)
        SR.copy_into(wctx, ctx)
        step.determinize(work, tab, p, srng, pool)
        if kind == M.K_STAFF:  # the picks made before this one, in secret
            for q in range(p):
                work[S.F_PICKS + q] = policy.choose(work, tab, q, M.K_STAFF, wctx, bots, roll,
                                                    srng, scratch)
        step.apply(work, tab, SR.move_of(stats, i), wctx, scratch[6], nolog, 0)
        SR.backup(stats, i, rollout(work, wctx, tab, p, bots, roll, horizon, srng, scratch))


@njit
def log_weighed(buffers, st, p, kind, log, nlog, details):
    """Log the top moves of seat p's last search (for replay): the move, its mean value in
    thousandths, its rollouts, its rank and the decision kind."""
    top = buffers[3][2]
    for t in range(SR.TOP):
        if top[t, 2] > 0:
            details[0] = np.int64(top[t, 2])
            details[1] = t
            details[2] = kind
            nlog = step.log_row(log, nlog, st[S.F_LOG_ROUND], LOG_WEIGHED, p,
                                np.int64(top[t, 0]), np.int64(round(top[t, 1] * 1000)),
                                details)
    return nlog
