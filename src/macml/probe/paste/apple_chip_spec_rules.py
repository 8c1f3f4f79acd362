"""A Mac's specs written beside its Apple chip in ways the other spec readers miss:

- the GPU's core count written as a count of GPUs ('Mac Studio M2 Max (38 GPUs)', 'M3 Max 40 GPU'): an Apple chip
  has one GPU, so the number is its cores; read only when it is one of that chip's GPU core counts
  (knowledge/hardware.APPLE_CHIP_CORES);
- the CPU and GPU core counts in shorthand after the chip ('M4 Max 14c/32c'), when both are that chip's;
- the memory after the chip and a parenthetical ('Mac Studio M2 Max (38 GPUs), 96 GB', 'M3 Pro (12-core CPU) 36GB'):
  a size Apple sells as unified memory, not a disk's ('1 TB', '512 GB SSD') nor a model's ('M2 Max (Q4_K_M), 48 GB');
- a GPU form answer naming an Apple chip with a size ('GPU model and memory: MacBook Pro M1 and 16 GB'): an Apple
  chip's GPU has no memory of its own, so the size is the Mac's unified memory.

A chip asked about, advised or someone else's ('Does the M3 Pro (18 GPU), 36GB work?', 'You need at least an M2 Max
(38 GPUs), 96 GB', "My colleague's M2 Max (38 GPUs)") is not this machine's.

Each rule is a pure function of one line (or of one 'key: value' pair).
"""
from __future__ import annotations

import re

from macml.knowledge.hardware import apple_core_options
from macml.knowledge.macos import APPLE_SILICON_MEMORY_GB
from macml.probe.paste.said_of_this_machine import hypothetical, negated, someone_elses
from macml.probe.paste.statement_rules import Facts

_CHIP = re.compile(r"(?<![\w-])(?:Apple\s+)?M([1-9])(?:\s+(Pro|Max|Ultra))?(?![\w.])")
_GPU_COUNT = re.compile(r"^\s*\(?\s*(\d{1,2})\s*GPUs?\b(?!\s*cores?)", re.IGNORECASE)
# '14c/32c', '芯片 10CPU 24GPU': CPU and GPU cores just after the chip
_CORE_PAIR = re.compile(r"^[^\d\n]{0,8}?(\d{1,2})\s?(?:c|CPU)\s*/?\s*(\d{1,2})\s?(?:c|GPU)\b", re.IGNORECASE)
_PAREN = r"\s*\((?P<note>[^()]{1,40})\)"
_MEMORY_AFTER = re.compile(_PAREN + r"\s*,?\s*(?P<size>\d{1,3})\s?(?:GB|GiB|G)\b(?!\s*(?:SSD|storage|disk|drive|HDD|NVMe|VRAM|free|left|model))"
                           r"(?:\s*(?:RAM|memory|unified memory))?\s*(?:$|[,;.)])", re.IGNORECASE)
# a chip named to compare with, a few words before the fact ('faster than the M2 Max (38 GPUs)'); negated() covers denials
_COMPARED = re.compile(r"\b(?:not|unlike|than|instead of|vs\.?|versus|compared? (?:to|with))\s+(?:\w+\s+){0,3}$", re.IGNORECASE)
_GPU_KEY = re.compile(r"\b(?:gpu|graphics)\b")
# a model's size or quantisation ('(Q4_K_M), 48 GB', 'the 70B model takes 48 GB'): the size is the model's
_MODEL_SIZE = re.compile(r"\b(?:Q\d(?:_[A-Z0-9]+)*|IQ\d\w*|(?:fp|bf)16|fp(?:8|32)|int[48]|\d-?bit|GGUF|GGML|AWQ|GPTQ|MLX"
                         r"|model|weights)\b|\b\d+(?:\.\d+)?B\b", re.IGNORECASE)
_SIZE = re.compile(r"(?<![\w.])(\d{1,3})\s?(?:GB|GiB|G)\b(?!\s*(?:SSD|storage|disk|drive|VRAM))", re.IGNORECASE)


def _chip_name(found: re.Match) -> str:
    return f"M{found.group(1)}" + (f" {found.group(2).capitalize()}" if found.group(2) else "")


def _mentioned(line: str, chip: re.Match) -> bool:
    """A chip asked about, advised, compared with or someone else's ('You need at least an M2 Max', 'My colleague's')."""
    before = line[:chip.start()]
    return bool(_COMPARED.search(before)) or negated(before) or hypothetical(line) or someone_elses(before)


def gpu_count_as_cores(line: str) -> Facts:
    """'Mac Studio M2 Max (38 GPUs), 96 GB' -> 38 GPU cores (an M2 Max has 30 or 38)."""
    for chip in _CHIP.finditer(line):
        count = _GPU_COUNT.match(line[chip.end():])
        options = apple_core_options(_chip_name(chip))
        if count and options and int(count.group(1)) in options[1] and not _mentioned(line, chip):
            return [("gpu.cores", int(count.group(1)))]
    return []


def core_pair(line: str) -> Facts:
    """'MacBook Pro 14-inch M4 Max 14c/32c' -> 14 CPU and 32 GPU cores, where both are that chip's (an M4 Max has
    14 or 16 CPU cores, 32 or 40 GPU cores)."""
    for chip in _CHIP.finditer(line):
        pair = _CORE_PAIR.match(line[chip.end():])
        options = apple_core_options(_chip_name(chip))
        if (pair and options and int(pair.group(1)) in options[0] and int(pair.group(2)) in options[1]
                and not _mentioned(line, chip)):
            return [("cpu.cores", int(pair.group(1))), ("gpu.cores", int(pair.group(2)))]
    return []


def memory_after_chip_note(line: str) -> Facts:
    """'Mac Studio M2 Max (38 GPUs), 96 GB': the unified memory after the chip's parenthetical."""
    for chip in _CHIP.finditer(line):
        found = _MEMORY_AFTER.match(line[chip.end():])
        if (found and int(found.group("size")) in APPLE_SILICON_MEMORY_GB and not _MODEL_SIZE.search(found.group("note"))
                and not _mentioned(line, chip)):
            return [("cpu.memory_bytes", int(found.group("size")) * 1024**3)]
    return []


def line_facts(line: str) -> Facts:
    return gpu_count_as_cores(line) + core_pair(line) + memory_after_chip_note(line)


def apple_gpu_memory_answer(key: str, value: str) -> Facts:
    """'GPU model and memory: MacBook Pro M1 and 16 GB' -> 16 GiB of unified memory."""
    if (not _GPU_KEY.search(key) or not _CHIP.search(value) or _MODEL_SIZE.search(value) or hypothetical(value)
            or someone_elses(value)) or re.search(r"\b(?:NVIDIA|GeForce|Radeon|AMD|Intel)\b", value, re.IGNORECASE):
        return []
    sizes = {int(s) for s in _SIZE.findall(value)}
    if len(sizes) != 1 or not sizes <= APPLE_SILICON_MEMORY_GB:
        return []
    return [("cpu.memory_bytes", sizes.pop() * 1024**3)]


def keyed_facts(key: str, value: str) -> Facts:
    return apple_gpu_memory_answer(key, value)
