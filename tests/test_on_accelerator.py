"""On a machine with an accelerator (an NVIDIA GPU here; the same tests on a Mac with MPS): the live
doctor sees every GPU nvidia-smi lists and torch seeing it, and `macml verify` passes there on the
real MNIST test split. Elsewhere they skip, saying what they need."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import PROJECT, SHARED_MNIST, needs_mnist

torch = pytest.importorskip("torch", reason="these tests need torch in the interpreter that runs them")


def nvidia_smi_gpus() -> list:
    if not shutil.which("nvidia-smi"):
        return []
    proc = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                          capture_output=True, text=True, timeout=60)
    return [line.strip() for line in proc.stdout.splitlines() if line.strip()] if proc.returncode == 0 else []


def macml(*args, timeout=900):
    env = dict(os.environ, PYTHONPATH=str(PROJECT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "macml", *args], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def accelerator() -> str:
    if torch.cuda.is_available():
        return "cuda"
    if torch.backends.mps.is_available():
        return "mps"
    pytest.skip("needs a GPU that torch can use (CUDA or Apple MPS); this machine has none")


def test_live_doctor_sees_each_nvidia_gpu_and_torch_using_it():
    names = nvidia_smi_gpus()
    if not names:
        pytest.skip("needs an NVIDIA GPU that nvidia-smi lists; this machine has none")
    proc = macml("doctor", "--json", timeout=300)
    report = json.loads(proc.stdout)
    gpus = report["facts"]["gpus"]
    models = [g["model"] for g in gpus if g["vendor"] == "NVIDIA"]
    assert len(models) == len(names), gpus
    assert all(any(m in n or n in m for m in models) for n in names), (names, models)
    torch_facts = report["facts"]["frameworks"]["torch"]["data"]
    assert torch_facts["cuda_available"] is True and torch_facts["device_names"], torch_facts
    failed = [f for f in report["findings"] if f["level"] == "fail"]
    assert not failed, failed
    assert not any(f["message"].startswith("No GPU found") for f in report["findings"])


@needs_mnist
def test_verify_passes_on_the_accelerator_with_the_real_test_split():
    device = accelerator()
    proc = macml("verify", "--framework", "torch", "--data-dir", str(SHARED_MNIST), "--json")
    run = json.loads(proc.stdout)["runs"][0]
    assert proc.returncode == 0 and run["verdict"] == "PASS", (run["checks"], proc.stderr[-2000:])
    assert run["device"]["device"] == device and run["device"]["framework"] == "torch", run["device"]
    statuses = {check["name"]: check["status"] for check in run["checks"]}
    assert statuses["accelerator"] == statuses["parity"] == statuses["accuracy"] == "pass", run["checks"]
    assert run["accuracy"]["accuracy"] >= 0.9 and run["speedup"] > 1.0, (run["accuracy"], run["speedup"])
