"""An app's system-info lines behind its log prefix: Ryujinx's '00:00:00.008 | Application Main: Total RAM: 16384 MB',
'2024-05-01 10:00:00,123 [INFO] SystemInfo: Memory: 32 GB', '[12:00:01.5] Core <Info>: System Memory: 16 GB'.

Emulators, games and desktop apps print the machine they start on as `key: value` lines after a timestamp and the
logging component's name; the `key: value` readers see only the prefix. With the prefix taken off, the machine's
memory ('Total RAM', 'Memory', 'System Memory', ...) is its size in any unit (gpu_names.gib). Only memory keys
count: a log's other `key: value` lines are about the app, not the machine. A component that is not the machine
('Model: Memory: 13.5 GB', 'Container: Memory: 4 GB', 'Stats: ...') and a used / total pair ('Memory: 6.2 GB / 16 GB')
are not read.

Each rule is a pure function of one line.
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.probe.paste.gpu_names import gib

Facts = List[Tuple[str, Any]]

# a timestamp ('00:00:00.008', '2024-05-01 10:00:00,123', '[12:00:01.5]'), then '|', '|I|', '[INFO]', '<Info>' and a
# component's name of one to four words ending in ':' ('Application Main:', 'SystemInfo:')
_PREFIX = re.compile(r"^\s*(?:`{3})?\s*\[?(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?"
                     r"(?:\s*(?:\|[A-Z]\||\||\[\w+\]|<\w+>|\b(?:INFO|DEBUG|NOTICE|Info|Debug)\b))*\s*"
                     r"(?P<component>[<\[]?[A-Za-z][\w.<>/\]-]*(?: [<\[]?[A-Za-z][\w.<>/\]-]*){0,3}:\s+)?")
_GPU_COMPONENT = re.compile(r"gpu|vulkan|metal|opengl|cuda|vram|video|graphics", re.IGNORECASE)
# a part of the app or its workload, whose memory is its own share, not the machine's
_APP_PART = re.compile(r"\b(?:model|models|container|process|stats|statistics|cache|heap|pool|worker|session|tensor|"
                       r"weights|kv|buffer|allocator|usage)\b", re.IGNORECASE)
_NOT_TOTAL = re.compile(r"\b(?:used|free|available|allocated|in use|usage)\b", re.IGNORECASE)
_MEMORY = re.compile(r"^\s*((?:total|system|physical|installed)\s+(?:ram|memory)|ram|memory)\s*:\s*(.+?)\s*(?:`{3})?\s*$",
                     re.IGNORECASE)


def logged_memory(line: str) -> Facts:
    """'00:00:00.008 | Application Main: Total RAM: 16384 MB' -> 16 GiB of memory."""
    prefix = _PREFIX.match(line)
    if not prefix or not prefix.group().strip(" `"):
        return []
    found = _MEMORY.match(line[prefix.end():])
    component = prefix.group("component") or ""
    if (not found or _GPU_COMPONENT.search(component) or _APP_PART.search(component) or _NOT_TOTAL.search(found.group(2))
            or "/" in found.group(2)):  # 'used / total': which side is the machine's the line does not say
        return []
    size = gib(found.group(2))
    return [("cpu.memory_bytes", size)] if size and 1 << 30 <= size <= 1 << 44 else []


def line_facts(line: str) -> Facts:
    return logged_memory(line)
