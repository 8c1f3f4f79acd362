"""Snapshot files: every raw probe output, for bug reports and for replay (--from).

Format version 1 (documented in the README):
{"macml_snapshot": 1, "platform": "darwin"|"linux"|"win32",
 "commands": {"<argv joined by single spaces>": {"returncode": int, "stdout": str, "stderr": str}},
 "interpreter": {...}, "frameworks": {...}, "env": {...}}
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from macml.errors import MacmlError
from macml.paths import TooLarge, read_bounded, write_atomically
from macml.probe.frameworks import answer_problem
from macml.probe.interpreter import interpreter_problem
from macml.probe.runner import CommandResult

FORMAT_VERSION = 1
PLATFORMS = ("darwin", "linux", "win32")


def result_record(result: CommandResult) -> Dict[str, Any]:
    record: Dict[str, Any] = {"returncode": result.returncode, "stdout": result.stdout, "stderr": result.stderr}
    if result.timed_out:
        record["timed_out"] = True
    return record


def validate_snapshot(data: Any, source: str) -> Dict[str, Any]:
    """The snapshot itself, or a MacmlError naming the first thing that is not format 1: a
    malformed part must be refused, not read as "no GPU" or "no interpreter"."""
    if not isinstance(data, dict) or "macml_snapshot" not in data:
        raise MacmlError(f"{source} is not a macml snapshot (no 'macml_snapshot' key).",
                         "Make one with: macml doctor --save-snapshot FILE")
    version = data["macml_snapshot"]
    if version != FORMAT_VERSION or isinstance(version, bool):  # true == 1 in Python
        raise MacmlError(
            f"{source} is snapshot format version {version!r}; this macml reads version {FORMAT_VERSION}.",
            "Upgrade macml (python -m pip install -U macml), or re-create the snapshot with this version.",
        )
    if data.get("platform") not in PLATFORMS and not (data.get("platform") is None and "statements" in data):
        raise MacmlError(f"{source}: 'platform' must be one of {', '.join(PLATFORMS)}, not {data.get('platform')!r}.")
    for key in ("commands", "interpreter", "frameworks", "env"):
        if not isinstance(data.get(key, {}), dict):
            raise MacmlError(f"{source}: '{key}' must be a JSON object.", _HINT)
    problem = (_commands_problem(data.get("commands", {})) or _interpreter_problem(data.get("interpreter") or {})
               or _frameworks_problem(data.get("frameworks", {})) or _env_problem(data.get("env", {}))
               or statements_problem(data.get("statements", [])))
    if problem:
        raise MacmlError(f"{source}: {problem}.", _HINT)
    return data


_HINT = "The README's section on snapshots describes the format; re-create it with macml doctor --save-snapshot."


# A statement's value by fact: most are text; these are numbers, flags or records.
_NUMBERS = ("cpu.memory_bytes", "gpu.cores", "cpu.cores", "cpu.apple_generation", "memory.unified")
_FLAGS = ("torch.cuda_available", "process.translated", "hypervisor.none", "os.wsl", "tensorflow.gpu_device",
          "tensorflow.no_gpu", "torch.mps_available", "torch.mps_built", "python.externally_managed", "python.conda")
_RECORDS = ("gpu", "gpu.owned", "package", "gpu.capability_of", "gpu.memory_of", "gpu.capability", "gpu.driver_of", "env",
            "framework.import_failed", "board", "package.wanted")
_STATEMENT_VALUES: Dict[str, Tuple[type, ...]] = {
    **{fact: (int,) for fact in _NUMBERS}, **{fact: (bool,) for fact in _FLAGS}, **{fact: (dict,) for fact in _RECORDS},
    "torch.cuda_version": (str, type(None)), "hypervisor": (str, type(None))}


def statements_problem(statements: Any) -> Optional[str]:
    """What makes an imported snapshot's `statements` unusable, or None (see probe/paste/statements.py)."""
    if not isinstance(statements, list):
        return "'statements' must be a list"
    for index, item in enumerate(statements):
        where = f"'statements'[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("fact"), str):
            return f"{where} must be an object with a 'fact'"
        wanted = _STATEMENT_VALUES.get(item["fact"], (str,))
        value = item.get("value")
        if not isinstance(value, wanted) or (wanted == (int,) and isinstance(value, bool)):
            return f"{where}: 'value' of {item['fact']} must be {' or '.join(t.__name__ for t in wanted)}"
        if item["fact"] == "gpu" and not (isinstance(value.get("name"), str)
                                          and all(isinstance(value.get(k), (int, type(None))) and not isinstance(value.get(k), bool)
                                                  for k in ("memory_mib", "index"))
                                          and isinstance(value.get("vendor"), (str, type(None)))):
            return f"{where}: a gpu needs a 'name', and whole numbers (or null) for 'memory_mib' and 'index'"
        if item["fact"] in ("gpu.capability_of", "gpu.memory_of") and not (
                isinstance(value.get("index"), (int, type(None))) and isinstance(value.get("capability", ""), str)
                and isinstance(value.get("memory_mib", 0), (int, type(None)))):
            return f"{where}: a device fact needs an 'index' and a 'capability' or 'memory_mib'"
        if item["fact"] == "gpu.capability" and not (isinstance(value.get("capability"), str)
                                                      and isinstance(value.get("name"), (str, type(None)))):
            return f"{where}: a capability needs 'capability' text and a 'name' (or null)"
        if item["fact"] == "gpu" and not isinstance(value.get("capability", ""), (str, type(None))):
            return f"{where}: a gpu's 'capability' must be text"
        if item["fact"] == "package" and not (isinstance(value.get("name"), str) and isinstance(value.get("version"), str)):
            return f"{where}: a package needs a 'name' and a 'version'"
        if not isinstance(item.get("line", 0), int) or not isinstance(item.get("text", ""), str):
            return f"{where}: 'line' must be a number and 'text' a string"
    return None


def _commands_problem(commands: Dict[str, Any]) -> Optional[str]:
    for key, record in commands.items():
        where = f"'commands' entry {key!r}"
        if not isinstance(record, dict):
            return f"{where} must be an object with returncode, stdout and stderr"
        returncode = record.get("returncode")
        if returncode is not None and (isinstance(returncode, bool) or not isinstance(returncode, int)):
            return f"{where}: 'returncode' must be an integer or null"
        for stream in ("stdout", "stderr"):
            if record.get(stream) is not None and not isinstance(record[stream], str):
                return f"{where}: '{stream}' must be a string"
        if not isinstance(record.get("timed_out", False), bool):
            return f"{where}: 'timed_out' must be true or false"
    return None


def _interpreter_problem(interpreter: Dict[str, Any]) -> Optional[str]:
    problem = interpreter_problem(interpreter) if interpreter else None
    return f"'interpreter': {problem}" if problem else None


def _frameworks_problem(frameworks: Dict[str, Any]) -> Optional[str]:
    for name, answer in frameworks.items():
        where = f"'frameworks' entry {name!r}"
        if not isinstance(answer, dict):
            return f"{where} must be an object (the framework probe's JSON)"
        problem = answer_problem(answer)
        if problem:
            return f"{where}: {problem}"
    return None


def _env_problem(env: Dict[str, Any]) -> Optional[str]:
    bad = next((key for key, value in env.items() if not isinstance(value, str)), None)
    return f"'env' value of {bad!r} must be a string" if bad is not None else None


def load_snapshot(path: Path) -> Dict[str, Any]:
    try:
        raw = read_bounded(path)
    except TooLarge as exc:
        raise MacmlError(f"{exc}.", "Is it a file written by macml doctor --save-snapshot?") from None
    except OSError as exc:
        raise MacmlError(f"Cannot read snapshot {path}: {exc.strerror or exc}.") from None
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError) as exc:
        raise MacmlError(f"{path} is not valid JSON ({exc}).", "Is it a file written by macml doctor --save-snapshot?") from None
    return validate_snapshot(data, str(path))


def save_snapshot(snapshot: Dict[str, Any], path: Path) -> None:
    """Write atomically: a failed write never leaves half a snapshot behind, and a missing folder is
    named rather than created (a mistyped path should not grow folders)."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise MacmlError(f"Cannot write snapshot to {path}: the folder {folder} does not exist.",
                         "Create the folder first, or give a path in an existing folder.")
    try:
        write_atomically(Path(path), json.dumps(snapshot, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise MacmlError(f"Cannot write snapshot to {path}: {exc.strerror or exc}.",
                         "Pass --save-snapshot a file path in a writable folder.") from None
