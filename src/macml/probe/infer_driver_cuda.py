"""An NVIDIA GPU's driver CUDA version from its printed driver version, where no nvidia-smi header gave it:
collect_env's 'Nvidia driver version: 535.161.08' or a form's 'Driver Version: 570.144' fix it by the driver's
branch (knowledge/nvidia_branches.py), as a GPU name fixes its compute capability; and nvidia-smi's own words
that the driver is broken (knowledge/nvidia_driver_errors.py).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, Mapping, Tuple

from macml.facts import GPU
from macml.knowledge.nvidia_branches import NOTES, driver_cuda_version
from macml.knowledge.nvidia_driver_errors import driver_error


def cuda_from_driver_branch(gpus: Tuple[GPU, ...], sources: Dict[str, str]) -> Tuple[GPU, ...]:
    """The GPUs, each NVIDIA one with a driver version and no CUDA version given its branch's CUDA version."""
    out = []
    for index, gpu in enumerate(gpus):
        cuda = driver_cuda_version(gpu.driver_version or "") if gpu.vendor == "NVIDIA" and not gpu.cuda_driver_version else None
        if cuda:
            gpu = dataclasses.replace(gpu, cuda_driver_version=cuda)
            sources[f"gpus.{index}.cuda_driver_version"] = f"driver {gpu.driver_version}'s branch supports CUDA {cuda} ({NOTES})"
        out.append(gpu)
    return tuple(out)


def driver_errors(snapshot: Mapping[str, Any], sources: Dict[str, str]) -> Tuple[str, ...]:
    """nvidia-smi's words that the NVIDIA driver cannot answer: from a live run's output (a failed run keeps it) or
    a pasted line (statement 'gpu.driver_error')."""
    record = (snapshot.get("commands") or {}).get("nvidia-smi")
    found = []
    if isinstance(record, Mapping) and record.get("returncode") not in (0, None):
        for line in f"{record.get('stdout') or ''}\n{record.get('stderr') or ''}".splitlines():
            error = driver_error(line)
            if error is not None:
                found.append(line.strip())
                sources["gpu_driver_errors"] = f"nvidia-smi (exit {record.get('returncode')}): {line.strip()}"
    for said in (s for s in snapshot.get("statements") or () if s.get("fact") == "gpu.driver_error"):
        found.append(str(said["value"]))
        sources.setdefault("gpu_driver_errors", f"{said.get('source')} line {said.get('line')}: {str(said.get('text'))[:120]}")
    return tuple(dict.fromkeys(found))
