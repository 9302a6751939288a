"""The game loop: one game of Dice Theme Park (any mode), optionally logged.

Every decision draws two numbers from the game's stream whatever the bot, so the stream
does not depend on which bots play (common random numbers stay aligned). The batch kernel
and ``replay`` call the same function, so a replayed game is the simulated game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import seed_game, uniform
from sim.dice_theme_park import features as F
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import powers as W
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB
from sim.dice_theme_park.invariants import MOVES_FULL_CODE, PATHS_CODE, check_state
from strategies.selectors import RANDOM, select, uniform_pick

LOG_COLS = 8  # round, decision kind, seat, move, what followed, three details (_details)
MAX_OPERATE_STEPS = 300  # a seat's operate steps in a round, far above any real count
CTX = 1 + S.DICE  # count, then dice slots


@njit(cache=True)  # called from Python: an entry point
def bot_of(seat, game_index, n_players, rotate):
    """Bot slot playing ``seat``: with rotation, game i moves every bot i seats on."""
    return (seat + game_index) % n_players if rotate else seat


# scratch[9]: a checked game; a decision's fast path differs; a decision's moves filled
# their buffer
CHECKING, PATHS_DIFFER, MOVES_FULL = 0, 1, 2


@njit(cache=True)  # called from Python: an entry point
def new_scratch():
    """A game lane's work buffers: moves, features, scores, the features' buffers, the legal
    moves' workspace, the decision's context, a log row's details, the staff picks, the
    features of the whole-copy path and flags (CHECKING, PATHS_DIFFER, MOVES_FULL). The
    buffers of MAX_MOVES rows are left uninitialised (np.empty): a decision writes the rows
    it reads, and rows never written are never touched, so the memory of a lane is what its
    largest decision uses, not MAX_MOVES rows."""
    return (np.empty(M.MAX_MOVES, dtype=np.int64), np.empty((M.MAX_MOVES, F.N_FEATURES)),
            np.empty(M.MAX_MOVES), F.new_buffers(), M.new_workspace(),
            np.zeros(CTX, dtype=np.int64), np.zeros(3, dtype=np.int64),
            np.zeros(S.MAX_PLAYERS, dtype=np.int64), np.empty((M.MAX_MOVES, F.N_FEATURES)),
            np.zeros(3, dtype=np.int64))


@njit(inline="always")  # called from a dozen places: docs/developers.md
def decide(st, tab, p, kind, ctx, bots, bot, rng, scratch) -> int:
    """Seat p's move at a ``kind`` decision, chosen by bot slot ``bot``; -1 when there is no
    legal move."""
    selectors, params, weights = bots
    moves, feats, scores, buffers, ws, _, _, _, exact, flags = scratch
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
        F.move_features(st, tab, p, kind, moves, n, feats, buffers)
        if flags[CHECKING]:  # a checked game: the footprint path equals the whole copy
            F.move_features(st, tab, p, kind, moves, n, exact, buffers, True)
            if F.differ(feats, exact, n):
                flags[PATHS_DIFFER] = 1
    return moves[select(selectors, params, weights, bot, kind, feats, scores, n, u1, u2)]


@njit(inline="always")  # hot: docs/developers.md
def _log(log, nlog, r, kind, p, move, follow, details) -> int:
    if nlog < log.shape[0]:
        log[nlog, 0] = r
        log[nlog, 1] = kind
        log[nlog, 2] = p
        log[nlog, 3] = move
        log[nlog, 4] = follow
        for k in range(3):
            log[nlog, 5 + k] = details[k]
    return nlog + 1


@njit
def _die(st, i) -> int:
    """A die as the log keeps it: colour * 8 + pips (a colour adjustment: + 64 * (tint + 1))."""
    return st[S.DIE_COL + i] * 8 + st[S.DIE_PIPS + i] + 64 * (st[S.DIE_TINT + i] + 1)


@njit
def _details(st, tab, p, kind, move, ctx, details) -> None:
    """What the log needs to say about a move before it is applied: the dice of an
    operation's party, the die a move touches, the tile a build takes; -1 where none."""
    t, a, b, c = M.decode(move)
    details[:] = -1
    if kind == M.K_OPERATE and t == M.T_ACT:
        M.party_of(move, details)
        for k in range(3):
            if details[k] >= 0:
                details[k] = _die(st, details[k])
    elif kind == M.K_BUILD and t == M.T_ACT:
        details[0] = st[S.DISPLAY + a]
    elif kind == M.K_FREE_BUILD:
        details[0] = st[S.DISCARD + a]
    elif kind == M.K_START:
        details[0] = st[S.seat(p) + S.DEALT + a]
    elif kind == M.K_REARRANGE and t == M.T_ACT:  # the new dice as they become
        order = W.PERMUTATIONS[a]
        for k in range(ctx[0]):
            details[k] = (st[S.DIE_COL + ctx[1 + order[k]]] * 8 + st[S.DIE_PIPS + ctx[1 + k]]
                          + (1 if k == b - 1 else 0))
    elif kind == M.K_MONORAIL:
        for k in range(S.SPACES):
            if st[S.MONO_COL + a * S.SPACES + k] >= 0:
                details[k] = (st[S.MONO_COL + a * S.SPACES + k] * 8
                              + st[S.MONO_PIPS + a * S.SPACES + k])
    elif kind == M.K_ADMIN:
        details[0] = st[S.seat(p) + S.ADMIN_DEALT + a]
    elif kind == M.K_SKILL:
        details[0] = st[S.seat(p) + S.SKILL_DEALT + a]
    elif kind == M.K_TAKE_SKILL:
        details[0] = st[S.SKILL_DISPLAY + a]
    elif kind == M.K_LEFTOVER and t == M.T_ACT:
        details[0] = (st[S.MONO_COL + a * S.SPACES + b] * 8
                      + st[S.MONO_PIPS + a * S.SPACES + b])
    elif kind == M.K_SWAP and t == M.T_ACT:
        details[0] = st[S.seat(p) + S.PLAYED + a]
    elif kind == M.K_OPERATE and t == M.T_SKILL:
        details[0] = st[S.seat(p) + S.SKILLS + c]
        power = W.skill_power(st, tab, p, c)
        if power != R.SK_MONEY and power != R.SK_STARS:
            details[1] = _die(st, a)
            details[2] = _die(st, b) if power == R.SK_NUDGE else st[S.DIE_AT + a] % S.HEXES
    elif t != M.PASS and (kind == M.K_OPERATE or kind == M.K_MOVE or kind == M.K_SAVE
                          or kind == M.K_BONUS_PIPS or kind == M.K_CONCIERGE
                          or kind == M.K_ADMIN_SAVE or kind == M.K_AGAIN):
        details[0] = _die(st, a)
        details[1] = st[S.DIE_AT + a] % S.HEXES
        if kind == M.K_CONCIERGE and t == 2:
            details[2] = _die(st, b)


@njit(inline="always")  # as decide
def _step(st, tab, p, kind, ctx, bots, bot, rng, scratch, log, nlog, r):
    """Decide and apply one move; (follow-up of apply, the move, new log length)."""
    move = decide(st, tab, p, kind, ctx, bots, bot, rng, scratch)
    if move < 0:
        return -1, move, nlog
    details = scratch[6]
    if log.shape[0]:
        _details(st, tab, p, kind, move, ctx, details)
    follow = M.apply(st, tab, p, kind, move, ctx)
    return follow, move, _log(log, nlog, r, kind, p, move, follow, details)


@njit(cache=True, _nrt=False)  # called from Python (replay): an entry point
def play_game(tab, n_players, mode, seed, game_index, bots, rotate, st, rng, scratch, log,
              check):
    """Play game ``game_index`` of ``seed`` to the end in ``st``. Returns (log length, first
    invariant violation code or 0; checked after every operate step and phase when
    ``check``).

    Compiled without numba's reference counting (``_nrt=False``), which also applies to
    everything it calls: none of it allocates (buffers come in ``scratch``), and the counting
    (an atomic increment and decrement per array of every call) cost a third of the time."""
    bad = 0
    scratch[9][CHECKING] = 1 if check else 0
    scratch[9][PATHS_DIFFER] = 0
    scratch[9][MOVES_FULL] = 0
    seed_game(rng, seed, game_index)
    R.setup(st, tab, n_players, mode, rng)
    ctx = scratch[5]
    nlog = 0
    first = bot_of(0, game_index, n_players, rotate)
    modules = tab[TB.MODULES + mode] == 1
    if modules:  # each keep sees the player's own two cards and what is face up (rules.md 41)
        for kind in (M.K_ADMIN, M.K_SKILL):
            for i in range(n_players):
                p = st[S.ORDER + i]
                _, _, nlog = _step(st, tab, p, kind, ctx, bots, (first + p) % n_players, rng,
                                   scratch, log, nlog, -1)
        R.lay_skill_display(st, tab, rng, True)
    for i in range(n_players):
        p = st[S.ORDER + i]
        bot = (first + p) % n_players
        _, _, nlog = _step(st, tab, p, M.K_START, ctx, bots, bot, rng, scratch, log, nlog, -1)
    R.lay_start_display(st, tab, rng)
    picks = scratch[7]
    for r in range(st[S.ROUNDS]):
        st[S.ROUND] = r
        # planning: secret picks, revealed together
        for p in range(n_players):
            picks[p] = decide(st, tab, p, M.K_STAFF, ctx, bots, (first + p) % n_players, rng,
                              scratch)
        for p in range(n_players):
            M.apply(st, tab, p, M.K_STAFF, picks[p], ctx)
            scratch[6][:] = -1
            nlog = _log(log, nlog, r, M.K_STAFF, p, picks[p], 0, scratch[6])
        for p in range(n_players):  # after the reveal, seeing every sum (rules.md 34)
            if R.has_admin(st, tab, p, R.A_LOWER_SUM):
                _, _, nlog = _step(st, tab, p, M.K_LOWER, ctx, bots, (first + p) % n_players,
                                   rng, scratch, log, nlog, r)
        R.set_turn_order(st, tab)
        for p in range(n_players):
            st[S.seat(p) + S.MONEY] += R.income(st, tab, p)
        # welcome
        for i in range(n_players):
            p = st[S.ORDER + i]
            bot = (first + p) % n_players
            _, _, nlog = _step(st, tab, p, M.K_MONORAIL, ctx, bots, bot, rng, scratch, log,
                               nlog, r)
            if R.has_admin(st, tab, p, R.A_REARRANGE):
                _, _, nlog = _step(st, tab, p, M.K_REARRANGE, ctx, bots, bot, rng, scratch,
                                   log, nlog, r)
            for _ in range(R.played(st, p, R.CONCIERGE)):
                _, _, nlog = _step(st, tab, p, M.K_CONCIERGE, ctx, bots, bot, rng, scratch,
                                   log, nlog, r)
        for i in range(n_players):  # after every monorail and concierge (rules.md 32)
            p = st[S.ORDER + i]
            if R.has_admin(st, tab, p, R.A_LEFTOVER):
                _, _, nlog = _step(st, tab, p, M.K_LEFTOVER, ctx, bots, (first + p) % n_players,
                                   rng, scratch, log, nlog, r)
        # expand
        for i in range(n_players):
            p = st[S.ORDER + i]
            bot = (first + p) % n_players
            bonus, _, nlog = _step(st, tab, p, M.K_BUILD, ctx, bots, bot, rng, scratch, log,
                                   nlog, r)
            if bonus == R.BONUS_SET_PIPS:
                _, _, nlog = _step(st, tab, p, M.K_BONUS_PIPS, ctx, bots, bot, rng, scratch,
                                   log, nlog, r)
            elif bonus == R.BONUS_DRAW_DIE:
                R.bonus_draw_die(st, tab, p, rng)
            elif bonus == R.BONUS_FREE_BUILD:
                _, _, nlog = _step(st, tab, p, M.K_FREE_BUILD, ctx, bots, bot, rng, scratch,
                                   log, nlog, r)
            _, hired, nlog = _step(st, tab, p, M.K_MASCOT, ctx, bots, bot, rng, scratch, log,
                                   nlog, r)
            if hired > 0 and modules and st[S.SKILL_DISPLAY_N] > 0:
                _, _, nlog = _step(st, tab, p, M.K_TAKE_SKILL, ctx, bots, bot, rng, scratch,
                                   log, nlog, r)
        # improve
        for i in range(n_players):
            p = st[S.ORDER + i]
            bot = (first + p) % n_players
            _, _, nlog = _step(st, tab, p, M.K_MAP, ctx, bots, bot, rng, scratch, log, nlog, r)
            for _ in range(6):  # removals and installs, until a pass
                _, move, nlog = _step(st, tab, p, M.K_UPGRADE, ctx, bots, bot, rng, scratch,
                                      log, nlog, r)
                if move <= 0:
                    break
        if check and bad == 0:
            bad = check_state(st, tab)
        # operate
        for i in range(n_players):
            p = st[S.ORDER + i]
            bot = (first + p) % n_players
            for _ in range(MAX_OPERATE_STEPS):
                movable, move, nlog = _step(st, tab, p, M.K_OPERATE, ctx, bots, bot, rng,
                                            scratch, log, nlog, r)
                if move <= 0:
                    break
                t = M.decode(move)[0]
                if t == M.T_ACT and movable > 0:
                    _, _, nlog = _step(st, tab, p, M.K_MOVE, ctx, bots, bot, rng, scratch,
                                       log, nlog, r)
                elif t == M.T_SKILL and movable > 0:  # the push's or pull's next moves
                    while st[S.seat(p) + S.AGAIN_LEFT] > 0:
                        _, again, nlog = _step(st, tab, p, M.K_AGAIN, ctx, bots, bot, rng,
                                               scratch, log, nlog, r)
                        if again <= 0:
                            st[S.seat(p) + S.AGAIN_LEFT] = 0
                if check and bad == 0:
                    bad = check_state(st, tab)
        # upkeep
        for p in range(n_players):
            W.score_round_stars(st, tab, p)  # reads the cubes: first
            R.score_cubes(st, tab, p)
        if st[S.OBJECTIVE + r] >= 0:
            R.score_objective(st, tab, st[S.OBJECTIVE + r])
        if r < st[S.ROUNDS] - 1:
            for i in range(n_players):
                p = st[S.ORDER + i]
                nlog = _ones_leave(st, tab, p, ctx, bots, (first + p) % n_players, rng,
                                   scratch, log, nlog, r)
            for i in range(n_players):
                p = st[S.ORDER + i]
                if R.has_admin(st, tab, p, R.A_SWAP):
                    _, _, nlog = _step(st, tab, p, M.K_SWAP, ctx, bots, (first + p) % n_players,
                                       rng, scratch, log, nlog, r)
            R.rotate_staff(st)
            R.reset_round(st)
            R.refill_monorails(st, tab, rng)
            R.refill_display(st, tab, r + 1)
            if modules:
                R.lay_skill_display(st, tab, rng, False)
        if check and bad == 0:
            bad = check_state(st, tab)
    R.end_money(st, tab)
    st[S.OVER] = 1
    if check and bad == 0 and scratch[9][PATHS_DIFFER]:
        bad = PATHS_CODE
    if check and bad == 0 and scratch[9][MOVES_FULL]:
        bad = MOVES_FULL_CODE
    return nlog, bad


@njit
def _ones_leave(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r) -> int:
    """Upkeep 4: seat p's dice at 1 leave the park; each ticket agent played may save one,
    then the administrator one of its colour."""
    for _ in range(R.played(st, p, R.TICKET_AGENT)):
        ctx[0] = R.ones(st, p, ctx[1:])
        if ctx[0] == 0:
            break
        _, _, nlog = _step(st, tab, p, M.K_SAVE, ctx, bots, bot, rng, scratch, log, nlog, r)
    if R.has_admin(st, tab, p, R.A_SAVE):  # one more, of its colour (rules.md 29)
        ctx[0] = W.leaving_of_colour(st, p, W.admin_colour(st, tab, p), ctx[1:])
        if ctx[0] > 0:
            _, _, nlog = _step(st, tab, p, M.K_ADMIN_SAVE, ctx, bots, bot, rng, scratch, log,
                               nlog, r)
    n = R.ones(st, p, ctx[1:])
    for k in range(n):
        R.discard_die(st, ctx[1 + k])
    return nlog


@njit(cache=True)  # called from Python (replay): an entry point
def final_standing(st, tab, dice_after, wins, ranks) -> None:
    """Win shares and ranks (rules.standing) with the dice in the park counted after the 1s
    leave (a ticket agent played in the last round saves one, the discard-saving
    administrator one of its colour)."""
    n = st[S.N_PLAYERS]
    ones = np.empty(S.DICE, dtype=np.int64)
    for p in range(n):
        k = R.ones(st, p, ones)
        saves = R.played(st, p, R.TICKET_AGENT)
        if R.has_admin(st, tab, p, R.A_SAVE) and W.leaving_of_colour(
                st, p, W.admin_colour(st, tab, p), ones) > 0:
            saves += 1  # the ticket agents save the others first (rules.md 29)
        dice_after[p] = R.objective_measure(st, tab, p, 1) - k + min(k, saves)
    R.standing(st, dice_after, wins, ranks)


def new_buffers(log_rows: int = 0):
    """Per-game buffers for Python callers: state, rng, scratch and a log of ``log_rows``."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), new_scratch(),
            np.zeros((log_rows, LOG_COLS), dtype=np.int64))
