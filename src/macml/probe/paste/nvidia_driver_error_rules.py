"""nvidia-smi's own words when the NVIDIA driver cannot answer ('Failed to initialize NVML: Driver/library version
mismatch', 'NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver'): the machine has an
NVIDIA driver installed that is broken now (knowledge/nvidia_driver_errors). A line that only mentions the message
(a question about it, 'I no longer get ...', 'if you see ...') states nothing.
"""
from __future__ import annotations

from macml.knowledge.nvidia_driver_errors import driver_error
from macml.probe.paste.said_of_this_machine import hypothetical, negated
from macml.probe.paste.statement_rules import Facts


def line_facts(line: str) -> Facts:
    error = driver_error(line)
    found = error.pattern.search(line) if error else None
    if found is None or negated(line[:found.start()]) or hypothetical(line[:found.start()]) or line.rstrip().endswith("?"):
        return []
    facts: Facts = [("platform", "linux")] if error.linux_only else []
    return facts + [("gpu.present", "NVIDIA"), ("gpu.driver_error", found.group())]
