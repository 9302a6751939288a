"""Every bad input gets one clear line and exit 2 (a PlaytestError from the API), and no
run folder is left looking complete."""

import json
import subprocess
import time

import cli_process
import pytest
from conftest import edited_copy

from reports.cli import main
from sim import PlaytestError, simulate

SIM = ["simulate", "festival", "--games", "5", "--quiet"]


def _looks_complete(out) -> bool:
    try:
        return json.loads((out / "run.json").read_text()).get("status") == "complete"
    except (OSError, ValueError):
        return False


def _one_line(capsys, expect: str) -> None:
    err = capsys.readouterr().err
    assert expect in err, err
    assert err.count("\n") == 1 and "Traceback" not in err, err


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
]


@pytest.mark.parametrize("extra,expect", SIMULATE_CASES)
def test_simulate_refuses(tmp_path, capsys, extra, expect):
    out = tmp_path / "run"
    argv = ["simulate", "festival", "--games", "5", "--quiet", "--out", str(out)]
    with pytest.raises(SystemExit) if expect == "invalid int value" else _nothing():
        assert main(argv + extra) == 2
    _one_line(capsys, expect)
    assert not (out / "run.json").exists()  # refused before anything was written


def test_an_unreachable_dask_scheduler_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(SIM + ["--out", str(out), "--backend", "dask",
                       "--address", "tcp://127.0.0.1:9"]) == 2
    _one_line(capsys, "cannot reach a dask scheduler")
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
    _one_line(capsys, "cannot reach a dask scheduler (no scheduler here)")


@pytest.mark.parametrize("where", ["file", "parent file", "unwritable"])
def test_simulate_refuses_an_out_it_cannot_write(tmp_path, capsys, where):
    f = tmp_path / "f"
    f.write_text("x")
    out = {"file": f, "parent file": f / "run", "unwritable": "/proc/playtest-run"}[where]
    assert main(SIM + ["--out", str(out)]) == 2
    _one_line(capsys, {"file": "is a file", "parent file": "is a file",
                       "unwritable": "cannot write to"}[where])


def test_a_different_request_names_the_field_that_differs(run_copy, capsys):
    assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100", "--seed", "3",
                 "--out", str(run_copy), "--quiet"]) == 2
    _one_line(capsys, "seed 2 there, 3 now")
    assert _looks_complete(run_copy)  # the run that was there is untouched


def test_a_folder_that_is_not_a_run_is_refused(tmp_path, capsys):
    (tmp_path / "x.txt").write_text("mine")
    assert main(SIM + ["--out", str(tmp_path)]) == 2
    _one_line(capsys, "is not a run folder")


@pytest.mark.parametrize("damage,expect", [
    ("delete", "part-00001.parquet (missing)"),
    ("truncate", "part-00001.parquet (unreadable"),
    ("short", "part-00001.parquet (40 rows, 400 expected)"),
    ("incomplete", "is incomplete"),
    ("garbage run.json", "cannot read"),
])
def test_report_refuses_a_damaged_run_and_the_rerun_repairs_it(run_copy, small_run, capsys,
                                                                damage, expect):
    part = run_copy / "data" / "part-00001.parquet"
    if damage == "delete":
        part.unlink()
    elif damage == "truncate":
        part.write_bytes(part.read_bytes()[:500])
    elif damage == "short":  # readable, but not the chunk's games
        import pyarrow.parquet as pq

        pq.write_table(pq.read_table(part).slice(0, 40), part)
    elif damage == "incomplete":
        info = json.loads((run_copy / "run.json").read_text())
        info["status"] = "running"
        (run_copy / "run.json").write_text(json.dumps(info))
    else:
        (run_copy / "run.json").write_bytes(b"\xff\xfe not json")
    assert main(["report", str(run_copy)]) == 2
    _one_line(capsys, expect)
    assert not (run_copy / "report" / "index.html").exists()
    if damage in ("delete", "truncate", "short"):
        assert main(["simulate", "festival", "--games", "300", "--chunk-size", "100",
                     "--seed", "2", "--out", str(run_copy), "--quiet"]) == 0
        capsys.readouterr()
        assert main(["report", str(run_copy)]) == 0
        from sim.core.runner import load_results

        assert load_results(run_copy).equals(load_results(small_run))


@pytest.mark.parametrize("argv,expect", [
    (["report", "/nonexistent/run"], "not a run folder"),
    (["report", "RUN", "--model-games", "-1"], "--model-games must be zero"),
    (["report", "RUN", "--out", "FILE"], "is a file"),
    (["replay", "festival", "--seed", str(2**64)], "--seed must be from 0"),
    (["replay", "festival", "--seed", "-1"], "--seed must be from 0"),
    (["replay", "festival", "--seed", "1", "--players", "9"], "2 to 4 players"),
    (["replay", "festival", "--seed", "1", "--game", "-1"], "--game must be from 0"),
    (["replay", "festival", "--game", "3"], "replay needs GAME and --seed"),
    (["replay", "--run", "RUN", "--game", "300"], "--game must be from 0 to 299, got 300"),
    (["replay", "--run", "RUN", "--seed", "9"], "--seed 9 contradicts the run"),
    (["replay", "--run", "RUN", "--players", "3"], "--players 3 contradicts the run"),
    (["replay", "--run", "RUN", "--bots", "random"], "--bots"),
    (["bench", "magnificent", "--side", "C"], "--side 'C' is unknown"),
    (["bench", "chess"], "unknown game 'chess'"),
    (["bench", "festival", "--games", "0"], "--games must be at least 1"),
    (["bench", "festival", "--interpreted-games", "-1"], "--interpreted-games at least 0"),
    (["bench", "festival", "--mode", "short"], "festival has no modes"),
    (["bench", "dice_theme_park", "--mode", "long"], "--mode 'long' is unknown"),
    (["bench", "dice_theme_park", "--set", "rounds.full=0"], "rounds"),
    (["data", "chess"], "unknown game 'chess'"),
])
def test_report_replay_bench_and_data_refuse(run_copy, tmp_path, capsys, argv, expect):
    f = tmp_path / "file"
    f.write_text("x")
    argv = [str(run_copy) if a == "RUN" else str(f) if a == "FILE" else a for a in argv]
    assert main(argv) == 2
    _one_line(capsys, expect)


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
    _one_line(capsys, expect)
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
    from sim.core.runner import load_results
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
    _one_line(capsys, f"is above {MAX_VALUE:,}".replace(",", ""))
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
])
def test_the_api_refuses_with_the_apis_own_names(kwargs, expect):
    with pytest.raises(PlaytestError) as e:
        simulate(**{"games": 5, **kwargs})
    assert expect in str(e.value) and "--" not in str(e.value)


def test_the_api_default_bots_are_the_command_lines(tmp_path):
    df = simulate("festival", games=8, players=3, seed=1)
    assert main(["simulate", "festival", "--games", "8", "--players", "3", "--seed", "1",
                 "--out", str(tmp_path / "r"), "--quiet"]) == 0
    from sim.core.runner import load_results

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
def test_ctrl_c_on_a_local_dask_cluster_is_one_line(tmp_path):
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
