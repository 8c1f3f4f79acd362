"""Compatibility facts, each with its source beside it, and pure lookups over them.

THE one place for what is true of releases and hardware: the doctor (diagnose/) and the
recipes (recipes/, `macml recipes --audit`) both read it. A source is a URL, an issue
(`pytorch#175253` = github.com/pytorch/pytorch/issues/175253) or a PyPI file name; "UNVERIFIED"
marks what comes from an issue or RFC because the index itself (download.pytorch.org)
could not be read when the entry was written. Audited 2026-12-02.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple


from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from macml.facts import arch_family, os_arch_name
from macml import versions

NVIDIA_NOTES = "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/ (Table 3: toolkit and driver versions)"
NVIDIA_MINOR = "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html (Table 1)"


@dataclass(frozen=True)
class DriverMinimum:
    cuda: str  # toolkit major.minor
    linux: str
    windows: Optional[str]  # None: not recorded
    source: str


# The driver each CUDA toolkit's GA release shipped with.
CUDA_DRIVERS = (
    DriverMinimum("13.2", "595.45.04", None, NVIDIA_NOTES),
    DriverMinimum("13.1", "590.44.01", None, NVIDIA_NOTES),
    DriverMinimum("13.0", "580.65.06", "580.88", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("12.9", "575.51.03", "576.02", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("12.8", "570.26", "570.65", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("12.6", "560.28.03", "560.76", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("12.4", "550.54.14", "551.61", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("12.1", "530.30.02", "531.14", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("12.0", "525.60.13", "527.41", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("11.8", "520.61.05", "520.06", NVIDIA_NOTES + "; Windows value UNVERIFIED"),
    DriverMinimum("11.0", "450.80.02", "452.39", NVIDIA_NOTES),
    DriverMinimum("10.2", "440.33", "441.22", NVIDIA_NOTES),
    DriverMinimum("10.1", "418.39", "418.96", NVIDIA_NOTES),
    DriverMinimum("10.0", "410.48", "411.31", NVIDIA_NOTES),
    DriverMinimum("9.2", "396.26", "397.44", NVIDIA_NOTES),
    DriverMinimum("9.0", "384.81", "385.54", NVIDIA_NOTES),
)
# Minor-version compatibility: any 11.x/12.x/13.x build runs (without features newer than the
# driver, and without JIT-compiling newer PTX) on a driver of the major's first release.
MINOR_COMPAT = (
    DriverMinimum("11", "450.80.02", "452.39", NVIDIA_MINOR),
    DriverMinimum("12", "525.60.13", "528.33", NVIDIA_MINOR + "; exact patch levels from the 12.0 GA notes"),
    DriverMinimum("13", "580.65.06", "580.88", NVIDIA_MINOR + " (>= 580); 13.0 GA driver; Windows UNVERIFIED"),
)
# Kept for callers that read the Linux table as pairs.
CUDA_MIN_DRIVER = tuple((d.cuda, d.linux) for d in CUDA_DRIVERS)
MINOR_COMPAT_DRIVER = {d.cuda: d.linux for d in MINOR_COMPAT}


@dataclass(frozen=True)
class TorchCudaBuild:
    torch: str  # specifier of torch releases
    build: str  # index name: "cu128"
    machine: str  # "x86_64" (Linux x86_64 and Windows) or "aarch64" (Linux sbsa)
    arches: Tuple[str, ...]  # torch.cuda.get_arch_list(); compute_XY = PTX
    source: str


_TURING_UP = ("sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120")
_MAXWELL_TO_HOPPER = ("sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90")
# The CUDA builds on download.pytorch.org/whl/cuXYZ, per torch release range (UNVERIFIED at the index).
TORCH_CUDA_BUILDS = (
    TorchCudaBuild(">=2.0,<2.8", "cu118", "x86_64", _MAXWELL_TO_HOPPER,
                   "pytorch#147383 (11.8 dropped in 2.8: 2.7.x is the last cu118); no aarch64 cu118 (pytorch#134790)"),
    TorchCudaBuild(">=2.6,<2.15", "cu126", "x86_64", _MAXWELL_TO_HOPPER,
                   "pytorch#172663, pytorch#175253, pytorch#190355 (2.14 is the last 12.x); 2.15 drops it (pytorch#190385)"),
    TorchCudaBuild(">=2.7,<2.8", "cu128", "x86_64", _TURING_UP, "EutropicAI/vs-playground#59 (2.7 cu128 has no sm_70)"),
    TorchCudaBuild(">=2.8,<2.11", "cu128", "x86_64", ("sm_70",) + _TURING_UP,
                   "pytorch#160269 ('Volta is still supported for both CUDA 12.8 and 12.9'); Whisper-WebUI#653"),
    TorchCudaBuild(">=2.8,<2.9", "cu129", "x86_64", ("sm_70",) + _TURING_UP,
                   "pytorch#157517, pytorch#158700 and the PyTorch dev-discuss post 'Maxwell and Pascal architecture "
                   "support removed in CUDA 12.8 and 12.9 builds' (2.8: sm_70..sm_120, as cu128)"),
    TorchCudaBuild(">=2.11,<2.12", "cu128", "x86_64", _TURING_UP,
                   "pytorch#175253, pytorch#172352 (Volta dropped from cu128 in 2.11); FBGEMM#5976 (2.11 is cu128's last)"),
    TorchCudaBuild(">=2.9", "cu130", "x86_64", _TURING_UP + ("compute_120",),
                   "pytorch#172663 (cu130: sm_75..sm_120 + PTX); CUDA 13 builds nothing below sm_75 (pytorch#190385)"),
    TorchCudaBuild(">=2.12", "cu132", "x86_64", _TURING_UP + ("compute_120",),
                   "pytorch#179072, pytorch#194367 (cu132 from 2.12 experimental, 2.14 stable); arch list UNVERIFIED"),
    TorchCudaBuild(">=2.15", "cu132", "aarch64", ("sm_80", "sm_90", "sm_100", "sm_110", "sm_120", "compute_120"),
                   "torch-2.15.0-*-manylinux_2_28_aarch64.whl requires cuda-toolkit 13.2.2 (PyPI JSON); arch list "
                   "as cu130 sbsa (pytorch#172663): UNVERIFIED"),
    TorchCudaBuild(">=2.8,<2.15", "cu126", "aarch64", ("sm_80", "sm_90"), "pytorch#172663 (sbsa cu126: sm_80, sm_90)"),
    TorchCudaBuild(">=2.8,<2.12", "cu128", "aarch64", ("sm_80", "sm_90", "sm_100", "sm_120"), "pytorch#172663"),
    TorchCudaBuild(">=2.9", "cu130", "aarch64", ("sm_80", "sm_90", "sm_100", "sm_110", "sm_120", "compute_120"),
                   "pytorch#172663; pytorch#162455 ('sm50-70 should not be added to sbsa build')"),
)

# The CUDA that the plain PyPI torch wheel for Linux bundles (its Requires-Dist).
PYPI_TORCH_CUDA = (
    (">=2.15", "13.2", "torch-2.15.0 metadata: cuda-toolkit[...]==13.2.2"),
    (">=2.11,<2.15", "13.0", "torch-2.11.0..2.14.0 metadata: cuda-toolkit[...]==13.0.x (x86_64 and aarch64)"),
    (">=2.8,<2.11", "12.8", "torch-2.8.0 metadata: nvidia-cuda-runtime-cu12==12.8.90; x86_64 only"),
    (">=2.7,<2.8", "12.6", "torch-2.7.1 metadata: nvidia-cuda-runtime-cu12==12.6.77; x86_64 only"),
    (">=2.6,<2.7", "12.4", "torch-2.6.0 metadata: nvidia-cuda-runtime-cu12==12.4.127; x86_64 only"),
)

# The newest CUDA any build of a torch release was made with (its download.pytorch.org/whl/cuXYZ indexes, as
# pytorch.org/get-started/previous-versions lists each release's install commands). A GPU newer than that CUDA (sm_120
# needs CUDA 12.8) has kernels in no build of the release, whichever one is installed.
NEWEST_CUDA_BUILD = (
    # before 1.8, from the same page's conda and pip commands: 1.0-1.2 cu100 (and older), 1.3-1.4 cu101, 1.5-1.6 cu102,
    # 1.7 cu110; 1.8-1.9 cu111
    ("<1.3", "10.0"), (">=1.3,<1.5", "10.1"), (">=1.5,<1.7", "10.2"), (">=1.7,<1.8", "11.0"), (">=1.8,<1.10", "11.1"),
    (">=1.10,<1.11", "11.3"), (">=1.11,<1.12", "11.5"), (">=1.12,<1.13", "11.6"), (">=1.13,<2.0", "11.7"),
    (">=2.0,<2.1", "11.8"), (">=2.1,<2.4", "12.1"), (">=2.4,<2.6", "12.4"), (">=2.6,<2.7", "12.6"), (">=2.7,<2.8", "12.8"),
    (">=2.8,<2.9", "12.9"),
)


def newest_cuda_build(torch_version: str) -> Optional[str]:
    """'2.5.1' -> '12.4': the newest CUDA of any build of that release; None for releases not listed (2.9 and later)."""
    v = version(torch_version)
    line = Version(v.base_version) if v is not None else None
    return next((cuda for spec, cuda in NEWEST_CUDA_BUILD if line is not None and in_spec(spec, line)), None)


# MPS at run time (the wheel tag is NOT the minimum: 2.9-2.11 ship macosx_11_0 but need 14.0 for MPS).
TORCH_MPS_MIN_MACOS = (
    (">=2.9", (14, 0), "pytorch#162921 ('in 2.9+ MPS is only supported on MacOS Sonoma+'), pytorch#163515"),
    (">=2.5,<2.9", (13, 0), "pytorch#139425; 2.8 release notes: 'the last release that will support GPU "
                            "acceleration on MacOS Ventura'"),
    ("<2.5", (12, 3), "PyTorch MPS backend docs (macOS 12.3+)"),
)
INTEL_MAC_LAST_TORCH = "2.2.2"  # torch-2.2.2-cp312-none-macosx_10_9_x86_64.whl; pytorch#114602 (also AMD MPS, #141182)
# The first `tensorflow` on PyPI with a macOS arm64 wheel; before it PyPI's tensorflow was x86_64-only on macOS
# (Apple silicon used the separate tensorflow-macos). blog.tensorflow.org/2023/07/whats-new-in-tensorflow-213-and-keras-213.html
TF_FIRST_MACOS_ARM64 = "2.13.0"

# TensorFlow minor -> the tensorflow-metal release built for it.
TF_METAL_SOURCE = "https://pypi.org/project/tensorflow-metal/ (Apple's table in the description)"
TF_METAL = (
    ("2.5", "0.1.2"), ("2.6", "0.2.0"), ("2.7", "0.3.0"), ("2.8", "0.4.0"), ("2.9", "0.5.0"),
    ("2.10", "0.6.0"), ("2.11", "0.7.0"), ("2.12", "0.8.0"), ("2.13", "1.0.0"), ("2.14", "1.1.0"),
    ("2.15", "1.1.0"), ("2.16", "1.1.0"), ("2.17", "1.1.0"),
    ("2.18", "1.2.0"),  # the table's last row reads "v1.1.0 | Fixes compatibility with 2.18+": 1.2.0's own row
)
# tensorflow-metal-1.0.0-cp311-cp311-macosx_12_0_x86_64.whl is the last x86_64 (Intel Mac + AMD GPU) wheel.
TF_METAL_LAST_X86_64 = "1.0.0"


# ---------------------------------------------------------------- lookups

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


# GPUs older than every current build: the last PyTorch release whose binaries still carried kernels
# for them (capability, platform, torch, its build, source).
LAST_TORCH_FOR_OLD_GPUS = (
    ("3.7", "win32", "2.7.1", "cu118", "Windows cu118 arch lists end in 'sm_37 ... sm_90 compute_37' "
     "(RVC-WebUI#2636, SlicerNNInteractive#58, 2025); cu118 ends with 2.7.1 (pytorch#147383)"),
    ("3.7", "linux", "1.12.1", "cu113", "UNVERIFIED: Linux builds kept sm_37 after pytorch#24205 (2019) and "
     "Linux cu118 has none (nelson-liu/pytorch-manylinux-binaries#13: K80 fails on 2.7.1+cu118)"),
    ("3.5", "any", "1.2.0", "cu100", "pytorch#24205 (3.5 replaced by 3.7 in late 2019), pytorch#30532 (1.3 has no sm_35)"),
    ("3.0", "any", "0.3.0", "cu80", "pytorch#4841 (3.0 and 5.0 removed from the binaries, January 2018)"),
)


def last_torch_for_gpu(capability: str, platform: str) -> Optional[Tuple[str, str, str]]:
    """(torch release, build, source) of the last binaries with kernels for an old GPU, or None."""
    major_minor = versions.release(capability)[:2]
    for cap, where, torch, build, source in LAST_TORCH_FOR_OLD_GPUS:
        if versions.release(cap)[:2] == major_minor and where in (platform, "any"):
            return torch, build, source
    return None


version = versions.package  # '2.5.1+cu121' -> Version('2.5.1')
driver_tuple = versions.release  # '550.54.15' -> (550, 54, 15)


def in_spec(spec: str, v: Optional[Version]) -> bool:
    return v is not None and SpecifierSet(spec).contains(v, prereleases=True)


def min_driver_for_cuda(cuda: str, os: str = "linux") -> Optional[str]:
    """Minimum driver for a CUDA build ("12.8", "cu128"), allowing minor-version compatibility."""
    cuda = cuda_of_build(cuda) or cuda
    pick = (lambda d: d.windows) if os == "win32" else (lambda d: d.linux)
    exact = [pick(d) for d in CUDA_DRIVERS if d.cuda == ".".join(cuda.split(".")[:2])]
    compat = [pick(d) for d in MINOR_COMPAT if d.cuda == cuda.split(".")[0]]
    candidates = [d for d in exact + compat if d]
    return min(candidates, key=driver_tuple) if candidates else None


def cuda_of_build(build: str) -> Optional[str]:
    """"cu128" -> "12.8", "cu118" -> "11.8"; anything else -> None."""
    digits = build[2:] if build.startswith("cu") else ""
    return f"{digits[:-1]}.{digits[-1]}" if len(digits) >= 3 and digits.isdigit() else None


def torch_cuda_arches(torch_version: str, build: str, machine: str = "x86_64") -> Optional[Tuple[str, ...]]:
    """The arch list of torch==torch_version+build on machine, or None when no such build is recorded."""
    v = version(torch_version)
    machine = os_arch_name(arch_family(machine), "linux")
    for entry in TORCH_CUDA_BUILDS:
        if entry.build == build and entry.machine == machine and in_spec(entry.torch, v):
            return entry.arches
    return None


def pypi_torch_cuda(torch_version: str) -> Optional[str]:
    v = version(torch_version)
    return next((cuda for spec, cuda, _ in PYPI_TORCH_CUDA if in_spec(spec, v)), None)


def tf_metal_for(tf_version: str) -> Optional[str]:
    v = version(tf_version)
    if v is None:
        return None
    return dict(TF_METAL).get(f"{v.major}.{v.minor}")


def tf_for_metal(metal_version: str) -> Tuple[str, ...]:
    """TensorFlow minors a tensorflow-metal release was built for."""
    v = version(metal_version)
    return tuple(tf for tf, metal in TF_METAL if v is not None and version(metal) == v)


def beyond_intel_mac_torch(wanted: str) -> bool:
    """A torch requirement no x86_64 macOS wheel meets: '==2.4.1', '>=2.4' -> True; '>=2.1', '<2.3' -> False."""
    try:
        floors = [Version(clause.version.rstrip(".*")) for clause in SpecifierSet(wanted)
                  if clause.operator in ("==", "===", ">=", ">", "~=")]
    except (InvalidSpecifier, InvalidVersion):
        return False
    return bool(floors) and all(floor > Version(INTEL_MAC_LAST_TORCH) for floor in floors)


def before_mps(torch_version: str) -> bool:
    """torch releases before 1.12 have no MPS backend (pytorch.org/blog/introducing-accelerated-pytorch-training-on-mac)."""
    v = version(torch_version)
    return v is not None and v.release[:2] < (1, 12)


def mps_min_macos(torch_version: Optional[str]) -> Tuple[int, int]:
    """The macOS a torch release needs for MPS at run time (unknown release: the newest rule)."""
    v = version(torch_version)
    if v is None:
        return TORCH_MPS_MIN_MACOS[0][1]
    line = Version(v.base_version)  # a nightly '2.9.0.dev20250821' is the 2.9 line (PEP 440 puts it below '>=2.9')
    return next((macos for spec, macos, _ in TORCH_MPS_MIN_MACOS if in_spec(spec, line)), TORCH_MPS_MIN_MACOS[0][1])


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
