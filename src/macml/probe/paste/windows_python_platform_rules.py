"""What Python's `platform` module prints on Windows, as apps' system-info dumps show it (AUTOMATIC1111's sysinfo,
bug-report helpers), each a pure function returning stated facts:

- `platform.processor()`, Windows' processor identifier: 'AMD64 Family 25 Model 80 Stepping 0, AuthenticAMD',
  'Intel64 Family 6 Model 158 Stepping 10, GenuineIntel' -> Windows on x86_64 hardware (a 64-bit x86 CPU by its
  vendor's CPUID name); 'ARMv8 (64-bit) Family 8 Model D4B Revision 0, Qualcomm Technologies Inc' -> Windows on Arm
  (arm64). A 32-bit 'x86 Family 6 ...' says no more than x86 and gives nothing;
- `platform.machine()` under its usual keys ('arch: AMD64', 'machine: ARM64'): Windows' own upper-case spelling,
  the Python's arch (x86_64 / arm64). Lower-case 'amd64' (Debian, Go, Docker) is not read here.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.said_of_this_machine import mentioned_only

Facts = List[Tuple[str, Any]]

_X86_ID = re.compile(r"(?<![\w-])(?:AMD64|Intel64|EM64T)\s+Family\s+\d+\s+Model\s+\d+\s+Stepping\s+\d+,\s*(?:GenuineIntel|AuthenticAMD)\b")
_ARM_ID = re.compile(r"(?<![\w-])ARMv[89](?:\.\d)?\s+\(64-bit\)\s+Family\s+\d+\s+Model\s+[0-9A-F]+\s+Revision\s+[0-9A-F]+\b")
_MACHINE_KEYS = ("arch", "machine", "platform.machine", "platform.machine()", "python arch", "python machine")
_WINDOWS_MACHINE = {"AMD64": "x86_64", "ARM64": "arm64"}


def processor_identifier(line: str) -> Facts:
    """'cpu: AMD64 Family 25 Model 80 Stepping 0, AuthenticAMD' -> win32 on x86_64 hardware."""
    for shape, arch in ((_X86_ID, "x86_64"), (_ARM_ID, "arm64")):
        found = shape.search(line)
        if found and not mentioned_only(line, found.start(), found.end()):
            return [("platform", "win32"), ("cpu.hardware_arch", arch)]
    return []


def keyed_facts(key: str, value: str) -> Facts:
    """'arch: AMD64' -> the Python's machine x86_64 (Windows spells platform.machine() in capitals)."""
    arch = _WINDOWS_MACHINE.get(value.strip())
    return [("python.machine", arch)] if key in _MACHINE_KEYS and arch else []


def line_facts(line: str) -> Facts:
    return processor_identifier(line)


# CPython's banner built with MSVC, which only Windows builds are: '[MSC v.1929 64 bit (AMD64)]', also when a log
# wraps it before the architecture ('[MSC v.1929 64 bit' then '(AMD64)]' on the next line)
_MSC_CUT = re.compile(r"\[MSC v\.\d{4} (?:64|32) bit\s*$")
_MSC_REST = re.compile(r"^\s*\((AMD64|ARM64)\)\]")


def wrapped_msc_banner(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if _MSC_CUT.search(line):
            rest = _MSC_REST.match(lines[index + 1]) if index + 1 < len(lines) else None
            found[index] = [("platform", "win32")] + ([("python.machine", _WINDOWS_MACHINE[rest.group(1)])] if rest else [])
    return found
