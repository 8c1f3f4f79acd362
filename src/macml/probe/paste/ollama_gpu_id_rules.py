"""Ollama's per-device log lines count the GPUs by their ids, where several cards share one name:

    ... msg="inference compute" id=GPU-b18a7f7a-... library=cuda compute=8.6 name="NVIDIA GeForce RTX 3060" ...
    ... msg="updating cuda memory data" gpu=GPU-d1fa0558-... name="NVIDIA GeForce RTX 3060" overhead="0 B" ...
    ... msg="detected OS VRAM overhead" id=GPU-... library=cuda ... name="NVIDIA GeForce RTX 4090" ...

Elsewhere a GPU name said on several lines counts once (a log repeats itself); here each distinct id is one card,
so two ids under one name are two GPUs. Only a text with two or more ids is counted this way: with one id the
name already says it.

Newer runners print the devices they enumerated as Go structs ('devices="[{DeviceID:{ID:0 Library:ROCm} Name:ROCm0
Description:AMD Radeon RX 6650M FilterID: Integrated:false PCIID:0000:03:00.0 TotalMemory:8573157376 ...}]"'): each
struct is one GPU, its memory in bytes.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.statement_rules import Facts

# a Go logfmt line of Ollama's GPU code ('source=gpu.go:410', 'source=types.go:105') that names one device by id
_DEVICE_LINE = re.compile(r'\bsource=\w+\.go:\d+\s+msg="[^"]*"')
_ID = re.compile(r'(?<![\w.])(?:id|gpu)=(GPU-[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|\d{1,2})(?=\s|$)')
_NAME = re.compile(r'(?<![\w.])(?:description|name)="([^"]+)"')  # newer logs: name=ROCm0 description="AMD Radeon ..."


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the GPU its device line names, numbered by its id's first appearance (two ids or more)."""
    named: List[tuple] = []
    for index, line in enumerate(lines):
        device, ident = _DEVICE_LINE.search(line), _ID.search(line)
        gpu = [n for found in _NAME.finditer(line) for n in gpu_names(found.group(1))] if device and ident else []
        if gpu:
            named.append((index, ident.group(1), gpu[0]))
    order = list(dict.fromkeys(ident for _, ident, _ in named))
    if len(order) < 2:
        return {}
    return {index: [gpu_record(gpu, index=order.index(ident))] for index, ident, gpu in named}


_STRUCT = re.compile(r"\{DeviceID:\{ID:(\d{1,2}) Library:\w+\} Name:\S+ Description:(.+?) FilterID:.*?\bTotalMemory:(\d{8,13})\b")


def enumerated_devices(line: str) -> Facts:
    """The runner's device structs: one GPU each, named by its Description, with its TotalMemory."""
    facts: Facts = []
    for found in _STRUCT.finditer(line):
        names = gpu_names(found.group(2))
        if names:
            facts.append(gpu_record(names[0], f"{int(found.group(3)) // 2**20} MiB", int(found.group(1))))
    return facts


def line_facts(line: str) -> Facts:
    return enumerated_devices(line)
