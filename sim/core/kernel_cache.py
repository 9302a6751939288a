"""Where compiled kernels are cached: one folder per version of the engine sources.

numba's ``cache=True`` checks only the file of the function it compiles, not the files of
the functions it calls, so after an edit of rules.py the batch kernel in batch.py would load
a stale build. Keying the cache folder on a hash of every engine source file makes any edit
(or upgrade) compile afresh. A NUMBA_CACHE_DIR set by the user wins.

Only entry points, the compiled functions that Python calls (the batch kernel, play_game
for replays, ...), are cached; their helpers are plain ``@njit``. A helper loaded from the
cache is machine code that a kernel compiled after it can only call, not inline, and such a
call pushes every array argument as a dozen words: the same 4-player random batch ran at
68,000 or 112,000 games per second depending on which helpers happened to be cached first.
Compiled together, an entry point and its helpers give the same code every time, and the
entry point's cache holds it all.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

import numba
import numba.core.caching

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def engine_hash() -> str:
    """A hash of every engine source: the version of the engines (run folders record it)."""
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


def _forget_damaged_files() -> None:
    """Make numba treat a cache file it cannot load (truncated by a full disk or a killed
    write, say) as missing: the file and its index go, the kernel compiles again and is
    cached afresh, and one line says so. Without this every run failed on the same file
    with numba's UnpicklingError until someone found and deleted it."""
    cache = numba.core.caching.Cache
    if getattr(cache.load_overload, "forgets_damage", False):
        return
    load = cache.load_overload

    def load_overload(self, sig, target_context):
        try:
            return load(self, sig, target_context)
        except Exception as e:  # a file numba wrote but cannot read back
            index = Path(self._cache_file._index_path)
            for path in (index, *index.parent.glob(f"{index.stem}.*.nbc")):
                path.unlink(missing_ok=True)
            sys.stderr.write(f"playtest: a damaged file in the compiled-kernel cache was "
                             f"removed ({index.parent / index.stem}: {type(e).__name__}); "
                             "compiling it again\n")
            return None

    load_overload.forgets_damage = True
    cache.load_overload = load_overload


_forget_damaged_files()
configure()


def compiled(module: str) -> bool:
    """Whether the kernels of the engine ``module`` (``sim.festival``) are in the cache for
    this engine version (else its first call compiles). numba keeps each source folder's
    files in a subfolder named after it."""
    folder = Path(numba.config.CACHE_DIR)
    name = module.rsplit(".", 1)[-1]
    return folder.is_dir() and any(folder.glob(f"{name}_*/*.nbi"))
