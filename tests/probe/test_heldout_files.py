"""The held-out captures (tests/heldout) are well-formed; their score is benchmarks/capture_score.py's
to report, never a test's to assert (tests/heldout/README.md says why). Also: the yardstick can fail."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from capture_yardstick import Reading, gpu_model_key, judge, score_capture
from macml.diagnose import all_checks
from macml.recipes.catalog import load_all

TESTS = Path(__file__).resolve().parents[1]
FOLDERS = (TESTS / "heldout", TESTS / "captures")
KEYS = {"platform", "os_name", "macos_version", "hardware_arch", "apple_silicon", "chip", "rosetta", "vm",
        "memory_gb", "interpreter_machine", "python_version", "gpus", "driver_version", "cuda_driver_version",
        "torch", "frameworks", "should_recommend", "must_not_recommend", "problems", "no_problems", "notes"}
GPU_KEYS = {"vendor", "model", "count", "compute_capability", "memory_mib", "cores", "external"}
RECIPES = {r.name for r in load_all()}
CHECKS = set(all_checks())
CASES = sorted(p for folder in FOLDERS for p in folder.glob("*.txt"))


@pytest.mark.parametrize("txt", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_capture_is_well_formed(txt):
    meta = json.loads(txt.with_suffix(".json").read_text(encoding="utf-8"))
    assert meta.get("source", "").strip(), "every capture names its public source"
    expect = meta["expect"]
    assert set(expect) <= KEYS, f"unknown keys {sorted(set(expect) - KEYS)}"
    assert expect.get("platform") in ("darwin", "linux", "win32", None)
    for gpu in expect.get("gpus") or ():
        assert set(gpu) <= GPU_KEYS, f"unknown GPU keys {sorted(set(gpu) - GPU_KEYS)}"
    named = set(expect.get("must_not_recommend") or ()) | ({expect["should_recommend"]} - {None}
                                                             if "should_recommend" in expect else set())
    assert named <= RECIPES, f"not shipped recipes: {sorted(named - RECIPES)}"
    for key in ("problems", "no_problems"):
        assert set(expect.get(key) or ()) <= CHECKS, f"{key} names no check: {sorted(set(expect[key]) - CHECKS)}"
    if txt.parent.name == "heldout":
        assert meta.get("written_blind") is True and "known_wrong" not in meta


def test_the_yardstick_marks_a_wrong_conclusion_wrong():
    capture = TESTS / "captures" / "linux-pytorch-150733-rtx5090d-sm120-collect-env.txt"
    recipes = load_all()
    assert score_capture(capture, recipes).clean
    wrong = {"platform": "darwin", "gpus": [{"vendor": "AMD", "model": None}], "should_recommend": "pytorch-cpu",
             "no_problems": ["cuda_arch"]}
    conclusions = judge(wrong, Reading({"platform": "linux"}, None, None, ()))
    assert conclusions and not any(c.right for c in conclusions)


@pytest.mark.parametrize("written, listed", [
    ("AMD Mi50 32GB", "Mi50"),
    ("RTX3060", "RTX3060 6G"),
    ("Intel Arc A770 16GB", "Intel Arc A770"),
    ("AMD Radeon(TM) 890M Graphics", "AMD Radeon 890M Graphics"),
    ("GeForce RTX 4090", "NVIDIA GeForce RTX 4090"),
    ("7900XTX", "AMD Radeon RX 7900 XTX"),
])
def test_the_yardstick_reads_two_spellings_of_one_gpu_as_one_model(written, listed):
    assert gpu_model_key(written) == gpu_model_key(listed)


@pytest.mark.parametrize("written, listed", [
    ("RTX 3060", "RTX 3060 Ti"),
    ("Radeon Pro 560", "Radeon Pro 560X"),
    ("AMD Radeon Graphics", "AMD Radeon 780M Graphics"),
    ("Tesla V100", "Tesla P100"),
    ("RX 560X", "Radeon Pro 560X"),
])
def test_the_yardstick_keeps_different_gpus_apart(written, listed):
    assert gpu_model_key(written) != gpu_model_key(listed)
