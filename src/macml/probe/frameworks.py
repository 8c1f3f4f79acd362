"""Frameworks' own availability checks, each in its own subprocess of the target interpreter."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Mapping, Optional

from macml import frameworks
from macml.probe import cache as probe_cache
from macml.facts import FrameworkFacts
from macml.resources import check_script
from macml.probe.runner import run_command


def probe_framework_raw(python: str, name: str, timeout: float) -> Dict[str, Any]:
    script = check_script(frameworks.BY_NAME[name].probe_script)
    if not script.exists():
        return {"name": name, "installed": True, "ok": False, "error": f"no probe script {script.name}"}
    # The plaidml probe has its own watchdog: let it answer (with partial facts) before we kill it.
    extra = ["--timeout", f"{max(timeout - 5, 1):g}"] if name == "plaidml" else []
    result = run_command([python, str(script), *extra], timeout=timeout)
    if result.timed_out:
        return {"name": name, "installed": True, "ok": False, "error": f"probe timed out after {timeout:g}s"}
    try:
        data = json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"name": name, "installed": True, "ok": False, "error": f"probe crashed: {result.last_error_line}"}
    return data


def probe_framework_cached(python: str, name: str, timeout: float, key: Optional[str],
                           read: bool = True) -> Dict[str, Any]:
    """read=False (`--refresh`) probes afresh but still stores the answer for the next plain run."""
    if key and read:
        cached = probe_cache.load(key)
        if cached is not None:
            return cached
    result = probe_framework_raw(python, name, timeout)
    if key:
        probe_cache.store(key, result)
    return result


def probe_frameworks_raw(python: str, interpreter: Mapping[str, Any], timeout: float,
                         fingerprint: Optional[Mapping[str, str]] = None,
                         env: Optional[Mapping[str, str]] = None, read_cache: bool = True) -> Dict[str, Dict[str, Any]]:
    """Probe every installed framework concurrently; with a fingerprint, reuse cached answers."""
    names = [f.name for f in frameworks.installed_in(interpreter.get("packages") or {})]
    if not names:
        return {}

    def key(name: str) -> Optional[str]:
        if fingerprint is None:
            return None
        script = check_script(frameworks.BY_NAME[name].probe_script)
        text = script.read_text(encoding="utf-8") if script.exists() else ""
        return probe_cache.probe_key(name, interpreter, fingerprint, env or {}, text)

    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        futures = {name: pool.submit(probe_framework_cached, python, name, timeout, key(name), read_cache) for name in names}
        return {name: future.result() for name, future in futures.items()}


def parse_frameworks(raw: Mapping[str, Any]) -> Dict[str, FrameworkFacts]:
    out = {}
    for name, data in raw.items():
        if not isinstance(data, Mapping) or not data.get("installed", True):
            continue
        payload = {k: v for k, v in data.items() if k not in ("name", "installed", "ok", "error")}
        out[name] = FrameworkFacts(name=name, ok=bool(data.get("ok")), data=payload, error=data.get("error"))
    return out
