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

from analysis.ladder import rollouts_played, searching_slots
from reports import bench_reference
from sim.core.checks import rule_sets, whole
from sim.core.registry import game_module

REPEATS = 3  # each rate is the best of 3 timed runs (the median is printed beside it)
# the line-up timed beside the lean reference game (bench_reference.py), on one core
REFERENCE_CASE = ("festival", ["greedy"] * 4)
SEARCH_GAMES = 100  # games per figure of a line-up with a search bot (seconds, not minutes)
ROLLOUT_GAMES = 5  # games driven decision by decision to count a search bot's rollouts


def cases(game: str) -> list[tuple[str, int]]:
    """(bot, players): the game's bench bots at its fewest and most players."""
    module = game_module(game)
    lo, hi = module.PLAYERS
    return [(bot, n) for bot in module.BENCH_BOTS for n in dict.fromkeys((lo, hi))]


def _measure(game: str, bot: str, players: int, games: int, threads: int | None,
             sets: dict) -> dict:
    """Run in the child: one warm-up chunk, then timed chunks at 1 thread and at all;
    ``bot``: one bot for every seat, or a line-up (comma-separated). A line-up with a search
    bot is timed once per figure, and its rollouts counted."""
    import numba

    module = game_module(game)
    play_chunk = module.play_chunk
    lineup = bot.split(",") if "," in bot else [bot] * players
    search = bool(searching_slots(game, lineup))
    reference = (game, lineup) == REFERENCE_CASE
    repeats = 1 if search else REPEATS
    p, _ = module.prepare(players, lineup, sets=sets or None)
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
        play_chunk(p, seed=1, start=1, n=min(games, 1000 if not search else n_threads))
        seconds, lean = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            play_chunk(p, seed=1, start=0, n=games)
            seconds.append(time.perf_counter() - t0)
            if reference and n_threads == 1:  # by turns with the engine's runs
                lean.append(bench_reference.games_per_second(games, repeats=1))
        if lean:
            out["reference_gps"] = max(lean)
        out[f"gps_{label}"] = games / min(seconds)
        out[f"gps_{label}_median"] = games / sorted(seconds)[repeats // 2]
        out[f"threads_{label}"] = n_threads
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if search:
        out.update(rollouts_played(game, p, min(games, ROLLOUT_GAMES)))
    return out


def _child(args: list[str], env: dict | None = None) -> dict:
    cmd = [sys.executable, "-m", "reports.bench", *args]
    res = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})})
    if res.returncode != 0:
        raise RuntimeError(f"bench child failed: {res.stderr.strip().splitlines()[-1:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def bench(game: str, games: int | None = None, interpreted_games: int = 20,
          threads: int | None = None, sets: dict | None = None,
          lineup: list[str] | None = None) -> list:
    """Print and return the figures; ``sets``: rule overrides and the mode, as for
    simulate; ``lineup``: one line-up to measure instead of the game's bench bots (with a
    search bot: its rollouts a second too). Every number is checked before anything
    compiles."""
    import numba

    search = bool(lineup and searching_slots(game, lineup))
    games = games if games is not None else SEARCH_GAMES if search else 40_000
    whole("games", games, 1)
    whole("interpreted_games", interpreted_games, 0)
    if threads is not None:
        whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    sets = rule_sets("sets", sets)
    todo = [(",".join(lineup), len(lineup))] if lineup else cases(game)
    if lineup:
        interpreted_games = 0  # an interpreted search would take hours
    # bad input fails here, in one line; the meta names the mode a game plays by default
    first = todo[0][0].split(",") if lineup else [todo[0][0]] * todo[0][1]
    _, meta = game_module(game).prepare(todo[0][1], first, sets=sets)
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
          "count, mode and card file; a line-up with a search bot has one of its own)\n")
    # the measurements use the project's cache: fill it first, or the first figure's peak
    # memory would be the compiler's
    _child([game, first_bot, str(most), "1", rules])
    rows = []
    print("games per second, one timed run (a line-up with a search bot):" if search else
          f"games per second, best of {REPEATS} runs (median in brackets):")
    width = max(8, *(len(bot) for bot, _ in todo))
    print(f"{'bots':{width}} {'players':>7} {'1 core':>18} {'total':>18} {'threads':>7} "
          f"{'peak MB':>8}")
    for bot, players in todo:
        r = _child([game, bot, str(players), str(games), rules]
                   + ([str(threads)] if threads else []))
        rows.append(r)
        one = f"{r['gps_one_core']:,.1f} ({r['gps_one_core_median']:,.1f})" if search else \
            f"{r['gps_one_core']:,.0f} ({r['gps_one_core_median']:,.0f})"
        total = f"{r['gps_total']:,.1f} ({r['gps_total_median']:,.1f})" if search else \
            f"{r['gps_total']:,.0f} ({r['gps_total_median']:,.0f})"
        print(f"{bot:{width}} {players:7d} {one:>18} {total:>18} {r['threads_total']:7d} "
              f"{r['peak_mb']:8.0f}")
        if "rollouts" in r:
            per = r["rollouts"] / max(r["search_decisions"], 1)
            print(f"\nsearch: {r['rollouts_per_s']:,.0f} rollouts a second on one core "
                  f"({r['rollouts']:,} rollouts in {r['search_decisions']:,} decisions of "
                  f"{ROLLOUT_GAMES} games, {per:,.1f} a decision)")
    for r in rows:
        if "reference_gps" in r:
            lean = r["reference_gps"]
            print(f"\nlean reference: a Festival-like greedy game in one small kernel "
                  f"(reports/bench_reference.py), {r['players']} players, about 60 decisions a "
                  f"game: {lean:,.0f} games/s on 1 core, timed by turns with the engine's "
                  f"{r['bot']} runs; Festival / reference = {r['gps_one_core'] / lean:.2f}")
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
