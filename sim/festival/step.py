"""The step interface: a game of Festival played one decision at a time.

The state holds where the game stands (``state.DECISION``): a seat's starting objective
side to keep, a seat's turn to play, the rules to run after a move, or the end. Three
functions drive it, the same for the batch kernel, ``replay`` and a game driven from Python
(``sim.core.game.Game``):

- ``begin``: deal game ``game_index`` of ``seed``; the first decision is seat 0's side;
- ``advance``: run the rules up to the next decision and return it (decision, seat);
- ``apply``: play a move of that decision.

``legal`` and ``features`` are what a bot sees at a decision (play.py decides with them).
Every random number a game draws comes from its own stream (``rng``): the deal's in
``begin``, and a bot's two numbers per decision in ``play.decide``.
"""

from numba import njit

from sim.core.rng import redraw, seed_game
from sim.festival import features as F
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival import tables as TB

TURN = F.KIND_TURN  # a seat's turn: moves are rules.MOVE_* codes
START = F.KIND_START  # a seat keeps a side of its starting objective: moves are card indices
RULES = 2  # a move was played: advance runs the end of the turn
OVER = 3  # the game is over
DECISIONS = {TURN: "turn", START: "start_side"}  # the decisions a seat takes, by kind


@njit
def begin(st, tab, n_players, seed, game_index, rng, log):
    """Deal game ``game_index`` of ``seed`` into ``st``; returns the log length."""
    seed_game(rng, seed, game_index)
    R.setup(st, tab, n_players, rng)
    nlog = 0
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        nlog = R.log_event(log, nlog, R.LOG_CROWD_SETUP, -1, k, st[S.CROWD_COND + k], 0, 0)
    for p in range(n_players):
        b = S.SEAT + p * S.SEAT_SIZE
        nlog = R.log_event(log, nlog, R.LOG_BOARD, p, st[b + S.COLOUR], st[b + S.DESIGN], 0, 0)
    st[S.CURRENT] = 0
    st[S.DECISION] = START
    return nlog


@njit(inline="always")  # once per decision of the game loop
def advance(st, tab, log, nlog):
    """Run the rules up to the next decision: (decision, seat, log length), the decision
    OVER at the end. After a turn's move: complete objectives, claim crowd-pleasers, check
    the end and pass the turn on."""
    if st[S.DECISION] == RULES:
        p = st[S.CURRENT]
        nlog = R.end_of_turn(st, tab, p, st[S.PLACED], log, nlog)
        nlog = R.advance(st, tab, p, log, nlog)
        st[S.DECISION] = OVER if st[S.OVER] else TURN
    return st[S.DECISION], st[S.CURRENT], nlog


@njit(inline="always")  # once per decision of the game loop
def apply(st, tab, move, log, nlog):
    """Play ``move`` at the pending decision (a card index for START, a move code for
    TURN); returns the log length. The caller makes sure it is legal."""
    p = st[S.CURRENT]
    if st[S.DECISION] == START:
        R.choose_start_side(st, tab, p, move)
        nlog = R.log_event(log, nlog, R.LOG_START, p, move, 0, 0, 0)
        if p + 1 < st[S.N_PLAYERS]:
            st[S.CURRENT] = p + 1
        else:
            st[S.CURRENT] = 0
            st[S.DECISION] = TURN
        return nlog
    nlog, placed = R.apply_move(st, tab, p, move, log, nlog)
    st[S.PLACED] = placed
    st[S.DECISION] = RULES
    return nlog


@njit
def determinize(st, tab, p, rng, pool):
    """Redraw in ``st`` what seat p cannot see, from what it can (a search bot's
    determinization, rules.md 16): each draw stack's tiles below its top, within the
    stack (its make-up is public: its fronts less those taken), and the objective cards below
    the piles' tops, across the piles (which cards are left is public, not in which pile).
    ``pool``: a buffer of S.PILES * S.PILE_CAP."""
    for s in range(S.MAX_PLAYERS):
        n = st[S.STACK_N + s]
        if n > 2:
            redraw(rng, st, S.STACK + s * S.STACK_CAP, n - 1)
    k = 0
    for q in range(S.PILES):
        for i in range(st[S.PILE_N + q] - 1):
            pool[k] = st[S.PILE + q * S.PILE_CAP + i]
            k += 1
    redraw(rng, pool, 0, k)
    k = 0
    for q in range(S.PILES):
        for i in range(st[S.PILE_N + q] - 1):
            st[S.PILE + q * S.PILE_CAP + i] = pool[k]
            k += 1


@njit
def legal(st, tab, decision, p, moves):
    """Seat p's legal moves at ``decision``, written into ``moves``: how many."""
    if decision == START:
        sides = TB.START_CARD + st[S.SEAT + p * S.SEAT_SIZE + S.COLOUR] * 2
        moves[0] = tab[sides]
        moves[1] = tab[sides + 1]
        return 2
    return R.legal_moves(st, tab, p, moves)


@njit
def features(st, tab, decision, p, moves, n, scratch):
    """The feature row of each of the ``n`` moves, written into ``scratch[1]`` (a bot's
    scratch, play.new_scratch): what a bot weighs, public information only."""
    if decision == START:
        F.start_features(st, tab, p, moves[0], moves[1], scratch[1])
    else:
        F.turn_features(st, tab, p, moves, n, scratch[1], scratch[3], scratch[4])
