"""A local wheelhouse for install tests that must not touch the network: wheels built here, recipes
over them, venvs holding a known state, and how to start and watch a real `macml install`."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from macml.install import pip as install_pip, rollback as install_rollback

from conftest import PROJECT, build_wheel

SLOW_FILES = 12000  # small files: pip takes seconds to unpack them, long enough to be interrupted


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory):
    house = tmp_path_factory.mktemp("wheelhouse")
    for version in ("0.9", "1.0"):
        build_wheel(house, "aaa-fast", version, {"aaa_fast/__init__.py": f"VERSION = {version!r}\n".encode()})
    slow = {f"slowpkg/data/f{i:05d}.txt": b"x" for i in range(SLOW_FILES)}
    hold = b"import os, time\ntime.sleep(float(os.environ.get('SLOWPKG_IMPORT_SECONDS', '0')))\n"
    build_wheel(house, "slowpkg", "1.0", {"slowpkg/__init__.py": hold, **slow})
    build_wheel(house, "bigpkg", "1.0", {"bigpkg/__init__.py": b"", "bigpkg/blob.bin": os.urandom(40 << 20)})
    return house


RECIPE = """name = "{name}"
summary = "test"
framework = "none"
[[pins]]
label = "{name}"
requirements = {requirements}
[[post_install]]
action = "check-import"
modules = {modules}
"""


@pytest.fixture(scope="module")
def recipes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("recipes")
    cases = {"slow": (["aaa-fast==1.0", "slowpkg==1.0"], ["aaa_fast", "slowpkg"]),
             "fails": (["aaa-fast==1.0"], ["aaa_fast", "macml_test_no_such_module"]),
             "big": (["aaa-fast==1.0", "bigpkg==1.0"], ["bigpkg"]),
             "ok": (["aaa-fast==1.0"], ["aaa_fast"])}
    for name, (requirements, modules) in cases.items():
        (folder / f"{name}.toml").write_text(RECIPE.format(name=name, requirements=requirements, modules=modules)
                                             .replace("'", '"'))
    return folder


@pytest.fixture
def local_index(wheelhouse, monkeypatch):
    """pip and uv (in this process and in the CLI's) see only the wheelhouse."""
    env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse), "UV_NO_INDEX": "1",
           "UV_FIND_LINKS": str(wheelhouse), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


def make_venv(where: Path, wheelhouse: Path) -> Path:
    """A venv without pip of its own (macml drives it with `pip --python`) holding aaa-fast 0.9."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index",
                    "--find-links", str(wheelhouse), "aaa-fast==0.9"], check=True)
    return python


def state(python: Path) -> install_rollback.EnvState:
    """What `pip freeze --all` lists, and the listing of the install directories."""
    dirs = install_rollback.install_dirs(str(python))
    return install_rollback.EnvState(install_pip.freeze(install_pip.pip_argv(str(python), None)),
                                     install_rollback.list_dirs(dirs))


def site_packages(python: Path) -> Path:
    return Path(next(d for d in install_rollback.install_dirs(str(python)) if "site-packages" in d))


def start_macml(recipe: Path, python: "Path | None", env: dict, *extra: str) -> subprocess.Popen:
    """`macml install` of recipe into python (None: a --venv among extra), in a session of its own."""
    target = ["--python", str(python)] if python else []
    argv = [sys.executable, "-m", "macml", "install", "--recipe-file", str(recipe), *target, "--yes", "--offline", *extra]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=dict(os.environ, PYTHONPATH=str(PROJECT / "src"), **env))


def wait_for(condition, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def unpacking(python: Path):
    """True once pip has started writing slowpkg's files (aaa-fast is installed by then)."""
    return lambda: (site_packages(python) / "slowpkg" / "data").is_dir()


def pip_process(proc: subprocess.Popen):
    for child in psutil.Process(proc.pid).children(recursive=True):
        if "pip" in " ".join(child.cmdline()) and "install" in child.cmdline():
            return child
    return None
