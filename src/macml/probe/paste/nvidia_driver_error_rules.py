"""nvidia-smi's own words when the NVIDIA driver cannot answer ('Failed to initialize NVML: Driver/library version
mismatch', 'NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver'): the machine has an
NVIDIA driver installed that is broken now (knowledge/nvidia_driver_errors). A line that only mentions the message
(a question about it, 'I no longer get ...', 'if you see ...') states nothing.

The kernel's 'NVRM: API mismatch' message names the loaded kernel module's version, which is the driver this machine
runs ('... but this kernel module has' / 'NVRM: the version 575.51.02'), over as many log lines as it takes; so
does its 'The 595.71.05 NVIDIA driver will ignore this GPU' (the driver loaded, the GPU it leaves to a legacy branch).
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.knowledge.nvidia_driver_errors import driver_error
from macml.probe.paste.said_of_this_machine import hypothetical, negated
from macml.probe.paste.statement_rules import Facts


def line_facts(line: str) -> Facts:
    return driver_error_facts(line) + ignoring_driver(line)


def driver_error_facts(line: str) -> Facts:
    error = driver_error(line)
    found = error.pattern.search(line) if error else None
    if found is None or negated(line[:found.start()]) or hypothetical(line[:found.start()]) or line.rstrip().endswith("?"):
        return []
    facts: Facts = [("platform", "linux")] if error.linux_only else []
    if not re.search(r"open[- ]?source", found.group(), re.IGNORECASE):  # 'the opensource driver' may be amdgpu
        facts.append(("gpu.present", "NVIDIA"))
    return facts + [("gpu.driver_error", found.group())]


def ignoring_driver(line: str) -> Facts:
    """'NVRM:  information.  The 595.71.05 NVIDIA driver will ignore' -> the installed driver, 595.71.05."""
    found = _IGNORES_GPU.search(line)
    return [("platform", "linux"), ("gpu.driver", found.group(1)), ("gpu.present", "NVIDIA")] if found else []


_IGNORES_GPU = re.compile(r"\bThe (\d{3}\.\d{2,3}(?:\.\d{1,2})?) NVIDIA driver will ignore\b")
_MODULE_VERSION = re.compile(r"\bthis kernel module has\s+(?:NVRM:\s+)?the version (\d{3}\.\d{2,3}(?:\.\d{1,2})?)\b")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index of 'NVRM: API mismatch' -> the kernel module's version it names (on it or the next lines)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if "NVRM: API mismatch" not in line:
            continue
        text = " ".join(part.strip() for part in lines[index:index + 4])
        version = _MODULE_VERSION.search(text)
        if version:
            found[index] = [("gpu.driver", version.group(1)), ("gpu.present", "NVIDIA")]
    return found
