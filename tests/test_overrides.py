"""Rule overrides (--set KEY=VALUE): checked by the loader's own ranges, recorded in the run,
replayed as played."""

import json

import pytest

from reports.cli import main
from sim import PlaytestError, simulate
from sim.core.run_folder import load_results


@pytest.mark.parametrize("argv,expect", [
    (["simulate", "festival", "--games", "5", "--set", "pile_sise=5"], "unknown rule 'pile_sise'"),
    (["simulate", "festival", "--games", "5", "--set", "pile_size=99"],
     "pile_size = 99 must be a whole number 1..7"),
    (["simulate", "festival", "--games", "5", "--set", "max_uncompleted=many"],
     "max_uncompleted = 'many' must be a whole number 1..8"),
    (["simulate", "festival", "--games", "5", "--set", "pile_size"], "--set takes KEY=VALUE"),
    (["replay", "festival", "--seed", "1", "--set", "crowd_pleaser_tiles=9"],
     "crowd_pleaser_tiles = 9 must be a whole number 0..4"),
    (["data", "festival", "--set", "nothing.here=1"], "unknown rule 'nothing.here'"),
    (["data", "dice_theme_park", "--set", "rounds.full=99"], "rounds"),
])
def test_a_bad_override_is_one_line_naming_the_rule(tmp_path, capsys, argv, expect):
    out = tmp_path / "run"
    if argv[0] == "simulate":
        argv = argv + ["--out", str(out), "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()


def test_data_keys_lists_every_rule_with_its_value_and_range(capsys):
    assert main(["data", "festival", "--keys"]) == 0
    out = capsys.readouterr().out
    assert "  max_uncompleted = 6: 1..8" in out and "  end_completed_objectives = 6: 1..64" in out
    assert main(["data", "dice_theme_park", "--keys"]) == 0
    out = capsys.readouterr().out
    assert "  mascot_price = 5: 0..50\n      " in out and "  rounds.full = 5: " in out
    # a count its card table must agree with cannot change alone, and says why
    assert "  components.skills = 30: cannot change alone: " in out and "skills.csv" in out


def test_an_override_changes_the_game_is_recorded_and_replays(tmp_path, capsys):
    plain = simulate("festival", games=300, players=3, bots="greedy", seed=4)
    short = simulate("festival", games=300, players=3, bots="greedy", seed=4,
                     sets={"end_completed_objectives": 3})
    assert short["turns"].mean() < plain["turns"].mean() - 5
    assert short["board"].equals(plain["board"])  # the deal is the same: common random numbers
    out = tmp_path / "run"
    assert main(["simulate", "festival", "--games", "30", "--players", "3", "--bots", "greedy",
                 "--seed", "4", "--set", "end_completed_objectives=3", "--out", str(out),
                 "--quiet"]) == 0
    info = json.loads((out / "run.json").read_text())
    assert info["request"]["sets"] == {"end_completed_objectives": 3}
    df = load_results(out)
    assert df.equals(short[short["game_index"] < 30].reset_index(drop=True))
    capsys.readouterr()
    assert main(["replay", "--run", str(out), "--game", "7"]) == 0
    text = capsys.readouterr().out
    for r in df[df["game_index"] == 7].itertuples():
        line = [x for x in text.splitlines() if x.startswith(f"seat {r.seat} (") and "=" in x]
        assert line[-1].split("=")[1].split()[0] == str(r.score)
    # the same folder with another override is another run
    assert main(["simulate", "festival", "--games", "30", "--players", "3", "--bots", "greedy",
                 "--seed", "4", "--set", "end_completed_objectives=4", "--out", str(out),
                 "--quiet"]) == 2
    assert "sets {'end_completed_objectives': 3} there" in capsys.readouterr().err
    assert main(["replay", "--run", str(out), "--game", "7", "--set",
                 "end_completed_objectives=5"]) == 2
    assert "--set contradicts the run" in capsys.readouterr().err


def test_the_api_takes_overrides_as_a_dict():
    with pytest.raises(PlaytestError, match="sets must be a dict"):
        simulate("festival", games=5, sets=["pile_size=6"])
    with pytest.raises(PlaytestError, match="unknown rule 'nope'"):
        simulate("festival", games=5, sets={"nope": 1})
