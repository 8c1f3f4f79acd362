"""Where macml's files live: the files that ship beside the code (checks/ scripts run in the target
interpreter, recipes/ TOML; inside the package as _checks/_recipes in a wheel, at the project root in
a source checkout), the user cache, and how macml writes a file: never half of one."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Mapping, Optional

import platformdirs

_PACKAGE = Path(__file__).resolve().parent


def user_cache_dir(sub: str, env: Mapping[str, str] = os.environ) -> Path:
    """MACML_CACHE_DIR/sub, else the OS's user cache for macml (platformdirs: ~/Library/Caches/macml,
    $XDG_CACHE_HOME/macml or ~/.cache/macml, %LOCALAPPDATA%\\macml\\Cache)."""
    if env.get("MACML_CACHE_DIR"):
        return Path(env["MACML_CACHE_DIR"]) / sub
    return platformdirs.user_cache_path("macml", appauthor=False) / sub


# The most macml reads from one input file (--from, a snapshot, a recipe): collect_env with every
# library listed is under 100 kB, so this is far beyond any real paste, and a bound on the time and
# memory a runaway file (/dev/zero, a log pasted by mistake) can take.
MAX_INPUT_BYTES = 16 << 20
_CHUNK = 1 << 20


def read_bounded(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The file's bytes, read in chunks and never more than limit + 1 of them (a device or a FIFO
    may never end); TooLarge beyond the limit, OSError when it cannot be read."""
    chunks, size = [], 0
    with open(path, "rb") as handle:
        while size <= limit:
            chunk = handle.read(min(_CHUNK, limit + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
    raise TooLarge(f"{path} is larger than {limit / (1 << 20):g} MiB, the most macml reads from one file")


class TooLarge(ValueError):
    """An input file past the size macml reads."""


def cache_problem(folder: Path) -> Optional[str]:
    """Why macml cannot keep files in this cache folder (created when missing), or None when it can:
    MACML_CACHE_DIR may name a file, a read-only mount, or a folder macml may not write."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"{folder} is not a folder"
    except OSError as exc:
        return f"{folder} cannot be created ({exc.strerror or exc})"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder} is not writable"
    return None


def write_atomically(path: Path, text: str) -> None:
    """Write to a temporary file beside path, then rename it into place; OSError on failure,
    with the temporary removed. A path that is there and is no regular file (/dev/null, /dev/stdout,
    a FIFO) is written in place: renaming over it would replace the device itself (as root, for
    every program on the machine)."""
    path = Path(path)
    if path.exists() and not path.is_file() and not path.is_dir():
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _locate(packaged: str, in_tree: str) -> Path:
    inside = _PACKAGE / packaged
    if inside.is_dir():
        return inside
    return _PACKAGE.parents[1] / in_tree


def checks_dir() -> Path:
    return _locate("_checks", "checks")


def recipes_dir() -> Path:
    return _locate("_recipes", "recipes")


def check_script(name: str) -> Path:
    return checks_dir() / name
