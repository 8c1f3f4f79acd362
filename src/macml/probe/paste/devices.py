"""GPU listings that number their devices over several lines: a tool's 'Device #0:' block (DIGITS'
device_query, CUDA samples' deviceQuery), '[1] CUDA device name: ...' lines and '[GPU-d1bf...] Compute
Capability 7.2' (Ollama's NVML log), detectron2's 'GPU 0,1,2 Tesla K80', CUDA.jl's
'0: Quadro RTX 4000 (sm_75, 7.601 GiB / 8.000 GiB available)',
TensorFlow's 'Found device 1 with properties:' and 'Created device ... device: 0, name: ...'. Each
GPU it names carries its number, so a device logged twice counts once, and its compute capability
and memory stay with it."""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.probe.paste.gpu_names import gib, gpu_names, gpu_vendor, without_opencl_suffix

Facts = List[Tuple[str, Any]]
_INDEX_LIST = re.compile(r"^\s*GPU ((?:\d+,)+\d+)(?::|\s)\s*(.+?)\s*$")  # detectron2: 'GPU 0,1,2  Tesla K80'
_HEADER = re.compile(r"^\s*(?:Device|GPU|device#)\s*#?\s*(\d+)\s*:?\s*$|Found device (\d+) with properties")  # hipinfo: 'device#  0'
_BRACKET = re.compile(r"^\s*\[(\d+|GPU-[0-9a-f-]+)\]\s*(.*)$")
_TF_CREATED = re.compile(r"->\s*(?:physical GPU \()?device:\s*(\d+),\s*name:\s*([^,]+),.*compute capability:\s*(\d+\.\d+)")
_NAME = re.compile(r"^\s*(?:CUDA device name|device name|name)\s*(?::|\s{2,})\s*(.+?)\s*$", re.IGNORECASE)
_PROPERTIES = re.compile(r"\bname:\s*(.+?)\s+(?:computeCapability:\s*(\d+\.\d+)|major:\s*(\d+)\s+minor:\s*(\d+))")
_MAJOR_MINOR = re.compile(r"^\s*(major|minor)\s{2,}(\d+)\s*$")
_JULIA_DEVICE = re.compile(r"^\s*(\d+): (.+?) \(sm_(\d+)(\d), [\d.]+ GiB / ([\d.]+) GiB available\)")  # CUDA.jl
_CAPABILITY = re.compile(r"^\s*Compute Capability\s+(\d{1,2}\.\d)\s*$")  # ollama: '[GPU-d1bf...] Compute Capability 7.2'
_TOTAL = re.compile(r"^\s*(?:CUDA totalMem|totalGlobalMem)\s*(?::|\s)\s*(\d+)\s*(mb|MiB)?\s*$")
_TF_TOTAL = re.compile(r"^\s*(?:totalMemory|Total memory):\s*(\d+(?:\.\d+)?\s*(?:GiB|MiB))\b")  # TF 1.0's 'Total memory: 2.00GiB' too  # TensorFlow 1.x: 'totalMemory: 2.00GiB freeMemory: ...'


def _gpu(name: str, index: int, capability: Optional[str] = None, memory: Optional[int] = None) -> Tuple[str, Any]:
    name = without_opencl_suffix(name)
    value: Dict[str, Any] = {"name": name, "vendor": gpu_vendor(name), "memory_mib": memory, "index": index}
    if capability:
        value["capability"] = capability
    return ("gpu", value)


def device_facts(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the numbered-GPU facts that line states (in the context of the lines above it)."""
    found: Dict[int, Facts] = {}
    current: Optional[int] = None
    major: Dict[int, str] = {}
    uuids: Dict[str, int] = {}  # Ollama numbers devices by UUID: '[GPU-433dad3d-...] CUDA totalMem 16076 mb'
    for index, raw in enumerate(lines):
        line, facts = raw, []
        header = _HEADER.search(line)
        bracket = _BRACKET.match(line)
        if header:
            current = int(header.group(1) or header.group(2))
        elif bracket:
            key = bracket.group(1)
            current = int(key) if key.isdigit() else uuids.setdefault(key, len(uuids))
            line = bracket.group(2)
        created = _TF_CREATED.search(line)
        listed = _INDEX_LIST.match(line)
        julia = _JULIA_DEVICE.match(line)
        if julia and gpu_names(julia.group(2)):
            facts.append(_gpu(julia.group(2), int(julia.group(1)), f"{julia.group(3)}.{julia.group(4)}",
                              round(float(julia.group(5)) * 1024)))
        elif listed and gpu_names(listed.group(2)):  # detectron2 since 2021: '... NVIDIA A100-SXM4-40GB (arch=8.0)'
            arch = re.search(r"\(arch=(\d{1,2}\.\d)\)", listed.group(2))
            facts += [_gpu(gpu_names(listed.group(2))[0], int(i), arch.group(1) if arch else None)
                      for i in listed.group(1).split(",")]
        elif created:
            facts.append(_gpu(created.group(2).strip(), int(created.group(1)), created.group(3)))
        elif current is not None:
            facts += _in_device(line, current, major)
        elif _PROPERTIES.search(line):  # TensorFlow's 'name: ... major: 7 minor: 5', its header wrapped away
            facts += _in_device(line, 0, major)
        if facts:
            found[index] = facts
    return found


def _in_device(line: str, current: int, major: Dict[int, str]) -> Facts:
    properties = _PROPERTIES.search(line)
    if properties and gpu_names(properties.group(1)):
        capability = properties.group(2) or f"{properties.group(3)}.{properties.group(4)}"
        return [_gpu(properties.group(1).strip(), current, capability)]
    named = _NAME.match(line)
    if named and gpu_names(named.group(1)):
        return [_gpu(named.group(1).strip(), current)]
    capability = _CAPABILITY.match(line)
    if capability:
        return [("gpu.capability_of", {"index": current, "capability": capability.group(1)})]
    part = _MAJOR_MINOR.match(line)
    if part and part.group(1) == "major":
        major[current] = part.group(2)
    elif part and current in major:
        return [("gpu.capability_of", {"index": current, "capability": f"{major[current]}.{part.group(2)}"})]
    tf_total = _TF_TOTAL.match(line)
    if tf_total and gib(tf_total.group(1)):
        return [("gpu.memory_of", {"index": current, "memory_mib": round(gib(tf_total.group(1)) / 1024**2)})]
    total = _TOTAL.match(line)
    if total and total.group(2):
        return [("gpu.memory_of", {"index": current, "memory_mib": int(total.group(1))})]
    if total and int(total.group(1)) >= 1 << 28:
        return [("gpu.memory_of", {"index": current, "memory_mib": int(total.group(1)) // 1024**2})]
    return []
