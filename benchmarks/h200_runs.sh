#!/usr/bin/env bash
# All H200 measurements for issue 13 in one batch; run from the repo root, writes 4 files under $OUT:
#   h200-env.txt           GPU, driver, python and framework versions
#   h200-verify-torch.txt  whole `macml verify --framework torch --data-dir` x3: wall time, then its JSON
#   h200-verify-jax.txt    the same for jax (needs jax[cuda] in $PYTHON)
#   h200-verify-speed.txt  benchmarks/verify_speed.py: torch graph/eager vs the peer loop, JAX jit vs plain
# Needs only torch, jax, numpy and macml's own dependencies in $PYTHON.
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
  "$PYTHON" -c 'import sys; print("python", sys.version.split()[0])'
  "$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tail -1
  "$PYTHON" -c 'import jax; print("jax", jax.__version__, jax.devices())' 2>&1 | tail -1
  echo "DATA=$DATA"; ls -l "$DATA" 2>&1
} > "$OUT/h200-env.txt" 2>&1

for fw in torch jax; do
  file="$OUT/h200-verify-$fw.txt"
  : > "$file"
  for i in $(seq 1 "$RUNS"); do
    start=$(date +%s%N)
    "$PYTHON" -m macml verify --framework "$fw" --data-dir "$DATA" --json > "$OUT/.run.json" 2> "$OUT/.run.err"
    rc=$?
    end=$(date +%s%N)
    echo "=== $fw run $i: exit $rc, $(( (end - start) / 1000000 )) ms wall (interpreter start to exit)" >> "$file"
    cat "$OUT/.run.json" >> "$file"
    echo "--- stderr tail" >> "$file"
    tail -n 20 "$OUT/.run.err" >> "$file"
  done
  rm -f "$OUT/.run.json" "$OUT/.run.err"
done

# torch and JAX share the GPU in this one process: JAX allocates on demand instead of taking 75% up front.
XLA_PYTHON_CLIENT_PREALLOCATE=false "$PYTHON" benchmarks/verify_speed.py --data-dir "$DATA" > "$OUT/h200-verify-speed.txt" 2>&1
grep -h "^===" "$OUT"/h200-verify-torch.txt "$OUT"/h200-verify-jax.txt
cat "$OUT/h200-verify-speed.txt"
