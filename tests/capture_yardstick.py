"""Scoring real captures: each non-null value in a capture's `expect` is one conclusion, judged
right or wrong against what macml concludes from the file exactly as `macml doctor --from FILE`
reads it. A machine is clean when every conclusion about it is right.

Used by tests/probe/test_captures.py (every capture in tests/captures must be clean) and by
benchmarks/capture_score.py (the score of any folder, e.g. the held-out tests/heldout).
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from packaging.utils import canonicalize_name

from macml.diagnose import run_checks
from macml.errors import MacmlError
from macml.facts import GIB, MachineFacts, arch_family
from macml.knowledge.macos import MACOS_RELEASE_NAMES
from macml.probe.collect import facts_from_snapshot
from macml.probe.inputs import load_inputs
from macml.recipes.recommend import recommendation

MIB = 1024**2
PROBLEM_LEVELS = ("warn", "fail")


@dataclass(frozen=True)
class Conclusion:
    name: str  # "platform", "gpus[0]", "torch.version", "problems.cuda_arch", ...
    right: bool
    detail: str = ""  # what macml concluded, when wrong


@dataclass(frozen=True)
class Score:
    capture: str
    conclusions: Tuple[Conclusion, ...]
    refused: str = ""  # macml's error message when it read nothing

    @property
    def clean(self) -> bool:
        return all(c.right for c in self.conclusions)

    @property
    def wrong(self) -> Tuple[Conclusion, ...]:
        return tuple(c for c in self.conclusions if not c.right)


@dataclass(frozen=True)
class Reading:
    """What macml made of one capture file."""
    snapshot: Dict[str, Any]
    facts: Optional[MachineFacts]
    recommended: Optional[str]
    findings: Tuple[Any, ...]


def read_capture(path: Path, recipes: Sequence[Any]) -> Reading:
    snapshot = load_inputs([path]).snapshot
    facts = facts_from_snapshot(snapshot)
    best = recommendation(facts, recipes)
    return Reading(snapshot, facts, best.recipe if best else None, tuple(run_checks(facts, recipes)))


# Words that brand a GPU rather than name its model, and a memory size after the model: a paste
# names one card "AMD Mi50 32GB" in one line and "Mi50" in the next, and both name the same GPU.
_GPU_BRAND_WORDS = frozenset({"nvidia", "geforce", "amd", "ati", "radeon", "intel", "apple", "graphics", "gpu", "accelerator", "instinct",
                              # board partners, whose name a spec list writes before the GPU's ('EVGA GeForce ...')
                              "evga", "msi", "asus", "gigabyte", "asrock", "sapphire", "powercolor", "xfx", "zotac", "pny",
                              "palit", "gainward", "inno3d", "galax", "kfa2", "colorful", "yeston", "maxsun",
                              # brand words as people misspell them ('internal Nividia GT750M', 'Nvidia GeFroce RTX 3070')
                              "nividia", "gefroce"})
_GPU_MEMORY_SIZE = re.compile(r"\b\d+(?:\.\d+)?\s*(?:gb|gib|g|mb|mib)\b")


def gpu_model_key(model: str) -> str:
    """A GPU model name set apart from case, spacing, punctuation, brand words and a memory size."""
    text = _GPU_MEMORY_SIZE.sub(" ", model.casefold().replace("(r)", " ").replace("(tm)", " "))
    text = re.sub(r"\(radv [\w ]+\)", " ", text)  # Mesa's driver and codename ('(RADV RENOIR)'), not the model's name
    text = re.sub(r"\(g1\d[a-z] [a-z]\d\)", " ", text)  # Asahi Mesa's GPU generation and revision ('Apple M1 Pro (G13S C0)')
    text = re.sub(r"\brx\s*(?=\d|vega)", " ", text)  # AMD's 'RX' series word: 'RX 7900 XTX' is the '7900XTX', 'RX Vega 64' the 'Vega 64'
    words = re.findall(r"[a-z0-9]+", text)
    # A name made only of brand words ("AMD Radeon Graphics") is its own model.
    return "".join(word for word in words if word not in _GPU_BRAND_WORDS) or "".join(words) or model


def _gpu_entry_right(entry: Dict[str, Any], facts: MachineFacts) -> Tuple[bool, str]:
    gpus = facts.gpus
    have = [(g.vendor, g.model, g.compute_capability, g.memory_bytes and g.memory_bytes // MIB) for g in gpus]
    if entry.get("model"):
        wanted_key = gpu_model_key(entry["model"])
        matching = [g for g in gpus if g.model and gpu_model_key(g.model) == wanted_key]
        count = entry.get("count")
        if count is not None and len(matching) != count:
            return False, f"{len(matching)} of {entry['model']!r}, expected {count}; have {have}"
    else:
        matching = [g for g in gpus if g.vendor == entry.get("vendor")]
    if not matching:
        return False, f"no such GPU; have {have}"
    for key, attribute in (("vendor", "vendor"), ("compute_capability", "compute_capability"),
                           ("cores", "cores"), ("external", "external")):
        wanted = entry.get(key)
        if wanted is not None and not all(getattr(g, attribute) == wanted for g in matching):
            return False, f"{key}: {[getattr(g, attribute) for g in matching]}, expected {wanted!r}"
    if entry.get("memory_mib"):
        memories = [g.memory_bytes // MIB if g.memory_bytes else None for g in matching]
        if entry["memory_mib"] not in memories:
            return False, f"memory {memories} MiB, expected {entry['memory_mib']}"
    return True, ""


# earlier names of macOS, and uname's name for it: the same OS
_MACOS_NAMES = ("Mac OS X", "Mac OSX", "OS X", "OSX", "Mac OS", "MacOS", "Darwin")


def os_name_right(wanted: str, facts: MachineFacts) -> Tuple[bool, str]:
    name, version = facts.os.name, facts.os.version
    for old in _MACOS_NAMES:
        wanted = wanted.replace(old, "macOS")
    if facts.platform == "darwin" and re.match(r"\s*(?:" + "|".join(map(re.escape, MACOS_RELEASE_NAMES)) + r")\b", wanted,
                                                 re.IGNORECASE):
        wanted = "macOS " + wanted  # 'High Sierra 10.13.6' names macOS by its release
    right = bool(name) and name.casefold() in wanted.casefold()  # 'ubuntu 20.04' as typed names Ubuntu 20.04
    if right and any(ch.isdigit() for ch in wanted) and facts.platform != "win32":
        right = bool(version) and version in wanted
    return right, f"{name!r} {version!r}"


def _same_version(a: Optional[str], b: str) -> bool:
    def parts(text: str) -> List[str]:
        items = str(text).split(".")
        while len(items) > 1 and items[-1] == "0":
            items.pop()
        return items
    return a is not None and parts(a) == parts(b)


def _scalar(name: str, wanted: Any, facts: MachineFacts) -> Tuple[bool, Any]:
    interp = facts.interpreter
    got: Any
    if name == "hardware_arch":
        got = facts.cpu.hardware_arch
    elif name == "apple_silicon":
        got = facts.cpu.apple_silicon
    elif name == "rosetta":
        got = facts.rosetta
    elif name == "vm":
        got = facts.vm
    elif name == "macos_version":
        got = facts.os.version
        return _same_version(got, wanted), got
    elif name == "chip":
        chip = facts.cpu.chip
        got = chip and (chip.name + (" (Virtual)" if chip.virtual else ""))
    elif name == "memory_gb":
        got = facts.cpu.memory_bytes and round(facts.cpu.memory_bytes / GIB)
    elif name == "interpreter_machine":  # platform.machine() spells x86_64 'AMD64' on Windows
        got = interp.machine if interp else None
        return arch_family(got) == arch_family(wanted), got
    elif name == "python_version":
        got = interp.version if interp else None
        return _same_version(got, wanted), got
    else:
        raise KeyError(name)
    return got == wanted, got


SCALARS = ("hardware_arch", "apple_silicon", "rosetta", "vm", "macos_version", "chip", "memory_gb",
           "interpreter_machine", "python_version")


def _driver(key: str, wanted: str, facts: MachineFacts) -> Tuple[bool, Any]:
    values = {getattr(g, key) for g in facts.gpus if g.vendor in ("NVIDIA", "AMD")}
    return values == {wanted}, sorted(map(str, values))


def _framework_version(name: str, facts: MachineFacts) -> Optional[str]:
    packages = facts.interpreter.packages if facts.interpreter else {}
    for spelled in (name, canonicalize_name(name)):  # 'pytorch_tokenizers' is pytorch-tokenizers (PEP 503)
        if packages.get(spelled):
            return packages[spelled]
    probe = facts.frameworks.get(name)
    return probe.data.get("version") if probe is not None else None


def _fix_text(findings: Sequence[Any]) -> str:
    return "\n".join(" ".join((f.message, *f.details, f.fix.text if f.fix else "", *(f.fix.commands if f.fix else ())))
                     for f in findings)


def judge(expect: Dict[str, Any], reading: Reading) -> List[Conclusion]:
    """One Conclusion per non-null expectation; every one is wrong when macml could not tell the platform."""
    out: List[Conclusion] = []
    facts = reading.facts

    def add(name: str, right: bool, got: Any = "") -> None:
        out.append(Conclusion(name, bool(right), "" if right else f"macml: {got}"))

    if expect.get("platform") is not None:
        add("platform", reading.snapshot.get("platform") == expect["platform"], reading.snapshot.get("platform"))
    if facts is None:
        names = [k for k, v in expect.items() if v not in (None, [], {}) and k not in ("platform", "notes")]
        out.extend(Conclusion(n, False, "macml: no platform, nothing concluded") for n in names)
        return out
    if expect.get("os_name"):
        right, got = os_name_right(expect["os_name"], facts)
        add("os_name", right, got)
    for name in SCALARS:
        if expect.get(name) is not None:
            right, got = _scalar(name, expect[name], facts)
            add(name, right, got)
    for index, entry in enumerate(expect.get("gpus") or []):
        right, why = _gpu_entry_right(entry, facts)
        add(f"gpus[{index}] {entry.get('model') or entry.get('vendor')}", right, why)
    for key in ("driver_version", "cuda_driver_version"):
        if expect.get(key):
            right, got = _driver(key, expect[key], facts)
            add(key, right, got)
    torch = expect.get("torch") or {}
    data = facts.frameworks["torch"].data if "torch" in facts.frameworks else {}
    for key, field in (("version", "version"), ("cuda_build", "cuda_version"), ("cuda_available", "cuda_available")):
        if torch.get(key) is not None:
            got, wanted = data.get(field), torch[key]
            if key == "cuda_build":  # '10.1' and collect_env 2019's '10.1.243' name the same build
                got, wanted = (".".join(str(v).split(".")[:2]) if v is not None else None for v in (got, wanted))
            add(f"torch.{key}", got == wanted, data.get(field))
    for name, version in (expect.get("frameworks") or {}).items():
        if version is not None:
            got = _framework_version(name, facts)
            add(f"frameworks.{name}", got == version, got)
    if expect.get("should_recommend"):
        add("should_recommend", reading.recommended == expect["should_recommend"], reading.recommended)
    forbidden = set(expect.get("must_not_recommend") or ())
    if forbidden:
        text = _fix_text(reading.findings)
        named = sorted(n for n in forbidden if f"--recipe {n}" in text)
        right = reading.recommended not in forbidden and not named
        add("must_not_recommend", right, f"recommended {reading.recommended}, fixes name {named}")
    levels = {}
    for finding in reading.findings:
        if finding.level in PROBLEM_LEVELS:
            levels[finding.check] = finding.level
    for check in expect.get("problems") or ():
        add(f"problems.{check}", check in levels, "no warning or failure")
    for check in expect.get("no_problems") or ():
        add(f"no_problems.{check}", check not in levels, levels.get(check))
    return out


def score_capture(txt: Path, recipes: Sequence[Any]) -> Score:
    meta = json.loads(txt.with_suffix(".json").read_text(encoding="utf-8"))
    expect = meta["expect"]
    try:
        reading = read_capture(txt, recipes)
    except MacmlError as exc:
        reading, refused = Reading({}, None, None, ()), exc.message if hasattr(exc, "message") else str(exc)
        return Score(txt.stem, tuple(judge(expect, reading)), refused or "refused")
    return Score(txt.stem, tuple(judge(expect, reading)))


def captures_in(folder: Path) -> List[Path]:
    return sorted(p for p in folder.glob("*.txt") if p.with_suffix(".json").is_file())


def summary(scores: Sequence[Score]) -> Dict[str, Any]:
    total = sum(len(s.conclusions) for s in scores)
    right = sum(len(s.conclusions) - len(s.wrong) for s in scores)
    by_name: Counter = Counter()
    for s in scores:
        for c in s.wrong:
            by_name[c.name.split(" ")[0].split("[")[0].split(".")[0]] += 1
    return {"captures": len(scores), "conclusions": total, "right": right,
            "conclusions_right": right / total if total else 1.0,
            "clean": sum(s.clean for s in scores), "machines_clean": sum(s.clean for s in scores) / len(scores) if scores else 1.0,
            "refused": sum(bool(s.refused) for s in scores), "wrong_by_kind": dict(by_name.most_common())}
