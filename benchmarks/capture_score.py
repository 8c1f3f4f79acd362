"""Score macml on a folder of real captures (NAME.txt + NAME.json with `expect`).

    .venv/bin/python benchmarks/capture_score.py tests/heldout [--json] [-v]

Prints the share of conclusions right and of machines clean (every conclusion right), then, with
-v, each wrong conclusion. The scoring rules are tests/capture_yardstick.py, the same ones
tests/probe/test_captures.py holds tests/captures to.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from capture_yardstick import captures_in, score_capture, summary  # noqa: E402
from macml.recipes.catalog import load_all  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    recipes = load_all()
    report = {}
    for folder in args.folders:
        scores = [score_capture(path, recipes) for path in captures_in(folder)]
        result = summary(scores)
        result["machines"] = {s.capture: {"clean": s.clean, "refused": s.refused,
                                          "wrong": [[c.name, c.detail] for c in s.wrong],
                                          "conclusions": len(s.conclusions)} for s in scores}
        report[str(folder)] = result
        if args.json:
            continue
        print(f"{folder}: {result['right']}/{result['conclusions']} conclusions right "
              f"({100 * result['conclusions_right']:.1f}%), {result['clean']}/{result['captures']} machines clean "
              f"({100 * result['machines_clean']:.1f}%), {result['refused']} refused")
        if result["wrong_by_kind"]:
            print("  wrong by kind: " + ", ".join(f"{k} {v}" for k, v in result["wrong_by_kind"].items()))
        if args.verbose:
            for s in scores:
                if not s.clean:
                    print(f"  {s.capture}" + (f"  [refused: {s.refused}]" if s.refused else ""))
                    for c in s.wrong:
                        print(f"    {c.name}: {c.detail}")
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
