"""Festival's search bot: flat Monte Carlo over determinizations, the rollouts of
strategies/search.py (which holds how the budget is spread and the move chosen).

Each rollout copies the position into a work state, redraws what the seat cannot see
(step.determinize), plays the candidate move and then every seat with the rollout bot
(policy.py), to the end or for ``horizon`` decisions, and values the position reached by the
final scoring as if the game ended there. The rollouts draw from the search's own stream:
the game's stream gives the search its two numbers, as it gives any bot.
"""

import numpy as np
from numba import njit

from sim.core.rng import uniform
from sim.festival import policy, step
from sim.festival import rules as R
from sim.festival import state as S
from strategies import search as SR


@njit(cache=True)  # called from Python (new_scratch): an entry point
def new_buffers():
    """A search's buffers: the work state, the search's stream, its statistics, the
    determinization's pool, the final scoring's outputs and an empty log."""
    return (np.zeros(S.STATE_SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            SR.new_stats(R.MAX_MOVES), np.zeros(S.PILES * S.PILE_CAP, dtype=np.int64),
            np.zeros(S.MAX_PLAYERS, dtype=np.int64), np.zeros((S.MAX_PLAYERS, 4), dtype=np.int64),
            np.zeros(S.MAX_PLAYERS), np.zeros(S.MAX_PLAYERS, dtype=np.int64),
            np.zeros((0, R.LOG_COLS), dtype=np.int64))


@njit
def rollout(st, tab, p, bots, roll, horizon, rng, scratch):
    """Play the work state on with bot ``roll`` at every seat, to the end or for ``horizon``
    decisions (0: no limit); seat p's value of the position reached."""
    _, _, _, _, scores, parts, wins, ranks, nolog = scratch[5]
    played = 0
    while horizon == 0 or played < horizon:
        decision, q, _ = step.advance(st, tab, nolog, 0)
        if decision == step.OVER:
            break
        move = policy.choose(st, tab, decision, q, bots, roll, rng, scratch)
        step.apply(st, tab, move, nolog, 0)
        played += 1
    R.final_scores(st, tab, scores, parts, wins, ranks)
    return SR.value(wins, scores, p, st[S.N_PLAYERS])


@njit
def search_move(st, tab, decision, p, bots, bot, rng, scratch):
    """The move search bot ``bot`` plays for seat p at ``decision``: the best mean value
    over its rollouts (strategies/search.py)."""
    params = bots[1]
    moves = scratch[0]
    work, srng, stats, pool, _, _, _, _, nolog = scratch[5]
    u1 = uniform(rng)  # the two numbers of every decision, whatever the bot
    u2 = uniform(rng)
    n = step.legal(st, tab, decision, p, moves)
    if n == 1:
        return moves[0]
    if SR.prunes(params, bot, n):  # the best by the rollout bot's scores
        step.features(st, tab, decision, p, moves, n, scratch)
    k = SR.start(stats, moves, n, bots, bot, decision, scratch[1], scratch[2], u1, u2)
    roll, horizon = SR.rollout_bot(params, bot)
    while True:
        i = SR.next_candidate(stats)
        if i < 0:
            return SR.best(stats, k)
        SR.world(srng, stats, i)
        SR.copy_into(work, st)
        step.determinize(work, tab, p, srng, pool)
        step.apply(work, tab, SR.move_of(stats, i), nolog, 0)
        SR.backup(stats, i, rollout(work, tab, p, bots, roll, horizon, srng, scratch))


@njit
def log_weighed(buffers, p, decision, log, nlog):
    """Log the top moves of seat p's last search (for replay)."""
    top = buffers[2][2]
    for t in range(SR.TOP):
        if top[t, 2] > 0:
            nlog = R.log_event(log, nlog, R.LOG_SEARCH, p, np.int64(top[t, 0]),
                               np.int64(round(top[t, 1] * 1000)), np.int64(top[t, 2]),
                               t + 8 * decision)
    return nlog
