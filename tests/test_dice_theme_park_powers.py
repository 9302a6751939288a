"""Dice Theme Park's full and short games on hand-built states: the deals and keeps, each of
the 13 administrators at its moment and each skill as a mascot use, with their limits (once a
round, once a game, caps, the colour that must match). Interpretations: rules.md 26-48."""

import numpy as np
import pytest

from sim.core.rng import game_stream
from sim.dice_theme_park import data as D
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import powers as W
from sim.dice_theme_park import rules as R
from sim.dice_theme_park import state as S
from sim.dice_theme_park import tables as TB
from strategies.selectors import uniform_pick

BLUE, GREEN, YELLOW = 0, 1, 2
FULL, SHORT = D.MODES.index("full"), D.MODES.index("short")
# hexes of park.csv: the entrance, the basic tiles (green, yellow, blue) and open ones
ENTRANCE, CAROUSEL, TEA_CUPS, MINI_TRAIN = 9, 5, 10, 14
LOG_FLUME_HEX, FERRIS_HEX, DUCK_HEX, SPOOKY_HEX = 4, 3, 8, 13
STAFF = {name: k for k, name in enumerate(D.STAFF)}


@pytest.fixture(scope="module")
def dtp():
    d = D.load()
    return d, TB.pack(d)


def _setup(tab, n, mode=FULL, seed=0):
    st = np.zeros(S.SIZE, dtype=np.int64)
    R.setup(st, tab, n, mode, game_stream(seed, 0))
    return st


def _park(d, tab, tiles=None, admin=None, skills=(), mascots=None):
    """A 2-player full game whose seat 0 has ``tiles`` ({hex: name}) besides its start
    piece, administrator ``admin``, the skill cards ``skills`` (one mascot each, or
    ``mascots``) and no dice yet."""
    st = _setup(tab, 2)
    b = S.seat(0)
    for h, name in (tiles or {}).items():
        st[b + S.TILE + h] = d.attraction_names.index(name)
    st[b + S.ADMIN] = d.administrator_names.index(admin) if admin else -1
    for k, name in enumerate(skills):
        st[b + S.SKILLS + k] = d.skill_names.index(name)
    st[b + S.SKILLS_N] = len(skills)
    st[b + S.MASCOTS] = mascots if mascots is not None else max(1, len(skills))
    return st


class Decisions:
    """Legal moves of seat 0 on a hand-built state, decoded."""

    def __init__(self, st, tab):
        self.st, self.tab = st, tab
        self.ws = M.new_workspace()
        self.moves = np.zeros(M.MAX_MOVES, dtype=np.int64)
        self.ctx = np.zeros(1 + S.DICE, dtype=np.int64)

    def raw(self, kind, p=0):
        n = M.legal_moves(self.st, self.tab, p, kind, self.ctx, self.moves, self.ws)
        return list(self.moves[:n])

    def skills(self):
        return [m for m in self.raw(M.K_OPERATE) if M.decode(m)[0] == M.T_SKILL]

    def apply(self, kind, move, p=0):
        return M.apply(self.st, self.tab, p, kind, move, self.ctx)


def _die(st, i):
    return st[S.DIE_COL + i], st[S.DIE_PIPS + i], st[S.DIE_AT + i] % S.HEXES


# ---------------------------------------------------------------- deals and keeps


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("mode", [FULL, SHORT])
def test_the_full_setup_deals_two_administrators_and_two_skills_then_lays_the_display(
        dtp, n, mode):
    d, tab = dtp
    returned_shown = 0  # games whose display shows every unkept skill: never all of them
    for seed in range(10):
        st = _setup(tab, n, mode, seed)
        assert st[S.ROUNDS] == (5 if mode == FULL else 4)
        assert [r for r in range(5) if st[S.OBJECTIVE + r] >= 0] == (
            [2, 3, 4] if mode == FULL else [2, 3])
        admins = [st[S.seat(p) + S.ADMIN_DEALT + k] for p in range(n) for k in (0, 1)]
        skills = [st[S.seat(p) + S.SKILL_DEALT + k] for p in range(n) for k in (0, 1)]
        assert len(set(admins)) == 2 * n and len(set(skills)) == 2 * n
        assert st[S.SKILL_DECK_N] == 30 - 2 * n
        for p in range(n):
            R.keep_admin(st, tab, p, 1)
            R.keep_skill(st, tab, p, 0)
            b = S.seat(p)
            assert st[b + S.ADMIN] == st[b + S.ADMIN_DEALT + 1]
            assert st[b + S.SKILLS_N] == 1 and st[b + S.SKILLS] == st[b + S.SKILL_DEALT]
        assert st[S.SKILL_DECK_N] == 30 - n  # the unkept skills went back
        R.lay_skill_display(st, tab, game_stream(seed, 1), True)
        shown = set(st[S.SKILL_DISPLAY : S.SKILL_DISPLAY + st[S.SKILL_DISPLAY_N]])
        assert len(shown) == n + 1 and st[S.SKILL_DECK_N] == 30 - n - (n + 1)
        held = {st[S.seat(p) + S.SKILLS] for p in range(n)}
        assert not shown & held
        returned = {st[S.seat(p) + S.SKILL_DEALT + 1] for p in range(n)}
        returned_shown += returned <= shown
    assert returned_shown < 10  # the unkept skills were shuffled in, not left on top


def test_the_intro_game_deals_no_cards(dtp):
    _, tab = dtp
    st = _setup(tab, 4, mode=D.MODES.index("intro"))
    assert st[S.SKILL_DECK_N] == 0
    for p in range(4):
        b = S.seat(p)
        assert st[b + S.ADMIN] == -1 and st[b + S.ADMIN_DEALT] == -1 and st[b + S.SKILLS_N] == 0


def test_hiring_takes_a_display_skill_and_the_display_refills_from_the_discards(dtp):
    d, tab = dtp
    st = _setup(tab, 2)
    rng = game_stream(3, 1)
    for p in range(2):
        R.keep_admin(st, tab, p, 0)
        R.keep_skill(st, tab, p, 0)
    R.lay_skill_display(st, tab, rng, True)
    first = st[S.SKILL_DISPLAY + 1]
    R.take_skill(st, 0, 1)
    b = S.seat(0)
    assert st[b + S.SKILLS_N] == 2 and st[b + S.SKILLS + 1] == first
    assert st[b + S.TAKEN] == 1 << first and st[S.SKILL_DISPLAY_N] == 2
    assert first not in st[S.SKILL_DISPLAY : S.SKILL_DISPLAY + 2]
    # the leftovers go to the discard pile; an empty deck takes the discards back
    st[S.SKILL_DECK_N] = 1
    R.lay_skill_display(st, tab, rng, False)
    assert st[S.SKILL_DISPLAY_N] == 3
    shown = st[S.SKILL_DISPLAY : S.SKILL_DISPLAY + 3]
    assert len(set(shown)) == 3
    pile = set(st[S.SKILL_DISCARD : S.SKILL_DISCARD + st[S.SKILL_DISCARD_N]])
    assert not pile & set(shown)


def test_keep_decisions_offer_the_two_cards_dealt(dtp):
    d, tab = dtp
    st = _setup(tab, 2)
    dec = Decisions(st, tab)
    for kind in (M.K_ADMIN, M.K_SKILL):
        assert [M.decode(m)[1] for m in dec.raw(kind)] == [0, 1]


# ---------------------------------------------------------------- administrators


def test_save_blue_saves_one_blue_die_leaving_at_upkeep(dtp):
    """After the ticket agents, one die of its colour at 1 may come back on the entrance at
    any pips; other colours are not offered; without a blue 1 there is nothing to save."""
    from conftest import dtp_ones_leave

    from sim.dice_theme_park.bots import bot_arrays
    from sim.dice_theme_park.play import new_scratch

    d, tab = dtp
    saved = set()
    for seed in range(12):
        st = _park(d, tab, admin="save-blue")
        for colour in (BLUE, BLUE, GREEN):
            R.add_die(st, 0, CAROUSEL, colour, 1)
        dtp_ones_leave(st, tab, 0, bot_arrays(["random", "random"]), game_stream(seed, 2),
                       new_scratch())
        left = [_die(st, i) for i in range(S.PARK_DICE) if st[S.DIE_AT + i] >= 0]
        assert len(left) <= 1 and all(c == BLUE and h == ENTRANCE for c, _, h in left)
        saved |= {pips for _, pips, _ in left}
    assert len(saved) >= 3  # the pips are the player's choice
    st = _park(d, tab, admin="save-blue")
    R.add_die(st, 0, CAROUSEL, GREEN, 1)
    R.add_die(st, 0, CAROUSEL, BLUE, 2)  # stays in the park: not leaving
    assert W.leaving_of_colour(st, 0, BLUE, np.zeros(S.DICE, dtype=np.int64)) == 0
    dec = Decisions(st, tab)
    dec.ctx[0] = 0
    assert dec.raw(M.K_ADMIN_SAVE) == [M.encode(M.PASS, 0, 0, 0)]


def test_keep_green_leaves_one_green_party_die_unlowered_on_a_green_attraction(dtp):
    d, tab = dtp
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods", LOG_FLUME_HEX: "Log Flume"},
               admin="keep-green")
    green1 = R.add_die(st, 0, SPOOKY_HEX, GREEN, 1)
    yellow5 = R.add_die(st, 0, SPOOKY_HEX, YELLOW, 5)
    R.add_die(st, 0, LOG_FLUME_HEX, GREEN, 2)
    R.add_die(st, 0, LOG_FLUME_HEX, BLUE, 5)
    dec = Decisions(st, tab)
    ops = [m for m in dec.raw(M.K_OPERATE) if M.decode(m)[0] == M.T_ACT]
    spooky = [m for m in ops if M.decode(m)[1] == SPOOKY_HEX]
    flume = [m for m in ops if M.decode(m)[1] == LOG_FLUME_HEX]
    assert all(M.decode(m)[3] == 0 for m in flume)  # a blue attraction: no keeping
    kept = [m for m in spooky if M.decode(m)[3] >> 1]
    assert len(kept) == 1 and len(spooky) == 2  # the green die only, not the yellow
    movable = dec.apply(M.K_OPERATE, kept[0])
    assert _die(st, green1) == (GREEN, 1, SPOOKY_HEX)  # kept at 1: not discarded
    assert _die(st, yellow5)[1] == 4
    # only a die whose pips were lowered moves: the yellow, not the kept green (rules.md 28)
    assert movable == 1 and dec.ctx[1] == yellow5
    assert {M.decode(m)[1] for m in dec.raw(M.K_MOVE)} == {yellow5}
    st2 = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"})  # without the administrator
    R.add_die(st2, 0, SPOOKY_HEX, GREEN, 1)
    R.add_die(st2, 0, SPOOKY_HEX, YELLOW, 5)
    ops2 = [M.decode(m) for m in Decisions(st2, tab).raw(M.K_OPERATE)
            if M.decode(m)[0] == M.T_ACT]
    assert ops2 and all(c == 0 for *_, c in ops2)


def test_keep_green_with_every_lowered_die_discarded_nothing_moves(dtp):
    """Party y1 + g3 on a green attraction, the green kept: the yellow is lowered from 1, so
    discarded, and the seed's "one of the lowered dice moves" has none to move (rules.md 28)."""
    d, tab = dtp
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"}, admin="keep-green")
    yellow1 = R.add_die(st, 0, SPOOKY_HEX, YELLOW, 1)
    green3 = R.add_die(st, 0, SPOOKY_HEX, GREEN, 3)
    dec = Decisions(st, tab)
    kept = [m for m in dec.raw(M.K_OPERATE) if M.decode(m)[0] == M.T_ACT
            and M.decode(m)[1] == SPOOKY_HEX and M.decode(m)[3] >> 1]
    assert len(kept) == 1
    assert dec.apply(M.K_OPERATE, kept[0]) == 0
    assert st[S.DIE_AT + yellow1] == S.NOWHERE and _die(st, green3) == (GREEN, 3, SPOOKY_HEX)


def test_keep_green_on_a_one_die_party_the_kept_die_still_moves(dtp):
    """The seed: a one-die party's die must move unless it was discarded at 1. Kept at its
    pips by the administrator, it is not discarded, so it moves (rules.md 4, 28), and the
    move decision offers only its moves (MOVE has no pass)."""
    d, tab = dtp
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"}, admin="keep-green")
    green2 = R.add_die(st, 0, ENTRANCE, GREEN, 2)
    dec = Decisions(st, tab)
    ops = [m for m in dec.raw(M.K_OPERATE) if M.decode(m)[0] == M.T_ACT]
    assert [M.decode(m)[3] >> 1 for m in ops] == [0]  # the entrance is grey: no keeping
    R.move_die(st, 0, green2, CAROUSEL)  # the Carousel is green, any single die
    kept = [m for m in dec.raw(M.K_OPERATE) if M.decode(m)[0] == M.T_ACT
            and M.decode(m)[1] == CAROUSEL and M.decode(m)[3] >> 1]
    assert len(kept) == 1
    assert dec.apply(M.K_OPERATE, kept[0]) == 1 and dec.ctx[1] == green2
    assert _die(st, green2) == (GREEN, 2, CAROUSEL)  # not lowered
    moves = dec.raw(M.K_MOVE)
    near = np.empty(6, dtype=np.int64)
    targets = set(near[: R.neighbour_tiles(st, tab, 0, CAROUSEL, near)])
    assert moves and {M.decode(m)[2] for m in moves} == targets
    assert {M.decode(m)[1] for m in moves} == {green2} and M.PASS not in moves
    # kept at 1 on a one-die party: still not discarded, and it moves
    st2 = _park(d, tab, admin="keep-green")
    green1 = R.add_die(st2, 0, CAROUSEL, GREEN, 1)
    dec2 = Decisions(st2, tab)
    kept = [m for m in dec2.raw(M.K_OPERATE) if M.decode(m)[0] == M.T_ACT
            and M.decode(m)[3] >> 1]
    assert dec2.apply(M.K_OPERATE, kept[0]) == 1 and _die(st2, green1) == (GREEN, 1, CAROUSEL)
    # without keeping, a one-die party at 1 is discarded and nothing moves
    st3 = _park(d, tab, admin="keep-green")
    green1 = R.add_die(st3, 0, CAROUSEL, GREEN, 1)
    dec3 = Decisions(st3, tab)
    plain = [m for m in dec3.raw(M.K_OPERATE) if M.decode(m)[0] == M.T_ACT
             and M.decode(m)[1] == CAROUSEL and not M.decode(m)[3] >> 1]
    assert dec3.apply(M.K_OPERATE, plain[0]) == 0 and st3[S.DIE_AT + green1] == S.NOWHERE


def test_the_replay_names_a_kept_die_and_the_manager_apart(dtp):
    """An operation's flags: bit 0 the manager's extra operation, the bits above the
    administrator's kept die (1-based); the replay names each for what it is."""
    from sim.dice_theme_park.log import format_log
    from sim.dice_theme_park.play import LOG_COLS

    d, tab = dtp
    st = _park(d, tab, admin="keep-green")
    green3 = R.add_die(st, 0, CAROUSEL, GREEN, 3)
    lines = {}
    for manager, keep in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        log = np.zeros((1, LOG_COLS), dtype=np.int64)
        move = M.encode_operation(CAROUSEL, green3, -1, -1, manager, keep)
        log[0] = (0, M.K_OPERATE, 0, move, 1, GREEN * 8 + 3, -1, -1)
        lines[manager, keep] = format_log(log, 1, d, st, ["greedy", "greedy"])[-1]
    assert not any(w in lines[0, 0] for w in ("manager", "administrator"))
    assert "(manager)" in lines[1, 0] and "administrator" not in lines[1, 0]
    assert "(manager)" not in lines[0, 1]
    assert "administrator: the green 3 not lowered" in lines[0, 1]
    assert "(manager)" in lines[1, 1] and "not lowered" in lines[1, 1]


def _operated(st, hexes):
    b = S.seat(0)
    st[b + S.CUBES_ON : b + S.CUBES_ON + S.HEXES] = 0
    for h in hexes:
        st[b + S.CUBES_ON + h] += 1


def test_fans_yellow_scores_for_3_4_5_different_yellow_attractions_operated(dtp):
    d, tab = dtp
    yellow = {FERRIS_HEX: "Ferris Wheel", 2: "Speedster", 1: "Swing Ride", 0: "Drop Tower",
              LOG_FLUME_HEX: "Chair Lift"}  # with Tea Cups: six yellow attractions
    st = _park(d, tab, yellow, admin="fans-yellow")
    y = [TEA_CUPS, *yellow]
    for hexes, stars in [([TEA_CUPS, TEA_CUPS, FERRIS_HEX], 0), (y[:3], 1), (y[:4], 2),
                         (y[:5], 3), (y, 3), ([*y[:2], CAROUSEL, ENTRANCE, MINI_TRAIN], 0)]:
        _operated(st, hexes)
        assert W.round_stars(st, tab, 0) == stars, hexes
    before = st[S.seat(0) + S.STARS]
    _operated(st, y[:4])
    W.score_round_stars(st, tab, 0)
    b = S.seat(0)
    assert st[b + S.STARS] - before == 2 == st[b + S.SCORE + S.SRC_ADMINS]
    assert st[b + S.STARS_ROUND] == 2  # counts for "most stars this round"


def test_variety_scores_for_6_7_8_different_attractions_the_entrance_among_them(dtp):
    """The seed counts the entrance as an attraction (rules.md 14, 30): operated with five
    tiles, it makes the sixth; operated twice, it counts once."""
    d, tab = dtp
    extra = {FERRIS_HEX: "Ferris Wheel", 2: "Speedster", 1: "Swing Ride", 0: "Drop Tower",
             LOG_FLUME_HEX: "Chair Lift", DUCK_HEX: "Duck Pond"}
    st = _park(d, tab, extra, admin="variety")
    tiles = [CAROUSEL, TEA_CUPS, MINI_TRAIN, *extra]
    for k, stars in [(5, 0), (6, 1), (7, 2), (8, 3), (9, 3)]:
        _operated(st, tiles[:k])
        assert W.round_stars(st, tab, 0) == stars
    for hexes, stars in [([ENTRANCE, *tiles[:5]], 1), ([ENTRANCE, ENTRANCE, *tiles[:4]], 0),
                         ([ENTRANCE, *tiles[:6]], 2), ([ENTRANCE, *tiles[:7]], 3)]:
        _operated(st, hexes)
        assert W.round_stars(st, tab, 0) == stars, hexes


def test_mascot_club_scores_for_2_4_5_mascots_the_starting_one_counted(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="mascot-club")
    for mascots, stars in [(1, 0), (2, 1), (3, 1), (4, 2), (5, 3), (6, 3)]:
        st[S.seat(0) + S.MASCOTS] = mascots
        assert W.round_stars(st, tab, 0) == stars


def test_builder_takes_1_off_every_upgrade_with_the_architect_never_below_0(dtp):
    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume"}, admin="builder")
    b = S.seat(0)
    printed = tab[TB.ATT_UPGRADE_COST + d.attraction_names.index("Log Flume") * 2]
    assert R.upgrade_cost(st, tab, 0, LOG_FLUME_HEX) == printed - 1
    st[b + S.PLAYED : b + S.PLAYED + 2] = [STAFF["architect"]] * 2
    assert R.upgrade_cost(st, tab, 0, LOG_FLUME_HEX) == max(0, printed - 3)
    st[b + S.MONEY] = 10
    R.install(st, tab, 0, S.GIFT_SHOP, LOG_FLUME_HEX)
    assert st[b + S.MONEY] == 10 - max(0, printed - 3)


def test_recruiter_takes_2_off_every_mascot_never_below_0(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="recruiter")
    b = S.seat(0)
    assert R.mascot_price(st, tab, 0) == 3
    st[b + S.PLAYED : b + S.PLAYED + 2] = [STAFF["mascot"]] * 2
    assert R.mascot_price(st, tab, 0) == 0
    st[b + S.MONEY] = 0
    assert len(Decisions(st, tab).raw(M.K_MASCOT)) == 2  # free: hiring is offered


def test_cartographer_takes_2_off_the_map(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="cartographer")
    b = S.seat(0)
    st[b + S.MONEY] = 1
    assert R.map_price(st, tab, 0) == 1
    assert len(Decisions(st, tab).raw(M.K_MAP)) == 2
    R.buy_map(st, tab, 0)
    assert st[b + S.MONEY] == 0 and st[b + S.MAPS_UP] == 4
    st[b + S.ADMIN] = -1
    assert R.map_price(st, tab, 0) == 3


def test_saver_scores_1_star_per_2_dollars_instead_of_per_3(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="saver")
    b = S.seat(0)
    st[b + S.MONEY] = 7
    st[S.seat(1) + S.MONEY] = 7
    R.end_money(st, tab)
    assert st[b + S.STARS] == 3 and st[b + S.SCORE + S.SRC_MONEY] == 2
    assert st[b + S.SCORE + S.SRC_ADMINS] == 1
    assert st[S.seat(1) + S.STARS] == 2


def test_early_bird_lowers_the_turn_sum_by_up_to_2_never_below_0(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="early-bird")
    dec = Decisions(st, tab)
    assert [M.decode(m)[1] for m in dec.raw(M.K_LOWER)] == [0, 1, 2]
    for p, cards in ((0, ("guide", "mascot")), (1, ("concierge", "architect"))):
        R.play_staff(st, tab, p, STAFF[cards[0]], STAFF[cards[1]])
    pips = R.staff_sum(st, tab, 0)
    assert R.staff_sum(st, tab, 1) == pips  # both 7 (the seed's example)
    st[S.seat(1) + S.STARS] = 5  # seat 0 has fewer stars: first anyway
    st[S.seat(0) + S.STARS] = 9  # now seat 1 is first on a tie
    R.set_turn_order(st, tab)
    assert st[S.ORDER] == 1
    dec.apply(M.K_LOWER, M.encode(M.T_ACT, 2, 0, 0))
    assert R.staff_sum(st, tab, 0) == pips - 2
    R.set_turn_order(st, tab)
    assert st[S.ORDER] == 0
    st[S.seat(0) + S.SUM_OFF] = 99
    assert R.staff_sum(st, tab, 0) == 0
    assert Decisions(_park(d, tab, admin="saver"), tab).raw(M.K_LOWER) == [
        M.encode(M.T_ACT, 0, 0, 0)]  # another administrator: nothing to lower


def test_transfer_takes_one_die_of_a_leftover_monorail_pips_unchanged(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="transfer")
    dec = Decisions(st, tab)
    R.take_monorail(st, tab, 1, 0, dec.ctx[1:])
    st[S.MONO_COL + 3 : S.MONO_COL + 6] = [BLUE, BLUE, GREEN]
    st[S.MONO_PIPS + 3 : S.MONO_PIPS + 6] = [2, 2, 4]
    moves = [M.decode(m) for m in dec.raw(M.K_LEFTOVER)]
    assert moves[0][0] == M.PASS
    picks = {(st[S.MONO_COL + a * 3 + b], st[S.MONO_PIPS + a * 3 + b]) for _, a, b, _ in moves[1:]}
    assert all(a != 0 for _, a, _, _ in moves[1:])  # not the taken monorail
    assert (BLUE, 2) in picks and (GREEN, 4) in picks
    assert len(moves) - 1 == len(picks)  # alike dice once
    i = W.take_leftover(st, tab, 0, 1, 2)
    assert _die(st, i) == (GREEN, 4, ENTRANCE) and st[S.MONO_COL + 5] == -1


def test_conductor_rearranges_the_monorail_taken_and_raises_one_die(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="conductor")
    dec = Decisions(st, tab)
    st[S.MONO_COL : S.MONO_COL + 3] = [BLUE, GREEN, YELLOW]
    st[S.MONO_PIPS : S.MONO_PIPS + 3] = [2, 4, 6]
    dec.ctx[0] = R.take_monorail(st, tab, 0, 0, dec.ctx[1:])
    new = dec.ctx[1:4].copy()
    moves = dec.raw(M.K_REARRANGE)
    # 6 orders x (no raise, +1 on the dice at 2 or 4): 18 outcomes, one of them the pass
    assert len(moves) == 18 and M.decode(moves[0])[0] == M.PASS
    # no die at 6: 6 orders x 4 = 24 outcomes; interpreted, as numpy checks the work
    # buffers' bounds (compiled code does not)
    for slot, pips in zip(new, (1, 3, 5)):
        st[S.DIE_PIPS + slot] = pips
    assert M._admin_moves.py_func(st, tab, 0, M.K_REARRANGE, dec.ctx, dec.moves, dec.ws) == 24
    for slot, pips in zip(new, (2, 4, 6)):
        st[S.DIE_PIPS + slot] = pips
    outcomes = set()
    for m in moves[1:]:
        trial = st.copy()
        _, a, b, _ = M.decode(m)
        W.rearrange(trial, new, 3, a, b - 1)
        outcomes.add(tuple(sorted((trial[S.DIE_COL + i], trial[S.DIE_PIPS + i]) for i in new)))
    assert len(outcomes) == 17 and ((BLUE, 2), (GREEN, 4), (YELLOW, 6)) not in outcomes
    assert tuple(sorted([(YELLOW, 2), (BLUE, 5), (GREEN, 6)])) in outcomes
    assert all(pips <= 6 for o in outcomes for _, pips in o)


def test_headhunter_swaps_a_played_card_once_then_leaves(dtp):
    d, tab = dtp
    st = _park(d, tab, admin="headhunter")
    b = S.seat(0)
    R.play_staff(st, tab, 0, STAFF["guide"], STAFF["mascot"])
    R.play_staff(st, tab, 1, STAFF["guide"], STAFF["mascot"])
    dec = Decisions(st, tab)
    moves = [M.decode(m) for m in dec.raw(M.K_SWAP)]
    assert moves[0][0] == M.PASS and len(moves) == 1 + 2 * 4  # each played x 4 in hand
    dec.apply(M.K_SWAP, M.encode(M.T_ACT, 0, STAFF["manager"], 0))
    assert st[b + S.ADMIN_GONE] == 1 and not R.has_admin(st, tab, 0, R.A_SWAP)
    assert st[b + S.HAND + STAFF["guide"]] == 1 and st[b + S.HAND + STAFF["manager"]] == 0
    R.rotate_staff(st)
    assert st[S.seat(1) + S.HAND + STAFF["manager"]] == 2  # the swapped card was passed
    assert st[b + S.HAND + STAFF["guide"]] == 2  # kept, and seat 1's passed
    st[b + S.MONEY] = 8
    st[b + S.ADMIN] = d.administrator_names.index("saver")  # a gone administrator: no power
    R.end_money(st, tab)
    assert st[b + S.SCORE + S.SRC_ADMINS] == 0


def test_save_blue_counts_its_saved_die_in_the_tie_break_after_the_last_round(dtp):
    """The dice counted for the tie-break are those left after the 1s leave: the
    administrator saves one of its colour then too, and none of another (rules.md 46)."""
    from sim.dice_theme_park.play import final_standing

    d, tab = dtp
    for colour, expect in ((BLUE, [2, 1]), (GREEN, [1, 1])):
        st = _park(d, tab, admin="save-blue")
        for p in range(2):
            R.add_die(st, p, ENTRANCE, colour if p == 0 else GREEN, 1)
            R.add_die(st, p, ENTRANCE, GREEN, 4)
        dice, wins = np.zeros(4, dtype=np.int64), np.zeros(4)
        final_standing(st, tab, dice, wins, np.zeros(4, dtype=np.int64))
        assert list(dice[:2]) == expect
        assert list(wins[:2]) == ([1, 0] if colour == BLUE else [0.5, 0.5])


# ---------------------------------------------------------------- skills


def _skill_moves(st, tab):
    return [M.decode(m) + (m >> 32,) for m in Decisions(st, tab).skills()]


@pytest.mark.parametrize("name", D.load().skill_names)
def test_every_skill_card_acts_only_within_its_colour_and_limits(dtp, name):
    """Each of the 30 cards on a park with a die of every colour at 2 and at 5 on two
    attractions: every use offered keeps the pips in 1..6 or discards a die taken to 0, a
    coloured card touches dice of its colour only, and each use is a mascot's."""
    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume"}, skills=[name])
    for colour in (BLUE, GREEN, YELLOW):
        for pips in (2, 5):
            R.add_die(st, 0, LOG_FLUME_HEX, colour, pips)
            R.add_die(st, 0, ENTRANCE, colour, pips)
    card = d.skill_names.index(name)
    power, colour = tab[TB.SK_POWER + card], tab[TB.SK_COLOUR + card]
    moves = Decisions(st, tab).skills()
    assert moves
    for m in moves:
        trial = st.copy()
        M.apply(trial, tab, 0, M.K_OPERATE, m, np.zeros(1 + S.DICE, dtype=np.int64))
        b = S.seat(0)
        assert trial[b + S.MASCOTS_USED] == 1 and trial[b + S.SKILLS_USED] == 1
        changed = [i for i in range(S.PARK_DICE)
                   if _die(trial, i) != _die(st, i) and st[S.DIE_AT + i] >= 0]
        assert all(1 <= trial[S.DIE_PIPS + i] <= 6 or (
            trial[S.DIE_AT + i] == S.NOWHERE and st[S.DIE_PIPS + i] == 2
            and power in (R.SK_SHIFT, R.SK_NUDGE)) for i in changed)
        if colour >= 0 and power not in (R.SK_MONEY, R.SK_STARS):
            assert changed and all(st[S.DIE_COL + i] == colour for i in changed)
        if power in (R.SK_MONEY, R.SK_STARS):
            gain = (trial[b + S.MONEY] - st[b + S.MONEY]
                    + trial[b + S.STARS] - st[b + S.STARS])
            assert gain == min(tab[TB.SK_LIMIT + card], 2 * tab[TB.SK_AMOUNT + card])
    assert not Decisions(trial, tab).skills()  # the card's mascot is used: once a round


def test_shift_moves_a_die_of_its_colour_2_pips_never_above_6_a_0_discarded(dtp):
    """rules.md 10, 18: a change may reach 0 (the die is discarded), never below 0 or
    above 6."""
    d, tab = dtp
    st = _park(d, tab, skills=["shift-blue"])
    b2 = R.add_die(st, 0, ENTRANCE, BLUE, 2)
    b5 = R.add_die(st, 0, CAROUSEL, BLUE, 5)
    b1 = R.add_die(st, 0, MINI_TRAIN, BLUE, 1)
    R.add_die(st, 0, CAROUSEL, GREEN, 3)
    # blue 2 up to 4 or down to 0, blue 5 down to 3, blue 1 up to 3; never 7 or -1, never
    # green
    assert sorted((a, b) for _, a, b, *_ in _skill_moves(st, tab)) == sorted([
        (b2, 0), (b2, 1), (b5, 0), (b1, 1)])
    trial = st.copy()
    Decisions(trial, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, b2, 1, 0))
    assert trial[S.DIE_PIPS + b2] == 4
    bag = st[S.BAG + BLUE]
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, b2, 0, 0))
    assert st[S.DIE_AT + b2] == S.NOWHERE and st[S.BAG + BLUE] == bag + 1


def test_two_five_turns_a_2_into_a_5_and_back_of_its_colour_only(dtp):
    d, tab = dtp
    st = _park(d, tab, skills=["flip-green"])
    g2 = R.add_die(st, 0, ENTRANCE, GREEN, 2)
    g5 = R.add_die(st, 0, CAROUSEL, GREEN, 5)
    R.add_die(st, 0, CAROUSEL, GREEN, 3)
    R.add_die(st, 0, CAROUSEL, BLUE, 2)
    assert sorted(a for _, a, *_ in _skill_moves(st, tab)) == [g2, g5]
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, g5, 0, 0))
    assert st[S.DIE_PIPS + g5] == 2


def test_tips_pay_2_dollars_per_die_of_its_colour_there_at_most_6_at_once(dtp):
    d, tab = dtp
    st = _park(d, tab, skills=["tips-yellow"])
    b = S.seat(0)
    for _ in range(4):
        R.add_die(st, 0, CAROUSEL, YELLOW, 3)
    R.add_die(st, 0, ENTRANCE, YELLOW, 3)
    R.add_die(st, 0, TEA_CUPS, BLUE, 3)  # no yellow there: not offered
    assert sorted(a for _, a, *_ in _skill_moves(st, tab)) == [CAROUSEL, ENTRANCE]
    money = st[b + S.MONEY]
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, CAROUSEL, 0, 0))
    assert st[b + S.MONEY] == money + 6 and st[b + S.MONEY_ROUND] == 6  # 4 dice: capped
    st[b + S.SKILLS_USED] = 0
    st[b + S.MASCOTS_USED] = 0
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, ENTRANCE, 0, 0))
    assert st[b + S.MONEY] == money + 8


def test_cheers_score_1_star_per_die_of_its_colour_there_at_most_3(dtp):
    d, tab = dtp
    st = _park(d, tab, skills=["cheers-blue"])
    b = S.seat(0)
    for _ in range(5):
        R.add_die(st, 0, MINI_TRAIN, BLUE, 4)
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, MINI_TRAIN, 0, 0))
    assert st[b + S.STARS] == 3 == st[b + S.SCORE + S.SRC_SKILLS] == st[b + S.STARS_ROUND]


def test_nudge_moves_two_different_dice_of_one_attraction_by_1_each(dtp):
    d, tab = dtp
    st = _park(d, tab, skills=["nudge-1"])
    one = R.add_die(st, 0, CAROUSEL, BLUE, 1)
    six = R.add_die(st, 0, CAROUSEL, GREEN, 6)
    R.add_die(st, 0, ENTRANCE, YELLOW, 3)  # alone on its attraction: no pair
    moves = _skill_moves(st, tab)
    # the 1 up, or down to 0 as a mascot's -1 (discarded: rules.md 10, 38); the 6 only down
    assert sorted((a, b, dirs) for _, a, b, _, dirs in moves) == [(one, six, 0), (one, six, 1)]
    trial = st.copy()
    Decisions(trial, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, one, six, 0) | (1 << 32))
    assert trial[S.DIE_PIPS + one] == 2 and trial[S.DIE_PIPS + six] == 5
    bag = st[S.BAG + BLUE]
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, one, six, 0))
    assert st[S.DIE_AT + one] == S.NOWHERE and st[S.BAG + BLUE] == bag + 1
    assert st[S.DIE_PIPS + six] == 5
    # the same die at 1 with a mascot's plain -1: the same outcome
    st3 = _park(d, tab, skills=["nudge-1"])
    one3 = R.add_die(st3, 0, CAROUSEL, BLUE, 1)
    minus = [m for m in Decisions(st3, tab).raw(M.K_OPERATE)
             if M.decode(m)[0] == M.T_PIPS and M.decode(m)[2] == 0]
    assert minus
    Decisions(st3, tab).apply(M.K_OPERATE, minus[0])
    assert st3[S.DIE_AT + one3] == S.NOWHERE
    st2 = _park(d, tab, skills=["nudge-2"])
    R.add_die(st2, 0, CAROUSEL, BLUE, 3)
    R.add_die(st2, 0, CAROUSEL, BLUE, 3)
    assert len(_skill_moves(st2, tab)) == 3  # twins: up-up, down-down, one of each


def _feature_rows(st, tab, kind, moves):
    """Seat 0's feature rows of ``moves`` by the footprint path, on fresh buffers, held equal
    to the whole copy's."""
    from sim.dice_theme_park import features as F

    rows = []
    for exact in (F.FOOTPRINT_PATH, F.EXACT_PATH):
        feats = np.zeros((len(moves), F.N_FEATURES))
        F.move_features(st, tab, 0, kind, moves, len(moves), feats, F.new_buffers(),
                        np.zeros(1 + S.DICE, dtype=np.int64), exact)
        rows.append(feats)
    assert (rows[0] == rows[1]).all()
    return rows[0]


def test_die_moves_share_a_row_per_spending_and_add_what_their_dice_do(dtp):
    """The features of an operate decision's maps, guide, mascot adjustments and skill uses
    are one row per thing spent plus what the move's dice do (features._die_part), equal to
    a whole copy's: a nudge that sends the Tea Cups' 1 to the bag and raises its 3 to 4
    leaves two even dice there, so the Tea Cups can operate (+1), with one die less; the
    mascot staff's extra adjustment there spends no mascot, a new mascot's does."""
    from sim.dice_theme_park import features as F

    d, tab = dtp
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"},
               skills=["nudge-1", "push-1", "shift-blue", "flip-blue", "recolour-1"],
               mascots=6)
    b = S.seat(0)
    st[b + S.MAPS_UP] = 2
    st[b + S.PLAYED], st[b + S.PLAYED + 1] = STAFF["guide"], STAFF["mascot"]
    st[b + S.MASCOTS_USED], st[b + S.EXTRA_LEFT], st[b + S.EXTRA_HEX] = 1, 1, TEA_CUPS
    one = R.add_die(st, 0, TEA_CUPS, YELLOW, 1)
    three = R.add_die(st, 0, TEA_CUPS, GREEN, 3)
    R.add_die(st, 0, TEA_CUPS, BLUE, 4)
    R.add_die(st, 0, ENTRANCE, BLUE, 2)
    R.add_die(st, 0, SPOOKY_HEX, BLUE, 5)
    moves = np.array(Decisions(st, tab).raw(M.K_OPERATE), dtype=np.int64)
    rows = _feature_rows(st, tab, M.K_OPERATE, moves)
    assert {M.decode(m)[0] for m in moves} >= {M.T_MAP, M.T_GUIDE, M.T_PIPS, M.T_TINT,
                                                M.T_SKILL}
    nudge = list(moves).index(M.encode(M.T_SKILL, one, three, 0) | (2 << 32))  # -1, +1
    row = dict(zip(F.FEATURES, rows[nudge]))
    assert (row["operable"], row["dice"], row["pips"], row["resources"]) == (1, -1, 0, -1)
    spent = {M.decode(m)[3]: dict(zip(F.FEATURES, r))["resources"]
             for m, r in zip(moves, rows) if M.decode(m)[0] == M.T_PIPS}
    assert spent == {0: -1, 1: 0}  # a mascot's adjustment, the extra one


def test_a_monorails_row_counts_the_dice_it_brings_to_the_entrance(dtp):
    """A monorail's features come from its footprint (the entrance and the slots its dice
    take, after the park's dice in use), equal to a whole copy's: fresh buffers hold no free
    slot there until the pass copies them from the state."""
    from sim.dice_theme_park import features as F

    d, tab = dtp
    st = _park(d, tab)
    R.add_die(st, 0, ENTRANCE, BLUE, 4)
    st[S.MONO_N] = 2
    for m, dice in enumerate([((BLUE, 5), (GREEN, 2)), ((YELLOW, 1), (BLUE, 6), (GREEN, 3))]):
        st[S.MONO_TAKEN + m] = -1
        for s in range(S.SPACES):
            colour, pips = dice[s] if s < len(dice) else (-1, 0)
            st[S.MONO_COL + m * S.SPACES + s] = colour
            st[S.MONO_PIPS + m * S.SPACES + s] = pips
    moves = np.array(Decisions(st, tab).raw(M.K_MONORAIL), dtype=np.int64)
    assert len(moves) == 2
    rows = _feature_rows(st, tab, M.K_MONORAIL, moves)
    got = [(row[F.F_DICE], row[F.F_PIPS]) for row in rows]
    assert got == [(2, 7), (3, 10)]


def test_push_moves_a_die_to_a_neighbour_then_may_move_a_second(dtp):
    d, tab = dtp
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"}, skills=["push-1"])
    first = R.add_die(st, 0, ENTRANCE, BLUE, 3)
    second = R.add_die(st, 0, ENTRANCE, GREEN, 3)
    R.add_die(st, 0, FERRIS_HEX, GREEN, 3)  # Ferris's hex has no tile: not a target
    near = np.empty(6, dtype=np.int64)
    neighbours = set(near[: R.neighbour_tiles(st, tab, 0, ENTRANCE, near)])
    targets = {b for _, a, b, *_ in _skill_moves(st, tab) if a == first}
    assert targets == neighbours and SPOOKY_HEX in targets
    dec = Decisions(st, tab)
    assert dec.apply(M.K_OPERATE, M.encode(M.T_SKILL, first, SPOOKY_HEX, 0)) == 1
    assert dec.ctx[0] == R.SK_PUSH and dec.ctx[1] == ENTRANCE
    again = [M.decode(m) for m in dec.raw(M.K_AGAIN)]
    assert again[0][0] == M.PASS and {a for _, a, _, _ in again[1:]} == {second}
    dec.apply(M.K_AGAIN, M.encode(M.T_ACT, second, CAROUSEL, 0))
    assert _die(st, first)[2] == SPOOKY_HEX and _die(st, second)[2] == CAROUSEL
    assert st[S.seat(0) + S.AGAIN_LEFT] == 0  # twice, no more
    once = tab.copy()  # a card file's push of 1: one move, no second
    once[TB.SK_AMOUNT + d.skill_names.index("push-1")] = 1
    st = _park(d, once, {SPOOKY_HEX: "Spooky Woods"}, skills=["push-1"])
    first = R.add_die(st, 0, ENTRANCE, BLUE, 3)
    assert W.use_skill(st, once, 0, 0, first, SPOOKY_HEX, 0) == 0
    assert st[S.seat(0) + S.AGAIN_LEFT] == 0
    # from Spooky Woods some tiles are 2 steps away: only the neighbours are targets
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"}, skills=["push-1"])
    far = R.add_die(st, 0, SPOOKY_HEX, BLUE, 3)
    neighbours = set(near[: R.neighbour_tiles(st, tab, 0, SPOOKY_HEX, near)])
    tiles = {h for h in range(S.HEXES) if st[S.seat(0) + S.TILE + h] >= 0}
    assert tiles - neighbours - {SPOOKY_HEX}
    assert {b for _, a, b, *_ in _skill_moves(st, tab) if a == far} == neighbours


def test_pull_brings_dice_from_neighbours_onto_the_mascots_attraction(dtp):
    d, tab = dtp
    st = _park(d, tab, {SPOOKY_HEX: "Spooky Woods"}, skills=["pull-3"])
    near_die = R.add_die(st, 0, ENTRANCE, BLUE, 3)
    other = R.add_die(st, 0, CAROUSEL, GREEN, 4)
    onto_spooky = {a for _, a, b, *_ in _skill_moves(st, tab) if b == SPOOKY_HEX}
    assert onto_spooky == {near_die}  # Carousel is not next to Spooky Woods
    dec = Decisions(st, tab)
    dec.apply(M.K_OPERATE, M.encode(M.T_SKILL, other, ENTRANCE, 0))
    assert dec.ctx[0] == R.SK_PULL and dec.ctx[1] == ENTRANCE
    assert st[S.seat(0) + S.EXTRA_HEX] == ENTRANCE  # the mascot stands where dice arrive
    again = [M.decode(m) for m in dec.raw(M.K_AGAIN)]
    assert {(a, b) for _, a, b, _ in again[1:]} == set()  # nothing left next to it
    R.add_die(st, 0, SPOOKY_HEX, YELLOW, 2)
    again = [M.decode(m) for m in dec.raw(M.K_AGAIN)]
    assert [(b) for _, _, b, _ in again[1:]] == [ENTRANCE]


def test_leap_moves_a_die_to_an_attraction_at_most_2_hexes_away(dtp):
    d, tab = dtp
    st = _park(d, tab, {FERRIS_HEX: "Ferris Wheel", SPOOKY_HEX: "Spooky Woods"},
               skills=["leap-1"])
    die = R.add_die(st, 0, FERRIS_HEX, YELLOW, 3)
    targets = {b for _, a, b, *_ in _skill_moves(st, tab)}
    dist = tab[TB.HEX_DISTANCE + FERRIS_HEX * S.HEXES : TB.HEX_DISTANCE + FERRIS_HEX * S.HEXES
               + S.HEXES]
    assert targets == {ENTRANCE, CAROUSEL, SPOOKY_HEX}  # Spooky Woods 2 away, empty between
    assert dist[SPOOKY_HEX] == 2 and dist[TEA_CUPS] == dist[MINI_TRAIN] == 3  # too far
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, die, SPOOKY_HEX, 0))
    assert _die(st, die)[2] == SPOOKY_HEX


def test_recolour_exchanges_a_die_with_one_of_another_colour_from_the_bag(dtp):
    d, tab = dtp
    st = _park(d, tab, skills=["recolour-1"])
    die = R.add_die(st, 0, CAROUSEL, BLUE, 4)
    st[S.BAG : S.BAG + 3] = [3, 0, 2]  # no green in the bag: green cannot be chosen
    st[S.DIE_TINT + die] = GREEN
    assert [b for _, a, b, *_ in _skill_moves(st, tab)] == [YELLOW]
    Decisions(st, tab).apply(M.K_OPERATE, M.encode(M.T_SKILL, die, YELLOW, 0))
    assert _die(st, die) == (YELLOW, 4, CAROUSEL) and list(st[S.BAG : S.BAG + 3]) == [4, 0, 1]
    assert st[S.DIE_TINT + die] == -1  # a new die: the adjustment stayed with the old one


def test_each_card_once_a_round_mascots_limit_the_uses_and_the_extras_follow(dtp):
    d, tab = dtp
    st = _park(d, tab, skills=["shift-blue", "cheers-blue"], mascots=3)
    b = S.seat(0)
    st[b + S.PLAYED : b + S.PLAYED + 2] = [STAFF["mascot"], STAFF["guide"]]
    die = R.add_die(st, 0, MINI_TRAIN, BLUE, 2)
    dec = Decisions(st, tab)
    assert {c for *_, c, _ in _skill_moves(st, tab)} == {0, 1}
    dec.apply(M.K_OPERATE, M.encode(M.T_SKILL, die, 1, 0))
    assert st[b + S.EXTRA_LEFT] == 1 and st[b + S.EXTRA_HEX] == MINI_TRAIN
    extras = [M.decode(m) for m in dec.raw(M.K_OPERATE)
              if M.decode(m)[0] in (M.T_PIPS, M.T_TINT) and M.decode(m)[3] == 1]
    assert extras  # the mascot staff's extra adjustment, never a skill
    assert {c for *_, c, _ in _skill_moves(st, tab)} == {1}  # card 0 is used this round
    st[b + S.MASCOTS_USED] = 3  # every mascot used (two adjusted): no skill left
    assert not _skill_moves(st, tab)
    R.reset_round(st)
    assert st[b + S.SKILLS_USED] == 0 and len(_skill_moves(st, tab)) == 3


@pytest.mark.parametrize("names, used, empty_bag", [
    (["shift-blue", "tips-blue", "nudge-1", "push-1", "pull-1", "leap-1"], 0, None),
    # every other power; the third card used this round; no yellow die left to recolour to
    (["flip-blue", "cheers-green", "recolour-1", "leap-2", "recolour-2", "flip-yellow"], 0b100,
     YELLOW)])
def test_the_random_pick_with_skills_and_keeping_is_one_of_the_whole_list(dtp, names, used,
                                                                          empty_bag):
    """moves.random_operate_move counts the skills' uses card by card beside the operations
    and lists only the picked card's: for every draw its pick is the one of ``legal_moves``,
    with every skill power held."""
    d, tab = dtp
    st = _park(d, tab, {LOG_FLUME_HEX: "Log Flume", SPOOKY_HEX: "Spooky Woods"},
               admin="keep-green", skills=names, mascots=6)
    st[S.seat(0) + S.MAPS_UP] = 1
    st[S.seat(0) + S.SKILLS_USED] = used
    if empty_bag is not None:
        st[S.BAG + empty_bag] = 0
    for hex_, colour, pips in [(LOG_FLUME_HEX, BLUE, 5), (LOG_FLUME_HEX, YELLOW, 4),
                               (SPOOKY_HEX, GREEN, 2), (SPOOKY_HEX, YELLOW, 5),
                               (ENTRANCE, BLUE, 2), (ENTRANCE, BLUE, 2), (ENTRANCE, YELLOW, 2)]:
        R.add_die(st, 0, hex_, colour, pips)
    dec = Decisions(st, tab)
    listed = dec.raw(M.K_OPERATE)
    assert {M.decode(m)[0] for m in listed} >= {M.T_SKILL, M.T_ACT, M.T_MAP, M.T_PIPS}
    assert any(M.decode(m)[0] == M.T_ACT and M.decode(m)[3] >> 1 for m in listed)
    cards = {M.decode(m)[3] for m in listed if M.decode(m)[0] == M.T_SKILL}
    assert cards == {k for k in range(len(names)) if not used >> k & 1}
    counted = np.zeros(M.MAX_MOVES, dtype=np.int64)
    n = len(listed)
    for u in np.linspace(0, 1, 3 * n, endpoint=False):
        assert M.random_operate_move(st, tab, 0, counted, dec.ws, u) == listed[
            uniform_pick(n, u)]
