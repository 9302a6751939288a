"""`playtest` in a child process, for the tests that interrupt or kill a run."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PLAYTEST = [sys.executable, "-m", "reports.cli"]


def _sigint_as_at_a_terminal() -> None:
    # A suite started as a background job (`cmd &` in a script, nohup) inherits SIGINT
    # ignored, and so would the child: Ctrl-C would never reach it and the run would go on.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args: list[str], **popen) -> subprocess.Popen:
    """Start `playtest ARGS` as a user would at a terminal."""
    return subprocess.Popen([*PLAYTEST, *args], preexec_fn=_sigint_as_at_a_terminal, **popen)


def run(args: list[str]) -> subprocess.CompletedProcess:
    """Run `playtest ARGS` to its end, its output captured as text."""
    return subprocess.run([*PLAYTEST, *args], capture_output=True, text=True)


def wait_until(proc: subprocess.Popen, ready, what: str, seconds: float = 600) -> None:
    """Wait until ``ready()`` (generous: a loaded machine compiles slowly); fail, and stop
    the child, if the child exits or the time runs out first."""
    end = time.time() + seconds
    while not ready():
        if proc.poll() is not None:
            stop(proc)
            pytest.fail(f"{what}: never, the child exited with code {proc.returncode}")
        if time.time() > end:
            stop(proc)
            pytest.fail(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.02)


def wait_for_chunk(proc: subprocess.Popen, out: Path) -> None:
    """Wait until the run in OUT has written a chunk."""
    wait_until(proc, lambda: any((out / "data").glob("part-*.parquet")), "a chunk written")


def interrupt(proc: subprocess.Popen, seconds: float = 600) -> str:
    """Press Ctrl-C in the child; return its stderr once it has exited."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=seconds)[1] or ""
    except subprocess.TimeoutExpired:
        stop(proc)
        pytest.fail(f"still running {seconds:.0f} s after Ctrl-C")


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, their children, ...), from /proc."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (a zombie is not)."""
    left = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            left.add(pid)
    return left


def stop(proc: subprocess.Popen) -> None:
    """Kill the child so that a failed test leaves nothing running."""
    proc.kill()
    proc.communicate()
