"""A Windows edition written at the head of a line of specs, in any case: 'WINDOWS 10 PRO X64, RYZEN 5 7600X
RX9070XT 16GB.', 'Windows 11 Home 64-bit', '- Microsoft Windows 11 Pro'. The edition or the bitness (or the
line ending there) tells it from prose that only names Windows ('Windows 11, macOS and Linux are supported').
'x64' / 'AMD64' is Windows' own name for an x86_64 install, which runs only on x86_64 hardware. A CPU named in
the rest of the line is the machine's.
"""
from __future__ import annotations

import re

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


def line_facts(line: str) -> Facts:
    return edition_line(line)
