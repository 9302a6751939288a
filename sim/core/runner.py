"""The batch runner: chunks of games on a backend, streamed to a parquet dataset.

A run folder holds ``run.json`` (what was asked, on which data, how far it got) and
``data/part-NNNNN.parquet``, one file per finished chunk, each written under a temporary
name and renamed, so a file that exists is complete. Rerunning the same request in the
same folder plays only the missing chunks; ``run.json`` says ``complete`` only at the end.
Every game draws from its own stream (rng.py), so rows do not depend on the chunking, the
thread count or the backend.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core.errors import PlaytestError
from sim.core.registry import game_module

BACKENDS = ("threads", "processes", "dask")
DEFAULT_CHUNK = 50_000


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("playtest")
    except Exception:  # not installed: running from a checkout
        return "unknown"


def seat_bots(bots: str | list[str], players: int) -> list[str]:
    """One bot per seat: a single name (or a list of one) plays every seat."""
    names = [bots] if isinstance(bots, str) else list(bots)
    return names * players if len(names) == 1 else names


def _chunks(games: int, seed: int, chunk_size: int | None) -> list[tuple[int, int, int]]:
    """(chunk number, first game, games) of a request, after checking its numbers."""
    if games <= 0:
        raise PlaytestError(f"--games must be positive, got {games}")
    if seed < 0:
        raise PlaytestError(f"--seed must be zero or positive, got {seed}")
    chunk_size = chunk_size or min(games, DEFAULT_CHUNK)
    if chunk_size <= 0:
        raise PlaytestError(f"--chunk-size must be positive, got {chunk_size}")
    return [(i, s, min(chunk_size, games - s)) for i, s in enumerate(range(0, games, chunk_size))]


def _part(parts: Path, i: int) -> Path:
    return parts / f"part-{i:05d}.parquet"


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


def _results(module_name, prepared, seed, todo, backend, threads, workers, address
             ) -> Iterator[tuple[int, pa.Table]]:
    """(chunk number, table) for each chunk in ``todo``, as each finishes."""
    if backend == "threads":
        for i, start, n in todo:
            yield i, _play(module_name, prepared, seed, start, n, threads)
    elif backend == "processes":
        from joblib import Parallel, delayed

        jobs = Parallel(n_jobs=workers or os.cpu_count(), return_as="generator")(
            delayed(_play)(module_name, prepared, seed, start, n, 1) for _, start, n in todo
        )
        for (i, _, _), table in zip(todo, jobs):
            yield i, table
    else:
        from dask.distributed import Client, LocalCluster, as_completed

        cluster = None
        if address is None:
            cluster = LocalCluster(n_workers=workers or os.cpu_count(), threads_per_worker=1,
                                   processes=True, dashboard_address=None)
        client = Client(address or cluster)
        try:
            futures = {client.submit(_play, module_name, prepared, seed, start, n, 1, pure=False): i
                       for i, start, n in todo}
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def run(game: str, games: int, players: int, bots: list[str], seed: int, out: str | Path,
        backend: str = "threads", chunk_size: int | None = None, threads: int | None = None,
        workers: int | None = None, address: str | None = None, rotate: bool = True,
        data: str | None = None, progress: bool = True) -> dict:
    """Simulate into the run folder ``out``; returns the final run.json content."""
    module = game_module(game)
    chunks = _chunks(games, seed, chunk_size)
    if backend not in BACKENDS:
        raise PlaytestError(f"unknown backend '{backend}' (available: {', '.join(BACKENDS)})")
    prepared, meta = module.prepare(players, bots, data, rotate)
    request = {"game": game, "games": games, "players": players, "bots": list(bots),
               "seed": seed, "rotate": rotate, "chunk_size": chunks[0][2],
               "data_hash": meta["data_hash"]}
    out = Path(out)
    parts = out / "data"
    info_path = out / "run.json"
    if info_path.exists():
        old = read_info(out)
        if old.get("request") != request:
            raise PlaytestError(f"{out} holds a different run; choose another --out")
    elif out.exists() and any(out.iterdir()):
        raise PlaytestError(f"{out} exists and is not a run folder; choose another --out")
    parts.mkdir(parents=True, exist_ok=True)
    todo = [c for c in chunks if not _part(parts, c[0]).exists()]
    # The game's own metadata (data folder, names of its cards...) goes in as it comes.
    info = {"request": request, "status": "running", "chunks": len(chunks),
            "chunks_done": len(chunks) - len(todo), "backend": backend,
            "version": _version(), "started": time.strftime("%Y-%m-%dT%H:%M:%S"), **meta}
    _write_info(out, info)
    t0 = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, initial=games - sum(c[2] for c in todo), unit="game",
                   unit_scale=True, desc=f"{game} {players}p")
    try:
        for i, table in _results(module.__name__, prepared, seed, todo, backend, threads,
                                 workers, address):
            tmp = parts / f".part-{i:05d}.parquet.tmp"
            pq.write_table(table, tmp)
            os.replace(tmp, _part(parts, i))
            info["chunks_done"] += 1
            _write_info(out, info)
            if bar is not None:
                bar.update(table.num_rows // players)
    finally:
        # An interruption can fall between a chunk's rename and the count's update: on the
        # way out, run.json counts the chunk files that are really there.
        info["chunks_done"] = sum(_part(parts, c[0]).exists() for c in chunks)
        _write_info(out, info)
        if bar is not None:
            bar.close()
    info["status"] = "complete"
    info["seconds"] = round(time.perf_counter() - t0, 3)
    _write_info(out, info)
    return info


def _write_info(out: Path, info: dict) -> None:
    tmp = out / ".run.json.tmp"
    tmp.write_text(json.dumps(info, indent=2) + "\n")
    os.replace(tmp, out / "run.json")


def read_info(out: str | Path) -> dict:
    path = Path(out) / "run.json"
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise PlaytestError(f"{out} is not a run folder (no run.json)") from None
    except (OSError, json.JSONDecodeError) as e:
        raise PlaytestError(f"cannot read {path}: {e}") from None


def load_results(out: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """The results table of a complete run folder, in game and seat order."""
    info = read_info(out)
    if info.get("status") != "complete":
        raise PlaytestError(
            f"{out} is incomplete ({info.get('chunks_done')} of {info.get('chunks')} chunks); "
            "rerun the same simulate command to finish it"
        )
    files = sorted((Path(out) / "data").glob("part-*.parquet"),
                   key=lambda f: int(f.stem.removeprefix("part-")))
    if not files:
        raise PlaytestError(f"{out} holds no results")
    table = pa.concat_tables([pq.read_table(f, columns=columns) for f in files])
    # split_blocks and self_destruct free each Arrow column once converted: the peak stays
    # near one copy of the table instead of two
    df = table.to_pandas(split_blocks=True, self_destruct=True)
    del table
    # Chunks are written in game order, so this is a check more often than a sort.
    if "game_index" in df.columns and not df["game_index"].is_monotonic_increasing:
        df = df.sort_values(["game_index", "seat"], kind="stable").reset_index(drop=True)
    return df


def simulate_frame(game: str, games: int, players: int, bots: list[str], seed: int,
                   start: int = 0, chunk_size: int | None = None, rotate: bool = True,
                   data: str | None = None, threads: int | None = None) -> pd.DataFrame:
    """Simulate in memory (no run folder) and return the results table."""
    module = game_module(game)
    chunks = _chunks(games, seed, chunk_size)
    prepared, _ = module.prepare(players, bots, data, rotate)
    tables = [_play(module.__name__, prepared, seed, start + s, n, threads)
              for _, s, n in chunks]
    return pa.concat_tables(tables).to_pandas()
