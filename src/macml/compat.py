"""Compatibility facts the checks decide with (sources: ../shared/FACTS.md, vendors' notes).

Pure data and pure lookups; versions are compared with packaging.version.
"""
from __future__ import annotations

from typing import Optional, Tuple

from packaging.version import InvalidVersion, Version

# CUDA toolkit (major.minor) -> minimum Linux driver.
CUDA_MIN_DRIVER = (
    ("13.2", "595.45.04"),
    ("13.1", "590.44.01"),
    ("13.0", "580.65.06"),
    ("12.9", "575.51.03"),
    ("12.8", "570.26"),
    ("12.6", "560.28.03"),
    ("12.4", "550.54.14"),
    ("12.1", "530.30.02"),
    ("12.0", "525.60.13"),
    ("11.8", "520.61.05"),
    ("11.0", "450.80.02"),
)
# Minor-version compatibility: a 12.x build runs (without new features) on any driver >= 525.60.13.
MINOR_COMPAT_DRIVER = {"11": "450.80.02", "12": "525.60.13", "13": "580.65.06"}

# TensorFlow minor -> the tensorflow-metal release built for it (Apple's table).
TF_METAL = (
    ("2.5", "0.1.2"), ("2.6", "0.2.0"), ("2.7", "0.3.0"), ("2.8", "0.4.0"), ("2.9", "0.5.0"),
    ("2.10", "0.6.0"), ("2.11", "0.7.0"), ("2.12", "0.8.0"), ("2.13", "1.0.0"), ("2.14", "1.1.0"),
    ("2.15", "1.1.0"), ("2.16", "1.1.0"), ("2.17", "1.1.0"), ("2.18", "1.2.0"),
)

INTEL_MAC_LAST_TORCH = "2.2.2"

# NVIDIA drivers older than every build the pytorch-cuda recipe installs: the last torch that still
# runs there (driver minimum, torch release, its CUDA). Sources: CUDA release notes (table 3, minimum
# driver per toolkit, and minor-version compatibility), PyTorch's previous-versions page (cu102 ends
# with 1.12.1, cu118 with 2.7.1).
LAST_TORCH_FOR_OLD_DRIVERS = (
    ("450.80.02", "2.7.1", "11.8"),  # CUDA 11.x minor-version compatibility
    ("440.33", "1.12.1", "10.2"),
)


def last_torch_for_driver(driver: str) -> Optional[Tuple[str, str, str]]:
    """(minimum driver, torch release, CUDA) of the newest old build a driver still runs; None if none."""
    for minimum, torch, cuda in LAST_TORCH_FOR_OLD_DRIVERS:
        if driver_tuple(driver) >= driver_tuple(minimum):
            return minimum, torch, cuda
    return None


def version(text: Optional[str]) -> Optional[Version]:
    if not text:
        return None
    try:
        return Version(text.split("+")[0])
    except InvalidVersion:
        return None


def driver_tuple(text: Optional[str]) -> Tuple[int, ...]:
    return tuple(int(p) for p in (text or "").split(".") if p.isdigit())


def min_driver_for_cuda(cuda: str) -> Optional[str]:
    """Minimum driver for a CUDA build, allowing minor-version compatibility."""
    major = cuda.split(".")[0]
    exact = dict(CUDA_MIN_DRIVER).get(".".join(cuda.split(".")[:2]))
    compat = MINOR_COMPAT_DRIVER.get(major)
    candidates = [d for d in (exact, compat) if d]
    return min(candidates, key=driver_tuple) if candidates else None


def tf_metal_for(tf_version: str) -> Optional[str]:
    v = version(tf_version)
    if v is None:
        return None
    return dict(TF_METAL).get(f"{v.major}.{v.minor}")


def tf_for_metal(metal_version: str) -> Tuple[str, ...]:
    """TensorFlow minors a tensorflow-metal release was built for."""
    v = version(metal_version)
    return tuple(tf for tf, metal in TF_METAL if v is not None and version(metal) == v)


def mps_min_macos(torch_version: Optional[str]) -> Tuple[int, int]:
    """The macOS a torch release needs for MPS at run time: 12.3 (1.12-2.4), 13.0 (2.5-2.8), 14.0 from
    2.9 (the 2.8 release notes: "the last release that will support GPU acceleration on MacOS Ventura")."""
    v = version(torch_version)
    if v is None or v >= Version("2.9.0.dev0"):
        return (14, 0)
    if v >= Version("2.5"):
        return (13, 0)
    return (12, 3)


def cuda_arch_supported(capability: str, arch_list: Tuple[str, ...]) -> bool:
    """Does torch's arch list cover a GPU: sm_XY exactly, or PTX (compute_XY) it can JIT upward."""
    digits = capability.replace(".", "")
    if f"sm_{digits}" in arch_list:
        return True
    major = int(digits[:-1] or 0)
    # Same-major binary compatibility: sm_80 code runs on sm_86/sm_89.
    same_major = [a for a in arch_list if a.startswith("sm_") and a[3:-1] == str(major) and a[3:].isdigit()]
    if any(int(a[3:]) <= int(digits) for a in same_major):
        return True
    ptx = [int(a[8:]) for a in arch_list if a.startswith("compute_") and a[8:].isdigit()]
    return any(p <= int(digits) for p in ptx)
