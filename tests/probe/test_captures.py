"""Real pasted outputs (tests/captures/*.txt, with their sources) imported and diagnosed.

test_capture_import: what the importer reads (platform, evidence, GPUs, drivers, OS and
interpreter versions, torch, memory, packages). test_capture_conclusions: what the doctor
concludes from it (hardware, chip, Apple silicon, Rosetta, VM, recipe recommendation).
A null in a capture's `expect` means the paste does not say: nothing is asserted for it.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from macml.probe.paste.text import decode_paste

from capture_yardstick import gpu_model_key, os_name_right, score_capture
from macml.facts import GIB, arch_family
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.recipes.catalog import load_all

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
RECIPES = load_all()
CASES = sorted(CAPTURES.glob("*.txt"))
MIB = 1024**2
# A capture's shape name -> the importer shapes that read it (collect_env holds lscpu and library lists).
READ_AS = {
    "collect_env": {"collect_env"}, "system_profiler_text": {"system_profiler_text"},
    "system_profiler_json": {"system_profiler_json"}, "nvidia_smi": {"nvidia_smi"},
    "nvidia_smi_csv": {"nvidia_smi_csv"}, "rocm_smi": {"rocm_smi", "rocm_smi_csv"}, "rocminfo": {"rocminfo"},
    "lscpu": {"lscpu", "collect_env"}, "sysctl": {"sysctl"}, "uname": {"uname"}, "sw_vers": {"sw_vers"},
    "os_release": {"os_release"}, "pip_list": {"pip_list", "pip_freeze", "collect_env"},
    "conda_list": {"conda_list"}, "system_software_overview": {"system_software_overview"},
    "tensorflow_metal_log": {"tensorflow_metal_log"},
}


def load(case: Path):
    expect = json.loads(case.with_suffix(".json").read_text(encoding="utf-8"))
    expect["text"] = decode_paste(case.read_bytes())
    return expect, import_pastes([(case.name, expect["text"])])


def given(expect: dict, key: str):
    value = expect.get(key)
    if value is None:
        return None
    return value


@pytest.fixture(params=CASES, ids=[c.stem for c in CASES])
def capture_path(request) -> Path:
    return request.param


@pytest.fixture
def capture(capture_path):
    expect, snapshot = load(capture_path)
    facts = facts_from_snapshot(snapshot)
    return expect, snapshot, facts


def test_there_are_captures_of_every_machine_kind():
    kinds = Counter(case.name.split("-")[0] for case in CASES)
    assert len(CASES) >= 30 and kinds["mac"] and kinds["linux"] and kinds["win"]


def stated_gpus(expected, text):
    """The expected GPUs the paste names itself: an Apple GPU known only from the chip name, a GPU
    without a model, and compute capabilities are conclusions (test_capture_conclusions)."""
    displays = any(mark in text for mark in ("Chipset Model", "SPDisplaysDataType", "Metal device set to"))
    return [{k: v for k, v in entry.items() if k != "compute_capability"} for entry in expected
            if entry.get("model") and entry["model"] in text and (entry.get("vendor") != "Apple" or displays)]


def check_gpus(expected, gpus):
    models = Counter(gpu_model_key(g.model) for g in gpus if g.model)
    wanted, unknown_count = Counter(), set()
    for entry in expected:
        if entry.get("model"):
            key = gpu_model_key(entry["model"])
            if entry.get("count") is None:  # null or left out: the text does not say how many (heldout README)
                unknown_count.add(key)
            wanted[key] += entry.get("count") or 1
    for model, count in wanted.items():
        found = models[model]
        assert (found >= 1 if model in unknown_count else found == count), \
            f"GPU {model!r}: {found} found, {count} expected; have {[g.model for g in gpus]}"
    for entry in expected:
        if entry.get("model"):
            matching = [g for g in gpus if g.model and gpu_model_key(g.model) == gpu_model_key(entry["model"])]
        else:
            matching = [g for g in gpus if g.vendor == entry.get("vendor")]
        assert matching, f"no GPU for {entry}; have {[(g.vendor, g.model) for g in gpus]}"
        if entry.get("memory_mib"):
            assert any(g.memory_bytes == entry["memory_mib"] * MIB for g in matching)
        for gpu in matching:
            if entry.get("vendor"):
                assert gpu.vendor == entry["vendor"]
            if entry.get("compute_capability"):
                assert gpu.compute_capability == entry["compute_capability"]
            if entry.get("memory_mib"):  # a cut-off table may lose a later GPU's memory row
                assert gpu.memory_bytes in (None, entry["memory_mib"] * MIB)
            if entry.get("cores") is not None:
                assert gpu.cores == entry["cores"]
            if entry.get("external") is not None:
                assert gpu.external == entry["external"]


def test_capture_import(capture):
    expect, snapshot, facts = capture
    meta_shapes, text = expect.get("shapes") or [], expect["text"]
    known_wrong = {name.split("[")[0].split(".")[0] for name in expect.get("known_wrong", {})}  # test_capture_conclusions holds them
    expect = {k: v for k, v in expect["expect"].items() if k not in known_wrong}
    if expect.get("platform") is not None:  # None: the text never names the OS, nothing is asserted
        assert snapshot["platform"] == expect["platform"]
    read = {e["shape"] for e in snapshot["evidence"]}
    for shape in meta_shapes:  # a shape no detector knows may still be read line by line
        if shape in READ_AS:
            assert (READ_AS[shape] | {"statements"}) & read, f"shape {shape} not recognised; read {sorted(read)}"
    if given(expect, "gpus") is not None:
        check_gpus(stated_gpus(expect["gpus"], text), facts.gpus)
    for key in ("driver_version", "cuda_driver_version"):
        if given(expect, key):
            vendor_gpus = [g for g in facts.gpus if g.vendor in ("NVIDIA", "AMD")]
            assert vendor_gpus and {getattr(g, key) for g in vendor_gpus} == {expect[key]}
    if given(expect, "macos_version"):
        assert facts.os.version == expect["macos_version"]
    if given(expect, "os_name"):  # the yardstick's rule: 'Mac OS X 10.14' is macOS, "Windows 11" vs 10.0.22621
        assert os_name_right(expect["os_name"], facts)[0], (facts.os.name, facts.os.version)
    if given(expect, "interpreter_machine") and "collect_env" in meta_shapes:
        assert facts.interpreter and arch_family(facts.interpreter.machine) == arch_family(expect["interpreter_machine"])
    if given(expect, "memory_gb") and re.search(r"Memory:|hw\.memsize|systemMemory", text):
        assert facts.cpu.memory_bytes and round(facts.cpu.memory_bytes / GIB) == expect["memory_gb"]
    torch = given(expect, "torch")
    if torch:
        data = facts.frameworks["torch"].data
        if torch.get("version") is not None:
            assert data["version"] == torch["version"]
        if "cuda_build" in torch:
            assert (data["cuda_version"] or "").split(".")[:2] == (torch["cuda_build"] or "").split(".")[:2]
        if torch.get("cuda_available") is not None:
            assert data["cuda_available"] == torch["cuda_available"]
    for name, version in (given(expect, "frameworks") or {}).items():
        assert facts.interpreter and facts.interpreter.packages.get(canonicalize_name(name)) == version, name


def test_capture_conclusions(capture_path):
    """Every conclusion its `expect` states is right (the yardstick benchmarks/capture_score.py reports)."""
    score = score_capture(capture_path, RECIPES)
    assert not score.refused, score.refused
    known = json.loads(capture_path.with_suffix(".json").read_text(encoding="utf-8")).get("known_wrong", {})
    wrong = {c.name.split(" ")[0]: c.detail for c in score.wrong}
    assert set(wrong) == set(known), "\n".join(f"{name}: {detail}" for name, detail in wrong.items()
                                              if name not in known) or f"now right: {sorted(set(known) - set(wrong))}"
