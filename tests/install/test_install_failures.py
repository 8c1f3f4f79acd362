"""`macml install` stopped in the ordinary ways (signals, a killed pip, a full disk, a second install
at once): the environment must end byte-for-byte as it was, judged by `pip freeze` and the listing of
its install directories. Offline: every package is a wheel built here into a local wheelhouse."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from macml.install import command as install, pip as install_pip, rollback as install_rollback

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


def start_macml(recipe: Path, python: Path, env: dict, *extra: str) -> subprocess.Popen:
    argv = [sys.executable, "-m", "macml", "install", "--recipe-file", str(recipe), "--python", str(python),
            "--yes", "--offline", *extra]
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


@pytest.mark.parametrize("signum, to_group", [
    (signal.SIGINT, True), (signal.SIGTERM, False), (signal.SIGHUP, False),
], ids=["ctrl-c-to-the-process-group", "sigterm-to-macml-alone", "sighup-to-macml-alone"])
def test_signal_during_pip_restores_freeze_and_files(tmp_path, wheelhouse, recipes, local_index, signum, to_group):
    python = make_venv(tmp_path / "env", wheelhouse)
    before = state(python)
    proc = start_macml(recipes / "slow.toml", python, local_index)
    wait_for(unpacking(python), "pip to start unpacking slowpkg")
    os.killpg(proc.pid, signum) if to_group else os.kill(proc.pid, signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, out + err
    assert f"interrupted by {signal.Signals(signum).name} during pip install" in out
    assert "the previous package set and files are restored" in out
    after = state(python)
    assert after.packages == before.packages and after.listing == before.listing
    assert not [p for p in psutil.process_iter(["cmdline"]) if str(python) in " ".join(p.info["cmdline"] or [])]


def test_pip_killed_is_named_and_rolled_back(tmp_path, wheelhouse, recipes, local_index):
    python = make_venv(tmp_path / "env", wheelhouse)
    before = state(python)
    proc = start_macml(recipes / "slow.toml", python, local_index)
    wait_for(unpacking(python), "pip to start unpacking slowpkg")
    pip_process(proc).kill()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, out + err
    assert "pip install failed: pip was killed by SIGKILL" in out
    after = state(python)
    assert after.packages == before.packages and after.listing == before.listing


def test_second_install_waits_or_fails_at_once_and_never_undoes_the_first(tmp_path, wheelhouse, recipes,
                                                                          local_index):
    python = make_venv(tmp_path / "env", wheelhouse)
    # the first holds the lock through its post-install import, which takes 15 s
    first = start_macml(recipes / "slow.toml", python, dict(local_index, SLOWPKG_IMPORT_SECONDS="15"))
    wait_for(unpacking(python), "the first install to hold the lock")
    refused = start_macml(recipes / "fails.toml", python, local_index, "--no-wait")
    waiting = start_macml(recipes / "fails.toml", python, local_index)
    out, err = refused.communicate(timeout=60)
    assert refused.returncode == 1 and "Another macml install into" in out + err
    assert first.poll() is None, "the first install ended before the second one asked for the lock"
    first_out, first_err = first.communicate(timeout=120)
    out, err = waiting.communicate(timeout=120)
    assert first.returncode == 0, first_out + first_err
    assert "Waiting for another macml install" in err
    assert waiting.returncode == 1 and "the previous package set and files are restored" in out
    frozen = state(python).packages
    assert frozen["slowpkg"] == "slowpkg==1.0" and frozen["aaa-fast"] == "aaa-fast==1.0"


def _mount_tmpfs(where: Path, size: str) -> None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    where.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")


def test_full_disk_leaves_no_debris(tmp_path, wheelhouse, recipes, local_index):
    disk = tmp_path / "small-disk"
    _mount_tmpfs(disk, "24m")
    try:
        python = make_venv(disk / "env", wheelhouse)
        before = state(python)
        report = install.run_install(recipe_file=recipes / "big.toml", python=str(python), yes=True, offline=True)
        assert report.exit_code == 1 and "pip install failed" in report.reason
        assert report.applied.rollback.restored, report.applied.rollback
        assert any(Path(p).name == "bigpkg" for p in report.applied.rollback.removed)  # the half-written package
        after = state(python)
        assert after.packages == before.packages and after.listing == before.listing
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_failure_keeps_a_pre_existing_empty_venv_directory(tmp_path, recipes, local_index):
    venv = tmp_path / "mine"
    venv.mkdir()
    report = install.run_install(recipe_file=recipes / "fails.toml", venv=venv, yes=True, offline=True)
    assert report.exit_code == 1 and report.applied.venv_removed
    assert venv.is_dir() and not any(venv.iterdir())


# ---------------------------------------------------------------- uv, end to end


@pytest.fixture
def uv():
    found = install_pip.find_uv()
    if found is None:
        pytest.skip("uv is not installed (pip install uv: it is in the [test] extra)")
    return found


def test_uv_plans_installs_and_rolls_back(tmp_path, wheelhouse, recipes, local_index, uv):
    python = make_venv(tmp_path / "env", wheelhouse)
    before = state(python)
    planned = install.run_install(recipe_file=recipes / "ok.toml", python=str(python), dry_run=True, offline=True,
                                  use_uv=True)
    assert planned.ok and planned.plan.tool == "uv" and planned.plan.argv[:3] == (uv, "pip", "install")
    assert planned.plan.packages == (("aaa-fast", "1.0"),)
    assert state(python) == before
    failed = install.run_install(recipe_file=recipes / "fails.toml", python=str(python), yes=True, offline=True,
                                 use_uv=True)
    assert failed.exit_code == 1 and failed.applied.command.startswith(f"{uv} pip install")
    assert failed.applied.rollback.restored and failed.applied.rollback.reinstalled == ("aaa-fast==0.9",)
    after = state(python)
    assert after.packages == before.packages and after.listing == before.listing
    done = install.run_install(recipe_file=recipes / "ok.toml", python=str(python), yes=True, offline=True,
                               use_uv=True)
    assert done.ok and state(python).packages["aaa-fast"] == "aaa-fast==1.0"


def test_uv_plans_a_new_venv_with_compile(tmp_path, recipes, local_index, uv):
    planned = install.run_install(recipe_file=recipes / "ok.toml", venv=tmp_path / "new", dry_run=True, offline=True,
                                  use_uv=True)
    assert planned.ok and "compile" in planned.plan.argv and planned.plan.packages == (("aaa-fast", "1.0"),)
    assert not (tmp_path / "new").exists()
