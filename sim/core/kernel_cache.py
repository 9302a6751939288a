"""Where compiled kernels are cached: one folder per version of the engine sources.

numba's ``cache=True`` checks only the file of the function it compiles, not the files of
the functions it calls, so after an edit of rules.py the batch kernel in batch.py would load
a stale build. Keying the cache folder on a hash of every engine source file makes any edit
(or upgrade) compile afresh. A NUMBA_CACHE_DIR set by the user wins.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parents[2]


def engine_hash() -> str:
    h = hashlib.sha256()
    for package in ("sim", "strategies"):
        for path in sorted((ROOT / package).rglob("*.py")):
            h.update(path.relative_to(ROOT).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:12]


def configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "playtest"
    numba.config.CACHE_DIR = str(base / f"numba-{engine_hash()}")


configure()
