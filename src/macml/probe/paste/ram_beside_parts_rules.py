"""The machine's RAM written beside its other parts, each a pure function returning stated facts:

- a line that is only a RAM size ('11.84 GB RAM', '- 32GB DDR4 memory', '16 GB of RAM') inside a block of short lines
  that name this machine's OS, CPU or GPU (DeepFaceLab's header: build, 'Windows 11 Pro x64', the CPU, 'NVIDIA GeForce
  GTX 1650 (Driver 516.94)', '11.84 GB RAM'); nothing where the block is requirements or another's ('Minimum
  requirements:', 'Recommended:'), or where a line of the block is a GPU's memory;
- a server's memory counted in DIMMs ('16Dimm * 32GB-3200': 512 GB);
- the RAM after a GPU whose own memory the same words give as VRAM ('AMD RX 480 8g vram 16gb ram',
  'RTX 3060 12GB VRAM, 32GB RAM'): with the VRAM named apart, the 'RAM' is the machine's, in an answer about the
  machine ('GPU model and memory: ...') or in the writer's own words ('my RTX 3060 12GB VRAM, 32GB RAM');
- a size right after an Intel Core's tier, the pair in parentheses ('a MacOS 10.15.17 (i5 16GB)', '(i7, 32GB)'): the
  machine's RAM (no GPU is named in the pair).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.gpu_names import gpu_names, informal_gpu_names
from macml.probe.paste.said_of_this_machine import hypothetical, mentioned_only, someone_elses
from macml.probe.paste.statement_rules import platform_word

Facts = List[Tuple[str, Any]]

_SIZE = r"(\d{1,4}(?:\.\d{1,2})?)\s?(?:GB|GiB|Go|G)"
_RAM_LINE = re.compile(r"^\s*(?:[-*•]\s*)?" + _SIZE + r"\s+(?:of\s+)?(?:(?:LP)?DDR\d\w*\s+)?(?:system\s+)?(?:RAM|memory)"
                       r"(?:\s*\([^)]*\))?\s*$", re.IGNORECASE)
_CPU_WORDS = re.compile(r"\b(?:Core\s*\(TM\)|Core\s+i[3579]|i[3579]-\d{4,5}|Ryzen|Xeon|EPYC|Threadripper|Pentium|Celeron|"
                        r"Athlon|Apple\s+M\d|Snapdragon|CPU|Processor)\b", re.IGNORECASE)
_GPU_MEMORY_WORDS = re.compile(r"\b(?:VRAM|GPU|graphics|video|GDDR\d\w*|dedicated|shared)\b", re.IGNORECASE)
_MAX_ITEM = 90  # a spec block's line is short; a longer one is prose and ends the block
_REACH = 4  # lines either side of the RAM line that may name the machine's other parts


def _names_a_part(line: str) -> bool:
    text = line.strip().strip("*").strip()
    return bool(gpu_names(text) or informal_gpu_names(text) or platform_word(text) or _CPU_WORDS.search(text))


def _block(lines: Sequence[str], index: int) -> List[int]:
    """The indices of the short, non-blank lines around `index`, up to `_REACH` each side."""
    found = [index]
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(lines) and abs(at - index) <= _REACH and lines[at].strip() and len(lines[at].strip()) <= _MAX_ITEM:
            found.append(at)
            at += step
    return sorted(found)


def ram_line_in_specs(lines: Sequence[str]) -> Dict[int, Facts]:
    """Line index -> the RAM a bare 'N GB RAM' line gives, where its block names this machine's other parts."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        ram = _RAM_LINE.match(line)
        if not ram or _GPU_MEMORY_WORDS.search(line):
            continue
        block = _block(lines, index)
        above = next((lines[i] for i in range(block[0] - 1, max(-1, block[0] - 3), -1) if lines[i].strip()), "")
        words = [lines[i] for i in block] + [above]
        if any(hypothetical(w) or someone_elses(w) for w in words):
            continue
        if any(_names_a_part(lines[i]) for i in block if i != index):
            found[index] = [("cpu.memory_bytes", round(float(ram.group(1)) * 1024**3))]
    return found


_VRAM_THEN_RAM = re.compile(_SIZE + r"\s*(?:of\s+)?VRAM\b[^.;]{0,40}?(?<![\w.])" + _SIZE + r"\s*(?:of\s+)?(?:system\s+)?RAM\b",
                            re.IGNORECASE)
_MACHINE_KEY = re.compile(r"\b(?:gpu|graphics|hardware|system|specs?|machine|pc|computer|setup|rig)\b", re.IGNORECASE)
_OWNED = re.compile(r"\b(?:my|I\s+have|I've\s+got|I\s+use|I'm\s+using|I\s+am\s+using)\b", re.IGNORECASE)


def ram_after_vram(text: str) -> Facts:
    """'AMD RX 480 8g vram 16gb ram' -> 16 GiB of RAM: a GPU, its memory as VRAM, then the RAM."""
    found = _VRAM_THEN_RAM.search(text)
    if not found or not (gpu_names(text[:found.start()]) or informal_gpu_names(text[:found.start()])):
        return []
    if mentioned_only(text, found.start(2), found.end()):
        return []
    return [("cpu.memory_bytes", round(float(found.group(2)) * 1024**3))]


def keyed_facts(key: str, value: str) -> Facts:
    """An answer about the machine ('GPU model and memory: AMD RX 480 8g vram 16gb ram')."""
    return ram_after_vram(value) if _MACHINE_KEY.search(key) else []


# a server's memory as its DIMMs: '(16Dimm * 32GB-3200)', '16 DIMMs x 32GB' (a GPU's memory is never in DIMMs)
_DIMMS = re.compile(r"(?<![\w.])(\d{1,2})\s*(?:x\s*)?DIMMs?\s*[*x×]\s*(\d{1,3})\s?GB\b", re.IGNORECASE)


_TIER_AND_SIZE = re.compile(r"\((?:Intel\s+)?(?:Core\s+)?i[3579](?:-\d{4,5}[A-Z]{0,2})?\s*[,/]?\s*(\d{1,3})\s?GB\)", re.IGNORECASE)


def line_facts(line: str) -> Facts:
    """The writer's own words ('my RTX 3060 12GB VRAM, 32GB RAM', '(i5 16GB)'); memory counted in DIMMs."""
    owned = _OWNED.search(line)
    dimms = _DIMMS.search(line)
    paired = _TIER_AND_SIZE.search(line)
    return ((ram_after_vram(line[owned.start():]) if owned else [])
            + ([("cpu.memory_bytes", int(dimms.group(1)) * int(dimms.group(2)) * 1024**3)] if dimms else [])
            + ([("cpu.memory_bytes", int(paired.group(1)) * 1024**3)]
               if paired and not mentioned_only(line, paired.start(), paired.end()) else []))


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    return ram_line_in_specs(lines)
