"""The full and short games' powers as compiled functions on the flat state: the
administrators at their moments and the skills a mascot applies instead of an adjustment
(rules.md "Full and short games", 26-44). Dealing and keeping the cards and the skill display
are in rules.py with the rest of setup and upkeep; the decisions between them in moves.py.
"""

from __future__ import annotations

from numba import njit

from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB

# ---------------------------------------------------------------- administrators


@njit
def admin_colour(st, tab, p) -> int:
    """The colour on seat p's administrator card (-1: any, or no administrator)."""
    a = st[S.seat(p) + S.ADMIN]
    return tab[TB.ADM_COLOUR + a] if a >= 0 else -1


@njit
def lower_sum(st, p, by) -> None:
    """Planning: seat p's administrator takes ``by`` off its staff pips sum (rules.md 34)."""
    st[S.seat(p) + S.SUM_OFF] = by


PERMUTATIONS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


@njit
def rearrange(st, new, n, perm, plus) -> None:
    """Welcome: the ``n`` dice just taken from a monorail (slots ``new``, at their spaces'
    printed pips) put on the spaces in order ``PERMUTATIONS[perm]`` (die k takes the colour
    of die perm[k]; the pips stay the spaces'), then new[plus] +1, at most 6 (-1: none)
    (rules.md 33)."""
    c0 = st[S.DIE_COL + new[0]]
    c1 = st[S.DIE_COL + new[1]] if n > 1 else -1
    c2 = st[S.DIE_COL + new[2]] if n > 2 else -1
    colours = (c0, c1, c2)
    order = PERMUTATIONS[perm]
    for k in range(n):
        st[S.DIE_COL + new[k]] = colours[order[k]]
    if plus >= 0:
        R.raise_die(st, new[plus], 1)


@njit
def take_leftover(st, tab, p, m, s) -> int:
    """Welcome: the die on space s of monorail m (nobody took it) onto seat p's entrance,
    pips unchanged (rules.md 32); its slot."""
    k = m * S.SPACES + s
    i = R.add_die(st, p, tab[R.P_ENTRANCE_HEX], st[S.MONO_COL + k], st[S.MONO_PIPS + k])
    st[S.MONO_COL + k] = -1
    return i


@njit
def round_stars(st, tab, p) -> int:
    """Upkeep 2: the stars seat p's administrator gives for this round (attractions of its
    colour operated, attractions operated, the entrance among them; mascots): the highest
    threshold met (rules.md 14, 30). Reads the cubes, so it comes before
    ``rules.score_cubes``."""
    b = S.seat(p)
    a = R.active_admin(st, p)
    if a < 0:
        return 0
    power = tab[TB.ADM_POWER + a]
    if power == R.A_MASCOT_STARS:
        count = st[b + S.MASCOTS]
    elif power == R.A_COLOUR_STARS or power == R.A_OPERATED_STARS:
        count = 0
        for h in range(S.HEXES):
            t = st[b + S.TILE + h]
            if t >= 0 and st[b + S.CUBES_ON + h] > 0 and (power == R.A_OPERATED_STARS
                         or tab[TB.ATT_COLOUR + t] == tab[TB.ADM_COLOUR + a]):
                count += 1
    else:
        return 0
    stars = 0
    for k in range(3):
        if count >= tab[TB.ADM_THRESHOLDS + a * 3 + k]:
            stars = tab[TB.ADM_STARS + a * 3 + k]
    return stars


@njit
def score_round_stars(st, tab, p) -> None:
    stars = round_stars(st, tab, p)
    if stars:
        R.add_stars(st, p, S.SRC_ADMINS, stars)
        st[S.seat(p) + S.STARS_ROUND] += stars


@njit
def leaving_of_colour(st, p, colour, out) -> int:
    """Slots of seat p's dice at 1 of ``colour`` (they leave at upkeep), into ``out``."""
    n = 0
    first, last = S.park_slots(st, p)
    for i in range(first, last):
        if st[S.DIE_AT + i] != S.NOWHERE and st[S.DIE_PIPS + i] == 1 \
                and st[S.DIE_COL + i] == colour:
            out[n] = i
            n += 1
    return n


@njit
def swap_staff(st, p, k, x) -> None:
    """Upkeep 5, once a game: seat p's played card k (0 or 1) back to its hand, staff ``x``
    from its hand played (and so passed) instead; the administrator leaves (rules.md 35)."""
    b = S.seat(p)
    st[b + S.HAND + x] -= 1
    st[b + S.HAND + st[b + S.PLAYED + k]] += 1
    st[b + S.PLAYED + k] = x
    st[b + S.ADMIN_GONE] = 1


# ---------------------------------------------------------------- skills


@njit
def skill_power(st, tab, p, k) -> int:
    """The power of seat p's k-th skill card."""
    return tab[TB.SK_POWER + st[S.seat(p) + S.SKILLS + k]]


@njit
def can_use_skill(st, p, k) -> bool:
    """Seat p's k-th skill card has its mascot in the staging area (rules.md 40)."""
    b = S.seat(p)
    return k < st[b + S.SKILLS_N] and st[b + S.MASCOTS_USED] < st[b + S.MASCOTS] \
        and (st[b + S.SKILLS_USED] >> k) & 1 == 0


@njit
def colour_on(st, p, hex_, colour) -> int:
    """Seat p's dice of ``colour`` (their own colour, rules.md 27) on ``hex_``."""
    n = 0
    at = p * S.HEXES + hex_
    first, last = S.park_slots(st, p)
    for i in range(first, last):
        if st[S.DIE_AT + i] == at and st[S.DIE_COL + i] == colour:
            n += 1
    return n


@njit
def skill_gain(st, tab, p, k, hex_) -> int:
    """What the money or star skill on seat p's k-th card gives on ``hex_``: its amount per
    die of its colour there, at most its limit."""
    card = st[S.seat(p) + S.SKILLS + k]
    return min(tab[TB.SK_LIMIT + card],
               tab[TB.SK_AMOUNT + card] * colour_on(st, p, hex_, tab[TB.SK_COLOUR + card]))


@njit
def use_skill(st, tab, p, k, a, b, c) -> int:
    """Seat p's mascot on its k-th skill card applies the skill (rules.md 37-39):

    - shift: die a +amount (b = 1) or -amount (b = 0);
    - 2<->5: die a;
    - money, stars: on hex a, at once;
    - nudge: dice a and b, each +1 (bit 0 of c for a, bit 1 for b) or -1;
    - push: die a to the adjacent hex b; pull: die a from a neighbour to hex b; leap: die a
      to hex b (push and pull may move once more: ``AGAIN_LEFT``, ``again``);
    - recolour: die a exchanged for a die of colour b from the bag.

    The mascot is placed where the skill acts, and the mascot staff's extras follow there.
    Returns 1 when a second push or pull may follow, else 0."""
    st_b = S.seat(p)
    card = st[st_b + S.SKILLS + k]
    power = tab[TB.SK_POWER + card]
    amount = tab[TB.SK_AMOUNT + card]
    st[st_b + S.MASCOTS_USED] += 1
    st[st_b + S.SKILLS_USED] |= 1 << k
    here = a if power == R.SK_MONEY or power == R.SK_STARS else (
        b if power == R.SK_PULL else st[S.DIE_AT + a] % S.HEXES)
    st[st_b + S.EXTRA_LEFT] = R.played(st, p, R.MASCOT)
    st[st_b + S.EXTRA_HEX] = here
    skill_effect(st, tab, p, k, a, b, c)
    if (power == R.SK_PUSH or power == R.SK_PULL) and amount > 1:
        st[st_b + S.AGAIN_LEFT] = amount - 1
        return 1
    return 0


@njit
def skill_effect(st, tab, p, k, a, b, c) -> None:
    """What seat p's k-th skill card does (``use_skill``'s a, b and c), without placing the
    mascot or marking the card used: the bots' features share the rest between the uses of
    one card that act on dice (features._die_part)."""
    st_b = S.seat(p)
    card = st[st_b + S.SKILLS + k]
    power = tab[TB.SK_POWER + card]
    amount = tab[TB.SK_AMOUNT + card]
    if power == R.SK_SHIFT:
        R.adjust_pips(st, a, amount if b == 1 else -amount)
    elif power == R.SK_TWO_FIVE:
        st[S.DIE_PIPS + a] = 7 - st[S.DIE_PIPS + a]
    elif power == R.SK_MONEY:
        gain = skill_gain(st, tab, p, k, a)
        st[st_b + S.MONEY] += gain
        st[st_b + S.MONEY_ROUND] += gain
    elif power == R.SK_STARS:
        gain = skill_gain(st, tab, p, k, a)
        R.add_stars(st, p, S.SRC_SKILLS, gain)
        st[st_b + S.STARS_ROUND] += gain
    elif power == R.SK_NUDGE:
        R.adjust_pips(st, a, amount if c & 1 else -amount)
        R.adjust_pips(st, b, amount if c & 2 else -amount)
    elif power == R.SK_PUSH or power == R.SK_PULL or power == R.SK_LEAP:
        R.move_die(st, p, a, b)
    elif power == R.SK_RECOLOUR:
        st[S.BAG + st[S.DIE_COL + a]] += 1
        st[S.BAG + b] -= 1
        st[S.DIE_COL + a] = b
        st[S.DIE_TINT + a] = -1


@njit
def again(st, p, i, hex_) -> None:
    """The push's or pull's next move: die slot i to ``hex_``."""
    st[S.seat(p) + S.AGAIN_LEFT] -= 1
    R.move_die(st, p, i, hex_)
