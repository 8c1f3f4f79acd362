"""Unknown is not no: on every recorded machine, and on every part of its evidence (each snapshot with
one probe output left out, and with one kept alone), no derived fact contradicts the whole evidence and
no finding or recipe reason asserts a negative the evidence does not give."""
import copy

import pytest

from macml.probe.paste.text import decode_paste

from conftest import PROJECT, load_json, machine_files
from macml.diagnose import run_checks
from macml.diagnose.gpu_support import unsupported_gpus
from macml.probe.collect import facts_from_snapshot
from macml.recipes import catalog
from macml.recipes import recommend

RECIPES = catalog.load_all()
MACHINES = machine_files()


def parts(snapshot):
    """The whole snapshot, then each command left out, then each command alone (no interpreter)."""
    yield "whole", snapshot
    commands = snapshot.get("commands") or {}
    for key in commands:
        without = copy.deepcopy(snapshot)
        del without["commands"][key]
        yield f"without {key}", without
        alone = {k: v for k, v in snapshot.items() if k not in ("interpreter", "frameworks")}
        alone["commands"] = {key: commands[key]}
        yield f"only {key}", alone


def usable_gpu_known(facts):
    """A GPU some recipe can use: not one older than every CUDA build (a Kepler 3.5 card has only the CPU left)."""
    vendors = ("Apple", "AMD") if facts.is_mac else ("NVIDIA", "AMD")
    too_old = unsupported_gpus(facts, RECIPES)
    return any(g.vendor in vendors and g not in too_old for g in facts.gpus) and not (facts.is_mac and facts.vm)


def contradictions(facts, whole):
    """Sentences that assert what the evidence does not give."""
    found = []
    for name, value in (("apple_silicon", facts.cpu.apple_silicon), ("vm", facts.vm)):
        truth = facts.cpu.apple_silicon if name == "apple_silicon" else facts.vm
        full = whole.cpu.apple_silicon if name == "apple_silicon" else whole.vm
        if truth is not None and full is not None and truth != full:
            found.append(f"{name} is {truth} from part of the evidence, {full} from all of it")
    for finding in run_checks(facts, RECIPES):
        text = finding.message
        if "No GPU found" in text and not facts.gpu_list_known:
            found.append(f"{finding.check}: '{text}' with no GPU listing")
        if finding.check == "intel_mac_torch" and facts.cpu.apple_silicon is not False:
            found.append("intel_mac_torch fired on a Mac not known to be Intel")
        if finding.check == "rosetta_python" and finding.level == "fail" and facts.rosetta is not True:
            found.append("rosetta_python failed without Rosetta being known")
    for match in catalog.match_all(facts, RECIPES):
        for reason in match.reasons:
            if "this Mac has Apple silicon" in reason and facts.cpu.apple_silicon is not True:
                found.append(f"{match.recipe}: '{reason}' while Apple silicon is {facts.cpu.apple_silicon}")
            if "Intel CPU" in reason and facts.cpu.apple_silicon is not False:
                found.append(f"{match.recipe}: '{reason}' while Apple silicon is {facts.cpu.apple_silicon}")
            if ("found: none" in reason or "none found" in reason) and not facts.gpu_list_known:
                found.append(f"{match.recipe}: '{reason}' with no GPU listing")
            if "unknown" in reason:
                found.append(f"{match.recipe}: refused on an unknown: '{reason}'")
    best = recommend.recommendation(facts, RECIPES)
    if best is not None and best.recipe == "pytorch-cpu" and usable_gpu_known(facts):
        found.append(f"pytorch-cpu recommended next to {[g.model for g in facts.gpus]}")
    return found


@pytest.mark.parametrize("path", MACHINES, ids=[p.stem for p in MACHINES])
def test_no_finding_or_reason_contradicts_the_evidence(path):
    snapshot = load_json(path)
    whole = facts_from_snapshot(snapshot)
    problems = []
    for label, part in parts(snapshot):
        problems.extend(f"{label}: {p}" for p in contradictions(facts_from_snapshot(part), whole))
    assert not problems, "\n".join(problems)


def capture_snapshot(path):
    """A capture fed as the command that printed it, where that command is one the probes read."""
    name, text = path.stem, decode_paste(path.read_bytes())
    if "spdisplays" in name or "sphardware" in name:
        platform, key = "darwin", "system_profiler SPHardwareDataType SPDisplaysDataType"
    elif name.endswith("-nvidia-smi"):
        platform, key = ("win32" if name.startswith("win") else "linux"), "nvidia-smi"
    elif name.startswith("mac") and "sysctl" in name:
        platform, key = "darwin", "sysctl machdep.cpu"
    else:
        return None
    return {"macml_snapshot": 1, "platform": platform, "env": {}, "interpreter": {}, "frameworks": {},
            "commands": {key: {"returncode": 0, "stdout": text, "stderr": ""}}}


# Captures whose shape the probes read as they are (collect_env pastes and the like go through the importer).
CAPTURES = [p for p in sorted((PROJECT / "tests" / "captures").glob("*.txt")) if capture_snapshot(p)]


@pytest.mark.parametrize("path", CAPTURES, ids=[p.stem for p in CAPTURES])
def test_real_captures_contradict_neither_the_rule_nor_their_expectations(path):
    snapshot = capture_snapshot(path)
    facts = facts_from_snapshot(snapshot)
    assert not contradictions(facts, facts)
    expect = load_json(path.with_suffix(".json"))["expect"]
    for key, value in (("apple_silicon", facts.cpu.apple_silicon), ("vm", facts.vm)):
        if expect.get(key) is not None and value is not None:
            assert value == expect[key], key
    must_not = expect.get("must_not_recommend") or []
    found = recommend.recommendation(facts, RECIPES)
    assert found is None or found.recipe not in must_not
