#!/usr/bin/env bash
# All H200 measurements for issue 13 in one batch (run from the repo root; writes under $OUT):
# whole `macml verify --data-dir` for torch and jax, 3 runs each, wall time including start-up,
# with the per-event timestamps ("t") that break the set-up down; then the loop benchmark.
set -u
OUT=${OUT:-benchmarks/results}
DATA=${DATA:-/work/shared/data/mnist}
mkdir -p "$OUT"
for fw in torch jax; do
  for i in 1 2 3; do
    /usr/bin/time -f "%e s wall" -o "$OUT/h200-verify-$fw-$i.time" \
      env PYTHONPATH=src python3 -m macml verify --framework "$fw" --data-dir "$DATA" --json \
      > "$OUT/h200-verify-$fw-$i.json" 2> "$OUT/h200-verify-$fw-$i.err"
  done
done
PYTHONPATH=src python3 benchmarks/verify_speed.py > "$OUT/h200-verify-speed.txt" 2>&1
for f in "$OUT"/h200-verify-*.time; do echo "$f: $(cat "$f")"; done
