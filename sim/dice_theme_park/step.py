"""The step interface: a game of Dice Theme Park (any mode) played one decision at a time.

The game loop of the rules (the keeps of the full game, the starting tiles, then each
round's planning, welcome, expand, improve, operate and upkeep) is a machine whose position
lives in the state (``state.F_*``): the pending decision, the point of the loop to go on
from after it, the loop counters, the planning's secret picks and what the last move left.
Three functions drive it, the same for the batch kernel, ``replay`` and a game driven from
Python (``sim.core.game.Game``):

- ``begin``: deal game ``game_index`` of ``seed``;
- ``advance``: run the rules up to the next decision and return it (decision, seat);
- ``apply``: play a move of that decision (or -1: the seat had no legal move).

The decisions' context (``ctx``: the dice a monorail brought, the party that may move, the
dice at 1 a ticket agent may save, a push's power and hex) is the moves' buffer of
play.new_scratch, as before: a copy of a game copies it with the state. Every random number
comes from the game's stream: the deal's, the rules' between decisions (a die drawn as a
bonus, the round's refills) and a bot's two per decision.
"""

from numba import njit

from sim.core.rng import redraw, seed_game, shuffle
from sim.dice_theme_park import features as F
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import powers as W
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB
from sim.dice_theme_park.invariants import check_state

RULES = len(M.KINDS)  # a move was played: advance goes on with the rules
OVER = RULES + 1  # the game is over
DECISIONS = dict(enumerate(M.KINDS))  # the decisions a seat takes, by kind
MAX_OPERATE_STEPS = 300  # a seat's operate steps in a round, far above any real count
MAX_UPGRADES = 6  # removals and installs in a seat's improve, until a pass

# the points of the game loop (state.F_PC): where advance goes on from
(P_KEEP, P_KEEP_NEXT, P_START, P_START_NEXT, P_STAFF, P_STAFF_NEXT, P_LOWER, P_LOWER_NEXT,
 P_WELCOME, P_REARRANGE, P_CONCIERGE_START, P_CONCIERGE, P_LEFTOVER, P_LEFTOVER_NEXT,
 P_EXPAND, P_BONUS, P_MASCOT, P_MASCOT_NEXT, P_EXPAND_NEXT, P_IMPROVE, P_UPGRADE,
 P_UPGRADE_NEXT, P_IMPROVE_NEXT,
 P_OPERATE, P_OPERATE_NEXT, P_AGAIN, P_AGAIN_NEXT, P_OPERATE_CHECK, P_OPERATE_SEAT_NEXT,
 P_UPKEEP, P_ONES, P_TICKET, P_ADMIN_SAVE, P_DISCARD, P_SWAP, P_SWAP_NEXT, P_ROUND_END,
 P_END, P_DONE) = range(39)
# the rules between decisions that do more than move the loop on (_rules), and its seat where
# it needs none
(R_SKILL_DISPLAY, R_START_DISPLAY, R_REVEAL, R_ORDER, R_DRAW_DIE, R_CHECK, R_UPKEEP, R_DISCARD,
 R_REFILL, R_END) = range(10)
NOBODY = 0


@njit(inline="always")  # hot: docs/developers.md
def log_row(log, nlog, r, kind, p, move, follow, details) -> int:
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



@njit
def begin(st, tab, n_players, mode, seed, game_index, rng, check):
    """Deal game ``game_index`` of ``seed`` into ``st``; ``advance`` finds the first
    decision (the full game's keeps, else the starting tiles)."""
    seed_game(rng, seed, game_index)
    R.setup(st, tab, n_players, mode, rng)
    for k in range(S.FLOW_SIZE):
        st[S.FLOW + k] = 0
    st[S.F_KIND] = RULES
    st[S.F_PC] = P_KEEP if tab[TB.MODULES + mode] == 1 else P_START
    st[S.F_CHECK] = 1 if check else 0
    st[S.F_MOVE] = -1
    st[S.F_FOLLOW] = -1


@njit(inline="always")
def _next_seat(st, i, n, again, then):
    """The seat loop goes on at ``again`` with the next seat, or at ``then`` (the index back
    to 0) after the last."""
    st[S.F_I] = i + 1 if i + 1 < n else 0
    st[S.F_PC] = again if i + 1 < n else then


@njit(inline="always")
def _decide_at(st, kind, p, then, log_round):
    """Stop at a ``kind`` decision of seat p; the loop goes on at ``then`` after it."""
    st[S.F_KIND] = kind
    st[S.F_WHO] = p
    st[S.F_PC] = then
    st[S.F_LOG_ROUND] = log_round


@njit
def _rules(st, tab, rng, ctx, details, log, nlog, what, p):
    """What the rules do between decisions beyond moving the loop on (``what``: R_*); a call
    of its own, so the inlined ``advance`` stays small. Returns the log length."""
    n = st[S.N_PLAYERS]
    r = st[S.ROUND]
    if what == R_SKILL_DISPLAY:  # after the keeps (rules.md 41)
        R.lay_skill_display(st, tab, rng, True)
    elif what == R_START_DISPLAY:
        R.lay_start_display(st, tab, rng)
    elif what == R_REVEAL:  # the planning's picks, revealed together
        for q in range(n):
            M.apply(st, tab, q, M.K_STAFF, st[S.F_PICKS + q], ctx)
            for k in range(3):
                details[k] = -1
            nlog = log_row(log, nlog, r, M.K_STAFF, q, st[S.F_PICKS + q], 0, details)
    elif what == R_ORDER:
        R.set_turn_order(st, tab)
        for q in range(n):
            st[S.seat(q) + S.MONEY] += R.income(st, tab, q)
    elif what == R_DRAW_DIE:
        R.bonus_draw_die(st, tab, p, rng)
    elif what == R_CHECK:
        if st[S.F_CHECK] and st[S.F_BAD] == 0:
            st[S.F_BAD] = check_state(st, tab)
    elif what == R_UPKEEP:
        for q in range(n):
            W.score_round_stars(st, tab, q)  # reads the cubes: first
            R.score_cubes(st, tab, q)
        if st[S.OBJECTIVE + r] >= 0:
            R.score_objective(st, tab, st[S.OBJECTIVE + r])
    elif what == R_DISCARD:  # the seat's dice still at 1 leave the park
        k = R.ones(st, p, ctx[1:])
        for j in range(k):
            R.discard_die(st, ctx[1 + j])
    elif what == R_REFILL:
        R.rotate_staff(st)
        R.reset_round(st)
        R.refill_monorails(st, tab, rng)
        R.refill_display(st, tab, r + 1)
        if tab[TB.MODULES + st[S.MODE]] == 1:
            R.lay_skill_display(st, tab, rng, False)
    else:  # R_END
        R.end_money(st, tab)
        st[S.OVER] = 1
    return nlog


@njit(inline="always")  # once per decision of the game loop; no return inside its loop
def advance(st, tab, rng, ctx, details, log, nlog):
    """Run the rules up to the next decision: (decision, seat, log length), the decision
    OVER at the end. The loop of play.play_game before the step interface, resumable at
    every step."""
    n = st[S.N_PLAYERS]
    while st[S.F_KIND] == RULES:
        pc = st[S.F_PC]
        r = st[S.ROUND]
        i = st[S.F_I]
        p = st[S.ORDER + i] if i < n else 0  # in turn order
        move = st[S.F_MOVE]
        if pc == P_KEEP:  # the full game: administrators kept, then skills, in turn order
            _decide_at(st, M.K_ADMIN if st[S.F_J] == 0 else M.K_SKILL, p, P_KEEP_NEXT, -1)
        elif pc == P_KEEP_NEXT:
            st[S.F_PC] = P_KEEP
            st[S.F_I] = i + 1
            if i + 1 == n:
                st[S.F_I] = 0
                st[S.F_J] += 1
                if st[S.F_J] == 2:
                    nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_SKILL_DISPLAY, NOBODY)
                    st[S.F_PC] = P_START
        elif pc == P_START:
            _decide_at(st, M.K_START, p, P_START_NEXT, -1)
        elif pc == P_START_NEXT:
            _next_seat(st, i, n, P_START, P_STAFF)
            if i + 1 == n:
                nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_START_DISPLAY, NOBODY)
                st[S.ROUND] = 0
        elif pc == P_STAFF:  # planning: secret picks, seat by seat
            _decide_at(st, M.K_STAFF, i, P_STAFF_NEXT, r)
        elif pc == P_STAFF_NEXT:
            _next_seat(st, i, n, P_STAFF, P_LOWER)
            if i + 1 == n:
                nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_REVEAL, NOBODY)
        elif pc == P_LOWER:  # after the reveal, seeing every sum (rules.md 34), seat by seat
            if i == n:
                nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_ORDER, NOBODY)
                st[S.F_I] = 0
                st[S.F_PC] = P_WELCOME
            elif R.has_admin(st, tab, i, R.A_LOWER_SUM):
                _decide_at(st, M.K_LOWER, i, P_LOWER_NEXT, r)
            else:
                st[S.F_I] = i + 1
        elif pc == P_LOWER_NEXT:
            st[S.F_I] = i + 1
            st[S.F_PC] = P_LOWER
        elif pc == P_WELCOME:
            _decide_at(st, M.K_MONORAIL, p, P_REARRANGE, r)
        elif pc == P_REARRANGE:
            if R.has_admin(st, tab, p, R.A_REARRANGE):
                _decide_at(st, M.K_REARRANGE, p, P_CONCIERGE_START, r)
            else:
                st[S.F_PC] = P_CONCIERGE_START
        elif pc == P_CONCIERGE_START:
            st[S.F_K] = 0
            st[S.F_N] = R.played(st, p, R.CONCIERGE)
            st[S.F_PC] = P_CONCIERGE
        elif pc == P_CONCIERGE:
            if st[S.F_K] < st[S.F_N]:
                st[S.F_K] += 1
                _decide_at(st, M.K_CONCIERGE, p, P_CONCIERGE, r)
            else:
                _next_seat(st, i, n, P_WELCOME, P_LEFTOVER)
        elif pc == P_LEFTOVER:  # after every monorail and concierge (rules.md 32)
            if R.has_admin(st, tab, p, R.A_LEFTOVER):
                _decide_at(st, M.K_LEFTOVER, p, P_LEFTOVER_NEXT, r)
            else:
                st[S.F_PC] = P_LEFTOVER_NEXT
        elif pc == P_LEFTOVER_NEXT:
            _next_seat(st, i, n, P_LEFTOVER, P_EXPAND)
        elif pc == P_EXPAND:
            _decide_at(st, M.K_BUILD, p, P_BONUS, r)
        elif pc == P_BONUS:  # the amenity bonus of the build
            bonus = st[S.F_FOLLOW]
            if bonus == R.BONUS_SET_PIPS:
                _decide_at(st, M.K_BONUS_PIPS, p, P_MASCOT, r)
            elif bonus == R.BONUS_DRAW_DIE:
                nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_DRAW_DIE, p)
                st[S.F_PC] = P_MASCOT
            elif bonus == R.BONUS_FREE_BUILD:
                _decide_at(st, M.K_FREE_BUILD, p, P_MASCOT, r)
            else:
                st[S.F_PC] = P_MASCOT
        elif pc == P_MASCOT:
            _decide_at(st, M.K_MASCOT, p, P_MASCOT_NEXT, r)
        elif pc == P_MASCOT_NEXT:
            if (move > 0 and tab[TB.MODULES + st[S.MODE]] == 1
                    and st[S.SKILL_DISPLAY_N] > 0):
                _decide_at(st, M.K_TAKE_SKILL, p, P_EXPAND_NEXT, r)
            else:
                st[S.F_PC] = P_EXPAND_NEXT
        elif pc == P_EXPAND_NEXT:
            _next_seat(st, i, n, P_EXPAND, P_IMPROVE)
        elif pc == P_IMPROVE:
            st[S.F_K] = 0
            _decide_at(st, M.K_MAP, p, P_UPGRADE, r)
        elif pc == P_UPGRADE:  # removals and installs, until a pass
            if st[S.F_K] < MAX_UPGRADES:
                st[S.F_K] += 1
                _decide_at(st, M.K_UPGRADE, p, P_UPGRADE_NEXT, r)
            else:
                st[S.F_PC] = P_IMPROVE_NEXT
        elif pc == P_UPGRADE_NEXT:
            st[S.F_PC] = P_IMPROVE_NEXT if move <= 0 else P_UPGRADE
        elif pc == P_IMPROVE_NEXT:
            st[S.F_K] = 0
            _next_seat(st, i, n, P_IMPROVE, P_OPERATE)
            if i + 1 == n:
                nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_CHECK, NOBODY)
        elif pc == P_OPERATE:
            if st[S.F_K] < MAX_OPERATE_STEPS:
                st[S.F_K] += 1
                _decide_at(st, M.K_OPERATE, p, P_OPERATE_NEXT, r)
            else:
                st[S.F_PC] = P_OPERATE_SEAT_NEXT
        elif pc == P_OPERATE_NEXT:
            movable = st[S.F_FOLLOW]
            t = M.decode(move)[0] if move > 0 else -1
            if move <= 0:
                st[S.F_PC] = P_OPERATE_SEAT_NEXT
            elif t == M.T_ACT and movable > 0:
                _decide_at(st, M.K_MOVE, p, P_OPERATE_CHECK, r)
            elif t == M.T_SKILL and movable > 0:  # the push's or pull's next moves
                st[S.F_PC] = P_AGAIN
            else:
                st[S.F_PC] = P_OPERATE_CHECK
        elif pc == P_AGAIN:
            if st[S.seat(p) + S.AGAIN_LEFT] > 0:
                _decide_at(st, M.K_AGAIN, p, P_AGAIN_NEXT, r)
            else:
                st[S.F_PC] = P_OPERATE_CHECK
        elif pc == P_AGAIN_NEXT:
            if move <= 0:
                st[S.seat(p) + S.AGAIN_LEFT] = 0
            st[S.F_PC] = P_AGAIN
        elif pc == P_OPERATE_CHECK:
            nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_CHECK, NOBODY)
            st[S.F_PC] = P_OPERATE
        elif pc == P_OPERATE_SEAT_NEXT:
            st[S.F_K] = 0
            _next_seat(st, i, n, P_OPERATE, P_UPKEEP)
        elif pc == P_UPKEEP:
            nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_UPKEEP, NOBODY)
            st[S.F_PC] = P_ONES if r < st[S.ROUNDS] - 1 else P_ROUND_END
        elif pc == P_ONES:  # upkeep 4: the seat's dice at 1 leave; ticket agents save first
            st[S.F_K] = 0
            st[S.F_N] = R.played(st, p, R.TICKET_AGENT)
            st[S.F_PC] = P_TICKET
        elif pc == P_TICKET:
            st[S.F_PC] = P_ADMIN_SAVE
            if st[S.F_K] < st[S.F_N]:
                st[S.F_K] += 1
                ctx[0] = R.ones(st, p, ctx[1:])
                if ctx[0] > 0:
                    _decide_at(st, M.K_SAVE, p, P_TICKET, r)
        elif pc == P_ADMIN_SAVE:  # one more, of its colour (rules.md 29)
            st[S.F_PC] = P_DISCARD
            if R.has_admin(st, tab, p, R.A_SAVE):
                ctx[0] = W.leaving_of_colour(st, p, W.admin_colour(st, tab, p), ctx[1:])
                if ctx[0] > 0:
                    _decide_at(st, M.K_ADMIN_SAVE, p, P_DISCARD, r)
        elif pc == P_DISCARD:
            nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_DISCARD, p)
            _next_seat(st, i, n, P_ONES, P_SWAP)
        elif pc == P_SWAP:
            if R.has_admin(st, tab, p, R.A_SWAP):
                _decide_at(st, M.K_SWAP, p, P_SWAP_NEXT, r)
            else:
                st[S.F_PC] = P_SWAP_NEXT
        elif pc == P_SWAP_NEXT:
            _next_seat(st, i, n, P_SWAP, P_ROUND_END)
            if i + 1 == n:
                nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_REFILL, NOBODY)
        elif pc == P_ROUND_END:
            nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_CHECK, NOBODY)
            st[S.F_I] = 0
            if r + 1 < st[S.ROUNDS]:
                st[S.ROUND] = r + 1
                st[S.F_PC] = P_STAFF
            else:
                st[S.F_PC] = P_END
        elif pc == P_END:
            nlog = _rules(st, tab, rng, ctx, details, log, nlog, R_END, NOBODY)
            st[S.F_KIND] = OVER
            st[S.F_PC] = P_DONE
    return st[S.F_KIND], st[S.F_WHO], nlog


@njit(inline="always")  # once per decision of the game loop
def apply(st, tab, move, ctx, details, log, nlog):
    """Play ``move`` at the pending decision (-1: the seat had no legal move, nothing is
    played); returns the log length. The planning's pick is kept secret until every seat
    has picked (the reveal logs them)."""
    kind = st[S.F_KIND]
    p = st[S.F_WHO]
    st[S.F_KIND] = RULES
    st[S.F_MOVE] = move
    st[S.F_FOLLOW] = -1
    if kind == M.K_STAFF:
        st[S.F_PICKS + p] = move
        return nlog
    if move < 0:
        return nlog
    if log.shape[0]:
        _details(st, tab, p, kind, move, ctx, details)
    follow = M.apply(st, tab, p, kind, move, ctx)
    st[S.F_FOLLOW] = follow
    return log_row(log, nlog, st[S.F_LOG_ROUND], kind, p, move, follow, details)


@njit
def standing(st, tab, dice_after, wins, ranks, ones) -> None:
    """Win shares and ranks (rules.standing) with the dice in the park counted after the 1s
    leave (a ticket agent played in the last round saves one, the discard-saving
    administrator one of its colour); ``ones``: a buffer of S.DICE."""
    for p in range(st[S.N_PLAYERS]):
        k = R.ones(st, p, ones)
        saves = R.played(st, p, R.TICKET_AGENT)
        if R.has_admin(st, tab, p, R.A_SAVE) and W.leaving_of_colour(
                st, p, W.admin_colour(st, tab, p), ones) > 0:
            saves += 1  # the ticket agents save the others first (rules.md 29)
        dice_after[p] = R.objective_measure(st, tab, p, 1) - k + min(k, saves)
    R.standing(st, dice_after, wins, ranks)


@njit
def determinize(st, tab, p, rng, pool) -> None:
    """Redraw in ``st`` what seat p cannot see, from what it can (a search bot's
    determinization, rules.md 49); ``pool``: a buffer of 64.

    - Stack A's order, pooled with the other seats' dealt starting tiles not yet kept (which
      tiles are left is public, not where they are); stack B's order.
    - The skill deck's order, pooled with the other seats' dealt skills not yet kept.
    - The other seats' dealt administrators not yet kept, from those seat p has not seen.

    A pair once kept stays as dealt: no rule reads the card not kept (it went back to the
    stack or the deck, redrawn there, or to the box).

    The bag's make-up is public (each colour's dice less those in sight) and stays; the dice
    still to be drawn are drawn by the rules from the stream they are given. The planning's
    secret picks are played again by the search (search.py), with its rollout bot."""
    n = st[S.N_PLAYERS]
    k = _pool_hidden(st, p, pool, S.STACK_A_N, S.STACK_A, S.KEPT, S.DEALT)
    redraw(rng, pool, 0, k)
    _deal_pool(st, p, pool, S.STACK_A_N, S.STACK_A, S.KEPT, S.DEALT)
    redraw(rng, st, S.STACK_B, st[S.STACK_B_N])
    k = _pool_hidden(st, p, pool, S.SKILL_DECK_N, S.SKILL_DECK, S.SKILL_KEPT, S.SKILL_DEALT)
    redraw(rng, pool, 0, k)
    _deal_pool(st, p, pool, S.SKILL_DECK_N, S.SKILL_DECK, S.SKILL_KEPT, S.SKILL_DEALT)
    k = 0
    for a in range(tab[R.P_ADMINISTRATORS]):  # the administrators seat p has not seen
        seen = st[S.seat(p) + S.ADMIN_DEALT] == a or st[S.seat(p) + S.ADMIN_DEALT + 1] == a
        for q in range(n):
            seen = seen or (q != p and st[S.seat(q) + S.ADMIN] == a)
        if not seen:
            pool[k] = a
            k += 1
    shuffle(rng, pool, 0, k)
    k = 0
    for q in range(n):
        b = S.seat(q)
        if q != p and st[b + S.ADMIN_DEALT] >= 0 and st[b + S.ADMIN] < 0:
            for j in range(2):
                st[b + S.ADMIN_DEALT + j] = pool[k]
                k += 1


@njit
def _pool_hidden(st, p, pool, top, base, kept, dealt) -> int:
    """Copy a face-down pile and the other seats' dealt pairs of its cards not yet kept into
    ``pool``: how many."""
    k = 0
    for i in range(st[top]):
        pool[k] = st[base + i]
        k += 1
    for q in range(st[S.N_PLAYERS]):
        b = S.seat(q)
        if q != p and st[b + kept] < 0 and st[b + dealt] >= 0:
            for j in range(2):
                pool[k] = st[b + dealt + j]
                k += 1
    return k


@njit
def _deal_pool(st, p, pool, top, base, kept, dealt) -> None:
    """Deal ``pool`` back as _pool_hidden took it: the pairs not yet kept, then the pile."""
    k = 0
    for q in range(st[S.N_PLAYERS]):
        b = S.seat(q)
        if q != p and st[b + kept] < 0 and st[b + dealt] >= 0:
            for j in range(2):
                st[b + dealt + j] = pool[k]
                k += 1
    for i in range(st[top]):
        st[base + i] = pool[k]
        k += 1


@njit
def legal(st, tab, kind, p, moves, ctx, ws):
    """Seat p's legal moves at a ``kind`` decision, written into ``moves``: how many."""
    return M.legal_moves(st, tab, p, kind, ctx, moves, ws)


@njit
def features(st, tab, kind, p, moves, n, feats, buffers, ctx):
    """The feature row of each of the ``n`` moves, written into ``feats``: what a bot
    weighs, public information only."""
    F.move_features(st, tab, p, kind, moves, n, feats, buffers, ctx, F.FOOTPRINT_PATH)
