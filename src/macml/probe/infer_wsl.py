"""A WSL 2 guest's hardware from its GPU: the GPU is the Windows host's, driven by its Windows driver (knowledge/wsl.py)."""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, Mapping

from macml.facts import CPUFacts, MachineFacts
from macml.knowledge.wsl import wsl_gpu_host

# Arm systems with an NVIDIA GPU of their own (Jetson, Grace): never a Windows host's discrete card
_ARM_GPU = re.compile(r"\b(?:Tegra|Orin|Xavier|Jetson|Grace|GH200|GB200|GB10)\b", re.IGNORECASE)


def wsl_arch(facts: MachineFacts, cpu: CPUFacts, snapshot: Mapping[str, Any], sources: Dict[str, str]) -> CPUFacts:
    if cpu.hardware_arch not in ("", "unknown") or facts.platform != "linux":
        return cpu
    wsl = next((s for s in snapshot.get("statements") or () if s.get("fact") == "os.wsl"), None)
    if wsl is None:
        return cpu
    for gpu in facts.gpus:
        host = wsl_gpu_host(gpu.vendor)
        if host is not None and not gpu.integrated and not _ARM_GPU.search(gpu.model or ""):
            sources["cpu.hardware_arch"] = (f"{gpu.model} in WSL (line {wsl.get('line')}: {str(wsl.get('text'))[:80]}): "
                                            + host.source)
            return dataclasses.replace(cpu, hardware_arch=host.arch)
    return cpu
