"""The game loop: one game of The Magnificent, optionally logged.

Every decision draws two numbers from the game's stream whatever the bot, so the stream
does not depend on which bots play (common random numbers stay aligned). The batch kernel
and ``replay`` call the same function, so a replayed game is the simulated game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import seed_game, uniform
from sim.magnificent import features as F
from sim.magnificent import moves as M
from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent.invariants import check_state
from strategies.selectors import RANDOM, select, uniform_pick

LOG_COLS = 8  # round, decision kind, seat, move, what followed, three details (_details)
MAX_BOOSTS = 16  # boost steps in a turn: more than gems, a bonus and every trainer
BUILD, TRAVEL, PERFORM = range(3)  # what the ACTION decision's apply returns


@njit(cache=True)  # called from Python: an entry point
def bot_of(seat, game_index, n_players, rotate):
    """Bot slot playing ``seat``: with rotation, game i moves every bot i seats on."""
    return (seat + game_index) % n_players if rotate else seat


@njit(cache=True)  # called from Python: an entry point
def new_scratch():
    """A game lane's work buffers: moves, features, scores, the features' buffer, the
    context, a log row's details, setup's work buffer and the draft order."""
    return (np.zeros(M.MAX_MOVES, dtype=np.int64), np.zeros((M.MAX_MOVES, F.N_FEATURES)),
            np.zeros(M.MAX_MOVES), F.new_buffers(), M.new_workspace(),
            np.zeros(3, dtype=np.int64), np.zeros(R.TMP, dtype=np.int64),
            np.zeros(S.MAX_PLAYERS, dtype=np.int64))


@njit(inline="always")
def decide(st, tab, p, kind, ctx, bots, bot, rng, scratch) -> int:
    """Seat p's move at a ``kind`` decision, chosen by bot slot ``bot``; -1 when there is no
    legal move."""
    selectors, params, weights = bots
    moves, feats, scores, values = scratch[0], scratch[1], scratch[2], scratch[3]
    u1 = uniform(rng)
    u2 = uniform(rng)
    n = M.legal_moves(st, tab, p, kind, ctx, moves)
    if n == 0:
        return -1
    if selectors[bot] == RANDOM or n == 1:
        return moves[uniform_pick(n, u1)]
    F.move_features(st, tab, p, kind, ctx, moves, n, feats, values)
    return moves[select(selectors, params, weights, bot, kind, feats, scores, n, u1, u2)]


@njit(inline="always")
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


@njit(inline="always")
def _step(st, tab, p, kind, ctx, bots, bot, rng, scratch, log, nlog, r):
    """Decide and apply one move; (follow-up of apply, the move, new log length)."""
    move = decide(st, tab, p, kind, ctx, bots, bot, rng, scratch)
    if move < 0:
        return -1, move, nlog
    details = scratch[5]
    if log.shape[0]:
        _details(st, tab, p, kind, move, ctx, details)
    follow = M.apply(st, tab, p, kind, move, ctx)
    if log.shape[0] and kind == M.K_POSTER:
        details[0] = st[S.seat(p) + S.NEW_POSTER]  # known once taken
    return follow, move, _log(log, nlog, r, kind, p, move, follow, details)


@njit
def _posters(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r) -> int:
    """The posters seat p is due: each from the deck or the display, then its space."""
    b = S.seat(p)
    while st[b + S.POSTERS_DUE] > 0:
        if not R.posters_left(st):  # none left anywhere (rules.md 7)
            st[b + S.POSTERS_DUE] = 0
            break
        _, _, nlog = _step(st, tab, p, M.K_POSTER, ctx, bots, bot, rng, scratch, log, nlog, r)
        if st[b + S.NEW_POSTER] >= 0:
            _, _, nlog = _step(st, tab, p, M.K_POSTER_SPACE, ctx, bots, bot, rng, scratch, log,
                               nlog, r)
    return nlog


@njit
def play_turn(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r) -> int:
    """Seat p's turn: die, card, colour, boosts, action and its steps. Returns the log length."""
    b = S.seat(p)
    _, _, nlog = _step(st, tab, p, M.K_DIE, ctx, bots, bot, rng, scratch, log, nlog, r)
    _, _, nlog = _step(st, tab, p, M.K_CARD, ctx, bots, bot, rng, scratch, log, nlog, r)
    if st[b + S.TAKEN] // 8 == S.CLEAR:
        _, _, nlog = _step(st, tab, p, M.K_COLOUR, ctx, bots, bot, rng, scratch, log, nlog, r)
    for _ in range(MAX_BOOSTS):
        _, move, nlog = _step(st, tab, p, M.K_BOOST, ctx, bots, bot, rng, scratch, log, nlog, r)
        nlog = _posters(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r)
        if move == M.STOP:
            break
    action, _, nlog = _step(st, tab, p, M.K_ACTION, ctx, bots, bot, rng, scratch, log, nlog, r)
    if action == BUILD:
        while True:
            t = R.pending_tile(st, tab, p)
            if t < 0:
                break
            ctx[0] = t
            _, _, nlog = _step(st, tab, p, M.K_PLACE, ctx, bots, bot, rng, scratch, log, nlog,
                               r)
            nlog = _posters(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r)
    elif action == TRAVEL:
        nlog = _posters(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r)
        if st[b + S.TENT_DUE] >= 0:
            _, _, nlog = _step(st, tab, p, M.K_TENT_SPACE, ctx, bots, bot, rng, scratch, log,
                               nlog, r)
            # a tent space's own bonus may be a poster (rules.md 28)
            nlog = _posters(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r)
    else:
        while st[b + S.SHOWS_LEFT] > 0:
            _, move, nlog = _step(st, tab, p, M.K_SHOW, ctx, bots, bot, rng, scratch, log,
                                  nlog, r)
            if move == M.STOP:
                break
        for _ in range(S.POSTER_SPACES):
            _, move, nlog = _step(st, tab, p, M.K_REARRANGE, ctx, bots, bot, rng, scratch, log,
                                  nlog, r)
            if move == M.STOP:
                break
    R.end_turn(st, p)
    return nlog


@njit(cache=True, _nrt=False)  # called from Python (replay): an entry point
def play_game(tab, n_players, side, seed, game_index, bots, rotate, st, rng, scratch, log,
              check):
    """Play game ``game_index`` of ``seed`` to the end in ``st``. Returns (log length, first
    invariant violation code or 0; checked after every turn and round step when ``check``).

    Compiled without numba's reference counting (``_nrt=False``), as the other games': none
    of it allocates (buffers come in ``scratch``)."""
    bad = 0
    seed_game(rng, seed, game_index)
    R.setup(st, tab, n_players, side, rng, scratch[6])
    ctx = scratch[4]
    order = scratch[7]
    nlog = 0
    first = bot_of(0, game_index, n_players, rotate)
    for j in range(n_players):  # the starting trainer tiles, in reverse turn order (the seed)
        i = n_players - 1 - j if tab[R.P_PICK_REVERSE] else j
        _, _, nlog = _step(st, tab, i, M.K_TRAINER_SETUP, ctx, bots, (first + i) % n_players,
                           rng, scratch, log, nlog, -1)
    R.end_setup_offer(st, tab, rng)
    rounds = tab[R.P_ROUNDS]
    for r in range(rounds):
        st[S.ROUND] = r
        for _ in range(tab[R.P_TURNS]):
            for i in range(n_players):
                p = (st[S.START] + i) % n_players
                nlog = play_turn(st, tab, p, ctx, bots, (first + p) % n_players, rng, scratch,
                                 log, nlog, r)
                if check and bad == 0:
                    bad = check_state(st, tab)
            st[S.TURN] += 1
        for p in range(n_players):
            R.pay_dice(st, tab, p, r)
        R.draft_order(st, order)
        for i in range(n_players):
            p = order[i]
            _, _, nlog = _step(st, tab, p, M.K_DRAFT, ctx, bots, (first + p) % n_players, rng,
                               scratch, log, nlog, r)
        for p in range(n_players):
            _, _, nlog = _step(st, tab, p, M.K_SCORE, ctx, bots, (first + p) % n_players, rng,
                               scratch, log, nlog, r)
        if r < rounds - 1:
            R.next_round(st, tab, r, rng)
        if check and bad == 0:
            bad = check_state(st, tab)
    for i in range(n_players):  # the gem fill (rules.md 9), in turn order
        p = (st[S.START] + i) % n_players
        for _ in range(S.MAX_PERF):
            _, move, nlog = _step(st, tab, p, M.K_FILL, ctx, bots, (first + p) % n_players, rng,
                                  scratch, log, nlog, rounds)
            if move == M.STOP:
                break
    R.end_scoring(st, tab)
    if check and bad == 0:
        bad = check_state(st, tab)
    return nlog, bad


def new_buffers(log_rows: int = 0):
    """Per-game buffers for Python callers: state, rng, scratch and a log of ``log_rows``."""
    return (np.zeros(S.SIZE, dtype=np.int64), np.zeros(4, dtype=np.uint64), new_scratch(),
            np.zeros((log_rows, LOG_COLS), dtype=np.int64))
