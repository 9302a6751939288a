"""What is random and what is seat-related: the deals, who sits where, stack access, streams.
Each test would catch a biased deal or a mixed-up seat that the rule tests cannot see."""

import itertools

import numpy as np
import pytest

from sim import simulate
from sim.core.rng import game_stream, seed_game, shuffle
from sim.festival import Prepared, bots, play_chunk
from sim.festival import features as F
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival.play import new_buffers


def test_game_streams_are_pinned_to_reference_values():
    """A change of the seeding (or a stream where (3, 5) equals (5, 3)) changes every game."""
    assert [int(x) for x in game_stream(0, 0)] == [
        12035550249420947055, 12935080325729570654, 7141179953334974231, 12108695660851890438]
    assert [int(x) for x in game_stream(3, 5)] == [
        9488241384779317966, 3993958573668543862, 8271832340603227386, 2768683362196209892]
    assert [int(x) for x in game_stream(5, 3)] == [
        7075870849989093264, 4537624348212961626, 2065061316773238228, 4194729016945309170]
    s = np.zeros(4, dtype=np.uint64)
    seed_game(s, 7, 123456)
    assert np.array_equal(s, game_stream(7, 123456))


def test_shuffle_gives_every_order_equally_often():
    rng = game_stream(11, 0)
    counts = {p: 0 for p in itertools.permutations(range(4))}
    for _ in range(24_000):
        a = np.arange(4, dtype=np.int64)
        shuffle(rng, a, 0, 4)
        counts[tuple(int(x) for x in a)] += 1
    # 1,000 expected each; sd about 31: 5 sd either way
    assert min(counts.values()) > 845 and max(counts.values()) < 1155


def _deals(n_players: int, games: int = 4000):
    st, rng, _, _ = new_buffers()
    tab = _tab()
    for g in range(games):
        rng[:] = game_stream(5, g)
        R.setup(st, tab, n_players, rng)
        yield st


def _tab():
    from sim.festival.data import load

    return load().tab


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_boards_are_dealt_evenly_to_every_seat(n_players):
    counts = np.zeros((n_players, 4))
    for st in _deals(n_players):
        colours = [st[S.SEAT + p * S.SEAT_SIZE + S.COLOUR] for p in range(n_players)]
        assert len(set(colours)) == n_players  # a board of a different colour each
        for p, c in enumerate(colours):
            counts[p, c] += 1
    # every seat gets every colour a quarter of the time (1,000 of 4,000; sd 27)
    assert counts.min() > 870 and counts.max() < 1130


def test_each_crowd_pleaser_lands_on_either_side_half_the_time():
    from sim.festival.data import load

    d = load()
    sides = d.tables.crowd_sides
    counts = np.zeros((len(sides), 2))
    for st in _deals(4):
        for k in range(len(sides)):
            counts[k, list(sides[k]).index(st[S.CROWD_COND + k])] += 1
    assert counts.min() > 1870 and counts.max() < 2130  # 2,000 expected, sd 32


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_seat_draws_from_its_own_stack_and_its_right_neighbours(position, n_players):
    pos = position(n_players=n_players)
    for p in range(n_players):
        assert R.stack_of(pos.st, p, 0) == p
        assert R.stack_of(pos.st, p, 1) == (p - 1) % n_players
        # the move "take from the right" takes the top of that stack, and no other changes
        before = [int(pos.st[S.STACK_N + s]) for s in range(n_players)]
        top = R.top_tile(pos.st, (p - 1) % n_players)
        R.apply_move(pos.st, pos.tab, p, R.MOVE_TILE_RIGHT + 4, pos.log, 0)
        after = [int(pos.st[S.STACK_N + s]) for s in range(n_players)]
        want = before.copy()
        want[(p - 1) % n_players] -= 1
        assert after == want
        assert pos.st[pos.base(p) + S.TOP + 4] == top


def test_game_i_seats_the_expected_bot_and_records_it():
    names = ["greedy", "random", "hunter", "builder"]
    df = simulate("festival", games=40, players=4, bots=names, seed=3)
    assert (df["bot_slot"] == (df["seat"] + df["game_index"]) % 4).all()
    assert (df["bot"].astype(str) == np.array(names)[df["bot_slot"]]).all()
    still = simulate("festival", games=40, players=4, bots=names, seed=3, rotate=False)
    assert (still["bot_slot"] == still["seat"]).all()


def test_the_recorded_bot_is_the_bot_that_played(capsys):
    from reports.cli import main

    names = ["greedy", "random", "hunter"]
    df = simulate("festival", games=6, players=3, bots=names, seed=8)
    for game in (1, 5):
        assert main(["replay", "festival", "--seed", "8", "--game", str(game), "--players", "3",
                     "--bots", ",".join(names)]) == 0
        text = capsys.readouterr().out
        for r in df[df["game_index"] == game].itertuples():
            assert f"seat {r.seat} ({r.bot})" in text


def test_changing_the_bots_leaves_the_deal_unchanged():
    a = simulate("festival", games=200, players=4, bots="greedy", seed=9)
    b = simulate("festival", games=200, players=4, bots="random", seed=9)
    for column in ("board", "crowd_1", "crowd_2", "crowd_3", "crowd_4"):
        assert a[column].equals(b[column]), column
    assert not a["score"].equals(b["score"])


def _prepared(stacked_weight: float, n_players: int = 2) -> Prepared:
    """Bots that choose their starting side on the ``stacked`` feature alone."""
    from sim.festival.data import load

    selectors, params, weights = bots.bot_arrays(["greedy"] * n_players)
    weights[:] = 0
    weights[:, F.DECISION_KINDS.index("start_side"), F.F_STACKED] = stacked_weight
    return Prepared(load(), n_players, ("greedy",) * n_players, (selectors, params, weights),
                    True)


def test_a_non_random_bot_can_choose_either_starting_side():
    """Side B asks for a stacked tile, side A does not (rules.md): weighting "stacked" up or
    down picks one side or the other every time."""
    for weight, side in ((1.0, "-B"), (-1.0, "-A")):
        df = play_chunk(_prepared(weight), seed=1, start=0, n=50).to_pandas()
        assert df["start_side"].astype(str).str.endswith(side).all(), side
    builder = simulate("festival", games=400, players=2, bots="builder", seed=2)
    share_b = builder["start_side"].astype(str).str.endswith("-B").mean()
    assert 0.35 < share_b < 0.65  # its weights leave both sides equal: ties broken at random


def test_stacks_and_piles_are_shuffled_evenly():
    """The top tile of each stack and the top card of each pile: every tile and card equally
    often (a deal that never moves one tile, or never shuffles the deck, fails here)."""
    from sim.festival.data import load

    t = load().tables
    n_tiles = int(t.params[S.P_TILES_PER_PLAYER])
    n_cards = int(t.params[S.P_PILES] * t.params[S.P_PILE_SIZE])
    tops = np.zeros((4, n_tiles))
    cards = np.zeros(n_cards)
    for st in _deals(4, games=4800):
        for s in range(4):
            tops[s, R.top_tile(st, s)] += 1
        for q in range(int(t.params[S.P_PILES])):
            cards[st[S.PILE + q * S.PILE_CAP + st[S.PILE_N + q] - 1]] += 1
    assert tops.min() > 300 - 5 * 17 and tops.max() < 300 + 5 * 17  # 300 each, sd 17
    assert cards.min() > 686 - 5 * 25 and cards.max() < 686 + 5 * 25  # 4 of 28 x 4,800


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_game_ends_on_a_full_round(n_players):
    """Play goes on until the seat on the start player's right has played (rules.md), so
    turns are a whole number of rounds."""
    df = simulate("festival", games=300, players=n_players, bots="random", seed=5)
    assert (df["turns"] % n_players == 0).all()
    assert (df["rounds"] == df["turns"] // n_players).all()


def test_objective_counts_add_up():
    """A seat holds its starting objective and every card it took: completed plus still
    open is one more than taken."""
    df = simulate("festival", games=300, players=3, bots=["greedy", "hunter", "random"], seed=5)
    assert (df["objectives_taken"] == df["objectives_done"] + df["objectives_open"] - 1).all()
    assert df["objectives_taken"].max() > 3
