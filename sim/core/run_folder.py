"""A run folder, read and verified: ``run.json`` and the chunk files in ``data/``.

``run.json`` records the request, the engine that plays it (a hash of the engine sources),
the columns of the results table and how far the run got. Each chunk file
``data/part-NNNNN.parquet`` carries a record of its own in its parquet metadata: the hash of
the request that played it, the engine, and which games it holds. A chunk is sound when its
footer reads, its record names this run, this chunk's games and the run's engine, and it
holds the run's columns with exactly games x players rows. ``report`` (through ``verify``)
and a rerun of ``simulate`` (which replays what is not sound) use the same test, so a rerun
repairs exactly what ``report`` names.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core.errors import PlaytestError

RECORD = b"playtest"  # the key of a chunk's record in its parquet metadata
MAX_INFO_BYTES = 2**24  # a run.json is a few kB: larger, it is something else


LOCK = ".lock"  # a folder's lock file: every command that writes a folder holds it


@contextmanager
def folder_lock(out: Path, command: str) -> Iterator[None]:
    """One writer per output folder (``out``, made if needed): a second is refused in one
    line naming ``command``. The system releases the lock when its process ends, even by
    SIGKILL, so a killed run never leaves its folder locked."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd = os.open(out / LOCK, os.O_CREAT | os.O_RDWR, 0o644)
    except OSError as e:
        raise PlaytestError(f"cannot lock {out / LOCK}: {e.strerror or e}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise PlaytestError(f"{out} is being written by another {command}; wait for it or "
                            "choose another --out") from None
    try:
        yield
    finally:
        os.close(fd)


def _rerun(info: dict) -> str:
    """The command that goes on with a run: the simulate that made it, or the compare or
    tournament whose arm or table it is."""
    return f"rerun the same {info.get('command', 'simulate')} command"


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


def part(out: Path, i: int) -> Path:
    """Chunk i's file in run folder ``out``."""
    return out / "data" / f"part-{i:05d}.parquet"


def request_hash(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()[:16]


def schema_of(schema: pa.Schema) -> list[list[str]]:
    """A results table's columns as run.json records them: [name, type] each."""
    return [[f.name, str(f.type)] for f in schema]


def with_record(table: pa.Table, info: dict, i: int, start: int, games: int) -> pa.Table:
    """``table`` with chunk i's record in its metadata (what ties the file to its run)."""
    record = {"request": request_hash(info["request"]), "engine": info["engine"], "chunk": i,
              "start": start, "games": games}
    return table.replace_schema_metadata({**(table.schema.metadata or {}),
                                          RECORD: json.dumps(record).encode()})


def write_info(out: Path, info: dict) -> None:
    """run.json, written through a temporary name (a reader never sees half of it)."""
    tmp = out / f".run.json.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(info, indent=2) + "\n")
    os.replace(tmp, out / "run.json")


_REQUEST = {"game": str, "games": int, "players": int, "bots": list, "seed": int,
            "rotate": bool, "chunk_size": int, "data_hash": str}


def read_info(out: str | Path) -> dict:
    """run.json of the run folder ``out``, refused in one line when it does not describe a
    run this version can check (its request, engine and chunk count)."""
    path = Path(out) / "run.json"
    if not path.exists() and not path.is_symlink():
        raise PlaytestError(f"{out} is not a run folder (no run.json)")
    if not path.is_file() or path.stat().st_size > MAX_INFO_BYTES:
        raise PlaytestError(f"{path} does not describe a run (not a run.json file); choose "
                            "another --out, or remove the folder")
    try:
        info = json.loads(path.read_text())
    except FileNotFoundError:
        raise PlaytestError(f"{out} is not a run folder (no run.json)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PlaytestError(f"cannot read {path}: {e}") from None
    request = info.get("request") if isinstance(info, dict) else None
    if not isinstance(request, dict) or any(
            not isinstance(request.get(k), t) or (t is int and isinstance(request.get(k), bool))
            for k, t in _REQUEST.items()) or request["games"] < 1 or request["chunk_size"] < 1 \
            or request["players"] < 1:
        raise PlaytestError(f"{path} does not describe a run (it has no valid request); "
                            "choose another --out, or remove the folder")
    if not isinstance(info.get("engine"), str):
        raise PlaytestError(f"{out} was written by an earlier playtest, whose chunk files "
                            "cannot be checked; play it again into another --out")
    return info


def chunks_of(info: dict) -> Chunks:
    req = info["request"]
    return Chunks(req["games"], req["chunk_size"])


def chunk_problem(path: Path, info: dict, i: int) -> str | None:
    """Why chunk i's file is not sound for the run of ``info``, or None."""
    chunks = chunks_of(info)
    if i >= chunks.count:
        return "not part of this run"
    _, start, games = chunks[i]
    if path.is_symlink() or not path.is_file():
        return "not a chunk file"
    try:
        meta = pq.read_metadata(path)
        schema = meta.schema.to_arrow_schema()
    except (OSError, pa.ArrowException) as e:
        return f"unreadable: {str(e).splitlines()[0]}"
    try:
        record = json.loads((schema.metadata or {}).get(RECORD, b"null"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        record = None
    if not isinstance(record, dict) or record.get("request") != request_hash(info["request"]):
        return "from another run"
    if (record.get("chunk"), record.get("start"), record.get("games")) != (i, start, games):
        return (f"holds the games of chunk {record.get('chunk')}, not games {start:,} to "
                f"{start + games - 1:,}")
    if record.get("engine") != info["engine"]:
        return f"played by another engine ({record.get('engine')}, the run's {info['engine']})"
    if info.get("schema") is not None and schema_of(schema) != info["schema"]:
        return "its columns differ from the run's"
    want = games * info["request"]["players"]
    if meta.num_rows != want:
        return f"{meta.num_rows:,} rows, {want:,} expected"
    return None


def damaged(out: Path, info: dict) -> tuple[set[int], dict[Path, str]]:
    """(numbers of the sound chunk files, {file that is not sound: why}) of run folder
    ``out``."""
    sound, bad = set(), {}
    parts = out / "data"
    if not parts.is_dir():
        return sound, bad
    for path in parts.glob("part-*.parquet"):
        try:
            i = int(path.name.removeprefix("part-").removesuffix(".parquet"))
        except ValueError:
            continue
        why = chunk_problem(path, info, i)
        if why is None:
            sound.add(i)
        else:
            bad[path] = why
    return sound, bad


def remove(path: Path) -> None:
    """A chunk file that is not sound, gone (a folder or link in its place too)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def verify(out: str | Path) -> dict:
    """run.json of a complete run whose chunk files are all there and sound, else one line
    naming what is missing or damaged."""
    out = Path(out)
    info = read_info(out)
    chunks = chunks_of(info)
    if info.get("status") != "complete":
        if info.get("command") == "compare":
            raise PlaytestError(f"{out} is an arm of a comparison, played only as far as its "
                                f"test needed ({info.get('chunks_done')} of {chunks.count} "
                                f"chunks): its report is compare.html beside it")
        raise PlaytestError(f"{out} is incomplete ({info.get('chunks_done')} of "
                            f"{chunks.count} chunks); {_rerun(info)} to finish it")
    if (out / "data").exists() and not (out / "data").is_dir():
        raise PlaytestError(f"{out}/data is not a folder; {_rerun(info)} to repair it")
    sound, bad = damaged(out, info)
    missing = [i for i in range(chunks.count) if i not in sound and part(out, i) not in bad]
    if missing or bad:
        listed = [f"{p.name} ({why})" for p, why in sorted(bad.items())] + [
            f"{part(out, i).name} (missing)" for i in missing]
        more = f" and {len(listed) - 5} more" if len(listed) > 5 else ""
        raise PlaytestError(f"{out} has damaged or missing chunk files: "
                            f"{', '.join(listed[:5])}{more}; {_rerun(info)} to repair them")
    return info


ATTRS = "playtest"  # df.attrs[ATTRS]: the run record of a results table (its game, request)


def load_results(out: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """The results table of a complete, verified run folder, in game and seat order; its
    ``attrs["playtest"]`` holds run.json, so that ``analyse(df)`` knows the game."""
    info = verify(out)
    files = [part(Path(out), i) for i in range(chunks_of(info).count)]
    try:
        table = pa.concat_tables([pq.read_table(f, columns=columns) for f in files])
    except (OSError, pa.ArrowException) as e:
        raise PlaytestError(f"cannot read the results of {out}: {str(e).splitlines()[0]}; "
                            f"{_rerun(info)} to repair them") from None
    # split_blocks and self_destruct free each Arrow column once converted: the peak stays
    # near one copy of the table instead of two
    df = table.to_pandas(split_blocks=True, self_destruct=True)
    del table
    df.attrs[ATTRS] = info
    req = info["request"]
    if "game_index" in df.columns:  # the rows are what the chunks' records say
        g = df["game_index"].to_numpy()
        if len(g) != req["games"] * req["players"] or (len(g) and (
                g[0] != 0 or g[-1] != req["games"] - 1 or (g[1:] < g[:-1]).any())):
            raise PlaytestError(f"{out}: the rows are not games 0..{req['games'] - 1} in "
                                f"order; {_rerun(info)} to repair them")
    return df


def read_chunk(out: str | Path, i: int, columns: list[str] | None = None) -> pa.Table | None:
    """Chunk i of a run folder, or None when its file is missing or not sound (a sequential
    comparison reads each chunk of its arms once, as it is played)."""
    out = Path(out)
    try:
        info = read_info(out)
    except PlaytestError:
        return None
    path = part(out, i)
    if not path.exists() or chunk_problem(path, info, i) is not None:
        return None
    try:
        return pq.read_table(path, columns=columns)
    except (OSError, pa.ArrowException):
        return None
