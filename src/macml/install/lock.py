"""One install at a time per target environment: an exclusive lock on a file in macml's cache (never
inside the environment), keyed by the environment's directory.

On POSIX it is a `flock` on a descriptor macml owns, which every child started while it is held
inherits (`runner.children_tied`): the lock is held for as long as any of them lives, even when macml
itself was killed and a child (pip on macOS, where nothing kills it) runs on. On Linux those children
also die with macml. Windows uses filelock.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Iterator, Optional, Tuple

from macml import progress
from macml.errors import MacmlError
from macml.paths import cache_problem, user_cache_dir
from macml.probe.runner import KILL, children_tied

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None


def lock_path(env_dir: str, cache: Path) -> Path:
    key = hashlib.sha256(os.path.realpath(env_dir).encode()).hexdigest()[:16]
    return cache / f"install-{key}.lock"


def locks_dir() -> Path:
    """Where the locks (and the install journals beside them) live; MacmlError when it cannot be written."""
    cache = user_cache_dir("locks")
    problem = cache_problem(cache)
    if problem:
        raise MacmlError(f"Cannot keep the install lock: {problem}.",
                         "Nothing was changed. Set MACML_CACHE_DIR to a writable folder (macml keeps its install "
                         "locks and journals there).")
    return cache


@contextlib.contextmanager
def exclusive(env_dir: str, wait: bool = True, cache: Optional[Path] = None) -> Iterator[None]:
    """Hold the environment's lock inside, with every child started meanwhile; wait for another
    install (saying so), or with wait=False fail at once."""
    path = lock_path(env_dir, cache or locks_dir())
    with (_flock if fcntl else _filelock)(path, env_dir, wait) as fds, children_tied(KILL, fds):
        yield


def _busy(env_dir: str, path: Path) -> MacmlError:
    return MacmlError(f"Another macml install into {env_dir} is running (lock {path}).",
                      "Nothing was changed. Wait for it to finish, or run again without --no-wait to queue.",
                      exit_code=1)


@contextlib.contextmanager
def _flock(path: Path, env_dir: str, wait: bool) -> Iterator[Tuple[int, ...]]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                raise _busy(env_dir, path) from None
            with progress.status(f"Waiting for another macml install into {env_dir} to finish…"):
                fcntl.flock(fd, fcntl.LOCK_EX)
        yield (fd,)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)  # for every holder: a child that outlived macml has been stopped
        os.close(fd)


@contextlib.contextmanager
def _filelock(path: Path, env_dir: str, wait: bool) -> Iterator[Tuple[int, ...]]:
    from filelock import FileLock, Timeout

    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        if not wait:
            raise _busy(env_dir, path) from None
        with progress.status(f"Waiting for another macml install into {env_dir} to finish…"):
            lock.acquire()
    try:
        yield ()
    finally:
        lock.release()
