"""One install at a time per target environment: an exclusive file lock (filelock), keyed by
the environment's directory and kept in macml's cache, never inside the environment itself."""
from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Iterator, Optional

from filelock import FileLock, Timeout

from macml import progress
from macml.errors import MacmlError
from macml.paths import cache_problem, user_cache_dir


def lock_path(env_dir: str, cache: Path) -> Path:
    key = hashlib.sha256(os.path.realpath(env_dir).encode()).hexdigest()[:16]
    return cache / f"install-{key}.lock"


@contextlib.contextmanager
def exclusive(env_dir: str, wait: bool = True, cache: Optional[Path] = None) -> Iterator[None]:
    """Hold the environment's lock inside; wait for another install (saying so), or with
    wait=False fail at once."""
    cache = cache or user_cache_dir("locks")
    problem = cache_problem(cache)
    if problem:
        raise MacmlError(f"Cannot keep the install lock: {problem}.",
                         "Nothing was changed. Set MACML_CACHE_DIR to a writable folder (macml keeps its install "
                         "locks and journals there).")
    lock = FileLock(str(lock_path(env_dir, cache)))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        if not wait:
            raise MacmlError(f"Another macml install into {env_dir} is running (lock {lock.lock_file}).",
                             "Nothing was changed. Wait for it to finish, or run again without --no-wait to queue.",
                             exit_code=1) from None
        with progress.status(f"Waiting for another macml install into {env_dir} to finish…"):
            lock.acquire()
    try:
        yield
    finally:
        lock.release()
