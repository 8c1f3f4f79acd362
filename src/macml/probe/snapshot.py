"""Snapshot files: every raw probe output, for bug reports and for replay (--from).

Format version 1 (documented in the README):
{"macml_snapshot": 1, "platform": "darwin"|"linux"|"win32",
 "commands": {"<argv joined by single spaces>": {"returncode": int, "stdout": str, "stderr": str}},
 "interpreter": {...}, "frameworks": {...}, "env": {...}}
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

from macml.errors import MacmlError
from macml.files import write_atomically
from macml.probe.runner import CommandResult

FORMAT_VERSION = 1
PLATFORMS = ("darwin", "linux", "win32")


def result_record(result: CommandResult) -> Dict[str, Any]:
    record: Dict[str, Any] = {"returncode": result.returncode, "stdout": result.stdout, "stderr": result.stderr}
    if result.timed_out:
        record["timed_out"] = True
    return record


def validate_snapshot(data: Any, source: str) -> Dict[str, Any]:
    if not isinstance(data, dict) or "macml_snapshot" not in data:
        raise MacmlError(f"{source} is not a macml snapshot (no 'macml_snapshot' key).",
                         "Make one with: macml doctor --save-snapshot FILE")
    version = data["macml_snapshot"]
    if version != FORMAT_VERSION:
        raise MacmlError(
            f"{source} is snapshot format version {version!r}; this macml reads version {FORMAT_VERSION}.",
            "Upgrade macml (python -m pip install -U macml), or re-create the snapshot with this version.",
        )
    if data.get("platform") not in PLATFORMS:
        raise MacmlError(f"{source}: 'platform' must be one of {', '.join(PLATFORMS)}, not {data.get('platform')!r}.")
    for key in ("commands", "interpreter", "frameworks", "env"):
        if not isinstance(data.get(key, {}), dict):
            raise MacmlError(f"{source}: '{key}' must be a JSON object.")
    return data


def load_snapshot(path: Path) -> Dict[str, Any]:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise MacmlError(f"Cannot read snapshot {path}: {exc.strerror or exc}.") from None
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError as exc:
        raise MacmlError(f"{path} is not valid JSON ({exc}).", "Is it a file written by macml doctor --save-snapshot?") from None
    return validate_snapshot(data, str(path))


def save_snapshot(snapshot: Dict[str, Any], path: Path) -> None:
    """Write atomically: a failed write never leaves half a snapshot behind."""
    try:
        write_atomically(Path(path), json.dumps(snapshot, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise MacmlError(f"Cannot write snapshot to {path}: {exc.strerror or exc}.",
                         "Pass --save-snapshot a file path in a writable folder.") from None
