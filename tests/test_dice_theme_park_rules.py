"""Dice Theme Park's rule functions on hand-built states: setup, the seed's worked examples
of planning and scoring, the empty bag, the end."""

import numpy as np
import pytest

from sim.core.rng import game_stream
from sim.dice_theme_park import data as D
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB

STAFF = {name: k for k, name in enumerate(D.STAFF)}
WORK = np.empty(R.PARTY_WORK, dtype=np.int64)  # the buffer R.parties works in


@pytest.fixture(scope="module")
def dtp():
    d = D.load()
    return d, TB.pack(d)


def _setup(tab, n, seed=0, mode=0):
    st = np.zeros(S.SIZE, dtype=np.int64)
    R.setup(st, tab, n, mode, game_stream(seed, 0))
    return st


def _row(d, name):
    return d.attraction_names.index(name)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_what_the_rules_say(dtp, n):
    d, tab = dtp
    for seed in range(20):
        st = _setup(tab, n, seed)
        monorail_dice = np.bincount(st[S.MONO_COL : S.MONO_COL + 3 * (n + 1)], minlength=3)
        assert st[S.MONO_N] == n + 1
        assert list(st[S.BAG : S.BAG + 3] + st[S.ASIDE : S.ASIDE + 3] + monorail_dice) == [21] * 3
        assert list(st[S.ASIDE : S.ASIDE + 3]) == [21 - d.params["dice"]["in_bag"][str(n)]] * 3
        cards = [c for c in st[S.OBJECTIVE : S.OBJECTIVE + 5] if c >= 0]
        assert [r for r in range(5) if st[S.OBJECTIVE + r] >= 0] == [2, 3]
        assert len({d.objective_colours[d.objectives["colour"][c]] for c in cards}) == 2
        assert sorted(st[S.ORDER : S.ORDER + n]) == list(range(n))
        dealt = [st[S.seat(p) + S.DEALT + k] for p in range(n) for k in (0, 1)]
        assert len(set(dealt)) == 2 * n and all(D.STACKS[d.attractions["stack"][a]] == "A"
                                                for a in dealt)
        assert st[S.STACK_A_N] == 20 - 2 * n and st[S.STACK_B_N] == 16
        for p in range(n):
            b = S.seat(p)
            assert st[b + S.MONEY] == 6 and st[b + S.MAPS_UP] == 3 and st[b + S.MASCOTS] == 1
            assert list(st[b + S.HAND : b + S.HAND + 6]) == [1] * 6
            tiles = [d.attraction_names[a] for a in st[b + S.TILE : b + S.TILE + S.HEXES]
                     if a >= 0]
            assert sorted(tiles) == ["Carousel", "Mini Train", "Park Entrance", "Tea Cups"]


def test_the_kept_tile_is_built_and_the_display_laid_out(dtp):
    d, tab = dtp
    st = _setup(tab, 3, seed=5)
    rng = game_stream(5, 1)
    hexes = np.empty(S.HEXES, dtype=np.int64)
    for p in range(3):
        assert R.start_hexes(st, tab, p, hexes) == 3
        R.keep_start_tile(st, tab, p, 1, hexes[0])
        b = S.seat(p)
        assert st[b + S.TILE + hexes[0]] == st[b + S.DEALT + 1] == st[b + S.KEPT]
    assert st[S.STACK_A_N] == 20 - 3
    R.lay_start_display(st, tab, rng)
    assert st[S.DISPLAY_N] == 4 and st[S.STACK_A_N] == 13
    shown = set(st[S.DISPLAY : S.DISPLAY + 4])
    kept = {st[S.seat(p) + S.KEPT] for p in range(3)}
    assert not shown & kept


def test_turn_order_example_from_the_seed(dtp):
    """Blue: ticket agent + concierge (3); green: concierge + architect (7); yellow: guide +
    mascot (7). Blue first; green has fewer stars than yellow, so green is 2nd."""
    d, tab = dtp
    st = _setup(tab, 3)
    blue, green, yellow = 0, 1, 2
    R.play_staff(st, tab, blue, STAFF["ticket_agent"], STAFF["concierge"])
    R.play_staff(st, tab, green, STAFF["concierge"], STAFF["architect"])
    R.play_staff(st, tab, yellow, STAFF["guide"], STAFF["mascot"])
    st[S.seat(green) + S.STARS] = 4
    st[S.seat(yellow) + S.STARS] = 9
    R.set_turn_order(st, tab)
    assert list(st[S.ORDER : S.ORDER + 3]) == [blue, green, yellow]
    # equal stars too: the reverse of the previous order
    st[S.seat(green) + S.STARS] = st[S.seat(yellow) + S.STARS] = 9
    st[S.ORDER : S.ORDER + 3] = [blue, green, yellow]
    R.set_turn_order(st, tab)
    assert list(st[S.ORDER : S.ORDER + 3]) == [blue, yellow, green]
    assert list(st[S.PREV_ORDER : S.PREV_ORDER + 3]) == [blue, green, yellow]


def test_income_example_from_the_seed(dtp):
    """Yellow: guide + mascot $6, the entrance $1, the Helter Skelter $1: $8."""
    d, tab = dtp
    st = _setup(tab, 3)
    yellow = 2
    R.play_staff(st, tab, yellow, STAFF["guide"], STAFF["mascot"])
    hexes = np.empty(S.HEXES, dtype=np.int64)
    R.start_hexes(st, tab, yellow, hexes)
    st[S.seat(yellow) + S.TILE + hexes[0]] = _row(d, "Helter Skelter")
    assert R.income(st, tab, yellow) == 8


def test_objective_split_example_from_the_seed(dtp):
    """Most money, 4 players: yellow $9, blue $5, green $5, grey $4 -> 8, 3, 3, 0."""
    d, tab = dtp
    st = _setup(tab, 4)
    for p, money in enumerate([9, 5, 5, 4]):
        st[S.seat(p) + S.MONEY] = money
    R.score_objective(st, tab, d.objective_names.index("most-money"))
    assert [st[S.seat(p) + S.STARS] for p in range(4)] == [8, 3, 3, 0]
    assert [st[S.seat(p) + S.SCORE + S.SRC_OBJECTIVES] for p in range(4)] == [8, 3, 3, 0]


@pytest.mark.parametrize("values,best_most,players,expect", [
    ([3, 3, 3, 3], True, 4, [4, 4, 4, 4]),  # 8 + 4 + 2 = 14 over 4: 3.5, rounded up
    ([1, 2, 3], False, 3, [6, 3, 0]),  # least wins
    ([7, 7], True, 2, [2, 2]),
    ([5, 1, 1, 1], True, 4, [8, 2, 2, 2]),  # 4 + 2 + 0 = 6 over 3
])
def test_ranking_splits_shared_places_rounded_up(values, best_most, players, expect):
    stars = np.array({2: [4, 0, 0, 0], 3: [6, 3, 0, 0], 4: [8, 4, 2, 0]}[players])
    assert [R.shared_stars(np.array(values), players, stars, best_most, i)
            for i in range(players)] == expect


def test_an_empty_bag_takes_the_set_aside_dice_then_substitutes(dtp):
    st = np.zeros(S.SIZE, dtype=np.int64)
    st[S.ASIDE + 1] = 2
    rng = game_stream(1, 1)
    assert [R.draw_die(st, rng) for _ in range(2)] == [1, 1]
    assert st[S.ASIDE + 1] == 0 and st[S.BAG + 1] == 0
    colours = [R.draw_die(st, rng) for _ in range(300)]
    assert sum(st[S.SUBST : S.SUBST + 3]) == 300
    assert set(colours) == {0, 1, 2}
    assert list(np.bincount(colours, minlength=3)) == list(st[S.SUBST : S.SUBST + 3])


def test_dice_come_and_go_through_the_pool():
    st = np.zeros(S.SIZE, dtype=np.int64)
    st[S.DIE_AT : S.DIE_AT + S.DICE] = S.NOWHERE
    i = R.add_die(st, 1, 9, 2, 4)
    j = R.add_die(st, 0, 3, 0, 6)
    k = R.add_die(st, 1, 4, 0, 6)
    # each park has its own range of slots
    assert (i, j, k) == (S.PARK_DICE, 0, S.PARK_DICE + 1)
    assert list(st[S.DICE_N : S.DICE_N + 2]) == [1, 2] and st[S.DIE_AT + j] == 3
    assert S.park_slots(st, 1) == (S.PARK_DICE, S.PARK_DICE + 2)
    R.discard_die(st, i)
    assert st[S.BAG + 2] == 1 and st[S.DIE_AT + i] == S.NOWHERE
    assert R.add_die(st, 1, 5, 1, 1) == i  # the freed slot is used again
    assert st[S.DICE_N + 1] == 2


def test_end_money_and_the_tie_breaks(dtp):
    d, tab = dtp
    st = _setup(tab, 3)
    for p, (stars, money) in enumerate([(20, 8), (21, 5), (20, 11)]):
        st[S.seat(p) + S.STARS] = stars
        st[S.seat(p) + S.MONEY] = money
    R.end_money(st, tab)
    assert [st[S.seat(p) + S.STARS] for p in range(3)] == [22, 22, 23]
    wins, ranks = np.empty(3), np.empty(3, dtype=np.int64)
    R.standing(st, np.array([3, 3, 3]), wins, ranks)
    assert list(wins) == [0, 0, 1] and list(ranks) == [2, 3, 1]
    st[S.seat(2) + S.STARS] = 22
    R.standing(st, np.array([4, 3, 4]), wins, ranks)  # equal dice: most money
    assert list(wins) == [0, 0, 1] and list(ranks) == [2, 3, 1]
    R.standing(st, np.array([5, 3, 4]), wins, ranks)  # most dice first
    assert list(wins) == [1, 0, 0]
    st[S.seat(0) + S.MONEY] = st[S.seat(2) + S.MONEY]
    R.standing(st, np.array([4, 3, 4]), wins, ranks)  # a full tie shares the win
    assert list(wins) == [0.5, 0, 0.5] and list(ranks) == [1, 3, 1]

BLUE, GREEN, YELLOW = 0, 1, 2
ENTRANCE, LOG_FLUME_HEX, FERRIS_HEX, DUCK_HEX, SPOOKY_HEX = 9, 4, 3, 8, 13


def _park(d, tab, tiles):
    """A 2-player game whose seat 0 has ``tiles`` ({hex: name}) and no dice yet."""
    st = _setup(tab, 2)
    for h, name in tiles.items():
        st[S.seat(0) + S.TILE + h] = _row(d, name)
    return st


def _party(st, tab, hex_, want):
    """The party on seat 0's hex whose (colour, pips) are ``want``, as a slot triple."""
    out = np.empty((R.MAX_PARTIES, 3), dtype=np.int64)
    n = R.parties(st, tab, 0, hex_, out, WORK)
    for k in range(n):
        got = sorted((st[S.DIE_COL + i], st[S.DIE_PIPS + i]) for i in out[k] if i >= 0)
        if got == sorted(want):
            return out[k]
    raise AssertionError(f"no party {want} among {n}")


def test_the_entrance_operates_twice_example_from_the_seed(dtp):
    """Blue forms a party of one green 3 at the entrance, lowers it to 2 and moves it, here to
    the Spooky Woods; the entrance can operate again (its second icon)."""
    d, tab = dtp
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"})
    die = R.add_die(st, 0, ENTRANCE, GREEN, 3)
    R.add_die(st, 0, ENTRANCE, BLUE, 5)
    assert R.free_icon(st, tab, 0, ENTRANCE)
    lowered = np.empty(3, dtype=np.int64)
    assert R.operate(st, tab, 0, ENTRANCE, _party(st, tab, ENTRANCE, [(GREEN, 3)]), lowered) == 1
    assert st[S.DIE_PIPS + die] == 2
    near = np.empty(6, dtype=np.int64)
    assert SPOOKY_HEX in near[: R.neighbour_tiles(st, tab, 0, ENTRANCE, near)]
    R.move_die(st, 0, die, SPOOKY_HEX)
    assert R.free_icon(st, tab, 0, ENTRANCE)  # the second icon
    R.operate(st, tab, 0, ENTRANCE, _party(st, tab, ENTRANCE, [(BLUE, 5)]), lowered)
    assert not R.free_icon(st, tab, 0, ENTRANCE)


def test_the_chain_example_from_the_seed(dtp):
    """Log Flume with a yellow 4 and a blue 5 -> the blue 4 moves to the Ferris Wheel, which
    operates with a yellow 1 and the blue 4 -> the yellow 1 is discarded, the blue 3 moves
    to the Duck Pond, which it operates (any blue)."""
    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume", FERRIS_HEX: "Ferris Wheel",
                        DUCK_HEX: "Duck Pond"})
    yellow4 = R.add_die(st, 0, LOG_FLUME_HEX, YELLOW, 4)
    blue5 = R.add_die(st, 0, LOG_FLUME_HEX, BLUE, 5)
    yellow1 = R.add_die(st, 0, FERRIS_HEX, YELLOW, 1)
    lowered = np.empty(3, dtype=np.int64)
    party = _party(st, tab, LOG_FLUME_HEX, [(YELLOW, 4), (BLUE, 5)])
    assert R.operate(st, tab, 0, LOG_FLUME_HEX, party, lowered) == 2
    assert st[S.DIE_PIPS + yellow4] == 3 and st[S.DIE_PIPS + blue5] == 4
    R.move_die(st, 0, blue5, FERRIS_HEX)
    party = _party(st, tab, FERRIS_HEX, [(YELLOW, 1), (BLUE, 4)])
    bag = st[S.BAG + YELLOW]
    assert R.operate(st, tab, 0, FERRIS_HEX, party, lowered) == 1 and lowered[0] == blue5
    assert st[S.DIE_AT + yellow1] == S.NOWHERE and st[S.BAG + YELLOW] == bag + 1
    R.move_die(st, 0, blue5, DUCK_HEX)
    assert st[S.DIE_PIPS + blue5] == 3
    _party(st, tab, DUCK_HEX, [(BLUE, 3)])
    assert not R.free_icon(st, tab, 0, LOG_FLUME_HEX)  # one icon, used
    R.score_cubes(st, tab, 0)
    stars = tab[TB.ATT_STARS + _row(d, "Log Flume")] + tab[TB.ATT_STARS + _row(d, "Ferris Wheel")]
    assert st[S.seat(0) + S.STARS] == stars and st[S.seat(0) + S.CUBES] == 0


def test_the_mascots_colour_adjustment_lets_a_yellow_count_as_blue(dtp):
    """The seed: a yellow 5 counts as blue for the Log Flume (with a yellow 4), for that
    operation only."""
    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume"})
    R.add_die(st, 0, LOG_FLUME_HEX, YELLOW, 4)
    yellow5 = R.add_die(st, 0, LOG_FLUME_HEX, YELLOW, 5)
    out = np.empty((R.MAX_PARTIES, 3), dtype=np.int64)
    assert R.parties(st, tab, 0, LOG_FLUME_HEX, out, WORK) == 0
    st[S.DIE_TINT + yellow5] = BLUE
    assert R.parties(st, tab, 0, LOG_FLUME_HEX, out, WORK) == 1
    R.operate(st, tab, 0, LOG_FLUME_HEX, out[0], np.empty(3, dtype=np.int64))
    assert st[S.DIE_TINT + yellow5] == -1


def _reference_parties(d, name, dice):
    """The parties of ``dice`` ((own colour, pips, colour counted) each) on attraction
    ``name``, by brute force from balance.py's plain reference: every set of dice of the
    requirement's size, in some order meeting it with the colours counted, as a sorted tuple
    of (own colour, pips): dice alike in colour and pips leave the same park behind."""
    import itertools

    from sim.dice_theme_park.balance import party_meets

    a = _row(d, name)
    kind = D.REQUIREMENTS[d.attractions["requirement"][a]]
    colour = int(d.attractions["requirement_colour"][a])
    size = 3 if kind in ("run_three", "three_equal") else 1 if kind == "single" else 2
    found = set()
    for chosen in itertools.combinations(range(len(dice)), size):
        if any(party_meets(kind, colour, tuple((dice[i][2], dice[i][1]) for i in order))
               for order in itertools.permutations(chosen)):
            found.add(tuple(sorted(dice[i][:2] for i in chosen)))
    return found


def _engine_parties(st, tab, hex_):
    out = np.empty((R.MAX_PARTIES, 3), dtype=np.int64)
    n = R.parties(st, tab, 0, hex_, out, WORK)
    for k in range(n):  # a die is in a party once
        party = [int(i) for i in out[k] if i >= 0]
        assert len(set(party)) == len(party), party
    return [tuple(sorted((int(st[S.DIE_COL + i]), int(st[S.DIE_PIPS + i]))
                         for i in out[k] if i >= 0)) for k in range(n)]


def _tile_with(d, tab, name, dice):
    st = _park(d, tab, {FERRIS_HEX: name})
    for colour, pips, counted in dice:
        i = R.add_die(st, 0, FERRIS_HEX, colour, pips)
        st[S.DIE_TINT + i] = counted if counted != colour else -1
    return st


def test_every_party_is_offered_however_many_dice_are_on_the_tile(dtp):
    """Twelve different dice on a run of three have 160 parties (C(6, 3) pips x 2^3
    colours), a Duck Pond finds its blue die among 24 yellow ones, and a tile holding 40
    dice, beyond any reachable park, still lists every party: nothing is cut short."""
    d, tab = dtp
    twelve = [(c, p, c) for c in (BLUE, GREEN) for p in range(1, 7)]
    st = _tile_with(d, tab, "Roller Coaster", twelve)
    got = _engine_parties(st, tab, FERRIS_HEX)
    assert len(got) == len(set(got)) == 160
    assert set(got) == _reference_parties(d, "Roller Coaster", twelve)
    st = _tile_with(d, tab, "Duck Pond", [(YELLOW, 4, YELLOW)] * 24 + [(BLUE, 3, BLUE)])
    assert _engine_parties(st, tab, FERRIS_HEX) == [((BLUE, 3),)]
    every = [(c, p, c) for c in range(3) for p in range(1, 7)] * 2 + [(BLUE, 6, BLUE)] * 4
    st = _tile_with(d, tab, "Roller Coaster", every)
    assert len(_engine_parties(st, tab, FERRIS_HEX)) == R.MAX_PARTIES == 540
    assert R.has_party(st, tab, _row(d, "Roller Coaster"),
                       np.array([i for i in range(S.PARK_DICE)
                                 if st[S.DIE_AT + i] == FERRIS_HEX], dtype=np.int64))


def test_parties_against_the_brute_force_reference(dtp):
    """Property test: on every attraction, any dice (colour, pips, a colour adjustment or
    none) give exactly the parties of the plain reference, each once."""
    from hypothesis import given, settings
    from hypothesis import strategies as st_

    d, tab = dtp
    die = st_.tuples(st_.integers(0, 2), st_.integers(1, 6), st_.integers(0, 2))

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st_.sampled_from(d.attraction_names), st_.lists(die, max_size=10))
    def check(name, dice):
        st = _tile_with(d, tab, name, dice)
        got = _engine_parties(st, tab, FERRIS_HEX)
        assert len(got) == len(set(got))
        assert set(got) == _reference_parties(d, name, dice)
        on = np.array([i for i in range(S.PARK_DICE) if st[S.DIE_AT + i] == FERRIS_HEX],
                      dtype=np.int64)
        assert R.has_party(st, tab, _row(d, name), on) == bool(got)  # the features' check

    check()


@pytest.mark.parametrize("name,dice,can", [
    ("Carousel", [(YELLOW, 6)], True),  # single any
    ("Duck Pond", [(BLUE, 1)], True), ("Duck Pond", [(GREEN, 1), (YELLOW, 6)], False),
    ("Tea Cups", [(BLUE, 2), (GREEN, 6)], True), ("Tea Cups", [(BLUE, 2), (GREEN, 5)], False),
    ("Mini Train", [(BLUE, 1), (GREEN, 5)], True), ("Mini Train", [(BLUE, 1), (BLUE, 4)], False),
    ("Spooky Woods", [(BLUE, 3), (GREEN, 2)], True),
    ("Spooky Woods", [(BLUE, 3), (GREEN, 3)], False),
    ("Swing Ride", [(BLUE, 3), (GREEN, 3)], True), ("Swing Ride", [(BLUE, 4), (GREEN, 5)], False),
    ("Bumper Cars", [(BLUE, 4), (YELLOW, 4)], True),
    ("Bumper Cars", [(BLUE, 4), (YELLOW, 5)], False),
    ("Roller Coaster", [(BLUE, 1), (BLUE, 3), (GREEN, 6)], True),
    ("Roller Coaster", [(BLUE, 1), (BLUE, 1), (GREEN, 6)], False),
    ("Roller Coaster", [(BLUE, 1), (GREEN, 6), (BLUE, 1)], False),  # the first and last equal
    ("Wild Mouse", [(BLUE, 2), (YELLOW, 2), (GREEN, 2)], True),
    ("Wild Mouse", [(BLUE, 2), (YELLOW, 2), (GREEN, 3)], False),
    ("Log Flume", [(BLUE, 5), (GREEN, 4)], True), ("Log Flume", [(BLUE, 4), (GREEN, 5)], False),
    ("Ghost Train", [(GREEN, 2), (BLUE, 4)], True), ("Ghost Train", [(GREEN, 5), (BLUE, 4)], False),
    ("Ferris Wheel", [(YELLOW, 3), (GREEN, 6)], True),
    ("Ferris Wheel", [(YELLOW, 4), (GREEN, 3)], False),
])
def test_each_requirement_kind_true_and_false(dtp, name, dice, can):
    d, tab = dtp
    st = _park(d, tab, {FERRIS_HEX: name})
    for colour, pips in dice:
        R.add_die(st, 0, FERRIS_HEX, colour, pips)
    out = np.empty((R.MAX_PARTIES, 3), dtype=np.int64)
    assert (R.parties(st, tab, 0, FERRIS_HEX, out, WORK) > 0) == can
    on = np.array([i for i in range(S.PARK_DICE) if st[S.DIE_AT + i] == FERRIS_HEX],
                  dtype=np.int64)
    assert R.has_party(st, tab, _row(d, name), on) == can  # the features' check
    # the compiled check agrees with balance.py's plain reference
    from sim.dice_theme_park.balance import can_operate

    a = _row(d, name)
    kind = D.REQUIREMENTS[d.attractions["requirement"][a]]
    assert can_operate(kind, int(d.attractions["requirement_colour"][a]), dice) == can


def test_welcome_brings_a_monorails_dice_to_the_entrance(dtp):
    d, tab = dtp
    st = _setup(tab, 2, seed=3)
    cols = list(st[S.MONO_COL + 3 : S.MONO_COL + 6])
    pips = list(st[S.MONO_PIPS + 3 : S.MONO_PIPS + 6])
    new = np.empty(3, dtype=np.int64)
    assert R.take_monorail(st, tab, 1, 1, new) == 3
    assert [st[S.DIE_AT + i] for i in new] == [1 * S.HEXES + ENTRANCE] * 3
    assert [st[S.DIE_COL + i] for i in new] == cols
    assert [st[S.DIE_PIPS + i] for i in new] == pips
    assert st[S.MONO_TAKEN + 1] == 1 and list(st[S.MONO_COL + 3 : S.MONO_COL + 6]) == [-1] * 3
    R.raise_die(st, new[0], 2)  # the concierge: one die up to +2, never above 6
    assert st[S.DIE_PIPS + new[0]] == min(6, pips[0] + 2)


def test_building_pays_sits_next_to_the_park_and_triggers_amenity_bonuses(dtp):
    d, tab = dtp
    st = _setup(tab, 2)
    b = S.seat(0)
    hexes = np.empty(S.HEXES, dtype=np.int64)
    n = R.build_hexes(st, tab, 0, hexes)
    cells = [(int(q), int(r)) for q, r in zip(d.park["q"], d.park["r"])]
    start = {(0, 0), (1, -1), (1, 0), (0, 1)}  # the entrance and the basic attractions
    ring = {(q + a, r + c) for q, r in start for a, c in D.HEX_STEPS} & set(cells) - start
    assert sorted(hexes[:n]) == sorted(cells.index(c) for c in ring)
    # the Carousel (food) is in the park: a second food tile brings the 2-bonus
    st[S.DISPLAY : S.DISPLAY + 3] = [_row(d, "Helter Skelter"), _row(d, "Pirate Ship"),
                                     _row(d, "Big Top")]
    st[S.DISPLAY_N] = 3
    st[b + S.MONEY] = 30
    assert R.build(st, tab, 0, 0, 4) == R.BONUS_SET_PIPS
    assert st[b + S.MONEY] == 30 - 4 and st[S.DISPLAY_N] == 2
    assert list(st[S.DISPLAY : S.DISPLAY + 2]) == [_row(d, "Pirate Ship"), _row(d, "Big Top")]
    assert R.build(st, tab, 0, 0, 3) == R.BONUS_DRAW_DIE  # the third food
    die = R.bonus_draw_die(st, tab, 0, game_stream(0, 9))
    assert st[S.DIE_PIPS + die] == 4 and st[S.DIE_AT + die] == ENTRANCE
    st[S.DISCARD] = _row(d, "Candy Stall")
    st[S.DISCARD_N] = 1
    assert R.build(st, tab, 0, 0, 8) == R.BONUS_FREE_BUILD  # the fourth
    R.build_from_discard(st, tab, 0, 0, 13)
    assert st[b + S.TILE + 13] == _row(d, "Candy Stall") and st[S.DISCARD_N] == 0
    assert R.amenity_count(st, tab, 0, D.AMENITIES.index("food")) == 4


def test_an_empty_discard_pile_gives_no_free_build(dtp):
    d, tab = dtp
    st = _park(d, tab, {4: "Helter Skelter", 3: "Pirate Ship"})
    st[S.DISPLAY] = _row(d, "Big Top")
    st[S.DISPLAY_N] = 1
    st[S.seat(0) + S.MONEY] = 20
    assert R.build(st, tab, 0, 0, 8) == R.BONUS_NONE


@pytest.mark.parametrize("staff,price", [((0, 1), 5), ((3, 1), 3), ((3, 3), 1)])
def test_a_mascot_costs_5_less_2_per_mascot_staff(dtp, staff, price):
    d, tab = dtp
    st = _setup(tab, 2)
    st[S.seat(0) + S.HAND + 3] = 2
    R.play_staff(st, tab, 0, *staff)
    assert R.mascot_price(st, tab, 0) == price
    R.hire_mascot(st, tab, 0)
    assert st[S.seat(0) + S.MASCOTS] == 2 and st[S.seat(0) + S.MONEY] == 6 - price


def test_upgrades_cost_their_space_less_the_architect_one_of_a_kind_two_a_round(dtp):
    d, tab = dtp
    st = _park(d, tab, {4: "Log Flume", 3: "Candy Stall"})
    b = S.seat(0)
    st[b + S.MONEY] = 20
    assert R.upgrade_cost(st, tab, 0, 3) == -1  # a tile with income has no space
    assert R.upgrade_cost(st, tab, 0, 4) == 4
    R.install(st, tab, 0, S.SPECIAL_EFFECT, 4)
    assert R.upgrade_cost(st, tab, 0, 4) == 5  # the second space
    assert not R.can_install(st, tab, 0, S.SPECIAL_EFFECT, 4)  # one of a kind
    assert R.can_install(st, tab, 0, S.GENERATOR, 4)
    R.install(st, tab, 0, S.GENERATOR, 4)
    assert st[b + S.MONEY] == 20 - 4 - 5 and R.upgrade_cost(st, tab, 0, 4) == -1
    assert not R.can_install(st, tab, 0, S.GIFT_SHOP, 14)  # two this round already
    assert R.free_icon(st, tab, 0, 4)
    st[b + S.CUBES_ON + 4] = 1
    assert R.free_icon(st, tab, 0, 4)  # the generator's second icon
    R.reset_round(st)
    st[b + S.HAND + 5] = 2
    R.play_staff(st, tab, 0, 5, 5)  # two architects: $2 off, may remove two
    R.remove_upgrade(st, 0, S.SPECIAL_EFFECT, 4)
    assert st[b + S.UPGRADES + S.SPECIAL_EFFECT] == 3
    assert not R.can_install(st, tab, 0, S.SPECIAL_EFFECT, 4)  # never back where it was
    assert R.upgrade_cost(st, tab, 0, 14) == 2 and R.can_install(st, tab, 0, S.SPECIAL_EFFECT, 14)


def test_maps_the_guide_and_adjustments_move_and_change_dice(dtp):
    """The seed: two maps move a blue 5 from the entrance to the Log Flume, two steps; a
    mascot's +1 turns a blue 4 into a 5."""
    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume", FERRIS_HEX: "Ferris Wheel"})
    b = S.seat(0)
    blue5 = R.add_die(st, 0, 14, BLUE, 5)  # on the Mini Train, two steps from the Log Flume
    near = np.empty(6, dtype=np.int64)
    assert LOG_FLUME_HEX not in near[: R.neighbour_tiles(st, tab, 0, 14, near)]
    empty = [h for h in tab[TB.HEX_NEIGHBOURS + 14 * 6 : TB.HEX_NEIGHBOURS + 15 * 6]
             if h >= 0 and st[b + S.TILE + h] < 0]
    assert empty and not set(empty) & set(near[: R.neighbour_tiles(st, tab, 0, 14, near)])
    R.use_map(st, 0, blue5, ENTRANCE)
    R.use_map(st, 0, blue5, LOG_FLUME_HEX)
    assert st[b + S.MAPS_UP] == 1 and st[b + S.MAPS_DOWN] == 2
    assert st[S.DIE_AT + blue5] == LOG_FLUME_HEX
    R.use_guide(st, 0, blue5, 14)
    assert st[S.DIE_AT + blue5] == 14 and st[b + S.GUIDE_USED] == 1
    blue4 = R.add_die(st, 0, 4, BLUE, 4)
    R.adjust_pips(st, blue4, 1)
    assert st[S.DIE_PIPS + blue4] == 5
    R.adjust_pips(st, blue4, 1)
    R.adjust_pips(st, blue4, 1)
    assert st[S.DIE_PIPS + blue4] == 6  # never above 6
    one = R.add_die(st, 0, 4, GREEN, 1)
    R.adjust_pips(st, one, -1)
    assert st[S.DIE_AT + one] == S.NOWHERE  # -1 on a 1: back to the bag
    R.reset_round(st)
    assert st[b + S.MAPS_UP] == 3 and st[b + S.MAPS_DOWN] == 0


def test_upkeep_ones_leave_and_the_ticket_agent_saves_one(dtp):
    d, tab = dtp
    st = _park(d, tab, {})
    a = R.add_die(st, 0, 14, BLUE, 1)
    R.add_die(st, 0, 5, GREEN, 1)
    R.add_die(st, 0, 5, GREEN, 2)
    out = np.empty(S.DICE, dtype=np.int64)
    n = R.ones(st, 0, out)
    assert n == 2
    R.save_die(st, tab, 0, a, 6)
    assert st[S.DIE_AT + a] == ENTRANCE and st[S.DIE_PIPS + a] == 6
    for i in out[:n]:
        if i != a:
            R.discard_die(st, i)
    assert R.ones(st, 0, out) == 0


def test_staff_rotate_to_the_left(dtp):
    d, tab = dtp
    st = _setup(tab, 3)
    for p, pair in enumerate([(0, 1), (2, 3), (4, 5)]):
        R.play_staff(st, tab, p, *pair)
    R.rotate_staff(st)
    hands = [list(st[S.seat(p) + S.HAND : S.seat(p) + S.HAND + 6]) for p in range(3)]
    assert hands[1] == [2, 2, 0, 0, 1, 1]  # seat 1 got seat 0's concierge and ticket agent
    assert hands[0] == [0, 0, 1, 1, 2, 2] and hands[2] == [1, 1, 2, 2, 0, 0]


def test_monorails_and_display_are_refilled(dtp):
    d, tab = dtp
    st = _setup(tab, 4, seed=2)
    new = np.empty(3, dtype=np.int64)
    for p in range(4):
        R.take_monorail(st, tab, p, p, new)
    R.refill_monorails(st, tab, game_stream(2, 5))
    in_park = st[S.DIE_AT : S.DIE_AT + S.DICE] != S.NOWHERE
    park = np.bincount(st[S.DIE_COL : S.DIE_COL + S.DICE][in_park], minlength=3)
    mono = np.bincount(st[S.MONO_COL : S.MONO_COL + 15], minlength=3)
    total = st[S.BAG : S.BAG + 3] + st[S.ASIDE : S.ASIDE + 3] + mono + park
    assert list(total) == [21 + s for s in st[S.SUBST : S.SUBST + 3]]
    assert all(st[S.MONO_TAKEN + m] == -1 for m in range(5))
    st[S.DISPLAY : S.DISPLAY + 2] = [1, 2]
    st[S.DISPLAY_N] = 2
    before = st[S.STACK_B_N]
    R.refill_display(st, tab, 2)  # round 3 of the intro game: stack B
    assert st[S.DISCARD_N] == 2 and st[S.DISPLAY_N] == 5 and st[S.STACK_B_N] == before - 5
    assert all(D.STACKS[d.attractions["stack"][a]] == "B"
               for a in st[S.DISPLAY : S.DISPLAY + 5])


def _features(st, tab, kind, ctx=None):
    """Seat 0's legal moves at a ``kind`` decision and their feature rows, both paths."""
    from sim.dice_theme_park import features as F
    from sim.dice_theme_park import moves as M

    moves = np.zeros(M.MAX_MOVES, dtype=np.int64)
    ctx = np.zeros(1 + S.DICE, dtype=np.int64) if ctx is None else ctx
    n = M.legal_moves(st, tab, 0, kind, ctx, moves, M.new_workspace())
    rows = []
    for exact in (False, True):
        feats = np.zeros((M.MAX_MOVES, F.N_FEATURES))
        F.move_features(st, tab, 0, kind, moves, n, feats, F.new_buffers(), ctx, exact)
        rows.append(feats[:n])
    assert (rows[0] == rows[1]).all()
    named = [{f: rows[0][m, k] for k, f in enumerate(F.FEATURES)} for m in range(n)]
    return [M.decode(m) for m in moves[:n]], named


def test_features_say_what_a_move_changes(dtp):
    """Hand-built: an upgrade's features are its price, the stars a round of the attraction
    gains (a special effect: +2 per icon; a generator: one more operation) and one more
    upgrade; an operation's are its stars pending and the die it lowers; staff pairs carry
    their pips and money."""
    from sim.dice_theme_park import moves as M

    d, tab = dtp
    flume = _row(d, "Log Flume")
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume"})
    st[S.seat(0) + S.MONEY] = 20
    moves, feats = _features(st, tab, M.K_UPGRADE)
    stars, icons = tab[TB.ATT_STARS + flume], tab[TB.ATT_ICONS + flume]
    for (t, kind, hex_, _), f in zip(moves, feats):
        if t == M.PASS:
            assert f["pass"] == 1 and f["money"] == 0 and f["upgrades"] == 0
            continue
        assert f["money"] == -R.upgrade_cost(st, tab, 0, hex_) and f["upgrades"] == 1
        if hex_ == LOG_FLUME_HEX:
            value = {S.SPECIAL_EFFECT: 2 * icons, S.GENERATOR: stars, S.GIFT_SHOP: 0}[kind]
            assert f["park_value"] == value, (kind, f)
    yellow4 = R.add_die(st, 0, LOG_FLUME_HEX, YELLOW, 4)
    R.add_die(st, 0, LOG_FLUME_HEX, BLUE, 5)
    R.add_die(st, 0, ENTRANCE, GREEN, 1)
    moves, feats = _features(st, tab, M.K_OPERATE)
    ops = [f for (t, a, _, _), f in zip(moves, feats) if t == M.T_ACT and a == LOG_FLUME_HEX]
    assert len(ops) == 1
    assert ops[0]["stars"] == stars and ops[0]["pips"] == -2 and ops[0]["dice"] == 0
    assert ops[0]["operable"] == -1  # its only icon is used
    moved = [f for (t, a, h, _), f in zip(moves, feats) if t == M.T_MAP and a == yellow4]
    assert moved and all(f["resources"] == -1 and f["dice"] == 0 for f in moved)
    green1 = [f for (t, a, b, _), f in zip(moves, feats) if t == M.T_PIPS and b == 0
              and st[S.DIE_COL + a] == GREEN]
    assert green1[0]["dice"] == -1 and green1[0]["pips"] == -1  # a 1 lowered leaves the park
    st[S.seat(0) + S.CUBES] = tab[R.P_CUBES] - 1  # the operation places the last cube
    out = np.empty((R.MAX_PARTIES, 3), dtype=np.int64)
    ready = sum(R.free_icon(st, tab, 0, h) and R.parties(st, tab, 0, h, out, WORK) > 0
                for h in range(S.HEXES))
    moves, feats = _features(st, tab, M.K_OPERATE)
    last = [f for (t, a, _, _), f in zip(moves, feats) if t == M.T_ACT and a == LOG_FLUME_HEX]
    assert ready == 2 and last[0]["operable"] == -2  # nothing can operate any more
    st[S.seat(0) + S.CUBES] = 0
    moves, feats = _features(st, tab, M.K_STAFF)
    for (_, x, y, _), f in zip(moves, feats):
        assert f["turn_sum"] == tab[TB.STAFF_PIPS + x] + tab[TB.STAFF_PIPS + y]
        assert f["income"] == tab[TB.STAFF_MONEY + x] + tab[TB.STAFF_MONEY + y]


def test_a_draw_follows_the_bags_make_up(dtp):
    """From a bag of one die of each colour every colour is drawn a third of the time."""
    first = []
    for seed in range(3000):
        st = np.zeros(S.SIZE, dtype=np.int64)
        st[S.BAG : S.BAG + 3] = 1
        first.append(R.draw_die(st, game_stream(seed, 0)))
    shares = np.bincount(first, minlength=3) / len(first)
    assert np.allclose(shares, 1 / 3, atol=0.03), shares


def test_upkeep_scores_cubes_special_effects_and_gift_shops(dtp):
    """Per cube: the printed stars, +2 with a special effect, +$2 with a gift shop (a
    generator adds neither); cubes go back."""
    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume", FERRIS_HEX: "Ferris Wheel"})
    b = S.seat(0)
    st[b + S.UPGRADE + LOG_FLUME_HEX] = (1 << S.SPECIAL_EFFECT) | (1 << S.GIFT_SHOP)
    st[b + S.UPGRADE + FERRIS_HEX] = 1 << S.GENERATOR
    st[b + S.CUBES_ON + LOG_FLUME_HEX] = 2
    st[b + S.CUBES_ON + FERRIS_HEX] = 1
    st[b + S.CUBES] = 3
    money = st[b + S.MONEY]
    R.score_cubes(st, tab, 0)
    flume, ferris = (tab[TB.ATT_STARS + _row(d, n)] for n in ("Log Flume", "Ferris Wheel"))
    assert st[b + S.SCORE + S.SRC_OPERATIONS] == 2 * flume + ferris
    assert st[b + S.SCORE + S.SRC_EFFECTS] == 2 * 2
    assert st[b + S.MONEY] == money + 2 * 2 and st[b + S.CUBES] == 0
    assert st[b + S.STARS_ROUND] == 2 * flume + ferris + 4 and st[b + S.MONEY_ROUND] == 4


def test_the_last_rounds_ticket_agent_counts_a_saved_die_for_the_tie_break(dtp):
    """After the last round the 1s leave before dice are counted; a ticket agent played in
    that round saves one."""
    from sim.dice_theme_park.play import final_standing

    d, tab = dtp
    st = _setup(tab, 2)
    for p in range(2):
        R.add_die(st, p, ENTRANCE, BLUE, 1)
        R.add_die(st, p, ENTRANCE, GREEN, 1)
        R.add_die(st, p, ENTRANCE, GREEN, 4)
    R.play_staff(st, tab, 1, R.TICKET_AGENT, R.GUIDE)
    dice, wins, ranks = np.zeros(4, dtype=np.int64), np.zeros(4), np.zeros(4, dtype=np.int64)
    final_standing(st, tab, dice, wins, ranks)
    assert list(dice[:2]) == [1, 2] and list(wins[:2]) == [0, 1]


def test_the_random_pick_at_an_operate_decision_is_one_of_the_whole_list(dtp):
    """A random bot's operate pick is counted, not listed (moves.random_operate_move): for
    every draw it must be the move ``uniform_pick`` takes from the whole list, with maps,
    the guide, mascots and the mascot staff's extras in play, and dice alike on a hex."""
    from sim.dice_theme_park import moves as M
    from strategies.selectors import uniform_pick

    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume", FERRIS_HEX: "Ferris Wheel",
                        DUCK_HEX: "Duck Pond", SPOOKY_HEX: "Spooky Woods"})
    b = S.seat(0)
    for hex_, colour, pips in [(LOG_FLUME_HEX, YELLOW, 4), (LOG_FLUME_HEX, YELLOW, 4),
                               (LOG_FLUME_HEX, BLUE, 6), (FERRIS_HEX, GREEN, 1),
                               (FERRIS_HEX, BLUE, 2), (ENTRANCE, GREEN, 3),
                               (SPOOKY_HEX, YELLOW, 5)]:
        R.add_die(st, 0, hex_, colour, pips)
    ws = M.new_workspace()
    listed = np.zeros(M.MAX_MOVES, dtype=np.int64)
    counted = np.zeros(M.MAX_MOVES, dtype=np.int64)
    ctx = np.zeros(1 + S.DICE, dtype=np.int64)
    setups = [dict(), dict(MAPS_UP=2), dict(MASCOTS=1), dict(MAPS_UP=1, MASCOTS=2),
              dict(MASCOTS=1, EXTRA_LEFT=1, EXTRA_HEX=LOG_FLUME_HEX),
              dict(MASCOTS=1, EXTRA_HEX=LOG_FLUME_HEX)]  # the extras used up
    kinds = set()
    for played in ([R.GUIDE, R.MASCOT], [R.CONCIERGE, R.MANAGER]):
        for fields in setups:
            st[b + S.PLAYED : b + S.PLAYED + 2] = played
            for name in ("MAPS_UP", "MASCOTS", "EXTRA_LEFT", "EXTRA_HEX", "MASCOTS_USED"):
                st[b + getattr(S, name)] = fields.get(name, 0)
            n = M.legal_moves(st, tab, 0, M.K_OPERATE, ctx, listed, ws)
            kinds |= {M.decode(m)[0] for m in listed[:n]}
            for u in np.linspace(0, 1, 4 * n, endpoint=False):
                want = listed[uniform_pick(n, u)]
                assert M.random_operate_move(st, tab, 0, counted, ws, u) == want, (fields, u)
    assert kinds == {M.PASS, M.T_ACT, M.T_MAP, M.T_GUIDE, M.T_PIPS, M.T_TINT}


def test_dice_alike_move_once_and_a_colour_adjustment_parts_them(dtp):
    """Dice alike (colour, pips, adjustment) on one hex give their moves once (moves.park_dice
    groups them by a code); a die adjusted to another colour, or to its own, is not alike
    the others, and one elsewhere neither. Both pick paths list the same."""
    from sim.dice_theme_park import moves as M
    from strategies.selectors import uniform_pick

    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume", FERRIS_HEX: "Ferris Wheel"})
    st[S.seat(0) + S.MAPS_UP] = 1
    slots = [R.add_die(st, 0, hex_, BLUE, 3)
             for hex_ in (LOG_FLUME_HEX, LOG_FLUME_HEX, LOG_FLUME_HEX, LOG_FLUME_HEX, FERRIS_HEX)]
    st[S.DIE_TINT + slots[2]] = YELLOW
    st[S.DIE_TINT + slots[3]] = BLUE
    ws = M.new_workspace()
    moves = np.zeros(M.MAX_MOVES, dtype=np.int64)
    n = M.legal_moves(st, tab, 0, M.K_OPERATE, np.zeros(1 + S.DICE, dtype=np.int64), moves, ws)
    mapped = {M.decode(m)[1] for m in moves[:n] if M.decode(m)[0] == M.T_MAP}
    assert mapped == {slots[0], slots[2], slots[3], slots[4]}
    for u in np.linspace(0, 1, 3 * n, endpoint=False):
        assert M.random_operate_move(st, tab, 0, np.zeros_like(moves), ws, u) == moves[
            uniform_pick(n, u)]


def test_legal_moves_keep_the_limits(dtp):
    """Hand-built decisions: a pair of one staff needs two in hand; only affordable tiles on
    hexes next to the park; at most the maps a round allows; a mascot only with its price;
    removals only with an architect and before an install; the manager's extra operation
    only when played and unused; the mascot staff's extra adjustments only on the attraction
    of the last mascot use, as many as mascot staff played."""
    from sim.dice_theme_park import moves as M

    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume"})
    b = S.seat(0)
    ws = M.new_workspace()
    moves = np.zeros(M.MAX_MOVES, dtype=np.int64)
    ctx = np.zeros(1 + S.DICE, dtype=np.int64)

    def legal(kind):
        return [M.decode(m) for m in moves[: M.legal_moves(st, tab, 0, kind, ctx, moves, ws)]]

    st[b + S.HAND : b + S.HAND + 6] = [2, 1, 0, 0, 0, 0]
    pairs = [(a, c) for _, a, c, _ in legal(M.K_STAFF)]
    assert sorted(pairs) == [(0, 0), (0, 1)]
    st[S.DISPLAY : S.DISPLAY + 2] = [_row(d, "Ferris Wheel"), _row(d, "Duck Pond")]
    st[S.DISPLAY_N] = 2
    st[b + S.MONEY] = tab[TB.ATT_COST + _row(d, "Duck Pond")]
    assert tab[TB.ATT_COST + _row(d, "Ferris Wheel")] > st[b + S.MONEY]
    builds = [(a, h) for t, a, h, _ in legal(M.K_BUILD) if t == M.T_ACT]
    hexes = np.empty(S.HEXES, dtype=np.int64)
    assert builds and {a for a, _ in builds} == {1}
    assert {h for _, h in builds} == set(hexes[: R.build_hexes(st, tab, 0, hexes)])
    st[b + S.MONEY] = 20
    st[b + S.MAPS_BOUGHT] = tab[R.P_MAX_MAPS_BOUGHT] - 1
    assert len(legal(M.K_MAP)) == 2
    st[b + S.MAPS_BOUGHT] += 1
    assert len(legal(M.K_MAP)) == 1
    st[b + S.MONEY] = R.mascot_price(st, tab, 0) - 1
    assert len(legal(M.K_MASCOT)) == 1
    st[b + S.MONEY] = 20
    # the supply: a map while one is left of the 32 (every player's among them), a mascot
    # while one of the player's colour is left (6, the starting one included)
    st[b + S.MAPS_BOUGHT] = 0
    others = sum(st[S.seat(p) + S.MAPS_UP] for p in range(1, 2))
    st[b + S.MAPS_UP] = tab[R.P_MAPS_SUPPLY] - others - 1
    assert R.maps_left(st, tab) == 1 and len(legal(M.K_MAP)) == 2
    st[b + S.MAPS_UP] += 1
    assert R.maps_left(st, tab) == 0 and len(legal(M.K_MAP)) == 1
    st[b + S.MAPS_UP] = 3
    st[b + S.MASCOTS] = tab[R.P_MASCOTS_EACH] - 1
    assert len(legal(M.K_MASCOT)) == 2
    st[b + S.MASCOTS] += 1
    assert len(legal(M.K_MASCOT)) == 1
    st[b + S.MASCOTS] = 1
    R.install(st, tab, 0, S.GIFT_SHOP, LOG_FLUME_HEX)
    st[b + S.INSTALLED] = 0
    assert not [m for m in legal(M.K_UPGRADE) if m[0] == M.T_REMOVE]  # no architect
    st[b + S.PLAYED : b + S.PLAYED + 2] = [R.ARCHITECT, R.MASCOT]
    assert [m for m in legal(M.K_UPGRADE) if m[0] == M.T_REMOVE]
    st[b + S.REMOVED] = 1
    assert not [m for m in legal(M.K_UPGRADE) if m[0] == M.T_REMOVE]  # one architect, used
    blue5 = R.add_die(st, 0, LOG_FLUME_HEX, BLUE, 5)
    R.add_die(st, 0, LOG_FLUME_HEX, GREEN, 4)
    st[b + S.CUBES_ON + LOG_FLUME_HEX] = 1  # its icon is used
    assert not [m for m in legal(M.K_OPERATE) if m[0] == M.T_ACT]
    st[b + S.PLAYED + 1] = R.MANAGER
    assert [m[3] for m in legal(M.K_OPERATE) if m[0] == M.T_ACT] == [1]
    st[b + S.MANAGER_USED] = 1
    assert not [m for m in legal(M.K_OPERATE) if m[0] == M.T_ACT]
    # a mascot use with the mascot staff played: its extra adjustments, on that attraction
    st[b + S.PLAYED + 1] = R.MASCOT
    R.add_die(st, 0, ENTRANCE, YELLOW, 3)  # a die elsewhere gets no extra adjustment
    M.apply(st, tab, 0, M.K_OPERATE, M.encode(M.T_PIPS, blue5, 0, 0), ctx)
    assert st[b + S.EXTRA_LEFT] == 1 and st[b + S.EXTRA_HEX] == LOG_FLUME_HEX
    extras = [m for m in legal(M.K_OPERATE) if m[0] in (M.T_PIPS, M.T_TINT) and m[3] == 1]
    assert extras and all(st[S.DIE_AT + a] == LOG_FLUME_HEX for _, a, _, _ in extras)
    st[b + S.PLAYED] = R.MASCOT  # two mascot staff: two extras after a use
    st[b + S.MASCOTS_USED] = 0
    M.apply(st, tab, 0, M.K_OPERATE, M.encode(M.T_TINT, blue5, GREEN, 0), ctx)
    assert st[b + S.EXTRA_LEFT] == 2


def test_no_decision_can_have_more_moves_than_its_buffer(dtp):
    """moves.max_moves bounds an operate decision's moves with the most dice a park can
    hold (state.MAX_PARK_DICE: 5 a round, 5 rounds); MAX_MOVES holds it. A park near that
    bound, its dice all different and on one tile, with a skill card per mascot, lists
    every party and use below the bound."""
    from sim.dice_theme_park import moves as M

    assert S.MAX_PARK_DICE == S.MAX_ROUNDS * (S.SPACES + 2) == 25
    assert M.MAX_MOVES >= M.max_moves()
    d, tab = dtp
    st = _park(d, tab, {FERRIS_HEX: "Roller Coaster", LOG_FLUME_HEX: "Log Flume"})
    b = S.seat(0)
    for c in range(3):
        for p in range(1, 7):
            R.add_die(st, 0, FERRIS_HEX, c, p)
    for p in range(1, 8):
        R.add_die(st, 0, LOG_FLUME_HEX, p % 3, min(p, 6))
    names = ["nudge-1", "nudge-2", "nudge-3", "nudge-4", "leap-1", "leap-2", "push-1", "pull-1"]
    for k, name in enumerate(names):
        st[b + S.SKILLS + k] = d.skill_names.index(name)
    st[b + S.SKILLS_N] = st[b + S.MASCOTS] = len(names)
    st[b + S.PLAYED : b + S.PLAYED + 2] = [R.GUIDE, R.MANAGER]
    ws = M.new_workspace()
    moves = np.zeros(M.MAX_MOVES, dtype=np.int64)
    n = M.legal_moves(st, tab, 0, M.K_OPERATE, np.zeros(1 + S.DICE, dtype=np.int64), moves,
                      ws)
    assert 1000 < n < M.max_moves()
    ops = sum(1 for m in moves[:n] if M.decode(m)[0] == M.T_ACT and M.decode(m)[1] == FERRIS_HEX)
    assert ops == R.MAX_PARTIES  # all 540 parties of the 18 different dice


def test_income_adds_both_staff_cards_money_and_the_parks(dtp):
    """Every pair of staff played (two different cards or one twice): the two cards' money,
    each once, plus the tiles' printed income. The seed's example: concierge + architect on
    the starting park (the entrance's $1) give $7."""
    d, tab = dtp
    money = {name: int(d.staff["money"][k]) for k, name in enumerate(D.STAFF)}
    st = _setup(tab, 2)
    R.play_staff(st, tab, 0, STAFF["concierge"], STAFF["architect"])
    assert R.income(st, tab, 0) == 7
    for x in range(6):
        for y in range(x, 6):
            st = _setup(tab, 2)
            st[S.seat(0) + S.HAND + x] = st[S.seat(0) + S.HAND + y] = 2  # twins possible
            R.play_staff(st, tab, 0, x, y)
            assert R.income(st, tab, 0) == money[D.STAFF[x]] + money[D.STAFF[y]] + 1, (x, y)
    st = _park(d, tab, {LOG_FLUME_HEX: "Helter Skelter"})  # a tile with $1 of income
    R.play_staff(st, tab, 0, STAFF["guide"], STAFF["mascot"])
    assert R.income(st, tab, 0) == 8  # the seed's yellow player


def _end(tab, seats):
    """A 2-4 player end: each seat (stars, money, pips of its dice, ticket agents played)."""
    st = _setup(tab, len(seats))
    for p, (stars, money, pips, agents) in enumerate(seats):
        b = S.seat(p)
        st[b + S.STARS], st[b + S.MONEY] = stars, money
        for k in pips:
            R.add_die(st, p, ENTRANCE, BLUE, k)
        played = [R.TICKET_AGENT] * agents + [R.GUIDE, R.MANAGER][agents:]
        st[b + S.HAND + R.TICKET_AGENT] = 2
        R.play_staff(st, tab, p, min(played), max(played))
    return st


def test_the_tie_break_counts_saves_only_for_dice_at_1(dtp):
    """Property test of the end: most stars, then most dice in the park after the 1s leave
    (each ticket agent played in the last round saves one of them, none when there is none),
    then most money; a full tie shares the win. Money and stars of any size compare whole."""
    from hypothesis import given, settings
    from hypothesis import strategies as st_

    from sim.dice_theme_park.play import final_standing

    _, tab = dtp
    seat = st_.tuples(st_.integers(0, 3), st_.sampled_from([0, 5, 10**6]),
                      st_.lists(st_.integers(1, 6), max_size=5), st_.integers(0, 2))

    @settings(max_examples=200, deadline=None, derandomize=True)
    @given(st_.lists(seat, min_size=2, max_size=4))
    def check(seats):
        st = _end(tab, seats)
        dice, wins, ranks = np.zeros(4, dtype=np.int64), np.zeros(4), np.zeros(4, dtype=np.int64)
        final_standing(st, tab, dice, wins, ranks)
        kept = [len(pips) - pips.count(1) + min(pips.count(1), agents)
                for _, _, pips, agents in seats]
        assert list(dice[:len(seats)]) == kept
        key = [(s[0], kept[p], s[1]) for p, s in enumerate(seats)]
        best = max(key)
        assert list(wins[:len(seats)]) == [1 / key.count(best) if k == best else 0 for k in key]
        assert list(ranks[:len(seats)]) == [1 + sum(o > k for o in key) for k in key]

    check()
    # the review's case: a ticket agent with no die at 1 saves nothing, so a full tie stays
    st = _end(tab, [(10, 4, [3, 5], 1), (10, 4, [2, 6], 0)])
    dice, wins, ranks = np.zeros(4, dtype=np.int64), np.zeros(4), np.zeros(4, dtype=np.int64)
    final_standing(st, tab, dice, wins, ranks)
    assert list(dice[:2]) == [2, 2] and list(wins[:2]) == [0.5, 0.5]
