#!/usr/bin/env bash
# All H200 measurements in one batch; run from the repo root, writes under $OUT:
#   h200-env.txt           GPU, driver, CPU cores, python and framework versions
#   h200-verify-wall.txt   benchmarks/verify_wall.py: whole `macml verify` for torch, jax and all default
#                          frameworks, $RUNS interleaved runs each, beside the naive floor (benchmarks/
#                          naive_floor.py), with issue 17's goals; every run's JSON in h200-verify-wall/
#   h200-verify-speed.txt  benchmarks/verify_speed.py: torch graph/eager vs the peer loop, JAX jit vs plain
#   h200-doctor.txt/.json  the live `macml doctor` (text, then --json)
#   h200-pytest.txt        the hardware tests (tests/test_on_accelerator.py), which skip elsewhere
# The per-run JSON folder is packed into h200-verify-wall.tgz (the device returns at most 8 files).
# Needs only torch, jax (which brings numpy) and macml's own dependencies in $PYTHON.
set -u
OUT=${OUT:-benchmarks/results}
PYTHON=${PYTHON:-python3}
if [ -z "${DATA:-}" ]; then
  DATA=shared/data/mnist; [ -d "$DATA" ] || DATA=../shared/data/mnist
fi
RUNS=${RUNS:-3}
mkdir -p "$OUT"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}

{
  date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
  echo "cores: $(nproc)"; uptime
  "$PYTHON" -c 'import sys; print("python", sys.version.split()[0])'
  "$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tail -1
  "$PYTHON" -c 'import jax; print("jax", jax.__version__, jax.devices())' 2>&1 | tail -1
  echo "DATA=$DATA"; ls -l "$DATA" 2>&1
} > "$OUT/h200-env.txt" 2>&1

"$PYTHON" -m macml doctor > "$OUT/h200-doctor.txt" 2>&1
"$PYTHON" -m macml doctor --json > "$OUT/h200-doctor.json" 2>>"$OUT/h200-doctor.txt"
timeout 240 "$PYTHON" -m pytest -q -p no:cacheprovider -rs tests/test_on_accelerator.py \
  > "$OUT/h200-pytest.txt" 2>&1

# Issue 17: whole `macml verify` (torch, jax, and all default frameworks) against the naive floor,
# interleaved in one batch; the raw JSON of every run lands beside the summary.
"$PYTHON" benchmarks/verify_wall.py --data-dir "$DATA" --runs "$RUNS" --out "$OUT/h200-verify-wall" \
  > "$OUT/h200-verify-wall.txt" 2>&1

# torch and JAX share the GPU in this one process: JAX allocates on demand instead of taking 75% up front.
# SPEED=0 leaves this part out (when only the wall times are wanted).
if [ "${SPEED:-1}" != 0 ]; then
  XLA_PYTHON_CLIENT_PREALLOCATE=false "$PYTHON" benchmarks/verify_speed.py --data-dir "$DATA" \
    > "$OUT/h200-verify-speed.txt" 2>&1
fi
tar -czf "$OUT/h200-verify-wall.tgz" -C "$OUT" h200-verify-wall && rm -rf "$OUT/h200-verify-wall"
cat "$OUT/h200-verify-wall.txt" "$OUT/h200-pytest.txt"; cat "$OUT/h200-verify-speed.txt" 2>/dev/null
