"""The one place macml starts a subprocess.

argv list, never a shell; always a timeout; a missing tool or a hang is a result, not
an exception. Output is decoded leniently (non-UTF-8 bytes never crash a parser). Inside
`children_tied`, children die with macml, even when it is killed with SIGKILL.
"""
from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Sequence, Tuple

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


_PR_SET_PDEATHSIG = 1  # linux/prctl.h
KILL = getattr(signal, "SIGKILL", signal.SIGTERM)  # Windows has no SIGKILL


@functools.lru_cache(maxsize=1)
def _prctl() -> Optional[Callable[..., int]]:
    """libc's prctl, loaded before any fork (a child must not load libraries); None off Linux."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def dies_with_parent(signum: int) -> Optional[Callable[[], None]]:
    """A preexec_fn that has Linux send signum to the child when this thread of macml ends, even by
    SIGKILL; None where there is no such thing (macOS, Windows: there an inherited lock is what holds)."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def in_child() -> None:
        prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
        if os.getppid() != parent:  # macml died before the request took effect
            os.kill(os.getpid(), signum)

    return in_child


_ties: Dict[str, Any] = {"signal": None, "fds": ()}


@contextlib.contextmanager
def children_tied(signum: Optional[int], fds: Tuple[int, ...] = ()) -> Iterator[None]:
    """Inside, every child started from the main thread gets signum when macml dies (Linux; None: no
    signal) and inherits fds (an install lock's: held for as long as any child lives, even where a
    child outlives a killed macml, as on macOS)."""
    saved = dict(_ties)
    _ties.update({"signal": signum, "fds": tuple(fds)})
    try:
        yield
    finally:
        _ties.update(saved)


def tie_options() -> Dict[str, Any]:
    """Popen keyword arguments for a child started now, as `children_tied` asks (a child of another
    thread is left alone: the parent-death signal follows the thread that started it)."""
    if threading.current_thread() is not threading.main_thread() or os.name != "posix":
        return {}
    options: Dict[str, Any] = {"pass_fds": _ties["fds"]} if _ties["fds"] else {}
    preexec = dies_with_parent(_ties["signal"]) if _ties["signal"] else None
    return dict(options, preexec_fn=preexec) if preexec else options


def kill_tree(proc: subprocess.Popen, own_group: bool = False) -> None:
    """Kill a command and everything it started, and wait for them: its process group when it was
    started in one of its own (own_group: torchrun's ranks, DataLoader workers, even after the leader
    died), and every descendant psutil finds (one that left the group). A grandchild still holding the
    pipes open would otherwise keep us waiting for output forever, and one left running would go on
    using the GPU or changing the environment."""
    import psutil

    try:  # a reaped command's pid may already name another process: only ask while it is ours
        descendants = psutil.Process(proc.pid).children(recursive=True) if proc.returncode is None else []
    except psutil.Error:
        descendants = []
    if own_group and hasattr(os, "killpg"):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:  # the whole group has already gone
            pass
    for child in descendants:
        try:
            child.kill()
        except psutil.Error:
            pass
    proc.kill()
    psutil.wait_procs(descendants, timeout=5)


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
            **tie_options(),
        )
    except (FileNotFoundError, PermissionError) as exc:
        return CommandResult(argv, None, stderr=str(exc) if isinstance(exc, PermissionError) else "", missing=True)
    except OSError as exc:  # exec format error and friends
        return CommandResult(argv, None, stderr=str(exc), missing=True)
    data = input_text.encode() if input_text is not None else None
    try:
        stdout, stderr = proc.communicate(data, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_tree(proc, new_session)
        stdout, stderr = proc.communicate()
        return CommandResult(argv, None, _decode(stdout), _decode(stderr) or f"timed out after {timeout:g}s",
                             timed_out=True)
    except BaseException:  # interrupted while waiting: never leave the command running on as an orphan
        kill_tree(proc, new_session)
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

