"""The compiled-kernel cache: a damaged file is removed and compiled again, in one line."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
KERNEL = """
from numba import njit


@njit(cache=True)
def twice(x):
    return 2 * x
"""
CALL = "import sim.core.kernel_cache; import kernel; print(kernel.twice(21))"


def _call(tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    return subprocess.run([sys.executable, "-c", CALL], capture_output=True, text=True,
                          env=env, cwd=tmp_path)


@pytest.mark.parametrize("damage", ["truncated data", "truncated index", "garbage data"])
def test_a_damaged_cache_file_is_compiled_again_and_said_once(tmp_path, damage):
    (tmp_path / "kernel.py").write_text(KERNEL)
    first = _call(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "42" and not first.stderr
    suffix = ".nbi" if damage == "truncated index" else ".nbc"
    cached = next((tmp_path / "cache").rglob(f"*{suffix}"))
    raw = cached.read_bytes()
    cached.write_bytes(b"\x80\x05garbage" if damage == "garbage data" else raw[: len(raw) // 3])
    second = _call(tmp_path)
    assert second.returncode == 0 and second.stdout.strip() == "42", second.stderr
    assert second.stderr.count("\n") == 1 and "damaged file in the compiled-kernel cache" \
        in second.stderr and "Traceback" not in second.stderr
    third = _call(tmp_path)  # cached afresh: nothing to say
    assert third.returncode == 0 and third.stdout.strip() == "42" and not third.stderr


def test_an_engine_function_compiles_once_whatever_constants_it_is_called_with():
    """numba would compile ``seat`` once per literal (``seat(0)``, ``seat(3)``): the project's
    calls pass constants as their type (kernel_cache._one_compile_per_type)."""
    from numba import njit

    from sim.dice_theme_park import state as S

    @njit
    def seats():
        return S.seat(0) + S.seat(3) + S.seat(np.int64(1))

    assert seats() == S.seat(0) + S.seat(3) + S.seat(1)
    assert S.seat.overloads and not any("Literal" in str(sig) for sig in S.seat.overloads)


def test_python_s_collector_is_off_while_a_kernel_compiles():
    """numba's compile makes millions of objects: the collector stays off while it runs
    (kernel_cache._compile_without_collector) and is on again after."""
    import gc

    from numba import njit

    runs = []

    def count(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    @njit
    def spread(x):
        total = 0.0
        for i in range(x.shape[0]):
            total += (x[i] - x.mean()) ** 2 if i % 3 else np.sqrt(abs(x[i]))
        return total

    gc.callbacks.append(count)
    try:
        assert spread(np.arange(5.0)) > 0
    finally:
        gc.callbacks.remove(count)
    assert runs == [] and gc.isenabled()
