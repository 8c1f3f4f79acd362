"""Signals while macml has children at work (an install changing an environment, a verify workload):
SIGINT, SIGTERM and SIGHUP become an exception, so the children are stopped and a rollback runs instead
of Python dying half-way and leaving them behind; they are held off while that clean-up runs.

Handlers can only be set from the main thread; elsewhere (a library caller's worker thread)
the process's own handlers stay as they are.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Callable, Iterator

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(BaseException):
    """A signal arrived while children were at work (BaseException, like KeyboardInterrupt: no
    `except Exception` on the way swallows it)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


def exit_code(signum: int) -> int:
    """The shell's convention: 128 + the signal number (130 for Ctrl-C)."""
    return 128 + signum


@contextlib.contextmanager
def _handled(handler: Callable) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, handler) for signum in SIGNALS}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


def _raise(signum: int, frame) -> None:
    raise Interrupted(signum)


def raised() -> contextlib.AbstractContextManager:
    """Inside: each of SIGNALS raises Interrupted where the program is."""
    return _handled(_raise)


def held() -> contextlib.AbstractContextManager:
    """Inside: each of SIGNALS is ignored, so a second Ctrl-C cannot cut a rollback or a clean-up short."""
    return _handled(signal.SIG_IGN)


def signal_name(signum) -> "str | None":
    return signal.Signals(signum).name if signum else None
