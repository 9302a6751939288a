"""Run folders are verified, not trusted: killed runs resume to the same rows, damaged chunks
are replayed, one writer at a time, and the run record tells the truth."""

import json
import os
import signal

import cli_process
import pytest

from reports.cli import main
from sim.core.run_folder import load_results

ARGS = ["simulate", "festival", "--games", "40000", "--chunk-size", "2000", "--bots", "greedy",
        "--seed", "4", "--quiet"]


def _single(tmp_path):
    fresh = tmp_path / "fresh"
    assert main(["simulate", "festival", "--games", "40000", "--chunk-size", "20000",
                 "--bots", "greedy", "--seed", "4", "--out", str(fresh), "--quiet"]) == 0
    return load_results(fresh)


@pytest.mark.slow
def test_a_run_killed_mid_chunk_resumes_to_the_same_rows(tmp_path):
    out = tmp_path / "run"
    proc = cli_process.start(ARGS + ["--out", str(out)])
    cli_process.wait_for_chunk(proc, out)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    done = len(list((out / "data").glob("part-*.parquet")))
    assert 1 <= done < 20
    res = cli_process.run(ARGS + ["--out", str(out)])
    assert res.returncode == 0
    assert f"{40000 - 2000 * done:,} games played now, 40,000 in total" in res.stdout
    assert load_results(out).equals(_single(tmp_path))


@pytest.mark.slow
def test_a_second_writer_is_refused_and_the_rows_are_a_single_runs(tmp_path):
    out = tmp_path / "run"
    first = cli_process.start(ARGS + ["--out", str(out)])
    cli_process.wait_for_chunk(first, out)
    second = cli_process.run(ARGS + ["--out", str(out)])
    assert first.wait(timeout=300) == 0
    assert second.returncode == 2
    assert second.stderr.count("\n") == 1 and "being written by another simulate" in second.stderr
    assert load_results(out).equals(_single(tmp_path))


def test_a_finished_run_stays_finished_and_keeps_its_timing(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["simulate", "festival", "--games", "300", "--chunk-size", "100", "--out", str(out),
            "--quiet"]
    assert main(args) == 0
    before = json.loads((out / "run.json").read_text())
    capsys.readouterr()
    assert main(args) == 0
    assert "already complete: 300 games" in capsys.readouterr().out
    assert json.loads((out / "run.json").read_text()) == before


def test_a_rerun_plays_only_the_missing_and_damaged_chunks(tmp_path, monkeypatch):
    import sim.core.runner as runner

    out = tmp_path / "run"
    args = ["simulate", "festival", "--games", "500", "--chunk-size", "100", "--seed", "6",
            "--out", str(out), "--quiet"]
    assert main(args) == 0
    whole = load_results(out)
    (out / "data" / "part-00001.parquet").unlink()
    part3 = out / "data" / "part-00003.parquet"
    part3.write_bytes(part3.read_bytes()[:-100])  # truncated: its footer is gone
    played = []
    real = runner._play
    monkeypatch.setattr(runner, "_play", lambda m, p, seed, start, n, t: (
        played.append(start), real(m, p, seed, start, n, t))[1])
    assert main(args) == 0
    assert sorted(played) == [100, 300]
    assert load_results(out).equals(whole)
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete" and info["chunks_done"] == 5


def test_a_run_grown_chunk_by_chunk_is_a_single_runs(tmp_path):
    """``upto`` (how a comparison grows its arms) plays only the chunks before it and leaves
    the run partial; growing it to the end gives the rows of a single run."""
    from sim.core.run_folder import read_chunk, verify
    from sim.core.runner import run

    out = tmp_path / "grown"
    args = ("festival", 40000, 4, ["greedy"] * 4, 4, out)
    info = run(*args, chunk_size=20000, progress=False, upto=20000)
    assert info["status"] == "partial" and info["games_now"] == 20000
    assert read_chunk(out, 0) is not None and read_chunk(out, 1) is None
    with pytest.raises(Exception, match="incomplete"):
        verify(out)
    assert run(*args, chunk_size=20000, progress=False, upto=20000)["games_now"] == 0
    info = run(*args, chunk_size=20000, progress=False, upto=40000)
    assert info["status"] == "complete" and info["games_now"] == 20000
    assert load_results(out).equals(_single(tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["processes", "dask"])
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_the_run_that_started_them(tmp_path, backend, sig):
    """A run killed (SIGKILL, SIGTERM: nothing in it runs on the way out) leaves no worker,
    tracker or nanny behind: each worker watches the process that started it. Before, the
    loky workers and resource trackers went on for minutes, holding the dead run's output
    open."""
    import time

    out = tmp_path / "run"
    proc = cli_process.start(["simulate", "festival", "--games", "4000000", "--chunk-size",
                              "200000", "--bots", "random", "--backend", backend,
                              "--workers", "2", "--out", str(out), "--quiet"])
    cli_process.wait_for_chunk(proc, out)
    below = cli_process.descendants(proc.pid)
    assert below  # the workers
    proc.send_signal(sig)
    proc.wait()
    end = time.time() + 30
    while cli_process.alive(below) and time.time() < end:
        time.sleep(0.2)
    left = cli_process.alive(below)
    for pid in left:  # leave nothing running, whatever the outcome
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} processes outlived the run"
