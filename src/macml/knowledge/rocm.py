"""ROCm facts, each with its source: which ROCm each torch release is built for, and which gfx
targets those wheels run on. Read by the doctor (diagnose/gpu_support.py) and the recipes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from macml.knowledge.amd_gfx import PRE_GFX9
from macml.knowledge.compat import in_spec, version


# ROCm version of download.pytorch.org/whl/rocmX.Y per torch release.
TORCH_ROCM = (
    (">=2.14", "7.14", "pytorch#194367 (TheRock wheel-based ROCm, pytorch#191688)"),
    (">=2.11,<2.14", "7.2", "ROCm/pytorch#3111; unsloth#7280 (2.11.0+rocm7.2); 2.12/2.13 UNVERIFIED at the index"),
    (">=2.10,<2.11", "7.1", "InvokeAI#9297 (torch 2.10.0+rocm7.1)"),
    (">=2.9,<2.10", "6.4", "pytorch#168268"),
)


@dataclass(frozen=True)
class RocmTargets:
    rocm: str
    gfx: Tuple[str, ...]  # PYTORCH_ROCM_ARCH the wheels carry kernels for, and that run
    unsupported: Tuple[Tuple[str, str], ...]  # (gfx, why) known not to work with these wheels
    source: str


_NO_KERNELS = "in no PYTORCH_ROCM_ARCH list of the wheels"
_ROCM_UNSUPPORTED = (
    ("gfx803", "Polaris: " + _NO_KERNELS),
    ("gfx902", "Raven / Picasso APU: " + _NO_KERNELS), ("gfx90c", "Renoir / Cezanne APU: " + _NO_KERNELS
                                                                   + " (ROCm/rocm-build#2216: APUs are not supported)"),
    ("gfx1037", "Mendocino APU: " + _NO_KERNELS),
    ("gfx900", "Vega 10: ROCm 6.4+/7.x rocBLAS ships no kernels for it (unsloth#7354, TheRock#1844)"),
    ("gfx906", "Vega 20 / MI50: ROCm 6.4+/7.x wheels fail (rocBLAS TensileLibrary missing; unsloth#7354)"),
    ("gfx940", "removed from the build (pytorch#147394)"), ("gfx941", "removed from the build (pytorch#147394)"),
    ("gfx1010", "RDNA1: " + _NO_KERNELS), ("gfx1012", "RDNA1: " + _NO_KERNELS),
    ("gfx1031", "not built; HSA_OVERRIDE_GFX_VERSION workarounds only (unsloth#9829)"),
    ("gfx1032", "not built; HSA_OVERRIDE_GFX_VERSION workarounds only (unsloth#9829)"),
    ("gfx1033", "not built; HSA_OVERRIDE_GFX_VERSION gives wrong results (unsloth#8412)"),
    ("gfx1034", "not built (unsloth#9829)"), ("gfx1035", "not built (unsloth#9829)"), ("gfx1036", "not built (unsloth#9829)"),
    # pytorch#179653 added gfx1103 to main's PYTORCH_ROCM_ARCH (landed 2026-04-17, per pytorch#179788); the first
    # release whose rocm7.2 wheels carry it is UNVERIFIED, so the row still says what the checked wheels do.
    ("gfx1103", "not in the rocm7.2 wheels checked (unsloth#9829: the 11.0.0 override page-faults); main builds it "
                "since pytorch#179653 (2026-04), release UNVERIFIED"),
)
ROCM_GFX = (
    RocmTargets("7.2", ("gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1101", "gfx1102",
                        "gfx1150", "gfx1151", "gfx1200", "gfx1201"), _ROCM_UNSUPPORTED,
                "pytorch .ci/docker/manywheel/build.sh PYTORCH_ROCM_ARCH (main); gfx1101 pytorch#141394, gfx1102 "
                "pytorch#147761, gfx1200/1201 pytorch#148562, gfx950/gfx1150/gfx1151 unconditionally from "
                "pytorch#167299 (2025-11); per-release list UNVERIFIED (unsloth#9829)"),
)


def torch_rocm(torch_version: str) -> Optional[str]:
    v = version(torch_version)
    return next((rocm for spec, rocm, _ in TORCH_ROCM if in_spec(spec, v)), None)


def rocm_gfx_verdict(gfx: Optional[str], rocm: str) -> Tuple[Optional[bool], str]:
    """(True, "") when the ROCm build's torch runs on gfx, (False, why) when known not to, (None, "") unknown."""
    targets = next((t for t in ROCM_GFX if t.rocm == rocm), None)
    name = (gfx or "").strip().lower()
    if name == PRE_GFX9 and targets is not None:
        return False, "a GCN 1-4 or TeraScale chip, older than Vega's gfx900 and than every target of the wheels"
    if targets is None or not name.startswith("gfx"):
        return None, ""
    if name in targets.gfx:
        return True, ""
    why = dict(targets.unsupported).get(name)
    return (False, why) if why else (None, "")


def no_rocm_build(gfx: Optional[str]) -> bool:
    """Every ROCm release ROCM_GFX lists is known not to run on this gfx target ('gfx1103', 'gfx803')."""
    return all(rocm_gfx_verdict(gfx, targets.rocm)[0] is False for targets in ROCM_GFX)
