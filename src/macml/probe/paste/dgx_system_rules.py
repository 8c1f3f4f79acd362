"""A DGX system named as the writer's machine ('on the DGX A100 40GB node that I have access to', 'our DGX H100'):
its GPUs, how many, and its CPU's arch (knowledge/dgx_systems). Not from a question, a denial, a comparison or
someone else's machine. A pure function of one line.
"""
from __future__ import annotations

from typing import Any, List, Tuple

from macml.knowledge.dgx_systems import DGX_NAME, dgx_system
from macml.probe.paste.said_of_this_machine import mentioned_only

Facts = List[Tuple[str, Any]]


def line_facts(line: str) -> Facts:
    found = DGX_NAME.search(line)
    system = dgx_system(found.group()) if found else None
    if not system or "?" in line[found.end():] or mentioned_only(line, found.start(), found.end()):
        return []
    return ([("gpu", {"name": system.gpu, "vendor": "NVIDIA", "memory_mib": None, "index": i}) for i in range(system.gpus)]
            + [("cpu.hardware_arch", system.arch), ("platform", "linux")])  # DGX OS, Ubuntu or RHEL
