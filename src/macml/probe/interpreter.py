"""The target interpreter's facts, from checks/interpreter_facts.py run inside it."""
from __future__ import annotations

import importlib.util
import json
import os
import sys
from typing import Any, Dict, Mapping, Optional

from macml.errors import MacmlError
from macml.facts import InterpreterFacts
from macml.resources import check_script
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
        raise MacmlError(f"The interpreter {python} failed to report its facts: {result.last_error_line}",
                         "Check that it is a working Python 3.6+ interpreter.")
    try:
        return json.loads(result.stdout)
    except ValueError:
        raise MacmlError(f"The interpreter {python} printed something that is not JSON.") from None


def parse_interpreter(raw: Mapping[str, Any]) -> Optional[InterpreterFacts]:
    # A pasted report (collect_env) gives the version and machine but no executable: keep what it gives.
    if not raw or not any(raw.get(key) for key in ("executable", "machine", "version")):
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
