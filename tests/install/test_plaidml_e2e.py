"""PlaidML end to end on Linux CPU (llvm_cpu.0): `macml install --recipe plaidml-amd` from PyPI
into a new venv, configure without prompts, probe, doctor, run the verify workload a few steps.

Needs an old CPython (plaidml-keras 0.7.0 / Keras 2.2.4): MACML_PLAIDML_PYTHON, else a
pyenv 3.7. Every run installs the recipe into a new venv, so an install regression fails here;
only pip's downloads are cached (in the temp dir), so just the first run fetches about 100 MB.
"""
import glob
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from macml.install import plaidml as plaidml_setup
from macml.errors import MacmlError
from macml.paths import check_script
from macml.probe.runner import run_command
from macml.verify.result import FP64_REF_TOL

from conftest import run_macml

CPU = "llvm_cpu.0"


def plaidml_capable_python():
    chosen = os.environ.get("MACML_PLAIDML_PYTHON")
    if chosen:
        return chosen
    found = sorted(glob.glob("/root/.pyenv/versions/3.7*/bin/python"))
    return found[-1] if found else shutil.which("python3.7")


BASE_PYTHON = plaidml_capable_python()
pytestmark = [pytest.mark.heavy, pytest.mark.skipif(
    not BASE_PYTHON, reason="needs Python 3.6 or 3.7 for plaidml-keras 0.7.0 (none under pyenv; set MACML_PLAIDML_PYTHON)")]


def checked(argv, timeout):
    result = run_command(argv, timeout=timeout)
    assert result.ok, "%s failed:\n%s\n%s" % (" ".join(argv), result.stdout[-2000:], result.stderr[-2000:])
    return result


DOWNLOADS = Path(tempfile.gettempdir()) / "macml-plaidml-cache" / "pip"


def install_recipe(venv: Path) -> str:
    """The real thing: `macml install --recipe plaidml-amd` into a new venv made from BASE_PYTHON."""
    env = dict(os.environ, PLAIDML_SETTINGS=str(venv.parent / (venv.name + "-settings.json")),
               PIP_CACHE_DIR=str(DOWNLOADS))
    result = run_macml("install", "--recipe", "plaidml-amd", "--python", BASE_PYTHON, "--venv", str(venv), "--yes",
                       env=env, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "plaidml-configure: PlaidML's config files are in place" in result.stdout
    assert "PlaidML will use llvm_cpu.0" in result.stdout
    assert "uninstall: removed enum34" in result.stdout
    return str(venv / "bin" / "python")


@pytest.fixture(scope="module")
def plaidml_python(tmp_path_factory):
    return install_recipe(tmp_path_factory.mktemp("plaidml") / "venv")


def test_doctor_sees_the_installed_recipe(plaidml_python, isolated):
    plaidml_setup.configure(plaidml_python)
    report = json.loads(run_macml("doctor", "--python", plaidml_python, "--json", "--refresh").stdout)
    probe = report["facts"]["frameworks"]["plaidml"]
    assert probe["ok"] and CPU in probe["data"]["devices"]
    levels = {f["check"]: f["level"] for f in report["findings"]}
    # This machine has no GPU, so PlaidML runs on llvm_cpu: installed correctly, but not green.
    assert levels["plaidml_install"] == "ok" and levels["plaidml_devices"] == "warn"
    devices = next(f for f in report["findings"] if f["check"] == "plaidml_devices")
    assert "the CPU" in devices["message"]


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """Settings and Keras' config in tmp_path: the real ~/.plaidml and ~/.keras stay untouched."""
    settings = tmp_path / "plaidml.json"
    monkeypatch.setenv("PLAIDML_SETTINGS", str(settings))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras"))
    for name in ("PLAIDML_DEVICE_IDS", "PLAIDML_EXPERIMENTAL"):
        monkeypatch.delenv(name, raising=False)
    return settings


def test_configure_probe_and_verify_on_llvm_cpu(plaidml_python, isolated):
    message = plaidml_setup.configure(plaidml_python)
    assert CPU in message and str(isolated) in message
    assert json.loads(isolated.read_text()) == {"PLAIDML_DEVICE_IDS": [CPU], "PLAIDML_EXPERIMENTAL": True}

    facts = plaidml_setup.probe(plaidml_python, ignore_settings=False)
    assert facts["ok"], facts["error"]
    assert CPU in facts["devices"]
    assert facts["configured_devices"] == [CPU]
    assert facts["settings_file"] == str(isolated)
    assert facts["keras_version"] == "2.2.4" and facts["enum34"] is False
    assert facts["config_present"] and facts["experimental_present"]

    assert plaidml_setup.install_config_files(plaidml_python).startswith("PlaidML's config files are in place")

    script = str(check_script("workloads/workload_plaidml.py"))
    result = run_command([plaidml_python, script, "--synthetic", "--cpu-seconds", "0"], timeout=600, env=dict(os.environ))
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert result.ok, result.stderr[-3000:]
    by_kind = {e["event"]: e for e in events}
    assert by_kind["device"]["device_id"] == CPU and by_kind["device"]["device"] == "cpu"
    parity = by_kind["parity"]
    assert parity["reference"] == "numpy-float64" and parity["finite"]
    assert parity["logits_rel"] < FP64_REF_TOL and parity["grad_rel"] < FP64_REF_TOL  # measured 7.5e-7, 7.7e-6
    timing = by_kind["timing"]
    assert timing["device"] == "cpu" and timing["steps"] >= 3 and timing["median_ms"] > 0
    assert timing["mode"] == "keras-train_on_batch" and "llvm_cpu.0" in timing["placement"]
    assert by_kind["matmul"]["tflops"] > 0
    assert events[-1]["event"] == "done"


def test_configure_rejects_a_device_plaidml_cannot_see(plaidml_python, isolated):
    with pytest.raises(MacmlError, match="no device"):
        plaidml_setup.configure(plaidml_python, device_id="metal_amd_radeon_pro_560x.0")
    assert not isolated.exists()
