"""Every bad input gets one clear line and exit 2 (a PlaytestError from the API), and no
run folder is left looking complete."""

import json
import os
import subprocess
import time

import cli_process
import pytest
from conftest import edited_copy, one_line

from reports.cli import main
from sim import PlaytestError, simulate

SIM = ["simulate", "festival", "--games", "5", "--quiet"]


def _looks_complete(out) -> bool:
    try:
        return json.loads((out / "run.json").read_text()).get("status") == "complete"
    except (OSError, ValueError):
        return False


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A complete 3-chunk run to damage, copied per test."""
    out = tmp_path_factory.mktemp("base") / "run"
    assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100", "--seed", "2",
                 "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture
def run_copy(small_run, tmp_path):
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(small_run, out)
    return out


SIMULATE_CASES = [
    (["--players", "4", "--bots", "greedy,nobody,random,random"], "unknown bot 'nobody'"),
    (["--bots", "greedy,random"], "4 players need 4 bots"),
    (["--players", "1"], "2 to 4 players, not 1"),
    (["--players", "5"], "2 to 4 players, not 5"),
    (["--games", "-3"], "--games must be from 1"),
    (["--games", "0"], "--games must be from 1"),
    (["--games", "ten"], "invalid int value"),
    (["--backend", "gpu"], "--backend 'gpu' is unknown"),
    (["--data", "/nonexistent"], "no such data folder"),
    (["--seed", "-1"], "--seed must be from 0"),
    (["--seed", str(2**63)], "--seed must be from 0 to 9,223,372,036,854,775,807"),
    (["--chunk-size", "0"], "--chunk-size must be 1 or more, got 0"),
    (["--chunk-size", "-5"], "--chunk-size must be 1 or more"),
    (["--chunk-size", "5e7"], "invalid int value"),
    (["--games", "60000000", "--chunk-size", "50000000"], "at most"),
    (["--threads", "0"], "--threads must be from 1"),
    (["--threads", "-1"], "--threads must be from 1"),
    (["--threads", "100"], "--threads must be from 1 to"),
    (["--workers", "0", "--backend", "processes"], "--workers must be from 1"),
    (["--workers", "-2", "--backend", "processes"], "--workers must be from 1"),
    (["--backend", "dask", "--address", "no address at all"], "cannot reach a dask scheduler"),
    # an option of another backend, or an empty --out, is refused rather than ignored
    (["--address", "tcp://127.0.0.1:8786"], "--address is a dask scheduler's: for the dask"),
    (["--backend", "processes", "--address", "tcp://h:1"], "--address is a dask scheduler's"),
    (["--workers", "2"], "--workers are worker processes"),
    (["--backend", "processes", "--threads", "1"], "--threads are the threads backend's"),
    (["--out", ""], "--out must name a folder, got ''"),
]


@pytest.mark.parametrize("extra,expect", SIMULATE_CASES)
def test_simulate_refuses(tmp_path, capsys, extra, expect):
    out = tmp_path / "run"
    argv = ["simulate", "festival", "--games", "5", "--quiet", "--out", str(out)]
    with pytest.raises(SystemExit) if expect == "invalid int value" else _nothing():
        assert main(argv + extra) == 2
    one_line(capsys, expect)
    assert not (out / "run.json").exists()  # refused before anything was written


def test_an_unreachable_dask_scheduler_is_refused_inone_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(SIM + ["--out", str(out), "--backend", "dask",
                       "--address", "tcp://127.0.0.1:9"]) == 2
    one_line(capsys, "cannot reach a dask scheduler")
    assert not _looks_complete(out)


def test_the_scheduler_is_given_less_than_10_s(monkeypatch, tmp_path, capsys):
    """Not a timed test: the client is asked to give up after DASK_TIMEOUT, under 10 s (the
    default would wait 30 s)."""
    import dask.distributed

    import sim.core.runner as runner

    seen = {}

    def client(address, timeout):
        seen["timeout"] = timeout
        raise OSError("no scheduler here")

    monkeypatch.setattr(dask.distributed, "Client", client)
    assert main(SIM + ["--out", str(tmp_path / "run"), "--backend", "dask",
                       "--address", "tcp://127.0.0.1:9"]) == 2
    assert seen["timeout"] == runner.DASK_TIMEOUT < 10
    one_line(capsys, "cannot reach a dask scheduler (no scheduler here)")


@pytest.mark.parametrize("where", ["file", "parent file", "unwritable"])
def test_simulate_refuses_an_out_it_cannot_write(tmp_path, capsys, where):
    f = tmp_path / "f"
    f.write_text("x")
    out = {"file": f, "parent file": f / "run", "unwritable": "/proc/playtest-run"}[where]
    assert main(SIM + ["--out", str(out)]) == 2
    one_line(capsys, {"file": "is a file", "parent file": "is a file",
                       "unwritable": "cannot write to"}[where])


def test_a_different_request_names_the_field_that_differs(run_copy, capsys):
    assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100", "--seed", "3",
                 "--out", str(run_copy), "--quiet"]) == 2
    one_line(capsys, "seed 2 there, 3 now")
    assert _looks_complete(run_copy)  # the run that was there is untouched


def test_a_folder_that_is_not_a_run_is_refused(tmp_path, capsys):
    (tmp_path / "x.txt").write_text("mine")
    assert main(SIM + ["--out", str(tmp_path)]) == 2
    one_line(capsys, "is not a run folder")


@pytest.fixture(scope="module")
def other_run(tmp_path_factory):
    """A complete run of another seed, chunked as small_run: chunk files to mix in."""
    out = tmp_path_factory.mktemp("other") / "run"
    assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100", "--seed", "6",
                 "--out", str(out), "--quiet"]) == 0
    return out


def _damage(run_copy, other_run, damage):
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    part = run_copy / "data" / "part-00001.parquet"
    if damage == "delete":
        part.unlink()
    elif damage == "truncate":
        part.write_bytes(part.read_bytes()[:500])
    elif damage == "short":  # readable, but not the chunk's games
        pq.write_table(pq.read_table(part).slice(0, 40), part)
    elif damage == "duplicate":  # another chunk of the run copied over it
        shutil.copyfile(run_copy / "data" / "part-00002.parquet", part)
    elif damage == "foreign":  # the same chunk of a run of another seed
        shutil.copyfile(other_run / "data" / "part-00001.parquet", part)
    elif damage == "column dropped":  # as another version might write it
        pq.write_table(pq.read_table(part).drop_columns(["crowd_n"]), part)
    elif damage == "dtype changed":
        t = pq.read_table(part)
        pq.write_table(t.set_column(t.schema.get_field_index("score"), "score",
                                    t["score"].cast(pa.int64())), part)
    elif damage == "no record":  # written by a version that did not tie chunks to runs
        t = pq.read_table(part)
        pq.write_table(t.replace_schema_metadata({}), part)
    elif damage == "a folder":
        part.unlink()
        part.mkdir()
        (part / "x").write_text("mine")
    elif damage == "a link":
        part.unlink()
        part.symlink_to(run_copy / "data" / "part-00000.parquet")
    elif damage == "data a file":
        shutil.rmtree(run_copy / "data")
        (run_copy / "data").write_text("not a folder")
    elif damage == "incomplete":
        info = json.loads((run_copy / "run.json").read_text())
        info["status"] = "running"
        (run_copy / "run.json").write_text(json.dumps(info))
    else:
        (run_copy / "run.json").write_bytes(b"\xff\xfe not json")


@pytest.mark.parametrize("damage,expect", [
    ("delete", "part-00001.parquet (missing)"),
    ("truncate", "part-00001.parquet (unreadable"),
    ("short", "part-00001.parquet (40 rows, 400 expected)"),
    ("duplicate", "part-00001.parquet (holds the games of chunk 2, not games 100 to 199)"),
    ("foreign", "part-00001.parquet (from another run)"),
    ("column dropped", "part-00001.parquet (its columns differ from the run's)"),
    ("dtype changed", "part-00001.parquet (its columns differ from the run's)"),
    ("no record", "part-00001.parquet (from another run)"),
    ("a folder", "part-00001.parquet (not a chunk file)"),
    ("a link", "part-00001.parquet (not a chunk file)"),
    ("data a file", "data is not a folder"),
    ("incomplete", "is incomplete"),
    ("garbage run.json", "cannot read"),
])
def test_report_refuses_a_damaged_run_and_the_rerun_repairs_it(run_copy, small_run, other_run,
                                                                capsys, damage, expect):
    """What report names, the rerun of the same simulate command replays: exactly the chunks
    that are not sound, with the run's own games."""
    import sim.core.runner as runner
    from sim.core.run_folder import load_results

    _damage(run_copy, other_run, damage)
    assert main(["report", str(run_copy)]) == 2
    one_line(capsys, expect)
    assert not (run_copy / "report" / "index.html").exists()
    if damage in ("incomplete", "garbage run.json"):
        return
    played = []
    real = runner._play

    def play(module, prepared, seed, start, n, threads):
        played.append(start)
        return real(module, prepared, seed, start, n, threads)

    runner._play, saved = play, runner._play
    try:
        assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100",
                     "--seed", "2", "--out", str(run_copy), "--quiet"]) == 0
    finally:
        runner._play = saved
    assert played == ([0, 100, 200] if damage == "data a file" else [100])
    capsys.readouterr()
    assert main(["report", str(run_copy)]) == 0
    assert load_results(run_copy).equals(load_results(small_run))


@pytest.mark.parametrize("content", ["[]", "null", '{"status": "complete"}', '"run"',
                                     '{"request": {"game": "festival"}, "status": "complete"}'])
def test_a_run_json_that_describes_no_run_is_one_line_everywhere(run_copy, capsys, content):
    (run_copy / "run.json").write_text(content)
    for argv in (["report", str(run_copy)], ["replay", "--run", str(run_copy), "--game", "1"],
                 ["simulate", "festival", "--games", "300", "--chunk-size", "100", "--seed",
                  "2", "--out", str(run_copy), "--quiet"]):
        assert main(argv) == 2
        one_line(capsys, "does not describe a run")
    assert (run_copy / "run.json").read_text() == content  # left as it was


def test_a_short_last_chunk_counts_its_own_games_when_replayed(tmp_path, capsys):
    """games_now is the games played now: a replayed short last chunk counts 50, not 100."""
    from sim.core.runner import run

    out = tmp_path / "run"
    args = ("festival", 250, 4, ["random"] * 4, 1, out)
    assert run(*args, chunk_size=100, progress=False)["games_now"] == 250
    for i in (1, 2):
        (out / "data" / f"part-0000{i}.parquet").unlink()
    info = run(*args, chunk_size=100, progress=False)
    assert info["games_now"] == 150 and info["games_done"] == 250
    (out / "data" / "part-00002.parquet").unlink()
    assert run(*args, chunk_size=100, progress=False)["games_now"] == 50
    (out / "data" / "part-00000.parquet").unlink()  # the short chunk is among the kept
    info = run(*args, chunk_size=100, progress=False)
    assert info["games_now"] == 100 and info["games_done"] == 250


def test_a_relative_data_folder_replays_from_anywhere(tmp_path, monkeypatch, capsys):
    """The run records its data folder absolute: replay --run works from another directory."""
    import shutil

    from sim.core.data import seeds_dir

    shutil.copytree(seeds_dir("festival"), tmp_path / "cards")
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "festival", "--games", "20", "--data", "cards", "--out", "run",
                 "--quiet"]) == 0
    assert json.loads((tmp_path / "run" / "run.json").read_text())["data_dir"] == str(
        tmp_path / "cards")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["replay", "--run", str(tmp_path / "run"), "--game", "3"]) == 0
    assert "game 3" in capsys.readouterr().out


@pytest.mark.parametrize("argv,expect", [
    (["report", "/nonexistent/run"], "not a run folder"),
    (["report", "RUN", "--model-games", "-1"], "--model-games must be zero"),
    (["report", "RUN", "--out", "FILE"], "is a file"),
    (["replay", "festival", "--seed", str(2**64)], "--seed must be from 0"),
    (["replay", "festival", "--seed", "-1"], "--seed must be from 0"),
    (["replay", "festival", "--seed", "1", "--players", "9"], "2 to 4 players"),
    (["replay", "festival", "--seed", "1", "--game", "-1"], "--game must be from 0"),
    (["replay", "--game", "3"], "replay needs GAME (or --run DIR)"),
    (["replay", "--run", "RUN", "--game", "300"], "--game must be from 0 to 299, got 300"),
    (["replay", "--run", "RUN", "--seed", "9"], "--seed 9 contradicts the run"),
    (["replay", "--run", "RUN", "--players", "3"], "--players 3 contradicts the run"),
    (["replay", "--run", "RUN", "--bots", "random"], "--bots"),
    (["bench", "magnificent", "--side", "C"], "--side 'C' is not a mode of magnificent"),
    (["bench", "chess"], "unknown game 'chess'"),
    (["bench", "festival", "--games", "0"], "--games must be 1 or more, got 0"),
    (["bench", "festival", "--interpreted-games", "-1"], "--interpreted-games must be 0 or more"),
    # refused before anything compiles; 0 is never "all"
    (["bench", "festival", "--threads", "-1"], "--threads must be from 1"),
    (["bench", "festival", "--threads", "0"], "--threads must be from 1"),
    (["report", "RUN", "--out", ""], "--out must name a folder, got ''"),
    (["replay", "--run", "RUN", "--mode", "short"], "festival has none"),
    (["data", "dice_theme_park", "--set", "dice={2=[1]}"], "'dice' is a table of rules"),
    (["data", "magnificent", "--set", "rounds=4"], "rounds = 4 must be a whole number 1..3"),
    (["data", "magnificent", "--set", "turns_per_round=5"], "turns_per_round = 5"),
    (["bench", "festival", "--mode", "short"], "festival has none"),
    (["bench", "festival", "--bots", "search:0,greedy"], "search:0"),
    (["bench", "festival", "--bots", "search,nobody"], "unknown bot 'nobody'"),
    (["bench", "festival", "--bots", "search", "--players", "5"], "4 players"),
    (["bench", "festival", "--players", "3"], "--players goes with --bots"),
    (["bench", "dice_theme_park", "--mode", "long"], "--mode 'long' is not a mode"),
    (["bench", "dice_theme_park", "--set", "rounds.full=0"], "rounds"),
    (["data", "chess"], "unknown game 'chess'"),
    # every number of a table, list-valued cells too, through one checked parser with its cap
    *[(["data", "dice_theme_park", "--set", f"administrators.variety.{field}={value}"], expect)
      for field in ("stars", "thresholds") for value, expect in [
          ("3689348814741910324;3689348814741910325;3689348814741910326",
           "3689348814741910324 is above 100000"),
          ("1;2;999999999999", "999999999999 is above 100000"),
          ("1;2;\u00b3", "'\u00b3' is not a whole number"),
          ("1e20", "'1e+20' is not a whole number"),
          ("1;2;" + "9" * 5000, "(5000 characters) is above 100000"),
          ("1;2;\uff13", "is not a whole number")]],
    (["data", "dice_theme_park", "--set", "attractions.Ferris Wheel.upgrade_costs=4;1e3"],
     "'1e3' is not a whole number"),
    (["data", "dice_theme_park", "--set", "attractions.Ferris Wheel.upgrade_costs=4;\u00b2"],
     "is not a whole number"),
    (["data", "magnificent", "--set", "camp_tiles.orange-small.cells=0,0;0,\u00b9"],
     "'\u00b9' is not a whole number"),
    (["data", "magnificent", "--set", "camp_tiles.orange-small.cells=0,0;0,99999999999"],
     "99999999999 is above 100000"),
    (["data", "festival", "--set", "objectives.col-1.cells=0,0,red,any;0,\u00b9,red,any"],
     "is not a whole number"),
    # one key, two values: refused, not the last silently kept
    (["data", "festival", "--set", "max_uncompleted=3", "--set", "max_uncompleted=4"],
     "--set max_uncompleted is given twice, as 3 and 4"),
])
def test_report_replay_bench_and_data_refuse(run_copy, tmp_path, capsys, argv, expect):
    f = tmp_path / "file"
    f.write_text("x")
    argv = [str(run_copy) if a == "RUN" else str(f) if a == "FILE" else a for a in argv]
    assert main(argv) == 2
    one_line(capsys, expect)


@pytest.mark.parametrize("file,old,new,expect", [
    ("rules.toml", "min_players", "min_pl\xe4yers", "not UTF-8"),
    ("objectives.csv", "col-1,shape,3", "col-1,shape,99999999999999999999", "is above"),
    ("tiles.csv", "red-D2,", "red-D1,", "'red-D1' appears twice"),
])
def test_a_broken_data_folder_is_refused(fest, tmp_path, capsys, file, old, new, expect):
    data = edited_copy(fest.folder, tmp_path / "festival", file, old, new)
    if file == "rules.toml":  # Latin-1, not UTF-8
        path = data / file
        path.write_bytes(path.read_text().encode("latin-1"))
    out = tmp_path / "run"
    assert main(SIM + ["--data", str(data), "--out", str(out)]) == 2
    one_line(capsys, expect)
    assert not out.exists()


@pytest.mark.parametrize("game,file,old,new", [
    ("festival", "crowd_pleasers.csv", "1,A,same_colour_visible,4,0,2,",
     "1,A,same_colour_visible,4,0,{},"),
    ("dice_theme_park", "attractions.csv", "Carousel,basic,0,0,single,any,1,",
     "Carousel,basic,0,0,single,any,{},"),
])
def test_a_value_at_the_bound_scores_right_and_one_above_is_refused(tmp_path, capsys, game,
                                                                    file, old, new):
    """The loaders take whole numbers up to MAX_VALUE (100,000): a crowd-pleaser or a
    Carousel operation worth that much gives scores that add up, are never negative (the
    results' score columns are int32), and compare on; one more is refused in one line
    naming the file, row and field."""
    import pandas as pd

    from sim.core.data import MAX_VALUE, seeds_dir
    from sim.core.run_folder import load_results
    from tests.conftest import edited_copy

    data = edited_copy(seeds_dir(game), tmp_path / "at", file, old, new.format(MAX_VALUE))
    out = tmp_path / "run"
    assert main(["simulate", game, "--games", "40", "--data", str(data), "--out", str(out),
                 "--quiet"]) == 0
    df = load_results(out)
    parts = df[[c for c in df.columns if c.startswith("score_")]].sum(axis=1)
    assert (parts == df["score"]).all() and (df["score"] >= 0).all()
    assert df["score"].max() >= MAX_VALUE  # someone scored it, and it was kept whole
    assert pd.api.types.is_integer_dtype(df["score"]) and df["score"].dtype.itemsize >= 4
    capsys.readouterr()
    above = edited_copy(seeds_dir(game), tmp_path / "above", file, old, new.format(MAX_VALUE + 1))
    assert main(["simulate", game, "--games", "5", "--data", str(above), "--out",
                 str(tmp_path / "r2"), "--quiet"]) == 2
    one_line(capsys, f"is above {MAX_VALUE:,}".replace(",", ""))
    assert not (tmp_path / "r2").exists()


def test_a_value_a_results_column_cannot_hold_is_refused_naming_it():
    """What writes the results never wraps a number round: one line names the column."""
    import numpy as np

    from sim.core.results import int_column

    assert int_column(np.array([-128, 127]), np.int8, "rank").to_pylist() == [-128, 127]
    for bad in (128, -129, 2**40):
        with pytest.raises(PlaytestError, match="column 'rank', which holds -128 to 127"):
            int_column(np.array([1, bad]), np.int8, "rank")


def test_a_csv_saved_with_a_byte_order_mark_is_read(fest, tmp_path, capsys):
    import shutil

    data = tmp_path / "festival"
    shutil.copytree(fest.folder, data)
    path = data / "tiles.csv"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert main(["data", "festival", "--data", str(data)]) == 0


@pytest.mark.parametrize("kwargs,expect", [
    ({"games": "10"}, "games must be a whole number, got '10'"),
    ({"seed": 1.5}, "seed must be a whole number, got 1.5"),
    ({"bots": 5}, "bots must be a bot name or a list of names"),
    ({"bots": ["greedy", None, "random", "random"]}, "bots must be a bot name"),
    ({"players": "4"}, "players must be a whole number"),
    ({"gmaes": 10}, "simulate() has no parameter 'gmaes'"),
    ({"backend": "processes"}, "backend plays into a run folder: give out= as well"),
    ({"chunk_size": 0}, "chunk_size must be 1 or more, got 0"),
    ({"threads": 0}, "threads must be from 1"),
    ({"rotate": "no"}, "rotate must be True or False"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"games": 10**15}, "do not fit in memory; give out="),
    # a parameter of the wrong type is one line naming it, never a raw TypeError
    ({"data": 123}, "data must name a folder, got 123"),
    ({"out": 123}, "out must name a folder, got 123"),
    ({"out": ""}, "out must name a folder, got ''"),
    ({"sets": {1: 2}}, "sets names each rule with a string, got 1"),
    ({"sets": [("rounds", 3)]}, "sets must be a dict of rule: value"),
    ({"game": ["festival"]}, "game must be a game's name"),
    ({"out": "RUN", "address": 5}, "address is a dask scheduler's"),
    ({"out": "RUN", "backend": "dask", "address": 5}, "address must be a non-empty string"),
    ({"out": "RUN", "backend": ["threads"]}, "backend ['threads'] is unknown"),
])
def test_the_api_refuses_with_the_apis_own_names(tmp_path, kwargs, expect):
    kwargs = {k: str(tmp_path / "run") if v == "RUN" else v for k, v in kwargs.items()}
    with pytest.raises(PlaytestError) as e:
        simulate(**{"games": 5, **kwargs})
    assert expect in str(e.value) and "--" not in str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("call,expect", [
    (lambda: __import__("analysis").compare("festival", 4, "greedy", a_data=123,
                                            b_seed=1), "a_data must name a folder"),
    (lambda: __import__("analysis").compare("festival", 4, "greedy", target=0, b_seed=1),
     "target must be a non-empty string, got 0"),
    (lambda: __import__("analysis").compare("festival", 4, "greedy", metric=["win"],
                                            b_seed=1), "metric ['win'] is unknown"),
    (lambda: __import__("analysis").compare("festival", 4, "greedy", b_sets={1: 2}),
     "b_sets names each rule with a string"),
    (lambda: __import__("analysis").compare("festival", 4, "greedy", b_seed=1, delta=5),
     "delta of 5 is beyond a win rate's range"),
    (lambda: __import__("analysis").compare("festival", 4, "greedy", b_seed=1, out=7),
     "out must name a folder"),
    (lambda: __import__("analysis").tournament("festival", 2, "greedy,random", data=5),
     "data must name a folder, got 5"),
    (lambda: __import__("analysis").tournament("festival", 2, 5), "bots must be names"),
    (lambda: __import__("analysis").tournament("festival", 2, "greedy,random", sets=[1]),
     "sets must be a dict"),
    (lambda: __import__("reports.bench").bench.bench("festival", threads=-1),
     "threads must be from 1"),
    (lambda: __import__("reports.html").html.write_report(None), "run must name a folder"),
])
def test_every_public_function_refuses_inone_line(call, expect):
    with pytest.raises(PlaytestError) as e:
        call()
    assert expect in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_the_api_default_bots_are_the_command_lines(tmp_path):
    df = simulate("festival", games=8, players=3, seed=1)
    assert main(["simulate", "festival", "--games", "8", "--players", "3", "--seed", "1",
                 "--out", str(tmp_path / "r"), "--quiet"]) == 0
    from sim.core.run_folder import load_results

    assert df.equals(load_results(tmp_path / "r"))
    assert sorted(df["bot"].unique()) == ["builder", "greedy", "hunter"]


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.slow
def test_a_huge_request_streams_and_stops_cleanly_on_ctrl_c(tmp_path):
    out = tmp_path / "run"
    proc = cli_process.start(["simulate", "festival", "--games", str(10**18), "--chunk-size",
                              "2000", "--bots", "random", "--out", str(out)],
                             stderr=subprocess.PIPE, text=True)
    cli_process.wait_for_chunk(proc, out)
    err = cli_process.interrupt(proc)
    assert proc.returncode == 130 and "Traceback" not in err
    assert "resume" in err.splitlines()[-1]
    assert not _looks_complete(out)


@pytest.mark.slow
def test_ctrl_c_on_a_local_dask_cluster_isone_line(tmp_path):
    out = tmp_path / "run"
    proc = cli_process.start(["simulate", "festival", "--games", "200000", "--chunk-size",
                              "5000", "--bots", "random", "--backend", "dask", "--workers", "2",
                              "--out", str(out), "--quiet"], stderr=subprocess.PIPE, text=True)
    cli_process.wait_until(proc, (out / "run.json").exists, "the cluster up, the run started")
    time.sleep(1)
    err = cli_process.interrupt(proc)
    assert proc.returncode == 130
    assert err.count("\n") == 1 and "resume" in err, err
    assert not _looks_complete(out)


def _with_file_size_limit(limit: int):
    """preexec_fn for a child whose files cannot grow beyond ``limit`` bytes: a write past it
    fails as on a full disk (EFBIG), the signal that would kill the child ignored."""
    import resource
    import signal

    def limited():
        cli_process._sigint_as_at_a_terminal()
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return limited


def test_a_full_disk_during_report_leaves_no_page_and_saysone_line(run_copy):
    before = set(run_copy.rglob("*"))
    # --quiet: on a loaded machine the report's step line shows after 3 s; at a terminal it
    # is erased before the error, but captured text turns its carriage returns into lines
    res = subprocess.run([*cli_process.PLAYTEST, "report", str(run_copy), "--quiet"],
                         capture_output=True, text=True,
                         preexec_fn=_with_file_size_limit(60_000))
    assert res.returncode == 2, res.stderr
    assert res.stderr.count("\n") == 1 and "cannot write" in res.stderr, res.stderr
    assert "Traceback" not in res.stderr
    assert not (run_copy / "report" / "index.html").exists()
    assert not [p for p in set(run_copy.rglob("*")) - before if p.name.startswith(".")]


def test_a_full_disk_during_simulate_keeps_the_run_partial_inone_line(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "festival", "--games", "6000", "--chunk-size", "2000", "--bots",
            "random", "--out", str(out), "--quiet"]
    assert main(["simulate", "festival", "--games", "5", "--bots", "random", "--quiet",
                 "--out", str(tmp_path / "warm")]) == 0  # the kernels cached, not written now
    res = subprocess.run([*cli_process.PLAYTEST, *args], capture_output=True, text=True,
                         preexec_fn=_with_file_size_limit(40_000))
    assert res.returncode == 2, res.stderr
    assert res.stderr.count("\n") == 1 and "finished chunks are kept" in res.stderr, res.stderr
    assert not _looks_complete(out)
    assert not list((out / "data").glob(".*"))  # no temporary file left
    assert cli_process.run(args).returncode == 0  # room again: the same command finishes
    assert _looks_complete(out)


@pytest.mark.parametrize("where", ["a file", "unwritable"])
def test_report_refuses_an_out_it_cannot_write_before_analysing(run_copy, tmp_path, capsys,
                                                                monkeypatch, where):
    import reports.html

    def never(*_):
        raise AssertionError("analysed before the destination was checked")

    monkeypatch.setattr(reports.html, "analyse", never)
    f = tmp_path / "f"
    f.write_text("x")
    out = {"a file": f, "unwritable": "/proc/playtest-report"}[where]
    assert main(["report", str(run_copy), "--out", str(out)]) == 2
    one_line(capsys, {"a file": "is a file", "unwritable": "cannot write to"}[where])


def test_ctrl_c_during_report_is_one_line_and_leaves_no_page(run_copy, capsys, monkeypatch):
    """Ctrl-C as the page is being renamed into place: no page, no temporary file."""
    import analysis.folders

    real = analysis.folders.os.replace

    def interrupted(src, dst):
        if str(dst).endswith("index.html"):
            raise KeyboardInterrupt
        return real(src, dst)

    monkeypatch.setattr(analysis.folders.os, "replace", interrupted)
    assert main(["report", str(run_copy), "--quiet"]) == 130
    one_line(capsys, "interrupted: the report was not written")
    assert not (run_copy / "report" / "index.html").exists()
    assert not list((run_copy / "report").glob(".*.tmp"))
    monkeypatch.setattr(analysis.folders.os, "replace", real)
    assert main(["report", str(run_copy), "--quiet"]) == 0


def test_a_run_of_another_engine_version_is_not_resumed(run_copy, capsys):
    """Rows of two engines never mix in one run: a rerun into a folder another version
    played is refused (its report still reads, as that version's games)."""
    info = json.loads((run_copy / "run.json").read_text())
    info["engine"] = "0123456789ab"
    info["status"] = "partial"
    (run_copy / "run.json").write_text(json.dumps(info))
    assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100", "--seed", "2",
                 "--out", str(run_copy), "--quiet"]) == 2
    one_line(capsys, "was played by another version of the engines (0123456789ab there")


@pytest.mark.parametrize("where", ["run.json", ".lock", "compare.json"])
def test_a_folder_where_a_record_file_should_be_isone_line(tmp_path, run_copy, capsys, where):
    """A folder (or a pipe, which would never end a read) where playtest keeps a file."""
    if where == "compare.json":
        out = tmp_path / "cmp"
        (out / "compare.json").mkdir(parents=True)
        assert main(["compare", "festival", "--bots", "greedy", "--b-seed", "1", "--out",
                     str(out), "--quiet"]) == 2
        one_line(capsys, "is not a compare record")
        return
    path = run_copy / where
    if path.exists():
        path.unlink()
    os.mkfifo(path) if where == "run.json" else path.mkdir()
    assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100", "--seed", "2",
                 "--out", str(run_copy), "--quiet"]) == 2
    one_line(capsys, "does not describe a run" if where == "run.json" else "cannot lock")


def test_data_files_that_are_not_files_are_refused_and_stray_ones_ignored(fest, tmp_path,
                                                                          capsys):
    """A folder or a dangling link in a data file's place is one line; anything else in the
    folder (notes, a stray link) is not part of the game: the data hash stays the same."""
    import shutil

    data = tmp_path / "festival"
    shutil.copytree(fest.folder, data)
    (data / "notes.csv").symlink_to(tmp_path / "nowhere")
    (data / "old").mkdir()
    assert main(["data", "festival", "--data", str(data)]) == 0
    assert f"(hash {fest.hash})" in capsys.readouterr().out
    (data / "tiles.csv").unlink()
    (data / "tiles.csv").mkdir()
    assert main(["data", "festival", "--data", str(data)]) == 2
    one_line(capsys, "tiles.csv: not a regular file")
    (data / "tiles.csv").rmdir()
    (data / "tiles.csv").symlink_to(tmp_path / "nowhere")
    assert main(SIM + ["--data", str(data), "--out", str(tmp_path / "run")]) == 2
    one_line(capsys, "tiles.csv: not a regular file")


def test_replay_of_a_run_names_a_contradicting_side_as_a_side(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["simulate", "magnificent", "--games", "4", "--players", "2", "--out", str(out),
                 "--quiet"]) == 0
    assert main(["replay", "--run", str(out), "--side", "B", "--game", "1"]) == 2
    one_line(capsys, "--side B contradicts the run")
    assert main(["replay", "--run", str(out), "--side", "A", "--game", "1"]) == 0


@pytest.mark.parametrize("game, expect", [
    ("festival", "run.json records a game 'festival' cannot play as recorded (unknown rule "
                 "'mode'"),
    ("dice_theme_park", "run.json records a game 'dice_theme_park' cannot play as recorded"),
    ("chess", "run.json records an unknown game 'chess' (available: ")])
def test_a_run_json_whose_game_was_edited_is_named_in_one_line(tmp_path, capsys, game,
                                                               expect):
    out = tmp_path / "run"
    assert main(["simulate", "magnificent", "--games", "6", "--side", "B", "--bots", "random",
                 "--out", str(out), "--quiet"]) == 0
    info = json.loads((out / "run.json").read_text())
    info["request"]["game"] = game
    (out / "run.json").write_text(json.dumps(info))
    assert main(["replay", "--run", str(out), "--game", "1"]) == 2
    one_line(capsys, expect)


LONG = "x" * 300  # a folder name past the system's 255 bytes


@pytest.mark.parametrize("argv", [
    ["simulate", "festival", "--games", "10", "--out", "OUT"],
    ["report", "RUN", "--out", "OUT"],
    ["diff", "RUN", "RUN", "--out", "OUT"],
    ["compare", "festival", "--players", "2", "--bots", "greedy", "--b-bots", "random,greedy",
     "--games", "10", "--out", "OUT"],
    ["tournament", "festival", "--players", "2", "--bots", "greedy,random", "--games", "10",
     "--out", "OUT"],
    ["balance", "festival", "--players", "2", "--tiers", "random,greedy", "--games", "10",
     "--out", "OUT"],
    ["tune", "rules", "festival", "--vary", "max_uncompleted=2..4", "--target", "seat-spread",
     "--trials", "2", "--games", "10", "--out", "OUT"],
    ["tune", "bot", "festival", "--from", "greedy", "--games", "10", "--generations", "1",
     "--out", f"{LONG}.toml"],
], ids=lambda argv: " ".join(argv[:2]))
@pytest.mark.parametrize("where", ["a name too long", "a path too long"])
def test_an_out_the_system_cannot_make_is_one_line(run_copy, tmp_path, capsys, argv, where):
    out = tmp_path / LONG if where == "a name too long" else tmp_path / "/".join(["y" * 200] * 22)
    argv = [str(run_copy) if a == "RUN" else str(out) if a == "OUT" else a for a in argv]
    if argv[:2] == ["tune", "bot"] and where == "a path too long":
        argv[-1] = str(out / "mine.toml")
    before = set(tmp_path.iterdir())
    assert main(argv + ([] if argv[0] == "diff" else ["--quiet"])) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "bytes long" in err, err  # refused by the check, before any folder is made
    assert set(tmp_path.iterdir()) == before


@pytest.mark.parametrize("argv, command", [
    (["compare", "festival", "--players", "2", "--bots", "greedy", "--b-bots", "random,greedy",
      "--games", "10", "--out", "OUT", "--quiet"], "compare"),
    (["tournament", "festival", "--players", "2", "--bots", "greedy,random", "--games", "10",
      "--out", "OUT", "--quiet"], "tournament"),
    (["balance", "festival", "--players", "2", "--tiers", "random,greedy", "--games", "10",
      "--out", "OUT", "--quiet"], "balance"),
    (["tune", "rules", "festival", "--vary", "max_uncompleted=2..4", "--target", "seat-spread",
      "--trials", "1", "--games", "10", "--out", "OUT", "--quiet"], "tune"),
    (["tune", "bot", "festival", "--from", "greedy", "--games", "10", "--generations", "1",
      "--out", "BOTS", "--work", "OUT", "--quiet"], "tune"),
    (["report", "RUN", "--out", "OUT", "--quiet"], "report"),
    (["diff", "RUN", "RUN2", "--out", "OUT"], "diff"),
    (["simulate", "festival", "--games", "10", "--out", "OUT", "--quiet"], "simulate"),
], ids=lambda x: x if isinstance(x, str) else None)
def test_a_folder_being_written_refuses_a_second_writer(run_copy, small_run, tmp_path, capsys,
                                                        argv, command):
    """Every command that writes a folder holds its lock: a second one into the same folder
    (here, the lock held by the test) is refused in one line, and writes nothing there."""
    from sim.core.run_folder import folder_lock

    out = tmp_path / "out"
    named = {"RUN": run_copy, "RUN2": small_run, "OUT": out, "BOTS": tmp_path / "mine.toml"}
    argv = [str(named.get(a, a)) for a in argv]
    with folder_lock(out, "test"):
        assert main(argv) == 2
    one_line(capsys, f"{out} is being written by another {command}")
    assert [p.name for p in out.iterdir()] == [".lock"]


def test_a_refused_folder_gets_no_lock_file(tmp_path, capsys):
    """A folder that is not the command's is refused before it is locked: nothing of
    playtest's is left in the user's folder."""
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["compare", "festival", "--players", "2", "--bots", "greedy", "--b-bots",
                 "random,greedy", "--games", "10", "--out", str(tmp_path), "--quiet"]) == 2
    one_line(capsys, "is not a compare folder")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
