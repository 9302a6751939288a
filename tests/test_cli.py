"""The command line: bad input, replay against simulate, report, resume."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import cli_process
import pytest

from reports.cli import main
from sim.core.run_folder import load_results


def test_malformed_component_csv_through_the_cli(tmp_path, fest):
    import shutil

    data = tmp_path / "festival"
    shutil.copytree(fest.folder, data)
    (data / "objectives.csv").write_text("card,kind,value,cells,source\ncol-1,shape\n")
    res = subprocess.run([sys.executable, "-m", "reports.cli", "simulate", "festival",
                          "--games", "5", "--data", str(data), "--out", str(tmp_path / "r")],
                         capture_output=True, text=True)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "objectives.csv, row 2" in res.stderr
    assert not (tmp_path / "r").exists()


def test_replay_prints_the_scores_simulate_recorded(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["simulate", "festival", "--games", "40", "--seed", "5", "--out", str(out),
                 "--quiet"]) == 0
    df = load_results(out)
    capsys.readouterr()
    for game in (0, 17, 39):
        assert main(["replay", "festival", "--seed", "5", "--game", str(game), "--players",
                     "4", "--bots", "greedy,hunter,builder,random"]) == 0
        text = capsys.readouterr().out
        rows = df[df.game_index == game]
        for seat, score in zip(rows["seat"], rows["score"]):
            assert f"\nseat {seat} (" in text
            line = [x for x in text.splitlines() if x.startswith(f"seat {seat} (") and "=" in x]
            assert line[-1].split("=")[1].split()[0] == str(score)
    assert main(["replay", "--run", str(out), "--game", "17"]) == 0
    assert "turn   1" in capsys.readouterr().out


def test_interruption_right_after_a_chunk_is_renamed_still_counts_it(tmp_path, monkeypatch):
    """The gap between a chunk file's rename and run.json's update: run.json must count
    the chunk files that are there (the race a real Ctrl-C can hit)."""
    import sim.core.runner as runner

    real = runner._write
    writes = 0

    def interrupted(out, info, quiet=False):
        nonlocal writes
        writes += 1
        if writes == 3:  # the start, chunk 0, then chunk 1's update is cut off
            raise KeyboardInterrupt
        real(out, info, quiet)

    monkeypatch.setattr(runner, "_write", interrupted)
    out = tmp_path / "run"
    args = ["simulate", "festival", "--games", "400", "--chunk-size", "100", "--seed", "5",
            "--out", str(out), "--quiet"]
    assert main(args) == 130
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "running"
    assert info["chunks_done"] == len(list((out / "data").glob("part-*.parquet"))) == 2
    monkeypatch.setattr(runner, "_write", real)
    assert main(args) == 0
    assert json.loads((out / "run.json").read_text())["chunks_done"] == 4


def test_report_has_every_section(tmp_path):
    out = tmp_path / "run"
    assert main(["simulate", "festival", "--games", "2000", "--out", str(out), "--quiet",
                 "--report"]) == 0
    page = (out / "report" / "index.html").read_text()
    for section in ("Summary", "What matters", "Seat advantage", "Bots", "Setup",
                    "Board (dealt)", "Starting objective side (kept)",
                    "Crowd-pleaser sides in play", "Crowd-pleasers claimed (outcome)",
                    "Objective cards completed (outcome)", "Scores", "Game length and end",
                    "Convergence", "Precision", "Holm", "objective hunter"):  # a bot's text
        assert section in page, section
    for csv in ("effects", "win_rate_by_seat", "board_dealt", "start_side_kept",
                "crowd_pleaser_sides_in_play", "crowd_pleasers_claimed",
                "objective_cards_completed", "end_trigger", "precision"):
        assert (out / "report" / f"{csv}.csv").exists()
    assert page.count("<img src='data:image/png;base64,") >= 10


def test_report_help_says_what_each_table_shows(capsys):
    from analysis.catalogue import TABLES

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = capsys.readouterr().out
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for name, claim, what in TABLES:
        line = next(x for x in text.splitlines() if x.strip().startswith(name))
        assert f"[{claim}]" in line
        assert f"| `{name}` | {claim} | {what} |" in readme, name  # the README says the same


def test_every_command_has_help_with_an_example_the_bots_and_the_players(capsys):
    from strategies.presets import load_presets

    bots = ", ".join(load_presets("festival"))
    for cmd in ([], ["simulate"], ["report"], ["replay"], ["bench"], ["data"]):
        with pytest.raises(SystemExit) as e:
            main(cmd + ["--help"])
        assert e.value.code == 0
        text = capsys.readouterr().out
        assert "example" in text
        assert f"festival: 2 to 4 players; bots {bots}" in text, cmd


@pytest.mark.slow
def test_sigterm_of_a_processes_run_says_what_was_kept_in_one_line(tmp_path):
    """SIGTERM (a scheduler's kill) stops a run on worker processes as Ctrl-C does: its
    finished chunks kept, one line that says so and how to resume (not the workers'
    resource-tracker warnings), exit code 143; the same command resuming is simulate's own
    test (test_ctrl_c_keeps_finished_chunks_and_the_same_command_resumes)."""
    out = tmp_path / "run"
    args = ["simulate", "festival", "--games", "2000000", "--chunk-size", "20000", "--bots",
            "greedy", "--backend", "processes", "--workers", "2", "--out", str(out),
            "--quiet"]  # about a minute of play: the signal comes long before the end
    proc = cli_process.start(args, stderr=subprocess.PIPE, text=True)
    cli_process.wait_for_chunk(proc, out)
    proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=600)[1]
    assert proc.returncode == 143, err
    assert err.count("\n") == 1 and err.startswith("playtest: terminated: finished chunks "
                                                   f"are kept in {out}"), err
    assert "resume" in err and "resource_tracker" not in err and "Traceback" not in err
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    kept = len(list((out / "data").glob("part-*.parquet")))
    assert 1 <= kept < 100


@pytest.mark.slow
def test_ctrl_c_keeps_finished_chunks_and_the_same_command_resumes(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "festival", "--games", "60000", "--chunk-size", "2000", "--bots",
            "greedy", "--seed", "4", "--out", str(out), "--quiet"]
    proc = cli_process.start(args, stderr=subprocess.PIPE, text=True)
    cli_process.wait_for_chunk(proc, out)
    err = cli_process.interrupt(proc)
    assert proc.returncode == 130 and "resume" in err and "Traceback" not in err
    info = json.loads((out / "run.json").read_text())
    kept = len(list((out / "data").glob("part-*.parquet")))
    assert info["status"] == "running" and 1 <= kept < 30
    assert info["chunks_done"] == kept
    # The same command finishes the run; its rows equal an uninterrupted run's.
    assert cli_process.run(args).returncode == 0
    assert json.loads((out / "run.json").read_text())["status"] == "complete"
    fresh = tmp_path / "fresh"
    assert main(["simulate", "festival", "--games", "60000", "--chunk-size", "30000", "--bots",
                 "greedy", "--seed", "4", "--out", str(fresh), "--quiet"]) == 0
    assert load_results(fresh).equals(load_results(out))


def test_replay_of_a_run_uses_its_data_and_refuses_changed_data(tmp_path, fest, capsys):
    import shutil

    data = tmp_path / "festival"
    shutil.copytree(fest.folder, data)
    # An edited card file: col-1 is worth 9 points here.
    text = (data / "objectives.csv").read_text().replace("col-1,shape,3", "col-1,shape,9")
    (data / "objectives.csv").write_text(text)
    out = tmp_path / "run"
    assert main(["simulate", "festival", "--games", "30", "--seed", "8", "--data", str(data),
                 "--out", str(out), "--quiet"]) == 0
    df = load_results(out)
    capsys.readouterr()
    assert main(["replay", "--run", str(out), "--game", "3"]) == 0
    text = capsys.readouterr().out
    for seat, score in zip(df[df.game_index == 3]["seat"], df[df.game_index == 3]["score"]):
        line = [x for x in text.splitlines() if x.startswith(f"seat {seat} (") and "=" in x]
        assert line[-1].split("=")[1].split()[0] == str(score)
    cards = (data / "objectives.csv").read_text()
    (data / "objectives.csv").write_text(cards.replace("col-1,shape,9", "col-1,shape,8"))
    assert main(["replay", "--run", str(out), "--game", "3"]) == 2
    assert "has changed" in capsys.readouterr().err


def test_python_api_takes_one_bot_for_every_seat():
    from sim import simulate

    one = simulate("festival", games=20, players=3, bots=["hunter"], seed=2)
    assert list(one["bot"].unique()) == ["hunter"] and len(one) == 60
    assert one.equals(simulate("festival", games=20, players=3, bots="hunter", seed=2))
    assert one.equals(simulate("festival", games=20, players=3, bots=["hunter"] * 3, seed=2))


def test_python_api_takes_the_mode_or_side_as_the_command_line_does():
    from sim import simulate
    from sim.core.errors import PlaytestError

    intro = simulate("dice_theme_park", games=6, players=2, bots="random", mode="intro")
    assert intro.equals(simulate("dice_theme_park", games=6, players=2, bots="random",
                                 sets={"mode": "intro"}))
    assert set(intro["mode"]) == {"intro"}
    side_b = simulate("magnificent", games=6, players=2, bots="random", side="B")
    assert side_b.attrs["playtest"]["request"]["sets"] == {"mode": "B"}
    for kwargs, expect in [({"mode": "full", "side": "B"}, "name the same thing"),
                           ({"mode": "long"}, "mode 'long' is not a mode of dice_theme_park"),
                           ({"side": "B"}, "side 'B' is not a mode of dice_theme_park "
                            r"\(its modes: intro, full, short\)")]:
        with pytest.raises(PlaytestError, match=expect):
            simulate("dice_theme_park", games=2, players=2, **kwargs)
    with pytest.raises(PlaytestError, match="festival has none"):
        simulate("festival", games=2, side="B")


def test_analyse_reads_the_game_from_a_simulated_table_or_says_what_it_needs(tmp_path):
    import pandas as pd

    from analysis.analyse import analyse
    from sim import load_results, simulate
    from sim.core.errors import PlaytestError

    df = simulate("festival", games=300, players=3, seed=1)
    a = analyse(df)
    assert a.decl.title == "Festival" and "board_dealt" in a.tables and a.findings
    run = simulate("festival", games=300, players=3, seed=1, out=str(tmp_path / "r"))
    assert analyse(load_results(tmp_path / "r")).tables["effects"].equals(
        a.tables["effects"]) and run.attrs["playtest"]["request"]["game"] == "festival"
    with pytest.raises(PlaytestError, match="analyse\\(\\) needs the game's declaration"):
        analyse(pd.DataFrame(df))  # a copy made without its attrs
    with pytest.raises(PlaytestError, match="needs the game's declaration"):
        analyse(df.to_dict())


def test_replay_defaults_the_seed_to_0_as_simulate_does(capsys):
    assert main(["replay", "festival", "--game", "3", "--players", "2"]) == 0
    default = capsys.readouterr().out
    assert main(["replay", "festival", "--game", "3", "--players", "2", "--seed", "0"]) == 0
    assert capsys.readouterr().out == default and "seed 0" in default


def test_data_keys_say_what_each_rule_does_and_what_it_can_be_set_to(capsys):
    assert main(["data", "festival", "--keys"]) == 0
    out = capsys.readouterr().out
    assert "  crowd_pleaser_tiles = 4: 0..4\n      crowd-pleaser tiles in play" in out
    assert "  board_rows = 3: only 3 (the rules fix it)\n" in out
    # why, by file name: the folder is on the first line only
    assert "  pile_size = 7: cannot change alone: objectives.csv: 28 cards" in out
    assert "rules.toml with" not in out and out.count("/seeds/festival") == 1
    # every key has its note (the card tables follow the rules)
    rules = out.split("\ntables (")[0].splitlines()
    keys = [line for line in rules if line.startswith("  ") and " = " in line]
    notes = [line for line in rules if line.startswith("      ")]
    assert len(keys) == len(notes) == 10


def test_a_rules_settable_range_is_found_at_its_bound():
    from sim.core.errors import PlaytestError
    from sim.core.rule_keys import settable

    calls = []

    def check(sets):  # a rule that refuses values above 37 and below 3
        calls.append(sets["k"])
        if not 3 <= sets["k"] <= 37:
            raise PlaytestError(f"k = {sets['k']} is out of bounds")

    assert settable(check, "k", 10, (0, 100)) == "3..37"
    assert len(calls) < 20  # bisection, not every value
    assert settable(check, "k", 10, (5, 20)) == "5..20"  # both ends accepted: two calls
    assert settable(lambda s: None, "flag", True, None) == "true or false"

    def fixed(sets):
        raise PlaytestError("the deck has 10 cards")

    assert settable(fixed, "k", 10, None) == "cannot change alone: the deck has 10 cards"


def test_a_ctrl_c_during_a_cli_test_stops_the_suite(tmp_path):
    """A test that runs the CLI in-process takes a SIGINT: the CLI returns 130, but the
    suite stops there (tests/interrupts.py), and the test after it never runs."""
    (tmp_path / "test_ctrl_c.py").write_text(
        "import os, signal, threading\n"
        "from reports.cli import main\n\n"
        "def test_a_long_run(tmp_path):\n"
        "    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
        "    assert main(['simulate', 'festival', '--games', '100000000', '--bots', 'random',"
        " '--out', str(tmp_path / 'r'), '--quiet']) == 0\n\n"
        "def test_after():\n"
        "    open(os.environ['AFTER'], 'w').close()\n")
    after = tmp_path / "after-ran"
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "interrupts",
                          "-p", "no:cacheprovider", str(tmp_path / "test_ctrl_c.py")],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "AFTER": str(after),
                              "PYTHONPATH": str(Path(__file__).parent)},
                         preexec_fn=cli_process._sigint_as_at_a_terminal)
    assert res.returncode == 2, res.stdout[-2000:]
    assert "KeyboardInterrupt" in res.stdout and "1 failed" not in res.stdout, res.stdout[-2000:]
    assert not after.exists()
