"""`macml install`: pip output parsing, the guard, and real installs into temporary venvs."""
from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from macml.install import command as install, pip as install_pip, rollback as install_rollback
from macml.errors import MacmlError
from macml.facts import CPUFacts, InterpreterFacts, MachineFacts, OSFacts
from macml.install.downloads import parse_report
from macml.install.sources import PipConfig, install_sources
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


def test_parse_report_lists_what_pip_would_install_and_from_where():
    picked = parse_report("WARNING: noise\n" + REPORT)
    assert [(d.name, d.version) for d in picked] == [("torch", "2.13.0+cpu"), ("Jinja2", "3.1.6")]
    assert picked[0].local and picked[1].url == "https://files/x.whl" and not picked[1].local


def test_parse_report_without_json_is_an_error():
    with pytest.raises(ValueError):
        parse_report("ERROR: nothing")


def test_parse_freeze_keys_by_canonical_name_and_skips_editables():
    frozen = install_pip.parse_freeze(FREEZE)
    assert frozen == {"six": "six==1.16.0", "tomli": "Tomli==2.0.1", "pip": "pip==23.2.1",
                      "local-thing": "local-thing @ file:///tmp/local_thing-1.0-py3-none-any.whl"}


def test_parse_state_writes_lines_as_pip_freeze_does():
    out = json.dumps({"dirs": ["/v/lib/python3.11/site-packages", "/v/bin"],
                      "freeze": ["six==1.17.0", "Tomli==2.0.1", "six==1.16.0", "local-thing @ file:///w/l.whl"]})
    dirs, packages = install_rollback.parse_state(out)
    assert dirs == ("/v/lib/python3.11/site-packages", "/v/bin")
    assert packages == {"six": "six==1.17.0", "tomli": "Tomli==2.0.1", "local-thing": "local-thing @ file:///w/l.whl"}
    assert install_rollback.parse_state(json.dumps({"dirs": [], "freeze": None})) == ((), None)


def test_recorded_state_matches_pip_freeze(tmp_path):
    venv = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    assert install_rollback.record(python).packages == _freeze(venv / "bin" / "python")


def test_diff_freeze():
    before = {"six": "six==1.16.0", "pip": "pip==23.2.1", "gone": "gone==1.0"}
    after = {"six": "six==1.17.0", "pip": "pip==23.2.1", "tomli": "tomli==2.0.1"}
    diff = install_rollback.diff_freeze(before, after)
    assert diff.added == ("tomli",)
    assert diff.changed == (("six", "six==1.16.0", "six==1.17.0"),)
    assert diff.removed == ("gone",)
    assert install_rollback.diff_freeze(before, dict(before)).empty


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


def test_plan_argv_is_a_dry_run_with_a_report_and_bounded_retries():
    pip = install_pip.Installer("pip", ("py", "-m", "pip"))
    argv = pip.plan(["torch==2.13.0"], install_sources("https://download.pytorch.org/whl/cpu", PipConfig()), True)
    assert argv == ["py", "-m", "pip", "install", "--retries", "1", "--timeout", "15", "--dry-run", "--report", "-",
                    "--quiet", "--ignore-installed", "--index-url", "https://download.pytorch.org/whl/cpu",
                    "torch==2.13.0"]


@pytest.mark.parametrize("ignore_installed, expected", [
    (False, ["uv", "pip", "install", "--python", "/t/python", "--dry-run", "six==1.17.0"]),
    (True, ["uv", "pip", "compile", "--python", "/t/python", "--quiet", "-"]),
], ids=["existing-env", "new-venv"])
def test_uv_plan_argv(ignore_installed, expected):
    assert install_pip.Installer("uv", ("uv", "--python", "/t/python")).plan(
        ["six==1.17.0"], install_sources(None, PipConfig()), ignore_installed) == expected


def test_uninstall_argv_per_tool():
    assert install_pip.Installer("pip", ("p", "-m", "pip")).uninstall(["six"])[-2:] == ["--yes", "six"]
    assert install_pip.Installer("uv", ("uv", "--python", "/t")).uninstall(["six"]) == [
        "uv", "pip", "uninstall", "--python", "/t", "six"]


UV_DRY_RUN = """Using Python 3.11.7 environment at: /v
Resolved 2 packages in 112ms
Would download 1 package
Would uninstall 1 package
Would install 2 packages
 - six==1.16.0
 + six==1.17.0
 + tomli==2.0.1
"""
UV_COMPILE = """# This file was autogenerated by uv via the following command:
#    uv pip compile --python /usr/bin/python3 -
six==1.17.0
    # via -r -
tomli==2.0.1
"""


@pytest.mark.parametrize("output, expected", [
    (UV_DRY_RUN, (("six", "1.17.0"), ("tomli", "2.0.1"))),
    (UV_COMPILE, (("six", "1.17.0"), ("tomli", "2.0.1"))),
    ("error: No solution found", ()),
], ids=["install-dry-run", "compile", "error"])
def test_parse_uv_plan(output, expected):
    assert install_pip.parse_uv_plan(output) == expected


PIP_UNREACHABLE = """WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused')': /whl/cpu/torch/
ERROR: Could not find a version that satisfies the requirement torch==2.13.0 (from versions: none)
ERROR: No matching distribution found for torch==2.13.0
"""
PIP_NAMED_HOST = ("ERROR: Could not install packages due to an OSError: HTTPSConnectionPool(host='files.example.org', "
                  "port=443): Max retries exceeded with url: /x.whl (Caused by NewConnectionError('...'))")
UV_UNREACHABLE = ("error: Request failed after 1 retry\n  Caused by: Failed to fetch: `https://pypi.org/simple/six/`\n"
                  "  Caused by: error sending request for url (https://pypi.org/simple/six/)")


@pytest.mark.parametrize("stderr, index_url, host", [
    (PIP_UNREACHABLE, "https://download.pytorch.org/whl/cpu", "download.pytorch.org"),
    (PIP_NAMED_HOST, None, "files.example.org"),
    (UV_UNREACHABLE, None, "pypi.org"),
    ("ERROR: No matching distribution found for tomli==0.0.0.999", None, None),
], ids=["pip-retry-warning-names-the-index", "pip-names-the-host", "uv", "not-the-network"])
def test_unreachable_host(stderr, index_url, host):
    assert install_pip.unreachable_host(stderr, index_url) == host


def test_tool_error_names_a_signal_and_an_unreachable_host():
    from macml.probe.runner import CommandResult

    assert install_pip.tool_error(CommandResult(("pip",), -9), "pip") == "pip was killed by SIGKILL"
    failed = CommandResult(("pip",), 1, stderr=PIP_UNREACHABLE)
    said = install_pip.tool_error(failed, "pip", "https://download.pytorch.org/whl/cpu", suggest_offline=True)
    assert said.startswith("cannot reach download.pytorch.org") and "--offline" in said
    given = install_pip.tool_error(failed, "pip", "https://download.pytorch.org/whl/cpu")  # --offline was passed
    assert given.startswith("cannot reach download.pytorch.org") and "--offline" not in given


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
    problems = guard_problems(facts, target, allow_system)
    if phrase is None:
        assert problems == ()
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
    assert [s.ok for s in report.applied.steps] == [True]


@pytest.mark.heavy
def test_failed_post_install_step_rolls_back_to_the_recorded_set(venv_with_six):
    before = _freeze(venv_with_six)
    report = install.run_install(recipe_file=TEST_RECIPES / "small-fails.toml", python=str(venv_with_six), yes=True)
    assert report.exit_code == 1
    assert "macml_test_no_such_module" in report.reason
    rollback = report.applied.rollback
    assert rollback.uninstalled == ("tomli",)
    assert rollback.reinstalled == ("six==1.16.0",)
    assert rollback.restored
    assert _freeze(venv_with_six) == before
    assert json.loads(json.dumps(report.to_json()))["rollback"]["restored"] is True


def test_unsatisfiable_requirement_changes_nothing(venv_with_six):
    before = _freeze(venv_with_six)
    report = install.run_install(recipe_file=TEST_RECIPES / "unsatisfiable.toml", python=str(venv_with_six),
                                 yes=True, offline=True)
    assert report.exit_code == 1
    assert "tomli==0.0.0.999" in report.plan.error
    assert report.applied is None
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
    assert report.exit_code == 1 and report.applied.venv_created and report.applied.venv_removed
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
                    reason=f"needs a torch {CPU_TORCH}+cpu wheel in /opt/wheels: only download.pytorch.org publishes it, and it cannot be reached from here")
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


@pytest.mark.parametrize("promises_gpu, ok", [(False, True), (True, False)], ids=["cpu-recipe", "gpu-recipe"])
def test_after_is_judged_against_the_recipe_promise_on_a_machine_without_gpu(promises_gpu, ok):
    from macml.facts import FrameworkFacts
    from macml.install.steps import acceleration

    after = acceleration(FrameworkFacts(name="torch", ok=True, data={}), None, promises_gpu)
    assert after.ok is ok and not after.accelerated


def test_report_prints_outside_text_literally():
    from rich.console import Console

    from macml.install.report import InstallReport

    report = InstallReport(recipe="r", pin_label="[bold]pin[/]", target="/home/u/[old]/venv/bin/python", venv=None,
                           dry_run=True, requirements=(), warnings=("index [/x] is odd",),
                           guard=("[red]refused[/] here",), failure="pip said [/oops]")
    console = Console(record=True, width=200)
    report.render_text(console, verbose=False)
    text = console.export_text()
    for literal in ("[bold]pin[/]", "/home/u/[old]/venv/bin/python", "index [/x] is odd", "[red]refused[/] here",
                    "pip said [/oops]"):
        assert literal in text
