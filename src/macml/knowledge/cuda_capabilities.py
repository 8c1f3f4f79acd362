"""The first CUDA toolkit that compiles for each NVIDIA compute capability. A torch build for an older CUDA
cannot hold kernels (or PTX) for that GPU, whatever its arch list, so the GPU runs nothing on it.

Source: NVIDIA CUDA Toolkit release notes, "New Features" of each release
(https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/): 10.0 adds Turing (sm_75); 11.0 Ampere A100 (sm_80);
11.1 GA10x (sm_86); 11.4 Orin (sm_87); 11.8 Ada (sm_89) and Hopper (sm_90); 12.8 Blackwell (sm_100, sm_101,
sm_120); 12.9 sm_103 and sm_121; 13.0 renames Thor's sm_101 to sm_110.
"""
from __future__ import annotations

from typing import Optional, Tuple

SOURCE = "CUDA Toolkit release notes, docs.nvidia.com/cuda/cuda-toolkit-release-notes/"
FIRST_CUDA = {"7.5": "10.0", "8.0": "11.0", "8.6": "11.1", "8.7": "11.4", "8.9": "11.8", "9.0": "11.8",
              "10.0": "12.8", "10.1": "12.8", "12.0": "12.8", "10.3": "12.9", "12.1": "12.9", "11.0": "13.0"}


def _release(version: str) -> Tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:2] if part.isdigit())


def cuda_too_old(capability: str, build_cuda: str) -> Optional[str]:
    """'12.0', '12.1' -> '12.8': the first CUDA for that capability, when the build's CUDA is older; else None."""
    first = FIRST_CUDA.get(capability)
    if first is None or not build_cuda or not _release(build_cuda):
        return None
    return first if _release(build_cuda) < _release(first) else None
