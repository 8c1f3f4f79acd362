"""Shared frame for the framework probes: run in the target interpreter, stdlib only.

Each probe prints exactly one JSON object on stdout; anything the framework logs goes
to stderr. A probe reports {"installed": false} without importing anything when the
framework is absent, and turns any exception into {"ok": false, "error": ...}.
"""
import json
import sys
import traceback


def emit(obj):
    sys.stdout.write(json.dumps(obj, default=str))
    sys.stdout.flush()


def error_text(exc):
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()[-2000:]


def collect_into(result, collect):
    """An installed framework: fill result from collect(); any exception becomes its error."""
    result["installed"] = True
    try:
        result.update(collect())
        result["ok"] = True
    except BaseException as exc:  # a probe must always answer, whatever the import does
        result["error"] = error_text(exc)


def run_probe(name, module, collect):
    import importlib.util

    result = {"name": name, "installed": False, "ok": False, "error": None}
    if importlib.util.find_spec(module) is not None:
        collect_into(result, collect)
    emit(result)
