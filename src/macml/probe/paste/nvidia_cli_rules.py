"""`nvidia-container-cli info`'s device report, read as a whole block:

    NVRM version:   384.130        (the kernel driver; '(null)' on a Jetson, whose L4T driver has no NVRM)
    CUDA version:   9.0            (the CUDA version that driver supports, as nvidia-smi's 'CUDA Version')
    Device Index:   0
    Model:          GeForce 920M
    Architecture:   3.5            (the GPU's compute capability, not the CPU's architecture)

Only the libnvidia-container tool prints this shape, and it runs on Linux only.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.statement_rules import Facts

_FIELD = re.compile(r"^\s*(NVRM version|CUDA version|Device Index|Device Minor|Model|Brand|GPU UUID|Bus Location|Architecture)"
                    r":\s+(\S.*?)\s*$")
_VERSION = re.compile(r"^\d+(?:\.\d+)+$")
_CAPABILITY = re.compile(r"^\d{1,2}\.\d$")


def _fields(lines: Sequence[str], start: int) -> Dict[str, List[int]]:
    """The block's field lines from `start` on (blank lines and the tool's log lines between them allowed)."""
    found: Dict[str, List[int]] = {}
    for index in range(start, min(len(lines), start + 40)):
        match = _FIELD.match(lines[index])
        if match:
            found.setdefault(match.group(1), []).append(index)
        elif lines[index].strip() and not re.match(r"^\s*[IWE]\d{4} ", lines[index]):
            break
    return found


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts, for each 'NVRM version:' block followed by its 'Device Index:' and 'Model:' lines."""
    out: Dict[int, Facts] = {}
    for start, line in enumerate(lines):
        if not re.match(r"^\s*NVRM version:", line):
            continue
        fields = _fields(lines, start)
        if "Device Index" not in fields or "Model" not in fields:
            continue

        def value(index: int) -> str:
            return _FIELD.match(lines[index]).group(2)  # type: ignore[union-attr]

        driver = value(start)
        out.setdefault(start, []).append(("platform", "linux"))
        if _VERSION.match(driver):
            out[start].append(("gpu.driver", driver))
        for index in fields.get("CUDA version", [])[:1]:
            if _VERSION.match(value(index)):
                out.setdefault(index, []).append(("gpu.cuda_driver", value(index)))
        devices = fields["Device Index"]
        for number, (device, model) in enumerate(zip(devices, fields["Model"])):
            following = devices[number + 1] if number + 1 < len(devices) else len(lines)
            arch = next((value(i) for i in fields.get("Architecture", []) if device < i < following), "")
            name = value(model)
            if name == "(null)":
                continue
            index = int(value(device)) if value(device).isdigit() else number
            out.setdefault(model, []).append(("gpu", {"name": name, "vendor": "NVIDIA", "memory_mib": None, "index": index,
                                                      "capability": arch if _CAPABILITY.match(arch) else None}))
    return out
