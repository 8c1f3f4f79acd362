"""The doctor's CLI contract: exit codes, clear errors, snapshots, and the live Linux machine."""
import json
import re
import shutil
import sys

import pytest

from conftest import MACHINES, run_macml


def test_list_checks_names_every_check():
    result = run_macml("doctor", "--list-checks")
    assert result.returncode == 0
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert {"rosetta_python", "nvidia_driver", "tensorflow_metal", "plaidml_devices", "framework_gpu"} <= set(names)


def test_only_the_named_checks_run():
    result = run_macml("doctor", "gpu", "--from", str(MACHINES / "linux-no-gpu.json"), "--json")
    assert {f["check"] for f in json.loads(result.stdout)["findings"]} == {"gpu"}


def test_unknown_check_is_a_usage_error_with_a_suggestion():
    result = run_macml("doctor", "nvidia_drivr", "--from", str(MACHINES / "linux-no-gpu.json"))
    assert result.returncode == 2
    assert "nvidia_driver" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("content, message", [
    ('{"macml_snapshot": 2, "platform": "linux", "commands": {}}', "format version 2"),
    ("this is not json", "nothing macml can read"),
    ('{"macml_snapshot": 1, "platform": "linux", ', "not valid JSON"),
    ('{"platform": "linux"}', "not a macml snapshot"),
    ('{"macml_snapshot": 1, "platform": "beos"}', "'platform' must be one of"),
], ids=["future-version", "not-json-nor-paste", "damaged", "no-marker", "bad-platform"])
def test_bad_snapshots_are_clear_errors(tmp_path, content, message):
    path = tmp_path / "snap.json"
    path.write_text(content)
    result = run_macml("doctor", "--from", str(path))
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_json_errors_are_json(tmp_path):
    result = run_macml("doctor", "--from", str(tmp_path / "absent.json"), "--json")
    assert result.returncode == 2
    assert "Cannot read snapshot" in json.loads(result.stdout)["error"]


def test_missing_interpreter_is_a_clear_error(tmp_path):
    result = run_macml("doctor", "--python", str(tmp_path / "no-python"))
    assert result.returncode == 2
    assert "--python" in result.stderr and "Traceback" not in result.stderr


def hang_nvidia_smi_and_garble_lscpu(snapshot):
    snapshot["commands"]["nvidia-smi"] = {"returncode": None, "stdout": "", "stderr": "", "timed_out": True}
    snapshot["commands"]["lscpu"] = {"returncode": 0, "stdout": "\ufffd\ufffd\x00garbage", "stderr": ""}


def test_hung_and_garbled_commands_become_a_finding(machine_variant):
    diagnosis = machine_variant("linux-no-gpu", hang_nvidia_smi_and_garble_lscpu)
    assert "nvidia-smi" in " ".join(diagnosis.finding("probe_problems").details)
    assert diagnosis.facts.cpu.brand == ""  # unknown: no placeholder name


def test_an_edited_machine_through_the_cli(tmp_path):
    """The one CLI smoke test of an edited recorded machine; the other variants run in-process."""
    snapshot = json.loads((MACHINES / "linux-no-gpu.json").read_text())
    hang_nvidia_smi_and_garble_lscpu(snapshot)
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot))
    result = run_macml("doctor", "--from", str(path), "--json")
    report = json.loads(result.stdout)
    assert result.returncode == report["exit_code"] == 0
    problems = [f for f in report["findings"] if f["check"] == "probe_problems"]
    assert problems and "nvidia-smi" in " ".join(problems[0]["details"])


@pytest.fixture(scope="module")
def live_snapshot(tmp_path_factory):
    folder = tmp_path_factory.mktemp("live")
    path = folder / "snapshot.json"
    # Module scope: the autouse cache isolation does not reach here, so isolate the cache explicitly.
    result = run_macml("doctor", "--save-snapshot", str(path), "--json", env={"MACML_CACHE_DIR": str(folder / "cache")})
    report = json.loads(result.stdout)
    assert result.returncode == report["exit_code"], result.stderr
    if any(probe["ok"] for probe in report["facts"]["frameworks"].values()):  # its answer was cached, here
        assert list((folder / "cache").rglob("*.json"))
    return json.loads(path.read_text()), report


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the live check compares against Linux tools (lscpu, /proc)")
def test_live_doctor_is_right_about_this_linux_machine(live_snapshot):
    snapshot, report = live_snapshot
    facts = report["facts"]
    assert snapshot["macml_snapshot"] == 1 and snapshot["platform"] == "linux" == facts["platform"]
    assert facts["interpreter"]["executable"] == sys.executable
    assert facts["interpreter"]["version"] == "%d.%d.%d" % sys.version_info[:3]
    assert "cat /etc/os-release" in snapshot["commands"]
    with open("/etc/os-release") as handle:
        assert facts["os"]["version"] in handle.read()
    has_nvidia = shutil.which("nvidia-smi") is not None
    assert ("nvidia-smi" in snapshot["commands"]) == has_nvidia
    if not has_nvidia and shutil.which("rocm-smi") is None:
        assert facts["gpus"] == []
    try:
        import torch  # noqa: F401 - only to learn whether the probe should have found it
        assert facts["frameworks"]["torch"]["ok"]
        assert facts["frameworks"]["torch"]["data"]["version"] == torch.__version__
    except ImportError:
        assert "torch" not in facts["frameworks"]


def test_replaying_a_live_snapshot_gives_the_same_report(live_snapshot, tmp_path):
    snapshot, report = live_snapshot
    path = tmp_path / "again.json"
    path.write_text(json.dumps(snapshot))
    replayed = json.loads(run_macml("doctor", "--from", str(path), "--json").stdout)
    assert replayed["facts"] == report["facts"]
    assert replayed["findings"] == report["findings"]


def test_doctor_never_imports_a_framework_itself():
    code = ("import sys; from macml.diagnose.doctor import run_doctor; run_doctor(use_cache=False); "
            "print(sorted(m for m in ('torch', 'tensorflow', 'mlx', 'jax') if m in sys.modules))")
    result = run_macml_python(code)
    assert result.stdout.strip().splitlines()[-1] == "[]"


def run_macml_python(code):
    import os
    import subprocess
    from conftest import PROJECT
    env = dict(os.environ, PYTHONPATH=str(PROJECT / "src"))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_a_venv_python_is_probed_as_the_venv_not_its_base(tmp_path):
    import subprocess
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    venv_python = tmp_path / "venv" / "bin" / "python"
    report = json.loads(run_macml("doctor", "--python", str(venv_python), "--json").stdout)
    interp = report["facts"]["interpreter"]
    assert interp["kind"] == "venv" and interp["prefix"] == str(tmp_path / "venv")
    assert "torch" not in report["facts"]["frameworks"]


@pytest.mark.parametrize("python, frameworks, level", [
    ("3.7.17", {}, "fail"),
    ("3.15.0", {}, None),
    ("3.7.17", {"plaidml": {"installed": True, "ok": True, "devices": ["llvm_cpu.0"]}}, "warn"),
], ids=["py37-nothing-installed", "py315-supported", "py37-with-a-working-framework"])
def test_python_with_no_wheel_for_the_recommended_framework(machine_variant, python, frameworks, level):
    def edit(snapshot):
        snapshot["interpreter"]["version"] = python
        snapshot["frameworks"] = frameworks

    diagnosis = machine_variant("mac-m1-air-8gb", edit, only=["python_wheels"])
    assert [f.level for f in diagnosis.findings] == ([level] if level else [])
    if level:
        assert "no wheel for Python 3.7" in diagnosis.findings[0].message


def test_snapshot_into_a_folder_is_a_clear_error(tmp_path):
    result = run_macml("doctor", "--from", str(MACHINES / "linux-no-gpu.json"), "--save-snapshot", str(tmp_path))
    assert result.returncode == 2
    assert "Cannot write snapshot" in result.stderr and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []  # no temporary left behind


def test_malformed_interpreter_section_is_a_clear_error(tmp_path):
    snapshot = json.loads((MACHINES / "linux-no-gpu.json").read_text())
    snapshot["interpreter"]["packages"] = ["torch"]
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot))
    result = run_macml("doctor", "--from", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{path}: 'interpreter': 'packages' must be an object of strings" in result.stderr


# 2.5.1's MPS runs on 13 (only the current release is out of reach: a warning); 2.13's needs 14 (a failure)
@pytest.mark.parametrize("torch, level", [("2.5.1", "warn"), ("2.13.0", "fail")], ids=["torch-2.5-runs-on-13", "torch-2.13-needs-14"])
def test_macos_too_old_for_the_installed_torch(machine_variant, torch, level):
    def edit(snapshot):  # mac-m1-pro runs macOS 13.6.7
        snapshot["interpreter"]["packages"]["torch"] = torch

    assert machine_variant("mac-m1-pro", edit, only=["macos_version"]).levels() == {"macos_version": level}


def test_a_named_check_that_does_not_apply_says_so():
    result = run_macml("doctor", "cuda_arch", "--from", str(MACHINES / "linux-no-gpu.json"))
    assert result.returncode == 0
    assert "cuda_arch does not apply to this machine" in result.stdout


def test_a_check_name_in_other_capitals_gets_a_suggestion():
    result = run_macml("doctor", "GPU", "--from", str(MACHINES / "linux-no-gpu.json"))
    assert result.returncode == 2
    assert "Unknown check 'GPU'" in result.stderr and re.search(r"Did you mean: gpu\b", result.stderr)
