"""``playtest bench``: games per second, compile time and peak memory, measured.

Each figure comes from a fresh child process, so that peak memory and compile time belong
to that measurement alone: compile time with an empty numba cache, the interpreted speed
with NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from sim.core.checks import rule_sets, whole
from sim.core.registry import game_module

REPEATS = 3  # each rate is the best of 3 timed runs (the median is printed beside it)


def cases(game: str) -> list[tuple[str, int]]:
    """(bot, players): the game's bench bots at its fewest and most players."""
    module = game_module(game)
    lo, hi = module.PLAYERS
    return [(bot, n) for bot in module.BENCH_BOTS for n in dict.fromkeys((lo, hi))]


def _measure(game: str, bot: str, players: int, games: int, threads: int | None,
             sets: dict) -> dict:
    """Run in the child: one warm-up chunk, then timed chunks at 1 thread and at all."""
    import numba

    module = game_module(game)
    play_chunk = module.play_chunk
    p, _ = module.prepare(players, [bot] * players, sets=sets or None)
    t0 = time.perf_counter()
    play_chunk(p, seed=1, start=0, n=1)
    first = time.perf_counter() - t0
    out = {"bot": bot, "players": players, "first_call_s": first}
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        t0 = time.perf_counter()
        play_chunk(p, seed=1, start=1, n=games)
        out["interpreted_gps"] = games / (time.perf_counter() - t0)
        return out
    for label, n_threads in (("one_core", 1), ("total", threads or numba.config.NUMBA_NUM_THREADS)):
        numba.set_num_threads(n_threads)
        play_chunk(p, seed=1, start=1, n=min(games, 1000))  # warm the thread pool
        seconds = []
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            play_chunk(p, seed=1, start=0, n=games)
            seconds.append(time.perf_counter() - t0)
        out[f"gps_{label}"] = games / min(seconds)
        out[f"gps_{label}_median"] = games / sorted(seconds)[REPEATS // 2]
        out[f"threads_{label}"] = n_threads
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _child(args: list[str], env: dict | None = None) -> dict:
    cmd = [sys.executable, "-m", "reports.bench", *args]
    res = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})})
    if res.returncode != 0:
        raise RuntimeError(f"bench child failed: {res.stderr.strip().splitlines()[-1:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def bench(game: str, games: int = 40_000, interpreted_games: int = 20,
          threads: int | None = None, sets: dict | None = None) -> list:
    """Print and return the figures; ``sets``: rule overrides and the mode, as for
    simulate. Every number is checked before anything compiles."""
    import numba

    whole("games", games, 1)
    whole("interpreted_games", interpreted_games, 0)
    if threads is not None:
        whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    sets = rule_sets("sets", sets)
    todo = cases(game)
    # bad input fails here, in one line; the meta names the mode a game plays by default
    _, meta = game_module(game).prepare(todo[0][1], [todo[0][0]] * todo[0][1], sets=sets)
    rules = json.dumps(sets or {})
    first_bot, most = todo[0][0], max(n for _, n in todo)
    shown = "".join(f", {k} {v}" for k, v in {"mode": meta.get("mode"), **(sets or {})}.items()
                    if v is not None)
    print(f"playtest bench: {game}{shown}, {games:,} games per figure, {os.cpu_count()} cores\n")
    with tempfile.TemporaryDirectory() as cache:
        cold = _child([game, first_bot, str(most), "1", rules], {"NUMBA_CACHE_DIR": cache})
        warm = _child([game, first_bot, str(most), "1", rules], {"NUMBA_CACHE_DIR": cache})
    print(f"compile, first call with an empty cache: {cold['first_call_s']:.1f} s; "
          f"with the cache: {warm['first_call_s']:.2f} s (one kernel serves every bot, player "
          "count and card file)\n")
    # the measurements use the project's cache: fill it first, or the first figure's peak
    # memory would be the compiler's
    _child([game, first_bot, str(most), "1", rules])
    rows = []
    print(f"games per second, best of {REPEATS} runs (median in brackets):")
    print(f"{'bots':8} {'players':>7} {'1 core':>18} {'total':>18} {'threads':>7} {'peak MB':>8}")
    for bot, players in todo:
        r = _child([game, bot, str(players), str(games), rules]
                   + ([str(threads)] if threads else []))
        rows.append(r)
        one = f"{r['gps_one_core']:,.0f} ({r['gps_one_core_median']:,.0f})"
        total = f"{r['gps_total']:,.0f} ({r['gps_total_median']:,.0f})"
        print(f"{bot:8} {players:7d} {one:>18} {total:>18} {r['threads_total']:7d} "
              f"{r['peak_mb']:8.0f}")
    if not interpreted_games:
        return rows
    print(f"\ncompiled against interpreted (NUMBA_DISABLE_JIT=1, {interpreted_games} games, "
          "1 core):")
    for bot in dict.fromkeys(b for b, _ in todo):
        slow = _child([game, bot, str(most), str(interpreted_games), rules],
                      {"NUMBA_DISABLE_JIT": "1"})
        fast = next(r for r in rows if r["bot"] == bot and r["players"] == most)
        speedup = fast["gps_one_core"] / slow["interpreted_gps"]
        print(f"{bot:8} {most} players: {slow['interpreted_gps']:8.1f} games/s interpreted, "
              f"{speedup:,.0f}x faster compiled")
        rows.append({**slow, "speedup": speedup})
    return rows


if __name__ == "__main__":
    game, bot, players, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    sets = json.loads(sys.argv[5])
    threads = int(sys.argv[6]) if len(sys.argv) > 6 else None
    print(json.dumps(_measure(game, bot, players, games, threads, sets)))
