"""What a cold `macml verify --framework jax` spends compiling, and what XLA's choices cost per step:
each variant in a fresh process with no persistent compilation cache, on the default device.

    PYTHONPATH=src python benchmarks/jax_compile.py --data-dir ../shared/data/mnist

Variants: JAX's prepare() compiling the programs, under XLA_FLAGS as JAX ships them, with Triton
GEMMs off (what the verify workload sets when you set no XLA_FLAGS), or with autotuning off.
(benchmarks/results/h200-jax-compile.txt also compared compiling in threads: no faster.) Prints one
JSON line per variant: prepare_s (the compiles), then the timed training's median ms/step, the first
steps' warm-up (a compile missed by prepare shows there), and parity.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = [("XLA as JAX ships it", ""), ("triton gemm off (macml verify's default)", "--xla_gpu_enable_triton_gemm=false"),
            ("autotune off", "--xla_gpu_autotune_level=0")]

CHILD = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import _workload_common as W
import workload_jax
data = sys.argv[2:]
backend = workload_jax.JaxBackend()
args = W.workload_parser("jax").parse_args(data or ["--synthetic"])
info = backend.describe(args)
host, _, weights = W.read_data(args)
train = backend.load(*host) + (W.training_weights(weights), host[2])
accel = info["device"]
start = time.perf_counter()
if accel != "cpu":
    backend.prepare(accel, train, host, weights)
print(json.dumps({"event": "prepared", "prepare_s": time.perf_counter() - start, "device": accel}), flush=True)
W.time_training(backend, accel, train, train[2], "timing", 1.0, 300, 10, 5)
W.parity(backend, accel, accel, host, weights)
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    data = []
    if args.data_dir:
        images, labels = (str(args.data_dir / f"t10k-{k}-idx{n}-ubyte.gz") for k, n in (("images", 3), ("labels", 1)))
        data = ["--train", images, labels, "--train-slice", ":8000", "--test", images, labels, "--test-slice", "8000:"]
    for name, flags in VARIANTS:
        env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_COMPILATION_CACHE")}
        env.update(JAX_ENABLE_COMPILATION_CACHE="false", XLA_FLAGS=flags)
        start = time.perf_counter()
        proc = subprocess.run([args.python, "-c", CHILD, str(ROOT / "checks" / "workloads"), *data],
                              env=env, capture_output=True, text=True, timeout=300)
        events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
        got = {e["event"]: e for e in events}
        parity = [(e["precision"], round(e["grad_rel"], 6)) for e in events if e["event"] == "parity"]
        timing = got.get("timing", {})
        print(json.dumps({"variant": name, "exit": proc.returncode, "wall_s": round(time.perf_counter() - start, 2),
                          "prepare_s": round(got.get("prepared", {}).get("prepare_s", -1), 2),
                          "warmup_s": round(timing.get("warmup_s", -1), 3), "median_ms": timing.get("median_ms"),
                          "parity": parity, "stderr": proc.stderr[-300:] if proc.returncode else ""}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
