"""A pytest plugin (loaded by conftest.py): the user's Ctrl-C stops the suite.

Tests run the CLI in-process (``main([...])``), and ``main`` takes a KeyboardInterrupt as a
user's, printing what it kept and returning 130: a Ctrl-C meant for the suite was then read
as one test's failure (``assert 130 == 0``) and the suite went on. A SIGINT that reaches the
suite's process is marked here, and once the test it fell in returns, the suite stops as
pytest stops on Ctrl-C. Tests that raise KeyboardInterrupt themselves (to simulate one) send
no signal and are not affected.
"""

from __future__ import annotations

import signal
import threading

import pytest

_SIGINT = threading.Event()


def pytest_configure(config) -> None:
    previous = signal.getsignal(signal.SIGINT)

    def on_sigint(signum, frame):
        _SIGINT.set()
        if callable(previous):
            previous(signum, frame)  # Python's own: raises KeyboardInterrupt
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    try:
        return (yield)
    finally:
        if _SIGINT.is_set():
            raise KeyboardInterrupt  # whatever the test made of it: the suite stops
