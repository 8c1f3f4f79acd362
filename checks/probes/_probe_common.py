"""The one frame every framework probe runs in (target interpreter, stdlib only, Python 3.6+).

A probe prints exactly one JSON line on stdout. While the framework is imported and asked,
fd 1 points at stderr, so whatever the framework or its C library prints cannot corrupt
that line; a watchdog answers with what is known so far (and exits) if the framework hangs.
A probe reports {"installed": false} without importing anything when the framework is
absent, and turns any exception into {"ok": false, "error": ..., "problem": "import_failed"};
a hang becomes {"problem": "timed_out"}. macml reads `problem`, never the error's wording.

Usage: python probe_<name>.py [--timeout SECONDS]
"""
import json
import os
import sys
import threading
import traceback

DEFAULT_TIMEOUT = 30.0


def error_text(exc):
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()[-2000:]


def parse_timeout(argv):
    """`--timeout S` -> S seconds; missing or unreadable -> DEFAULT_TIMEOUT."""
    if "--timeout" in argv:
        try:
            return float(argv[argv.index("--timeout") + 1])
        except (IndexError, ValueError):
            pass
    return DEFAULT_TIMEOUT


def is_installed(module):
    try:
        import importlib.util
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken parent package, or Python 2.7
        return False


def collect_into(result, collect):
    """An installed framework: fill result from collect(); any exception becomes its error."""
    result["installed"] = True
    try:
        result.update(collect())
        result["ok"] = True
    except BaseException as exc:  # a probe must always answer, whatever the import does
        result["error"] = error_text(exc)
        result["problem"] = "import_failed"


def flush_c_stdio():
    """Flush C-level stdout buffers while fd 1 still points at stderr."""
    try:
        import ctypes
        ctypes.CDLL(None).fflush(None)
    except Exception:
        pass


def run_probe(name, module, collect, extra_facts=None, argv=None):
    """Answer for one framework: extra_facts() (facts that need no import, reported even when
    the import fails; its "installed": True says the distribution is there even where
    find_spec cannot see the module) and, when the framework is installed, collect()."""
    timeout = parse_timeout(sys.argv[1:] if argv is None else argv)
    real_stdout = os.dup(1)
    lock = threading.Lock()
    result = {"name": name, "installed": False, "ok": False, "error": None, "problem": None}

    def answer(obj):
        with lock:  # one answer only: the watchdog and the main thread may race
            os.write(real_stdout, (json.dumps(obj, default=str) + "\n").encode("utf-8"))
            os._exit(0)  # a framework's atexit hooks or threads must not hang the probe

    watchdog = threading.Timer(timeout, lambda: answer(
        dict(result, ok=False, problem="timed_out", error="%s did not answer within %gs" % (name, timeout))))
    watchdog.daemon = True
    watchdog.start()
    sys.stdout.flush()
    os.dup2(2, 1)
    try:
        installed = False
        if extra_facts is not None:
            collect_into(result, extra_facts)
            installed = bool(result.pop("installed"))
            result.update(installed=False, ok=False)
        if installed or is_installed(module):
            collect_into(result, collect)
    finally:
        sys.stdout.flush()
        flush_c_stdio()
        watchdog.cancel()
    answer(result)
