"""The shipped Dice Theme Park data against the seed, and refusal of broken copies."""


import itertools
import shutil
import subprocess
import sys

import numpy as np
import pytest

from sim.dice_theme_park import data as D
from tests.conftest import assert_refused, edited_copy


@pytest.fixture(scope="module")
def dtp():
    return D.load()


def _attraction(d, name):
    return d.attractions[d.attraction_names.index(name)]


def _staff(d, name):
    return d.staff[D.STAFF.index(name)]


def test_counts_and_player_count_tables(dtp):
    p = dtp.params
    assert dtp.colours == ["blue", "green", "yellow"] and p["dice"]["per_colour"] == 21
    assert p["dice"]["in_bag"] == {"2": 11, "3": 16, "4": 21}
    assert [int((dtp.monorails["players"] == n).sum()) for n in (2, 3, 4)] == [3, 4, 5]
    assert dtp.monorails["pips"].shape == (12, 3)
    stacks = [D.STACKS[s] for s in dtp.attractions["stack"]]
    assert (stacks.count("A"), stacks.count("B"), stacks.count("basic")) == (20, 16, 3)
    assert len(dtp.objective_names) == 10 and "most-money" in dtp.objective_names
    assert p["rounds"] == {"intro": 4, "full": 5, "short": 4}
    assert p["objective_stars"] == {"2": [4], "3": [6, 3], "4": [8, 4, 2]}
    assert sorted(dtp.staff["pips"]) == [1, 2, 3, 4, 5, 6]


def test_staff_against_the_seed_examples(dtp):
    """Ticket agent + concierge sum 3; concierge + architect 7; guide + mascot 7 pips and $6;
    yellow's income with guide + mascot, the entrance and the Helter Skelter is $8."""
    pips = {s: _staff(dtp, s)["pips"] for s in D.STAFF}
    assert pips["ticket_agent"] + pips["concierge"] == 3
    assert pips["concierge"] + pips["architect"] == 7
    assert pips["guide"] + pips["mascot"] == 7
    money = _staff(dtp, "guide")["money"] + _staff(dtp, "mascot")["money"]
    assert money == 6
    entrance = dtp.attractions[dtp.attractions["stack"] == D.STACKS.index("entrance")][0]
    assert entrance["income"] == 1  # the seed: パーク入口の収入($1)
    assert money + entrance["income"] + _attraction(dtp, "Helter Skelter")["income"] == 8
    # More money goes with later turn order (research: "the more income, the less chance of
    # being first player").
    order = np.argsort(dtp.staff["pips"])
    assert np.all(np.diff(dtp.staff["money"][order]) >= 0)


def test_named_attractions_and_the_entrance(dtp):
    def requirement(name):
        t = _attraction(dtp, name)
        colour = "any" if t["requirement_colour"] < 0 else dtp.colours[t["requirement_colour"]]
        return D.REQUIREMENTS[t["requirement"]], colour

    assert requirement("Log Flume") == ("colour_greater", "blue")  # any die and a larger blue
    assert requirement("Ferris Wheel") == ("odd_even", "yellow")  # odd yellow, even any
    assert requirement("Duck Pond") == ("single", "blue")
    assert requirement("Park Entrance") == ("single", "any")
    assert _attraction(dtp, "Park Entrance")["icons"] == 2  # a generator printed
    assert "Spooky Woods" in dtp.attraction_names


def test_every_vocabulary_word_is_used_and_amenity_sets_can_reach_four(dtp):
    t = dtp.attractions
    assert set(t["requirement"]) == set(range(len(D.REQUIREMENTS)))
    amenities = t["amenity"][t["amenity"] >= 0]
    assert np.bincount(amenities, minlength=len(D.AMENITIES)).min() >= 4
    # Income only on grey attractions or in stack B (and the entrance), as the seed says.
    grey = len(dtp.colours)
    paid = t[t["income"] > 0]
    assert np.all((paid["colour"] == grey) | np.isin(paid["stack"], [D.STACKS.index("entrance"),
                                                                     D.STACKS.index("B")]))
    # Harder requirements and stack B pay more stars.
    single = t[(t["requirement"] == 0) & (t["requirement_colour"] < 0) & (t["income"] == 0)]
    triples = t[np.isin(t["requirement"], [D.REQUIREMENTS.index("run_three"),
                                           D.REQUIREMENTS.index("three_equal")])]
    assert triples["stars"].min() > single["stars"].max()


def test_administrators_and_skills_cover_the_seeds_abilities(dtp):
    """One administrator per ability the seed lists (13); 30 skills over its 9 abilities,
    each "depicted colour" ability in every dice colour."""
    assert sorted(dtp.administrators["power"]) == list(range(len(D.ADMIN_POWERS)))
    skills = dtp.skills
    assert len(skills) == 30 and set(skills["power"]) == set(range(len(D.SKILL_POWERS)))
    for k, (coloured, _, _) in enumerate(D.SKILL_POWERS.values()):
        colours = set(skills["colour"][skills["power"] == k])
        assert colours == ({0, 1, 2} if coloured else {D.ANY})
    money = skills[skills["power"] == list(D.SKILL_POWERS).index("money_per_die")]
    assert set(money["amount"]) == {2} and set(money["limit"]) == {6}  # $2 a die, at most $6
    stars = dtp.administrators[dtp.administrators["power"]
                               == list(D.ADMIN_POWERS).index("operated_stars")][0]
    assert list(stars["thresholds"]) == [6, 7, 8] and list(stars["stars"]) == [1, 2, 3]


def test_park_shape(dtp):
    roles = [D.PARK_ROLES[r] for r in dtp.park["role"]]
    assert roles.count("entrance") == 1 and roles.count("basic") == 3
    assert roles.count("setup") >= 1


@pytest.fixture
def broken(tmp_path, dtp):
    return lambda file, old, new: edited_copy(dtp.folder, tmp_path / "dice_theme_park", file,
                                              old, new)


@pytest.mark.parametrize("file,old,new,expect", [
    ("attractions.csv", "Duck Pond,A,3,0,single,blue", "Duck Pond,A,3,0,triple,blue",
     "field 'requirement'"),
    ("attractions.csv", "Duck Pond,A,3,0,single,blue", "Duck Pond,A,3,0,single,red",
     "field 'requirement_colour'"),
    ("attractions.csv", "Log Flume,A,5,0,colour_greater,blue", "Log Flume,A,5,0,colour_greater,any",
     "names a dice colour"),
    ("attractions.csv", "Bumper Cars,A,5,0,pair_equal,any", "Bumper Cars,A,5,0,pair_equal,green",
     "takes dice of any colour"),
    ("attractions.csv", "Duck Pond,A,3,", "Duck Pond,A,-3,", "row 10, field 'cost': -3 is below 0"),
    ("attractions.csv", "drink,blue,1,4;5", "drink,purple,1,4;5", "field 'colour'"),
    ("attractions.csv", "drink,blue,1,4;5", "none,blue,1,4;5", "field 'amenity'"),
    ("attractions.csv", "Duck Pond,A,3,0", "Duck Pond,A,3,1", "only grey attractions"),
    ("attractions.csv", "Carousel,basic,0,0", "Carousel,basic,0,1", "only grey attractions"),
    ("attractions.csv", "drink,blue,1,4;5", "drink,blue,1,4;5;6", "at most 2 upgrade"),
    ("attractions.csv", "Duck Pond,A,", "Duck Pond,B,", "19 attractions in 'A'"),
    ("attractions.csv", "Duck Pond,", "Log Flume,", "'Log Flume' appears twice"),
    ("monorails.csv", "M2-3,2,", "M2-3,3,", "2 monorails for 2 players"),
    ("monorails.csv", "M2-1,2,2,3,4", "M2-1,2,2,3,7", "7 is above 6"),
    ("staff.csv", "guide,3,3", "guard,3,3", "field 'staff'"),
    ("park.csv", "0,2,open", "5,5,open", "not connected"),
    ("park.csv", "1,0,basic", "1,0,open", "2 hexes of role 'basic'"),
    ("objectives.csv", "most-money,red,money", "most-money,red,cash", "field 'measure'"),
    ("rules.toml", "4 = [8, 4, 2]", "4 = [8, 4]", "objective_stars.4 must give 3"),
    ("rules.toml", "3 = 16", "3 = 26", "dice.in_bag.3 = 26"),
    ("rules.toml", "mascot_price = 5", "mascot_price = -5", "mascot_price"),
    ("rules.toml", "[rounds]", "rounds = 4\n[x]", "unknown parameter 'x'"),
    ("rules.toml", "[rounds]                        # rounds per mode, and the rounds with an "
     "objective\nintro = 4\nfull = 5\nshort = 4", "rounds = [4, 5, 4]",
     "rounds must be a table"),
    ("administrators.csv", "builder,improve,upgrade_discount", "builder,improve,free_lunch",
     "field 'power'"),
    ("administrators.csv", "builder,improve,upgrade_discount,any",
     "builder,improve,upgrade_discount,blue", "has no colour"),
    ("administrators.csv", "keep-green,operate,keep_pips,green", "keep-green,operate,keep_pips,any",
     "names a dice colour"),
    ("administrators.csv", "6;7;8", "6;8;7", "must rise"),
    ("administrators.csv", "builder,improve,upgrade_discount,any,1", "builder,improve,"
     "upgrade_discount,any,0", "0 is below 1"),
    ("skills.csv", "recolour-3,recolour,any,0,0,seed\n", "", "29 rows"),
    ("skills.csv", "tips-blue,money_per_die,blue,2,6", "tips-blue,money_per_die,blue,2,x",
     "field 'limit'"),
])
def test_broken_copy_is_refused_with_file_row_and_field(broken, file, old, new, expect):
    assert_refused(D.load, broken(file, old, new), expect)


def test_data_beyond_the_engines_capacities_is_refused(broken):
    """A card file the state cannot hold is refused at loading, not left to write past its
    slots or fail in ``tables.pack``: 25 tiles in stack A (a stack holds 24), 17 objectives
    (16), more dice than a park's slots (64), other than three dice colours."""
    duck = "Duck Pond,A,3,0,single,blue,1,seating,blue,1,4,reconstructed\n"
    more = "".join(duck.replace("Duck Pond", f"Duck Pond {k}") for k in range(5))
    folder = broken("attractions.csv", duck, duck + more)
    rules = folder / "rules.toml"
    rules.write_text(rules.read_text().replace("attractions_a = 20", "attractions_a = 25"))
    assert_refused(D.load, folder, "25 attractions in 'A', the engine holds at most 24")

    shutil.rmtree(folder)
    card = "most-money,red,money,most,seed\n"
    folder = broken("objectives.csv", card,
                    card + "".join(card.replace("most-money", f"rich-{k}") for k in range(7)))
    rules.write_text(rules.read_text().replace("objectives = 10", "objectives = 17"))
    assert_refused(D.load, folder, "17 objectives, the engine holds at most 16")

    for old, new, expect in [("per_colour = 21", "per_colour = 22", "dice.per_colour = 22"),
                             ('colours = ["blue", "green", "yellow"]',
                              'colours = ["blue", "green"]', "must name 3 colours")]:
        shutil.rmtree(folder)
        assert_refused(D.load, broken("rules.toml", old, new), expect)


def test_the_command_line_refuses_a_broken_copy_in_one_line(broken):
    folder = broken("park.csv", "0,2,open", "5,5,open")
    res = subprocess.run([sys.executable, "-m", "reports.cli", "data", "dice_theme_park",
                          "--data", str(folder)], capture_output=True, text=True)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "not connected" in res.stderr
    assert "Traceback" not in res.stderr
    ok = subprocess.run([sys.executable, "-m", "reports.cli", "data", "dice_theme_park"],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and "attractions.csv: 40 rows" in ok.stdout


def test_the_requirement_reference_meets_the_seeds_examples():
    from sim.dice_theme_park.balance import can_operate, party_meets

    blue, green, yellow = 0, 1, 2
    assert party_meets("colour_greater", blue, ((blue, 5), (yellow, 4)))  # Log Flume
    assert not party_meets("colour_greater", blue, ((blue, 4), (yellow, 4)))
    assert party_meets("odd_even", yellow, ((yellow, 1), (blue, 4)))  # Ferris Wheel
    assert not party_meets("odd_even", yellow, ((blue, 1), (yellow, 4)))
    assert can_operate("single", blue, [(yellow, 2), (blue, 3)])  # Duck Pond
    assert not can_operate("single", blue, [(yellow, 2), (green, 3)])
    assert can_operate("run_three", D.ANY, [(blue, 2), (green, 5), (yellow, 4)])
    assert not can_operate("run_three", D.ANY, [(blue, 2), (green, 2), (yellow, 4)])


def test_stars_follow_how_hard_a_requirement_is(dtp):
    """rules.md's balance: a requirement clearly easier for three random dice (by 0.1) never
    has more stars; a three-dice party counts one star more (it lowers three dice). The one
    exception is measured in play (rules.md): an A tile needing one die of a named colour is
    as easy as one needing any die (a mascot recolours a die), so it has 1 star, not 2."""
    from sim.dice_theme_park.balance import difficulty

    in_play = {("single", True, "A"): 1}  # (requirement, coloured, stack) -> stars
    base = {}
    for r in dtp.attractions:
        stack = D.STACKS[r["stack"]]
        if stack == "entrance":
            continue
        kind = D.REQUIREMENTS[r["requirement"]]
        key = (kind, r["requirement_colour"] != D.ANY)
        if (*key, stack) in in_play:
            assert r["stars"] == in_play[(*key, stack)]
            continue
        stars = int(r["stars"]) - (stack == "B") - (kind in ("run_three", "three_equal"))
        assert base.setdefault(key, stars) == stars, key  # one star value per requirement
    share = {key: difficulty(key[0], key[1], 3, trials=1500) for key in base}
    for a, b in itertools.permutations(base, 2):
        if share[a] > share[b] + 0.1:
            assert base[a] <= base[b], (a, b)


def test_income_tiles_and_upgrades_pay_in_line_with_their_peers(dtp):
    """Value per $ over a tile's expected life (balance.py): a tile with income within the
    range of the tiles of its stack without; no upgrade above the best tile of its stack."""
    from sim.dice_theme_park.balance import LIFE, UPGRADE_OPERATIONS, value_per_dollar

    values = {"A": [], "B": []}
    income = {"A": [], "B": []}
    for r in dtp.attractions:
        stack = D.STACKS[r["stack"]]
        if stack not in values:
            continue
        v = value_per_dollar(int(r["stars"]), int(r["income"]), int(r["cost"]), *LIFE[stack])
        (income if r["income"] else values)[stack].append(v)
        if r["income"]:
            assert r["upgrade_1"] == D.ANY  # a tile has income or upgrade spaces, not both
    for stack in values:
        assert min(values[stack]) - 0.1 <= min(income[stack])
        assert max(income[stack]) <= max(values[stack]) + 0.1
        spaces = [int(r[f"upgrade_{k}"]) for r in dtp.attractions for k in (1, 2)
                  if D.STACKS[r["stack"]] == stack and r[f"upgrade_{k}"] != D.ANY]
        assert max(2 * UPGRADE_OPERATIONS[stack] / c for c in spaces) <= max(values[stack])


def test_monorail_sets_are_even(dtp):
    """Within a player count's set the monorails' pip totals differ by at most 4."""
    for n in (2, 3, 4):
        totals = dtp.monorails["pips"][dtp.monorails["players"] == n].sum(axis=1)
        assert totals.max() - totals.min() <= 4, (n, totals)
