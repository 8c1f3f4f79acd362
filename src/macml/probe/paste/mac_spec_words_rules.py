"""A Mac's hardware as owners write it in spec lists, issue forms and prose.

- RAM written with a lower-case 'b' ('**RAM:** 16Gb (DDR3)'): no Mac has gigabits of memory, so it is GB.
- A decimal comma ('1,5 TB RAM'): 1.5 TB.
- A count before an AMD GPU ('2x Radeon Pro W6900X 32 GB GDDR6'): that many GPUs, each with that memory.
- An Apple chip named without its tier beside the year its Mac came out, where that generation had only the plain
  chip that year ('MacBook Pro with M1 (2020)': the M1 Pro and Max came in 2021).
- A Mac with an untiered Apple chip ('Mac M4'): the chip's generation, which stated.py resolves to one tier only
  where the Mac's memory was sold with that tier alone (mac_families.chip_by_memory).
- A macOS issue form's version answered with a release name alone ('macOS Version: Ventura').
- A chip answered with Apple's chip name alone ('CPU and GPU model: M1, ARM', 'Chip: M2 Pro'): that Apple chip.
- Work done inside a named VM ('inside a Tart VM'): a virtual machine; Tart and VirtualBuddy run their guests
  through Apple's Virtualization.framework, which runs only on Apple silicon (tart.run, github.com/cirruslabs/tart).

Each rule is a pure function of one line (or one `key: value` pair).
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.knowledge.mac_families import PLAIN_ONLY_YEARS
from macml.knowledge.macos import MACOS_RELEASE_NAMES, sole_release
from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.said_of_this_machine import NEGATION

Facts = List[Tuple[str, Any]]

_RAM_KEYS = ("ram", "memory", "system memory", "installed ram", "installed memory")
_LOWER_GB = re.compile(r"^(\d{1,4})\s?Gb\b(?!/s|ps|it)")


def ram_in_lower_case_gb(key: str, value: str) -> Facts:
    """'RAM: 16Gb (DDR3)' -> 16 GB."""
    found = _LOWER_GB.match(value.strip()) if key in _RAM_KEYS else None
    return [("cpu.memory_bytes", int(found.group(1)) * 1024**3)] if found else []


_DECIMAL_COMMA_TB = re.compile(r"(?<![\w.,])(\d),(\d)\s?TB\s+(?:of\s+)?(?:RAM|memory)\b", re.IGNORECASE)


def decimal_comma_terabytes(line: str) -> Facts:
    """'1,5 TB RAM' -> 1.5 TB (1536 GiB)."""
    found = _DECIMAL_COMMA_TB.search(line)
    if not found:
        return []
    return [("cpu.memory_bytes", int((int(found.group(1)) + int(found.group(2)) / 10) * 1024**4))]


_COUNTED = re.compile(r"(?<![\w.])(\d{1,2})\s?[x×]\s+(?=(?:AMD\s+)?Radeon\b)", re.IGNORECASE)
_MEMORY_AFTER = re.compile(r"^\s*(\d{1,3})\s?GB\b", re.IGNORECASE)


def counted_amd_gpus(line: str) -> Facts:
    """'2x Radeon Pro W6900X 32 GB GDDR6': two GPUs of that model, each with 32 GB."""
    found = _COUNTED.search(line)
    if not found or NEGATION.search(line[:found.start()]) or not 1 < int(found.group(1)) <= 8:
        return []
    rest = line[found.end():]
    names = gpu_names(rest)
    if not names or not rest.startswith(names[0]):
        return []
    memory = _MEMORY_AFTER.match(rest[len(names[0]):])
    size = memory.group(1) + " GB" if memory else None
    return [("gpu", dict(gpu_record(names[0], size)[1], index=i)) for i in range(int(found.group(1)))]


_MAC = r"(?:Mac\s?Book(?:\s?(?:Pro|Air))?|Mac\s?(?:mini|Studio|Pro)|iMac|Mac)"
_UNTIERED = re.compile(rf"(?<![\w-]){_MAC}\s+(?:with\s+(?:an?\s+|the\s+)?)?(?:Apple\s+)?M([1-9])(?![\w.-])(?!\s+(?:Pro|Max|Ultra)\b)",
                       re.IGNORECASE)


def untiered_chip(line: str) -> Facts:
    """'MacBook Pro with M1 (2020)' -> Apple M1 (the only M1 of 2020); 'Mac M4' -> an M4-generation chip."""
    found = _UNTIERED.search(line)
    if not found or NEGATION.search(line[:found.start()]):
        return []
    generation = int(found.group(1))
    # the year must be the Mac's: right after the chip ('M1 (2020)', 'M2 2022') or right before the Mac ('2020 MacBook
    # Air M1'), not one elsewhere on the line ('MacBook Pro M2 with PyCharm 2022')
    after = re.match(r"\s*[,(]?\s*(20[2-3]\d)\)?(?![\w.])", line[found.end():])
    before = re.search(r"(?<![\w.])(20[2-3]\d)\)?\s*$", line[:found.start()])
    years = {int(m.group(1)) for m in (after, before) if m}
    if len(years) == 1 and years.pop() in PLAIN_ONLY_YEARS.get(generation, ()):
        return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.brand", f"Apple M{generation}")]
    return [("cpu.apple_generation", generation)]


_MACOS_KEY = re.compile(r"(?:mac\s?os(?: x)?|os x)(?: version| release)?")
_RELEASE_ONLY = re.compile(r"^(?:macOS\s+)?(" + "|".join(sorted(MACOS_RELEASE_NAMES, key=len, reverse=True)) + r")\.?$",
                           re.IGNORECASE)


def macos_release_answer(key: str, value: str) -> Facts:
    """'macOS Version: Ventura': macOS, at that release."""
    if not _MACOS_KEY.fullmatch(key) or not _RELEASE_ONLY.match(" ".join(value.split())):
        return []
    release = sole_release(value)
    return [("platform", "darwin")] + ([("os.release", release)] if release else [])


_APPLE_VM_TOOLS = re.compile(r"Tart|VirtualBuddy", re.IGNORECASE)
_INSIDE_VM = re.compile(r"\b(?:inside|within|in)\s+(?:an?|my|our|the)\s+(?:([A-Z][\w-]*)\s+)?(?:VM|virtual machine)\b(?!\s*[:=])")


def inside_named_vm(line: str) -> Facts:
    """'I ran the example inside a Tart VM': a virtual machine; Tart's is Apple's Virtualization.framework."""
    found = _INSIDE_VM.search(line)
    if not found or NEGATION.search(line[:found.start()]) or not _APPLE_VM_TOOLS.fullmatch(found.group(1) or ""):
        return []
    return [("cpu.hardware_arch", "arm64"), ("hypervisor", "Apple Virtual Machine")]


# 'Testing with https://github.com/insidegui/VirtualBuddy.', 'running it in VirtualBuddy': the writer's test is that
# tool's macOS guest (VirtualBuddy runs macOS guests on Apple silicon through Virtualization.framework)
_WITH_VIRTUALBUDDY = re.compile(r"\b(?:testing|tested|test|running|ran|run|using|inside|in|with)\b[^.?!]{0,12}?"
                                r"(?:https?://github\.com/insidegui/)?VirtualBuddy\b", re.IGNORECASE)


def with_virtualbuddy(line: str) -> Facts:
    found = _WITH_VIRTUALBUDDY.search(line)
    if not found or NEGATION.search(line[:found.start()]) or "?" in line[found.end():found.end() + 40]:
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("hypervisor", "Apple Virtual Machine")]


def line_facts(line: str) -> Facts:
    return (decimal_comma_terabytes(line) + counted_amd_gpus(line) + untiered_chip(line) + inside_named_vm(line)
            + with_virtualbuddy(line))


# neofetch's 'GPU: Apple M1 Max (24)': the Apple GPU's cores in brackets
_GPU_CORE_TOTAL = re.compile(r"^(?:Total Number of Cores:\s*(\d{1,2})|(\d{1,2})[- ]core(?: GPU)?|Apple M[1-5](?: Pro| Max| Ultra)? \((\d{1,2})\))$",
                             re.IGNORECASE)


def gpu_core_total(key: str, value: str) -> Facts:
    """'- GPU:  Total Number of Cores: 38' (system_profiler's Apple GPU line), '| GPU | 20-core |': an Apple GPU's
    cores under the writer's own 'GPU' label."""
    found = _GPU_CORE_TOTAL.match(value.strip()) if key in ("gpu", "graphics") else None
    if not found:
        return []  # system_profiler's words are macOS's; a bare 'N-core' only counts for an Apple GPU
    return ([("platform", "darwin")] if found.group(1) or found.group(3) else []) + [
        ("gpu.cores", int(found.group(1) or found.group(2) or found.group(3)))]


_CHIP_KEYS = re.compile(r"(?:cpu|chip|processor|soc)(?: model| type| name)?|cpu (?:and|&|/) ?gpu(?: model)?|cpu/gpu(?: model)?")
_BARE_CHIP = re.compile(r"(?:Apple\s+)?M([1-5])(?:\s+(Pro|Max|Ultra))?(?:\s*(?:[,(/]\s*(?:ARM|arm64|Apple silicon)\)?)?)?", re.IGNORECASE)


def chip_answer(key: str, value: str) -> Facts:
    """'CPU and GPU model: M1, ARM' -> Apple M1 (its tier as answered: 'Chip: M2 pro' is the M2 Pro)."""
    found = _BARE_CHIP.fullmatch(value.strip()) if _CHIP_KEYS.fullmatch(key) else None
    if not found:
        return []
    tier = f" {found.group(2).title()}" if found.group(2) else ""
    return [("platform", "darwin"), ("cpu.brand", f"Apple M{found.group(1)}{tier}"), ("cpu.hardware_arch", "arm64")]


def keyed_facts(key: str, value: str) -> Facts:
    return (ram_in_lower_case_gb(key, value) + macos_release_answer(key, value) + gpu_core_total(key, value)
            + chip_answer(key, value))
