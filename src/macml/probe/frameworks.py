"""Frameworks' own availability checks, each in its own subprocess of the target interpreter."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Mapping, Optional

from macml import frameworks
from macml.probe import cache as probe_cache
from macml.facts import (IMPORT_FAILED, MALFORMED, NO_PROBE, PROBE_CRASHED, PROBE_PROBLEMS, TIMED_OUT,
                         FrameworkFacts)
from macml.paths import check_script
from macml.probe.runner import CommandResult, run_command


def probe_framework_raw(python: str, name: str, timeout: float) -> Dict[str, Any]:
    script = check_script(frameworks.BY_NAME[name].probe_script)
    if not script.exists():
        return {"name": name, "installed": True, "ok": False, "problem": NO_PROBE,
                "error": f"no probe script {script.name}"}
    return read_probe(name, run_command(probe_argv(python, script, timeout), timeout=timeout), timeout)


def probe_argv(python: str, script, timeout: float) -> list:
    """Every probe has a watchdog: let it answer (with partial facts) before we kill it."""
    return [python, str(script), "--timeout", f"{max(timeout - 5, 1):g}"]


def read_probe(name: str, result: CommandResult, timeout: float) -> Dict[str, Any]:
    """The one reader of a probe's answer: its last stdout line, or why there is none."""
    if result.timed_out:
        return {"name": name, "installed": True, "ok": False, "problem": TIMED_OUT,
                "error": f"probe timed out after {timeout:g}s"}
    return parse_probe_output(name, result.stdout, result.last_error_line)


def parse_probe_output(name: str, stdout: str, last_error_line: str = "no output") -> Dict[str, Any]:
    """A probe's last stdout line, a JSON object; anything else becomes a failed answer that says so."""
    failed = {"name": name, "installed": True, "ok": False}
    try:
        data = json.loads(stdout.strip().splitlines()[-1])
    except (ValueError, IndexError, RecursionError):
        return {**failed, "problem": PROBE_CRASHED, "error": f"probe crashed: {last_error_line}"}
    if not isinstance(data, dict):
        return {**failed, "problem": MALFORMED,
                "error": f"probe printed something that is not its answer: {stdout.strip()[-200:]!r}"}
    problem = answer_problem(data)
    if problem:
        return {**failed, "problem": MALFORMED, "error": f"probe answer malformed: {problem}"}
    return data


# The probe fields the checks read, by type; the probes in checks/probes/ emit exactly these.
_LIST_FIELDS = ("devices", "platforms", "gpus", "device_names", "configured_devices", "capabilities", "arch_list",
                "backend_dists")
_FLAG_FIELDS = ("ok", "installed", "mps_built", "mps_available", "cuda_available", "metal_available", "cuda_built")
_TEXT_FIELDS = ("error", "version", "cuda_version", "hip_version", "metal_error")


def answer_problem(data: Mapping[str, Any]) -> Optional[str]:
    """What makes a framework probe's answer unusable (a wrong type would become a wrong claim), or None."""
    if not isinstance(data.get("ok"), bool):
        return "'ok' must be true or false"
    for key in _FLAG_FIELDS:
        if data.get(key) is not None and not isinstance(data[key], bool):
            return f"'{key}' must be true, false or null"
    for key in _TEXT_FIELDS:
        if data.get(key) is not None and not isinstance(data[key], str):
            return f"'{key}' must be a string or null"
    if data.get("problem") is not None and data["problem"] not in PROBE_PROBLEMS:
        return f"'problem' must be one of {', '.join(PROBE_PROBLEMS)} or null"
    for key in _LIST_FIELDS:
        value = data.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            return f"'{key}' must be a list of strings"
    return None


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
        if not isinstance(data, Mapping) or data.get("installed", True) is False or answer_problem(data):
            continue  # the loaders refuse a malformed answer before it gets here
        payload = {k: v for k, v in data.items() if k not in ("name", "installed", "ok", "error", "problem")}
        ok = bool(data.get("ok"))
        out[name] = FrameworkFacts(name=name, ok=ok, data=payload, error=data.get("error"),
                                   problem=None if ok else (data.get("problem") or _recorded_problem(data)))
    return out


def _recorded_problem(data: Mapping[str, Any]) -> str:
    """Snapshots recorded before answers carried `problem`: read_probe's own timeout wording (above,
    in this module) was the only sign of a hang."""
    return TIMED_OUT if str(data.get("error") or "").startswith("probe timed out after") else IMPORT_FAILED
