"""Wall time of `macml doctor --json` against `python -m torch.utils.collect_env`, in one run.

Runs are interleaved (doctor cold, doctor warm, collect_env, repeat) so that machine
noise hits all three alike; medians are reported. "cold" passes --refresh, so every
framework probe imports its framework again; "warm" may reuse the probe cache.

    python benchmarks/doctor_speed.py --runs 7
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(argv, env):
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    return time.perf_counter() - start, proc


def count_leaves(value) -> int:
    if isinstance(value, dict):
        return sum(count_leaves(v) for v in value.values())
    if isinstance(value, list):
        return sum(count_leaves(v) for v in value) or 1
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable, help="interpreter for both tools")
    args = parser.parse_args()

    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["MACML_CACHE_DIR"] = tempfile.mkdtemp(prefix="macml-bench-cache-")
    doctor = [args.python, "-m", "macml", "doctor", "--json"]
    collect_env = [args.python, "-m", "torch.utils.collect_env"]

    times = {"doctor (cold, --refresh)": [], "doctor (warm cache)": [], "torch collect_env": []}
    last = {}
    for _ in range(args.runs):
        for label, argv in (("doctor (cold, --refresh)", doctor + ["--refresh"]),
                            ("doctor (warm cache)", doctor),
                            ("torch collect_env", collect_env)):
            seconds, proc = timed(argv, env)
            if proc.returncode not in (0, 1):
                print(f"{label} failed ({proc.returncode}):\n{proc.stderr[-2000:]}", file=sys.stderr)
                return 2
            times[label].append(seconds)
            last[label] = proc.stdout

    report = json.loads(last["doctor (warm cache)"])
    base = statistics.median(times["torch collect_env"])
    print(f"{args.runs} interleaved runs each, python {args.python}")
    print(f"{'tool':<26} {'median s':>9} {'min s':>7} {'max s':>7} {'vs collect_env':>15}")
    for label, values in times.items():
        med = statistics.median(values)
        print(f"{label:<26} {med:9.3f} {min(values):7.3f} {max(values):7.3f} {base / med:14.2f}x")
    print(f"doctor reports {count_leaves(report['facts'])} facts and {len(report['findings'])} findings with fixes; "
          f"collect_env prints {len(last['torch collect_env'].splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
