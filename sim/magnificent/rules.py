"""The Magnificent's rules as compiled functions over the state (state.py) and tables
(tables.py): setup, the effects a turn applies, the round end and the end scoring.

Each function takes the tables as an argument and works on a hand-built state as well as on
one a game produced, so a test or a scenario can drive any step. Decisions (which die, which
placement, ...) are the moves' (moves.py); these functions apply what was decided. The
numbered interpretations are those of seeds/magnificent/rules.md.
"""

from __future__ import annotations

from numba import njit

from sim.core.bits import popcount
from sim.core.rng import randint, shuffle
from sim.magnificent import state as S
from sim.magnificent import tables as T

TMP = S.MAX_TENTS + 4 + S.MAX_POSTERS  # setup's work buffer


def _par(name: str) -> int:
    return T.PARAMS + T.P[name]


P_ROUNDS = _par("rounds")
P_TURNS = _par("turns_per_round")
P_START_COINS = _par("start_coins")
P_START_GEMS = _par("start_gems_per_colour")
P_START_MARKERS = _par("start_trainer_markers")
P_MAX_MARKERS = _par("trainer_markers_per_player")
P_OFFER = _par("trainer_offer_at_setup")
P_PICK_REVERSE = _par("starting_trainer_pick_reverse")
P_HAT_ON_TOP = _par("start_player_hat_on_top")
P_COINS_BY_ORDER = _par("start_coins_by_turn_order")
P_TRAINER_SLOTS = _par("trainer_tile_slots")
P_TRAINER_DRAFTS = _par("trainer_draft_rounds")
P_GEM_POWER = _par("gem_power")
P_STORAGE = _par("gem_storage_per_colour")
P_EXCESS_COINS = _par("coins_per_excess_gem")
P_HELD = _par("master_cards_held")
P_COINS_PER_POINT = _par("coins_per_point")
P_DIVISOR = _par("master_final_divisor")
P_SECTION_POINTS = _par("points_per_section")
P_GAP_GEMS = _par("gems_per_gap_square")
P_GEMS_PER_KIND = _par("gems_per_colour")
P_COLS = _par("camp_cols")
P_CAMP_ALL = _par("camp_all")
P_COL_FIRST = _par("col_first")
P_COL_LAST = _par("col_last")
P_SECTIONS = _par("sections")
P_LEVELS = _par("levels")
P_PERF = _par("perf_spaces")
P_MASTERS = _par("masters")
P_POSTERS = _par("posters")
P_TENTS = _par("tents")
P_TRAINERS = _par("trainers")
P_BOARD_SPACES = _par("board_spaces")
P_DECK_VALUE = _par("deck_poster_value")


# ---- setup -------------------------------------------------------------------------------

@njit
def roll(st, tab, rng) -> None:
    """The start player rolls every die of the player count into the main tent."""
    n = st[S.N_PLAYERS]
    for i in range(S.KINDS * S.PIPS):
        st[S.POOL + i] = 0
    for k in range(S.KINDS):
        for _ in range(tab[T.DICE + n * S.KINDS + k]):
            st[S.POOL + k * S.PIPS + 1 + randint(rng, 6)] += 1


@njit
def setup(st, tab, n, side, rng, tmp) -> None:
    """A new game for ``n`` players on player-board side ``side`` (0 A, 1 B) in ``st``, up to
    the starting trainer tiles (picked as decisions, then ``end_setup_offer``). Seat 0 is
    the start player; boards I-IV are dealt at random. ``tmp``: a work buffer of TMP ints
    (the game kernel allocates nothing)."""
    st[:] = 0
    st[S.N_PLAYERS] = n
    st[S.SIDE] = side
    roll(st, tab, rng)
    # the tents on the tracks' tent spaces, the one left over to the box
    tents = tmp[:S.MAX_TENTS]
    nt = tab[P_TENTS]
    for i in range(nt):
        tents[i] = i
    shuffle(rng, tents, 0, nt)
    k = 0
    for w in range(S.TRACKS):
        st[S.WAGON + w] = 0
        for s in range(S.MAX_TRACK):
            st[S.TRACK_TENT + w * S.MAX_TRACK + s] = -1
            if s < tab[T.TRACK_LEN + w] and tab[T.TRACK_KIND + w * S.MAX_TRACK + s] == T.KIND_TENT:
                st[S.TRACK_TENT + w * S.MAX_TRACK + s] = tents[k]
                k += 1
    st[S.BOXED + S.B_TENTS] = nt - k
    # boards, and with them the starting master cards; unused sets go into the deck
    boards = tmp[S.MAX_TENTS:S.MAX_TENTS + 4]
    for i in range(4):
        boards[i] = i
    shuffle(rng, boards, 0, 4)
    nd = 0
    for c in range(tab[P_MASTERS]):
        s = tab[T.M_SET + c]
        in_play = False
        for p in range(n):
            in_play = in_play or boards[p] == s - 1
        if s == 0 or not in_play:
            st[S.MASTER_DECK + nd] = c
            nd += 1
    st[S.MASTER_DECK_N] = nd
    shuffle(rng, st, S.MASTER_DECK, nd)
    for i in range(S.DISPLAY_CAP):
        st[S.DISPLAY_MASTER + i] = -1
        st[S.DISPLAY_TRAINER + i] = -1
        st[S.POSTER_DISPLAY + i] = -1
        st[S.OFFER + i] = -1
    ntr = tab[P_TRAINERS]
    for i in range(ntr):
        st[S.TRAINER_DECK + i] = i
    st[S.TRAINER_DECK_N] = ntr
    shuffle(rng, st, S.TRAINER_DECK, ntr)
    # posters: the starting ones dealt, the rest shuffled into the deck
    starting = tmp[S.MAX_TENTS + 4:]
    ns = 0
    npo = 0
    for i in range(tab[P_POSTERS]):
        if tab[T.P_STARTING + i]:
            starting[ns] = i
            ns += 1
        else:
            st[S.POSTER_DECK + npo] = i
            npo += 1
    st[S.POSTER_DECK_N] = npo
    shuffle(rng, st, S.POSTER_DECK, npo)
    shuffle(rng, starting, 0, ns)
    st[S.BOXED + S.B_POSTERS] = ns - n  # unused starting posters (rules.md 16)
    for k in range(S.KINDS):
        st[S.GEM_SUPPLY + k] = tab[P_GEMS_PER_KIND]
    for t in range(S.TILE_KINDS):
        st[S.TILE_SUPPLY + t] = tab[T.TILE_COUNT + t]
    refill_display(st, tab, 0)
    for i in range(tab[T.POSTER_DISPLAY + n]):
        st[S.POSTER_DISPLAY + i] = draw_poster(st)
    for i in range(S.MAX_PERF):
        st[S.PERF + i] = -1
    for p in range(n):
        b = S.seat(p)
        st[b + S.BOARD] = boards[p]
        for i in range(S.HAND_CAP):
            st[b + S.HAND + i] = -1
        k = 0
        for c in range(tab[P_MASTERS]):
            if tab[T.M_SET + c] == boards[p] + 1 and k < S.CARD_SLOTS:
                st[b + S.HAND + k] = c
                k += 1
        for i in range(S.CARD_SLOTS):
            st[b + S.DIE + i] = -1
        for i in range(S.POSTER_SPACES):
            st[b + S.POSTER + i] = -1
            st[b + S.TENT + i] = -1
        st[b + S.TENT] = S.PRINTED
        st[b + S.POSTER] = starting[p]
        st[b + S.START_POSTER] = starting[p]
        if side == 0:
            st[b + S.COINS] = tab[P_START_COINS]
            st[b + S.MARKERS] = tab[P_START_MARKERS]
            for k in range(S.COLOURS):
                take_gems(st, tab, p, k, tab[P_START_GEMS])
        else:
            row = T.SIDE_B + boards[p] * (2 + S.KINDS)
            st[b + S.COINS] = tab[row]
            st[b + S.MARKERS] = tab[row + 1]
            for k in range(S.KINDS):
                take_gems(st, tab, p, k, tab[row + 2 + k])
        step = tab[P_COINS_BY_ORDER]  # a variant; 0 in the seed
        st[b + S.COINS] += (n - 1 - p) * step if step > 0 else p * -step
        hat = n - 1 - p if tab[P_HAT_ON_TOP] else p  # the start player lowest (R1)
        st[S.PERF + hat] = p
        st[b + S.HAT] = hat
        st[b + S.TAKEN] = -1
        st[b + S.SLOT] = -1
        st[b + S.NEW_POSTER] = -1
        st[b + S.TENT_DUE] = -1
        st[b + S.START_TRAINER] = -1
        for r in range(3):
            st[b + S.DRAFTED_MASTER + r] = -1
            st[b + S.DRAFTED_TRAINER + r] = -1
            st[b + S.SCORED + r] = -1
    for i in range(tab[P_OFFER]):
        st[S.OFFER + i] = draw_trainer(st)


@njit
def end_setup_offer(st, tab, rng) -> None:
    """The offer's unpicked trainer tiles are shuffled back into the deck (rules.md 16)."""
    for i in range(S.DISPLAY_CAP):
        t = st[S.OFFER + i]
        if t >= 0:
            st[S.TRAINER_DECK + st[S.TRAINER_DECK_N]] = t
            st[S.TRAINER_DECK_N] += 1
            st[S.OFFER + i] = -1
    shuffle(rng, st, S.TRAINER_DECK, st[S.TRAINER_DECK_N])


@njit
def draw_trainer(st) -> int:
    if st[S.TRAINER_DECK_N] == 0:
        return -1
    st[S.TRAINER_DECK_N] -= 1
    return st[S.TRAINER_DECK + st[S.TRAINER_DECK_N]]


@njit
def draw_poster(st) -> int:
    if st[S.POSTER_DECK_N] == 0:
        return -1
    st[S.POSTER_DECK_N] -= 1
    return st[S.POSTER_DECK + st[S.POSTER_DECK_N]]


@njit
def refill_display(st, tab, r) -> None:
    """Lay the main display for round r's draft: leftover rows are discarded (rules.md 16),
    then each row gets a master card and, in the first ``trainer_draft_rounds`` drafts, a
    trainer tile (rules.md 14)."""
    for i in range(S.DISPLAY_CAP):
        if st[S.DISPLAY_MASTER + i] >= 0:
            st[S.DISCARDED + S.D_MASTERS] += 1
            st[S.DISPLAY_MASTER + i] = -1
        if st[S.DISPLAY_TRAINER + i] >= 0:
            st[S.DISCARDED + S.D_TRAINERS] += 1
            st[S.DISPLAY_TRAINER + i] = -1
    for i in range(tab[T.DISPLAY_ROWS + st[S.N_PLAYERS]]):
        if st[S.MASTER_DECK_N] > 0:
            st[S.MASTER_DECK_N] -= 1
            st[S.DISPLAY_MASTER + i] = st[S.MASTER_DECK + st[S.MASTER_DECK_N]]
        if r < tab[P_TRAINER_DRAFTS]:
            st[S.DISPLAY_TRAINER + i] = draw_trainer(st)


# ---- gains -------------------------------------------------------------------------------

@njit
def take_gems(st, tab, p, kind, n) -> None:
    """Seat p takes ``n`` gems of ``kind``: at most ``gem_storage_per_colour`` of a kind are
    held, each one beyond becomes coins; a gem the supply lacks is not taken (rules.md 10)."""
    b = S.seat(p)
    for _ in range(n):
        if st[S.GEM_SUPPLY + kind] == 0:
            return
        if st[b + S.GEMS + kind] < tab[P_STORAGE]:
            st[b + S.GEMS + kind] += 1
            st[S.GEM_SUPPLY + kind] -= 1
        else:
            st[b + S.COINS] += tab[P_EXCESS_COINS]


@njit
def spend_gem(st, p, kind) -> None:
    st[S.seat(p) + S.GEMS + kind] -= 1
    st[S.GEM_SUPPLY + kind] += 1


@njit
def add_points(st, p, source, points) -> None:
    b = S.seat(p)
    st[b + S.SRC + source] += points
    st[b + S.SCORE] += points


@njit
def take_markers(st, tab, p, n) -> None:
    b = S.seat(p)
    st[b + S.MARKERS] = min(st[b + S.MARKERS] + n, tab[P_MAX_MARKERS])


@njit
def square_bonus(st, tab, p, kind, amount) -> None:
    """A camp square's, tent's or tent space's bonus (data.BONUSES order; tents use the
    same names)."""
    b = S.seat(p)
    if kind == T.BN_COINS:
        st[b + S.COINS] += amount
    elif kind == T.BN_POINTS:
        add_points(st, p, S.SRC_BONUSES, amount)
    elif kind == T.BN_POSTER:
        st[b + S.POSTERS_DUE] += amount
    elif kind == T.BN_TRAINER:
        take_markers(st, tab, p, amount)
    elif kind == T.BN_CLEAR_GEM:
        take_gems(st, tab, p, S.CLEAR, amount)


# the camp-square bonus that each tent bonus, trainer gain and master card gain is
TENT_TO_BONUS = (T.BN_COINS, T.BN_POINTS, T.BN_TRAINER, T.BN_CLEAR_GEM)
EFFECT_TO_BONUS = (T.BN_COINS, T.BN_CLEAR_GEM, T.BN_POINTS)  # E_COINS, E_CLEAR_GEM, E_POINTS
MASTER_TO_BONUS = (T.BN_COINS, T.BN_POINTS, T.BN_NONE, T.BN_CLEAR_GEM, T.BN_TRAINER,
                   T.BN_POSTER)  # MB_COINS .. MB_POSTER (MB_POWER is no gain)


@njit
def trainer_effect(st, tab, p, effect, amount) -> None:
    """A trainer tile's or board space's effect on this turn (rules.md 25)."""
    b = S.seat(p)
    if effect == T.E_POWER:
        st[b + S.POWER] += amount
    elif effect == T.E_TRAVEL:
        st[b + S.TRAVEL_PLUS] += amount
    elif effect == T.E_SHOW:
        st[b + S.SHOW_PLUS] += amount
    elif effect == T.E_BUILD_LEVEL:
        st[b + S.LEVEL_PLUS] += amount
    else:  # coins, a clear gem or points: a gain as a camp square's
        square_bonus(st, tab, p, EFFECT_TO_BONUS[effect - T.E_COINS], amount)


@njit
def master_bonus(st, tab, p, card) -> None:
    """A master card's top bonus (not ``copy``, which names another card's)."""
    kind = tab[T.M_BONUS + card]
    amount = tab[T.M_AMOUNT + card]
    if kind == T.MB_POWER:
        st[S.seat(p) + S.POWER] += amount
    elif kind != T.MB_COPY:  # a gain as a camp square's
        square_bonus(st, tab, p, MASTER_TO_BONUS[kind], amount)


# ---- the turn ----------------------------------------------------------------------------

@njit
def take_die(st, p, code) -> None:
    """Seat p takes the die ``code`` (kind * 8 + pips) from the main tent."""
    st[S.POOL + (code // 8) * S.PIPS + code % 8] -= 1
    st[S.seat(p) + S.TAKEN] = code


@njit
def set_colour(st, p, colour) -> None:
    """The action's colour: the power is the die's pips plus this round's earlier dice of
    that colour; a clear die adds to no later turn (the seed)."""
    b = S.seat(p)
    code = st[b + S.TAKEN]
    pips = code % 8
    st[b + S.COLOUR] = colour
    st[b + S.POWER] = pips + st[b + S.SUM + colour]
    st[b + S.SUM + code // 8] += pips


@njit
def put_die(st, p, slot) -> None:
    """The taken die goes on master card ``slot``, whose top bonus is then usable."""
    b = S.seat(p)
    st[b + S.DIE + slot] = st[b + S.TAKEN]
    st[b + S.SLOT] = slot
    st[b + S.BONUS_LEFT] = 1


@njit
def highest_level(tab, power) -> int:
    """The number of build levels the power reaches (0: none)."""
    k = 0
    while k < tab[P_LEVELS] and tab[T.LEVEL_POWER + k] <= power:
        k += 1
    return k


@njit
def tile_kind(tab, colour, large) -> int:
    for t in range(S.TILE_KINDS):
        if tab[T.TILE_COLOUR + t] == colour and tab[T.TILE_LARGE + t] == large:
            return t
    return -1


@njit(inline="always")
def fits(tab, camp, t, k) -> bool:
    """Placement k of tile kind t is legal on ``camp``: no overlap, and touching the camp
    unless it is empty (the first tile goes anywhere)."""
    mask = tab[T.PLACE_MASK + t * T.MAX_PLACEMENTS + k]
    return (mask & camp) == 0 and (camp == 0 or
                                   (tab[T.PLACE_TOUCH + t * T.MAX_PLACEMENTS + k] & camp) != 0)


@njit
def any_fit(tab, camp, t) -> bool:
    for k in range(tab[T.PLACE_N + t]):
        if fits(tab, camp, t, k):
            return True
    return False


@njit
def tiles_ready(st, tab, camp, t, need, fit):
    """(ready, fit): ``need`` tiles of kind t can be built on ``camp``: none is needed, or
    the supply holds them and the tile has a placement now. ``fit`` is whether it has one,
    -1 where not yet asked, so that a caller going over the levels asks once."""
    if need <= 0:
        return True, fit
    if st[S.TILE_SUPPLY + t] < need:
        return False, fit
    if fit < 0:
        fit = 1 if any_fit(tab, camp, t) else 0
    return fit == 1, fit


@njit
def level_open(st, tab, p, level) -> bool:
    """Build level ``level`` (0-based) can be chosen: power (with the trainers' levels)
    reaches it, the supply holds its tiles and each has a placement now (rules.md 21)."""
    b = S.seat(p)
    if level >= highest_level(tab, st[b + S.POWER]) + st[b + S.LEVEL_PLUS]:
        return False
    colour = st[b + S.COLOUR]
    ready = True
    for large in range(2):
        if ready:
            ready, _ = tiles_ready(st, tab, st[b + S.CAMP], tile_kind(tab, colour, large),
                                   tab[(T.LEVEL_LARGE if large else T.LEVEL_SMALL) + level],
                                   -1)
    return ready


@njit
def start_build(st, tab, p, level) -> None:
    b = S.seat(p)
    st[b + S.PENDING] = tab[T.LEVEL_SMALL + level]
    st[b + S.PENDING + 1] = tab[T.LEVEL_LARGE + level]
    st[b + S.BUILDS] += 1


@njit
def pending_tile(st, tab, p) -> int:
    """The build's next tile kind to place (large ones first), or -1; a tile that no longer
    fits goes back to the supply (rules.md 21)."""
    b = S.seat(p)
    for large in (1, 0):
        while st[b + S.PENDING + large] > 0:
            t = tile_kind(tab, st[b + S.COLOUR], large)
            if any_fit(tab, st[b + S.CAMP], t):
                return t
            st[b + S.PENDING + large] -= 1
    return -1


@njit
def place(st, tab, p, t, k) -> None:
    """Place tile kind t at placement k, taking the bonus of every square it covers."""
    b = S.seat(p)
    mask = tab[T.PLACE_MASK + t * T.MAX_PLACEMENTS + k]
    st[b + S.CAMP] |= mask
    st[b + S.PLACED + t] += 1
    st[b + S.PENDING + tab[T.TILE_LARGE + t]] -= 1
    st[S.TILE_SUPPLY + t] -= 1
    at = T.PLACE_BONUS + (t * T.MAX_PLACEMENTS + k) * T.PLACE_BONUSES
    for j in range(T.PLACE_BONUSES):
        if tab[at + j]:
            square_bonus(st, tab, p, 1 + j, tab[at + j])


@njit
def reach(st, tab, p) -> int:
    """The farthest a travel now goes: the power and the trainers' travel, at most one lap
    (rules.md 26)."""
    b = S.seat(p)
    return min(st[b + S.POWER] + st[b + S.TRAVEL_PLUS], tab[T.TRACK_LEN + st[b + S.COLOUR]])


@njit
def travel(st, tab, p, distance) -> None:
    """Move the action colour's wagon ``distance`` spaces clockwise: the gems and posters of
    every space passed or landed on, then the tent it ends on when a tent space is free."""
    b = S.seat(p)
    w = st[b + S.COLOUR]
    n = tab[T.TRACK_LEN + w]
    pos = st[S.WAGON + w]
    st[b + S.TRAVELS] += 1
    for _ in range(distance):
        pos = (pos + 1) % n
        kind = tab[T.TRACK_KIND + w * S.MAX_TRACK + pos]
        if kind == T.KIND_GEM:
            take_gems(st, tab, p, tab[T.TRACK_GEM + w * S.MAX_TRACK + pos], 1)
        elif kind == T.KIND_TENT and st[S.TRACK_TENT + w * S.MAX_TRACK + pos] < 0:
            st[b + S.POSTERS_DUE] += 1  # the poster symbol of a taken tent (research S11)
    st[S.WAGON + w] = pos
    at = S.TRACK_TENT + w * S.MAX_TRACK + pos
    if st[at] >= 0 and free_tent_space(st, p) >= 0:
        st[b + S.TENT_DUE] = st[at]
        st[at] = -1


@njit
def free_tent_space(st, p) -> int:
    b = S.seat(p)
    for k in range(S.TENT_SPACES):
        if st[b + S.TENT + k] == -1:
            return k
    return -1


@njit
def place_tent(st, tab, p, k) -> None:
    """The tent taken goes on tent space k: the tent's bonus and the space's."""
    b = S.seat(p)
    tent = st[b + S.TENT_DUE]
    st[b + S.TENT + k] = tent
    st[b + S.TENT_DUE] = -1
    square_bonus(st, tab, p, TENT_TO_BONUS[tab[T.T_BONUS + tent]], tab[T.T_AMOUNT + tent])
    bonus = tab[T.TENT_SPACE_BONUS + k]
    if bonus != T.BN_NONE:
        square_bonus(st, tab, p, bonus, tab[T.TENT_SPACE_AMOUNT + k])


@njit
def take_poster(st, tab, p, where) -> None:
    """A poster due is taken from the deck (``where`` -1) or display space ``where``, which
    is refilled at once; it waits in NEW_POSTER for its space."""
    b = S.seat(p)
    st[b + S.POSTERS_DUE] -= 1
    if where < 0:
        st[b + S.NEW_POSTER] = draw_poster(st)
    else:
        st[b + S.NEW_POSTER] = st[S.POSTER_DISPLAY + where]
        st[S.POSTER_DISPLAY + where] = draw_poster(st)


@njit
def posters_left(st) -> bool:
    if st[S.POSTER_DECK_N] > 0:
        return True
    for i in range(S.DISPLAY_CAP):
        if st[S.POSTER_DISPLAY + i] >= 0:
            return True
    return False


@njit
def put_poster(st, p, k) -> None:
    """The new poster goes to poster space k, replacing (discarding) what is there; k -1
    discards the new one instead (only when every space is full)."""
    b = S.seat(p)
    if k < 0:
        st[S.DISCARDED + S.D_POSTERS] += 1
    else:
        if st[b + S.POSTER + k] >= 0:
            st[S.DISCARDED + S.D_POSTERS] += 1
        st[b + S.POSTER + k] = st[b + S.NEW_POSTER]
    st[b + S.NEW_POSTER] = -1


@njit
def perform(st, tab, p, space) -> None:
    """The hat moves to performance space ``space``; its shows (and the trainers') wait."""
    b = S.seat(p)
    st[S.PERF + st[b + S.HAT]] = -1
    st[S.PERF + space] = p
    st[b + S.HAT] = space
    st[b + S.PERFORMS] += 1
    st[b + S.SHOWS_LEFT] = tab[T.PERF_SHOWS + space] + st[b + S.SHOW_PLUS]
    for t in range(S.TILE_KINDS):
        st[b + S.SHOW_TILES + t] = 0


@njit(inline="always")
def gem_need(tab, poster, tent, c) -> int:
    """Gems of kind c a show of ``poster`` over ``tent`` costs."""
    need = 0
    if tab[T.P_GEMS + poster] > 0 and tab[T.P_GEM_COLOUR + poster] == c:
        need += tab[T.P_GEMS + poster]
    if tent != S.PRINTED and tab[T.T_GEMS + tent] > 0 and tab[T.T_GEM_COLOUR + tent] == c:
        need += tab[T.T_GEMS + tent]
    return need


@njit
def can_show(st, tab, p, k) -> bool:
    """Poster space k can be shown now: a poster with a tent below it, its tiles built and
    not used by this performance's other shows, its gems and the tent's payable (clear
    gems pay for any colour, rules.md 20)."""
    b = S.seat(p)
    poster = st[b + S.POSTER + k]
    tent = st[b + S.TENT + k]
    if poster < 0 or tent == -1:
        return False
    for t in range(S.TILE_KINDS):
        if st[b + S.PLACED + t] - st[b + S.SHOW_TILES + t] < tab[T.P_TILES + poster * S.TILE_KINDS
                                                                + t]:
            return False
    clear = st[b + S.GEMS + S.CLEAR]
    for c in range(S.KINDS):
        need = gem_need(tab, poster, tent, c)
        if c == S.CLEAR:
            clear -= need
        elif need > st[b + S.GEMS + c]:
            clear -= need - st[b + S.GEMS + c]
    return clear >= 0


@njit
def show(st, tab, p, k) -> None:
    """Perform the show of poster space k: pay the gems (a colour's own first, then clear),
    score the poster's and tent's points and coins, turn the poster face down."""
    b = S.seat(p)
    poster = st[b + S.POSTER + k]
    tent = st[b + S.TENT + k]
    for c in range(S.KINDS):
        for _ in range(gem_need(tab, poster, tent, c)):
            spend_gem(st, p, c if st[b + S.GEMS + c] > 0 else S.CLEAR)
    for t in range(S.TILE_KINDS):
        st[b + S.SHOW_TILES + t] += tab[T.P_TILES + poster * S.TILE_KINDS + t]
    add_points(st, p, S.SRC_POSTERS, tab[T.P_POINTS + poster])
    st[b + S.COINS] += tab[T.P_COINS + poster]
    if tent != S.PRINTED:  # the printed tent adds nothing (rules.md 27)
        add_points(st, p, S.SRC_TENTS, tab[T.T_POINTS + tent])
        st[b + S.COINS] += tab[T.T_COINS + tent]
    st[b + S.POSTER + k] = -1
    st[b + S.SHOWS] += 1
    st[b + S.SHOWS_LEFT] -= 1


@njit
def end_turn(st, p) -> None:
    """The turn's trainers and additions end; the markers spent stay spent this round."""
    b = S.seat(p)
    for field in (S.USED, S.TRAVEL_PLUS, S.SHOW_PLUS, S.LEVEL_PLUS, S.BONUS_LEFT, S.POWER,
                  S.SHOWS_LEFT, S.PENDING, S.PENDING + 1):
        st[b + field] = 0
    st[b + S.TAKEN] = -1
    st[b + S.SLOT] = -1


# ---- the round end -----------------------------------------------------------------------

@njit
def dice_cost(st, p) -> int:
    """Coins the round's dice cost: the highest colour's pips plus the clear dice's."""
    b = S.seat(p)
    top = 0
    for c in range(S.COLOURS):
        top = max(top, st[b + S.SUM + c])
    return top + st[b + S.SUM + S.CLEAR]


@njit
def pay_dice(st, tab, p, r) -> None:
    """Pay for the round's dice; each missing coin costs the round's penalty in points."""
    b = S.seat(p)
    cost = dice_cost(st, p)
    paid = min(cost, st[b + S.COINS])
    st[b + S.COINS] -= paid
    st[b + S.PENALTY_COINS] += cost - paid
    if cost > paid:
        add_points(st, p, S.SRC_PENALTIES, -(cost - paid) * tab[T.PENALTY + r])


@njit
def draft_order(st, out) -> None:
    """Seats from the highest hat on the performance track down."""
    k = 0
    for s in range(S.MAX_PERF - 1, -1, -1):
        if st[S.PERF + s] >= 0:
            out[k] = st[S.PERF + s]
            k += 1


@njit
def draft(st, tab, p, row, r) -> None:
    """Seat p takes display row ``row``: its master card and trainer tile."""
    b = S.seat(p)
    card = st[S.DISPLAY_MASTER + row]
    st[b + S.HAND + S.HAND_CAP - 1] = card
    st[b + S.DRAFTED_MASTER + r] = card
    st[S.DISPLAY_MASTER + row] = -1
    t = st[S.DISPLAY_TRAINER + row]
    if t >= 0:
        st[b + S.TRAINERS + st[b + S.TRAINERS_N]] = t
        st[b + S.TRAINERS_N] += 1
        st[b + S.DRAFTED_TRAINER + r] = t
        st[S.DISPLAY_TRAINER + row] = -1


@njit
def covered(st, p) -> int:
    b = S.seat(p)
    return st[b + S.CAMP] | st[b + S.FILLED]


@njit
def filled_rows(st, tab, p) -> int:
    camp = covered(st, p)
    n = 0
    for r in range(T.MAX_ROWS):
        m = tab[T.ROW_MASK + r]
        if m != 0 and (m & camp) == m:
            n += 1
    return n


@njit
def filled_sections(st, tab, p) -> int:
    camp = covered(st, p)
    n = 0
    for s in range(tab[P_SECTIONS]):
        m = tab[T.SECTION_MASK + s]
        if (m & camp) == m:
            n += 1
    return n


@njit
def master_value(st, tab, p, card) -> int:
    """Points master card ``card``'s scoring condition gives seat p now (full value)."""
    b = S.seat(p)
    kind = tab[T.M_SCORING + card]
    param = tab[T.M_PARAM + card]
    if kind == T.SC_ROW:
        n = filled_rows(st, tab, p)
    elif kind == T.SC_SECTION:
        n = filled_sections(st, tab, p)
    elif kind == T.SC_SHOW:
        n = st[b + S.SHOWS]
    elif kind == T.SC_TENT:
        n = 0
        for k in range(S.TENT_SPACES):
            n += st[b + S.TENT + k] != -1
    elif kind == T.SC_TILE or kind == T.SC_LARGE:
        n = 0
        for t in range(S.TILE_KINDS):
            if (kind == T.SC_TILE and tab[T.TILE_COLOUR + t] == param) or (
                    kind == T.SC_LARGE and tab[T.TILE_LARGE + t] == 1):
                n += st[b + S.PLACED + t]
    elif kind == T.SC_GEM:
        n = 0
        for k in range(S.KINDS):
            n += st[b + S.GEMS + k]
    elif kind == T.SC_COINS:
        n = st[b + S.COINS] // param
    elif kind == T.SC_TRAINER:
        n = st[b + S.TRAINERS_N]
    else:
        n = 0
        for k in range(S.POSTER_SPACES):
            n += st[b + S.POSTER + k] >= 0
    return n * tab[T.M_POINTS + card]


@njit
def score_master(st, tab, p, k, r) -> None:
    """Seat p scores the master card in hand position k and discards it; the hand closes up."""
    b = S.seat(p)
    card = st[b + S.HAND + k]
    add_points(st, p, S.SRC_MASTERS, master_value(st, tab, p, card))
    st[b + S.SCORED + r] = card
    for i in range(k, S.HAND_CAP - 1):
        st[b + S.HAND + i] = st[b + S.HAND + i + 1]
    st[b + S.HAND + S.HAND_CAP - 1] = -1
    st[S.DISCARDED + S.D_MASTERS] += 1


@njit
def next_round(st, tab, r, rng) -> None:
    """Prepare round r + 1: markers back, dice off the cards, the display laid again, the
    hats slid down in order, the lowest the start player, the dice rolled."""
    n = st[S.N_PLAYERS]
    for p in range(n):
        b = S.seat(p)
        st[b + S.MARKERS_USED] = 0
        for i in range(S.CARD_SLOTS):
            st[b + S.DIE + i] = -1
        for k in range(S.KINDS):
            st[b + S.SUM + k] = 0
    refill_display(st, tab, r + 1)
    k = 0
    for s in range(S.MAX_PERF):
        q = st[S.PERF + s]
        if q >= 0:
            st[S.PERF + s] = -1
            st[S.PERF + k] = q
            st[S.seat(q) + S.HAT] = k
            k += 1
    st[S.START] = st[S.PERF]
    st[S.TURN] = 0
    roll(st, tab, rng)


# ---- the end -----------------------------------------------------------------------------

@njit
def section_gaps(st, tab, p, s) -> int:
    m = tab[T.SECTION_MASK + s]
    return popcount(m & ~covered(st, p))


@njit
def gems_held(st, p) -> int:
    b = S.seat(p)
    n = 0
    for k in range(S.KINDS):
        n += st[b + S.GEMS + k]
    return n


@njit
def can_fill(st, tab, p, s) -> bool:
    """Section s is not full and the seat's gems fill its gaps (rules.md 9)."""
    gaps = section_gaps(st, tab, p, s)
    rate = tab[P_GAP_GEMS]
    return rate > 0 and gaps > 0 and gaps * rate <= gems_held(st, p)


@njit
def fill(st, tab, p, s) -> None:
    """Fill section s's gaps with gems, the kinds held most first."""
    b = S.seat(p)
    m = tab[T.SECTION_MASK + s]
    for _ in range(section_gaps(st, tab, p, s) * tab[P_GAP_GEMS]):
        best = 0
        for k in range(1, S.KINDS):
            if st[b + S.GEMS + k] > st[b + S.GEMS + best]:
                best = k
        spend_gem(st, p, best)
    st[b + S.FILLED] |= m & ~st[b + S.CAMP]


@njit
def end_scoring(st, tab) -> None:
    """The remaining master cards at half value (rounded down card by card), 1 point per
    ``coins_per_point`` coins, the filled sections."""
    for p in range(st[S.N_PLAYERS]):
        b = S.seat(p)
        for k in range(S.HAND_CAP):
            card = st[b + S.HAND + k]
            if card >= 0:
                add_points(st, p, S.SRC_MASTERS_END,
                           master_value(st, tab, p, card) // tab[P_DIVISOR])
        add_points(st, p, S.SRC_COINS, st[b + S.COINS] // tab[P_COINS_PER_POINT])
        add_points(st, p, S.SRC_SECTIONS, filled_sections(st, tab, p) * tab[P_SECTION_POINTS])
    st[S.OVER] = 1


@njit
def standing(st, wins, ranks) -> None:
    """Win shares (a tie after the most coins left shares the win) and ranks (1 best)."""
    n = st[S.N_PLAYERS]
    for p in range(n):
        wins[p] = 0.0
        ranks[p] = 1
    for p in range(n):
        bp = S.seat(p)
        for q in range(n):
            bq = S.seat(q)
            if st[bq + S.SCORE] > st[bp + S.SCORE] or (
                    st[bq + S.SCORE] == st[bp + S.SCORE]
                    and st[bq + S.COINS] > st[bp + S.COINS]):
                ranks[p] += 1
    top = 0
    for p in range(n):
        top += ranks[p] == 1
    for p in range(n):
        if ranks[p] == 1:
            wins[p] = 1.0 / top
