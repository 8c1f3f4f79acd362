"""A value a pretty-printed JSON dump files under a section: the machine's memory in a system-info report
('"ram": {"total_gb": 192.0, "available_gb": 135.49}', wandb's '"memory": {"total": 64.0}'). The key alone ('total_gb')
does not say what it measures; the section it sits in does. Only the total is the machine's memory."""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.statement_rules import Facts

_OPEN = re.compile(r'^\s*"([\w -]+)"\s*:\s*\{\s*$')
_CLOSE = re.compile(r"^\s*\}")
_TOTAL = re.compile(r'^\s*"total(?:_(gb|gib|mb|mib|bytes))?"\s*:\s*(\d+(?:\.\d+)?)\s*,?\s*$', re.IGNORECASE)
_MEMORY_SECTIONS = ("ram", "memory", "mem", "system_memory", "virtual_memory")
_UNIT = {"gb": 1024**3, "gib": 1024**3, "mb": 1024**2, "mib": 1024**2, "bytes": 1}


def _bytes(unit: str, number: float) -> int:
    if unit:
        return int(number * _UNIT[unit.lower()])
    return int(number) if number >= 2**30 else int(number * 1024**3) if number <= 4096 else 0  # bytes, or GB


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    sections: List[str] = []
    for index, line in enumerate(lines):
        opened = _OPEN.match(line)
        if opened:
            sections.append(opened.group(1).lower())
            continue
        if _CLOSE.match(line):
            sections = sections[:-1]
            continue
        total = _TOTAL.match(line)
        if total and sections and sections[-1] in _MEMORY_SECTIONS:
            size = _bytes(total.group(1) or "", float(total.group(2)))
            if size:
                found[index] = [("cpu.memory_bytes", size)]
    return found
