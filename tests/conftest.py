import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
MACHINES = PROJECT / "tests" / "machines"
SHARED = PROJECT.parent / "shared"


def machine_files():
    return sorted(MACHINES.glob("*.json"))


def run_macml(*args, env=None, timeout=120):
    """Run the real CLI in a subprocess, as a user would."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(PROJECT / "src") + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "macml", *args], capture_output=True, text=True,
                          env=full_env, timeout=timeout)


@pytest.fixture
def shared_mnist():
    path = SHARED / "data" / "mnist"
    if not (path / "t10k-images-idx3-ubyte.gz").exists():
        pytest.skip(f"the shared MNIST split is not at {path} (../shared is absent)")
    return path


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    """Never read or write the user's real cache from tests."""
    monkeypatch.setenv("MACML_CACHE_DIR", str(tmp_path / "macml-cache"))


def load_json(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))
