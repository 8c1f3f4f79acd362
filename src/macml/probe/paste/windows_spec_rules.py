"""A Windows edition written at the head of a line of specs, in any case: 'WINDOWS 10 PRO X64, RYZEN 5 7600X
RX9070XT 16GB.', 'Windows 11 Home 64-bit', '- Microsoft Windows 11 Pro'. The edition or the bitness (or the
line ending there) tells it from prose that only names Windows ('Windows 11, macOS and Linux are supported').
'x64' / 'AMD64' is Windows' own name for an x86_64 install, which runs only on x86_64 hardware. A CPU named in
the rest of the line is the machine's.

Windows as one item of a comma list of the writer's setup ('Tested on a GTX 1070 8 GB (sm_61), Windows 11, Python
3.13.7, torch 2.10.0+cu126'): the OS of that machine, where the list names a GPU or a version beside it and no other OS.
"""
from __future__ import annotations

import re

from macml.probe.paste.said_of_this_machine import hypothetical, negated
from macml.probe.paste.spec_prose_rules import x86_cpu_answer
from macml.probe.paste.statement_rules import Facts

_EDITION_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:Microsoft\s+)?Windows\s+(7|8\.1|8|10|11)"
                           r"(?:\s+(Pro for Workstations|Pro|Home|Enterprise|Education))?"
                           r"(?:\s+(x64|x86[_-]64|AMD64|64[- ]?bit|ARM64))?\s*(?:([,;])\s*(.*)|\.?\s*$)", re.IGNORECASE)


def edition_line(line: str) -> Facts:
    found = _EDITION_LINE.match(line)
    if not found or not (found.group(2) or found.group(3) or not found.group(4)):
        return []
    name = f"Windows {found.group(1)}" + (f" {found.group(2).title()}" if found.group(2) else "")
    facts: Facts = [("platform", "win32"), ("os.name", name)]
    if found.group(3) and re.match(r"x64|x86|amd64", found.group(3), re.IGNORECASE):
        facts.append(("cpu.hardware_arch", "x86_64"))
    for piece in re.split(r"[,;]", found.group(5) or ""):
        facts += x86_cpu_answer("cpu", piece)
    return facts


_LISTED_WINDOWS = re.compile(r"(?:,|\(|\bon)\s*(Windows (?:10|11)(?: (?:Pro|Home|Enterprise|Education))?)\s*(?=[,)]|$)")
_OTHER_OS = re.compile(r"\b(?:mac ?OS|OS ?X|Linux|Ubuntu|Debian|Fedora|WSL)\b", re.IGNORECASE)
_BESIDE = re.compile(r"\b(?:Python \d\.\d+|torch \d|CUDA \d|GTX|RTX|Radeon|Arc)\b", re.IGNORECASE)


def listed_windows(line: str) -> Facts:
    """'Tested on a GTX 1070 8 GB (sm_61), Windows 11, Python 3.13.7, ...' -> Windows 11."""
    found = _LISTED_WINDOWS.search(line)
    if not found or _OTHER_OS.search(line) or not _BESIDE.search(line) or negated(line[:found.start()]) \
            or hypothetical(line):
        return []
    return [("platform", "win32"), ("os.name", found.group(1))]


def line_facts(line: str) -> Facts:
    return edition_line(line) + listed_windows(line)
