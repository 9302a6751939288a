"""Move features for the bots: one row per legal move, the same columns at every decision.

Each column is computed straight from the move, in a pass over the moves, without copying
the state: a camp placement is a mask (its squares, its bonuses, the rows and sections it
completes and how much it touches), a die is its power and what it adds to the round's
payment, an action is what it reaches. Weights per decision kind
(strategies/presets/magnificent.toml) then say what a bot cares about where. Bots see public
information and their own hand only: a poster from the deck is valued as the deck's average,
never as the card on top.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import popcount
from sim.magnificent import moves as M
from sim.magnificent import rules as R
from sim.magnificent import state as S
from sim.magnificent import tables as T

FEATURES = (
    "points",  # points the move scores now
    "coins",  # coins it gains (spent: negative)
    "gems",  # gems it gains (spent: negative)
    "power",  # DIE, COLOUR: the power the die gives; BOOST: the power added
    "penalty",  # DIE, COLOUR: points the die's cost adds to the round's missing-coin penalty
    "dice_cost",  # DIE, COLOUR: coins the die adds to the round's payment
    "action_gain",  # BOOST: how much better the best action gets (ACTION_VALUE's measure)
    "squares",  # PLACE: squares covered; ACTION build: the level's squares
    "needed",  # ACTION build: its tiles that held posters need and the camp lacks
    "contact",  # PLACE: its edges on covered squares or the camp's border
    "rows",  # PLACE: camp rows it completes
    "sections",  # PLACE, FILL: camp sections it completes
    "markers",  # trainer markers gained (for good)
    "spent",  # BOOST: 1 for a trainer marker spent (back at the round's end)
    "posters",  # POSTER: the poster's points and coins; ACTION travel: posters collected
    "tent",  # ACTION travel: a tent taken; TENT_SPACE: the space's bonus
    "shows",  # ACTION perform: points and coins of the best shows it allows; SHOW: the show's
    "hat",  # ACTION perform: spaces the hat climbs (the draft goes from the top)
    "master",  # DRAFT: the card's points now; SCORE: the points scored
    "trainer",  # TRAINER_SETUP, DRAFT, BOOST: a trainer tile's worth (its amount)
    "ready",  # POSTER_SPACE, REARRANGE: posters over a tent after the move
    "stop",  # 1 for stopping (boost, show, rearrange, fill) or letting a poster go
    "build",  # ACTION: 1 on a build
    "travel",  # ACTION: 1 on a travel
    "perform",  # ACTION: 1 on a performance
)
N_FEATURES = len(FEATURES)
(F_POINTS, F_COINS, F_GEMS, F_POWER, F_PENALTY, F_DICE_COST, F_ACTION_GAIN, F_SQUARES,
 F_NEEDED, F_CONTACT, F_ROWS, F_SECTIONS, F_MARKERS, F_SPENT, F_POSTERS, F_TENT, F_SHOWS, F_HAT,
 F_MASTER, F_TRAINER, F_READY, F_STOP, F_BUILD, F_TRAVEL, F_PERFORM) = range(N_FEATURES)
# The columns each decision kind's rows can be nonzero in (move_features): a bot's weight on
# any other multiplies a 0, so the kernel's weights leave it out (bots.bot_arrays) and the
# scores, the same, skip it (selectors.score_moves passes over a 0 weight). A test plays
# games and holds every row to this table.
FILLS = {
    "trainer_setup": ("trainer",),
    "die": ("power", "penalty", "dice_cost"),
    "card": ("master",),
    "colour": ("power", "penalty", "dice_cost"),
    "boost": ("points", "coins", "gems", "power", "action_gain", "markers", "spent", "posters",
              "stop"),
    "action": ("gems", "squares", "needed", "posters", "tent", "shows", "hat", "build",
               "travel", "perform"),
    "place": ("points", "coins", "gems", "squares", "contact", "rows", "sections", "markers",
              "posters"),
    "poster": ("posters",),
    "poster_space": ("posters", "ready", "stop"),
    "tent_space": ("tent",),
    "show": ("gems", "shows", "stop"),
    "rearrange": ("ready", "stop"),
    "draft": ("master", "trainer"),
    "score": ("master",),
    "fill": ("gems", "sections", "stop"),
}
# ACTION_VALUE: the measure of an action behind ``action_gain``, in points: a camp square,
# a gem, a poster and a tent on a travel, and the best shows of a performance.
SQUARE_VALUE, GEM_VALUE, POSTER_VALUE, TENT_VALUE = 0.5, 0.6, 1.5, 3.0


# the features' buffer: the showable posters' values (_showable), then (action_parts) the best
# build value over the first L levels at V_BUILD + L, the showable posters' values sorted
# at V_SHOWN, their count at V_N_SHOWN; (_track_parts) the best travel of at most k steps at
# V_TRAVEL + k, the gems and free poster symbols within k steps at V_GEMS + k and
# V_POSTERS + k; (_action_shared) the colour's small and large tile at V_TILES and the most of
# each that one held poster shows beyond those built at V_LACK
V_BUILD = S.POSTER_SPACES + 1
V_SHOWN = V_BUILD + S.MAX_LEVELS + 1
V_N_SHOWN = V_SHOWN + S.POSTER_SPACES + 1
V_TRAVEL = V_N_SHOWN + 1
V_TILES = V_TRAVEL + S.MAX_TRACK + 1
V_LACK = V_TILES + 2
V_GEMS = V_LACK + 2
V_POSTERS = V_GEMS + S.MAX_TRACK + 1
BUFFER_SIZE = V_POSTERS + S.MAX_TRACK + 1


@njit
def new_buffers():
    """A lane's feature buffer (V_BUILD, V_SHOWN, ...)."""
    return np.zeros(BUFFER_SIZE)


@njit(inline="always")
def poster_value(tab, poster) -> float:
    return tab[T.P_POINTS + poster] + tab[T.P_COINS + poster]


@njit
def deck_value(tab) -> float:
    """The average points and coins of a deck poster (public: the deck's make-up)."""
    return tab[R.P_DECK_VALUE] / 1000


@njit(inline="always")
def _top_sum(values, at, n, shows) -> float:
    """The sum of the ``shows`` largest of the n sorted values at ``at``, smallest first."""
    total = 0.0
    for i in range(max(0, n - shows), n):
        total += values[at + i]
    return total


@njit
def _showable(st, tab, p, values) -> int:
    """The values of the posters seat p can show now, sorted into values[:n]; returns n."""
    b = S.seat(p)
    n = 0
    for k in range(S.POSTER_SPACES):
        if R.can_show(st, tab, p, k):
            poster = st[b + S.POSTER + k]
            v = poster_value(tab, poster)
            tent = st[b + S.TENT + k]
            if tent != S.PRINTED:
                v += tab[T.T_POINTS + tent] + tab[T.T_COINS + tent]
            i = n  # insertion into the sorted values (at most 5)
            while i > 0 and values[i - 1] > v:
                values[i] = values[i - 1]
                i -= 1
            values[i] = v
            n += 1
    return n


@njit(inline="always")
def _completed(tab, masks, n, before, after) -> int:
    done = 0
    for i in range(n):
        m = tab[masks + i]
        if m != 0 and (m & after) == m and (m & before) != m:
            done += 1
    return done


@njit(inline="always")
def sides_facing(tab, mask, target) -> int:
    """Sides of the squares of ``mask`` that face a square of ``target`` (camp masks)."""
    cols = tab[R.P_COLS]
    first, last = tab[R.P_COL_FIRST], tab[R.P_COL_LAST]
    return (popcount((mask >> cols) & target) + popcount((mask << cols) & target)
            + popcount(((mask & ~first) >> 1) & target)
            + popcount(((mask & ~last) << 1) & target))


@njit
def _die(st, tab, p, code, colour, row) -> None:
    """A die's power for ``colour`` (its own, or any for a clear die) and its cost."""
    b = S.seat(p)
    kind, pips = code // 8, code % 8
    if colour < 0:
        colour = kind
        if kind == S.CLEAR:  # the colour the player has most of (research: clear dice
            for c in range(S.COLOURS):  # go with the most)
                if st[b + S.SUM + c] > st[b + S.SUM + colour]:
                    colour = c
    row[F_POWER] = pips + st[b + S.SUM + colour]
    before = R.dice_cost(st, p)
    clear = st[b + S.SUM + S.CLEAR]
    if kind == S.CLEAR:
        after = before + pips
    else:
        after = max(before - clear, st[b + S.SUM + kind] + pips) + clear
    row[F_DICE_COST] = after - before
    coins = st[b + S.COINS]
    row[F_PENALTY] = -(max(0, after - coins) - max(0, before - coins)) * tab[
        T.PENALTY + st[S.ROUND]]


@njit
def action_value(st, tab, p, power, level_plus, travel_plus, show_plus, values) -> float:
    """The best action's ACTION_VALUE measure at ``power`` with the trainers' additions."""
    action_parts(st, tab, p, values)
    return action_value_at(st, tab, p, power, level_plus, travel_plus, show_plus, values)


@njit
def action_parts(st, tab, p, values) -> None:
    """What action_value_at reads, the same for every move of a decision: the best build
    value over the first L levels (values[V_BUILD + L]), the posters seat p can show,
    sorted (V_SHOWN, V_N_SHOWN), and the best travel of at most k steps (V_TRAVEL + k).
    Once a decision, not twice a move: the boosts' features took half of a greedy game's
    time computing them again."""
    b = S.seat(p)
    colour = st[b + S.COLOUR]
    camp = st[b + S.CAMP]
    small, large = R.tile_kind(tab, colour, 0), R.tile_kind(tab, colour, 1)
    fit_small, fit_large = -1, -1  # whether each tile has a placement: asked once, if at all
    best = 0.0
    values[V_BUILD] = best
    for level in range(tab[R.P_LEVELS]):
        need_small, need_large = tab[T.LEVEL_SMALL + level], tab[T.LEVEL_LARGE + level]
        ready, fit_small = R.tiles_ready(st, tab, camp, small, need_small, fit_small)
        if ready:
            ready, fit_large = R.tiles_ready(st, tab, camp, large, need_large, fit_large)
        if ready:
            squares = 0
            for t, need in ((small, need_small), (large, need_large)):
                if need > 0:
                    squares += need * tab[T.TILE_CELLS + t]
            best = max(best, squares * SQUARE_VALUE)
        values[V_BUILD + level + 1] = best
    n = _showable(st, tab, p, values)
    for i in range(n):
        values[V_SHOWN + i] = values[i]
    values[V_N_SHOWN] = n
    _track_parts(st, tab, p, values)


@njit
def _track_parts(st, tab, p, values) -> None:
    """Seat p's travels of k steps, k up to a lap (R.reach): the gems and free poster
    symbols passed (values[V_GEMS + k], V_POSTERS + k) and the best ACTION_VALUE of a travel
    of at most k steps (V_TRAVEL + k). One walk of the track for the boosts' and the
    actions' features."""
    w = st[S.seat(p) + S.COLOUR]
    track = tab[T.TRACK_LEN + w]
    pos = st[S.WAGON + w]
    tent_bonus = TENT_VALUE if R.free_tent_space(st, p) >= 0 else 0.0
    gems, posters, gathered = 0, 0, 0.0
    best = 0.0  # no step: nothing (every action's value is at least 0)
    values[V_GEMS] = 0
    values[V_POSTERS] = 0
    values[V_TRAVEL] = best
    for k in range(1, track + 1):
        pos = (pos + 1) % track
        kind = tab[T.TRACK_KIND + w * S.MAX_TRACK + pos]
        tent = st[S.TRACK_TENT + w * S.MAX_TRACK + pos]
        if kind == T.KIND_GEM:
            gems += 1
            gathered += GEM_VALUE
        elif kind == T.KIND_TENT and tent < 0:
            posters += 1
            gathered += POSTER_VALUE
        best = max(best, gathered + (tent_bonus if tent >= 0 else 0.0))
        values[V_GEMS + k] = gems
        values[V_POSTERS + k] = posters
        values[V_TRAVEL + k] = best


@njit
def action_value_at(st, tab, p, power, level_plus, travel_plus, show_plus, values) -> float:
    """action_value from the decision's action_parts in ``values``."""
    b = S.seat(p)
    colour = st[b + S.COLOUR]
    best = values[V_BUILD + min(R.highest_level(tab, power) + level_plus, tab[R.P_LEVELS])]
    shows = 0
    for s in range(tab[R.P_PERF]):
        if st[S.PERF + s] < 0 and tab[T.PERF_POWER + s] <= power:
            shows = max(shows, tab[T.PERF_SHOWS + s])
    if shows + show_plus > 0:
        best = max(best, _top_sum(values, V_SHOWN, np.int64(values[V_N_SHOWN]),
                                  shows + show_plus))
    steps = min(max(power + travel_plus, 0), tab[T.TRACK_LEN + colour])
    return max(best, values[V_TRAVEL + steps])


@njit
def _boost(st, tab, p, move, row, values, now) -> None:
    """A boost's features; ``now``: the best action's value before it (action_value, the
    same for every boost of the decision)."""
    b = S.seat(p)
    power = st[b + S.POWER]
    added = 0
    levels = 0
    travel = 0
    shows = 0
    if move == M.B_GEM or move == M.B_CLEAR:
        added = tab[R.P_GEM_POWER]
        row[F_GEMS] = -1
    elif move == M.B_BONUS or (M.B_COPY <= move < M.B_TILE):
        card = st[b + S.HAND + (st[b + S.SLOT] if move == M.B_BONUS else move - M.B_COPY)]
        kind = tab[T.M_BONUS + card]
        amount = tab[T.M_AMOUNT + card]
        if kind == T.MB_COINS:
            row[F_COINS] = amount
        elif kind == T.MB_POINTS:
            row[F_POINTS] = amount
        elif kind == T.MB_POWER:
            added = amount
        elif kind == T.MB_GEM:
            row[F_GEMS] = amount
        elif kind == T.MB_TRAINER:
            row[F_MARKERS] = amount
        elif kind == T.MB_POSTER:
            row[F_POSTERS] = amount * deck_value(tab)
    else:
        tile = move >= M.B_SPACE
        i = move - (M.B_SPACE if tile else M.B_TILE)
        if tile:
            effect, amount = tab[T.SPACE_EFFECT + i], tab[T.SPACE_AMOUNT + i]
        else:
            t = st[b + S.TRAINERS + i]
            effect, amount = tab[T.TR_EFFECT + t], tab[T.TR_AMOUNT + t]
        row[F_SPENT] = 1
        if effect == T.E_POWER:
            added = amount
        elif effect == T.E_BUILD_LEVEL:
            levels = amount
        elif effect == T.E_SHOW:
            shows = amount
        elif effect == T.E_TRAVEL:
            travel = amount
        elif effect == T.E_COINS:
            row[F_COINS] = amount
        elif effect == T.E_CLEAR_GEM:
            row[F_GEMS] = amount
        else:
            row[F_POINTS] = amount
    row[F_POWER] = added
    lp, tp, sp = st[b + S.LEVEL_PLUS], st[b + S.TRAVEL_PLUS], st[b + S.SHOW_PLUS]
    row[F_ACTION_GAIN] = action_value_at(st, tab, p, power + added, lp + levels, tp + travel,
                                         sp + shows, values) - now


@njit
def _action_shared(st, tab, p, values) -> int:
    """What an action decision's moves share, once a decision: the colour's tiles and how
    many of each the held posters lack (V_TILES, V_LACK), the travels' gems and free poster
    symbols (``_track_parts``), and the posters seat p can show, sorted into values[:n]
    (``_showable``); returns n."""
    b = S.seat(p)
    w = st[b + S.COLOUR]
    for large in range(2):
        t = R.tile_kind(tab, w, large)
        wanted = 0  # the most of tile t one held poster shows
        for k in range(S.POSTER_SPACES):
            poster = st[b + S.POSTER + k]
            if poster >= 0:
                wanted = max(wanted, tab[T.P_TILES + poster * S.TILE_KINDS + t])
        values[V_TILES + large] = t
        values[V_LACK + large] = max(0, wanted - st[b + S.PLACED + t])
    _track_parts(st, tab, p, values)
    return _showable(st, tab, p, values)


@njit
def _action(st, tab, p, move, row, values, shown) -> None:
    """An action's features from the decision's ``_action_shared`` in ``values``;
    ``shown``: how many posters seat p can show now (their values sorted in values[:shown])."""
    b = S.seat(p)
    if move < M.A_TRAVEL:
        level = move - M.A_BUILD
        row[F_BUILD] = 1
        row[F_SQUARES] = 0
        for large in range(2):
            t = np.int64(values[V_TILES + large])
            need = tab[(T.LEVEL_LARGE if large else T.LEVEL_SMALL) + level]
            row[F_SQUARES] += need * tab[T.TILE_CELLS + t]
            row[F_NEEDED] += min(need, values[V_LACK + large])
    elif move < M.A_PERFORM:
        row[F_TRAVEL] = 1
        w = st[b + S.COLOUR]
        steps = move - M.A_TRAVEL
        row[F_GEMS] = values[V_GEMS + steps]
        row[F_POSTERS] = values[V_POSTERS + steps]
        pos = (st[S.WAGON + w] + steps) % tab[T.TRACK_LEN + w]
        if st[S.TRACK_TENT + w * S.MAX_TRACK + pos] >= 0 and R.free_tent_space(st, p) >= 0:
            row[F_TENT] = 1
    else:
        s = move - M.A_PERFORM
        row[F_PERFORM] = 1
        row[F_HAT] = s - st[b + S.HAT]
        row[F_SHOWS] = _top_sum(values, 0, shown, tab[T.PERF_SHOWS + s] + st[b + S.SHOW_PLUS])


@njit
def _place(st, tab, p, t, k, row) -> None:
    camp = R.covered(st, p)
    mask = tab[T.PLACE_MASK + t * T.MAX_PLACEMENTS + k]
    after = camp | mask
    row[F_SQUARES] = tab[T.TILE_CELLS + t]
    row[F_ROWS] = _completed(tab, T.ROW_MASK, T.MAX_ROWS, camp, after)
    row[F_SECTIONS] = _completed(tab, T.SECTION_MASK, tab[R.P_SECTIONS], camp, after)
    # sides on covered squares or the border: the outer sides less those on free squares
    free = tab[R.P_CAMP_ALL] & ~after
    row[F_CONTACT] = 4 * tab[T.TILE_CELLS + t] - sides_facing(tab, mask, mask) \
        - sides_facing(tab, mask, free)
    at = T.PLACE_BONUS + (t * T.MAX_PLACEMENTS + k) * T.PLACE_BONUSES - 1  # by kind 1..
    row[F_COINS] = tab[at + T.BN_COINS]
    row[F_POINTS] = tab[at + T.BN_POINTS]
    row[F_POSTERS] = tab[at + T.BN_POSTER] * deck_value(tab)
    row[F_MARKERS] = tab[at + T.BN_TRAINER]
    row[F_GEMS] = tab[at + T.BN_CLEAR_GEM]


@njit
def move_features(st, tab, p, kind, ctx, moves, n, out, values) -> None:
    """Features of seat p's ``n`` moves at a ``kind`` decision into out[:n]."""
    b = S.seat(p)
    now = 0.0
    shown = _action_shared(st, tab, p, values) if kind == M.K_ACTION else 0
    if kind == M.K_BOOST:  # the parts and the value before a boost, once a decision
        now = action_value(st, tab, p, st[b + S.POWER], st[b + S.LEVEL_PLUS],
                           st[b + S.TRAVEL_PLUS], st[b + S.SHOW_PLUS], values)
    for m in range(n):
        move = moves[m]
        row = out[m]
        row[:] = 0.0
        if kind == M.K_TRAINER_SETUP:
            row[F_TRAINER] = tab[T.TR_AMOUNT + st[S.OFFER + move]]
        elif kind == M.K_DIE:
            _die(st, tab, p, move, -1, row)
        elif kind == M.K_CARD:
            card = st[b + S.HAND + move]
            row[F_MASTER] = tab[T.M_AMOUNT + card]  # the top bonus this die unlocks
        elif kind == M.K_COLOUR:
            _die(st, tab, p, st[b + S.TAKEN], move, row)
        elif kind == M.K_BOOST:
            if move == M.STOP:
                row[F_STOP] = 1
            else:
                _boost(st, tab, p, move, row, values, now)
        elif kind == M.K_ACTION:
            _action(st, tab, p, move, row, values, shown)
        elif kind == M.K_PLACE:
            _place(st, tab, p, ctx[0], move, row)
        elif kind == M.K_POSTER:
            if move == M.POSTER_DECK:
                row[F_POSTERS] = deck_value(tab)
            else:
                row[F_POSTERS] = poster_value(tab, st[S.POSTER_DISPLAY + move - 1])
        elif kind == M.K_POSTER_SPACE:
            if move == M.DISCARD_NEW:
                row[F_STOP] = 1
            else:
                old = st[b + S.POSTER + move]
                row[F_POSTERS] = poster_value(tab, st[b + S.NEW_POSTER]) - (
                    poster_value(tab, old) if old >= 0 else 0.0)
                row[F_READY] = st[b + S.TENT + move] != -1
        elif kind == M.K_TENT_SPACE:
            row[F_TENT] = tab[T.TENT_SPACE_AMOUNT + move]
        elif kind == M.K_SHOW:
            if move == M.STOP:
                row[F_STOP] = 1
            else:
                poster = st[b + S.POSTER + move - 1]
                tent = st[b + S.TENT + move - 1]
                row[F_SHOWS] = poster_value(tab, poster)
                if tent != S.PRINTED:
                    row[F_SHOWS] += tab[T.T_POINTS + tent] + tab[T.T_COINS + tent]
                    row[F_GEMS] = -tab[T.T_GEMS + tent]
                row[F_GEMS] -= tab[T.P_GEMS + poster]
        elif kind == M.K_REARRANGE:
            if move == M.STOP:
                row[F_STOP] = 1
            else:
                i, j = divmod(move - 1, S.POSTER_SPACES)
                row[F_READY] = int(st[b + S.TENT + j] != -1) - int(st[b + S.TENT + i] != -1)
        elif kind == M.K_DRAFT:
            row[F_MASTER] = R.master_value(st, tab, p, st[S.DISPLAY_MASTER + move])
            t = st[S.DISPLAY_TRAINER + move]
            if t >= 0:
                row[F_TRAINER] = tab[T.TR_AMOUNT + t]
        elif kind == M.K_SCORE:
            card = st[b + S.HAND + move]
            row[F_MASTER] = R.master_value(st, tab, p, card)
        elif kind == M.K_FILL:
            if move == M.STOP:
                row[F_STOP] = 1
            else:
                s = move - 1
                row[F_SECTIONS] = 1
                row[F_GEMS] = -R.section_gaps(st, tab, p, s) * tab[R.P_GAP_GEMS]
