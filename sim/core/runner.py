"""The batch runner: chunks of games on a backend, streamed to a parquet dataset.

A run folder (run_folder.py) holds ``run.json`` (what was asked, on which data and engine,
how far it got) and ``data/part-NNNNN.parquet``, one file per finished chunk, each written
under a temporary name and renamed, so a file that exists was complete when written.
Rerunning the same request in the same folder checks the chunk files that are there
(``run_folder.chunk_problem``, the test ``report`` makes), replays any that is not sound
and plays the missing ones; ``run.json`` says ``complete`` only at the end. One writer at a
time: a lock on ``.lock`` (released by the system when its process ends, even by SIGKILL).
Every game draws from its own stream (rng.py), so rows do not depend on the chunking, the
thread count or the backend.
"""

from __future__ import annotations

import importlib
import itertools
import os
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core.checks import (
    MAX_GAMES,
    MAX_SEED,
    chunk_fits,
    flag,
    path,
    rule_sets,
    text,
    whole,
    writable_folder,
)
from sim.core.errors import ParameterError, PlaytestError
from sim.core.kernel_cache import compiled, engine_hash
from sim.core.registry import game_module
from sim.core.run_folder import (
    ATTRS,
    LOCK,
    Chunks,
    damaged,
    folder_lock,
    part,
    read_info,
    remove,
    schema_of,
    with_record,
    write_info,
)
from strategies.selectors import search_switch

BACKENDS = ("threads", "processes", "dask")
DEFAULT_CHUNK = 50_000
DASK_TIMEOUT = 8  # seconds to reach a dask scheduler: refused within 10 s in all


def playtest_version() -> str:
    """The installed playtest's version, as run folders record it."""
    try:
        from importlib.metadata import version

        return version("playtest")
    except Exception:  # not installed: running from a checkout
        return "unknown"


def seat_bots(bots: str | list[str], players: int) -> list[str]:
    """One bot per seat: a single name (or a list of one) plays every seat."""
    if isinstance(bots, str):
        names = [bots]
    elif isinstance(bots, list | tuple) and all(isinstance(b, str) for b in bots):
        names = list(bots)
    else:
        raise ParameterError("bots", f"must be a bot name or a list of names, got {bots!r}")
    return names * players if len(names) == 1 else names


def bot_record(game: str, bots: list[str]) -> dict:
    """What a request records of the bots it plays that are not shipped (from a bots file):
    {"bot_presets": {name: table}}, or nothing when every bot is shipped."""
    from strategies.presets import used_specs

    used = used_specs(game, bots)
    return {"bot_presets": used} if used else {}


def default_bots(game: str, players: int) -> list[str]:
    """The game's default line-up for ``players`` seats (the CLI's and the API's)."""
    bots = list(game_module(game).DEFAULT_BOTS)
    return (bots * players)[:players]


def check_data(game: str, data: str | Path | None = None, sets: dict | None = None):
    """The game's data folder with the overrides ``sets``, checked as ``simulate`` checks it,
    for every player count its rules allow and every mode (unless ``sets`` names one): the
    loader's checks and the engine's (its tables packed for the kernels). Returns the
    loaded data; anything ``simulate`` would refuse is refused in one line."""
    from sim.core.data import load_game_data, read_toml, with_sets

    module = game_module(game)
    sets = dict(sets or {})
    rule_sets = {k: v for k, v in sets.items() if k != "mode"}
    d = load_game_data(game, data, rule_sets or None)
    rules = with_sets(read_toml(d.folder, "rules.toml"), rule_sets, game)
    low, high = rules["min_players"], rules["max_players"]
    modes = [sets["mode"]] if "mode" in sets else list(getattr(module, "MODES", [None]))
    for mode in modes:
        for n in range(low, high + 1):
            module.prepare(n, default_bots(game, n), data, True,
                           sets={**sets, **({"mode": mode} if mode else {})} or None)
    return d


def resolve_bots(game: str, bots: str | list[str] | None, players: int) -> list[str]:
    """One bot per seat: the game's default line-up for None, else as ``seat_bots``."""
    return default_bots(game, players) if bots is None else seat_bots(bots, players)


def check_request(games, seed, chunk_size, threads=None, workers=None,
                  bytes_per_game: int = 0, parallel: int = 1, players=2, rotate=True
                  ) -> Chunks:
    """Every number of a request in range (the game checks its own player range), or one
    ParameterError naming it."""
    whole("players", players, 1)
    if not isinstance(rotate, bool):
        raise ParameterError("rotate", f"must be True or False, got {rotate!r}")
    games = whole("games", games, 1, MAX_GAMES)
    whole("seed", seed, 0, MAX_SEED)
    if threads is not None:
        import numba

        whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    if workers is not None:
        whole("workers", workers, 1, 1024)
    size = min(games, DEFAULT_CHUNK) if chunk_size is None else whole("chunk_size", chunk_size, 1)
    if bytes_per_game:
        chunk_fits(min(size, games), bytes_per_game, parallel)
    return Chunks(games, min(size, games))


def _play(module_name: str, prepared, seed: int, start: int, n: int, threads: int | None):
    """One chunk (module-level, so processes and dask can pickle it). A thread count applies
    to this chunk only."""
    module = importlib.import_module(module_name)
    if not threads:
        return module.play_chunk(prepared, seed, start, n)
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        return module.play_chunk(prepared, seed, start, n)
    finally:
        numba.set_num_threads(before)


def _timed(module_name: str, prepared, seed: int, start: int, n: int, threads: int | None
           ) -> tuple[pa.Table, float]:
    """A piece of a chunk and the seconds it took to play (how the next pieces are sized)."""
    t0 = time.perf_counter()
    table = _play(module_name, prepared, seed, start, n, threads)
    return table, time.perf_counter() - t0


PIECE_SECONDS = 2.0  # a piece of a chunk plays about this long: the bar moves that often
FIRST_PIECE = 256  # games of the first pieces, before any speed is measured


class Pieces:
    """Each chunk cut into pieces of about PIECE_SECONDS of play, sized from the speed of the
    pieces played so far, so that progress shows every few seconds whatever the chunk size
    (rows do not depend on the cut: every game has its own stream)."""

    def __init__(self):
        self.size = FIRST_PIECE

    def cut(self, todo) -> Iterator[tuple[int, int, int]]:
        """(chunk number, first game, games) of each piece, made as they are asked for."""
        for i, start, n in todo:
            at = start
            while at < start + n:
                m = min(self.size, start + n - at)
                yield i, at, m
                at += m

    def measured(self, games: int, seconds: float) -> None:
        if seconds > 0:
            self.size = int(min(max(64, games / seconds * PIECE_SECONDS), 10**6))


def _assembled(pieces: Iterator[tuple[int, int, int, pa.Table]], chunks: Chunks
               ) -> Iterator[tuple[int, int, pa.Table | None]]:
    """(chunk number, games of the piece just played, the chunk's table once its last piece
    is in, else None), from pieces that may arrive in any order."""
    held: dict[int, list] = {}
    for i, start, n, table in pieces:
        held.setdefault(i, []).append((start, n, table))
        if sum(games for _, games, _ in held[i]) < chunks[i][2]:
            yield i, n, None
            continue
        parts = [t for _, _, t in sorted(held.pop(i), key=lambda x: x[0])]
        yield i, n, pa.concat_tables(parts) if len(parts) > 1 else parts[0]


_watching = threading.Event()  # set in a worker process once its watchdog runs


def _watch_parent() -> None:
    """In a worker process this run started: end it as soon as the process that started it
    is gone (SIGKILL or SIGTERM of ``simulate`` leave no way to stop it from there). Without
    this a worker reparented to init went on playing its chunk for minutes, holding the dead
    command's output open, and with it any wrapper that reads that output."""
    if _watching.is_set():
        return
    _watching.set()
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="playtest-watch-parent", daemon=True).start()


def _play_in_worker(module_name: str, prepared, seed: int, start: int, n: int
                    ) -> tuple[pa.Table, float]:
    """``_timed`` in a worker process of this run's own (joblib's, a local dask cluster's),
    which ends with its parent."""
    _watch_parent()
    return _timed(module_name, prepared, seed, start, n, 1)


@contextmanager
def _dask_client(address: str | None, workers: int | None):
    """A dask client on the scheduler at ``address`` (or a local cluster), refused in one
    line within DASK_TIMEOUT seconds when it cannot be reached."""
    import logging

    from dask.distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    cluster = None
    try:
        if address is None:
            cluster = LocalCluster(n_workers=workers or os.cpu_count(), threads_per_worker=1,
                                   processes=True, dashboard_address=None,
                                   silence_logs=logging.CRITICAL)
        client = Client(address or cluster, timeout=DASK_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        if cluster is not None:
            cluster.close()
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ParameterError("address", f"{address!r}: cannot reach a dask scheduler "
                             f"({reason})") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _pieces(module_name, prepared, seed, todo, backend, threads, workers, client, local
            ) -> Iterator[tuple[int, int, int, pa.Table]]:
    """(chunk number, first game, games, table) of each piece of the chunks in ``todo``, as
    each finishes; ``local``: a dask cluster started by this run."""
    cut = Pieces()
    if backend == "threads":
        for i, start, n in cut.cut(todo):
            table, seconds = _timed(module_name, prepared, seed, start, n, threads)
            cut.measured(n, seconds)
            yield i, start, n, table
    elif backend == "processes":
        from joblib import Parallel, delayed

        # joblib dispatches a few pieces ahead of the results: tee keeps only those
        todo, numbers = itertools.tee(cut.cut(todo))
        jobs = Parallel(n_jobs=workers or os.cpu_count(), return_as="generator")(
            delayed(_play_in_worker)(module_name, prepared, seed, start, n)
            for _, start, n in todo)
        try:
            for (i, start, n), (table, seconds) in zip(numbers, jobs):
                cut.measured(n, seconds)
                yield i, start, n, table
        finally:  # stopped early (an interrupt): the pieces in flight are dropped, as meant
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "[0-9]+ tasks which were still being",
                                        UserWarning)
                jobs.close()
    else:
        from dask.distributed import as_completed

        # a window of pieces in flight, refilled as each finishes: nothing per chunk of the
        # whole request is held at once
        window = 2 * max(1, len(client.scheduler_info().get("workers", {})))
        todo = cut.cut(todo)
        futures = {}

        def submit(start, n):  # a local cluster's workers are this run's: they watch it
            if local:
                return client.submit(_play_in_worker, module_name, prepared, seed, start, n,
                                     pure=False)
            return client.submit(_timed, module_name, prepared, seed, start, n, 1, pure=False)

        for i, start, n in itertools.islice(todo, window):
            futures[submit(start, n)] = (i, start, n)
        pending = as_completed(list(futures))
        for future in pending:
            i, start, n = futures.pop(future)
            table, seconds = future.result()
            cut.measured(n, seconds)
            yield i, start, n, table
            for piece in itertools.islice(todo, 1):
                f = submit(*piece[1:])
                futures[f] = piece
                pending.add(f)


def _backend_options(backend: str, threads, workers, address) -> None:
    """Each backend's own options, refused on another backend (where they would be
    silently ignored)."""
    if address is not None and backend != "dask":
        raise ParameterError("address", "is a dask scheduler's: for the dask backend only")
    text("address", address)
    if workers is not None and backend == "threads":
        raise ParameterError("workers", "are worker processes, for the processes or dask "
                             "backend (the threads backend takes threads)")
    if threads is not None and backend != "threads":
        raise ParameterError("threads", f"are the threads backend's: a {backend} worker "
                             "plays each chunk on one thread (workers sets how many)")


def _differences(old: dict, new: dict) -> str:
    keys = [k for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k)]
    return "; ".join(f"{k} {old.get(k)!r} there, {new.get(k)!r} now" for k in keys)


def run(game: str, games: int, players: int, bots: list[str] | None, seed: int,
        out: str | Path,
        backend: str = "threads", chunk_size: int | None = None, threads: int | None = None,
        workers: int | None = None, address: str | None = None, rotate: bool = True,
        data: str | None = None, progress: bool = True, sets: dict | None = None,
        upto: int | None = None, command: str = "simulate") -> dict:
    """Simulate into the run folder ``out``; returns the final run.json content, with
    ``games_now`` (games played by this call) beside the totals. ``sets`` overrides rule
    values of the game's rules.toml. ``upto`` plays only the chunks that start before game
    ``upto`` (a sequential comparison grows its arms chunk by chunk); the run stays
    ``partial`` until every chunk is there. ``command``: the playtest command whose rerun
    goes on with the run (``report``'s advice on a damaged or unfinished one)."""
    module = game_module(game)
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ParameterError("backend", f"{backend!r} is unknown (available: "
                             f"{', '.join(BACKENDS)})")
    _backend_options(backend, threads, workers, address)
    out, data = path("out", out, optional=False), path("data", data)
    sets, progress = rule_sets("sets", sets), flag("progress", progress)
    if upto is not None:
        whole("upto", upto, 1, MAX_GAMES)
    parallel = 1 if backend == "threads" else (workers or os.cpu_count() or 1)
    chunks = check_request(games, seed, chunk_size, threads, workers,
                           getattr(module, "BYTES_PER_GAME", 0), parallel, players, rotate)
    bots = resolve_bots(game, bots, players)
    prepared, meta = module.prepare(players, bots, data, rotate, sets=sets or None)
    request = {"game": game, "games": chunks.games, "players": players, "bots": list(bots),
               "seed": seed, "rotate": rotate, "chunk_size": chunks.size,
               "data_hash": meta["data_hash"]} | ({"sets": sets} if sets else {}) | \
        bot_record(game, bots)
    writable_folder(out)
    old = None
    if (out / "run.json").exists() or (out / "run.json").is_symlink():
        old = read_info(out)
        if old["request"] != request:
            changed = _differences(old["request"], request)
            raise PlaytestError(f"{out} holds a different run ({changed}); choose another "
                                "--out")
        if old["engine"] != engine_hash():
            raise PlaytestError(f"{out} was played by another version of the engines "
                                f"({old['engine']} there, {engine_hash()} now): its games "
                                "would not be this version's; choose another --out")
    elif out.exists() and any(p.name != LOCK for p in out.iterdir()):
        raise PlaytestError(f"{out} exists and is not a run folder; choose another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlaytestError(f"cannot write to {out}: {e.strerror}") from None
    with folder_lock(out, command):
        return _run_locked(module, prepared, meta, request, chunks, out, old, backend,
                           threads, workers, address, progress, upto, command)


def _run_locked(module, prepared, meta, request, chunks, out, old, backend, threads, workers,
                address, progress, upto, command) -> dict:
    parts = out / "data"
    players = request["players"]
    # The game's own metadata (data folder, names of its cards...) goes in as it comes.
    info = {"request": request, "engine": engine_hash(), "schema": (old or {}).get("schema"),
            "command": command, "status": "running", "chunks": chunks.count,
            "backend": backend,
            "version": playtest_version(), "started": (old or {}).get("started")
            or time.strftime("%Y-%m-%dT%H:%M:%S"),
            "seconds": (old or {}).get("seconds", 0.0), **meta}
    sound, bad = damaged(out, info) if old is not None else (set(), {})
    wanted = chunks.count if upto is None else min(chunks.count, -(-upto // chunks.size))
    if old is not None and not bad and all(i in sound for i in range(wanted)) and (
            old.get("status") == "complete" or upto is not None):
        return {**old, "games_now": 0}
    try:
        if parts.exists() and not parts.is_dir():  # a file where the chunks go
            parts.unlink()
        for path in bad:  # replayed below, like a missing chunk
            remove(path)
        parts.mkdir(exist_ok=True)
    except OSError as e:
        raise PlaytestError(f"cannot write to {out}: {e.strerror}") from None
    todo = (chunks[i] for i in range(wanted) if i not in sound)
    done_games = sum(chunks[i][2] for i in sound)
    info |= {"chunks_done": len(sound), "games_done": done_games}
    bar = None
    with _dask_client(address, workers) if backend == "dask" else _nothing() as client:
        _write(out, info)  # once the scheduler answers: a refused run leaves no record
        info["compile_seconds"] = (old or {}).get("compile_seconds", 0.0) + _compile(
            module, prepared, request["seed"], progress)
        t0 = time.perf_counter()  # the run's seconds: play, not compiling
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=chunks.games if upto is None else min(upto, chunks.games),
                       initial=done_games, unit="game", unit_scale=True,
                       desc=f"{request['game']} {players}p")
        try:
            pieces = _pieces(module.__name__, prepared, request["seed"], todo, backend,
                             threads, workers, client, address is None)
            for i, played, table in _assembled(pieces, chunks):
                if bar is not None:
                    bar.update(played)
                if table is None:  # a piece: the chunk is not whole yet
                    continue
                _, start, games = chunks[i]
                _write_chunk(with_record(table, info, i, start, games), part(out, i))
                if info["schema"] is None:  # the run's columns, as a chunk file holds them
                    info["schema"] = schema_of(pq.read_schema(part(out, i)))
                info["chunks_done"] += 1
                info["games_done"] += games
                _write(out, info)
        finally:
            # An interruption can fall between a chunk's rename and the count's update: on
            # the way out, run.json counts the chunk files that are really there.
            now = damaged(out, info)[0]
            info["chunks_done"] = len(now)
            info["games_done"] = sum(chunks[i][2] for i in now)
            info["seconds"] = round(info["seconds"] + time.perf_counter() - t0, 3)
            _write(out, info, quiet=True)
            if bar is not None:
                bar.close()
    info["status"] = "complete" if info["chunks_done"] == chunks.count else "partial"
    _write(out, info)
    return {**info, "games_now": info["games_done"] - done_games}


FULL = ("finished chunks are kept; free some space and rerun the same command to go on")


def _compile(module, prepared, seed: int, progress: bool) -> float:
    """Compile this engine's kernels (or load them) with one game in this process, before
    the run's clock starts and before any worker starts (the workers then load them from
    the cache). Says so when it compiles; returns the seconds it took when it did."""
    bots = getattr(prepared, "bots", None)  # the compiled bots (a toy engine may have none)
    searching = search_switch(bots) if bots is not None else None
    if compiled(module.__name__, searching):
        return 0.0
    if progress:
        took = getattr(module, "COMPILE_SECONDS", {}).get("search" if searching else "plain")
        kind = "with a search bot" if searching else "without a search bot"
        sys.stderr.write(f"playtest: compiling the {module.__name__.split('.')[-1]} kernels "
                         f"for line-ups {kind}, once per engine version"
                         + (f", about {took} s (on 2 cores)" if took else "") + "\n")
    t0 = time.perf_counter()
    module.play_chunk(prepared, seed, 0, 1)
    return round(time.perf_counter() - t0, 6)


def _write_chunk(table: pa.Table, path: Path) -> None:
    """A chunk file, written under a temporary name and renamed: a file that exists was
    complete when written. A full disk (or any write error) is one line."""
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.parquet.tmp")
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise PlaytestError(f"cannot write {path}: {e.strerror or e}; {FULL}") from None


def _write(out: Path, info: dict, quiet: bool = False) -> None:
    """run.json; on the way out of an interrupted run (``quiet``) a failure to write it is
    left to the first error, which says what happened."""
    try:
        write_info(out, info)
    except OSError as e:
        if not quiet:
            raise PlaytestError(f"cannot write {out / 'run.json'}: {e.strerror or e}; "
                                f"{FULL}") from None


@contextmanager
def _nothing():
    yield None


def with_mode(game: str, sets: dict | None, mode: str | None, flag: str = "mode") -> dict:
    """``sets`` with the game's mode (its side, for The Magnificent) among the overrides: a
    game with modes reads it from the same dict, so it is recorded, hashed and replayed as
    an override is. A mode for a game without modes is refused naming ``flag``."""
    sets = dict(rule_sets("sets", sets) or {})
    if mode is not None:
        module = game_module(game)
        if not hasattr(module, "MODES"):
            raise ParameterError(flag, f"is for a game with modes; {game} has none")
        if not isinstance(mode, str) or mode not in module.MODES:
            raise ParameterError(flag, f"{mode!r} is not a mode of {game} (its modes: "
                                 f"{', '.join(module.MODES)})")
        if "mode" in sets and sets["mode"] != mode:
            raise ParameterError(flag, f"{mode!r} contradicts sets['mode'] = {sets['mode']!r}")
        sets["mode"] = mode
    return sets


def with_mode_or_side(game: str, sets: dict | None, mode: str | None, side: str | None
                      ) -> dict | None:
    """``with_mode`` for the Python API's ``mode=`` or ``side=`` (the same thing; one of
    them); ``sets`` unchanged when neither is given."""
    if mode is not None and side is not None:
        raise ParameterError("side", "and mode= name the same thing: give one")
    if mode is None and side is None:
        return sets
    return with_mode(game, sets, mode if side is None else side,
                     "mode" if side is None else "side")


def simulate_frame(game: str, games: int, players: int, bots: list[str] | None, seed: int,
                   start: int = 0, chunk_size: int | None = None, rotate: bool = True,
                   data: str | None = None, threads: int | None = None,
                   sets: dict | None = None) -> pd.DataFrame:
    """Simulate in memory (no run folder) and return the results table."""
    module = game_module(game)
    data, sets = path("data", data), rule_sets("sets", sets)
    chunks = check_request(games, seed, chunk_size, threads, players=players, rotate=rotate)
    whole("start", start, 0, MAX_GAMES)
    bots = resolve_bots(game, bots, players)
    try:  # in memory, the whole table must fit
        chunk_fits(chunks.games, getattr(module, "BYTES_PER_GAME", 0) or 1)
    except ParameterError:
        raise ParameterError("games", f"{chunks.games:,} do not fit in memory; give out= (a run "
                             "folder) to stream them to disk") from None
    prepared, meta = module.prepare(players, bots, data, rotate, sets=sets or None)
    tables = [_play(module.__name__, prepared, seed, start + s, n, threads)
              for _, s, n in chunks]
    df = pa.concat_tables(tables).to_pandas()
    df.attrs[ATTRS] = {"request": {"game": game, "games": games, "players": players,
                                   "bots": list(bots), "seed": seed, "start": start,
                                   "rotate": rotate, "sets": sets or {}}
                       | bot_record(game, bots), **meta}
    return df
