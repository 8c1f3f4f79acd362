"""The System Details of a Java app's crash report (Minecraft's), whose hardware lines come from OSHI, the Java
hardware library:

- 'Graphics card #1 name: NVIDIA GeForce MX230': each GPU of the machine, numbered as OSHI lists them;
- 'Memory slot #0 capacity (MB): 8192,00' (the decimal comma of the writer's locale): the RAM is the slots' sum,
  when every slot reports a size; on Apple silicon OSHI reads no slots ('0.00'), and there the RAM is 'Virtual memory
  max (MB)' less 'Swap memory total (MB)': OSHI's MacVirtualMemory.getVirtualMax() is the physical total plus swap
  (oshi/oshi, oshi-core/.../platform/mac/MacVirtualMemory.java). Windows' virtual maximum is the commit limit, not
  that sum, so it is not read there;
- 'Memory: 807884976 bytes (770 MiB) / ... up to 3154116608 bytes' is the Java heap, not the machine's RAM
  (statement_rules leaves it alone).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.probe.paste.gpu_names import gpu_names, gpu_record

Facts = List[Tuple[str, Any]]

_CARD = re.compile(r"^\s*Graphics card #(\d{1,2}) name:\s*(\S.*?)\s*$")
_SLOT = re.compile(r"^\s*Memory slot #(\d{1,2}) capacity \(MB\):\s*(\d+(?:[.,]\d+)?)\s*$")
_MB_FIELD = r"^\s*{}\s*\(MB\):\s*(\d+(?:[.,]\d+)?)\s*$"
_VIRTUAL_MAX = re.compile(_MB_FIELD.format(r"Virtual memory max"))
_SWAP_TOTAL = re.compile(_MB_FIELD.format(r"Swap memory total"))
_MAC_OS = re.compile(r"^\s*Operating System:\s*Mac OS X\b")


def _megabytes(text: str) -> float:
    return float(text.replace(",", "."))


def graphics_card(line: str) -> Facts:
    """'Graphics card #1 name: NVIDIA GeForce MX230' -> that GPU, second in OSHI's list."""
    found = _CARD.match(line)
    if not found or not gpu_names(found.group(2)):
        return []
    return [gpu_record(found.group(2), index=int(found.group(1)))]


def _first(lines: Sequence[str], pattern: "re.Pattern[str]") -> Optional[Tuple[int, float]]:
    return next(((i, _megabytes(m.group(1))) for i, m in enumerate(map(pattern.match, lines)) if m), None)


def memory(lines: Sequence[str]) -> Dict[int, Facts]:
    """The RAM an OSHI report gives, at the line it is read from."""
    slots = {int(m.group(1)): (i, _megabytes(m.group(2))) for i, m in enumerate(map(_SLOT.match, lines)) if m}
    if slots and all(size > 0 for _, size in slots.values()):
        total = sum(size for _, size in slots.values())
        return {min(i for i, _ in slots.values()): [("cpu.memory_bytes", int(total) * 1024**2)]}
    virtual, swap = _first(lines, _VIRTUAL_MAX), _first(lines, _SWAP_TOTAL)
    if virtual and swap and any(map(_MAC_OS.match, lines)) and virtual[1] > swap[1]:
        return {virtual[0]: [("cpu.memory_bytes", int(round(virtual[1] - swap[1])) * 1024**2)]}
    return {}


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        card = graphics_card(line)
        if card:
            found[index] = card
    for index, facts in memory(lines).items():
        found[index] = found.get(index, []) + facts
    return found
