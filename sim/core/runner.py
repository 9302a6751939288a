"""The batch runner: chunks of games on a backend, streamed to a parquet dataset.

A run folder holds ``run.json`` (what was asked, on which data, how far it got) and
``data/part-NNNNN.parquet``, one file per finished chunk, each written under a temporary
name and renamed, so a file that exists was complete when written. Rerunning the same
request in the same folder checks the chunk files that are there, replays any damaged one
and plays the missing ones; ``run.json`` says ``complete`` only at the end. One writer at a
time: a lock on ``.lock`` (released by the system when its process ends, even by SIGKILL).
Every game draws from its own stream (rng.py), so rows do not depend on the chunking, the
thread count or the backend.
"""

from __future__ import annotations

import fcntl
import importlib
import itertools
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core.checks import MAX_GAMES, MAX_SEED, chunk_fits, whole, writable_folder
from sim.core.errors import ParameterError, PlaytestError
from sim.core.kernel_cache import compiled
from sim.core.registry import game_module

BACKENDS = ("threads", "processes", "dask")
DEFAULT_CHUNK = 50_000
DASK_TIMEOUT = 8  # seconds to reach a dask scheduler: refused within 10 s in all


def _version() -> str:
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


class Chunks:
    """The chunks of a request, (number, first game, games), made on demand: a request of
    10^18 games holds nothing per game or per chunk until it is played."""

    def __init__(self, games: int, chunk_size: int):
        self.games, self.size = games, chunk_size
        self.count = -(-games // chunk_size)

    def __getitem__(self, i: int) -> tuple[int, int, int]:
        start = i * self.size
        return i, start, min(self.size, self.games - start)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        return (self[i] for i in range(self.count))


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


def _part(parts: Path, i: int) -> Path:
    return parts / f"part-{i:05d}.parquet"


def _part_number(path: Path) -> int:
    return int(path.name.removeprefix("part-").removesuffix(".parquet"))


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


def _results(module_name, prepared, seed, todo, backend, threads, workers, client
             ) -> Iterator[tuple[int, pa.Table]]:
    """(chunk number, table) for each chunk in ``todo``, as each finishes."""
    if backend == "threads":
        for i, start, n in todo:
            yield i, _play(module_name, prepared, seed, start, n, threads)
    elif backend == "processes":
        from joblib import Parallel, delayed

        # joblib dispatches a few chunks ahead of the results: tee keeps only those
        todo, numbers = itertools.tee(todo)
        jobs = Parallel(n_jobs=workers or os.cpu_count(), return_as="generator")(
            delayed(_play)(module_name, prepared, seed, start, n, 1) for _, start, n in todo
        )
        for (i, _, _), table in zip(numbers, jobs):
            yield i, table
    else:
        from dask.distributed import as_completed

        # a window of chunks in flight, refilled as each finishes: nothing per chunk of the
        # whole request is held at once
        window = 2 * max(1, len(client.scheduler_info().get("workers", {})))
        futures = {}
        for i, start, n in itertools.islice(todo, window):
            futures[client.submit(_play, module_name, prepared, seed, start, n, 1,
                                  pure=False)] = i
        pending = as_completed(list(futures))
        for future in pending:
            yield futures.pop(future), future.result()
            for i, start, n in itertools.islice(todo, 1):
                f = client.submit(_play, module_name, prepared, seed, start, n, 1, pure=False)
                futures[f] = i
                pending.add(f)


def _damaged(parts: Path, chunks: Chunks, players: int) -> tuple[set[int], dict[Path, str]]:
    """(numbers of the sound chunk files, {damaged file: why}). A file is sound when its
    parquet footer reads and it holds exactly games x players rows."""
    sound, damaged = set(), {}
    for path in parts.glob("part-*.parquet"):
        try:
            i = _part_number(path)
        except ValueError:
            continue
        if i >= chunks.count:
            damaged[path] = "not part of this run"
            continue
        want = chunks[i][2] * players
        try:
            rows = pq.read_metadata(path).num_rows
        except (OSError, pa.ArrowException) as e:
            damaged[path] = f"unreadable: {str(e).splitlines()[0]}"
            continue
        if rows != want:
            damaged[path] = f"{rows:,} rows, {want:,} expected"
        else:
            sound.add(i)
    return sound, damaged


@contextmanager
def _lock(out: Path):
    """One writer per run folder: a second is refused in one line."""
    fd = os.open(out / ".lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise PlaytestError(f"{out} is being written by another simulate; wait for it or "
                            "choose another --out") from None
    try:
        yield
    finally:
        os.close(fd)


def _differences(old: dict, new: dict) -> str:
    keys = [k for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k)]
    return "; ".join(f"{k} {old.get(k)!r} there, {new.get(k)!r} now" for k in keys)


def run(game: str, games: int, players: int, bots: list[str] | None, seed: int,
        out: str | Path,
        backend: str = "threads", chunk_size: int | None = None, threads: int | None = None,
        workers: int | None = None, address: str | None = None, rotate: bool = True,
        data: str | None = None, progress: bool = True, sets: dict | None = None,
        upto: int | None = None) -> dict:
    """Simulate into the run folder ``out``; returns the final run.json content, with
    ``games_now`` (games played by this call) beside the totals. ``sets`` overrides rule
    values of the game's rules.toml. ``upto`` plays only the chunks that start before game
    ``upto`` (a sequential comparison grows its arms chunk by chunk); the run stays
    ``partial`` until every chunk is there."""
    module = game_module(game)
    if backend not in BACKENDS:
        raise ParameterError("backend", f"'{backend}' is unknown (available: "
                             f"{', '.join(BACKENDS)})")
    parallel = 1 if backend == "threads" else (workers or os.cpu_count() or 1)
    chunks = check_request(games, seed, chunk_size, threads, workers,
                           getattr(module, "BYTES_PER_GAME", 0), parallel, players, rotate)
    bots = resolve_bots(game, bots, players)
    prepared, meta = module.prepare(players, bots, data, rotate, sets=sets or None)
    request = {"game": game, "games": chunks.games, "players": players, "bots": list(bots),
               "seed": seed, "rotate": rotate, "chunk_size": chunks.size,
               "data_hash": meta["data_hash"]} | ({"sets": sets} if sets else {})
    out = Path(out)
    writable_folder(out)
    info_path = out / "run.json"
    old = None
    if info_path.exists():
        old = read_info(out)
        if old.get("request") != request:
            changed = _differences(old.get("request", {}), request)
            raise PlaytestError(f"{out} holds a different run ({changed}); choose another "
                                "--out")
    elif out.exists() and any(p.name != ".lock" for p in out.iterdir()):
        raise PlaytestError(f"{out} exists and is not a run folder; choose another --out")
    try:
        (out / "data").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlaytestError(f"cannot write to {out}: {e.strerror}") from None
    with _lock(out):
        return _run_locked(module, prepared, meta, request, chunks, out, old, backend,
                           threads, workers, address, progress, upto)


def _run_locked(module, prepared, meta, request, chunks, out, old, backend, threads, workers,
                address, progress, upto) -> dict:
    parts = out / "data"
    players = request["players"]
    sound, damaged = _damaged(parts, chunks, players)
    wanted = chunks.count if upto is None else min(chunks.count, -(-upto // chunks.size))
    if old is not None and not damaged and all(i in sound for i in range(wanted)) and (
            old.get("status") == "complete" or upto is not None):
        return {**old, "games_now": 0}
    for path in damaged:  # replayed below, like a missing chunk
        path.unlink()
    todo = (chunks[i] for i in range(wanted) if i not in sound)
    done_games = sum(chunks[i][2] for i in sound)
    # The game's own metadata (data folder, names of its cards...) goes in as it comes.
    info = {"request": request, "status": "running", "chunks": chunks.count,
            "chunks_done": len(sound), "games_done": done_games, "backend": backend,
            "version": _version(), "started": (old or {}).get("started")
            or time.strftime("%Y-%m-%dT%H:%M:%S"),
            "seconds": (old or {}).get("seconds", 0.0), **meta}
    bar = None
    t0 = time.perf_counter()
    with _dask_client(address, workers) if backend == "dask" else _nothing() as client:
        _write_info(out, info)
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=chunks.games if upto is None else min(upto, chunks.games),
                       initial=done_games, unit="game", unit_scale=True,
                       desc=f"{request['game']} {players}p")
        if progress and not compiled():
            took = getattr(module, "COMPILE_SECONDS", None)
            sys.stderr.write("playtest: compiling the kernels, once per engine version"
                             + (f", about {took} s" if took else "") + "\n")
        try:
            for i, table in _results(module.__name__, prepared, request["seed"], todo,
                                     backend, threads, workers, client):
                tmp = parts / f".part-{i:05d}.{os.getpid()}.parquet.tmp"
                pq.write_table(table, tmp)
                os.replace(tmp, _part(parts, i))
                info["chunks_done"] += 1
                info["games_done"] += table.num_rows // players
                _write_info(out, info)
                if bar is not None:
                    bar.update(table.num_rows // players)
        finally:
            # An interruption can fall between a chunk's rename and the count's update: on
            # the way out, run.json counts the chunk files that are really there.
            now = _damaged(parts, chunks, players)[0]
            info["chunks_done"] = len(now)
            info["games_done"] = sum(chunks[i][2] for i in now)
            info["seconds"] = round(info["seconds"] + time.perf_counter() - t0, 3)
            _write_info(out, info)
            if bar is not None:
                bar.close()
    info["status"] = "complete" if info["chunks_done"] == chunks.count else "partial"
    _write_info(out, info)
    return {**info, "games_now": info["games_done"] - done_games}


@contextmanager
def _nothing():
    yield None


def _write_info(out: Path, info: dict) -> None:
    tmp = out / f".run.json.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(info, indent=2) + "\n")
    os.replace(tmp, out / "run.json")


def read_info(out: str | Path) -> dict:
    path = Path(out) / "run.json"
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise PlaytestError(f"{out} is not a run folder (no run.json)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PlaytestError(f"cannot read {path}: {e}") from None


def verify(out: str | Path) -> dict:
    """run.json of a complete run whose chunk files are all there and sound, else one line
    naming what is missing or damaged."""
    info = read_info(out)
    req = info.get("request", {})
    try:
        chunks = Chunks(req["games"], req["chunk_size"])
        players = req["players"]
    except (KeyError, TypeError, ZeroDivisionError):
        raise PlaytestError(f"{out}/run.json does not describe a run") from None
    redo = "rerun the same simulate command to finish it"
    if info.get("status") != "complete":
        raise PlaytestError(f"{out} is incomplete ({info.get('chunks_done')} of "
                            f"{info.get('chunks')} chunks); {redo}")
    parts = Path(out) / "data"
    sound, damaged = _damaged(parts, chunks, players)
    missing = [i for i in range(chunks.count) if i not in sound and _part(parts, i) not in damaged]
    if missing or damaged:
        listed = [f"{p.name} ({why})" for p, why in damaged.items()] + [
            f"{_part(parts, i).name} (missing)" for i in missing]
        more = f" and {len(listed) - 5} more" if len(listed) > 5 else ""
        raise PlaytestError(f"{out} has damaged or missing chunk files: "
                            f"{', '.join(listed[:5])}{more}; rerun the same simulate command "
                            "to repair them")
    return info


def load_results(out: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """The results table of a complete, verified run folder, in game and seat order."""
    info = verify(out)
    req = info["request"]
    files = [_part(Path(out) / "data", i) for i in range(Chunks(req["games"],
                                                                req["chunk_size"]).count)]
    try:
        table = pa.concat_tables([pq.read_table(f, columns=columns) for f in files])
    except (OSError, pa.ArrowException) as e:
        raise PlaytestError(f"cannot read the results of {out}: {str(e).splitlines()[0]}; "
                            "rerun the same simulate command to repair them") from None
    # split_blocks and self_destruct free each Arrow column once converted: the peak stays
    # near one copy of the table instead of two
    df = table.to_pandas(split_blocks=True, self_destruct=True)
    del table
    if "game_index" in df.columns:
        g = df["game_index"].to_numpy()
        if len(g) != req["games"] * req["players"] or (len(g) and (
                g[0] != 0 or g[-1] != req["games"] - 1 or (g[1:] < g[:-1]).any())):
            raise PlaytestError(f"{out}: the rows are not games 0..{req['games'] - 1} in "
                                "order; rerun the same simulate command to repair them")
    return df


def simulate_frame(game: str, games: int, players: int, bots: list[str] | None, seed: int,
                   start: int = 0, chunk_size: int | None = None, rotate: bool = True,
                   data: str | None = None, threads: int | None = None,
                   sets: dict | None = None) -> pd.DataFrame:
    """Simulate in memory (no run folder) and return the results table."""
    module = game_module(game)
    chunks = check_request(games, seed, chunk_size, threads, players=players, rotate=rotate)
    whole("start", start, 0, MAX_GAMES)
    bots = resolve_bots(game, bots, players)
    try:  # in memory, the whole table must fit
        chunk_fits(chunks.games, getattr(module, "BYTES_PER_GAME", 0) or 1)
    except ParameterError:
        raise ParameterError("games", f"{chunks.games:,} do not fit in memory; give out= (a run "
                             "folder) to stream them to disk") from None
    prepared, _ = module.prepare(players, bots, data, rotate, sets=sets or None)
    tables = [_play(module.__name__, prepared, seed, start + s, n, threads)
              for _, s, n in chunks]
    return pa.concat_tables(tables).to_pandas()


def read_chunk(out: str | Path, i: int, columns: list[str] | None = None) -> pa.Table | None:
    """Chunk ``i`` of a run folder, or None when its file is missing or not sound (a
    sequential comparison reads each chunk of its arms once, as it is played)."""
    req = read_info(out).get("request", {})
    try:
        want = Chunks(req["games"], req["chunk_size"])[i][2] * req["players"]
        table = pq.read_table(_part(Path(out) / "data", i), columns=columns)
    except (KeyError, TypeError, ZeroDivisionError, OSError, pa.ArrowException):
        return None
    return table if table.num_rows == want else None
