"""Where macml keeps its files, and how it writes them: never half a file."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Mapping, Optional


def user_cache_dir(sub: str, env: Mapping[str, str] = os.environ, platform: str = sys.platform,
                   home: Optional[Path] = None) -> Path:
    """MACML_CACHE_DIR/sub, else the platform's user cache (~/Library/Caches, XDG_CACHE_HOME, ~/.cache)."""
    if env.get("MACML_CACHE_DIR"):
        return Path(env["MACML_CACHE_DIR"]) / sub
    home = home or Path.home()
    if platform == "darwin":
        return home / "Library" / "Caches" / "macml" / sub
    base = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else home / ".cache"
    return base / "macml" / sub


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
