"""The batch kernels' threads: a chunk's games in lanes, the lanes shared among threads.

A batch kernel (``sim/<game>/batch.py``'s ``play_batch``) plays the games of a range of lanes:
lane k of a chunk of n games plays games k, k + lanes, k + 2 * lanes, ... with one set of
buffers. ``run_lanes`` cuts the lanes into one contiguous range per thread (numba's thread
count, which ``--threads`` sets) and runs the kernel on each range in a Python thread of its
own; the kernel releases the GIL. A game's result depends on its seed and index alone, so a
chunk's rows are the same for any number of threads.

Python threads, not numba's ``prange``: numba compiles a parallel loop as four nested
functions (the loop body, two wrappers and the kernel), and optimizes each and turns each
into machine code with the whole game linked in: about 8 of Dice Theme Park's 52 seconds of
first compile went to a loop that runs once per game (docs/developers.md, "The first
compile").
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

LANES = 64  # a chunk's lanes at most, or one per thread where there are more threads


_pool: tuple[int, ThreadPoolExecutor] | None = None  # (the process it serves, the pool)


def _threads() -> ThreadPoolExecutor:
    """The kernels' threads, kept from chunk to chunk (new threads for every chunk made
    chunks of 2,000 Festival games up to a third slower); a forked process makes its own."""
    global _pool
    if _pool is None or _pool[0] != os.getpid():
        _pool = (os.getpid(), ThreadPoolExecutor(numba.config.NUMBA_NUM_THREADS,
                                                 thread_name_prefix="playtest-lane"))
    return _pool[1]


def run_lanes(kernel, n: int, args: tuple) -> None:
    """Play a chunk of ``n`` games: ``kernel(*args, first_lane, last_lane, lanes)`` for each
    thread's range of lanes."""
    threads = numba.get_num_threads()
    lanes = min(n, max(LANES, threads))
    threads = max(1, min(threads, lanes))
    cuts = [lanes * k // threads for k in range(threads + 1)]
    ranges = [(np.int64(cuts[k]), np.int64(cuts[k + 1]), np.int64(lanes))
              for k in range(threads)]
    if threads == 1:
        kernel(*args, *ranges[0])
        return
    for done in [_threads().submit(kernel, *args, *lane_range) for lane_range in ranges]:
        done.result()
