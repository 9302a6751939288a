"""The shipped Magnificent boards and camp tiles against the seed, and broken copies."""



import numpy as np
import pytest

from sim.magnificent import data as M
from tests.conftest import assert_refused, edited_copy


@pytest.fixture(scope="module")
def mag():
    return M.load()


def test_rules_from_the_seed(mag):
    p = mag.params
    assert (p["rounds"], p["turns_per_round"], p["start_coins"]) == (3, 4, 6)
    assert p["missing_coin_penalty"] == [1, 2, 3]
    assert (p["gem_power"], p["gem_storage_per_colour"], p["coins_per_excess_gem"]) == (2, 3, 1)
    assert (p["coins_per_point"], p["master_final_divisor"], p["points_per_section"]) == (5, 2, 4)
    assert p["tent_spaces"] == 5 and mag.tent_spaces["printed"].tolist() == [1, 0, 0, 0, 0]
    assert {n: sum(p["dice"][n]) for n in ("2", "3", "4")} == {"2": 11, "3": 15, "4": 19}


def test_side_b_starts_are_worth_about_side_a(mag):
    """Valuing a coin 1, a gem 1.5 and a trainer marker 3, every B side starts within one
    coin of side A (6 coins, 3 gems, 1 marker)."""
    p = mag.params

    def worth(coins, gems, trainers):
        return coins + 1.5 * gems + 3 * trainers

    a = worth(p["start_coins"], 3 * p["start_gems_per_colour"], p["start_trainer_markers"])
    for start in p["side_b"].values():
        assert abs(worth(start["coins"], sum(start["gems"]), start["trainer_markers"]) - a) <= 1


def test_camp_tiles_and_camp(mag):
    t = mag.camp_tiles
    assert sorted(zip(t["colour"], t["n_cells"])) == [(c, s) for c in range(3) for s in (4, 6)]
    assert sorted(t["count"]) == [12, 12, 12, 16, 16, 16]  # per colour 12 large, 16 small
    shapes = {tuple(sorted(map(tuple, x["cells"][: x["n_cells"]]))) for x in t}
    assert len(shapes) == 6  # every colour its own shapes
    camp = mag.camp
    sections = np.bincount(camp["section"])[1:]
    assert len(camp) == 48 and sections.tolist() == [8] * 6
    used = {M.BONUSES[b] for b in camp["bonus"]}
    assert used == set(M.BONUSES)  # every bonus kind of the research appears


def test_tracks(mag):
    travel = mag.travel
    for k in range(3):
        track = travel[travel["track"] == k]
        assert (track["kind"] == M.TRAVEL_KINDS.index("tent")).sum() == 5
    assert np.all(np.diff(mag.build_levels["power"]) > 0)
    assert np.all(np.diff(mag.performance["power"]) >= 0)
    assert mag.performance["shows"].max() >= 3  # a performance of x3 exists (research S10)


def test_cards(mag):
    m = mag.master_cards
    assert len(m) == 56 and np.bincount(m["set"]).tolist() == [40, 4, 4, 4, 4]
    assert set(m["bonus"]) == set(range(len(M.MASTER_BONUSES)))
    assert set(m["scoring"]) == set(range(len(M.SCORINGS)))
    per_row = list(M.SCORINGS).index("per_row")
    assert 7 in m["points"][m["scoring"] == per_row]  # research S16: 7 points per row
    # The starting sets give the same top bonuses (side A starts alike), other scorings.
    sets = [sorted(m["bonus"][m["set"] == k]) for k in range(1, 5)]
    assert all(s == sets[0] for s in sets)
    posters = mag.posters
    assert len(posters) == 54 and posters["starting"].sum() == 6
    assert {"Larissa", "Bronson", "Kimora", "Lungile", "Suhayl", "Alberic"} == {
        n for n, s in zip(mag.poster_names, posters["starting"]) if s}
    # Posters that demand more pay more (research: "posters demanding more give more").
    demand = posters["n_tiles"] * 10 + posters["gems"]
    order = np.argsort(demand, kind="stable")
    assert np.corrcoef(demand[order], posters["points"][order])[0, 1] > 0.8
    assert len(mag.tents) == 16 and len(mag.trainers) == 12


def test_trainer_tiles_suffice_for_every_player_count(mag):
    """rules.md 14: the setup offer's picks and the drafts of rounds 1-2 use at most the 12
    tiles (exactly 12 with 4 players); a third draft with tiles is refused on load."""
    p = mag.params
    for n in (2, 3, 4):
        need = n + p["display_rows"][str(n)] * p["trainer_draft_rounds"]
        assert need <= len(mag.trainers) and 1 + p["trainer_draft_rounds"] <= p[
            "trainer_tile_slots"]
    assert 4 + 4 * p["trainer_draft_rounds"] == len(mag.trainers)
    assert_refused(lambda f: M.load(f, {"trainer_draft_rounds": 3}), mag.folder,
                   "more trainer tiles than its 3 slots hold")
    assert_refused(lambda f: M.load(f, {"trainer_draft_rounds": 3, "min_players": 4}),
                   mag.folder, "4 players need 16 trainer tiles")


def test_starting_sets_mix_their_goals(mag):
    """rules.md "Master cards": each starting set has a camp, a show or tent, a tile and a
    resource goal."""
    goals = {"camp": {"per_row", "per_section"}, "show": {"per_show", "per_tent"},
             "tile": {"per_tile", "per_large_tile"},
             "resource": {"per_gem", "per_coins", "per_trainer_tile", "per_poster"}}
    names = list(M.SCORINGS)
    for k in range(1, 5):
        kinds = [names[s] for s in mag.master_cards["scoring"][mag.master_cards["set"] == k]]
        assert sorted(g for kind in kinds for g, members in goals.items()
                      if kind in members) == sorted(goals), (M.BOARDS[k - 1], kinds)


def _dominated(a, b) -> bool:
    """Gains a (larger is better) and costs b: row i no better anywhere than some row j and
    worse somewhere."""
    for i in range(len(a)):
        for j in range(len(a)):
            if i != j and np.all(a[j] >= a[i]) and np.all(b[j] <= b[i]) and (
                    np.any(a[j] > a[i]) or np.any(b[j] < b[i])):
                return True
    return False


def test_no_strictly_dominated_tent_trainer_or_poster(mag):
    """rules.md "No strictly dominated component", checked on the tables."""
    tents = mag.tents
    for bonus in set(tents["bonus"]):  # tents with one placement bonus: show for the gem
        t = tents[tents["bonus"] == bonus]
        assert not _dominated(np.c_[t["amount"], t["show_points"], t["show_coins"]],
                              np.c_[t["gems"]])
    gem_tents = tents[tents["gems"] > 0]
    plain = tents[tents["gems"] == 0]
    assert gem_tents["show_points"].min() > plain["show_points"].max()
    for effect in set(mag.trainers["effect"]):  # no tile of an effect outdoes another
        assert len(set(mag.trainers["amount"][mag.trainers["effect"] == effect])) == 1
    amount = {M.TRAINER_EFFECTS[e]: a for e, a in zip(mag.trainers["effect"],
                                                      mag.trainers["amount"])}
    gem = mag.params["gem_power"]  # what a clear gem adds to power
    assert amount["travel"] > amount["power"] > gem
    board = {M.TRAINER_EFFECTS[e]: a for e, a in zip(mag.trainer_spaces["effect"],
                                                     mag.trainer_spaces["amount"])}
    assert set(board) == {"travel", "coins", "clear_gem"} and board["travel"] > gem
    posters = mag.posters  # posters showing the same tiles: none better for the same gems
    keys = [tuple(sorted(r["tiles"][:r["n_tiles"]])) for r in posters]
    for key in set(keys):
        rows = posters[[k == key for k in keys]]
        assert not _dominated(np.c_[rows["points"], rows["coins"]], np.c_[rows["gems"]]), key


@pytest.fixture
def broken(tmp_path, mag):
    return lambda file, old, new: edited_copy(mag.folder, tmp_path / "magnificent", file,
                                              old, new)


@pytest.mark.parametrize("file,old,new,expect", [
    ("camp_tiles.csv", '"0,0;0,1;0,2;1,1"', '"0,0;0,1;0,2;2,2"', "join edge to edge"),
    ("camp_tiles.csv", '"0,0;0,1;0,2;1,1"', '"0,0;0,1;0,2"', "covers 4 squares, not 3"),
    ("camp_tiles.csv", "orange-small,orange", "orange-small,red", "field 'colour'"),
    ("camp_tiles.csv", "green-large,green,large", "green-large,green,small", "second small"),
    ("camp.csv", "0,3,1,coins,2", "0,3,1,gold,2", "field 'bonus'"),
    ("camp.csv", "0,3,1,coins,2", "0,3,1,coins,0", "field 'amount'"),
    ("camp.csv", "0,0,1,none,0", "0,0,2,none,0", "section 2 is not connected"),
    ("build_levels.csv", "2,4,large", "2,4,medium", "field 'tiles'"),
    ("build_levels.csv", "3,6,small+small", "3,3,small+small", "more power"),
    ("travel.csv", "orange,2,tent,", "orange,2,gem,", "field 'gem'"),
    ("travel.csv", "orange,1,gem,orange", "orange,1,gem,blue", "field 'gem'"),
    ("travel.csv", "orange,2,tent,", "orange,2,start,", "one start space"),
    ("performance.csv", "12,18,5", "12,1,5", "may not fall"),
    ("tent_spaces.csv", "2,0,coins", "2,1,coins", "only it"),
    ("rules.toml", "4 = [5, 5, 5, 4]", "4 = [5, 5, 5]", "dice.4 must give 4"),
    ("rules.toml", "missing_coin_penalty = [1, 2, 3]", "missing_coin_penalty = [1, 2]",
     "one value per round"),
    ("rules.toml", "gems = [1, 1, 0, 0]", "gems = [1, 1, 0, 9]", "side_b.III.gems[3] = 9"),
    ("master_cards.csv", "I-1,I,coins", "I-1,I,cash", "field 'bonus'"),
    ("master_cards.csv", "per_row,7,,", "per_row,7,orange,", "takes no parameter"),
    ("master_cards.csv", "per_tile,2,orange", "per_tile,2,red", "field 'scoring_param'"),
    ("master_cards.csv", "I-1,I,", "I-1,II,", "as many cards each"),
    ("posters.csv", "Larissa,1,orange-small", "Larissa,1,orange-huge", "not a camp tile"),
    ("posters.csv", "purple:2,13", "purple2,13", "not 'colour:count'"),
    ("posters.csv", "Larissa,1,", "Larissa,0,", "starting posters"),
    ("tents.csv", "T01,coins", "T01,cake", "field 'bonus'"),
    ("trainers.csv", "TR01,power", "TR01,magic", "field 'effect'"),
    # names that posters and the replay read must be unique
    ("camp_tiles.csv", "green-small,green", "orange-small,green", "'orange-small' appears twice"),
    # a column twice: which one the loader read would be a guess
    ("tents.csv", "tent,bonus,amount", "tent,bonus,amount,amount", "amount appear twice"),
    # beyond the engine's capacities, each named with its file
    ("trainer_spaces.csv", "3,clear_gem,1,reconstructed",
     "3,clear_gem,1,reconstructed\n4,coins,1,reconstructed", "4 rows, the engine holds at most 3"),
    ("build_levels.csv", "6,14,small+large+large,reconstructed",
     "6,14,small+large+large,reconstructed\n7,15,small,reconstructed\n"
     "8,16,small,reconstructed\n9,17,small,reconstructed",
     "9 build levels, the engine holds at most 8"),
])
def test_broken_copy_is_refused_with_file_row_and_field(broken, file, old, new, expect):
    assert_refused(M.load, broken(file, old, new), expect)


def test_the_command_line_refuses_a_broken_copy_in_one_line(broken):
    import subprocess
    import sys

    folder = broken("camp_tiles.csv", '"0,0;0,1;0,2;1,1"', '"0,0;0,1;0,2;2,2"')
    res = subprocess.run([sys.executable, "-m", "reports.cli", "data", "magnificent",
                          "--data", str(folder)], capture_output=True, text=True)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "join edge to edge" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("sets,expect", [
    ({"rounds": 4, "missing_coin_penalty": [1, 2, 3, 4]}, "rounds = 4 must be a whole number 1..3"),
    ({"trainer_tile_slots": 4}, "trainer_tile_slots = 4 must be a whole number 1..3"),
    # a turn's die goes on a master card held: a fifth turn would find no card
    ({"turns_per_round": 5}, "turns_per_round = 5 must be a whole number 1..4"),
    ({"tent_spaces": 6}, "tent_spaces = 6 must be a whole number 5..5"),
    ({"master_cards_held": 5}, "master_cards_held = 5 must be a whole number 4..4"),
    ({"display_rows.4": 5}, "display_rows.4 = 5 must be a whole number 4..4"),
])
def test_rules_beyond_the_engines_capacities_are_refused_on_load(sets, expect):
    """Refused by the loader, which `playtest data` runs as `simulate` does (the packing of
    the tables refuses nothing of its own)."""
    assert_refused(lambda f: M.load(f, sets), M.load().folder, expect)
