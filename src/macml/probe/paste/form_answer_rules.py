"""Answers in issue forms and templates that the `key: value` reader misses:

- an issue form's '### Architecture' answered on a later line ('X64', 'ARM64'): the machine's architecture;
- a macOS version written bare with its build ('13.1 (22C65)') under an OS heading: a macOS release when the
  build is one of that release's;
- a template's '- GPU model and memory:' whose answer is the next bullet ('- AMD Radeon'), read like any
  `key: value` line; a GPU answer that only names a vendor ('AMD Radeon') says that vendor's GPU is there.
- a CPU answer that only names an x86 vendor ('### CPU' then 'AMD'): an x86_64 machine.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.knowledge.macos_builds import macos_for_build
from macml.probe.paste.statement_rules import Facts, by_key

_HEADING = re.compile(r"^\s*#{2,4}\s+(\S.{0,60}?)\s*$")
_ARCH_ANSWER = {"x64": "x86_64", "x86_64": "x86_64", "x86-64": "x86_64", "amd64": "x86_64",
                "arm64": "arm64", "aarch64": "arm64"}
_OS_KEYS = ("os platform and distribution", "os", "os version", "operating system", "platform", "macos",
            "macos version", "os platform")
_BARE_WITH_BUILD = re.compile(r"^(?:mac ?os\s+)?((?:1[0-5]|2[6-9])\.\d{1,2}(?:\.\d{1,2})?)\s*\((\d{2}[A-Z]\d{1,5}[a-z]?)\)$",
                              re.IGNORECASE)
# '- GPU model and memory:' (TensorFlow's template, a hint in parentheses dropped) answered by the next bullet
_BULLET_KEY = re.compile(r"^\s*[-*]\s*([A-Za-z][\w /.-]{1,48}?)\s*(?:\([^)]*\))?\s*:\s*$")
_BULLET_ANSWER = re.compile(r"^\s*[-*]\s*([^:\s][^:]{0,80}?)\s*$")
_GPU_KEYS = ("gpu model and memory", "gpu model", "gpu", "graphics", "gpu models and configuration")
_CPU_KEYS = ("cpu", "processor", "cpu vendor")
_VENDOR_ONLY = {"amd": "AMD", "amd radeon": "AMD", "radeon": "AMD", "nvidia": "NVIDIA", "nvidia geforce": "NVIDIA"}


def macos_with_build(key: str, value: str) -> Facts:
    """'OS Platform and Distribution: 13.1 (22C65)': a version and a macOS build that agree."""
    found = _BARE_WITH_BUILD.match(value.strip()) if key in _OS_KEYS else None
    if not found:
        return []
    release, _ = macos_for_build(found.group(2))
    version = found.group(1)
    if not release or release.split(".")[:2] != version.split(".")[:2]:
        return []
    return [("platform", "darwin"), ("os.version", version), ("os.build", found.group(2))]


def vendor_only_gpu(key: str, value: str) -> Facts:
    """'GPU model and memory: AMD Radeon': a GPU of that vendor, its model not given."""
    vendor = _VENDOR_ONLY.get(" ".join(value.lower().split())) if key in _GPU_KEYS else None
    return [("gpu.present", vendor)] if vendor else []


def cpu_vendor_answer(key: str, value: str) -> Facts:
    """ollama's form: '### CPU' answered 'AMD' or 'Intel': an x86_64 machine (their CPUs a PC runs are x86)."""
    return [("cpu.hardware_arch", "x86_64")] if key in _CPU_KEYS and value.strip().lower() in ("amd", "intel") else []


def keyed_facts(key: str, value: str) -> Facts:
    return macos_with_build(key, value) + vendor_only_gpu(key, value) + cpu_vendor_answer(key, value)


def states_x86_architecture(lines: Sequence[str]) -> bool:
    """The text answers an 'Architecture' form field with an x86_64 word."""
    return any(fact == ("cpu.hardware_arch", "x86_64") for facts in _architecture_answers(lines).values() for fact in facts)


def _architecture_answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        heading = _HEADING.match(line)
        if not heading or heading.group(1).strip().lower() not in ("architecture", "cpu architecture"):
            continue
        answer = next((i for i in range(index + 1, min(len(lines), index + 4)) if lines[i].strip()), None)
        arch = _ARCH_ANSWER.get(lines[answer].strip().lower()) if answer is not None else None
        if arch:
            found[answer] = [("cpu.hardware_arch", arch)]
    return found


def _bullet_answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    for index in range(len(lines) - 1):
        key = _BULLET_KEY.match(lines[index])
        answer = _BULLET_ANSWER.match(lines[index + 1]) if key else None
        if not answer or _BULLET_KEY.match(lines[index + 1]) or index + 2 < len(lines) and _BULLET_ANSWER.match(lines[index + 2]):
            continue  # a list of several answers ('- GPU:' and one '- NVIDIA ...' per card) is another rule's
        name = " ".join(key.group(1).lower().split())
        facts = by_key(name, answer.group(1)) + keyed_facts(name, answer.group(1))
        if facts:
            found[index + 1] = facts
    return found


def answers(lines: Sequence[str]) -> Dict[int, List]:
    """line index -> facts of the form answers on that line."""
    found: Dict[int, List] = {}
    for part in (_architecture_answers(lines), _bullet_answers(lines)):
        for index, facts in part.items():
            found.setdefault(index, []).extend(facts)
    return found
