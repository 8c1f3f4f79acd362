"""The x86-64 machine that NVIDIA's OpenGL renderer string and a 64-bit-only driver make certain.

NVIDIA's proprietary driver names its renderer 'GeForce GTX 1080/PCIe/SSE2' (glxinfo's 'OpenGL renderer string',
inxi -G's 'OpenGL: renderer:', KDE's 'Graphics Processor:'): the '/SSE2' part is printed by its x86 builds only
(its Arm builds print 'NVIDIA GeForce RTX 3080/PCIe'). x86 alone may be 32-bit; but NVIDIA shipped no 32-bit
driver after Release 390, so the same text's driver of branch 396 or newer ('4.6.0 NVIDIA 430.40',
nvidia-smi's 'Driver Version: 535.104.05', inxi's 'driver: nvidia v: 430.40') runs a 64-bit OS: x86_64.
"""
from __future__ import annotations

import re
from typing import Dict, Optional, Sequence

from macml.probe.paste.said_of_this_machine import mentioned_only
from macml.probe.paste.statement_rules import Facts

_RENDERER = re.compile(r"\b(?:NVIDIA\s+(?=\w)|(?:GeForce|Quadro|Tesla|TITAN|RTX|NVS|GRID)\b)[^/\n]*?/(?:PCIe?|AGP)/SSE2(?![\w/])",
                       re.IGNORECASE)
_DRIVER = re.compile(r"\bNVIDIA[- ](?:SMI\s+)?(\d{3})\.\d{2,3}(?:\.\d{1,2})?\b|\bDriver Version:\s*(\d{3})\.\d{2,3}\b"
                     r"|\bdriver:\s*nvidia\s+v:\s*(\d{3})\.\d{2,3}\b", re.IGNORECASE)
_FIRST_64_BIT_ONLY = 396  # Release 390 was the last with 32-bit drivers


def _driver_branch(lines: Sequence[str]) -> Optional[int]:
    found = [int(next(g for g in m.groups() if g)) for line in lines for m in _DRIVER.finditer(line)]
    return max(found) if found else None


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> x86_64, on each NVIDIA renderer line of a text whose NVIDIA driver is 64-bit only."""
    renderers = {i: m for i, line in enumerate(lines) for m in [_RENDERER.search(line)]
                 if m and not mentioned_only(line, m.start(), m.end())}
    branch = _driver_branch(lines) if renderers else None
    if branch is None or branch < _FIRST_64_BIT_ONLY:
        return {}
    return {index: [("cpu.hardware_arch", "x86_64")] for index in renderers}
