"""macml's own time in `macml install` over a bare `pip install` of the same small local recipe.

Each run makes two fresh venvs (no pip of their own, aaa-fast 0.9 installed), then times, interleaved:
  bare:  python -m pip --python V install aaa-fast==1.0 six-like   (from a local wheelhouse, offline)
  macml: macml install --recipe-file R --python V --yes --offline  (snapshot, plan, lock, freeze + listing,
         the same pip install, the recipe's check-import, the after-probe)
Medians are reported; the overhead is median(macml) - median(bare). Goal: under 1.5 s.

    python benchmarks/install_overhead.py --runs 7
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_S = 1.5
RECIPE = """name = "bench"
summary = "two tiny local wheels"
framework = "none"
[[pins]]
label = "aaa-fast 1.0 + bbb-fast 1.0"
requirements = ["aaa-fast==1.0", "bbb-fast==1.0"]
[[post_install]]
action = "check-import"
modules = ["aaa_fast", "bbb_fast"]
"""


def wheel(house: Path, name: str, version: str) -> None:
    dist = f"{name.replace('-', '_')}-{version}"
    files = {f"{name.replace('-', '_')}/__init__.py": "",
             f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: bench\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    with zipfile.ZipFile(house / f"{dist}-py3-none-any.whl", "w") as whl:
        for path, text in files.items():
            whl.writestr(path, text)
        whl.writestr(f"{dist}.dist-info/RECORD", "".join(f"{p},,\n" for p in [*files, f"{dist}.dist-info/RECORD"]))


def venv(where: Path, env: dict) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "aaa-fast==0.9"],
                   check=True, env=env)
    return python


def timed(argv, env) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(map(str, argv))}\n{proc.stdout}{proc.stderr}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        house = tmp / "wheels"
        house.mkdir()
        for name, version in (("aaa-fast", "0.9"), ("aaa-fast", "1.0"), ("bbb-fast", "1.0")):
            wheel(house, name, version)
        (tmp / "bench.toml").write_text(RECIPE)
        env = dict(os.environ, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(house), PIP_DISABLE_PIP_VERSION_CHECK="1",
                   PYTHONPATH=str(ROOT / "src"), MACML_CACHE_DIR=str(tmp / "cache"))
        bare, macml = [], []
        for run in range(args.runs):
            target = venv(tmp / f"bare{run}", env)
            bare.append(timed([sys.executable, "-m", "pip", "--python", str(target), "install", "-q",
                               "aaa-fast==1.0", "bbb-fast==1.0"], env))
            target = venv(tmp / f"macml{run}", env)
            macml.append(timed([sys.executable, "-m", "macml", "install", "--recipe-file", str(tmp / "bench.toml"),
                                "--python", str(target), "--yes", "--offline"], env))
    print(f"{args.runs} interleaved runs each, python {sys.executable}, {os.cpu_count()} cores")
    print(f"{'command':<40}{'median s':>10}{'min s':>8}{'max s':>8}")
    for label, times in (("bare pip install (2 local wheels)", bare), ("macml install (same recipe)", macml)):
        print(f"{label:<40}{statistics.median(times):>10.3f}{min(times):>8.3f}{max(times):>8.3f}")
    overhead = statistics.median(macml) - statistics.median(bare)
    print(f"macml's own time: {overhead:.3f} s (goal < {GOAL_S} s): {'met' if overhead < GOAL_S else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
