"""Dice Theme Park's rule functions on hand-built states: setup, the seed's worked examples
of planning and scoring, the empty bag, the end. (The engine is being built: issue 10.)"""

import numpy as np
import pytest

from sim.core.rng import game_stream
from sim.dice_theme_park import data as D
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB

STAFF = {name: k for k, name in enumerate(D.STAFF)}


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
    out = np.empty(players, dtype=np.int64)
    R.rank_and_split(np.array(values), players, stars, best_most, out)
    assert list(out) == expect


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
    assert (i, j) == (0, 1) and st[S.DICE_N] == 2 and st[S.DIE_AT + j] == 3
    R.discard_die(st, i)
    assert st[S.BAG + 2] == 1 and st[S.DIE_AT + i] == S.NOWHERE
    assert R.add_die(st, 1, 5, 1, 1) == 0  # the freed slot is used again


def test_end_money_and_the_tie_breaks(dtp):
    d, tab = dtp
    st = _setup(tab, 3)
    for p, (stars, money) in enumerate([(20, 8), (21, 5), (20, 11)]):
        st[S.seat(p) + S.STARS] = stars
        st[S.seat(p) + S.MONEY] = money
    R.end_money(st, tab)
    assert [st[S.seat(p) + S.STARS] for p in range(3)] == [22, 22, 23]
    out = np.empty(3, dtype=np.int64)
    assert R.winners(st, tab, np.array([3, 3, 3]), out) == 1 and out[0] == 2
    st[S.seat(2) + S.STARS] = 22
    assert R.winners(st, tab, np.array([4, 3, 4]), out) == 1 and out[0] == 2  # money
    assert R.winners(st, tab, np.array([5, 3, 4]), out) == 1 and out[0] == 0  # dice
    st[S.seat(0) + S.MONEY] = st[S.seat(2) + S.MONEY]
    assert R.winners(st, tab, np.array([4, 3, 4]), out) == 2 and list(out[:2]) == [0, 2]
