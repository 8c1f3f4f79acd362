"""Progress on stderr, in one place: a spinner for a wait, a bar for work that counts up,
a line for a message. On a terminal they animate; otherwise each prints one plain line, so logs
and CI show the step that is running. `--json` (or any caller) makes them silent once, with
`set_quiet`, and nobody passes `quiet` around.
"""
from __future__ import annotations

import contextlib
import sys
from typing import Iterator, Optional

_state = {"quiet": False}


def set_quiet(quiet: bool) -> None:
    _state["quiet"] = quiet


def is_quiet() -> bool:
    return _state["quiet"]


def _console():
    from macml.report import console

    return console(stderr=True)


def _animated() -> bool:
    return sys.stderr.isatty()


def say(message: str) -> None:
    """One line of progress (text printed literally, never as markup)."""
    if not is_quiet():
        _console().print(message, markup=False)


@contextlib.contextmanager
def status(message: str) -> Iterator[None]:
    """A spinner while the block runs (one plain line where stderr is not a terminal)."""
    if is_quiet():
        yield
        return
    if not _animated():
        say(message)
        yield
        return
    from rich.text import Text

    with _console().status(Text(message)):
        yield


class Bar:
    """A bar from 0 to 1 with a changing description; `update` is safe to call when silent."""

    def __init__(self, title: str):
        self._bar = None
        self._last_line: Optional[str] = None
        if is_quiet():
            return
        if _animated():
            from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self._bar = Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), BarColumn(),
                                 TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                                 console=_console(), transient=True)
            self._task = self._bar.add_task(f"{title}: starting", total=100)
        self._title = title

    def __enter__(self) -> "Bar":
        if self._bar:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar:
            self._bar.stop()

    def update(self, description: str, done: float) -> None:
        """done: 0..1 of the current phase. Without a terminal, a line per new phase."""
        if is_quiet():
            return
        if self._bar:
            self._bar.update(self._task, description=description, completed=100 * done)
        elif description != self._last_line:
            self._last_line = description
            say(f"{self._title}: {description}")
