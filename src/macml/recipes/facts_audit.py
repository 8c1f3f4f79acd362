"""A recipe row against macml.knowledge.compat's facts (offline): the claims the indexes cannot prove.

A CUDA row must admit only GPUs its build has kernels for and only drivers that run it; a ROCm row
must use the ROCm of its torch release and name the gfx condition; an MPS row must not be offered
below the macOS its torch needs for MPS; a tensorflow-metal row must pair the releases Apple's table pairs.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from packaging.requirements import Requirement
from packaging.version import Version

from macml.facts import hardware_arch_name
from macml.knowledge import compat
from macml.knowledge.rocm import torch_rocm
from macml.recipes.schema import PinSet, Recipe
from macml.recipes.index import pinned_version

# Compute capabilities of shipped NVIDIA GPUs (Maxwell .. Blackwell) per CPU, to test a row's specifier against.
# https://developer.nvidia.com/cuda-gpus; the odd ones out are Jetson / Grace parts (5.3, 6.2, 7.2, 8.7, 11.0, 12.1).
KNOWN_CAPABILITIES = {
    "x86_64": ("5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "10.3", "12.0"),
    "aarch64": ("5.3", "6.2", "7.2", "7.5", "8.0", "8.7", "9.0", "10.0", "10.3", "11.0", "12.0", "12.1"),
}


def _pins(pin: PinSet) -> dict:
    found = {}
    for text in pin.requirements:
        req = Requirement(text)
        version = pinned_version(req)
        if version and req.marker is None:
            found[req.name] = version
    return found


def _index_build(pin: PinSet, prefix: str) -> Optional[str]:
    match = re.search(rf"/whl/({prefix}[0-9.]+)/?$", pin.index_url or "")
    return match.group(1) if match else None


def _machines(recipe: Recipe, pin: PinSet) -> Tuple[Tuple[str, str], ...]:
    platforms = pin.when.platform or recipe.requires.platform or ("linux",)
    arches = pin.when.arch or recipe.requires.arch or ("x86_64", "arm64")
    # compat's build tables spell machines as Linux does (aarch64)
    return tuple((p, hardware_arch_name(a, "linux")) for p in platforms for a in arches
                 if not (p == "win32" and a == "arm64"))


def _cuda_build(recipe: Recipe, pin: PinSet, torch: Optional[str]) -> Optional[str]:
    """The cuXYZ build a row installs: its index's, or the one PyPI's Linux wheel bundles."""
    if pin.index_url or not torch or "NVIDIA" not in recipe.requires.gpu_vendor:
        return _index_build(pin, "cu")
    cuda = compat.pypi_torch_cuda(torch)
    return "cu" + cuda.replace(".", "") if cuda else None


def cuda_problems(recipe: Recipe, pin: PinSet) -> List[str]:
    torch = _pins(pin).get("torch")
    build = _cuda_build(recipe, pin, torch)
    if not build or not torch:
        return []
    problems = []
    spec = pin.when.compute_capability or recipe.requires.compute_capability
    for platform, machine in _machines(recipe, pin):
        arches = compat.torch_cuda_arches(torch, build, machine)
        if arches is None:
            problems.append(f"no torch {torch}+{build} build for {machine} is recorded in compat.TORCH_CUDA_BUILDS")
            continue
        admitted = [c for c in KNOWN_CAPABILITIES[machine] if spec is None or spec.contains(c, prereleases=True)]
        missing = [c for c in admitted if not compat.cuda_arch_supported(c, arches)]
        if missing:
            problems.append(f"admits sm_{missing[0].replace('.', '')} ({', '.join(missing)}), but torch {torch}+{build} "
                            f"on {machine} has kernels for {' '.join(arches)} only")
        needed = compat.min_driver_for_cuda(build, platform)
        row_driver = pin.when.min_driver or recipe.requires.min_driver
        if needed and (row_driver is None or Version(row_driver) < Version(needed)):
            problems.append(f"admits NVIDIA driver {row_driver or 'any'}, but CUDA {compat.cuda_of_build(build)} "
                            f"needs >= {needed} on {platform}")
    return problems


def rocm_problems(recipe: Recipe, pin: PinSet) -> List[str]:
    build, torch = _index_build(pin, "rocm"), _pins(pin).get("torch")
    if not build or not torch:
        return []
    rocm, problems = build[len("rocm"):], []
    if torch_rocm(torch) != rocm:
        problems.append(f"torch {torch} is built for ROCm {torch_rocm(torch) or '?'} (knowledge/rocm.py TORCH_ROCM), not {rocm}")
    if (pin.when.rocm_gfx or recipe.requires.rocm_gfx) != rocm:
        problems.append(f"needs rocm_gfx = \"{rocm}\" so that GPUs its wheels do not run on are not offered it")
    return problems


def mps_problems(recipe: Recipe, pin: PinSet) -> List[str]:
    torch = _pins(pin).get("torch")
    if not torch or "Apple" not in recipe.requires.gpu_vendor or "darwin" not in recipe.requires.platform:
        return []
    if (pin.when.arch or recipe.requires.arch) == ("x86_64",):
        return []  # Intel Macs: AMD GPUs, torch 2.2.2 (12.3 rule below applies through requires.min_os)
    needed = compat.mps_min_macos(torch)
    floors = [v for v in (pin.when.min_os, recipe.requires.min_os) if v]
    floor = max((tuple(int(p) for p in v.split(".")) for v in floors), default=())
    if floor < needed:
        return [f"offered from macOS {'.'.join(map(str, floor)) or 'any'}, but torch {torch} needs macOS "
                f"{needed[0]}.{needed[1]} for MPS (compat.TORCH_MPS_MIN_MACOS)"]
    return []


def tf_metal_problems(recipe: Recipe, pin: PinSet) -> List[str]:
    pins = _pins(pin)
    metal = pins.get("tensorflow-metal")
    tf = pins.get("tensorflow") or pins.get("tensorflow-macos")
    if not metal or not tf:
        return []
    problems = []
    if compat.tf_metal_for(tf) != metal:
        problems.append(f"Apple's table pairs TF {tf} with tensorflow-metal {compat.tf_metal_for(tf) or '?'}, not {metal}")
    if "x86_64" in (pin.when.arch or recipe.requires.arch) and Version(metal) > Version(compat.TF_METAL_LAST_X86_64):
        problems.append(f"tensorflow-metal {metal} has no x86_64 wheel (the last is {compat.TF_METAL_LAST_X86_64})")
    return problems


def fact_problems(recipe: Recipe, pin: PinSet) -> List[str]:
    return cuda_problems(recipe, pin) + rocm_problems(recipe, pin) + mps_problems(recipe, pin) + \
        tf_metal_problems(recipe, pin)
