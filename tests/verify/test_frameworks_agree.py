"""Every framework's workload run for real on the CPU, and one training step compared across
frameworks: the same spec'd weights and the same batch (--synthetic's generated one) must give
the same logits, loss and gradients, in Keras layout, within FP32 rounding.

torch runs in the test interpreter; TensorFlow 2.21 (Keras 3), TensorFlow 2.15 (Keras 2), JAX and
MLX in venvs that tests/framework_venvs.py builds once and caches.
"""
from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest

from conftest import SHARED_MNIST, run_macml
from framework_venvs import FRAMEWORK, KEYS
from macml.probe.runner import run_command
from macml.paths import check_script

np = pytest.importorskip("numpy", reason="compares the frameworks' step dumps with numpy: pip install -e '.[test]'")
pytestmark = pytest.mark.heavy

# Measured here, all pairs of the five: worst logits 1.2e-6 (MLX against TF), loss 2.1e-7,
# gradients 7.7e-6 (torch against MLX); a layout or model mistake shows as errors near 1.
TOLERANCE = {"logits": 1e-5, "loss": 1e-5, "gradients": 1e-4}


def rel_error(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.linalg.norm(a - b) / max(float(np.linalg.norm(b)), 1e-30))


@pytest.fixture(scope="session")
def step_of(interpreters, tmp_path_factory):
    """key -> {"logits", "loss", "gradients"} of one step, from the workload's --dump-step NPZ."""
    folder, found = tmp_path_factory.mktemp("steps"), {}

    def step(key):
        if key not in found:
            python, path = interpreters.get(key), folder / f"{key}.npz"
            script = check_script(f"workloads/workload_{FRAMEWORK[key]}.py")
            result = run_command([python, str(script), "--device", "cpu", "--synthetic", "--dump-step", str(path)],
                                 timeout=600)
            assert result.ok, f"{key} --dump-step failed:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
            with np.load(path) as npz:
                found[key] = {"logits": npz["logits"], "loss": float(npz["loss"]),
                              "gradients": [npz[f"grad{i}"] for i in range(8)]}
        return found[key]
    return step


@pytest.mark.parametrize("first, second", list(itertools.combinations(KEYS, 2)),
                         ids=[f"{a}-vs-{b}" for a, b in itertools.combinations(KEYS, 2)])
def test_one_step_agrees_across_frameworks(step_of, first, second):
    a, b = step_of(first), step_of(second)
    assert a["logits"].shape == b["logits"].shape == (128, 10)
    assert [g.shape for g in a["gradients"]] == [g.shape for g in b["gradients"]]  # Keras layout in both
    errors = {"logits": rel_error(a["logits"], b["logits"]),
              "loss": abs(a["loss"] - b["loss"]) / abs(b["loss"]),
              "gradients": max(rel_error(x, y) for x, y in zip(a["gradients"], b["gradients"]))}
    over = {k: v for k, v in errors.items() if not v <= TOLERANCE[k]}
    assert not over, f"{first} and {second} differ: {errors} (tolerance {TOLERANCE})"


@pytest.mark.parametrize("key", KEYS)
def test_workload_trains_a_few_steps_through_macml_verify(interpreters, key):
    python = interpreters.get(key)
    with_data = (SHARED_MNIST / "t10k-images-idx3-ubyte.gz").exists()
    data = ["--data-dir", str(SHARED_MNIST)] if with_data else ["--synthetic"]
    proc = run_macml("verify", "--python", python, "--framework", FRAMEWORK[key], "--device", "cpu", "--steps", "2",
                     "--cpu-seconds", "0.1", "--json", *data, timeout=900)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]  # 2 steps: accuracy not judged
    run = json.loads(proc.stdout)["runs"][0]
    checks = {c["name"]: c["status"] for c in run["checks"]}
    assert run["device"]["framework"] == FRAMEWORK[key] and run["device"]["device"] == "cpu"
    assert checks["accelerator"] == "pass" and checks["parity"] == "pass", run["checks"]
    assert run["verdict"] == "NOT JUDGED" and run["not_judged"] == ["accuracy"]
    assert run["cpu"]["steps"] >= 3 and run["cpu"]["median_ms"] > 0 and "workload" not in checks
    if with_data:
        assert run["accuracy"]["steps"] == 2 and 0 <= run["accuracy"]["accuracy"] <= 1
    if FRAMEWORK[key] == "jax":  # JAX kept its compiled steps in macml's cache (the next verify skips compiling)
        assert list((Path(os.environ["MACML_CACHE_DIR"]) / "jax-compile").glob("jit_step-*"))


PREPARED_RUN = r'''
import io, logging, sys
sys.path.insert(0, sys.argv[1])
import _workload_common as W
import workload_jax
backend = workload_jax.JaxBackend()
args = W.workload_parser("jax").parse_args(["--device", "cpu", "--synthetic"])
backend.describe(args)
host, _, weights = W.read_data(args)
train = backend.load(*host) + (W.training_weights(weights), host[2])
backend.prepare("cpu", train, host, weights)
import jax
log = io.StringIO()
logging.getLogger("jax").addHandler(logging.StreamHandler(log))
jax.config.update("jax_log_compiles", True)
W.time_training(backend, "cpu", train, train[2], "timing", 0.2, 3, 1, 1)
W.parity(backend, "cpu", "cpu", host, weights)
W.accuracy(backend, "cpu", train, backend.load(*host) + (host[2],), 2)
print("COMPILED", [line for line in log.getvalue().splitlines() if line.startswith("Compiling jit(")])
'''


def test_jax_prepare_compiles_every_program_the_run_then_uses(interpreters, tmp_path):
    """JAX's prepare() compiles ahead (in threads) the training step and every parity step; after it,
    the timing, parity and accuracy phases compile nothing but the small helpers (data conversion, keys)."""
    script = tmp_path / "prepared.py"
    script.write_text(PREPARED_RUN)
    result = run_command([interpreters.get("jax"), str(script), str(check_script("workloads"))], timeout=600)
    line = next((l for l in result.stdout.splitlines() if l.startswith("COMPILED")), None)
    assert result.returncode == 0 and line, result.stdout[-2000:] + result.stderr[-2000:]
    compiled = line[len("COMPILED "):]
    assert "jit(step)" not in compiled and "jit(<lambda>)" not in compiled, compiled
