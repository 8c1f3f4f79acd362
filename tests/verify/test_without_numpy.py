"""`macml verify` of torch where NumPy is not installed (torch does not depend on it): the float64
reference is torch's own, the data is read with torch.frombuffer, and the data-parallel workload
gathers its reports without torch's NumPy-based object collectives.

Cheap first: the workload in the test interpreter with NumPy hidden. Then the proof: a real venv
holding torch alone (tests/framework_venvs.py builds it once and keeps it), through the CLI."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import PROJECT, SHARED_MNIST, needs_mnist, run_macml
from macml.paths import check_script

pytest.importorskip("torch")


@pytest.mark.heavy
def test_torch_workload_judges_parity_and_dumps_a_step_with_numpy_hidden(numpy_hidden, tmp_path):
    script = str(check_script("workloads/workload_torch.py"))
    env = {"PYTHONPATH": numpy_hidden, "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, script, "--device", "cpu", "--synthetic", "--cpu-seconds", "0.2"],
                         capture_output=True, text=True, env=env, timeout=300, cwd=PROJECT)
    events = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert run.returncode == 0 and events[-1]["event"] == "done", run.stderr[-2000:]
    (parity,) = [e for e in events if e["event"] == "parity"]
    assert parity["reference"] == "torch-float64" and parity["finite"]
    assert parity["grad_rel"] < 1e-4  # measured 4.9e-6, as against the NumPy reference
    assert not [e for e in events if e["event"] == "note"]
    assert "NumPy" not in run.stderr  # torch's "Failed to initialize NumPy" warning is not shown
    dump = tmp_path / "step.npz"
    made = subprocess.run([sys.executable, script, "--device", "cpu", "--synthetic", "--dump-step", str(dump)],
                          capture_output=True, text=True, env=env, timeout=300, cwd=PROJECT)
    assert made.returncode == 0, made.stderr[-2000:]
    np = pytest.importorskip("numpy")  # here, in the test process, to read the file back
    with np.load(dump) as npz:
        assert npz["logits"].shape == (128, 10) and npz["grad4"].shape == (9216, 128) and 2.0 < float(npz["loss"]) < 2.6


@pytest.fixture(scope="module")
def torch_only(interpreters):
    python = interpreters.get("torch-only")
    probe = subprocess.run([python, "-c", "import numpy"], capture_output=True, text=True)
    assert probe.returncode != 0, "the torch-only venv holds numpy"
    return python


@needs_mnist
@pytest.mark.heavy
def test_torch_only_venv_passes_the_cpu_check(torch_only):
    proc = run_macml("verify", "--python", torch_only, "--data-dir", str(SHARED_MNIST), "--device", "cpu",
                     "--cpu-seconds", "0.3", "--json", timeout=600)
    run = json.loads(proc.stdout)["runs"][0]
    assert proc.returncode == 0 and run["verdict"] == "PASS", (run["checks"], run["notes"])
    assert run["parity"][0]["reference"] == "torch-float64"


@needs_mnist
@pytest.mark.heavy
def test_torch_only_venv_passes_data_parallel_on_the_cpu(torch_only):
    proc = run_macml("verify", "--python", torch_only, "--nproc", "2", "--device", "cpu", "--data-dir",
                     str(SHARED_MNIST), "--steps", "4", "--json", timeout=600)
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["verdict"] == "PASS", (report["checks"], report["stderr_tail"][-2000:])
