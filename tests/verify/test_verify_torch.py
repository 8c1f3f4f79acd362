"""The PyTorch workload on the CPU: the model, the IDX reader, parity, and the real CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="needs torch in the test interpreter: pip install -e '.[test]'")

from conftest import PROJECT as ROOT, SHARED_MNIST, load_check_script, needs_mnist


@pytest.fixture(scope="module")
def workload():
    return load_check_script("workloads/workload_torch.py")


@pytest.fixture(scope="module")
def backend(workload):
    import argparse
    b = workload.TorchBackend()
    b.describe(argparse.Namespace(device="cpu", no_graphs=True))
    return b


def test_model_is_the_keras_mnist_cnn(workload):
    model = workload.build_model(torch.nn)
    assert sum(p.numel() for p in model.parameters()) == 1_199_882
    assert model(torch.zeros(2, 1, 28, 28)).shape == (2, 10)


@pytest.mark.parametrize("name, shape", [("conv1_kernel", (3, 3, 1, 32)), ("dense1_kernel", (9216, 128)),
                                         ("dense2_kernel", (128, 10)), ("conv2_bias", (64,))])
def test_layout_conversion_round_trips(workload, name, shape):
    value = torch.randn(shape)
    back = workload.to_keras_layout(torch, name, workload.to_torch_layout(torch, name, value))
    assert torch.equal(back.contiguous(), value)


def test_unknown_device_is_a_usage_error(workload):
    import argparse
    with pytest.raises(Exception, match="no device 'tpu'") as info:
        workload.TorchBackend().describe(argparse.Namespace(device="tpu", no_graphs=True))
    assert type(info.value).__name__ == "UsageError"


def idx(dims, payload):
    import struct
    return bytes([0, 0, 8, len(dims)]) + struct.pack(">" + "I" * len(dims), *dims) + bytes(payload)


@pytest.mark.parametrize("images, labels, message", [
    (idx((2, 28, 28), [0] * 1568), idx((3,), [1, 2, 3]), "labels for the 2 images"),
    (idx((2, 28, 28), [0] * 1568), idx((2,), [1, 200]), "label 200"),
    (idx((2, 27, 28), [0] * 1512), idx((2,), [1, 2]), "not 28x28"),
    (idx((2, 28, 28), [0] * 100), idx((2,), [1, 2]), "truncated"),
], ids=["count-mismatch", "label-200", "shape", "truncated"])
def test_bad_data_names_the_file(tmp_path, images, labels, message):
    common = load_check_script("workloads/_workload_common.py")
    (tmp_path / "img").write_bytes(images)
    (tmp_path / "lab").write_bytes(labels)
    with pytest.raises(ValueError, match=message) as info:
        common.read_split(str(tmp_path / "img"), str(tmp_path / "lab"), ":")
    assert str(tmp_path) in str(info.value)


def test_truncated_gzip_names_the_file(tmp_path):
    import gzip
    common = load_check_script("workloads/_workload_common.py")
    path = tmp_path / "img.gz"
    path.write_bytes(gzip.compress(idx((2, 28, 28), [0] * 1568))[:-10])
    with pytest.raises(ValueError, match="not a complete gzip file") as info:
        common.idx_payload(str(path))
    assert str(path) in str(info.value)


def test_batches_drop_the_last_partial_batch_and_reshuffle(workload, backend):
    spec = load_check_script("workloads/_model_spec.py")
    x = torch.zeros(300, 1, 28, 28, dtype=torch.uint8)
    trainer = backend.trainer("cpu", x, torch.zeros(300, dtype=torch.long), spec.training_weights(spec.initial_weights()))
    batches = list(trainer.batches(5))
    assert len(batches) == 5 and all(b.shape == (128,) for b in batches)
    assert len(set(batches[0].tolist()) | set(batches[1].tolist())) == 256  # one epoch: no repeats
    assert trainer.placement()[0] == "cpu"


def run_cli(*args, pythonpath=str(ROOT / "src")):
    env = dict(os.environ, PYTHONPATH=pythonpath)
    return subprocess.run([sys.executable, "-m", "macml", "verify", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def no_accelerator_here():
    if torch.cuda.is_available() or torch.backends.mps.is_available():
        pytest.skip("this machine has an accelerator")


@needs_mnist
@pytest.mark.heavy
def test_cli_without_accelerator_says_so_and_judges_the_cpu_run():
    no_accelerator_here()
    proc = run_cli("--data-dir", str(SHARED_MNIST), "--steps", "8", "--cpu-seconds", "0.5")
    assert proc.returncode == 1, proc.stderr  # 8 steps: accuracy cannot be judged
    assert "no accelerator found (torch.cuda.is_available() is False" in proc.stdout
    assert " ✓ accelerator: no accelerator, and macml doctor finds no GPU here" in proc.stdout
    assert "torch: NOT JUDGED (not judged: accuracy)" in proc.stdout


@needs_mnist
@pytest.mark.heavy
def test_cli_cpu_only_check_passes_as_text():
    proc = run_cli("--data-dir", str(SHARED_MNIST), "--device", "cpu", "--steps", "6", "--cpu-seconds", "0.5")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # 6 steps: accuracy cannot be judged
    assert "CPU-only" in proc.stdout and "torch: NOT JUDGED (not judged: accuracy)" in proc.stdout


@pytest.mark.heavy
def test_cli_synthetic_states_no_accuracy_claim():
    proc = run_cli("--synthetic", "--device", "cpu", "--cpu-seconds", "0.3", "--json")
    run = json.loads(proc.stdout)["runs"][0]
    assert proc.returncode == 1 and run["accuracy_claim"] is False and run["accuracy"] is None
    assert run["verdict"] == "NOT JUDGED" and run["not_judged"] == ["accuracy"]
    checks = {c["name"]: c["status"] for c in run["checks"]}
    assert checks["parity"] == "pass" and run["parity"][0]["grad_rel"] < 1e-4  # measured 5.1e-6 (random pixels: 1.2e-3)


@needs_mnist
@pytest.mark.heavy
def test_cli_whole_epoch_on_a_machine_without_accelerator_passes_without_numpy(numpy_hidden):
    no_accelerator_here()
    proc = run_cli("--data-dir", str(SHARED_MNIST), "--cpu-seconds", "0.3", "--json", pythonpath=numpy_hidden)
    run = json.loads(proc.stdout)["runs"][0]
    assert proc.returncode == 0, (run["checks"], proc.stderr)
    assert run["verdict"] == "PASS" and run["cpu_only"] is True and run["accelerator_found"] is False
    assert {c["name"]: c["status"] for c in run["checks"]}["parity"] == "pass"
    assert run["parity"][0]["reference"] == "torch-float64"  # torch's own float64: no NumPy needed


def test_cli_device_the_target_lacks_is_a_user_error():
    proc = run_cli("--synthetic", "--device", "mps", "--json")
    assert proc.returncode == 2 and "mps" in json.loads(proc.stdout)["error"]


def test_cli_device_torch_does_not_name_is_a_user_error_naming_its_devices():
    proc = run_cli("--synthetic", "--device", "gpu", "--json")
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"] == (
        "--device gpu is not a torch device: torch takes cuda, mps or cpu.")


def test_cli_missing_data_dir_is_a_user_error(tmp_path):
    proc = run_cli("--data-dir", str(tmp_path), "--json")
    assert proc.returncode == 2 and "--synthetic" in json.loads(proc.stdout)["hint"]
