"""`macml install` killed with SIGKILL, where nothing of it can run: its children die with it (Linux:
the parent-death signal; everywhere: they hold the install lock while they live), and the next install
into that environment finds the journal, says what happened, and restores the environment before
anything else. Killed at three points: while pip plans, while pip installs, during a post-install step."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from conftest import PROJECT, ReplyHandler, local_http_server
from macml.errors import MacmlError
from macml.install import lock
from local_wheels import (local_index, make_venv, recipes, site_packages, start_macml, state, unpacking,  # noqa: F401
                          wait_for, wheelhouse)


def running(proc, *words):
    """The descendants of proc whose command line holds every one of words (None until one does)."""
    def found():
        try:
            children = psutil.Process(proc.pid).children(recursive=True)
        except psutil.Error:
            return []
        return [c for c in children if _cmdline_has(c, words)]
    return found


def _cmdline_has(process, words):
    try:
        line = " ".join(process.cmdline())
    except psutil.Error:
        return False
    return all(word in line for word in words)


def kill_9(proc):
    """SIGKILL macml alone, and the processes it had started then."""
    children = psutil.Process(proc.pid).children(recursive=True)
    proc.kill()
    proc.communicate(timeout=30)
    return children


def assert_none_survive(children):
    _, alive = psutil.wait_procs(children, timeout=10)
    survivors = [" ".join(p.cmdline()) for p in alive if p.is_running()]
    for process in alive:
        process.kill()
    assert not survivors, survivors


class NeverAnswers(ReplyHandler):
    def do_GET(self):
        time.sleep(30)


@pytest.mark.parametrize("point", ["plan", "pip install", "post-install step"])
@pytest.mark.heavy
def test_kill_9_then_the_next_install_restores_the_environment(tmp_path, wheelhouse, recipes, local_index, point):
    python = make_venv(tmp_path / "env", wheelhouse)
    before = state(python)
    if point == "plan":  # an index that never answers holds pip's resolver
        with local_http_server(NeverAnswers) as url:
            proc = start_macml(recipes / "slow.toml", python, dict(local_index, PIP_FIND_LINKS=url))
            wait_for(running(proc, "--dry-run"), "pip to plan")
            assert_none_survive(kill_9(proc))
    else:
        proc = start_macml(recipes / "slow.toml", python, dict(local_index, SLOWPKG_IMPORT_SECONDS="60"))
        wait_for(unpacking(python) if point == "pip install" else running(proc, "importlib", "slowpkg"),
                 f"macml to reach the {point}")
        assert_none_survive(kill_9(proc))
    # The next install (one whose post-install step fails, so it rolls its own changes back) must find
    # what the killed one left and restore it first: then nothing differs from before.
    after = start_macml(recipes / "fails.toml", python, local_index)
    out, err = after.communicate(timeout=180)
    assert after.returncode == 1, out + err
    killed = f"a previous macml install (pid {proc.pid}) into"
    if point == "plan":
        assert killed not in out  # nothing had been changed, nothing was journaled
    else:
        assert killed in out and f"was killed during {point}" in " ".join(out.split()), out
        assert "restoring the environment to what it was before" in " ".join(out.split())
    assert state(python) == before


@pytest.mark.parametrize("signum", [signal.SIGTERM, pytest.param(signal.SIGHUP, marks=pytest.mark.heavy)],
                         ids=["sigterm", "sighup"])
def test_a_signal_while_pip_plans_stops_pip_and_exits_128_plus_it(tmp_path, wheelhouse, recipes, local_index, signum):
    python = make_venv(tmp_path / "env", wheelhouse)
    before = state(python)
    with local_http_server(NeverAnswers) as url:
        proc = start_macml(recipes / "slow.toml", python, dict(local_index, PIP_FIND_LINKS=url))
        wait_for(running(proc, "--dry-run"), "pip to plan")
        children = psutil.Process(proc.pid).children(recursive=True)
        os.kill(proc.pid, signum)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, out + err
    assert f"interrupted by {signal.Signals(signum).name}" in err
    assert_none_survive(children)
    assert state(python) == before


@pytest.mark.heavy
def test_a_venv_a_killed_install_was_creating_is_removed_not_reused(tmp_path, recipes, local_index):
    venv = tmp_path / "fresh"
    proc = start_macml(recipes / "slow.toml", None, local_index, "--venv", str(venv))
    wait_for(lambda: (venv / "bin" / "python").exists() and unpacking(venv / "bin" / "python")(),
             "pip to start unpacking into the new venv")
    assert_none_survive(kill_9(proc))
    after = start_macml(recipes / "ok.toml", None, local_index, "--venv", str(venv), "--json")
    out, err = after.communicate(timeout=300)
    report = json.loads(out)
    assert after.returncode == 0, out + err
    assert any(f"removed the venv {venv} it was creating" in line for line in report["recovered"]), report
    assert report["venv_created"]
    packages = state(venv / "bin" / "python").packages
    assert "slowpkg" not in packages and packages["aaa-fast"] == "aaa-fast==1.0"
    assert not (site_packages(venv / "bin" / "python") / "slowpkg").exists()


@pytest.mark.heavy
def test_a_dry_run_tells_of_a_killed_install_and_changes_nothing(tmp_path, wheelhouse, recipes, local_index):
    python = make_venv(tmp_path / "env", wheelhouse)
    proc = start_macml(recipes / "slow.toml", python, local_index)
    wait_for(unpacking(python), "pip to start unpacking slowpkg")
    assert_none_survive(kill_9(proc))
    half = state(python)
    dry = start_macml(recipes / "ok.toml", python, local_index, "--dry-run")
    out, _ = dry.communicate(timeout=120)
    assert f"a previous macml install (pid {proc.pid})" in out and "restores the environment first" in out
    assert state(python) == half


LOCK_HOLDER = """
import sys
from macml.install import lock
from macml.probe import runner
runner._prctl = lambda: None  # as on macOS: no parent-death signal, only the inherited lock
with lock.exclusive(sys.argv[1]):
    runner.run_command(["sleep", "60"], timeout=120)
"""


@pytest.mark.skipif(os.name != "posix", reason="the lock is inherited through a POSIX descriptor")
def test_the_lock_is_held_while_a_child_of_a_killed_install_lives(tmp_path):
    env_dir = str(tmp_path / "env")
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, env_dir],
                              env=dict(os.environ, PYTHONPATH=str(PROJECT / "src")))
    wait_for(running(holder, "sleep", "60"), "the lock holder's child")
    (child,) = running(holder, "sleep", "60")()
    holder.kill()
    holder.wait()
    try:
        with pytest.raises(MacmlError, match="Another macml install"):
            with lock.exclusive(env_dir, wait=False):
                pass
    finally:
        child.kill()
        child.wait(10)
    with lock.exclusive(env_dir, wait=False):  # free once the last holder is gone
        pass


def test_a_journal_macml_did_not_write_is_a_clear_error(tmp_path, wheelhouse, recipes, local_index):
    from macml.install import command as install, journal

    python = make_venv(tmp_path / "env", wheelhouse)
    path = journal.path_for(str(tmp_path / "env"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"macml_install_journal": 1, "pid": "not a number"}')
    with pytest.raises(MacmlError, match="install journal .* cannot be read") as error:
        install.run_install(recipe_file=recipes / "ok.toml", python=str(python), yes=True, offline=True)
    assert "delete the journal" in error.value.hint
