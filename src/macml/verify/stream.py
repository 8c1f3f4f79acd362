"""Run a workload script and hand over its JSON-line events as they arrive.

The one place macml streams a subprocess (runner.run_command waits for the end, and a
training run must drive a progress bar while it runs). argv list, no shell, a deadline
after which the process is killed; stderr is kept (its tail) for error messages.
"""
from __future__ import annotations

import json
import subprocess
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from macml import errors
from macml.probe.runner import kill_tree, tie_options

Event = Dict[str, Any]


@dataclass(frozen=True)
class StreamResult:
    argv: Tuple[str, ...]
    returncode: Optional[int]  # None: could not start, or killed at the deadline
    events: Tuple[Event, ...]
    stderr_tail: str = ""
    timed_out: bool = False
    missing: bool = False


def parse_event(line: str) -> Optional[Event]:
    """One stdout line -> an event dict; anything else (a library's chatter) -> None."""
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("event"), str) else None


def _drain(stream, keep: List[str], limit: int = 200) -> None:
    for line in iter(stream.readline, ""):
        keep.append(line)
        del keep[:-limit]


def stream_events(argv: Sequence[str], timeout: float, on_event: Callable[[Event], None],
                  env: Optional[Dict[str, str]] = None,
                  on_start: Optional[Callable[[subprocess.Popen], None]] = None) -> StreamResult:
    """on_start: given the process as soon as it runs, its stdin a pipe (the workload's --gate reads
    "go" lines from it); without it, stdin is closed."""
    argv = tuple(str(a) for a in argv)
    expired = threading.Event()
    stderr_lines: List[str] = []
    events: List[Event] = []
    try:
        # Its own session: a Ctrl-C on the terminal reaches macml alone, which stops the whole tree.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE if on_start else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, encoding="utf-8", errors="replace", bufsize=1, env=env,
                                start_new_session=True, **tie_options())
    except OSError as exc:
        return StreamResult(argv, None, (), str(exc), missing=True)

    def kill_at_deadline() -> None:
        expired.set()
        kill_tree(proc, own_group=True)  # DataLoader workers or a framework's helpers would keep stdout open

    timer = threading.Timer(timeout, kill_at_deadline)
    timer.daemon = True  # a signal may land before the finally below; the deadline must not keep macml alive
    drainer = threading.Thread(target=_drain, args=(proc.stderr, stderr_lines), daemon=True)
    try:
        timer.start()
        drainer.start()
        if on_start:
            on_start(proc)
        for line in iter(proc.stdout.readline, ""):
            event = parse_event(line)
            if event is not None:
                events.append(event)
                on_event(event)
        proc.wait()
    finally:
        timer.cancel()
        with errors.signals_held():  # a signal (or an exception in on_event) ends the whole tree, never part of it
            kill_tree(proc, own_group=True)
            proc.wait()
        if drainer.ident is not None:  # started
            drainer.join(timeout=5)
    timed_out = expired.is_set()
    return StreamResult(argv, None if timed_out else proc.returncode, tuple(events),
                        "".join(stderr_lines[-40:]), timed_out=timed_out)


def show_progress(bar: Any, event: Event) -> None:
    """A workload's "phase" and "progress" events move the progress bar (a macml.progress.Bar)."""
    if event["event"] == "phase":
        bar.update(str(event.get("name")), 0.0)
    elif event["event"] == "progress":
        bar.update(str(event.get("phase")), float(event.get("done", 0)))
