"""The one place macml starts a subprocess.

argv list, never a shell; always a timeout; a missing tool or a hang is a result, not
an exception. Output is decoded leniently (non-UTF-8 bytes never crash a parser).
"""
from __future__ import annotations

import subprocess
import threading
from dataclasses import dataclass
from typing import Dict, Mapping, Optional, Sequence

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class CommandResult:
    argv: tuple
    returncode: Optional[int]  # None: not run (missing tool) or killed on timeout
    stdout: str = ""
    stderr: str = ""
    missing: bool = False
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.missing and not self.timed_out

    def why_failed(self) -> str:
        """Why the command did not succeed, in a few words for a message ('is not available',
        'timed out', 'failed (exit 1: <the last line it printed>)'); '' when it did."""
        if self.ok:
            return ""
        if self.missing:
            return "is not available"
        if self.timed_out:
            return "timed out"
        lines = (self.stderr.strip() or self.stdout.strip()).splitlines()
        return f"failed (exit {self.returncode}: {lines[-1].strip()[:200] if lines else 'no message'})"

    @property
    def last_error_line(self) -> str:
        """The last line of stderr (where tracebacks and tools put the reason), for messages."""
        lines = self.stderr.strip().splitlines()
        return lines[-1] if lines else "no output"


def command_key(argv: Sequence[str]) -> str:
    return " ".join(argv)


def _decode(data: Optional[bytes]) -> str:
    if not data:
        return ""
    return data.decode("utf-8", errors="replace")


def kill_tree(proc: subprocess.Popen) -> None:
    """Kill a timed-out command and everything it started: a grandchild still holding the
    pipes open would otherwise keep us waiting for output forever."""
    import psutil

    try:
        children = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        children = []
    for child in children:
        try:
            child.kill()
        except psutil.Error:
            pass
    proc.kill()


def run_command(
    argv: Sequence[str],
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Mapping[str, str]] = None,
    cwd: Optional[str] = None,
    input_text: Optional[str] = None,
    new_session: bool = False,
) -> CommandResult:
    """new_session: the command gets its own process group, so a Ctrl-C on the terminal reaches
    only macml, which decides (an install kills it and rolls back; a rollback runs on)."""
    argv = tuple(str(a) for a in argv)
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            start_new_session=new_session,
        )
    except (FileNotFoundError, PermissionError) as exc:
        return CommandResult(argv, None, stderr=str(exc) if isinstance(exc, PermissionError) else "", missing=True)
    except OSError as exc:  # exec format error and friends
        return CommandResult(argv, None, stderr=str(exc), missing=True)
    data = input_text.encode() if input_text is not None else None
    try:
        stdout, stderr = proc.communicate(data, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_tree(proc)
        stdout, stderr = proc.communicate()
        return CommandResult(argv, None, _decode(stdout), _decode(stderr) or f"timed out after {timeout:g}s",
                             timed_out=True)
    except BaseException:  # interrupted while waiting: never leave the command running on as an orphan
        kill_tree(proc)
        proc.wait()
        raise
    return CommandResult(argv, proc.returncode, _decode(stdout), _decode(stderr))


class LiveCommands:
    """Runs commands on this machine, once each, and records every result (for snapshots).

    A command asked for again, even while its first run is still going (the prefetch
    threads and the parsers ask concurrently), waits for that run instead of starting another.
    """

    def __init__(self, timeout: float = DEFAULT_TIMEOUT):
        self.timeout = timeout
        self._results: Dict[str, CommandResult] = {}
        self._key_locks: Dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def run(self, argv: Sequence[str], timeout: Optional[float] = None) -> CommandResult:
        key = command_key(argv)
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            if key not in self._results:
                self._results[key] = run_command(argv, timeout=timeout or self.timeout)
            return self._results[key]

    @property
    def recorded(self) -> Dict[str, CommandResult]:
        """What ran (a missing tool is left out: absent from a snapshot means not there)."""
        with self._lock:
            return {k: r for k, r in list(self._results.items()) if not r.missing}


class ReplayCommands:
    """Answers from a snapshot's recorded outputs; never runs anything.

    A command absent from the snapshot is a tool that is not there.
    """

    def __init__(self, commands: Mapping[str, Mapping]):
        self.commands = commands

    def run(self, argv: Sequence[str], timeout: Optional[float] = None) -> CommandResult:
        argv = tuple(argv)
        rec = self.commands.get(command_key(argv))
        if rec is None:
            return CommandResult(argv, None, missing=True)
        rc = rec.get("returncode")
        return CommandResult(
            argv,
            rc if isinstance(rc, int) else None,
            str(rec.get("stdout") or ""),
            str(rec.get("stderr") or ""),
            timed_out=bool(rec.get("timed_out", False)),
        )

