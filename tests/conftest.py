import contextlib
import dataclasses
import http.server
import io
import json
import os
import threading
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Fuzzing is part of every run, bounded; `pytest --hypothesis-profile deep` searches much longer.
settings.register_profile("macml", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.register_profile("deep", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile("macml")

PROJECT = Path(__file__).resolve().parents[1]
MACHINES = PROJECT / "tests" / "machines"
RECIPE_FIXTURES = PROJECT / "tests" / "recipes" / "data"
SHARED = PROJECT.parent / "shared"
SHARED_MNIST = SHARED / "data" / "mnist"
needs_mnist = pytest.mark.skipif(not (SHARED_MNIST / "t10k-images-idx3-ubyte.gz").exists(),
                                 reason=f"the shared MNIST split is not at {SHARED_MNIST} (../shared is absent)")


def load_check_script(relative: str):
    """Import a checks/ script (run in the target interpreter in real use) into the test process."""
    import importlib.util

    from macml.paths import check_script

    path = check_script(relative)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def machine_files():
    return sorted(MACHINES.glob("*.json"))


def run_macml(*args, env=None, timeout=120, cwd=None):
    """Run the real CLI in a subprocess, as a user would."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(PROJECT / "src") + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "macml", *args], capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=cwd)


# Runs argv[2:] capped at argv[1] bytes of address space; prints its exit code, output, peak RSS and time.
_MEASURED = """import json, resource, subprocess, sys, time
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
start = time.monotonic()
done = subprocess.run(sys.argv[2:], capture_output=True, text=True, errors="replace")
print(json.dumps({"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr,
                  "seconds": time.monotonic() - start,
                  "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def run_macml_measured(*args, timeout=120, address_space=2 << 30):
    """run_macml, with the peak memory (max RSS, MB) and the seconds of that one run. Its address space
    is capped, so a runaway read ends in a MemoryError instead of eating the machine."""
    env = dict(os.environ, PYTHONPATH=str(PROJECT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    argv = [sys.executable, "-c", _MEASURED, str(address_space), sys.executable, "-m", "macml", *map(str, args)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, check=True)
    return json.loads(done.stdout)


@dataclasses.dataclass(frozen=True)
class CliResult:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args, env=None):
    """The CLI in this process (for many runs: no interpreter start-up), as `macml ARGS` would run with
    the environment variables in env set (None: unset); what it printed and its exit code."""
    from macml import cli

    out, err, saved = io.StringIO(), io.StringIO(), dict(os.environ)
    for key, value in (env or {}).items():
        os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main([str(a) for a in args])
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return CliResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def shared_mnist():
    if not (SHARED_MNIST / "t10k-images-idx3-ubyte.gz").exists():
        pytest.skip(f"the shared MNIST split is not at {SHARED_MNIST} (../shared is absent)")
    return SHARED_MNIST


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    """Never read or write the user's real cache from tests."""
    monkeypatch.setenv("MACML_CACHE_DIR", str(tmp_path / "macml-cache"))


@pytest.fixture(autouse=True)
def quiet_progress():
    """In-process commands print no progress in tests (the CLI subprocess tests still do)."""
    from macml import progress

    progress.set_quiet(True)
    yield
    progress.set_quiet(False)


@dataclasses.dataclass(frozen=True)
class Diagnosis:
    facts: object
    findings: tuple

    def levels(self):
        """{check name: level} of the findings."""
        return {f.check: f.level for f in self.findings}

    def finding(self, check):
        return next(f for f in self.findings if f.check == check)


@pytest.fixture
def machine_variant():
    """machine_variant(name, edit, only=()) diagnoses tests/machines/<name>.json after edit(snapshot)
    changed it, in-process and exactly as `macml doctor --from` would (loader checks included)."""
    from macml.diagnose import run_checks
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.snapshot import validate_snapshot
    from macml.recipes.catalog import load_all

    def diagnose(name, edit=None, only=()):
        snapshot = load_json(MACHINES / f"{name}.json")
        if edit:
            edit(snapshot)
        facts = facts_from_snapshot(validate_snapshot(snapshot, name))
        return Diagnosis(facts, tuple(run_checks(facts, load_all(), only)))

    return diagnose


def load_json(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def lookup(document, dotted):
    """'gpus.0.vendor' -> document["gpus"][0]["vendor"]; a trailing '#' gives a length."""
    value = document
    for part in dotted.split("."):
        if part == "#":
            return len(value)
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


class ReplyHandler(http.server.BaseHTTPRequestHandler):
    """A quiet handler for test servers: subclasses answer with self.reply(status, body, kind)."""

    def reply(self, status, body=b"", kind="application/json"):
        self.send_response(status)
        if body:
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def local_http_server(handler):
    """A real HTTP server on 127.0.0.1 for the duration of a test; yields its base URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def interpreters():
    """Framework interpreters (torch's own, venvs for the rest), built once and cached: see framework_venvs."""
    from framework_venvs import Interpreters

    return Interpreters()


@pytest.fixture
def numpy_hidden(tmp_path):
    """A PYTHONPATH under which `import numpy` fails, as in a venv holding torch alone (the cheap
    stand-in; tests/verify/test_without_numpy.py also runs a real torch-only venv)."""
    folder = tmp_path / "numpy-hidden"
    (folder / "numpy").mkdir(parents=True)
    (folder / "numpy" / "__init__.py").write_text("raise ModuleNotFoundError('numpy is hidden by the test', name='numpy')\n")
    return os.pathsep.join([str(folder), str(PROJECT / "src")])


def build_wheel(wheelhouse: Path, name: str, version: str, files: dict) -> Path:
    """A minimal valid wheel (pure Python) with the given {path in wheel: bytes}."""
    dist = f"{name.replace('-', '_')}-{version}"
    path = wheelhouse / f"{dist}-py3-none-any.whl"
    meta = {f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
            f"{dist}.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: macml-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as whl:
        for inner, data in {**files, **meta}.items():
            whl.writestr(inner, data)
        whl.writestr(f"{dist}.dist-info/RECORD", "".join(f"{p},,\n" for p in [*files, *meta, f"{dist}.dist-info/RECORD"]))
    return path
