"""Shared frame for the framework probes: run in the target interpreter, stdlib only.

Each probe prints exactly one JSON object on stdout; anything the framework logs goes
to stderr. A probe reports {"installed": false} without importing anything when the
framework is absent, and turns any exception into {"ok": false, "error": ...}.
"""
import importlib.util
import json
import sys
import traceback


def emit(obj):
    sys.stdout.write(json.dumps(obj, default=str))
    sys.stdout.flush()


def run_probe(name, module, collect):
    result = {"name": name, "installed": False, "ok": False, "error": None}
    if importlib.util.find_spec(module) is None:
        emit(result)
        return
    result["installed"] = True
    try:
        result.update(collect())
        result["ok"] = True
    except BaseException as exc:  # a probe must always answer, whatever the import does
        lines = traceback.format_exception_only(type(exc), exc)
        result["error"] = "".join(lines).strip()[-2000:]
    emit(result)
