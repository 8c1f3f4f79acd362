"""The target interpreter's facts, from checks/probes/interpreter_facts.py run inside it."""
from __future__ import annotations

import importlib.util
import json
import os
import sys
from typing import Any, Dict, Mapping, Optional

from macml.errors import MacmlError
from macml.facts import InterpreterFacts
from macml.paths import check_script
from macml.probe.runner import run_command


def target_python(python: Optional[str]) -> str:
    return python or sys.executable


def is_current_interpreter(python: str) -> bool:
    # Not realpath: a venv's bin/python is a symlink to its base interpreter, yet a different
    # environment (sys.prefix comes from the path it was started by).
    return os.path.abspath(python) == os.path.abspath(sys.executable)


def collect_in_process() -> Dict[str, Any]:
    """The same stdlib-only script, imported instead of started: saves an interpreter start-up
    when the target is the interpreter macml itself runs in."""
    spec = importlib.util.spec_from_file_location("macml_interpreter_facts", check_script("probes/interpreter_facts.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.collect()


def probe_interpreter_raw(python: str, timeout: float = 20.0) -> Dict[str, Any]:
    if is_current_interpreter(python):
        return collect_in_process()
    result = run_command([python, str(check_script("probes/interpreter_facts.py"))], timeout=timeout)
    if result.missing:
        raise MacmlError(f"Cannot run the interpreter {python}: not found or not executable.",
                         "Pass --python with the path of a Python executable (e.g. .venv/bin/python).")
    if not result.ok:
        raise MacmlError(f"The interpreter {python} failed to report its facts: {result.last_error_line}", _HINT)
    return parse_interpreter_output(python, result.stdout)


_HINT = "Pass --python the path of a working Python 3.6+ interpreter (e.g. .venv/bin/python)."


def parse_interpreter_output(python: str, stdout: str) -> Dict[str, Any]:
    """checks/probes/interpreter_facts.py's output -> its JSON object; MacmlError for anything else."""
    try:
        raw = json.loads(stdout)
    except (ValueError, RecursionError):
        raise MacmlError(f"{python} printed something that is not JSON: is it a Python interpreter?", _HINT) from None
    problem = interpreter_problem(raw) or _probe_problem(raw)
    if problem:
        raise MacmlError(f"{python} did not report interpreter facts: {problem}.", _HINT)
    return raw


def _probe_problem(raw: Mapping[str, Any]) -> Optional[str]:
    """What the live probe always reports (a pasted report may lack both)."""
    if not isinstance(raw.get("executable"), str) or not raw["executable"]:
        return "'executable' must be a non-empty string"
    if not isinstance(raw.get("version"), str):
        return "'version' must be a string like \"3.11.7\""
    return None


_TEXT_KEYS = ("implementation", "machine", "prefix", "base_prefix", "pip_version", "platform_tag", "mac_ver", "glibc")
_FLAG_KEYS = ("conda", "externally_managed", "gil_disabled", "translated", "packages_complete")


def interpreter_problem(raw: Any) -> Optional[str]:
    """What is wrong with the interpreter probe's JSON (from the target, or a snapshot), or None.

    Only what parse_interpreter reads is checked; a wrong type there would become a wrong fact
    (bool("false") is True), so it is refused instead."""
    if not isinstance(raw, Mapping):
        return f"expected a JSON object, got {_kind(raw)}"
    # An interpreter imported from a pasted report has no executable path: a version or packages will do.
    if not (raw.get("executable") or raw.get("version") or raw.get("packages") or raw.get("machine")):
        return "it names no executable, version, machine or packages"
    if raw.get("executable") is not None and not isinstance(raw["executable"], str):
        return "'executable' must be a string"
    if raw.get("version") is not None and not isinstance(raw["version"], str):
        return "'version' must be a string like \"3.11.7\""
    for key in _TEXT_KEYS:
        if raw.get(key) is not None and not isinstance(raw[key], str):
            return f"'{key}' must be a string or null, got {_kind(raw[key])}"
    for key in _FLAG_KEYS:
        if raw.get(key) is not None and not isinstance(raw[key], bool):
            return f"'{key}' must be true, false or null, got {_kind(raw[key])}"
    if raw.get("bits") is not None and (isinstance(raw["bits"], bool) or not isinstance(raw["bits"], int)):
        return f"'bits' must be an integer or null, got {_kind(raw['bits'])}"
    for key in ("packages", "markers"):
        value = raw.get(key, {})
        if not isinstance(value, Mapping) or not all(isinstance(v, (str, type(None))) for v in value.values()):
            return f"'{key}' must be an object of strings"
    return None


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def parse_interpreter(raw: Mapping[str, Any]) -> Optional[InterpreterFacts]:
    """Facts from the probe's JSON; None when there are none or they are malformed (interpreter_problem
    says why: the loaders refuse such input before it gets here)."""
    if not raw or interpreter_problem(raw):
        return None
    packages = raw.get("packages")
    packages = packages if isinstance(packages, Mapping) else {}
    markers = raw.get("markers")
    markers = markers if isinstance(markers, Mapping) else {}
    return InterpreterFacts(
        executable=str(raw.get("executable") or ""),
        version=str(raw.get("version", "")),
        implementation=str(raw.get("implementation", "")),
        machine=str(raw.get("machine", "")),
        prefix=str(raw.get("prefix", "")),
        base_prefix=str(raw.get("base_prefix") or raw.get("prefix") or ""),
        conda=bool(raw.get("conda", False)),
        externally_managed=bool(raw.get("externally_managed", False)),
        packages_complete=bool(raw.get("packages_complete", False)),
        pip_version=raw.get("pip_version") or packages.get("pip"),
        packages={str(k).lower(): str(v) for k, v in packages.items()},
        translated=raw.get("translated"),
        platform_tag=raw.get("platform_tag"),
        bits=raw.get("bits") if isinstance(raw.get("bits"), int) else None,
        mac_ver=_text_or_none(raw.get("mac_ver")),
        glibc=_text_or_none(raw.get("glibc")),
        gil_disabled=bool(raw.get("gil_disabled")),
        markers={str(k): str(v) for k, v in markers.items()},
    )


def _text_or_none(value: Any) -> Optional[str]:
    return str(value) if value else None
