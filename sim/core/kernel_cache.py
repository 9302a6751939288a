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

import copy
import functools
import gc
import hashlib
import os
import pickle
import sys
import threading
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


def _share_scope_copies() -> None:
    """Make numba's inliner copy a callee's scope once per copy of its IR, not once per block.

    ``InlineWorker.inline_ir`` deep-copies the callee's IR block by block, each block with a
    memo of its own, so every block drags a copy of the function's whole scope (every
    variable, and an inlined callee brings its callees' variables): quadratic in the size of
    what ``inline="always"`` puts together. In Dice Theme Park, inlining the operate moves
    took 20 of the first run's 100 seconds. Here the blocks of one copy share one copy of
    the scope, as the blocks of the original share the original; the inliner already
    treats the copies as one scope (it asserts there is one, by equality)."""
    from numba.core import inline_closurecall, ir

    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "shares_scopes", False):
        return
    inline_ir = worker.inline_ir
    local = threading.local()

    def deepcopy_scope(self, memo):
        shared = getattr(local, "scopes", None)
        if shared is not None and id(self) in shared:
            return shared[id(self)][1]
        out = ir.Scope.__new__(ir.Scope)
        memo[id(self)] = out
        out.__dict__.update(copy.deepcopy(self.__dict__, memo))
        if shared is not None:
            shared[id(self)] = (self, out)  # the original kept alive: its id stays its own
        return out

    def sharing_inline_ir(*args, **kwargs):
        outer = getattr(local, "scopes", None)
        local.scopes = {}
        try:
            return inline_ir(*args, **kwargs)
        finally:
            local.scopes = outer

    sharing_inline_ir.shares_scopes = True
    ir.Scope.__deepcopy__ = deepcopy_scope
    worker.inline_ir = sharing_inline_ir


def _one_compile_per_type() -> None:
    """Make a call between the project's compiled functions pass constants as their type, not
    as literal values. numba types a constant argument (``encode(T_ACT, a, 0, 0)``,
    ``seat(0)``) as a literal of its own value and compiles the callee once per value: Dice
    Theme Park's first run compiled 169 functions where 124 do (``moves.encode`` 12 times,
    ``step._rules`` twice, its skill moves three times), as much as a tenth of the first run.
    Nothing in the engines needs a literal argument (a function that did would fail to
    compile, not run differently); numba's own functions keep theirs."""
    from numba.core import types

    dispatcher = types.Dispatcher
    if getattr(dispatcher.get_call_type, "unliteral", False):
        return
    get_call_type = dispatcher.get_call_type

    def typed_call(self, context, args, kws):
        module = getattr(self.dispatcher.py_func, "__module__", None) or ""
        if module.split(".")[0] in PROJECT_PACKAGES:
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return get_call_type(self, context, args, kws)

    typed_call.unliteral = True
    dispatcher.get_call_type = typed_call


def _batch_kernels_cheap() -> None:
    """Give a batch kernel (``play_batch``) numba's cheap module passes only, not the full
    ones after them. numba links a callee's optimized code into its caller and optimizes the
    whole again, so the batch kernel's full passes went over the whole game, compiled and
    optimized as ``play_game`` just before, for a loop that calls it once per game: 1.5 to
    1.9 of Dice Theme Park's 45 seconds of first compile, for no measurable speed (the same
    4-player random games a second, within the noise). numba's own
    ``_optimize_final_module`` runs; its pass-manager factory gives level 0 where no level
    is asked for, which is the full passes' call (the cheap passes ask for numba's level).
    numba compiles one function at a time, under its lock."""
    from numba.core import codegen

    library = codegen.CPUCodeLibrary
    if getattr(library._optimize_final_module, "cheap_batch", False):
        return
    optimize = library._optimize_final_module

    def optimize_final_module(self):
        if self.name != BATCH_KERNEL:
            return optimize(self)
        factory = self._codegen._module_pass_manager
        self._codegen._module_pass_manager = functools.partial(factory, opt=0)
        try:
            return optimize(self)
        finally:
            del self._codegen._module_pass_manager

    optimize_final_module.cheap_batch = True
    library._optimize_final_module = optimize_final_module


def _compile_without_collector() -> None:
    """Turn Python's cyclic collector off while numba compiles for a call
    (``Dispatcher._compile_for_args``, which numba enters only when no compiled version fits
    the call; loading a cached kernel goes through it too). numba makes millions of objects
    as it compiles, and the collector scanned them again and again, with every object that
    pandas and pyarrow hold: a fifth of Dice Theme Park's first compile (45-47 s from the
    command line, 37-38 s without), for 0.3 GB more at the compile's peak. Whatever calls
    the kernel first (a run, a replay, the bench, a game driven from Python) gains."""
    from numba.core.dispatcher import Dispatcher

    if getattr(Dispatcher._compile_for_args, "without_collector", False):
        return
    compile_for_args = Dispatcher._compile_for_args

    def without_collector(self, *args, **kws):
        collecting = gc.isenabled()
        gc.disable()
        try:
            return compile_for_args(self, *args, **kws)
        finally:
            if collecting:  # a nested compile leaves it to the outer one
                gc.enable()

    without_collector.without_collector = True
    Dispatcher._compile_for_args = without_collector


PROJECT_PACKAGES = ("sim", "strategies", "reports")  # whose calls pass no literals
BATCH_KERNEL = "play_batch"  # every engine's batch kernel (sim/<game>/batch.py)
_forget_damaged_files()
_share_scope_copies()
_one_compile_per_type()
_batch_kernels_cheap()
_compile_without_collector()
configure()


def compiled(module: str, searching: bool | None = None) -> bool:
    """Whether the batch kernel of the engine ``module`` (``sim.festival``) is in the cache
    for this engine version (else its first call compiles), in the variant ``searching``
    asks for (strategies.selectors.search_switch): the kernel of a line-up without a search
    bot is the one whose signature has a None argument. numba keeps each source folder's
    files in a subfolder named after it, and an index of the signatures it holds per
    function."""
    folder = Path(numba.config.CACHE_DIR)
    name = module.rsplit(".", 1)[-1]
    for index in folder.glob(f"{name}_*/batch.{BATCH_KERNEL}-*.nbi"):
        try:
            with open(index, "rb") as f:
                pickle.load(f)  # numba's version
                _, overloads = pickle.loads(f.read())
        except Exception:  # a damaged index: numba compiles again, and so do we say
            continue
        if any(("none" in map(str, key[0])) == (searching is None) for key in overloads):
            return True
    return False
