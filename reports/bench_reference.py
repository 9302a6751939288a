"""The lean reference that ``playtest bench festival`` prints beside Festival's greedy rate.

A Festival-like game written as plainly fast as numba allows, to show what the engine's
per-game cost could be: one compiled function, flat arrays, no step machine, log, checks or
bot tables. Each seat has a 3x3 board of stacked tiles (4 colours x 4 designs), draws from
the stacks on its left and right, or takes the top objective of one of four piles. An
objective is a shape of 2 to 4 cells, each asking for a colour, a design or both, met
anywhere on the board it fits; a crowd-pleaser wants some cells of one colour. The greedy
bot weighs every legal move by the points it scores now (its tile's colour and design
against the board's, the objectives it completes, a crowd-pleaser it claims) plus the change
of its objectives' progress, as Festival's greedy preset does; two uniform numbers per
decision, the best move with ties broken by the first (the greedy selector's own pick). A
game ends with the round in which a stack runs out or a seat completes 6 objectives: about
60 decisions at 4 players, as in Festival.

It is not Festival (no pair objectives, starting sides, stacking or crowd-pleaser kinds
beyond a colour count), so the ratio is a yardstick of the engine's overhead, not a rule
check.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from sim.core.bits import popcount
from sim.core.rng import seed_game, shuffle, uniform
from strategies.selectors import _greedy as greedy_pick

SEATS, CELLS, STACK, PILE, HELD, CROWD = 4, 9, 12, 7, 8, 4
CARDS = 4 * PILE
MAX_MOVES = 2 * CELLS + 4


def _cards(rng: np.random.Generator) -> tuple:
    """Objective shapes: per card its placements' cells (place[card, t, i], -1 past the
    last placement), each cell's colour and design (-1: any), its size, value and the tiles
    that serve one of its cells (a bit per tile)."""
    place = np.full((CARDS, CELLS, 4), -1, dtype=np.int64)
    col = np.full((CARDS, 4), -1, dtype=np.int64)
    des = np.full((CARDS, 4), -1, dtype=np.int64)
    size = np.zeros(CARDS, dtype=np.int64)
    for c in range(CARDS):
        n = 2 + c % 3
        cells = [(0, 0)]
        while len(cells) < n:  # a connected shape within 2x2 or 1x3
            r, q = cells[rng.integers(len(cells))]
            dr, dq = ((0, 1), (1, 0))[rng.integers(2)]
            if (r + dr, q + dq) not in cells and r + dr < 2 and q + dq < 3:
                cells.append((r + dr, q + dq))
        t = 0
        for r0 in range(3 - max(r for r, _ in cells)):
            for q0 in range(3 - max(q for _, q in cells)):
                place[c, t, :n] = [3 * (r0 + r) + q0 + q for r, q in cells]
                t += 1
        for i in range(n):
            col[c, i], des[c, i] = ((rng.integers(4), -1), (-1, rng.integers(4)),
                                    (rng.integers(4), rng.integers(4)))[rng.integers(3)]
        size[c] = n
    serves = np.zeros(CARDS, dtype=np.int64)
    for c in range(CARDS):
        for tile in range(16):
            if any(col[c, i] in (-1, tile // 4) and des[c, i] in (-1, tile % 4)
                   for i in range(size[c])):
                serves[c] |= 1 << tile
    return place, col, des, size, (size + 1).astype(np.float64), serves


@njit
def _met(place, col, des, card, cm, dm, p, occ):
    """Most cells of ``card`` met at one placement on seat p's board (its colour and design
    masks, ``occ`` its occupied cells)."""
    best = 0
    for t in range(CELLS):
        if place[card, t, 0] < 0:
            break
        got = 0
        for i in range(4):
            x = place[card, t, i]
            if x < 0:
                break
            ok = occ if col[card, i] < 0 else cm[p, col[card, i]]
            ok &= occ if des[card, i] < 0 else dm[p, des[card, i]]
            got += (ok >> x) & 1
        best = max(best, got)
    return best


@njit
def _worth(value, size, card, got):
    """A held objective's worth: its value once met, else its value times the share met."""
    return value[card] if got == size[card] else value[card] * got / size[card]


def _buffers() -> tuple:
    """The game's arrays, allocated once: the kernel allocates nothing."""
    seats = np.zeros((SEATS, STACK), dtype=np.int64)
    return (seats, np.arange(SEATS * STACK, dtype=np.int64) % 16,
            np.arange(CARDS, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros((SEATS, CELLS), dtype=np.int64), np.zeros((SEATS, 4), dtype=np.int64),
            np.zeros((SEATS, 4), dtype=np.int64), np.zeros(SEATS, dtype=np.int64),
            np.zeros((SEATS, HELD), dtype=np.int64), np.zeros(SEATS, dtype=np.int64),
            np.zeros(SEATS, dtype=np.int64), np.zeros(SEATS), np.zeros(SEATS, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.array([4, 5, 6, 7]),
            np.ones(CROWD, dtype=np.bool_), np.zeros(MAX_MOVES, dtype=np.int64),
            np.zeros(MAX_MOVES), np.zeros(HELD))


@njit(cache=True, _nrt=False)  # no reference counting, as the engines' game kernels
def play_batch(place, col, des, size, value, serves, seed, n_games, n_players, buffers):
    """Play ``n_games`` greedy games: (the sum of the winners' scores, so that nothing is
    optimised away, and the decisions taken)."""
    (stacks, tiles, piles, rng, top, cm, dm, occ, held, nheld, done, score, left, pile_n,
     crowd_need, crowd_open, moves, values, base) = buffers
    total = 0.0
    decisions = 0
    for g in range(n_games):
        seed_game(rng, seed, g)
        shuffle(rng, tiles, 0, tiles.shape[0])
        shuffle(rng, piles, 0, CARDS)
        for s in range(n_players):
            for i in range(STACK):
                stacks[s, i] = tiles[s * STACK + i]
            left[s] = STACK
            for x in range(CELLS):
                top[s, x] = -1
            for k in range(4):
                cm[s, k] = 0
                dm[s, k] = 0
            occ[s] = 0
            nheld[s] = 0
            done[s] = 0
            score[s] = 0.0
        for k in range(4):
            pile_n[k] = PILE
            crowd_open[k] = True
        over = False
        while not over:
            for p in range(n_players):
                u1 = uniform(rng)
                uniform(rng)
                decisions += 1
                colour, design = p % 4, (p + 1) % 4
                most = 0
                for k in range(4):
                    most = max(most, popcount(cm[p, k]))
                for k in range(nheld[p]):
                    c = held[p, k]
                    base[k] = _worth(value, size, c, _met(place, col, des, c, cm, dm, p,
                                                          occ[p]))
                n = 0
                for side in range(2):
                    s = (p + side) % n_players
                    if left[s] == 0:
                        continue
                    tile = stacks[s, left[s] - 1]
                    for x in range(CELLS):
                        old = top[p, x]
                        bit = np.int64(1) << x
                        if old >= 0:
                            cm[p, old // 4] ^= bit
                            dm[p, old % 4] ^= bit
                        cm[p, tile // 4] |= bit
                        dm[p, tile % 4] |= bit
                        gain = 0.0
                        for k in range(nheld[p]):  # only a card the move serves changes
                            c = held[p, k]
                            if (serves[c] >> tile) & 1 or (old >= 0 and (serves[c] >> old) & 1):
                                gain += _worth(value, size, c, _met(place, col, des, c, cm,
                                                                    dm, p, occ[p] | bit))
                                gain -= base[k]
                        after = popcount(cm[p, tile // 4])
                        if after > most:
                            for k in range(CROWD):
                                if crowd_open[k] and after >= crowd_need[k] > most:
                                    gain += 3.0
                                    break
                        cm[p, tile // 4] ^= bit
                        dm[p, tile % 4] ^= bit
                        if old >= 0:
                            cm[p, old // 4] |= bit
                            dm[p, old % 4] |= bit
                        gain += ((tile // 4 == colour) + (tile % 4 == design)
                                 - (old >= 0) * ((old // 4 == colour) + (old % 4 == design)))
                        moves[n] = side * CELLS + x
                        values[n] = gain
                        n += 1
                if nheld[p] < HELD:
                    for q in range(4):
                        if pile_n[q] > 0:
                            c = piles[q * PILE + pile_n[q] - 1]
                            got = _met(place, col, des, c, cm, dm, p, occ[p])
                            moves[n] = 2 * CELLS + q
                            values[n] = value[c] * got / size[c]
                            n += 1
                if n == 0:
                    over = True
                    continue
                move = moves[greedy_pick(values, n, u1)]  # the greedy selector's own pick
                if move >= 2 * CELLS:  # take an objective
                    q = move - 2 * CELLS
                    held[p, nheld[p]] = piles[q * PILE + pile_n[q] - 1]
                    nheld[p] += 1
                    pile_n[q] -= 1
                else:
                    s = (p + move // CELLS) % n_players
                    x = move % CELLS
                    tile = stacks[s, left[s] - 1]
                    left[s] -= 1
                    old = top[p, x]
                    bit = np.int64(1) << x
                    if old >= 0:
                        cm[p, old // 4] ^= bit
                        dm[p, old % 4] ^= bit
                        score[p] -= (old // 4 == colour) + (old % 4 == design)
                    cm[p, tile // 4] |= bit
                    dm[p, tile % 4] |= bit
                    occ[p] |= bit
                    top[p, x] = tile
                    score[p] += (tile // 4 == colour) + (tile % 4 == design)
                k = 0
                while k < nheld[p]:  # completed objectives score and leave the hand
                    c = held[p, k]
                    if _met(place, col, des, c, cm, dm, p, occ[p]) == size[c]:
                        score[p] += value[c]
                        done[p] += 1
                        nheld[p] -= 1
                        held[p, k] = held[p, nheld[p]]
                    else:
                        k += 1
                most = 0
                for k in range(4):
                    most = max(most, popcount(cm[p, k]))
                for k in range(CROWD):
                    if crowd_open[k] and most >= crowd_need[k]:
                        crowd_open[k] = False
                        score[p] += 3.0
                for s in range(n_players):
                    if done[p] >= 6 or left[s] == 0:
                        over = True  # the round is played out
        best_score = score[0]
        for s in range(1, n_players):
            best_score = max(best_score, score[s])
        total += best_score
    return total, decisions


def play(games: int, seed: int = 1, players: int = 4) -> tuple[float, float]:
    """(the winners' mean score, the mean decisions a game) over ``games`` games."""
    total, decisions = play_batch(*_cards(np.random.default_rng(0)), np.int64(seed),
                                  np.int64(games), np.int64(players), _buffers())
    return total / games, decisions / games


def games_per_second(games: int, repeats: int = 3, players: int = 4) -> float:
    """The reference's best rate of ``repeats`` runs of ``games`` games, on this thread."""
    args = _cards(np.random.default_rng(0))
    buffers = _buffers()
    play_batch(*args, np.int64(1), np.int64(2), np.int64(players), buffers)
    best = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        play_batch(*args, np.int64(1), np.int64(games), np.int64(players), buffers)
        best = max(best, games / (time.perf_counter() - t0))
    return best
