"""Festival's rules as compiled functions: setup, legal moves, moves, checks, scoring.

Everything rule-specific arrives through ``tab`` (tables.py) so that one compiled kernel
serves every edited card file. Board questions are answered on a seat's VIEW, a few
masks (state.py), which a bot can also copy and change to ask "what if".
"""

import numpy as np
from numba import njit

from sim.core.bits import popcount
from sim.core.rng import randint, shuffle
from sim.festival import state as S
from sim.festival import tables as TB
from sim.festival.tables import (
    COND_COLOUR,
    COND_COMPLETED,
    COND_DESIGN,
    COND_DISTINCT_VALUES,
    COND_FULL,
    COND_LEVEL,
    KIND_PAIR,
)

# Moves of a turn: a tile from the left (own) or right stack onto a cell, or an objective.
MOVE_TILE_RIGHT = 9  # moves 0..8: left stack onto cell m; 9..17: right stack onto cell m-9
MOVE_OBJECTIVE = 18  # moves 18..21: top card of pile m-18
MOVE_PASS = 22  # no legal action (only possible after the end was triggered)
MAX_MOVES = 23

# Action log: one row per event, (kind, seat, a, b, c, d).
LOG_BOARD = 0  # a colour, b design
LOG_START = 1  # a card
LOG_TILE = 2  # a stack, b tile, c cell, d new height
LOG_OBJECTIVE = 3  # a pile, b card
LOG_COMPLETE = 4  # a card, b value
LOG_CROWD = 5  # a condition, b value, c crowd tile
LOG_PASS = 6
LOG_TRIGGER = 7  # a trigger kind
LOG_CROWD_SETUP = 8  # a crowd tile, b condition
LOG_SEARCH = 9  # a search bot's weighed move: a move, b mean value x 1000, c rollouts,
# d its rank + 8 x the decision (step.TURN or step.START)
LOG_COLS = 6


@njit
def bit(cell):
    """The mask of board cell ``cell`` alone."""
    return np.int64(1) << cell


@njit
def log_event(log, nlog, kind, seat, a, b, c, d):
    """Append one event when logging is on (log has rows); returns the new length, which
    counts on past a full log (the replay refuses such a game: checks.logged)."""
    if nlog < log.shape[0]:
        log[nlog, 0] = kind
        log[nlog, 1] = seat
        log[nlog, 2] = a
        log[nlog, 3] = b
        log[nlog, 4] = c
        log[nlog, 5] = d
    return nlog + 1


# ---------------------------------------------------------------- setup


@njit
def setup(st, tab, n_players, rng):
    """Deal a game: boards, tile stacks, objective piles, crowd-pleaser sides.

    Starting objective sides are chosen by the players afterwards (play.py).
    """
    st[:] = 0
    st[S.N_PLAYERS] = n_players
    # Each seat gets a board of a different colour, drawn at random (a partial shuffle of
    # the colours, written straight into the seats).
    for p in range(S.MAX_PLAYERS):
        st[S.SEAT + p * S.SEAT_SIZE + S.COLOUR] = p
    for p in range(S.MAX_PLAYERS - 1, 0, -1):
        q = randint(rng, p + 1)
        a = S.SEAT + p * S.SEAT_SIZE + S.COLOUR
        c = S.SEAT + q * S.SEAT_SIZE + S.COLOUR
        st[a], st[c] = st[c], st[a]
    n_tiles = tab[TB.PARAMS + S.P_TILES_PER_PLAYER]
    for p in range(S.MAX_PLAYERS):
        b = S.SEAT + p * S.SEAT_SIZE
        if p >= n_players:
            st[b + S.COLOUR] = 0
            continue
        st[b + S.DESIGN] = tab[TB.BOARD_DESIGN + st[b + S.COLOUR]]
        st[b + S.START_CARD] = -1
        st[b + S.V_ALL] = -1
        for c in range(S.CELLS):
            st[b + S.TOP + c] = -1
        # Stack p (a full tile set, shuffled) lies between seat p and its left neighbour.
        for k in range(n_tiles):
            st[S.STACK + p * S.STACK_CAP + k] = k
        shuffle(rng, st, S.STACK + p * S.STACK_CAP, n_tiles)
        st[S.STACK_N + p] = n_tiles
    # The objective deck, shuffled into face-up piles.
    piles = tab[TB.PARAMS + S.P_PILES]
    size = tab[TB.PARAMS + S.P_PILE_SIZE]
    # Shuffled packed at the start of PILE, then card i of the deck goes to pile i // size,
    # place i % size: spread from the last card down, as no place lies below its card's.
    for i in range(piles * size):
        st[S.PILE + i] = i
    shuffle(rng, st, S.PILE, piles * size)
    i = piles * size - 1
    for q in range(piles - 1, -1, -1):
        st[S.PILE_N + q] = size
        for k in range(size - 1, -1, -1):
            st[S.PILE + q * S.PILE_CAP + k] = st[S.PILE + i]
            i -= 1
    # Crowd-pleasers: each tile lands on a random side. Every tile the state can hold is
    # tossed, in play or not, so that a variant with fewer tiles leaves the rest of the game's
    # stream where it was (common random numbers stay aligned).
    for k in range(S.CROWD_TILES):
        st[S.CROWD_COND + k] = -1
        st[S.CROWD_OWNER + k] = -1
        side = randint(rng, 2)
        if k < tab[TB.PARAMS + S.P_CROWD_TILES]:
            st[S.CROWD_COND + k] = tab[TB.CROWD_SIDES + k * 2 + side]


@njit
def choose_start_side(st, tab, p, card):
    """Seat p keeps ``card`` (one side of its colour's starting objective) as uncompleted."""
    b = S.SEAT + p * S.SEAT_SIZE
    st[b + S.START_CARD] = card
    st[b + S.HELD] = card
    st[b + S.HELD_N] = 1


# ---------------------------------------------------------------- board questions


# Objective patterns are matched through placement words. A placement is one distinct
# rotation of a pattern at one anchor cell, wholly on the board (at most 4 x 9 = 36).
# Word i of a card on a board has a bit per placement, set when that placement's pattern
# cell i lies on a cell satisfying it; the card's progress is the most words with one
# placement's bit in common. A word is looked up from the cells satisfying its pattern cell
# (a 9-bit mask) in two halves (data.py), so a match costs a few loads and no loop.


@njit
def cell_mask(tab, card, i, v, o):
    """Cells of view ``v[o:]`` satisfying pattern cell i of ``card`` (0 past the last cell)."""
    k = TB.CARD_SEL + (card * TB.PATTERN_CELLS + i) * 3
    return v[o + tab[k]] & v[o + tab[k + 1]] & v[o + tab[k + 2]]


@njit
def _word(tab, card, i, m):
    """Placements of ``card`` whose pattern cell i lies on a cell of board mask ``m``."""
    k = TB.CARD_WORDS + (card * TB.PATTERN_CELLS + i) * TB.WORD_LOOKUP
    low = m & ((1 << TB.LOW_CELLS) - 1)
    return tab[k + low] | tab[k + (1 << TB.LOW_CELLS) + (m >> TB.LOW_CELLS)]


@njit
def most_in_common(w0, w1, w2, w3):
    """The most of four words that share one bit (0..4), by bit-sliced sums per bit."""
    s0 = w0 ^ w1
    s1 = w0 & w1
    c = s0 & w2
    s0 ^= w2
    s2 = s1 & c
    s1 ^= c
    c = s0 & w3
    s0 ^= w3
    s2 |= s1 & c
    s1 ^= c
    if s2 != 0:
        return 4
    if s1 & s0 != 0:
        return 3
    if s1 != 0:
        return 2
    return 1 if s0 != 0 else 0


@njit
def card_words(tab, card, v, o):
    """The four placement words of ``card`` on view ``v[o:]`` (0 past the last cell)."""
    return (_word(tab, card, 0, cell_mask(tab, card, 0, v, o)),
            _word(tab, card, 1, cell_mask(tab, card, 1, v, o)),
            _word(tab, card, 2, cell_mask(tab, card, 2, v, o)),
            _word(tab, card, 3, cell_mask(tab, card, 3, v, o)))


@njit
def fits(tab, card, tile, height):
    """Pattern cells of ``card`` (bit i for cell i) that ``tile`` visible at ``height``
    satisfies."""
    cells = tab[TB.CARD_FITS + card * TB.MAX_TILES + tile]
    if height < 2:
        cells &= ~tab[TB.CARD_STACKED + card]
    return cells


@njit
def word_after(tab, card, i, word, cell, cells):
    """Word i of ``card`` after ``cell`` shows a tile satisfying pattern ``cells`` (fits):
    a tile placed changes a word only in the placements through its cell."""
    place = _word(tab, card, i, np.int64(1) << cell)
    return (word & ~place) | (place & -((cells >> i) & 1))


@njit
def pattern_progress(tab, card, v, o):
    """Most cells of ``card``'s pattern satisfied at one placement (any rotation).

    Equals card_ncells when the objective is met. For the pair objective: 2 when two
    visible tiles are identical, 1 when any tile is visible.
    """
    if tab[TB.CARD_KIND + card] == KIND_PAIR:
        for k in range(4):
            for d in range(4):
                if popcount(v[o + S.V_COL + k] & v[o + S.V_DES + d]) >= 2:
                    return 2
        return 1 if v[o + S.V_LEVEL] != 0 else 0
    w0, w1, w2, w3 = card_words(tab, card, v, o)
    return most_in_common(w0, w1, w2, w3)


@njit
def pair_after(tab, st, b, cell, tile):
    """pattern_progress of the identical-pair objective on the board of the seat at
    ``st[b:]`` once ``tile`` shows on ``cell``, for a board without an identical pair: 2
    when another cell shows the same tile, else 1."""
    same = (st[b + S.V_COL + tab[TB.TILE_COLOUR + tile]]
            & st[b + S.V_DES + tab[TB.TILE_DESIGN + tile]] & ~bit(cell))
    return 2 if same != 0 else 1


@njit
def pattern_met(tab, card, v, o):
    """Whether ``card`` is met on view ``v[o:]``: pattern_progress == cells, but cheaper: the
    words of all its cells share a placement, and the first word without one ends the
    search."""
    if tab[TB.CARD_KIND + card] == KIND_PAIR:
        return pattern_progress(tab, card, v, o) >= 2
    common = _word(tab, card, 0, cell_mask(tab, card, 0, v, o))
    for i in range(1, tab[TB.CARD_NCELLS + card]):
        if common == 0:
            return False
        common &= _word(tab, card, i, cell_mask(tab, card, i, v, o))
    return common != 0


@njit
def _most(v, o, first):
    return max(max(v[o + first], v[o + first + 1]), max(v[o + first + 2], v[o + first + 3]))


@njit
def _distinct(v, o, first):
    return (int(v[o + first] > 0) + int(v[o + first + 1] > 0) + int(v[o + first + 2] > 0)
            + int(v[o + first + 3] > 0))


@njit
def crowd_measure(tab, cond, v, o):
    """How far view ``v[o:]`` is towards crowd condition ``cond``, on the scale of its count."""
    kind = tab[TB.CROWD_KIND + cond]
    if kind == COND_COLOUR:
        return _most(v, o, S.V_N_COL)
    if kind == COND_DESIGN:
        return _most(v, o, S.V_N_DES)
    if kind == COND_LEVEL:
        return v[o + S.V_N_LEVEL + tab[TB.CROWD_LEVEL + cond] - 1]
    if kind == COND_DISTINCT_VALUES:
        return popcount(v[o + S.V_DONE_VALUES])
    if kind == COND_COMPLETED:
        return v[o + S.V_DONE_N]
    if kind == COND_FULL:
        return v[o + S.V_N_LEVEL]
    return min(_distinct(v, o, S.V_N_COL), _distinct(v, o, S.V_N_DES))  # COND_ALL


@njit
def on_objectives(tab, cond):
    """Whether crowd condition ``cond`` counts completed objectives (else it looks at the
    board): only a completion, or only a tile, can change whether it is met."""
    kind = tab[TB.CROWD_KIND + cond]
    return kind == COND_DISTINCT_VALUES or kind == COND_COMPLETED


@njit
def tile_points(tab, colour, design, tile, height):
    """Board points of a visible ``tile`` at ``height`` for a board (colour, design)."""
    if tile < 0:
        return 0
    pts = 0
    if tab[TB.TILE_COLOUR + tile] == colour:
        pts += height
    if tab[TB.TILE_DESIGN + tile] == design:
        pts += height
    return pts


# ---------------------------------------------------------------- moves


@njit
def stack_of(st, p, side):
    """Draw stack on seat p's left (side 0, its own) or right (side 1)."""
    if side == 0:
        return p
    return p - 1 if p > 0 else st[S.N_PLAYERS] - 1


@njit
def top_tile(st, s):
    k = st[S.STACK_N + s]
    return st[S.STACK + s * S.STACK_CAP + k - 1] if k > 0 else -1


@njit
def legal_moves(st, tab, p, moves):
    """Write seat p's legal moves into ``moves``; returns how many."""
    n = 0
    for side in range(2):
        if st[S.STACK_N + stack_of(st, p, side)] > 0:
            for c in range(S.CELLS):
                moves[n] = side * MOVE_TILE_RIGHT + c
                n += 1
    b = S.SEAT + p * S.SEAT_SIZE
    if st[b + S.HELD_N] < tab[TB.PARAMS + S.P_MAX_UNCOMPLETED]:
        for q in range(tab[TB.PARAMS + S.P_PILES]):
            if st[S.PILE_N + q] > 0:
                moves[n] = MOVE_OBJECTIVE + q
                n += 1
    if n == 0:
        moves[0] = MOVE_PASS
        n = 1
    return n


@njit
def apply_move(st, tab, p, move, log, nlog):
    """Seat p's action. Returns (log length, tile placed or -1)."""
    b = S.SEAT + p * S.SEAT_SIZE
    if move == MOVE_PASS:
        return log_event(log, nlog, LOG_PASS, p, 0, 0, 0, 0), -1
    if move >= MOVE_OBJECTIVE:
        q = move - MOVE_OBJECTIVE
        k = st[S.PILE_N + q] - 1
        card = st[S.PILE + q * S.PILE_CAP + k]
        st[S.PILE_N + q] = k
        st[b + S.HELD + st[b + S.HELD_N]] = card
        st[b + S.HELD_N] += 1
        st[b + S.OBJECTIVES_TAKEN] += 1
        return log_event(log, nlog, LOG_OBJECTIVE, p, q, card, 0, 0), -1
    s = stack_of(st, p, move // MOVE_TILE_RIGHT)
    cell = move % MOVE_TILE_RIGHT
    k = st[S.STACK_N + s] - 1
    tile = st[S.STACK + s * S.STACK_CAP + k]
    st[S.STACK_N + s] = k
    old = st[b + S.TOP + cell]
    h = st[b + S.HEIGHT + cell] + 1
    st[b + S.HEIGHT + cell] = h
    st[b + S.TOP + cell] = tile
    # The view: the covered tile leaves its colour and design, the new one joins its own, and
    # the cell reaches level h.
    m = bit(cell)
    if old >= 0:
        colour = tab[TB.TILE_COLOUR + old]
        design = tab[TB.TILE_DESIGN + old]
        st[b + S.V_COL + colour] &= ~m
        st[b + S.V_DES + design] &= ~m
        st[b + S.V_N_COL + colour] -= 1
        st[b + S.V_N_DES + design] -= 1
    colour = tab[TB.TILE_COLOUR + tile]
    design = tab[TB.TILE_DESIGN + tile]
    st[b + S.V_COL + colour] |= m
    st[b + S.V_DES + design] |= m
    st[b + S.V_N_COL + colour] += 1
    st[b + S.V_N_DES + design] += 1
    if h <= S.LEVELS:
        st[b + S.V_LEVEL + h - 1] |= m
        st[b + S.V_N_LEVEL + h - 1] += 1
    st[b + S.TILES_TAKEN] += 1
    return log_event(log, nlog, LOG_TILE, p, s, tile, cell, h), tile


@njit
def end_of_turn(st, tab, p, placed, log, nlog):
    """Step 2 of a turn: complete every met objective, then claim every met crowd-pleaser.

    ``placed`` is the tile just placed, or -1 after taking an objective. Every held card was
    unmet at the end of the seat's last turn, so only a card that the new tile can serve
    (or, after taking a card, the new card) can be met now; the others are skipped.
    """
    b = S.SEAT + p * S.SEAT_SIZE
    done_before = st[b + S.V_DONE_N]
    i = 0
    while i < st[b + S.HELD_N]:
        card = st[b + S.HELD + i]
        if placed < 0:
            fresh = i == st[b + S.HELD_N] - 1
        else:
            fresh = (tab[TB.CARD_TILES + card] >> placed) & 1 == 1
        if fresh and pattern_met(tab, card, st, b):
            value = tab[TB.CARD_VALUE + card]
            st[b + S.DONE_POINTS] += value
            st[b + S.DONE_SET] |= np.int64(1) << card
            st[b + S.V_DONE_N] += 1
            st[b + S.V_DONE_VALUES] |= np.int64(1) << value
            last = st[b + S.HELD_N] - 1
            st[b + S.HELD + i] = st[b + S.HELD + last]
            st[b + S.HELD_N] = last
            nlog = log_event(log, nlog, LOG_COMPLETE, p, card, value, 0, 0)
        else:
            i += 1
    # An open crowd-pleaser was unmet at the end of the seat's last turn (it would have been
    # taken), so only conditions on what this turn changed need a look.
    completed = st[b + S.V_DONE_N] != done_before
    for k in range(tab[TB.PARAMS + S.P_CROWD_TILES]):
        if st[S.CROWD_OWNER + k] < 0:
            cond = st[S.CROWD_COND + k]
            changed = completed if on_objectives(tab, cond) else placed >= 0
            if changed and crowd_measure(tab, cond, st, b) >= tab[TB.CROWD_COUNT + cond]:
                st[S.CROWD_OWNER + k] = p
                st[b + S.CROWD_N] += 1
                st[b + S.CROWD_POINTS] += tab[TB.CROWD_VALUE + cond]
                st[b + S.CROWD_SET] |= np.int64(1) << cond
                nlog = log_event(log, nlog, LOG_CROWD, p, cond, tab[TB.CROWD_VALUE + cond], k, 0)
    return nlog


@njit
def advance(st, tab, p, log, nlog):
    """End trigger and turn order after seat p's turn. Returns the log length."""
    n = st[S.N_PLAYERS]
    st[S.TURNS] += 1
    if st[S.TRIGGER] == S.TRIGGER_NONE:
        kind = S.TRIGGER_NONE
        if st[S.SEAT + p * S.SEAT_SIZE + S.V_DONE_N] >= tab[TB.PARAMS + S.P_END_COMPLETED]:
            kind = S.TRIGGER_OBJECTIVES
        else:
            for s in range(n):
                if st[S.STACK_N + s] == 0:
                    kind = S.TRIGGER_STACK
        if kind != S.TRIGGER_NONE:
            st[S.TRIGGER] = kind
            st[S.TRIGGER_TURN] = st[S.TURNS]
            nlog = log_event(log, nlog, LOG_TRIGGER, p, kind, 0, 0, 0)
    # Play goes on until the seat on the start player's right (the last seat) has played.
    if st[S.TRIGGER] != S.TRIGGER_NONE and p == n - 1:
        st[S.OVER] = 1
    st[S.CURRENT] = p + 1 if p + 1 < n else 0
    return nlog


# ---------------------------------------------------------------- scoring


@njit
def board_points(st, tab, p):
    """(colour points, design points) of seat p's visible tiles."""
    b = S.SEAT + p * S.SEAT_SIZE
    colour = st[b + S.COLOUR]
    design = st[b + S.DESIGN]
    pc = 0
    pd = 0
    for c in range(S.CELLS):
        tile = st[b + S.TOP + c]
        if tile >= 0:
            h = st[b + S.HEIGHT + c]
            if tab[TB.TILE_COLOUR + tile] == colour:
                pc += h
            if tab[TB.TILE_DESIGN + tile] == design:
                pd += h
    return pc, pd


@njit(cache=True)  # called from Python: an entry point
def final_scores(st, tab, scores, parts, wins, ranks):
    """Scores by source (objectives, crowd, colour, design), win shares and ranks.

    Highest score wins; a tie goes to most crowd-pleasers; a remaining tie shares the win.
    """
    n = st[S.N_PLAYERS]
    for p in range(n):
        b = S.SEAT + p * S.SEAT_SIZE
        pc, pd = board_points(st, tab, p)
        parts[p, 0] = st[b + S.DONE_POINTS]
        parts[p, 1] = st[b + S.CROWD_POINTS]
        parts[p, 2] = pc
        parts[p, 3] = pd
        scores[p] = parts[p, 0] + parts[p, 1] + pc + pd
    # Order key: score first, then crowd-pleasers.
    best = -1
    for p in range(n):
        key = scores[p] * 64 + st[S.SEAT + p * S.SEAT_SIZE + S.CROWD_N]
        if key > best:
            best = key
    winners = 0
    for p in range(n):
        if scores[p] * 64 + st[S.SEAT + p * S.SEAT_SIZE + S.CROWD_N] == best:
            winners += 1
    for p in range(n):
        key = scores[p] * 64 + st[S.SEAT + p * S.SEAT_SIZE + S.CROWD_N]
        wins[p] = 1.0 / winners if key == best else 0.0
        r = 1
        for q in range(n):
            if scores[q] * 64 + st[S.SEAT + q * S.SEAT_SIZE + S.CROWD_N] > key:
                r += 1
        ranks[p] = r
