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
