"""An Apple-silicon Mac's memory as people write it, and what it says about the chip.

- A Mac whose chip is written without its tier beside a memory size only one tier of that generation was sold with:
  'a new Mac Mini with an M2 processor and 8Gb RAM', 'Mac M2 mini, 24GB' name the plain Apple M2.
- The memory an app should have found: 'The M5 shows 0/0 - it should be seeing 64GB.'
- A chip 'with' a size it was sold with: 'M5PRO with  48G'.
- A chip with its tier and a bare number only that chip's memory can be ('macOS 12.5 M1max 64'): its memory in GB,
  unless the number is also one of its CPU or GPU core counts ('M1 Ultra 64' may be the 64-core GPU).
- A line that is only a size, next to a line that is only an Apple chip ('M2 Pro' then '16 GB' in an environment
  block): the Mac's memory, if Apple sold that chip with that much.
- An issue form's 'GPU VRAM' answer ('18Go', French for 18 GB): on Apple silicon the GPU's memory is the Mac's
  unified memory; stated.py uses it only where the machine is an Apple-silicon Mac and no other memory is known.

Each rule is a pure function of one line (or one `key: value` pair).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.hardware import apple_core_options
from macml.knowledge.mac_families import APPLE_CHIP_MEMORY_GB, chip_by_memory
from macml.knowledge.macos import APPLE_SILICON_MEMORY_GB

Facts = List[Tuple[str, Any]]

_CHIP = re.compile(r"(?<![\w.-])M([1-9])(?:\s+(Pro|Max|Ultra)\b)?(?![\w.-])", re.IGNORECASE)
_MAC = re.compile(r"\b(?:Mac ?(?:Book ?(?:Pro|Air)?|mini|Studio)?|iMac|MBP|MBA)(?![a-z])|\b(?:chip|processor|SoC)\b", re.IGNORECASE)
_SIZE = re.compile(r"(?<![\w.])(\d{1,3})\s?(?:GB|GiB|Go|G|gigs?)\b(?!\s*(?:of\s+)?(?:SSD|storage|disk|flash|drive|HDD|VRAM|model|file|download))",
                   re.IGNORECASE)
_SHOULD_SEE = re.compile(r"\bshould\s+(?:be\s+)?(?:see(?:ing)?|show(?:ing)?|report(?:ing)?|detect(?:ing)?|display(?:ing)?|have)\s+"
                         r"(\d{1,3})\s?(?:GB|GiB)\b", re.IGNORECASE)
_TIERED_NUMBER = re.compile(r"(?<![\w.-])(?:apple\s*)?M([1-9])\s*(Pro|Max|Ultra)\s+(\d{2,3})(?![\w.,/%+-]|\s*(?:-?\s*core|c\b|gpu|cpu|"
                            r"w\b|hz|\"|”|'|inch|in\b|mm|tb|mb|%))", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def plain_chip_by_memory(line: str) -> Facts:
    """One Apple chip generation written without its tier, and one memory size, in a line about a Mac: the chip
    is the one tier of that generation sold with that memory (mac_families.APPLE_CHIP_MEMORY_GB)."""
    chips = {(m.group(1), (m.group(2) or "").lower()) for m in _CHIP.finditer(line)}
    if len(chips) != 1 or not _MAC.search(line):
        return []
    generation, tier = chips.pop()
    sizes = {int(m.group(1)) for m in _SIZE.finditer(line)}
    if tier or len(sizes) != 1:
        return []
    chip = chip_by_memory(int(generation), sizes.pop())
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.brand", f"Apple {chip}")] if chip else []


def memory_after_chip(line: str) -> Facts:
    """'macOS 12.5 M1max 64': 64 GB beside an M1 Max, which came with 32 or 64 GB and has no 64 cores."""
    found = _TIERED_NUMBER.search(line)
    if not found or len(re.findall(r"(?<![\w.-])M[1-9](?!\d)", line, re.IGNORECASE)) != 1:
        return []
    chip, size = f"M{found.group(1)} {found.group(2).title()}", int(found.group(3))
    cores = apple_core_options(chip)
    if size not in APPLE_CHIP_MEMORY_GB.get(chip, ()) or (cores and size in cores[0] | cores[1]):
        return []
    return [("memory.unified", size * 1024**3)]


_CHIP_WITH_SIZE = re.compile(r"(?<![\w.-])(?:apple\s*)?M([1-9])\s*(Pro|Max|Ultra)?\s+with\s+(\d{1,3})\s?(?:GB|GiB|G)\b"
                             r"(?!\s*(?:of\s+)?(?:SSD|storage|disk|flash|drive|VRAM))", re.IGNORECASE)


def memory_with_chip(line: str) -> Facts:
    """'M5PRO with  48G': an Apple chip 'with' a size that chip was sold with is its memory."""
    found = _CHIP_WITH_SIZE.search(line)
    if not found:
        return []
    chip = f"M{found.group(1)}" + (f" {found.group(2).title()}" if found.group(2) else "")
    size = int(found.group(3))
    sold = APPLE_CHIP_MEMORY_GB.get(chip, APPLE_SILICON_MEMORY_GB)  # a chip newer than the table: any Apple size
    return [("memory.unified", size * 1024**3)] if size in sold else []


def memory_it_should_see(line: str) -> Facts:
    """'The M5 shows 0/0 - it should be seeing 64GB.': the memory an app missed on the one Apple chip the sentence
    names."""
    facts: Facts = []
    for sentence in _SENTENCE.split(line):
        found = _SHOULD_SEE.search(sentence)
        chips = {m.group(0).lower() for m in _CHIP.finditer(sentence)}
        if found and len(chips) == 1 and int(found.group(1)) in APPLE_SILICON_MEMORY_GB:
            facts.append(("memory.unified", int(found.group(1)) * 1024**3))
    return facts


_VRAM_KEYS = ("gpu vram", "vram")
_VRAM_VALUE = re.compile(r"^(?:unified\s+)?(\d{1,3})\s?(?:GB|GiB|Go|G)$", re.IGNORECASE)  # 'VRAM: unified 128G' too


def vram_answer(key: str, value: str) -> Facts:
    """'GPU VRAM: 18Go' -> 18 GB, the unified memory if the GPU is an Apple one (stated.py decides)."""
    found = _VRAM_VALUE.match(value.strip()) if key in _VRAM_KEYS else None
    if not found or int(found.group(1)) not in APPLE_SILICON_MEMORY_GB:
        return []
    return [("memory.unified", int(found.group(1)) * 1024**3)]


_CHIP_LINE = re.compile(r"^\s*(?:[-*]\s+)?(?:Apple\s+)?(M[1-9])(?:\s+(Pro|Max|Ultra))?\s*$", re.IGNORECASE)
_SIZE_LINE = re.compile(r"^\s*(?:[-*]\s+)?(\d{1,3})\s?(?:GB|GiB|G)(?:\s+(?:RAM|memory|unified memory))?\s*$", re.IGNORECASE)


def size_beside_chip(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index of a bare size line next to a bare chip line -> the Mac's memory."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        size = _SIZE_LINE.match(line)
        chip = next((_CHIP_LINE.match(lines[i]) for i in (index - 1, index + 1) if 0 <= i < len(lines) and _CHIP_LINE.match(lines[i])), None)
        name = " ".join(filter(None, (chip.group(1).upper(), (chip.group(2) or "").capitalize()))) if chip else ""
        if size and chip and int(size.group(1)) in APPLE_CHIP_MEMORY_GB.get(name, ()):
            found[index] = [("cpu.memory_bytes", int(size.group(1)) * 1024**3)]
    return found


def line_facts(line: str) -> Facts:
    return plain_chip_by_memory(line) + memory_it_should_see(line) + memory_after_chip(line) + memory_with_chip(line)


def keyed_facts(key: str, value: str) -> Facts:
    return vram_answer(key, value)
