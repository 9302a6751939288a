"""The step interface: a game of The Magnificent played one decision at a time.

The game loop of the rules (setup picks, rounds of turns, each turn's die, card, colour,
boosts, action and its steps, the posters any step brings, the draft, the scoring, the gem
fill) is a machine whose position lives in the state (``state.F_*``): the pending decision,
the point of the loop to go on from after it, the loop counters and what the last move left.
Three functions drive it, the same for the batch kernel, ``replay`` and a game driven from
Python (``sim.core.game.Game``):

- ``begin``: deal game ``game_index`` of ``seed``, up to the first decision;
- ``advance``: run the rules up to the next decision and return it (decision, seat);
- ``apply``: play a move of that decision (or -1: the seat had no legal move).

Every random number a game draws comes from its own stream: the deal's, the rules' between
decisions (``advance``: the setup offer's end, a new round) and a bot's two per decision.
"""

from numba import njit

from sim.core.rng import redraw, seed_game
from sim.magnificent import features as F
from sim.magnificent import moves as M
from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent.invariants import check_state

RULES = len(M.KINDS)  # a move was played: advance goes on with the rules
OVER = RULES + 1  # the game is over
DECISIONS = dict(enumerate(M.KINDS))  # the decisions a seat takes, by kind
NOBODY = 0  # _rules' seat where it needs none
MAX_BOOSTS = 16  # boost steps in a turn: more than gems, a bonus and every trainer
BUILD, TRAVEL, PERFORM = range(3)  # what the ACTION decision's apply returns

# the points of the game loop (state.F_PC): where advance goes on from
(P_SETUP, P_SETUP_NEXT, P_ROUND, P_TURN, P_CARD, P_COLOUR, P_BOOST, P_BOOST_NEXT, P_ACTION,
 P_ACTION_NEXT, P_BUILD, P_TENT, P_TENT_NEXT, P_SHOW, P_SHOW_NEXT, P_REARRANGE,
 P_REARRANGE_NEXT, P_END_TURN, P_ROUND_END, P_DRAFT, P_DRAFT_NEXT, P_SCORE, P_SCORE_NEXT,
 P_NEXT_ROUND, P_FILL, P_FILL_NEXT, P_END, P_POSTERS, P_POSTER_NEXT, P_DONE) = range(30)


@njit(inline="always")
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
def _details(st, tab, p, kind, move, ctx, details) -> None:
    """What the log needs that the move alone does not say, read before it is applied."""
    b = S.seat(p)
    details[:] = -1
    if kind == M.K_TRAINER_SETUP:
        details[0] = st[S.OFFER + move]
    elif kind == M.K_PLACE:
        details[0] = ctx[0]
    elif kind == M.K_DRAFT:
        details[0] = st[S.DISPLAY_MASTER + move]
        details[1] = st[S.DISPLAY_TRAINER + move]
    elif kind == M.K_SCORE:
        details[0] = st[b + S.HAND + move]
        details[1] = R.master_value(st, tab, p, details[0])
    elif kind == M.K_SHOW and move != M.STOP:
        details[0] = st[b + S.POSTER + move - 1]
        details[1] = st[b + S.TENT + move - 1]
    elif kind == M.K_TENT_SPACE:
        details[0] = st[b + S.TENT_DUE]
    elif kind == M.K_POSTER_SPACE and move != M.DISCARD_NEW:
        details[0] = st[b + S.NEW_POSTER]
        details[1] = st[b + S.POSTER + move]
    elif kind == M.K_ACTION:
        details[0] = st[b + S.POWER]
        details[1] = st[b + S.COLOUR]
    elif kind == M.K_CARD:
        details[0] = st[b + S.TAKEN]
        details[1] = st[b + S.HAND + move]
    elif kind == M.K_BOOST:  # the card whose top bonus is used, or the trainer tile
        if move == M.B_BONUS:
            details[0] = st[b + S.HAND + st[b + S.SLOT]]
        elif M.B_COPY <= move < M.B_TILE:
            details[0] = st[b + S.HAND + move - M.B_COPY]
        elif M.B_TILE <= move < M.B_SPACE:
            details[1] = st[b + S.TRAINERS + move - M.B_TILE]


@njit
def begin(st, tab, n_players, side, seed, game_index, rng, tmp, check):
    """Deal game ``game_index`` of ``seed`` into ``st``; the first decision is the last
    seat's starting trainer tile (reverse turn order, the seed) and ``advance`` finds it."""
    seed_game(rng, seed, game_index)
    R.setup(st, tab, n_players, side, rng, tmp)
    for k in range(S.FLOW_SIZE):
        st[S.FLOW + k] = 0
    st[S.F_KIND] = RULES
    st[S.F_PC] = P_SETUP
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


@njit(inline="always")
def _check(st, tab):
    if st[S.F_CHECK] and st[S.F_BAD] == 0:
        st[S.F_BAD] = check_state(st, tab)


@njit(inline="always")
def _posters(st, b, then):
    """Go to the posters' steps of the seat at offset ``b``, which return to ``then`` (at
    once when it has none due)."""
    if st[b + S.POSTERS_DUE] > 0:
        st[S.F_RET] = then
        st[S.F_PC] = P_POSTERS
    else:
        st[S.F_PC] = then


@njit
def _rules(st, tab, rng, order, pc, seat):
    """What the rules do between decisions beyond moving the loop on: the setup offer's
    end, a turn's end, the round's end (dice paid, the draft order), a new round, the end
    scoring; a checked game's invariants after each. A call of its own: it keeps the
    inlined ``advance`` small (a larger game loop made the greedy bot's features 10%
    slower)."""
    n = st[S.N_PLAYERS]
    r = st[S.ROUND]
    if pc == P_SETUP_NEXT:
        R.end_setup_offer(st, tab, rng)
    elif pc == P_END_TURN:
        R.end_turn(st, seat)
        _check(st, tab)
    elif pc == P_ROUND_END:
        for p in range(n):
            R.pay_dice(st, tab, p, r)
        R.draft_order(st, order)
        for k in range(n):
            st[S.F_ORDER + k] = order[k]
    elif pc == P_NEXT_ROUND:
        if r < tab[R.P_ROUNDS] - 1:
            R.next_round(st, tab, r, rng)
        _check(st, tab)
    else:  # P_END
        R.end_scoring(st, tab)
        _check(st, tab)


@njit(inline="always")  # once per decision of the game loop; no return inside its loop
def advance(st, tab, rng, order):
    """Run the rules up to the next decision: (decision, seat), the decision OVER at the
    end. The loop of play.play_game before the step interface, resumable at every step.
    ``order``: a work buffer of MAX_PLAYERS (the draft order, kept in the state)."""
    n = st[S.N_PLAYERS]
    rounds = tab[R.P_ROUNDS]
    while st[S.F_KIND] == RULES:
        pc = st[S.F_PC]
        r = st[S.ROUND]
        i = st[S.F_I]
        turn_seat = st[S.START] + i  # (START + i) mod n, without a division
        if turn_seat >= n:
            turn_seat -= n
        move = st[S.F_MOVE]
        b = S.seat(turn_seat)
        if pc == P_SETUP:  # the starting trainer tiles, in reverse turn order (the seed)
            seat = n - 1 - i if tab[R.P_PICK_REVERSE] else i
            _decide_at(st, M.K_TRAINER_SETUP, seat, P_SETUP_NEXT, -1)
        elif pc == P_SETUP_NEXT:
            _next_seat(st, i, n, P_SETUP, P_TURN)
            if i + 1 == n:
                _rules(st, tab, rng, order, pc, NOBODY)
                st[S.F_T] = 0
                st[S.ROUND] = 0
        elif pc == P_ROUND:
            st[S.ROUND] = r + 1
            st[S.F_I] = 0
            st[S.F_T] = 0
            st[S.F_PC] = P_TURN
        elif pc == P_TURN:
            st[S.F_K] = 0
            _decide_at(st, M.K_DIE, turn_seat, P_CARD, r)
        elif pc == P_CARD:
            _decide_at(st, M.K_CARD, turn_seat, P_COLOUR, r)
        elif pc == P_COLOUR:
            if st[b + S.TAKEN] // 8 == S.CLEAR:
                _decide_at(st, M.K_COLOUR, turn_seat, P_BOOST, r)
            else:
                st[S.F_PC] = P_BOOST
        elif pc == P_BOOST:
            if st[S.F_K] < MAX_BOOSTS:
                st[S.F_K] += 1
                _decide_at(st, M.K_BOOST, turn_seat, P_BOOST_NEXT, r)
            else:
                st[S.F_PC] = P_ACTION
        elif pc == P_BOOST_NEXT:  # the boost's posters, then the next boost or the action
            _posters(st, b, P_ACTION if move == M.STOP else P_BOOST)
        elif pc == P_ACTION:
            st[S.F_K] = 0
            _decide_at(st, M.K_ACTION, turn_seat, P_ACTION_NEXT, r)
        elif pc == P_ACTION_NEXT:
            follow = st[S.F_FOLLOW]
            if follow == BUILD:
                st[S.F_PC] = P_BUILD
            elif follow == TRAVEL:
                _posters(st, b, P_TENT)
            else:
                st[S.F_PC] = P_SHOW
        elif pc == P_BUILD:  # each tile of the build, large ones first, and its posters
            t = R.pending_tile(st, tab, turn_seat)
            if t < 0:
                st[S.F_PC] = P_END_TURN
            else:
                st[S.F_TILE] = t
                _decide_at(st, M.K_PLACE, turn_seat, P_TENT_NEXT, r)
                st[S.F_RET] = P_BUILD  # P_TENT_NEXT: the posters, then back here
        elif pc == P_TENT:
            if st[b + S.TENT_DUE] >= 0:
                _decide_at(st, M.K_TENT_SPACE, turn_seat, P_TENT_NEXT, r)
                st[S.F_RET] = P_END_TURN
            else:
                st[S.F_PC] = P_END_TURN
        elif pc == P_TENT_NEXT:  # after a tile, or the tent (its own bonus may be a poster,
            # rules.md 28): the posters they bring
            _posters(st, b, st[S.F_RET])
        elif pc == P_SHOW:
            if st[b + S.SHOWS_LEFT] > 0:
                _decide_at(st, M.K_SHOW, turn_seat, P_SHOW_NEXT, r)
            else:
                st[S.F_PC] = P_REARRANGE
        elif pc == P_SHOW_NEXT:
            st[S.F_PC] = P_REARRANGE if move == M.STOP else P_SHOW
        elif pc == P_REARRANGE:
            if st[S.F_K] < S.POSTER_SPACES:
                st[S.F_K] += 1
                _decide_at(st, M.K_REARRANGE, turn_seat, P_REARRANGE_NEXT, r)
            else:
                st[S.F_PC] = P_END_TURN
        elif pc == P_REARRANGE_NEXT:
            st[S.F_PC] = P_END_TURN if move == M.STOP else P_REARRANGE
        elif pc == P_END_TURN:
            _rules(st, tab, rng, order, pc, turn_seat)
            st[S.F_I] = i + 1
            st[S.F_PC] = P_TURN
            if i + 1 == n:
                st[S.TURN] += 1
                st[S.F_I] = 0
                st[S.F_T] += 1
                if st[S.F_T] == tab[R.P_TURNS]:
                    st[S.F_PC] = P_ROUND_END
        elif pc == P_ROUND_END:
            _rules(st, tab, rng, order, pc, NOBODY)
            st[S.F_PC] = P_DRAFT
        elif pc == P_DRAFT:
            _decide_at(st, M.K_DRAFT, st[S.F_ORDER + i], P_DRAFT_NEXT, r)
        elif pc == P_DRAFT_NEXT:
            _next_seat(st, i, n, P_DRAFT, P_SCORE)
        elif pc == P_SCORE:
            _decide_at(st, M.K_SCORE, i, P_SCORE_NEXT, r)
        elif pc == P_SCORE_NEXT:
            _next_seat(st, i, n, P_SCORE, P_NEXT_ROUND)
        elif pc == P_NEXT_ROUND:
            _rules(st, tab, rng, order, pc, NOBODY)
            st[S.F_PC] = P_ROUND if r + 1 < rounds else P_FILL
            st[S.F_K] = 0
        elif pc == P_FILL:  # the gem fill (rules.md 9), in turn order
            if i < n and st[S.F_K] < S.MAX_PERF:
                st[S.F_K] += 1
                _decide_at(st, M.K_FILL, turn_seat, P_FILL_NEXT, rounds)
            elif i + 1 < n:
                st[S.F_I] = i + 1
                st[S.F_K] = 0
            else:
                st[S.F_PC] = P_END
        elif pc == P_FILL_NEXT:
            if move == M.STOP:
                st[S.F_I] = i + 1
                st[S.F_K] = 0
            st[S.F_PC] = P_FILL if move != M.STOP or i + 1 < n else P_END
        elif pc == P_END:
            _rules(st, tab, rng, order, pc, NOBODY)
            st[S.OVER] = 1
            st[S.F_KIND] = OVER
            st[S.F_PC] = P_DONE
        elif pc == P_POSTERS:  # the posters seat p is due: each from the deck or the display
            if st[b + S.POSTERS_DUE] > 0 and not R.posters_left(st):  # none left (rules.md 7)
                st[b + S.POSTERS_DUE] = 0
            if st[b + S.POSTERS_DUE] > 0:
                _decide_at(st, M.K_POSTER, turn_seat, P_POSTER_NEXT, r)
            else:
                st[S.F_PC] = st[S.F_RET]
        elif pc == P_POSTER_NEXT:  # then its space
            if st[b + S.NEW_POSTER] >= 0:
                _decide_at(st, M.K_POSTER_SPACE, turn_seat, P_POSTERS, r)
            else:
                st[S.F_PC] = P_POSTERS
    return st[S.F_KIND], st[S.F_WHO]


@njit(inline="always")  # once per decision of the game loop
def apply(st, tab, move, ctx, details, log, nlog):
    """Play ``move`` at the pending decision (-1: the seat had no legal move, nothing is
    played); returns the log length. ``ctx``: the moves' context buffer, ``details`` a log
    row's (play.new_scratch's)."""
    kind = st[S.F_KIND]
    p = st[S.F_WHO]
    st[S.F_KIND] = RULES
    st[S.F_MOVE] = move
    st[S.F_FOLLOW] = -1
    if move < 0:
        return nlog
    ctx[0] = st[S.F_TILE]
    if log.shape[0]:
        _details(st, tab, p, kind, move, ctx, details)
    follow = M.apply(st, tab, p, kind, move, ctx)
    if log.shape[0] and kind == M.K_POSTER:
        details[0] = st[S.seat(p) + S.NEW_POSTER]  # known once taken
    st[S.F_FOLLOW] = follow
    return log_row(log, nlog, st[S.F_LOG_ROUND], kind, p, move, follow, details)


@njit
def determinize(st, tab, p, rng):
    """Redraw in ``st`` what seat p cannot see, from what it can (a search bot's
    determinization, rules.md 37): the order of the master card, trainer tile and poster
    decks. Each deck's make-up is public (its cards less those seen); the dice to come are
    drawn by the rules from the stream they are given."""
    for top, base in ((S.MASTER_DECK_N, S.MASTER_DECK), (S.TRAINER_DECK_N, S.TRAINER_DECK),
                      (S.POSTER_DECK_N, S.POSTER_DECK)):
        redraw(rng, st, base, st[top])


@njit
def legal(st, tab, kind, p, moves, scratch):
    """Seat p's legal moves at a ``kind`` decision, written into ``moves``: how many."""
    ctx = scratch[4]
    ctx[0] = st[S.F_TILE]
    return M.legal_moves(st, tab, p, kind, ctx, moves)


@njit
def features(st, tab, kind, p, moves, n, scratch):
    """The feature row of each of the ``n`` moves, written into ``scratch[1]``: what a bot
    weighs, public information only."""
    ctx = scratch[4]
    ctx[0] = st[S.F_TILE]
    F.move_features(st, tab, p, kind, ctx, moves, n, scratch[1], scratch[3])
