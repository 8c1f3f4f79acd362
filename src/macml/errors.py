"""How a command stops early: the one user-facing error type (caught once in the CLI, printed without
a traceback), and signals while macml has children at work (an install changing an environment, a
verify workload): SIGINT, SIGTERM and SIGHUP become an exception, so the children are stopped and a
rollback runs instead of Python dying half-way and leaving them behind; they are held off while that
clean-up runs. Handlers can only be set from the main thread; elsewhere (a library caller's worker
thread) the process's own handlers stay as they are."""
import contextlib
import math
import signal
import threading
from typing import Callable, Iterator

MOST_SECONDS = 7 * 24 * 3600.0  # the longest a time option may ask for (a week)
MOST_COUNT = 10**9  # the most steps, epochs or processes an option may ask for


class MacmlError(Exception):
    """Something the user can fix; the message says what to do next."""

    def __init__(self, message: str, hint: str = "", exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message


def require_positive(option: str, value: float, most: float, unit: str = "number") -> None:
    """A numeric option is finite, above 0 and at most `most` (inf, nan and 1e300 would reach a timer
    or a loop that cannot take them); else a usage error naming the option."""
    if not (math.isfinite(value) and 0 < value <= most):
        raise MacmlError(f"{option} must be a positive {unit}, at most {most:g}, not {value:g}.")


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


def signal_exit_code(signum: int) -> int:
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


def signals_raised() -> contextlib.AbstractContextManager:
    """Inside: each of SIGNALS raises Interrupted where the program is."""
    return _handled(_raise)


def signals_held() -> contextlib.AbstractContextManager:
    """Inside: each of SIGNALS is ignored, so a second Ctrl-C cannot cut a rollback or a clean-up short."""
    return _handled(signal.SIG_IGN)


def signal_name(signum) -> "str | None":
    return signal.Signals(signum).name if signum else None
