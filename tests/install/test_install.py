"""`macml install`: pip output parsing, the guard, and real installs into temporary venvs."""
from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from macml.install import command as install, pip as install_pip
from macml.errors import MacmlError
from macml.facts import CPUFacts, InterpreterFacts, MachineFacts, OSFacts
from macml.install.target import Target, confirm, guard_problems, resolve_target
from macml.recipes.catalog import find_recipe, load_all, match

from conftest import PROJECT as ROOT, RECIPE_FIXTURES as TEST_RECIPES

REPORT = """{"version": "1", "pip_version": "23.2.1", "install": [
 {"download_info": {"url": "file:///opt/wheels/torch-2.13.0%2Bcpu-cp311-cp311-manylinux_2_28_x86_64.whl"},
  "metadata": {"name": "torch", "version": "2.13.0+cpu"}},
 {"download_info": {"url": "https://files/x.whl"}, "metadata": {"name": "Jinja2", "version": "3.1.6"}}],
 "environment": {}}"""

FREEZE = """six==1.16.0
-e git+https://example.org/repo.git@abc#egg=mine
Tomli==2.0.1
pip==23.2.1
local-thing @ file:///tmp/local_thing-1.0-py3-none-any.whl
"""


def test_parse_report_lists_what_pip_would_install():
    assert install_pip.parse_report("WARNING: noise\n" + REPORT) == (("torch", "2.13.0+cpu"), ("Jinja2", "3.1.6"))


def test_parse_report_without_json_is_an_error():
    with pytest.raises(ValueError):
        install_pip.parse_report("ERROR: nothing")


def test_parse_freeze_keys_by_canonical_name_and_skips_editables():
    frozen = install_pip.parse_freeze(FREEZE)
    assert frozen == {"six": "six==1.16.0", "tomli": "Tomli==2.0.1", "pip": "pip==23.2.1",
                      "local-thing": "local-thing @ file:///tmp/local_thing-1.0-py3-none-any.whl"}


def test_diff_freeze():
    before = {"six": "six==1.16.0", "pip": "pip==23.2.1", "gone": "gone==1.0"}
    after = {"six": "six==1.17.0", "pip": "pip==23.2.1", "tomli": "tomli==2.0.1"}
    diff = install_pip.diff_freeze(before, after)
    assert diff.added == ("tomli",)
    assert diff.changed == (("six", "six==1.16.0", "six==1.17.0"),)
    assert diff.removed == ("gone",)
    assert install_pip.diff_freeze(before, dict(before)).empty


@pytest.mark.parametrize("target_pip, runner_pip, expected", [
    ("24.0", "20.0", ("/t/python", "-m", "pip")),
    (None, "23.2.1", (sys.executable, "-m", "pip", "--python", "/t/python")),
    ("22.0.4", "23.2.1", (sys.executable, "-m", "pip", "--python", "/t/python")),
    ("21.3.1", "22.0", ("/t/python", "-m", "pip")),
], ids=["own-pip", "runner-pip", "own-pip-too-old-to-plan", "both-old"])
def test_pip_argv(target_pip, runner_pip, expected):
    assert install_pip.pip_argv("/t/python", target_pip, runner_pip) == expected


def test_parse_pip_version():
    assert install_pip.parse_pip_version("pip 22.0.4 from /x/site-packages/pip (python 3.7)\n") == "22.0.4"
    assert install_pip.parse_pip_version("") is None


def test_pip_argv_without_any_usable_pip_says_what_to_do():
    with pytest.raises(MacmlError) as err:
        install_pip.pip_argv("/t/python", None, "22.0")
    assert "ensurepip" in err.value.hint


def test_plan_argv_is_a_dry_run_with_a_report():
    argv = install_pip.plan_argv(("py", "-m", "pip"), ["torch==2.13.0"], "https://download.pytorch.org/whl/cpu", True)
    assert argv == ["py", "-m", "pip", "install", "--dry-run", "--report", "-", "--quiet", "--ignore-installed",
                    "--index-url", "https://download.pytorch.org/whl/cpu", "torch==2.13.0"]


def _mac(machine="arm64", apple=True, kind="venv", managed=False):
    base = "/usr" if kind == "system" else "/opt/homebrew"
    interp = InterpreterFacts(executable=f"{base}/bin/python3", version="3.12.1", implementation="cpython",
                              machine=machine, prefix=base if kind == "system" else "/v", base_prefix=base,
                              externally_managed=managed)
    cpu = CPUFacts(brand="Apple M2", hardware_arch="arm64" if apple else "x86_64", apple_silicon=apple)
    return MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version="14.5"), cpu=cpu,
                        interpreter=interp)


GUARD_CASES = [
    (_mac(kind="system", managed=True), False, False, "externally managed"),
    (_mac(kind="system"), False, False, "--allow-system-python"),
    (_mac(kind="system", managed=True), False, True, None),
    (_mac(kind="system", managed=True), True, False, None),
    (_mac(), False, False, None),
]


@pytest.mark.parametrize("recipe", ["mlx", "pytorch-mps"])
def test_rosetta_python_is_refused_for_arm64_only_recipes_with_the_fix(recipe):
    found = match(find_recipe(recipe, load_all()), _mac(machine="x86_64"))
    assert not found.ok
    assert any("Rosetta" in r and "arm64" in r for r in found.reasons)


@pytest.mark.parametrize("facts, new_venv, allow_system, phrase", GUARD_CASES,
                         ids=["externally-managed", "system",
                              "system-allowed", "system-but-new-venv", "native-venv-ok"])
def test_guard(facts, new_venv, allow_system, phrase):
    target = Target(python="/x/bin/python", base_python="/usr/bin/python3", venv_dir=Path("/x") if new_venv else None,
                    create_venv=new_venv)
    problems = guard_problems(facts.interpreter, target, allow_system)
    if phrase is None:
        assert problems == []
    else:
        assert any(phrase in p for p in problems)


def test_confirmation_without_a_terminal_requires_yes(monkeypatch):
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    with pytest.raises(MacmlError) as err:
        confirm("Install?", yes=False)
    assert "--yes" in err.value.hint
    confirm("Install?", yes=True)  # no question asked


def test_venv_dir_that_is_not_a_venv_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(MacmlError):
        resolve_target(None, tmp_path)


def test_unknown_recipe_name_suggests():
    with pytest.raises(MacmlError) as err:
        install.run_install(recipe="pytorch-cuad", dry_run=True)
    assert "pytorch-cuda" in err.value.hint


def test_recipe_that_does_not_fit_this_machine_is_refused():
    if sys.platform == "darwin":
        pytest.skip("mlx may fit a Mac")
    with pytest.raises(MacmlError) as err:
        install.run_install(recipe="mlx", dry_run=True, offline=True)
    assert "needs macOS" in err.value.message


# ---------------------------------------------------------------- real installs from PyPI


def _freeze(python: Path) -> dict:
    return install_pip.freeze(install_pip.pip_argv(str(python), None))


@pytest.fixture
def venv_with_six(tmp_path):
    """A fresh venv (no pip of its own: macml drives it with `pip --python`) holding six 1.16.0."""
    venv = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "six==1.16.0"], check=True)
    return python


def test_install_small_recipe_for_real(venv_with_six):
    report = install.run_install(recipe_file=TEST_RECIPES / "small-ok.toml", python=str(venv_with_six), yes=True)
    assert report.ok and report.installed, report.failure
    assert report.preflight.ok and len(report.preflight.checks) == 2
    assert ("six", "1.17.0") in report.plan.packages and ("tomli", "2.0.1") in report.plan.packages
    frozen = _freeze(venv_with_six)
    assert frozen["six"] == "six==1.17.0" and frozen["tomli"] == "tomli==2.0.1"
    assert [s.ok for s in report.steps] == [True]


def test_failed_post_install_step_rolls_back_to_the_recorded_set(venv_with_six):
    before = _freeze(venv_with_six)
    report = install.run_install(recipe_file=TEST_RECIPES / "small-fails.toml", python=str(venv_with_six), yes=True)
    assert report.exit_code == 1
    assert "macml_test_no_such_module" in report.failure
    assert report.rollback.uninstalled == ("tomli",)
    assert report.rollback.reinstalled == ("six==1.16.0",)
    assert report.rollback.restored
    assert _freeze(venv_with_six) == before
    assert json.loads(json.dumps(report.to_json()))["rollback"]["restored"] is True


def test_unsatisfiable_requirement_changes_nothing(venv_with_six):
    before = _freeze(venv_with_six)
    report = install.run_install(recipe_file=TEST_RECIPES / "unsatisfiable.toml", python=str(venv_with_six),
                                 yes=True, offline=True)
    assert report.exit_code == 1
    assert "tomli==0.0.0.999" in report.plan.error
    assert report.install_command is None
    assert _freeze(venv_with_six) == before


def test_unsatisfiable_requirement_is_caught_by_the_preflight(venv_with_six):
    report = install.run_install(recipe_file=TEST_RECIPES / "unsatisfiable.toml", python=str(venv_with_six),
                                 yes=True)
    if report.preflight is None or report.preflight.skipped:
        pytest.skip("PyPI is not reachable from here")
    assert report.exit_code == 1 and report.plan is None
    assert [c.blocker for c in report.preflight.checks] == [None, "index"]


def test_failed_install_into_a_new_venv_removes_it(tmp_path):
    venv = tmp_path / "fresh"
    report = install.run_install(recipe_file=TEST_RECIPES / "small-fails.toml", venv=venv, yes=True, offline=True)
    assert report.exit_code == 1 and report.venv_created and report.venv_removed
    assert not venv.exists()


def _linux_cpu_torch() -> str:
    """The torch version pytorch-cpu pins for this interpreter on Linux ("2.15.0")."""
    facts = MachineFacts(platform="linux", os=OSFacts(system="Linux", name="Linux", version=""),
                         cpu=CPUFacts(brand="x", hardware_arch="x86_64"),
                         interpreter=InterpreterFacts(executable=sys.executable, version=platform.python_version(),
                                                      implementation="cpython", machine="x86_64", prefix="/v",
                                                      base_prefix="/usr"))
    found = match(find_recipe("pytorch-cpu", load_all()), facts)
    return found.requirements[0].split("==")[1] if found.ok else "none"


CPU_TORCH = _linux_cpu_torch()


@pytest.mark.skipif(not list(Path("/opt/wheels").glob(f"torch-{CPU_TORCH}+cpu-*.whl")),
                    reason=f"needs this CI machine's local torch {CPU_TORCH}+cpu wheel (download.pytorch.org is unreachable)")
def test_cli_dry_run_pytorch_cpu_shows_a_real_plan(tmp_path):
    venv = tmp_path / "torchenv"
    env = dict(os.environ, PIP_RETRIES="0", PYTHONPATH=str(ROOT / "src"))
    result = subprocess.run([sys.executable, "-m", "macml", "install", "--recipe", "pytorch-cpu", "--venv", str(venv),
                             "--dry-run", "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert f"--index-url https://download.pytorch.org/whl/cpu torch=={CPU_TORCH}" in data["plan"]["command"]
    assert {"name": "torch", "version": f"{CPU_TORCH}+cpu"} in data["plan"]["packages"]
    assert not venv.exists()  # a dry run creates nothing
