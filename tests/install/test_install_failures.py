"""`macml install` stopped in the ordinary ways (signals, a killed pip, a full disk, a second install
at once): the environment must end byte-for-byte as it was, judged by `pip freeze` and the listing of
its install directories. Offline: every package is a wheel built here into a local wheelhouse."""
from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import psutil
import pytest

from macml.install import command as install, pip as install_pip

from local_wheels import (local_index, make_venv, pip_process, recipes, start_macml, state, unpacking, wait_for,  # noqa: F401
                          wheelhouse)


@pytest.mark.parametrize("signum, to_group", [
    (signal.SIGINT, True), pytest.param(signal.SIGTERM, False, marks=pytest.mark.heavy),
    pytest.param(signal.SIGHUP, False, marks=pytest.mark.heavy),
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


@pytest.mark.heavy
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


@pytest.mark.heavy
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


@pytest.mark.heavy
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


# ---------------------------------------------------------------- honest reports, clear errors


@pytest.mark.parametrize("make_cache", ["file", pytest.param("read-only", marks=pytest.mark.heavy)])
def test_an_unusable_cache_dir_is_a_clear_error_before_anything_changes(tmp_path, wheelhouse, recipes, local_index,
                                                                         make_cache):
    python = make_venv(tmp_path / "env", wheelhouse)
    before = state(python)
    cache = tmp_path / "cache"
    if make_cache == "file":
        cache.write_text("not a folder")
    else:
        _mount_tmpfs(cache, "1m")
        subprocess.run(["mount", "-o", "remount,ro", str(cache)], check=True)
    try:
        proc = start_macml(recipes / "ok.toml", python, dict(local_index, MACML_CACHE_DIR=str(cache)))
        out, err = proc.communicate(timeout=120)
    finally:
        if make_cache == "read-only":
            subprocess.run(["umount", str(cache)], check=False)
    assert proc.returncode == 2 and "Traceback" not in out + err, out + err
    assert "MACML_CACHE_DIR" in err and str(cache) in " ".join(err.split())
    assert state(python) == before


def test_a_requirement_whose_marker_never_matches_is_not_reported_installed(tmp_path, wheelhouse, recipes,
                                                                             local_index):
    python = make_venv(tmp_path / "env", wheelhouse)
    before = state(python)
    recipe = tmp_path / "never.toml"
    recipe.write_text('name = "never"\nsummary = "s"\nframework = "none"\n[[pins]]\nlabel = "never"\n'
                      "requirements = ['aaa-fast==1.0; sys_platform == \"nonexistent\"']\n")
    proc = start_macml(recipe, python, local_index)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, out + err
    assert "already satisfied" not in out and "Installed" not in out
    assert 'does not apply to this interpreter (sys_platform == "nonexistent")' in " ".join(out.split())
    assert state(python) == before


def test_a_venv_that_could_not_be_created_is_not_reported_removed(tmp_path, recipes, local_index, monkeypatch):
    from macml.install import target as install_target

    monkeypatch.setattr(install_target, "VENV_TIMEOUT", 0.01)  # `python -m venv` is stopped at once
    venv = tmp_path / "fresh"
    report = install.run_install(recipe_file=recipes / "ok.toml", venv=venv, yes=True, offline=True)
    assert report.exit_code == 1 and "Could not create a venv" in report.reason
    assert not report.applied.venv_created and not report.applied.venv_removed
    assert not venv.exists()


@pytest.mark.heavy
def test_a_pre_existing_folder_is_reported_kept_not_removed(tmp_path, recipes, local_index):
    from rich.console import Console

    venv = tmp_path / "mine"
    venv.mkdir()
    report = install.run_install(recipe_file=recipes / "fails.toml", venv=venv, yes=True, offline=True)
    console = Console(record=True, width=300)
    report.render_text(console, verbose=False)
    text = console.export_text()
    assert "created by this run was removed" not in text
    assert f"the venv files this run put in {venv} were removed; the folder is kept" in text
