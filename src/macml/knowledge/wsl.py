"""GPUs in WSL 2: a Linux guest reaches the Windows host's GPU through the host's own Windows driver (dxgkrnl GPU
paravirtualisation), so what runs a vendor's GPU on Windows bounds the machine a WSL guest with that GPU runs on.

Sources (checked 2026-12-03):
- NVIDIA: CUDA on WSL User Guide (https://docs.nvidia.com/cuda/wsl-user-guide): the Windows NVIDIA driver is used
  inside WSL 2; NVIDIA's WSL-Ubuntu CUDA repository is published for x86_64 only
  (https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/), and CUDA on Windows is x86_64 only.
- AMD: ROCm on WSL runs on the Windows Adrenalin driver (https://rocm.docs.amd.com/projects/radeon-ryzen/en/latest/
  docs/install/installrad/wsl/howto_wsl.html); AMD's Windows GPU stack lists x86-64 Windows only (HIP SDK system
  requirements, https://rocm.docs.amd.com/projects/install-on-windows/en/latest/reference/system-requirements.html).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class WslGpuHost:
    vendor: str
    arch: str  # the only architecture whose Windows driver serves this vendor's GPUs to WSL 2
    source: str


WSL_GPU_HOSTS: Tuple[WslGpuHost, ...] = (
    WslGpuHost("NVIDIA", "x86_64", "CUDA on WSL uses the Windows NVIDIA driver, x86_64 only (docs.nvidia.com/cuda/wsl-user-guide)"),
    WslGpuHost("AMD", "x86_64", "ROCm on WSL uses AMD's Windows driver, x86-64 only (rocm.docs.amd.com, HIP SDK requirements)"),
)


def wsl_gpu_host(vendor: str) -> Optional[WslGpuHost]:
    return next((host for host in WSL_GPU_HOSTS if host.vendor == vendor), None)
