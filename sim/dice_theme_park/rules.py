"""Dice Theme Park's rules as compiled functions on the flat state (state.py) and the packed
tables (tables.py), each callable on a hand-built state: setup, planning, welcome, expand,
improve, operate, upkeep and the end. Rule numbers refer to seeds/dice_theme_park/rules.md;
the decisions between them are in moves.py, the game loop in play.py.
"""

from __future__ import annotations

from numba import njit

from sim.core.bits import popcount
from sim.core.rng import randint, shuffle
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB
from sim.dice_theme_park.data import ADMIN_POWERS, SKILL_POWERS

P_START_MONEY = TB.PARAMS + TB.P["start_money"]
P_MAPS_AT_START = TB.PARAMS + TB.P["maps_at_start"]
P_UPGRADES_EACH = TB.PARAMS + TB.P["upgrades_of_each_kind"]
P_MONEY_PER_STAR = TB.PARAMS + TB.P["money_per_star_at_end"]
P_ATTRACTIONS = TB.PARAMS + TB.P["attractions"]
P_OBJECTIVES = TB.PARAMS + TB.P["objectives"]
P_MONORAILS = TB.PARAMS + TB.P["monorails"]
P_ENTRANCE_HEX = TB.PARAMS + TB.P["entrance_hex"]
P_DICE_PER_COLOUR = TB.PARAMS + TB.P["dice_per_colour"]
P_CUBES = TB.PARAMS + TB.P["operating_cubes"]
P_EFFECT_STARS = TB.PARAMS + TB.P["special_effect_stars"]
P_GIFT_MONEY = TB.PARAMS + TB.P["gift_shop_money"]
P_BONUS_DRAW_DIE_AT = TB.PARAMS + TB.P["bonus_draw_die_at"]
P_BONUS_DRAW_DIE_PIPS = TB.PARAMS + TB.P["bonus_draw_die_pips"]
P_BONUS_FREE_BUILD = TB.PARAMS + TB.P["bonus_free_build"]
P_BONUS_SET_ANY_PIPS = TB.PARAMS + TB.P["bonus_set_any_pips"]
P_MAP_PRICE = TB.PARAMS + TB.P["map_price"]
P_MASCOT_PRICE = TB.PARAMS + TB.P["mascot_price"]
P_MAX_UPGRADES_INSTALLED = TB.PARAMS + TB.P["max_upgrades_installed"]
P_MAX_MAPS_BOUGHT = TB.PARAMS + TB.P["max_maps_bought"]
P_MAPS_SUPPLY = TB.PARAMS + TB.P["maps_in_supply"]
P_MASCOTS_EACH = TB.PARAMS + TB.P["mascots_per_player"]
P_ADMINISTRATORS = TB.PARAMS + TB.P["administrators"]
P_SKILLS = TB.PARAMS + TB.P["skills"]

# administrator and skill powers (data.ADMIN_POWERS, data.SKILL_POWERS order); cards.py
(A_SAVE, A_KEEP_PIPS, A_COLOUR_STARS, A_OPERATED_STARS, A_MASCOT_STARS, A_UPGRADE_DISCOUNT,
 A_MAP_DISCOUNT, A_MASCOT_DISCOUNT, A_MONEY_PER_STAR, A_LOWER_SUM, A_REARRANGE, A_LEFTOVER,
 A_SWAP) = range(len(ADMIN_POWERS))
(SK_SHIFT, SK_TWO_FIVE, SK_MONEY, SK_STARS, SK_NUDGE, SK_PUSH, SK_PULL, SK_LEAP,
 SK_RECOLOUR) = range(len(SKILL_POWERS))


@njit
def active_admin(st, p) -> int:
    """Seat p's administrator (administrators.csv row) while it is in the game, else -1
    (none kept, the intro game, or gone after the staff swap)."""
    b = S.seat(p)
    return st[b + S.ADMIN] if st[b + S.ADMIN_GONE] == 0 else -1


@njit
def has_admin(st, tab, p, power) -> bool:
    """Seat p's administrator has ``power`` and is still in the game."""
    a = active_admin(st, p)
    return a >= 0 and tab[TB.ADM_POWER + a] == power


@njit
def admin_amount(st, tab, p, power) -> int:
    """The amount of seat p's administrator when it has ``power`` and is still in the game,
    else 0 (every power with an amount has one of at least 1, data.py)."""
    return tab[TB.ADM_AMOUNT + active_admin(st, p)] if has_admin(st, tab, p, power) else 0


# ---------------------------------------------------------------- dice


@njit
def draw_die(st, rng) -> int:
    """A die's colour drawn at random from the bag (rules.md 1: an empty bag takes the
    set-aside dice first; with none, a substitute of a random colour is counted)."""
    total = st[S.BAG] + st[S.BAG + 1] + st[S.BAG + 2]
    if total == 0:
        for c in range(S.COLOURS):
            st[S.BAG + c] += st[S.ASIDE + c]
            st[S.ASIDE + c] = 0
        total = st[S.BAG] + st[S.BAG + 1] + st[S.BAG + 2]
    if total == 0:
        c = randint(rng, S.COLOURS)
        st[S.SUBST + c] += 1
        return c
    k = randint(rng, total)
    for c in range(S.COLOURS):
        if k < st[S.BAG + c]:
            st[S.BAG + c] -= 1
            return c
        k -= st[S.BAG + c]
    return S.COLOURS - 1  # not reached


@njit
def add_die(st, p, hex_, colour, pips) -> int:
    """Put a die of ``colour`` and ``pips`` on hex ``hex_`` of seat p's park; its slot."""
    first = p * S.PARK_DICE
    for i in range(first, first + S.PARK_DICE):
        if st[S.DIE_AT + i] == S.NOWHERE:
            st[S.DIE_COL + i] = colour
            st[S.DIE_PIPS + i] = pips
            st[S.DIE_AT + i] = p * S.HEXES + hex_
            st[S.DIE_TINT + i] = -1
            if i >= first + st[S.DICE_N + p]:
                st[S.DICE_N + p] = i + 1 - first
            return i
    return -1  # the park's range is full: more dice than a game holds


@njit
def discard_die(st, i) -> None:
    """Die slot i leaves the park for the bag."""
    st[S.BAG + st[S.DIE_COL + i]] += 1
    st[S.DIE_AT + i] = S.NOWHERE
    st[S.DIE_TINT + i] = -1


@njit
def fill_monorails(st, tab, rng) -> None:
    """Every space of every monorail in play gets a die from the bag at its printed pips,
    left to right, top to bottom."""
    for m in range(st[S.MONO_N]):
        card = st[S.MONO_CARD + m]
        for s in range(S.SPACES):
            st[S.MONO_COL + m * S.SPACES + s] = draw_die(st, rng)
            st[S.MONO_PIPS + m * S.SPACES + s] = tab[TB.MONO_PIPS + card * S.SPACES + s]


# ---------------------------------------------------------------- setup


@njit
def setup(st, tab, n_players, mode, rng) -> None:
    """Setup up to the starting attraction (rules.md "Setup" 1-10 and 12): bag, monorails,
    objectives, turn order, the players' components, the stacks, two A tiles dealt to each
    player (``DEALT``). Each player then keeps one (``keep_start_tile``) and the display is
    laid out (``lay_start_display``)."""
    st[:] = 0
    st[S.N_PLAYERS] = n_players
    st[S.MODE] = mode
    st[S.ROUNDS] = tab[TB.ROUNDS + mode]
    for c in range(S.COLOURS):
        st[S.BAG + c] = tab[TB.IN_BAG + n_players]
        st[S.ASIDE + c] = tab[P_DICE_PER_COLOUR] - tab[TB.IN_BAG + n_players]
    for i in range(S.DICE):
        st[S.DIE_AT + i] = S.NOWHERE
        st[S.DIE_TINT + i] = -1
    # monorails: the set for the player count, in table order
    k = 0
    for m in range(tab[P_MONORAILS]):
        if tab[TB.MONO_PLAYERS + m] == n_players:
            st[S.MONO_CARD + k] = m
            st[S.MONO_TAKEN + k] = -1
            k += 1
    st[S.MONO_N] = k
    fill_monorails(st, tab, rng)
    # objectives: one under each objective round, never two of one colour
    n_obj = tab[P_OBJECTIVES]
    deck = st[S.OBJ_DECK:S.OBJ_DECK + n_obj]
    for i in range(n_obj):
        deck[i] = i
    shuffle(rng, deck, 0, n_obj)
    used = 0  # bit per objective colour dealt
    top = 0
    for r in range(S.MAX_ROUNDS):
        st[S.OBJECTIVE + r] = -1
        if r < st[S.ROUNDS] and tab[TB.OBJECTIVE_ROUND + mode * S.MAX_ROUNDS + r] == 1:
            while top < n_obj and (used >> tab[TB.OBJ_COLOUR + deck[top]]) & 1:
                top += 1  # a colour already dealt: discarded, the next card is drawn
            if top < n_obj:
                st[S.OBJECTIVE + r] = deck[top]
                used |= 1 << tab[TB.OBJ_COLOUR + deck[top]]
                top += 1
    # turn order: random; "the previous order" of round 1 is this one
    for i in range(n_players):
        st[S.ORDER + i] = i
    shuffle(rng, st, S.ORDER, n_players)
    for i in range(n_players):
        st[S.PREV_ORDER + i] = st[S.ORDER + i]
        st[S.SETUP_ORDER + i] = st[S.ORDER + i]
    # the players' components and start piece
    entrance = tab[P_ENTRANCE_HEX]
    for p in range(n_players):
        b = S.seat(p)
        st[b + S.MONEY] = tab[P_START_MONEY]
        for k in range(S.STAFF):
            st[b + S.HAND + k] = 1
        st[b + S.PLAYED] = -1
        st[b + S.PLAYED + 1] = -1
        st[b + S.MAPS_UP] = tab[P_MAPS_AT_START]
        st[b + S.MASCOTS] = 1
        for k in range(S.UPGRADE_KINDS):
            st[b + S.UPGRADES + k] = tab[P_UPGRADES_EACH]
        for h in range(S.HEXES):
            st[b + S.TILE + h] = -1
        st[b + S.ADMIN] = -1
        st[b + S.SKILL_KEPT] = -1
        for k in range(2):
            st[b + S.ADMIN_DEALT + k] = -1
            st[b + S.SKILL_DEALT + k] = -1
        basic = 0
        for a in range(tab[P_ATTRACTIONS]):
            kind = tab[TB.ATT_STACK + a]
            if kind == TB.STACK_ENTRANCE:
                st[b + S.TILE + entrance] = a
            elif kind == TB.STACK_BASIC:
                # the k-th basic attraction on the k-th basic hex of park.csv
                seen = 0
                for h in range(S.HEXES):
                    if tab[TB.HEX_ROLE + h] == TB.ROLE_BASIC:
                        if seen == basic:
                            st[b + S.TILE + h] = a
                        seen += 1
                basic += 1
    if tab[TB.MODULES + mode]:
        deal_cards(st, tab, rng)
    # the stacks, shuffled, and two A tiles dealt to each player in turn order
    for a in range(tab[P_ATTRACTIONS]):
        kind = tab[TB.ATT_STACK + a]
        if kind == TB.STACK_A:
            st[S.STACK_A + st[S.STACK_A_N]] = a
            st[S.STACK_A_N] += 1
        elif kind == TB.STACK_B:
            st[S.STACK_B + st[S.STACK_B_N]] = a
            st[S.STACK_B_N] += 1
    shuffle(rng, st, S.STACK_A, st[S.STACK_A_N])
    shuffle(rng, st, S.STACK_B, st[S.STACK_B_N])
    for i in range(n_players):
        b = S.seat(st[S.ORDER + i])
        for k in range(2):
            st[S.STACK_A_N] -= 1
            st[b + S.DEALT + k] = st[S.STACK_A + st[S.STACK_A_N]]
        st[b + S.KEPT] = -1


@njit
def deal_cards(st, tab, rng) -> None:
    """Full and short games (setup 17-18): the administrators shuffled, two dealt to each
    player in turn order (``ADMIN_DEALT``; the rest stay in the box); the skills shuffled
    into the deck, two dealt to each player (``SKILL_DEALT``)."""
    n_admins = tab[P_ADMINISTRATORS]
    for i in range(n_admins):
        st[S.ADMIN_DECK + i] = i
    shuffle(rng, st, S.ADMIN_DECK, n_admins)
    n_skills = tab[P_SKILLS]
    for i in range(n_skills):
        st[S.SKILL_DECK + i] = i
    st[S.SKILL_DECK_N] = n_skills
    shuffle(rng, st, S.SKILL_DECK, n_skills)
    for i in range(st[S.N_PLAYERS]):
        b = S.seat(st[S.ORDER + i])
        for k in range(2):
            st[b + S.ADMIN_DEALT + k] = st[S.ADMIN_DECK + 2 * i + k]
            st[S.SKILL_DECK_N] -= 1
            st[b + S.SKILL_DEALT + k] = st[S.SKILL_DECK + st[S.SKILL_DECK_N]]


@njit
def keep_admin(st, tab, p, which) -> None:
    """Seat p keeps dealt administrator ``which`` (0 or 1); the other goes to the box."""
    b = S.seat(p)
    st[b + S.ADMIN] = st[b + S.ADMIN_DEALT + which]


@njit
def keep_skill(st, tab, p, which) -> None:
    """Seat p keeps dealt skill ``which`` (0 or 1), its starting mascot on it; the other
    goes back into the deck (shuffled with ``lay_skill_display``)."""
    b = S.seat(p)
    kept = st[b + S.SKILL_DEALT + which]
    st[b + S.SKILL_KEPT] = kept
    st[b + S.SKILLS] = kept
    st[b + S.SKILLS_N] = 1
    st[S.SKILL_DECK + st[S.SKILL_DECK_N]] = st[b + S.SKILL_DEALT + 1 - which]
    st[S.SKILL_DECK_N] += 1


@njit
def lay_skill_display(st, tab, rng, reshuffle) -> None:
    """The skill display's leftovers onto the discard pile, then players + 1 cards from the
    deck (setup 19 after the deck is shuffled again when ``reshuffle``; upkeep 9). A deck
    that runs out takes the discard pile, shuffled (rules.md 40)."""
    for k in range(st[S.SKILL_DISPLAY_N]):
        st[S.SKILL_DISCARD + st[S.SKILL_DISCARD_N]] = st[S.SKILL_DISPLAY + k]
        st[S.SKILL_DISCARD_N] += 1
    st[S.SKILL_DISPLAY_N] = 0
    if reshuffle:
        shuffle(rng, st, S.SKILL_DECK, st[S.SKILL_DECK_N])
    for _ in range(st[S.N_PLAYERS] + 1):
        if st[S.SKILL_DECK_N] == 0 and st[S.SKILL_DISCARD_N] > 0:
            for k in range(st[S.SKILL_DISCARD_N]):
                st[S.SKILL_DECK + k] = st[S.SKILL_DISCARD + k]
            st[S.SKILL_DECK_N] = st[S.SKILL_DISCARD_N]
            st[S.SKILL_DISCARD_N] = 0
            shuffle(rng, st, S.SKILL_DECK, st[S.SKILL_DECK_N])
        if st[S.SKILL_DECK_N] > 0:
            st[S.SKILL_DECK_N] -= 1
            st[S.SKILL_DISPLAY + st[S.SKILL_DISPLAY_N]] = st[S.SKILL_DECK + st[S.SKILL_DECK_N]]
            st[S.SKILL_DISPLAY_N] += 1


@njit
def take_skill(st, p, k) -> None:
    """Seat p takes skill display card k for the mascot just hired; the display closes up."""
    b = S.seat(p)
    card = st[S.SKILL_DISPLAY + k]
    st[b + S.SKILLS + st[b + S.SKILLS_N]] = card
    st[b + S.SKILLS_N] += 1
    st[b + S.TAKEN] |= 1 << card
    for j in range(k, st[S.SKILL_DISPLAY_N] - 1):
        st[S.SKILL_DISPLAY + j] = st[S.SKILL_DISPLAY + j + 1]
    st[S.SKILL_DISPLAY_N] -= 1


@njit
def start_hexes(st, tab, p, out) -> int:
    """The free setup hexes of seat p's park, into ``out``; their number."""
    n = 0
    b = S.seat(p)
    for h in range(S.HEXES):
        if tab[TB.HEX_ROLE + h] == TB.ROLE_SETUP and st[b + S.TILE + h] == -1:
            out[n] = h
            n += 1
    return n


@njit
def keep_start_tile(st, tab, p, which, hex_) -> None:
    """Seat p keeps dealt tile ``which`` (0 or 1), built free on setup hex ``hex_``; the
    other goes back to stack A."""
    b = S.seat(p)
    kept = st[b + S.DEALT + which]
    st[b + S.KEPT] = kept
    st[b + S.TILE + hex_] = kept
    st[S.STACK_A + st[S.STACK_A_N]] = st[b + S.DEALT + 1 - which]
    st[S.STACK_A_N] += 1


@njit
def lay_start_display(st, tab, rng) -> None:
    """Stack A reshuffled with the returned tiles; players + 1 tiles from it face up."""
    shuffle(rng, st, S.STACK_A, st[S.STACK_A_N])
    st[S.DISPLAY_N] = 0
    for _ in range(st[S.N_PLAYERS] + 1):
        if st[S.STACK_A_N] > 0:
            st[S.STACK_A_N] -= 1
            st[S.DISPLAY + st[S.DISPLAY_N]] = st[S.STACK_A + st[S.STACK_A_N]]
            st[S.DISPLAY_N] += 1


# ---------------------------------------------------------------- planning


@njit
def play_staff(st, tab, p, first, second) -> None:
    """Seat p plays staff ``first`` and ``second`` from its hand (the same staff twice only
    when the hand holds two)."""
    b = S.seat(p)
    st[b + S.HAND + first] -= 1
    st[b + S.HAND + second] -= 1
    st[b + S.PLAYED] = first
    st[b + S.PLAYED + 1] = second


@njit
def staff_sum(st, tab, p) -> int:
    """The pips of seat p's two staff cards, less what its administrator took off (never
    below 0, rules.md 34)."""
    b = S.seat(p)
    return max(0, tab[TB.STAFF_PIPS + st[b + S.PLAYED]] + tab[TB.STAFF_PIPS + st[b + S.PLAYED + 1]]
               - st[b + S.SUM_OFF])


@njit
def set_turn_order(st, tab) -> None:
    """The new turn order: lowest staff sum first; ties to fewer stars, then to the reverse
    of the previous order (the setup order in round 1)."""
    n = st[S.N_PLAYERS]
    for i in range(n):
        st[S.PREV_ORDER + i] = st[S.ORDER + i]
    for i in range(n):  # place i goes to the seat with the i-th smallest key
        best = -1
        best_key = 0
        for j in range(n):
            p = st[S.PREV_ORDER + j]
            # later in the previous order goes first among full ties
            key = (staff_sum(st, tab, p) * 100_000 + st[S.seat(p) + S.STARS]) * 8 + (n - 1 - j)
            placed = False
            for k in range(i):
                placed = placed or st[S.ORDER + k] == p
            if not placed and (best < 0 or key < best_key):
                best = p
                best_key = key
        st[S.ORDER + i] = best


@njit
def income(st, tab, p) -> int:
    """Seat p's income this round: its two staff cards' money, then the printed income of
    its tiles (the entrance's $1 included)."""
    b = S.seat(p)
    total = tab[TB.STAFF_MONEY + st[b + S.PLAYED]] + tab[TB.STAFF_MONEY + st[b + S.PLAYED + 1]]
    for h in range(S.HEXES):
        a = st[b + S.TILE + h]
        if a >= 0:
            total += tab[TB.ATT_INCOME + a]
    return total


# ---------------------------------------------------------------- scoring


@njit
def add_stars(st, p, source, stars) -> None:
    b = S.seat(p)
    st[b + S.STARS] += stars
    st[b + S.SCORE + source] += stars


@njit
def shared_stars(values, n, stars, best_most, i) -> int:
    """Player i's stars of a ranking (objectives): places by ``values`` (highest first when
    ``best_most``), ``stars[k]`` for place k; tied players add up the stars of the places
    they share and split them equally, rounded up."""
    better = 0
    equal = 0
    for j in range(n):
        if best_most and values[j] > values[i] or not best_most and values[j] < values[i]:
            better += 1
        elif values[j] == values[i]:
            equal += 1
    total = 0
    for k in range(better, better + equal):
        if k < n - 1:
            total += stars[k]
    return -(-total // equal)


@njit
def objective_measure(st, tab, p, measure) -> int:
    """Seat p's value of objective measure ``measure`` (data.MEASURES order)."""
    b = S.seat(p)
    if measure == 0:  # money
        return st[b + S.MONEY]
    if measure == 1 or measure == 2:  # dice in the park, pips in the park
        total = 0
        first, last = S.park_slots(st, p)
        for i in range(first, last):
            if st[S.DIE_AT + i] != S.NOWHERE:
                total += 1 if measure == 1 else st[S.DIE_PIPS + i]
        return total
    if measure == 3 or measure == 4:  # attractions (not the entrance), amenity kinds
        count = 0
        kinds = 0
        for h in range(S.HEXES):
            a = st[b + S.TILE + h]
            if a >= 0 and tab[TB.ATT_STACK + a] != TB.STACK_ENTRANCE:
                count += 1
                if tab[TB.ATT_AMENITY + a] >= 0:
                    kinds |= 1 << tab[TB.ATT_AMENITY + a]
        return count if measure == 3 else popcount(kinds)
    if measure == 5:  # upgrades installed
        n = 0
        for h in range(S.HEXES):
            n += popcount(st[b + S.UPGRADE + h])
        return n
    if measure == 6:  # mascots (the starting one counts, rules.md 15)
        return st[b + S.MASCOTS]
    if measure == 7:
        return st[b + S.OPS_ROUND]
    return st[b + S.STARS_ROUND]


@njit
def score_objective(st, tab, card) -> None:
    """The round's objective ``card``: every seat ranked by its measure, stars as the
    player count's table says (rules.md, upkeep 3). Scalars, not arrays: the game kernel
    allocates nothing (play.py)."""
    n = st[S.N_PLAYERS]
    measure = tab[TB.OBJ_MEASURE + card]
    values = (objective_measure(st, tab, 0, measure), objective_measure(st, tab, 1, measure),
              objective_measure(st, tab, 2, measure) if n > 2 else 0,
              objective_measure(st, tab, 3, measure) if n > 3 else 0)
    row = TB.OBJECTIVE_STARS + n * S.MAX_PLAYERS
    stars = tab[row:row + S.MAX_PLAYERS]
    most = tab[TB.OBJ_BEST + card] == 0
    shares = (shared_stars(values, n, stars, most, 0), shared_stars(values, n, stars, most, 1),
              shared_stars(values, n, stars, most, 2) if n > 2 else 0,
              shared_stars(values, n, stars, most, 3) if n > 3 else 0)
    for p in range(n):  # every share is counted before any is added (money is a measure)
        add_stars(st, p, S.SRC_OBJECTIVES, shares[p])


@njit
def end_money(st, tab) -> None:
    """1 star per $3 left (rounded down) for every seat; the administrator's 1 per $2
    instead (rules.md 36): what it adds over the $3 is the administrators' source."""
    for p in range(st[S.N_PLAYERS]):
        money = st[S.seat(p) + S.MONEY]
        stars = money // tab[P_MONEY_PER_STAR]
        add_stars(st, p, S.SRC_MONEY, stars)
        per = admin_amount(st, tab, p, A_MONEY_PER_STAR)
        if per:
            add_stars(st, p, S.SRC_ADMINS, money // per - stars)


@njit
def standing(st, dice_after_ones, wins, ranks) -> None:
    """Win shares and ranks: most stars, then most dice in the park (``dice_after_ones[p]``,
    counted after the players discard their 1s), then most money; a remaining tie shares
    the win."""
    n = st[S.N_PLAYERS]
    for p in range(n):  # compared field by field: no packed key for a large value to spill
        ranks[p] = 1
        for q in range(n):
            ranks[p] += _ahead(st, dice_after_ones, q, p)
    shared = 0
    for p in range(n):
        shared += ranks[p] == 1
    for p in range(n):
        wins[p] = 1.0 / shared if ranks[p] == 1 else 0.0


@njit
def _ahead(st, dice, q, p) -> bool:
    """Seat q ends ahead of seat p: more stars, then more dice, then more money."""
    sq, sp = st[S.seat(q) + S.STARS], st[S.seat(p) + S.STARS]
    if sq != sp:
        return sq > sp
    if dice[q] != dice[p]:
        return dice[q] > dice[p]
    return st[S.seat(q) + S.MONEY] > st[S.seat(p) + S.MONEY]


# ---------------------------------------------------------------- operate

MAX_PARTY = 3
# A party is one of the distinct sets of (own colour, pips) on a hex that meet its
# requirement: dice alike in colour and pips leave the same park behind whichever of them is
# in the party (an operation clears every colour adjustment on its attraction). So a hex has
# at most C(6, 3) * 3**3 = 540 parties (a run of three: 3 different pips, each of any
# colour), however many dice are on it, and MAX_PARTIES holds every one of them.
MAX_PARTIES = 20 * S.COLOURS**3
MAX_GROUPS = S.COLOURS * 6 * S.COLOURS  # dice alike: the colour counted, pips, own colour
# ints of the buffer ``parties`` works in: the hex's dice, then ``parties_among``'s
PARTY_WORK = S.PARK_DICE + MAX_GROUPS * (2 + MAX_PARTY) + MAX_PARTIES

REQ_SINGLE, REQ_PAIR_EVEN, REQ_PAIR_ODD, REQ_PAIR_GREATER, REQ_LOW_HIGH, REQ_PAIR_EQUAL, \
    REQ_RUN_THREE, REQ_THREE_EQUAL, REQ_COLOUR_GREATER, REQ_COLOUR_SMALLER, REQ_ODD_EVEN = \
    range(11)


@njit(inline="always")  # hot: docs/developers.md
def die_colour(st, i) -> int:
    """The colour die slot i counts as: a mascot's colour adjustment, else its own."""
    tint = st[S.DIE_TINT + i]
    return tint if tint >= 0 else st[S.DIE_COL + i]


@njit(inline="always")  # hot: docs/developers.md
def _pair_meets(kind, colour, c0, p0, c1, p1) -> bool:
    """The ordered pair (die 0, die 1) meets a two-dice requirement; a coloured element is
    die 0."""
    coloured = colour < 0 or c0 == colour
    if kind == REQ_PAIR_EVEN:
        return p0 % 2 == 0 and p1 % 2 == 0
    if kind == REQ_PAIR_ODD:
        return p0 % 2 == 1 and p1 % 2 == 1
    if kind == REQ_PAIR_GREATER:
        return p0 > p1
    if kind == REQ_LOW_HIGH:
        return p0 <= 3 and p1 >= 3
    if kind == REQ_PAIR_EQUAL:
        return p0 == p1
    if kind == REQ_COLOUR_GREATER:
        return coloured and p0 > p1
    if kind == REQ_COLOUR_SMALLER:
        return coloured and p0 < p1
    if kind == REQ_ODD_EVEN:
        return coloured and p0 % 2 == 1 and p1 % 2 == 0
    return False


@njit
def dice_on(st, p, hex_, out) -> int:
    """Slots of the dice on hex ``hex_`` of seat p's park, into ``out`` (S.PARK_DICE
    long: a park's dice all fit); their number."""
    at = p * S.HEXES + hex_
    n = 0
    first, last = S.park_slots(st, p)
    for i in range(first, last):
        if st[S.DIE_AT + i] == at:
            out[n] = i
            n += 1
    return n


@njit
def parties(st, tab, p, hex_, out, work) -> int:
    """Every party on seat p's hex ``hex_`` that meets its attraction's requirement, into
    ``out[n, 3]`` (slots, -1 padded); their number. ``work`` is a buffer of PARTY_WORK
    ints."""
    a = st[S.seat(p) + S.TILE + hex_]
    if a < 0:
        return 0
    m = dice_on(st, p, hex_, work[:S.PARK_DICE])
    return parties_among(st, tab, a, work[:m], out, work[S.PARK_DICE:])


@njit(inline="always")  # hot: docs/developers.md
def _party_size(tab, a) -> int:
    kind = tab[TB.ATT_REQUIREMENT + a]
    return 3 if kind == REQ_RUN_THREE or kind == REQ_THREE_EQUAL else (
        1 if kind == REQ_SINGLE else 2)


@njit(inline="always")  # hot: docs/developers.md
def _pair_either(kind, colour, c0, p0, c1, p1) -> bool:
    """Two dice meet a two-dice requirement, in one order or the other."""
    return _pair_meets(kind, colour, c0, p0, c1, p1) or _pair_meets(kind, colour, c1, p1, c0, p0)


@njit(inline="always")  # hot: docs/developers.md
def _meets(st, tab, a, size, i, j, k) -> bool:
    """Dice slots i, j, k (the first ``size`` of them) meet attraction a's requirement."""
    kind = tab[TB.ATT_REQUIREMENT + a]
    colour = tab[TB.ATT_REQUIREMENT_COLOUR + a]
    if size == 1:
        return kind == REQ_SINGLE and (colour < 0 or die_colour(st, i) == colour)
    if size == 2:
        return _pair_either(kind, colour, die_colour(st, i), st[S.DIE_PIPS + i],
                            die_colour(st, j), st[S.DIE_PIPS + j])
    p0 = st[S.DIE_PIPS + i]
    p1 = st[S.DIE_PIPS + j]
    p2 = st[S.DIE_PIPS + k]
    if kind == REQ_RUN_THREE:
        return p0 != p1 and p1 != p2 and p0 != p2
    if kind == REQ_THREE_EQUAL:
        return p0 == p1 and p1 == p2
    return False


@njit(inline="always")  # hot: docs/developers.md
def _own_key(st, i) -> int:
    """Die slot i as the park keeps it once operated: own colour and pips (6 bits)."""
    return st[S.DIE_COL + i] * 8 + st[S.DIE_PIPS + i]


@njit(inline="always")  # hot: docs/developers.md
def parties_among(st, tab, a, on, out, work) -> int:
    """``parties`` for attraction a with the dice slots ``on``. ``work`` (PARTY_WORK -
    S.PARK_DICE ints) holds the parties' keys (their own colours and pips, sorted) to keep
    each set once and, for a party of two or three, the dice grouped alike first (the
    colour they count as, pips, own colour; up to MAX_PARTY slots of each), so that the
    parties are sets of groups. A party of one or two has its own loop (one loop for every
    size took a quarter longer); a party of three, on under 1% of the hexes an operate
    decision asks, is a call (``_parties_of_three``)."""
    m = on.shape[0]
    size = _party_size(tab, a)
    if m < size:
        return 0
    seen = work[(2 + MAX_PARTY) * MAX_GROUPS:]
    n = 0
    if size == 1:  # the dice in order: a die alike an earlier one has its key, kept once
        colour = tab[TB.ATT_REQUIREMENT_COLOUR + a]
        for x in range(m):
            i = on[x]
            if colour < 0 or die_colour(st, i) == colour:
                n = _new_party(seen, out, n, _own_key(st, i), i, -1, -1)
        return n
    g_n = work[MAX_GROUPS:2 * MAX_GROUPS]
    g_slot = work[2 * MAX_GROUPS:(2 + MAX_PARTY) * MAX_GROUPS]  # group g's slots at 3g..
    groups = _group_alike(st, on, work[:MAX_GROUPS], g_n, g_slot)
    if size == 2:
        kind = tab[TB.ATT_REQUIREMENT + a]
        colour = tab[TB.ATT_REQUIREMENT_COLOUR + a]
        for x in range(groups):
            i = g_slot[MAX_PARTY * x]
            c0, p0 = die_colour(st, i), st[S.DIE_PIPS + i]
            for y in range(x, groups):  # a group with itself: its second die
                if y == x and g_n[x] < 2:
                    continue
                j = g_slot[MAX_PARTY * y + int(y == x)]
                if _pair_either(kind, colour, c0, p0, die_colour(st, j), st[S.DIE_PIPS + j]):
                    n = _new_party(seen, out, n, _sorted_key2(_own_key(st, i), _own_key(st, j)),
                                   i, j, -1)
        return n
    return _parties_of_three(st, tab, a, groups, g_n, g_slot, out, seen)


@njit
def _parties_of_three(st, tab, a, groups, g_n, g_slot, out, seen) -> int:
    """``parties_among``'s parties of three from its groups of dice alike."""
    n = 0
    for x in range(groups):
        for y in range(x, groups):
            for z in range(y, groups):
                # the slots: a group used twice or three times gives its next dice
                i = g_slot[MAX_PARTY * x]
                uses = 1 + (y == x)
                if uses > g_n[y]:
                    continue
                j = g_slot[MAX_PARTY * y + uses - 1]
                uses = 1 + (z == x) + (z == y)
                if uses > g_n[z]:
                    continue
                k = g_slot[MAX_PARTY * z + uses - 1]
                if _meets(st, tab, a, 3, i, j, k):
                    n = _new_party(seen, out, n, _sorted_key3(
                        _own_key(st, i), _own_key(st, j), _own_key(st, k)), i, j, k)
    return n


@njit(inline="always")  # hot: docs/developers.md
def _group_alike(st, on, g_key, g_n, g_slot) -> int:
    """The dice slots ``on`` grouped alike (``parties_among``), in order of first die; the
    number of groups."""
    groups = 0
    for x in range(on.shape[0]):
        i = on[x]
        key = (die_colour(st, i) * 8 + st[S.DIE_PIPS + i]) * 8 + st[S.DIE_COL + i]
        g = 0
        while g < groups and g_key[g] != key:
            g += 1
        if g == groups:
            g_key[g] = key
            g_n[g] = 0
            groups += 1
        if g_n[g] < MAX_PARTY:
            g_slot[MAX_PARTY * g + g_n[g]] = i
            g_n[g] += 1
    return groups


@njit(inline="always")  # hot: docs/developers.md
def _new_party(seen, out, n, keys, i, j, k) -> int:
    """Party (i, j, k) into ``out[n]`` unless its ``keys`` are ``seen[:n]`` already; the
    new number of parties (never more than MAX_PARTIES, above)."""
    for q in range(n):
        if seen[q] == keys:
            return n
    seen[n] = keys
    out[n, 0] = i
    out[n, 1] = j
    out[n, 2] = k
    return n + 1


@njit
def has_party(st, tab, a, on) -> bool:
    """Some party of the dice slots ``on`` meets attraction a's requirement."""
    m = on.shape[0]
    size = _party_size(tab, a)
    if size == 3:  # pips alone decide (``_meets``): count the dice at each, 8 bits a count
        at = 0
        for x in range(m):
            at += 1 << (8 * st[S.DIE_PIPS + on[x]])
        values, most = 0, 0
        for pips in range(1, 7):
            count = (at >> (8 * pips)) & 255
            values += count > 0
            most = max(most, count)
        kind = tab[TB.ATT_REQUIREMENT + a]
        return values >= 3 if kind == REQ_RUN_THREE else most >= 3
    for x in range(m):
        if size == 1 and _meets(st, tab, a, 1, on[x], -1, -1):
            return True
        for y in range(x + 1 if size == 2 else m, m):
            if _meets(st, tab, a, 2, on[x], on[y], -1):
                return True
    return False


@njit
def _sorted_key2(a, b) -> int:
    return (min(a, b) << 6) | max(a, b)


@njit
def _sorted_key3(a, b, c) -> int:
    lo = min(a, min(b, c))
    hi = max(a, max(b, c))
    mid = a + b + c - lo - hi
    return (((lo << 6) | mid) << 6) | hi


@njit(inline="always")  # hot: docs/developers.md
def free_icon(st, tab, p, hex_) -> bool:
    """Seat p's attraction on ``hex_`` has an operating icon without a cube this round
    (a generator adds one) and the player has a cube left."""
    b = S.seat(p)
    a = st[b + S.TILE + hex_]
    if a < 0 or st[b + S.CUBES] >= tab[P_CUBES]:
        return False
    icons = tab[TB.ATT_ICONS + a] + ((st[b + S.UPGRADE + hex_] >> S.GENERATOR) & 1)
    return st[b + S.CUBES_ON + hex_] < icons


@njit
def operate(st, tab, p, hex_, party, movable, keep=-1) -> int:
    """Seat p operates its attraction on ``hex_`` with the dice of ``party`` (slots, -1
    padded): a cube on it, every party die lowered by 1 (a die at 1 goes to the bag
    instead) but party[keep] (the administrator's die not lowered, rules.md 28), the
    attraction's colour adjustments spent. The lowered dice still in the park go into
    ``movable`` (the kept die only when it is the party's one die); their number (one of
    them must then move, ``move_die``; none when every lowered die was discarded at 1)."""
    b = S.seat(p)
    size = 0
    for k in range(MAX_PARTY):
        if party[k] >= 0:
            size += 1
    st[b + S.CUBES] += 1
    st[b + S.CUBES_ON + hex_] += 1
    st[b + S.OPS_ROUND] += 1
    st[b + S.OPS_TOTAL] += 1
    n = 0
    for k in range(MAX_PARTY):
        i = party[k]
        if i < 0:
            continue
        if k == keep:
            if size > 1:  # the seed moves one of the dice *lowered* (rules.md 28)
                continue
        elif st[S.DIE_PIPS + i] == 1:
            discard_die(st, i)
            continue
        else:
            st[S.DIE_PIPS + i] -= 1
        movable[n] = i
        n += 1
    at = p * S.HEXES + hex_
    first, last = S.park_slots(st, p)
    for i in range(first, last):
        if st[S.DIE_AT + i] == at:
            st[S.DIE_TINT + i] = -1
    return n


@njit(inline="always")  # hot: docs/developers.md
def neighbour_tiles(st, tab, p, hex_, out) -> int:
    """The hexes next to ``hex_`` that hold a tile of seat p's park, into ``out``."""
    b = S.seat(p)
    n = 0
    for s in range(6):
        h = tab[TB.HEX_NEIGHBOURS + hex_ * 6 + s]
        if h >= 0 and st[b + S.TILE + h] >= 0:
            out[n] = h
            n += 1
    return n


@njit
def move_die(st, p, i, hex_) -> None:
    """Die slot i moves to hex ``hex_`` of seat p's park (a colour adjustment stays with the
    attraction it was made for, so it lapses)."""
    st[S.DIE_AT + i] = p * S.HEXES + hex_
    st[S.DIE_TINT + i] = -1


@njit
def score_cubes(st, tab, p) -> None:
    """Upkeep 1: for every cube on every attraction, its printed stars, +2 stars with a
    special effect, +$2 with a gift shop; cubes back to the staging area."""
    b = S.seat(p)
    for h in range(S.HEXES):
        cubes = st[b + S.CUBES_ON + h]
        a = st[b + S.TILE + h]
        if cubes and a >= 0:
            up = st[b + S.UPGRADE + h]
            stars = cubes * tab[TB.ATT_STARS + a]
            add_stars(st, p, S.SRC_OPERATIONS, stars)
            effects = cubes * tab[P_EFFECT_STARS] * (
                (up >> S.SPECIAL_EFFECT) & 1)
            add_stars(st, p, S.SRC_EFFECTS, effects)
            money = cubes * tab[P_GIFT_MONEY] * ((up >> S.GIFT_SHOP) & 1)
            st[b + S.MONEY] += money
            st[b + S.STARS_ROUND] += stars + effects
            st[b + S.MONEY_ROUND] += money
        st[b + S.CUBES_ON + h] = 0
    st[b + S.CUBES] = 0


# ---------------------------------------------------------------- staff powers

CONCIERGE, TICKET_AGENT, GUIDE, MASCOT, MANAGER, ARCHITECT = range(S.STAFF)


@njit
def played(st, p, staff) -> int:
    """How many of seat p's two staff cards this round are ``staff`` (0, 1 or 2)."""
    b = S.seat(p)
    # int(): numpy adds two bools as "or", compiled code as numbers (interpreted runs too)
    return int(st[b + S.PLAYED] == staff) + int(st[b + S.PLAYED + 1] == staff)


# ---------------------------------------------------------------- welcome


@njit
def take_monorail(st, tab, p, m, new) -> int:
    """Seat p takes monorail m: its dice onto the entrance, pips unchanged. Their slots go
    into ``new`` (for the concierge); their number."""
    st[S.MONO_TAKEN + m] = p
    n = 0
    for s in range(S.SPACES):
        c = st[S.MONO_COL + m * S.SPACES + s]
        if c >= 0:
            new[n] = add_die(st, p, tab[P_ENTRANCE_HEX], c, st[S.MONO_PIPS + m * S.SPACES + s])
            n += 1
            st[S.MONO_COL + m * S.SPACES + s] = -1
    return n


@njit
def raise_die(st, i, amount) -> None:
    """Die slot i up by ``amount`` pips, at most 6 (the concierge, bonuses)."""
    st[S.DIE_PIPS + i] = min(6, st[S.DIE_PIPS + i] + amount)


# ---------------------------------------------------------------- expand


@njit
def build_hexes(st, tab, p, out) -> int:
    """The empty hexes of seat p's park next to one of its tiles, into ``out``."""
    b = S.seat(p)
    n = 0
    for h in range(S.HEXES):
        if st[b + S.TILE + h] >= 0:
            continue
        for s in range(6):
            g = tab[TB.HEX_NEIGHBOURS + h * 6 + s]
            if g >= 0 and st[b + S.TILE + g] >= 0:
                out[n] = h
                n += 1
                break
    return n


@njit
def amenity_count(st, tab, p, amenity) -> int:
    b = S.seat(p)
    n = 0
    for h in range(S.HEXES):
        a = st[b + S.TILE + h]
        if a >= 0 and tab[TB.ATT_AMENITY + a] == amenity:
            n += 1
    return n


BONUS_NONE, BONUS_SET_PIPS, BONUS_DRAW_DIE, BONUS_FREE_BUILD = range(4)


@njit
def build(st, tab, p, k, hex_) -> int:
    """Seat p builds display tile k on ``hex_``, paying its cost; the display closes up.
    Returns the amenity bonus the new count brings (BONUS_*), taken by the caller."""
    a = st[S.DISPLAY + k]
    st[S.seat(p) + S.MONEY] -= tab[TB.ATT_COST + a]
    for j in range(k, st[S.DISPLAY_N] - 1):
        st[S.DISPLAY + j] = st[S.DISPLAY + j + 1]
    st[S.DISPLAY_N] -= 1
    st[S.seat(p) + S.TILE + hex_] = a
    count = amenity_count(st, tab, p, tab[TB.ATT_AMENITY + a])
    if tab[TB.ATT_AMENITY + a] < 0:
        return BONUS_NONE
    if count == tab[P_BONUS_SET_ANY_PIPS]:
        return BONUS_SET_PIPS
    if count == tab[P_BONUS_DRAW_DIE_AT]:
        return BONUS_DRAW_DIE
    if count == tab[P_BONUS_FREE_BUILD] and st[S.DISCARD_N] > 0:
        return BONUS_FREE_BUILD
    return BONUS_NONE


@njit
def bonus_draw_die(st, tab, p, rng) -> int:
    """The 3-amenity bonus: a die from the bag at 4 pips onto the entrance; its slot."""
    return add_die(st, p, tab[P_ENTRANCE_HEX], draw_die(st, rng),
                   tab[P_BONUS_DRAW_DIE_PIPS])


@njit
def build_from_discard(st, tab, p, k, hex_) -> None:
    """The 4-amenity bonus: discard-pile tile k built free on ``hex_`` (no bonus of its
    own, rules.md 3)."""
    st[S.seat(p) + S.TILE + hex_] = st[S.DISCARD + k]
    for j in range(k, st[S.DISCARD_N] - 1):
        st[S.DISCARD + j] = st[S.DISCARD + j + 1]
    st[S.DISCARD_N] -= 1


@njit
def mascot_price(st, tab, p) -> int:
    """$5, $2 off per mascot staff played and the administrator's discount, never below $0
    (rules.md 16, 31)."""
    return max(0, tab[P_MASCOT_PRICE] - 2 * played(st, p, MASCOT)
               - admin_amount(st, tab, p, A_MASCOT_DISCOUNT))


@njit
def can_hire(st, tab, p) -> bool:
    """Seat p can hire a mascot: one of its colour is left (``mascots_per_player``, the
    starting one included) and it can pay for it."""
    b = S.seat(p)
    return st[b + S.MASCOTS] < tab[P_MASCOTS_EACH] and st[b + S.MONEY] >= mascot_price(st, tab, p)


@njit
def hire_mascot(st, tab, p) -> None:
    b = S.seat(p)
    st[b + S.MONEY] -= mascot_price(st, tab, p)
    st[b + S.MASCOTS] += 1


# ---------------------------------------------------------------- improve


@njit
def map_price(st, tab, p) -> int:
    """$3, less the administrator's discount, never below $0 (rules.md 31)."""
    return max(0, tab[P_MAP_PRICE] - admin_amount(st, tab, p, A_MAP_DISCOUNT))


@njit
def maps_left(st, tab) -> int:
    """Map tokens left in the common supply (``maps_in_supply``, less every player's)."""
    taken = 0
    for p in range(st[S.N_PLAYERS]):
        taken += st[S.seat(p) + S.MAPS_UP] + st[S.seat(p) + S.MAPS_DOWN]
    return tab[P_MAPS_SUPPLY] - taken


@njit
def can_buy_map(st, tab, p) -> bool:
    """Seat p can buy a map this round: below the round's limit, one left in the supply and
    the money to pay for it."""
    b = S.seat(p)
    return st[b + S.MAPS_BOUGHT] < tab[P_MAX_MAPS_BOUGHT] and maps_left(st, tab) > 0 \
        and st[b + S.MONEY] >= map_price(st, tab, p)


@njit
def buy_map(st, tab, p) -> None:
    b = S.seat(p)
    st[b + S.MONEY] -= map_price(st, tab, p)
    st[b + S.MAPS_UP] += 1
    st[b + S.MAPS_BOUGHT] += 1


@njit
def upgrade_cost(st, tab, p, hex_) -> int:
    """Cost of the next upgrade on seat p's ``hex_``: the cheapest free space's printed cost,
    $1 off per architect played and the administrator's discount, never below $0; -1 when
    no space is free."""
    b = S.seat(p)
    a = st[b + S.TILE + hex_]
    if a < 0:
        return -1
    used = popcount(st[b + S.UPGRADE + hex_])
    if used >= 2 or tab[TB.ATT_UPGRADE_COST + a * 2 + used] < 0:
        return -1
    return max(0, tab[TB.ATT_UPGRADE_COST + a * 2 + used] - played(st, p, ARCHITECT)
               - admin_amount(st, tab, p, A_UPGRADE_DISCOUNT))


@njit
def can_install(st, tab, p, kind, hex_) -> bool:
    """Seat p may install an upgrade of ``kind`` on ``hex_`` now (``installable``)."""
    return ((installable(st, tab, p, hex_) >> kind) & 1) == 1


@njit(inline="always")  # once per hex at an upgrade decision
def installable(st, tab, p, hex_) -> int:
    """The upgrade kinds seat p may install on ``hex_`` now, bit k for kind k: one in its
    staging area, a free space, none of that kind there, not removed from there, fewer than
    the round's limit installed, and the money."""
    b = S.seat(p)
    if st[b + S.INSTALLED] >= tab[P_MAX_UPGRADES_INSTALLED]:
        return 0
    cost = upgrade_cost(st, tab, p, hex_)
    if cost < 0 or st[b + S.MONEY] < cost:
        return 0
    kinds = 0
    for kind in range(S.UPGRADE_KINDS):
        if st[b + S.UPGRADES + kind] > 0:
            kinds |= 1 << kind
    return kinds & ~st[b + S.UPGRADE + hex_] & ~st[b + S.BANNED + hex_]


@njit
def install(st, tab, p, kind, hex_) -> None:
    b = S.seat(p)
    st[b + S.MONEY] -= upgrade_cost(st, tab, p, hex_)
    st[b + S.UPGRADES + kind] -= 1
    st[b + S.UPGRADE + hex_] |= 1 << kind
    st[b + S.INSTALLED] += 1


@njit
def remove_upgrade(st, p, kind, hex_) -> None:
    """The architect: an installed upgrade back to the staging area (no refund), never to
    return to this attraction (rules.md 19)."""
    b = S.seat(p)
    st[b + S.UPGRADE + hex_] &= ~(1 << kind)
    st[b + S.BANNED + hex_] |= 1 << kind
    st[b + S.UPGRADES + kind] += 1
    st[b + S.REMOVED] += 1


# ---------------------------------------------------------------- operate: moving dice


@njit
def use_map(st, p, i, hex_) -> None:
    """A face-up map moves die slot i to the adjacent ``hex_``."""
    b = S.seat(p)
    st[b + S.MAPS_UP] -= 1
    st[b + S.MAPS_DOWN] += 1
    move_die(st, p, i, hex_)


@njit
def use_guide(st, p, i, hex_) -> None:
    """The guide moves die slot i to any other attraction."""
    st[S.seat(p) + S.GUIDE_USED] += 1
    move_die(st, p, i, hex_)


@njit(inline="always")  # in the moves' loops: docs/developers.md
def can_adjust(pips, delta) -> bool:
    """A power may change a die at ``pips`` by ``delta``: never above 6, and down to 0 at
    most, where the die is discarded (the seed's note: 「6の目を7にすることはできませんが、1の
    目を0にしてただちに捨てることはできます」; rules.md 10, 18, 38)."""
    return 0 <= pips + delta <= 6


@njit
def adjust_pips(st, i, delta) -> None:
    """Die slot i's pips changed by ``delta`` (a mascot's or the mascot staff's ±1, the ±2
    and nudge skills): above 6 never; at 0 or below the die goes to the bag (rules.md
    10)."""
    pips = st[S.DIE_PIPS + i] + delta
    if pips < 1:
        discard_die(st, i)
    else:
        st[S.DIE_PIPS + i] = min(6, pips)


@njit
def adjust_colour(st, i, colour) -> None:
    """Die slot i counts as ``colour`` for the next operation of its attraction."""
    st[S.DIE_TINT + i] = colour


# ---------------------------------------------------------------- upkeep


@njit
def ones(st, p, out) -> int:
    """Slots of seat p's dice at 1 pips, into ``out``; their number."""
    n = 0
    first, last = S.park_slots(st, p)
    for i in range(first, last):
        if st[S.DIE_AT + i] != S.NOWHERE and st[S.DIE_PIPS + i] == 1:
            out[n] = i
            n += 1
    return n


@njit
def save_die(st, tab, p, i, pips) -> None:
    """The ticket agent: die slot i, at 1 and about to leave, set to ``pips`` on the
    entrance instead."""
    st[S.DIE_PIPS + i] = pips
    move_die(st, p, i, tab[P_ENTRANCE_HEX])


@njit
def rotate_staff(st) -> None:
    """Each player passes the two cards played to the left neighbour (seat p + 1) and takes
    the two passed from the right."""
    n = st[S.N_PLAYERS]
    for p in range(n):
        b = S.seat(p)
        left = S.seat((p + 1) % n)
        for k in range(2):
            st[left + S.HAND + st[b + S.PLAYED + k]] += 1
    for p in range(n):
        st[S.seat(p) + S.PLAYED] = -1
        st[S.seat(p) + S.PLAYED + 1] = -1


@njit
def reset_round(st) -> None:
    """Maps face up, mascots back, the round's counters and colour adjustments cleared."""
    for p in range(st[S.N_PLAYERS]):
        b = S.seat(p)
        st[b + S.MAPS_UP] += st[b + S.MAPS_DOWN]
        st[b + S.MAPS_DOWN] = 0
        st[b + S.MASCOTS_USED] = 0
        for f in (S.OPS_ROUND, S.STARS_ROUND, S.MONEY_ROUND, S.INSTALLED, S.MAPS_BOUGHT,
                  S.REMOVED, S.GUIDE_USED, S.MANAGER_USED, S.EXTRA_LEFT, S.SKILLS_USED,
                  S.AGAIN_LEFT, S.SUM_OFF):
            st[b + f] = 0
        first, last = S.park_slots(st, p)
        for i in range(first, last):
            st[S.DIE_TINT + i] = -1


@njit
def refill_monorails(st, tab, rng) -> None:
    """Dice left on monorails nobody chose go to the bag; every monorail is refilled."""
    for m in range(st[S.MONO_N]):
        for s in range(S.SPACES):
            c = st[S.MONO_COL + m * S.SPACES + s]
            if c >= 0:
                st[S.BAG + c] += 1
                st[S.MONO_COL + m * S.SPACES + s] = -1
        st[S.MONO_TAKEN + m] = -1
    fill_monorails(st, tab, rng)


@njit
def refill_display(st, tab, next_round) -> None:
    """The display's leftovers onto the discard pile; players + 1 tiles from the stack of
    round ``next_round`` (0-based)."""
    for k in range(st[S.DISPLAY_N]):
        st[S.DISCARD + st[S.DISCARD_N]] = st[S.DISPLAY + k]
        st[S.DISCARD_N] += 1
    st[S.DISPLAY_N] = 0
    use_b = tab[TB.STACK_FOR_ROUND + st[S.MODE] * S.MAX_ROUNDS + next_round] == 1
    top = S.STACK_B_N if use_b else S.STACK_A_N
    base = S.STACK_B if use_b else S.STACK_A
    for _ in range(st[S.N_PLAYERS] + 1):
        if st[top] > 0:
            st[top] -= 1
            st[S.DISPLAY + st[S.DISPLAY_N]] = st[base + st[top]]
            st[S.DISPLAY_N] += 1
