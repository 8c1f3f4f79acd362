"""The PyTorch workload on the CPU: the model, the IDX reader, parity, and the real CLI."""
from __future__ import annotations

import importlib.util
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from conftest import PROJECT as ROOT, SHARED_MNIST, load_check_script, needs_mnist


@pytest.fixture(scope="module")
def workload():
    return load_check_script("workloads/workload_torch.py")


def events_of(fn, *args, **kw):
    out = io.StringIO()
    with redirect_stdout(out):
        fn(*args, **kw)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_model_is_the_keras_mnist_cnn(workload):
    model = workload.build_model(torch.nn)
    assert sum(p.numel() for p in model.parameters()) == 1_199_882
    assert model(torch.zeros(2, 1, 28, 28)).shape == (2, 10)


@needs_mnist
def test_workload_reads_the_shared_split(workload):
    x, y = workload.load_split(str(SHARED_MNIST / "t10k-images-idx3-ubyte.gz"),
                               str(SHARED_MNIST / "t10k-labels-idx1-ubyte.gz"), "8000:", torch)
    assert x.shape == (2000, 1, 28, 28) and x.dtype == torch.uint8 and y.shape == (2000,)


def test_workload_refuses_a_truncated_file(workload, tmp_path):
    path = tmp_path / "bad"
    path.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 9]) + b"\x00\x00")
    with pytest.raises(ValueError, match="truncated"):
        workload.read_idx(str(path), torch)


def test_parity_cpu_against_cpu_is_exact_enough(workload):
    x = torch.randint(0, 256, (128, 1, 28, 28), dtype=torch.uint8)
    y = torch.randint(0, 10, (128,))
    (event,) = events_of(workload.parity, torch, torch.device("cpu"), x, y, strict=True)
    assert event["finite"] and event["precision"] == "fp32"
    assert event["logits_rel"] < 1e-6 and event["grad_rel"] < 1e-6


def test_batches_drop_the_last_partial_batch_and_reshuffle(workload):
    x = torch.zeros(300, 1, 28, 28, dtype=torch.uint8)
    trainer = workload.Trainer(torch, torch.device("cpu"), x, torch.zeros(300, dtype=torch.long), 0, False)
    batches = list(trainer.batches(5))
    assert len(batches) == 5 and all(b.shape == (128,) for b in batches)
    assert len(set(batches[0].tolist()) | set(batches[1].tolist())) == 256  # one epoch: no repeats


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, "-m", "macml", "verify", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@needs_mnist
def test_cli_without_accelerator_fails_with_cpu_numbers():
    if torch.cuda.is_available() or torch.backends.mps.is_available():
        pytest.skip("this machine has an accelerator")
    proc = run_cli("--data-dir", str(SHARED_MNIST), "--steps", "8", "--cpu-seconds", "0.5", "--json")
    assert proc.returncode == 1, proc.stderr
    run = json.loads(proc.stdout)["runs"][0]
    assert run["verdict"] == "FAIL"
    assert {c["name"]: c["status"] for c in run["checks"]}["accelerator"] == "fail"
    assert run["cpu"]["median_ms"] > 0 and run["accuracy"]["steps"] == 8
    assert run["accuracy"]["accuracy"] > 0.2  # 8 steps already beat chance


@needs_mnist
def test_cli_cpu_only_check_passes_as_text():
    proc = run_cli("--data-dir", str(SHARED_MNIST), "--device", "cpu", "--steps", "6", "--cpu-seconds", "0.5")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "CPU-only" in proc.stdout and "torch: PASS" in proc.stdout


def test_cli_synthetic_states_no_accuracy_claim():
    proc = run_cli("--synthetic", "--device", "cpu", "--cpu-seconds", "0.3", "--json")
    run = json.loads(proc.stdout)["runs"][0]
    assert proc.returncode == 0 and run["accuracy_claim"] is False and run["accuracy"] is None


def test_cli_missing_data_dir_is_a_user_error(tmp_path):
    proc = run_cli("--data-dir", str(tmp_path), "--json")
    assert proc.returncode == 2 and "--synthetic" in json.loads(proc.stdout)["hint"]
