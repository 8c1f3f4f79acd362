"""Where macml keeps its files, and how it writes them: never half a file."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Mapping

import platformdirs


def user_cache_dir(sub: str, env: Mapping[str, str] = os.environ) -> Path:
    """MACML_CACHE_DIR/sub, else the OS's user cache for macml (platformdirs: ~/Library/Caches/macml,
    $XDG_CACHE_HOME/macml or ~/.cache/macml, %LOCALAPPDATA%\\macml\\Cache)."""
    if env.get("MACML_CACHE_DIR"):
        return Path(env["MACML_CACHE_DIR"]) / sub
    return platformdirs.user_cache_path("macml", appauthor=False) / sub


def write_atomically(path: Path, text: str) -> None:
    """Write to a temporary file beside path, then rename it into place; OSError on failure,
    with the temporary removed."""
    path = Path(path)
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
