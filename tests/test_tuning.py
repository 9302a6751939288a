"""Tuning: table-cell overrides, bots files, the targets, and the searches of tune rules and
tune bot (a toy problem each, then the commands end to end on a few games)."""

import json
import tomllib

import numpy as np
import pandas as pd
import pytest
import toy_game
from conftest import edited_copy, one_line

from analysis.targets import measure, measure_all, parse_term
from analysis.tune_rules import Vary, best_row, parse_vary, search
from reports.cli import main
from sim import PlaytestError
from sim.core.data import seeds_dir, table_names
from sim.core.runner import simulate_frame
from sim.dice_theme_park import data as DTP
from sim.festival import data as FD
from strategies.presets import PresetError, added_bots, bots_files, load_presets

# ------------------------------------------------------------------ table-cell overrides

def test_a_cell_override_plays_as_the_edited_folder_does(tmp_path):
    edited = edited_copy(seeds_dir("festival"), tmp_path / "f", "start_objectives.csv",
                         "red-A,red,A,7", "red-A,red,A,11")
    by_folder = simulate_frame("festival", 300, 4, None, 5, data=str(edited))
    by_set = simulate_frame("festival", 300, 4, None, 5,
                            sets={"start_objectives.red-A.value": 11})
    shipped = simulate_frame("festival", 300, 4, None, 5)
    pd.testing.assert_frame_equal(by_folder, by_set)
    assert not by_set.equals(shipped)  # the value is played, not ignored


def test_a_cell_override_reaches_the_tables_of_every_game(tmp_path):
    edited = edited_copy(seeds_dir("dice_theme_park"), tmp_path / "d", "administrators.csv",
                         "recruiter,expand,mascot_discount,any,2",
                         "recruiter,expand,mascot_discount,any,4")
    by_set = DTP.load(sets={"administrators.recruiter.amount": 4, "mascot_price": 6})
    by_folder = DTP.load(edited, {"mascot_price": 6})
    assert np.array_equal(by_set.administrators["amount"], by_folder.administrators["amount"])
    assert by_set.params["mascot_price"] == 6
    row = by_set.administrator_names.index("recruiter")
    assert by_set.administrators["amount"][row] == 4
    # a row named by its first two columns where the first repeats, checked as the file is
    with pytest.raises(PlaytestError, match="park.csv: 4 hexes of role 'basic'"):
        DTP.load(sets={"park.0:-2.role": "basic"})


@pytest.mark.parametrize("key, expect", [
    ("administrators.nobody.amount=1", "administrators.csv has no row 'nobody' (rows: save-blue"),
    ("administrators.recruiter.cost=1", "'cost' is not a column of administrators.csv (columns "
     "to set: phase, power, colour, amount"),
    ("administrators.recruiter.administrator=x", "'administrator' names the row"),
    ("administrators.recruiter.source=seed", "'source' is where the value comes from"),
    ("administrators.recruiter=1", "a table cell is set as administrators.ROW.COLUMN=VALUE"),
    ("administrators.recruiter.amount=-3", "field 'amount': -3 is below 1"),
    ("adminstrators.recruiter.amount=1", "unknown rule 'adminstrators.recruiter.amount'"),
])
def test_a_bad_cell_is_refused_inone_line(capsys, key, expect):
    assert main(["data", "dice_theme_park", "--set", key]) == 2
    one_line(capsys, expect)


def test_the_cell_check_is_the_loaders():
    with pytest.raises(PlaytestError, match=r"row \d+ \(with objectives.col-1.value='x' set\), "
                       "field 'value'"):
        FD.load(sets={"objectives.col-1.value": "x"})


def test_a_table_that_shares_a_rules_name_is_reached_by_its_dotted_keys():
    shared = {game: set(table_names(game)) & set(
        tomllib.loads((seeds_dir(game) / "rules.toml").read_text()))
        for game in ("festival", "dice_theme_park", "magnificent")}
    assert shared == {"festival": set(), "dice_theme_park": set(),
                      "magnificent": {"tent_spaces"}}
    from sim.magnificent import data as MD

    assert MD.load(sets={"tent_spaces": 5}).hash != MD.load().hash  # the rule, as it is
    with pytest.raises(PlaytestError, match="tent_spaces = 6 must be"):
        MD.load(sets={"tent_spaces": 6})
    with pytest.raises(PlaytestError, match="tent_spaces.csv has no row '9'"):
        MD.load(sets={"tent_spaces.9.amount": 1})


def test_keys_lists_the_tables_rows_and_columns(capsys):
    assert main(["data", "dice_theme_park", "--keys"]) == 0
    out = capsys.readouterr().out
    assert "tables (--set TABLE.ROW.COLUMN=VALUE" in out
    assert "  administrators: rows save-blue" in out
    assert "numbers: amount (0..2 in the file)" in out


# ---------------------------------------------------------------------------- bots files

EAGER = """
[eager]
selector = "greedy"
description = "takes objectives eagerly"
[eager.turn]
points = 1.0
progress = 0.5
take_objective = 0.5
"""


def test_a_bots_file_plays_is_recorded_and_replays_without_it(tmp_path, capsys):
    (tmp_path / "mine.toml").write_text(EAGER)
    out = tmp_path / "run"
    assert main(["simulate", "festival", "--games", "60", "--bots", "eager,greedy,greedy,greedy",
                 "--bots-file", str(tmp_path / "mine.toml"), "--out", str(out),
                 "--quiet"]) == 0
    req = json.loads((out / "run.json").read_text())["request"]
    assert req["bot_presets"]["eager"]["turn"]["take_objective"] == 0.5
    capsys.readouterr()
    (tmp_path / "mine.toml").unlink()  # the run alone replays it
    assert main(["replay", "--run", str(out), "--game", "3"]) == 0
    assert "(eager)" in capsys.readouterr().out
    # it plays as the same weights in a shipped file would: not as greedy
    with added_bots("festival", bots_files([])):
        greedy = simulate_frame("festival", 60, 4, ["greedy"] * 4, 0)
    with added_bots("festival", {"eager": ("t", tomllib.loads(EAGER)["eager"])}):
        eager = simulate_frame("festival", 60, 4, ["eager", "greedy", "greedy", "greedy"], 0)
    assert not np.array_equal(greedy["score"], eager["score"])
    assert "eager" not in load_presets("festival")  # gone after the block
    # a damaged record of the bots is refused in one line, by replay and by report
    info = json.loads((out / "run.json").read_text())
    info["request"]["bot_presets"] = ["eager"]
    (out / "run.json").write_text(json.dumps(info))
    capsys.readouterr()
    assert main(["replay", "--run", str(out), "--game", "3"]) == 2
    one_line(capsys, "bot_presets is not a table of bots")


@pytest.mark.parametrize("text, expect", [
    ("[greedy]\nselector = 'random'\n", "bot 'greedy' is a shipped bot of festival"),
    ("[x]\nselector = 'greedy'\n[x.turn]\nnope = 1\n", "bot 'x' of FILE: unknown turn feature"),
    ("[x]\nselector = 'magic'\n", "FILE: bot 'x': unknown selector 'magic'"),
    ("[x\n", "cannot read bot presets FILE"),
    # every weight a finite number of a size the scores can add up, named by its key
    *[(f"[x]\nselector = 'greedy'\n[x.turn]\npoints = {w}\n",
       f"FILE: bot 'x': [x.turn] points = {shown}") for w, shown in [
           ("nan", "nan"), ("inf", "inf"), ("-inf", "-inf"), ("1e308", "1e+308"),
           ("1e-9", "1e-09")]],
    ("[x]\nselector = 'greedy'\n[x.turn]\npoints = '1.0'\n",
     "FILE: bot 'x': [x.turn] points must be a number, got '1.0'"),
    ("[x]\nselector = 'greedy'\n[x.turn]\npoints = true\n",
     "FILE: bot 'x': [x.turn] points must be a number, got True"),
    ("[x]\nselector = 'greedy'\n[x.turn]\npoints = 100000.0\nboard = 0.00001\n",
     "FILE: bot 'x': [x.turn] points = 100000 is more than 1e+09 times [x.turn] board"),
    ("[x]\nselector = 'greedy'\n[x.all]\nnope = 1\n",
     "bot 'x' of FILE: no decision kind has the feature 'nope'"),
    # a selector's parameter within its range
    *[(f"[x]\nselector = '{sel}'\nparam = {v}\n", f"FILE: bot 'x': param must be {what}")
      for sel, v, what in [("epsilon", "2.0", "the share of random moves, from 0 to 1"),
                           ("epsilon", "-0.1", "the share"), ("epsilon", "nan", "the share"),
                           ("softmax", "0", "the temperature"), ("softmax", "-1", "the "),
                           ("softmax", "inf", "the temperature")]],
    ("[x]\nselector = 'softmax'\n", "FILE: bot 'x': param must be the temperature"),
])
def test_a_bad_bots_file_is_refused_inone_line(tmp_path, capsys, text, expect):
    path = tmp_path / "bots.toml"
    path.write_text(text)
    assert main(["simulate", "festival", "--games", "5", "--bots", "x", "--bots-file",
                 str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 2
    one_line(capsys, expect.replace("FILE", str(path)))
    assert not (tmp_path / "r" / "run.json").exists()


@pytest.mark.parametrize("game, kind, feature", [("magnificent", "die", "squares"),
                                                  ("dice_theme_park", "operate", "skill_push")])
def test_a_weight_on_what_a_kinds_moves_never_have_is_refused(tmp_path, capsys, game, kind,
                                                              feature):
    """A kind's own table weighing a feature its moves always have at 0 (the engine's
    FILLS) would change nothing: refused, where [NAME.all] may weigh it for other kinds."""
    path = tmp_path / "bots.toml"
    path.write_text(f"[x]\nselector = 'greedy'\n[x.all]\n{feature} = 1\n"
                    f"[x.{kind}]\n{feature} = 1\n")
    assert main(["simulate", game, "--games", "5", "--bots", "x", "--bots-file", str(path),
                 "--out", str(tmp_path / "r"), "--quiet"]) == 2
    one_line(capsys, f"bot 'x' of {path}: a {kind} move's '{feature}' is always 0")
    assert not (tmp_path / "r" / "run.json").exists()
    path.write_text(f"[x]\nselector = 'greedy'\n[x.all]\n{feature} = 1\n")
    assert main(["simulate", game, "--games", "5", "--bots", "x", "--bots-file", str(path),
                 "--out", str(tmp_path / "r"), "--quiet"]) == 0


def test_an_all_table_weighs_the_kinds_that_have_the_feature(tmp_path):
    """Festival's two decision kinds have different features: [NAME.all] may name one that
    only some kinds have, as the README says, and weighs it there."""
    from strategies.presets import added_bots, bot_arrays

    path = tmp_path / "bots.toml"
    path.write_text("[eager]\nselector = 'greedy'\n[eager.all]\npoints = 1.0\n"
                    "height = 0.5\n")
    assert main(["simulate", "festival", "--games", "5", "--bots", "eager", "--bots-file",
                 str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 0
    from sim.core.game import steps_of

    features = steps_of("festival").FEATURES
    kinds = tuple(features)
    with added_bots("festival", bots_files([str(path)])):
        _, _, w = bot_arrays("festival", "Festival", ["eager"], kinds, features)
    for k, kind in enumerate(kinds):
        for name, want in (("points", 1.0), ("height", 0.5)):
            if name in features[kind]:
                assert w[0, k, features[kind].index(name)] == want
    assert any("height" not in f for f in features.values())  # the case the test is for


def test_two_files_may_not_define_one_bot_twice(tmp_path):
    for name in "ab":
        (tmp_path / f"{name}.toml").write_text(EAGER)
    with pytest.raises(PresetError, match="bot 'eager' is also in"):
        bots_files([str(tmp_path / "a.toml"), str(tmp_path / "b.toml")])


# ----------------------------------------------------------------------------- targets

@pytest.fixture(scope="module")
def toy_results():
    df = toy_game.results(20_000, 4, ["plain"] * 4)
    df.attrs["playtest"] = {"request": {"game": "toy"}, "medals": toy_game.MEDALS}
    return df, toy_game.declare({"medals": toy_game.MEDALS})


def test_the_targets_find_the_planted_effects(toy_results):
    df, decl = toy_results
    est, lo, hi = measure(parse_term("effect:colour=blue"), df, decl)
    assert lo > 0 and 2 < est < 8  # blue is planted at +0.25 on the logit
    est, lo, hi = measure(parse_term("effect:colour=green"), df, decl)
    assert lo < 0 < hi or abs(est) < 2
    spread = measure(parse_term("spread:colour"), df, decl)
    # no lower end (the bootstrap's spread is biased upward), a 95% upper bound above it
    assert np.isnan(spread[1]) and 0 < spread[0] <= spread[2]
    seat = measure(parse_term("seat-spread"), df, decl)
    assert seat[1] > 0  # seat 0 is planted above seat 3
    length = measure(parse_term("length,goal=11"), df, decl)
    assert 10.5 < length[0] < 11 and length[1] < length[0] < length[2]


def test_the_objective_and_the_verdict(toy_results):
    df, decl = toy_results
    terms = [parse_term("seat-spread,band=50"), parse_term("length,goal=10.5,band=0.25,weight=2")]
    m = measure_all(terms, df, decl)
    want = abs(m["seat-spread"]) / 50 + 2 * abs(m["length"] - 10.5) / 0.25
    assert m["objective"] == pytest.approx(want)
    assert m["met"] == bool(m["length high"] <= 10.75 and m["length low"] >= 10.25)
    assert m["met"] is True  # both terms inside their bands
    tight = measure_all([parse_term("spread:colour,band=0.5")], df, decl)
    assert tight["met"] is False  # the planted spread is several points


def test_met_reads_the_interval_against_the_band():
    two = parse_term("seat-spread,goal=1,band=1")
    assert two.met(0.1, 1.9) and not two.met(-0.1, 1.5) and not two.met(0.5, 2.1)
    one = parse_term("spread:board,band=0.5")  # never below zero: the upper end decides
    assert one.met(0.1, 0.45) and not one.met(0.2, 0.8) and not one.met(0.6, 0.9)
    assert parse_term("effect:a=b,weight=3,band=2").miss(-5) == pytest.approx(7.5)


@pytest.mark.parametrize("text, expect", [
    ("speed", "unknown metric 'speed'"), ("effect:colour", "write effect:ELEMENT=LEVEL"),
    ("seat-spread,band=0", "band and weight must be above 0"),
    ("seat-spread,goal=x", "goal must be a number"), ("seat-spread,foo=1", "is not goal=G"),
])
def test_a_bad_target_is_refused(text, expect):
    with pytest.raises(PlaytestError, match=expect):
        parse_term(text)


def test_a_target_on_what_the_game_does_not_deal_is_refused(toy_results):
    df, decl = toy_results
    with pytest.raises(PlaytestError, match="no dealt element 'board'"):
        measure(parse_term("spread:board"), df, decl)
    with pytest.raises(PlaytestError, match="'purple' was not dealt"):
        measure(parse_term("effect:colour=purple"), df, decl)


# ------------------------------------------------------------------- the rules' search

def _toy_objective(values: dict) -> dict:
    """|x - 7| + |y - 0.3| with a little noise: the optimum is known."""
    rng = np.random.default_rng(int(values["x"] * 1000 + values["y"] * 1e6) % 2**32)
    return {"objective": abs(values["x"] - 7) + 10 * abs(values["y"] - 0.3)
            + 0.05 * rng.random()}


def test_the_search_finds_a_known_optimum_in_a_few_trials(tmp_path):
    space = [Vary("x", 0, 20, True), Vary("y", 0.0, 1.0, False)]
    table = search(space, _toy_objective, 25, 0, tmp_path / "s.db", progress=False)
    best = best_row(table)
    assert abs(best["x"] - 7) <= 1 and abs(best["y"] - 0.3) <= 0.1, table


def test_a_small_whole_number_space_is_played_whole_once(tmp_path):
    space = [Vary("x", 1, 4, True), Vary("y", 3, 5, True)]
    table = search(space, lambda v: {"objective": abs(v["x"] - 2) + abs(v["y"] - 4)}, 30, 0,
                   tmp_path / "g.db", progress=False)
    assert len(table) == 12 and not table[["x", "y"]].duplicated().any()
    assert best_row(table)[["x", "y"]].tolist() == [2, 4]
    # more combinations than trials: the sampler's choice, each trial one value
    assert len(search(space, _toy_objective_xy, 5, 0, tmp_path / "h.db", progress=False)) == 5


def _toy_objective_xy(values: dict) -> dict:
    return {"objective": abs(values["x"] - 2) + abs(values["y"] - 4)}


def test_a_resumed_search_asks_what_an_uninterrupted_one_would(tmp_path):
    space = [Vary("x", 0, 20, True), Vary("y", 0.0, 1.0, False)]
    whole = search(space, _toy_objective, 14, 3, tmp_path / "a.db", progress=False)
    search(space, _toy_objective, 9, 3, tmp_path / "b.db", progress=False)
    resumed = search(space, _toy_objective, 14, 3, tmp_path / "b.db", progress=False)
    pd.testing.assert_frame_equal(whole, resumed)


@pytest.mark.parametrize("text, expect", [
    ("mascot_price=3", "takes KEY=LO..HI"), ("mascot_price=9..3", "LO must be below HI"),
    ("mascot_price=a..b", "LO and HI must be numbers"),
])
def test_a_bad_range_is_refused(text, expect):
    with pytest.raises(PlaytestError, match=expect):
        parse_vary(text)
    assert parse_vary("x=0.5..2").integer is False and parse_vary("x=1..4").integer is True


def test_tune_rules_end_to_end_and_resumed(tmp_path, capsys):
    out = tmp_path / "tune"
    args = ["tune", "rules", "festival", "--vary", "start_objectives.red-A.value=5..9",
            "--target", "spread:board,band=50", "--target", "length,goal=60,band=10",
            "--trials", "3", "--games", "200", "--confirm-games", "200", "--out", str(out),
            "--quiet"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "target met" in text and "page:" in text
    trials = pd.read_csv(out / "trials.csv")
    assert len(trials) == 3 and {"spread:board", "length low", "objective"} <= set(trials)
    best = tomllib.loads((out / "best.toml").read_text())
    assert list(best) == ["start_objectives.red-A.value"] and 5 <= best[
        "start_objectives.red-A.value"] <= 9
    r = json.loads((out / "tune.json").read_text())
    assert r["confirmation"]["seed"] == 1 and r["verdict"] == "met"
    assert "Target <b>met</b>" in (out / "index.html").read_text()
    assert main(args) == 0  # the same command: nothing played again
    pd.testing.assert_frame_equal(trials, pd.read_csv(out / "trials.csv"))
    more = [a if a != "3" else "4" for a in args]  # more trials go on from those there
    assert main(more) == 0
    pd.testing.assert_frame_equal(trials, pd.read_csv(out / "trials.csv").head(3))
    assert json.loads((out / "tune.json").read_text())["trials"] == 4
    assert main([*args[:-3], "--games", "300", "--out", str(out), "--quiet"]) == 2
    one_line(capsys, "holds a different tune")


@pytest.mark.parametrize("args, expect", [
    (["--vary", "mascot_price=3..99", "--target", "seat-spread"], "mascot_price = 99 must be"),
    (["--vary", "administrators.recruiter.amount=1..3", "--target", "spread:admin_pair"],
     "a hand (admin_pair) has no spread"),
    (["--vary", "mascot_price=3..5", "--target", "effect:board=red"], "no dealt element 'board'"),
])
def test_tune_rules_refuses_inone_line(tmp_path, capsys, args, expect):
    assert main(["tune", "rules", "dice_theme_park", *args, "--trials", "1", "--games", "10",
                 "--confirm-games", "10", "--out", str(tmp_path / "t"), "--quiet"]) == 2
    one_line(capsys, expect)


def test_a_tune_refused_by_its_first_trial_leaves_the_folder_reusable(tmp_path, capsys):
    """A target level the games never deal is refused by the first trial: nothing was
    measured, so no record is left that would refuse the corrected command as another
    tune."""
    out = tmp_path / "t"
    base = ["tune", "rules", "dice_theme_park", "--vary", "mascot_price=3..5", "--trials",
            "1", "--games", "10", "--confirm-games", "10", "--players", "2", "--out",
            str(out), "--quiet"]
    assert main([*base, "--target", "effect:admin_pair=nobody"]) == 2
    one_line(capsys, "'nobody' was not dealt")
    assert not [p for p in out.iterdir() if not p.name.startswith(".")]
    assert main([*base, "--target", "effect:admin_pair=recruiter,band=100"]) == 0


# ------------------------------------------------------------------------- bot tuning

BAD = """
[clumsy]
selector = "greedy"
description = "a greedy bot with its signs wrong"
[clumsy.turn]
points = -1.0
progress = -0.8
take_objective = 0.6
"""


def test_tune_bot_improves_a_bad_bot_and_writes_a_bots_file(tmp_path, capsys):
    (tmp_path / "bad.toml").write_text(BAD)
    out = tmp_path / "better.toml"
    args = ["tune", "bot", "festival", "--from", "clumsy", "--bots-file",
            str(tmp_path / "bad.toml"), "--against", "random,random,random", "--name", "better",
            "--games", "300", "--generations", "4", "--popsize", "6", "--final-games", "600",
            "--out", str(out), "--quiet"]
    assert main(args) == 0
    history = pd.read_csv(tmp_path / "better.tuning" / "history.csv")
    start = history.loc[history["generation"] == 0, "win_share"].iloc[0]
    last = history.loc[history["generation"] == 4, "win_share"]
    assert last.mean() > start + 0.05, history  # the whole last generation, not one lucky
    tuned = tomllib.loads(out.read_text())
    assert set(tuned) == {"better"} and set(tuned["better"]["turn"]) == {
        "points", "progress", "take_objective"}
    s = json.loads((tmp_path / "better.tuning" / "tune.json").read_text())
    assert s["difference"]["low"] <= s["difference"]["pp"] <= s["difference"]["high"]
    assert "fresh seed 1" in out.read_text()
    capsys.readouterr()
    # the file plays as a bot of its own, and the same command does not tune again
    assert main(["simulate", "festival", "--games", "20", "--bots", "better,random",
                 "--players", "2", "--bots-file", str(out), "--out", str(tmp_path / "r"),
                 "--quiet"]) == 0
    before = history.copy()
    assert main(args) == 0
    pd.testing.assert_frame_equal(before, pd.read_csv(tmp_path / "better.tuning" /
                                                      "history.csv"))
    # stopped after 2 generations and taken on to 4: what 4 at once gave
    parts = [*args[:-3], "--out", str(tmp_path / "parts.toml"), "--quiet"]
    g = parts.index("--generations") + 1
    assert main([*parts[:g], "2", *parts[g + 1:]]) == 0
    assert main(parts) == 0
    pd.testing.assert_frame_equal(before, pd.read_csv(tmp_path / "parts.tuning" /
                                                      "history.csv"))


@pytest.mark.parametrize("args, expect", [
    (["--from", "random"], "--from random: not a bot of festival with weights to tune"),
    (["--name", "a,b"], "--name: 'a,b' cannot name a bot"),
    (["--name", "hunter"], "--name hunter is a bot of festival already"),
    (["--against", "nobody"], "unknown bot 'nobody'"),
    (["--sigma", "0"], "--sigma must be a number above 0"),
])
def test_tune_bot_refuses_in_one_line_before_any_game(tmp_path, capsys, args, expect):
    assert main(["tune", "bot", "festival", *args, "--out", str(tmp_path / "x.toml"),
                 "--quiet"]) == 2
    one_line(capsys, expect)
    assert not (tmp_path / "x.tuning").exists()
