"""A cache of framework probe results, keyed by everything that can change their answer.

Importing torch or tensorflow costs seconds, and the doctor is run again and again while
a user fixes things. A framework's answer is reused only while the interpreter, every
installed distribution and its version, the relevant environment variables, the GPU
driver / OS build outputs and the probe script itself are all unchanged, and for at
most a day. `macml doctor --refresh` ignores it.
"""
from __future__ import annotations

import hashlib
import json
import time
from typing import Any, Dict, Mapping, Optional

from macml.paths import cache_problem, user_cache_dir, write_atomically

MAX_AGE_SECONDS = 24 * 3600


def unusable() -> Optional[str]:
    """Why the cache cannot be used (the doctor then probes every framework afresh), or None."""
    return cache_problem(user_cache_dir("probes"))


def probe_key(framework: str, interpreter: Mapping[str, Any], system_outputs: Mapping[str, str],
              env: Mapping[str, str], script_text: str) -> str:
    material = {
        "framework": framework,
        "executable": interpreter.get("executable"),
        "prefix": interpreter.get("prefix"),
        "packages": sorted((interpreter.get("packages") or {}).items()),
        "system": sorted(system_outputs.items()),
        "env": sorted(env.items()),
        "script": hashlib.sha256(script_text.encode()).hexdigest(),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()[:32]


def load(key: str, now: Optional[float] = None) -> Optional[Dict[str, Any]]:
    """The cached answer, or None when there is none, it is too old, or the file is not one this
    module wrote (any other shape is ignored, never trusted)."""
    path = user_cache_dir("probes") / f"{key}.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return read_record(record, time.time() if now is None else now)


def read_record(record: Any, now: float) -> Optional[Dict[str, Any]]:
    if not isinstance(record, dict) or not isinstance(record.get("result"), dict):
        return None
    stored = record.get("stored_at")
    if isinstance(stored, bool) or not isinstance(stored, (int, float)) or not 0 <= now - stored <= MAX_AGE_SECONDS:
        return None  # NaN fails the comparison too
    if record["result"].get("ok") is not True:
        return None  # store() keeps successes only
    result = dict(record["result"])
    result["cached_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stored))
    return result


def store(key: str, result: Mapping[str, Any]) -> None:
    """Best effort and atomic: a failed write leaves no partial file and never fails the doctor."""
    if not result.get("ok"):
        return  # failures are re-probed every time: the user is probably fixing them
    try:
        write_atomically(user_cache_dir("probes") / f"{key}.json",
                         json.dumps({"stored_at": time.time(), "result": dict(result)}))
    except OSError:
        return
