"""`nvidia-smi topo -m`: the GPU connection matrix, a header 'GPU0  GPU1 ... CPU Affinity  NUMA Affinity' and one row
per GPU ('GPU0  X  PXB  SYS ...'). nvidia-smi(1) lists `topo` as Linux only, and it counts NVIDIA GPUs, by number only.
The rows, and the header's GPU columns where rows are cut off, stand for GPUs only where nothing else in the text names
them (a check_env report prints the matrix under its own GPU list; 'a DGX A100 node' names its eight)."""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.knowledge.dgx_systems import DGX_NAME
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.statement_rules import Facts

_HEADER = re.compile(r"^\s*GPU0(?:\s+GPU\d{1,2})*(?:\s+(?:NIC|mlx5_|NODE)\S*)*\s+CPU Affinity\b")
_ROW = re.compile(r"^\s*GPU(\d{1,2})\s+(?:X|NV\d{1,2}|PXB|PIX|PHB|NODE|SYS)\b")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    header = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if header is None:
        return {}
    found: Dict[int, Facts] = {header: [("platform", "linux"), ("gpu.present", "NVIDIA")]}
    if any(gpu_names(line) or DGX_NAME.search(line) for line in lines):
        return found
    numbers = {int(n) for n in re.findall(r"\bGPU(\d{1,2})\b", lines[header])}
    for index in range(header + 1, min(len(lines), header + 66)):
        row = _ROW.match(lines[index])
        if row:
            found[index] = [_unnamed(int(row.group(1)))]
            numbers.discard(int(row.group(1)))
    found[header] += [_unnamed(number) for number in sorted(numbers)]
    return found


def _unnamed(number: int):
    return ("gpu", {"name": "NVIDIA GPU (model not in the evidence)", "vendor": "NVIDIA", "memory_mib": None,
                    "index": number})
