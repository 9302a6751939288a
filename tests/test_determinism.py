"""Same seed, same rows: across chunk sizes, thread counts and the three backends."""

import os
import subprocess
import sys

import numba
import pandas as pd
import pytest

from sim import simulate
from sim.core.run_folder import load_results
from sim.core.runner import run

BOTS = ["greedy", "hunter", "builder", "random"]


def _frame(**kw):
    return simulate("festival", games=600, players=4, bots=BOTS, seed=42, **kw)


def test_same_rows_across_chunk_sizes_and_threads():
    base = _frame(chunk_size=600)
    pd.testing.assert_frame_equal(base, _frame(chunk_size=7))
    threads_before = numba.get_num_threads()
    pd.testing.assert_frame_equal(base, _frame(chunk_size=250, threads=1))
    assert numba.get_num_threads() == threads_before  # a thread count is per call
    assert numba.config.NUMBA_NUM_THREADS >= 1
    threads = numba.config.NUMBA_NUM_THREADS
    pd.testing.assert_frame_equal(base, _frame(chunk_size=600, threads=threads))


def test_a_later_game_does_not_depend_on_the_games_before_it():
    whole = _frame()
    tail = simulate("festival", games=100, players=4, bots=BOTS, seed=42, start=500)
    pd.testing.assert_frame_equal(whole[whole.game_index >= 500].reset_index(drop=True), tail)


@pytest.mark.parametrize("backend", ["processes", "dask"])
@pytest.mark.parametrize("game,games,bots", [("festival", 600, BOTS),
                                             ("dice_theme_park", 60,
                                              ["greedy", "builder", "operator", "random"]),
                                             ("magnificent", 120,
                                              ["greedy", "builder", "showman", "random"])])
def test_backends_give_identical_rows(tmp_path, backend, game, games, bots):
    args = (game, games, 4, bots, 42)
    run(*args, tmp_path / "threads", chunk_size=games // 3, progress=False)
    run(*args, tmp_path / backend, backend=backend, chunk_size=games // 4, workers=2,
        progress=False)
    pd.testing.assert_frame_equal(load_results(tmp_path / "threads"),
                                  load_results(tmp_path / backend))


def test_compiled_kernel_plays_the_interpreted_games():
    """The compiled kernel and the same code run by Python (NUMBA_DISABLE_JIT) agree."""
    code = ("from sim import simulate; import sys; "
            "simulate('festival', games=12, players=4, bots=['greedy','hunter','builder',"
            "'random'], seed=9).to_csv(sys.stdout, index=False)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, check=True)
    from io import StringIO

    slow = pd.read_csv(StringIO(res.stdout))
    fast = simulate("festival", games=12, players=4, bots=["greedy", "hunter", "builder",
                                                           "random"], seed=9)
    for col in ("score", "score_objectives", "score_crowd", "score_colour", "score_design",
                "win", "turns", "objectives_done_set", "crowd_set"):
        assert (slow[col].to_numpy() == fast[col].to_numpy()).all(), col


def test_compiled_dice_theme_park_plays_the_interpreted_games():
    bots = "['greedy', 'operator', 'random']"
    code = ("from sim import simulate; import sys; "
            f"simulate('dice_theme_park', games=3, players=3, bots={bots}, seed=4)"
            ".to_csv(sys.stdout, index=False)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, check=True)
    from io import StringIO

    slow = pd.read_csv(StringIO(res.stdout))
    fast = simulate("dice_theme_park", games=3, players=3, bots=["greedy", "operator",
                                                                 "random"], seed=4)
    for col in ("score", "score_operations", "score_objectives", "win", "money",
                "dice_in_park", "operations"):
        assert (slow[col].to_numpy() == fast[col].to_numpy()).all(), col


@pytest.mark.parametrize("n", [1, 5, 64, 65, 1000])
def test_the_lanes_play_each_game_once_on_any_number_of_threads(n):
    """run_lanes shares a chunk's lanes among the threads: whatever their number, every game
    of the chunk is played once (the kernel here is Python, the batch kernels' loop)."""
    from sim.core.lanes import LANES, run_lanes

    def kernel(played, calls, n, first_lane, last_lane, lanes):
        calls.append((int(first_lane), int(last_lane)))
        for lane in range(first_lane, last_lane):
            played.extend(range(lane, n, lanes))

    before = numba.get_num_threads()
    try:
        for threads in range(1, numba.config.NUMBA_NUM_THREADS + 1):
            numba.set_num_threads(threads)
            played, calls = [], []
            run_lanes(kernel, n, (played, calls, n))
            assert sorted(played) == list(range(n))
            assert len(calls) == min(threads, n, LANES)
    finally:
        numba.set_num_threads(before)


def test_threads_beyond_the_lanes_each_get_a_lane(monkeypatch):
    """More threads than the 64 lanes (a large machine's ``--threads``) are each given a
    lane, not cut to 64; every game is still played once."""
    from sim.core import lanes as L

    def kernel(played, calls, n, first_lane, last_lane, lanes):
        calls.append(int(lanes))
        for lane in range(first_lane, last_lane):
            played.extend(range(lane, n, lanes))

    monkeypatch.setattr(L.numba, "get_num_threads", lambda: 100)
    played, calls = [], []
    L.run_lanes(kernel, 1000, (played, calls, 1000))
    assert sorted(played) == list(range(1000)) and calls == [100] * 100
