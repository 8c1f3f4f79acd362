"""An NVIDIA GPU's driver CUDA version from its printed driver version, where no nvidia-smi header gave it:
collect_env's 'Nvidia driver version: 535.161.08' or a form's 'Driver Version: 570.144' fix it by the driver's
branch (knowledge/nvidia_branches.py), as a GPU name fixes its compute capability.
"""
from __future__ import annotations

import dataclasses
from typing import Dict, Tuple

from macml.facts import GPU
from macml.knowledge.nvidia_branches import NOTES, driver_cuda_version


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
