"""Whole `macml verify` wall times against issue 17's goals, measured interleaved in one batch on the
machine with the accelerator (interpreter start to exit, as a user waits):

  floor   python benchmarks/naive_floor.py (import torch, CUDA init, first conv step, 300 steps)
  torch   python -m macml verify --framework torch --data-dir DIR --json
  jax-cold  python -m macml verify --framework jax --data-dir DIR --json    (where jax imports), with an
            empty JAX compilation cache: what a first verify costs
  jax       the same, with the cache a first run left (macml keeps JAX's persistent compilation cache;
            one untimed run fills it before the timed runs)
  all       python -m macml verify --data-dir DIR --json                   (every default framework)

Goals: torch <= 1.25 x the floor; jax < 15 s (cold and warm both reported); all <= the slowest single run + the others' steady
state, where a framework's steady state is its single run's time after its accelerator warmed up
(the workload's `done` minus its `device` event and its accelerator warm-up, from the JSON
timeline). Medians of --runs. Each run's JSON goes under --out.

    PYTHONPATH=src python benchmarks/verify_wall.py --data-dir ../shared/data/mnist --runs 3 --out $OUT
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
FLOOR_RATIO, JAX_LIMIT_S = 1.25, 15.0


def importable(module: str) -> bool:
    return subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode == 0


def timed(argv, env):
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
    return time.perf_counter() - start, proc


def steady_state(report: dict) -> dict:
    """{framework: seconds of its run after its accelerator warmed up}."""
    found = {}
    for run in report.get("runs", []):
        line, accel = run.get("timeline") or {}, run.get("accelerator") or {}
        if "done" in line and "device" in line:
            found[run["framework"]] = line["done"] - line["device"] - (accel.get("warmup_s") or 0.0)
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.environ.get("OUT", "benchmarks/results"))
    ap.add_argument("--smoke", action="store_true", help="a quick check of this script (5 floor steps, 2 verify steps)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    smoke = ["--steps", "2", "--cpu-seconds", "0.2"] if args.smoke else []
    verify = [sys.executable, "-m", "macml", "verify", "--data-dir", args.data_dir, "--json", *smoke]
    commands = {"floor": [sys.executable, str(ROOT / "benchmarks" / "naive_floor.py"), *smoke[:2]],
                "torch": verify + ["--framework", "torch"]}
    if importable("jax"):
        commands["jax-cold"] = commands["jax"] = verify + ["--framework", "jax"]
    commands["all"] = verify
    warm = dict(env, JAX_COMPILATION_CACHE_DIR=tempfile.mkdtemp(prefix="macml-jax-cache-"))
    if "jax" in commands:
        print("filling the JAX compilation cache (one untimed jax run)", flush=True)
        timed(commands["jax"], warm)
    walls = {name: [] for name in commands}
    reports = {name: [] for name in commands}
    for run in range(args.runs):
        for name, argv in commands.items():
            if name == "jax-cold":
                with tempfile.TemporaryDirectory(prefix="macml-jax-cold-") as empty:
                    wall, proc = timed(argv, dict(env, JAX_COMPILATION_CACHE_DIR=empty))
            else:
                wall, proc = timed(argv, warm)
            walls[name].append(wall)
            (out / f"verify-wall-{name}-{run + 1}.json").write_text(proc.stdout + "\n# stderr tail\n" + proc.stderr[-3000:])
            try:
                reports[name].append(json.loads(proc.stdout[proc.stdout.find("{"):]))
            except ValueError:
                reports[name].append({})
            verdict = reports[name][-1].get("verdict", "total" if name == "floor" else "?")
            print(f"run {run + 1} {name:<8} {wall:7.2f} s  exit {proc.returncode}  {verdict}", flush=True)
    median = {name: statistics.median(times) for name, times in walls.items()}
    print(f"\nmedians of {args.runs} runs (s): " + ", ".join(f"{n} {t:.2f}" for n, t in median.items()))
    ratio = median["torch"] / median["floor"]
    print(f"torch / floor = {ratio:.2f} (goal <= {FLOOR_RATIO}): {'met' if ratio <= FLOOR_RATIO else 'NOT met'}")
    for name in ("jax-cold", "jax"):
        if name in median:
            goal = "met" if median[name] < JAX_LIMIT_S else "NOT met"
            print(f"{name} {median[name]:.2f} s (goal < {JAX_LIMIT_S:g} s): {goal}")
    singles = [n for n in ("torch", "jax") if n in median]
    steady = {n: statistics.median(steady_state(r).get(n, 0.0) for r in reports[n]) for n in singles}
    slowest = max(singles, key=lambda n: median[n])
    bound = median[slowest] + sum(steady[n] for n in singles if n != slowest)
    frameworks = [r["framework"] for r in reports["all"][-1].get("runs", [])] if reports["all"] else []
    print(f"all ({', '.join(frameworks) or '?'}) {median['all']:.2f} s; slowest single ({slowest}) {median[slowest]:.2f} s "
          f"+ the others' steady state {bound - median[slowest]:.2f} s = {bound:.2f} s: "
          f"{'met' if median['all'] <= bound else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
