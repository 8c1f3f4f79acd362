"""Framework interpreters for the verify tests: torch is the test interpreter's own; TensorFlow
(Keras 3 and Keras 2), JAX and MLX live in venvs built from PyPI on first use and kept across
runs in MACML_TEST_VENVS, else the user's cache (platformdirs: ~/.cache/macml-test-venvs), one
folder per requirement set and Python. That folder is outside MACML_CACHE_DIR, which every test
points at a fresh temporary folder, so the venvs survive from one run to the next. A venv counts as built only
once its marker is written after pip succeeded, so an interrupted build is redone. Offline, a
venv that is not built yet skips its tests with the reason; a failing pip on line fails them.

`torch-only` is a venv with torch alone (no NumPy), for the tests that verify without NumPy.

Measured here (2 cores, with pip's download cache warm): TF 2.21 47 s, TF 2.15 47 s, JAX 19 s,
mlx[cpu] 5 s; with a cold cache TF 2.21 took 61 s and TF 2.15 110 s.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Tuple

import pytest
import platformdirs
from filelock import FileLock

from macml.probe.runner import run_command


@dataclass(frozen=True)
class FrameworkVenv:
    key: str  # the test id
    framework: str  # macml's name, for --framework and workload_<name>.py
    requirements: Tuple[str, ...]
    max_python: Tuple[int, int] = (3, 99)  # the newest CPython the pinned wheels exist for
    pip_args: Tuple[str, ...] = ()


MLX_REQUIREMENT = "mlx==0.32.4" if sys.platform == "darwin" else "mlx[cpu]==0.32.4"
VENVS = (
    FrameworkVenv("tensorflow", "tensorflow", ("tensorflow==2.21.0",)),
    FrameworkVenv("tensorflow-keras2", "tensorflow", ("tensorflow==2.15.1",), max_python=(3, 11)),
    FrameworkVenv("jax", "jax", ("jax==0.10.2",)),
    FrameworkVenv("mlx", "mlx", (MLX_REQUIREMENT,)),  # no NumPy (mlx does not pull it): parity is MLX's own float64
)

def _torch_version() -> str:
    try:
        from importlib.metadata import version
        return version("torch").split("+")[0]
    except Exception:  # no torch in the test interpreter: its tests skip before asking
        return "2.13.0"


# torch alone, as `pip install torch` leaves it: no NumPy (torch does not depend on it). The CPU
# build, from PyTorch's CPU index (where that is unreachable, pip's own find-links still answer).
TORCH_ONLY = FrameworkVenv("torch-only", "torch", (f"torch=={_torch_version()}",),
                           pip_args=("--index-url", "https://download.pytorch.org/whl/cpu", "--retries", "0",
                                     "--timeout", "10"))
BY_KEY = {v.key: v for v in VENVS + (TORCH_ONLY,)}
KEYS = ("torch",) + tuple(v.key for v in VENVS)  # every interpreter the cross-framework tests compare
FRAMEWORK = dict({"torch": "torch"}, **{v.key: v.framework for v in VENVS})


def venv_root() -> Path:
    chosen = os.environ.get("MACML_TEST_VENVS")
    return Path(chosen) if chosen else platformdirs.user_cache_path("macml-test-venvs", appauthor=False)


def venv_name(spec: FrameworkVenv) -> str:
    """tensorflow-py311-1a2b3c4d: a new requirement set or Python gets a venv of its own."""
    python = f"{sys.version_info[0]}{sys.version_info[1]}"
    digest = hashlib.sha256("\n".join((sys.version, *spec.requirements)).encode()).hexdigest()[:8]
    return f"{spec.key}-py{python}-{digest}"


# Read once, when the tests are collected: each test points MACML_CACHE_DIR at a temporary folder
# (conftest.isolated_cache), which made every session build the venvs again.
VENV_ROOT = venv_root()


def bin_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def index_reachable(timeout: float = 10.0) -> bool:
    import requests

    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    try:
        return requests.get(index + "/pip/", timeout=timeout).status_code < 500
    except requests.RequestException:
        return False


def build(spec: FrameworkVenv, venv: Path, marker: Path) -> float:
    """A fresh venv with the pinned requirements; returns the seconds it took."""
    start = time.perf_counter()
    shutil.rmtree(venv, ignore_errors=True)
    made = run_command([sys.executable, "-m", "venv", str(venv)], timeout=300)
    assert made.ok, f"python -m venv {venv} failed: {made.stderr[-2000:]}"
    pip = run_command([str(bin_python(venv)), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                       *spec.pip_args, *spec.requirements], timeout=1800)
    assert pip.ok, f"pip install {' '.join(spec.requirements)} failed:\n{pip.stdout[-2000:]}\n{pip.stderr[-3000:]}"
    marker.write_text("\n".join(spec.requirements) + "\n", encoding="utf-8")
    return time.perf_counter() - start


def python_for(key: str) -> str:
    """The interpreter for one key; pytest.skip with the reason where it cannot be had."""
    if key == "torch":
        pytest.importorskip("torch", reason="needs torch in the test interpreter: pip install -e '.[test]'")
        return sys.executable
    spec = BY_KEY[key]
    if sys.version_info[:2] > spec.max_python:
        pytest.skip(f"{' '.join(spec.requirements)} publishes no wheels for Python "
                    f"{sys.version_info[0]}.{sys.version_info[1]}")
    root = venv_root()
    root.mkdir(parents=True, exist_ok=True)
    venv = root / venv_name(spec)
    marker = venv.with_name(venv.name + ".built")
    wanted = "\n".join(spec.requirements) + "\n"
    with FileLock(str(venv) + ".lock", timeout=3600):
        if not (marker.is_file() and marker.read_text(encoding="utf-8") == wanted and bin_python(venv).exists()):
            marker.unlink(missing_ok=True)
            if not index_reachable():
                pytest.skip(f"needs {' '.join(spec.requirements)} from the package index, which cannot be reached "
                            f"(the venv would be built once in {venv})")
            seconds = build(spec, venv, marker)
            sys.stderr.write(f"\nbuilt the {key} venv in {seconds:.0f} s: {venv}\n")
    return str(bin_python(venv))


class Interpreters:
    """Session-wide: each interpreter looked up (or built) once; a skip is remembered too."""

    def __init__(self):
        self.found: dict = {}

    def get(self, key: str) -> str:
        if key not in self.found:
            try:
                self.found[key] = python_for(key)
            except pytest.skip.Exception as exc:
                self.found[key] = exc
        value = self.found[key]
        if isinstance(value, BaseException):
            pytest.skip(str(value))
        return value

