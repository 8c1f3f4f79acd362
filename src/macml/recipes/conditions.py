"""What a recipe (or one row of its pin table) needs from a host, and why a host falls short.

Pure functions of MachineFacts: each unmet condition becomes one Shortfall, a record of its subject
(which condition), its kind and a sentence a user can act on. A condition on a fact the evidence
does not give is not a refusal: its kind is FITS_IF (an assumption, shown as "fits if ..."), kept
apart from the UNMET ones (unknown is not no). Code reads the subject and kind, never the sentence.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import List, Optional, Tuple

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from macml import versions
from macml.knowledge.rocm import rocm_gfx_verdict
from macml.facts import GPU, PLATFORM_LABELS, MachineFacts, arch_family, platform_label



@dataclass(frozen=True)
class Condition:
    platform: Tuple[str, ...] = ()  # any of "darwin", "linux", "win32"
    arch: Tuple[str, ...] = ()  # hardware: "arm64", "x86_64"
    native_arm64: bool = False  # on Apple silicon, the interpreter must not run under Rosetta
    min_os: Optional[str] = None  # inclusive
    below_os: Optional[str] = None  # exclusive upper bound
    gpu_vendor: Tuple[str, ...] = ()  # any GPU of one of these vendors
    python: Optional[SpecifierSet] = None
    min_driver: Optional[str] = None  # NVIDIA driver
    compute_capability: Optional[SpecifierSet] = None  # every NVIDIA GPU must satisfy it
    rocm_gfx: Optional[str] = None  # ROCm release: some AMD GPU's gfx target must be one its torch wheels run on
    vm: Optional[bool] = None  # False: not offered inside a virtual machine


UNMET, FITS_IF = "unmet", "fits_if"


@dataclass(frozen=True)
class Shortfall:
    """One way a host falls short of a condition (UNMET), or may (FITS_IF: holds only if an unknown
    fact turns out right). subject: the condition's key, e.g. "python", "min_driver", "arch"."""

    subject: str
    kind: str
    text: str

    def __str__(self) -> str:
        return self.text


def _unmet(subject: str, text: str) -> Shortfall:
    return Shortfall(subject, UNMET, text)


def _fits_if(subject: str, text: str) -> Shortfall:
    return Shortfall(subject, FITS_IF, text)


@functools.lru_cache(maxsize=None)
def python_tags(spec: SpecifierSet) -> str:
    """">=3.9,<3.13" -> "cp39–cp312" (the CPython minors the specifier admits)."""
    minors = [m for m in range(0, 30) if spec.contains(f"3.{m}", prereleases=True)]
    if not minors:
        return "none"
    if len(minors) == 1:
        return f"cp3{minors[0]}"
    return f"cp3{minors[0]}–cp3{minors[-1]}"


_version = versions.package


def _os_label(facts: MachineFacts) -> str:
    name = platform_label(facts.platform)
    return f"{name} {facts.os.version}".strip()


def _platform_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    if not cond.platform or facts.platform in cond.platform:
        return []
    wanted = " or ".join(platform_label(p) for p in cond.platform)
    if facts.platform not in PLATFORM_LABELS:  # the evidence never named the OS
        return [_fits_if("platform", f"this machine runs {wanted}")]
    return [_unmet("platform", f"needs {wanted}; this is {platform_label(facts.platform)}")]


def effective_arch(facts: MachineFacts) -> str:
    """The arch wheels are chosen for: the interpreter's (Rosetta runs x86_64), else the hardware's."""
    interp = facts.interpreter
    if interp is not None and interp.machine:
        return arch_family(interp.machine)
    return arch_family(facts.cpu.hardware_arch)


def _arch_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    arch = effective_arch(facts)
    if not cond.arch or arch in cond.arch:
        return []
    if arch == "unknown":
        if facts.is_mac:
            return [_fits_if("arch", "this Mac has Apple silicon" if cond.arch == ("arm64",) else "this is an Intel Mac")]
        return [_fits_if("arch", f"the hardware is {' or '.join(cond.arch)}")]
    if facts.cpu.apple_silicon and arch == "x86_64":
        return [_unmet("arch", "needs a native arm64 Python; this one is x86_64 (runs under Rosetta)")]
    if facts.is_mac and cond.arch == ("arm64",) and facts.cpu.apple_silicon is False:
        return [_unmet("arch", "needs Apple silicon (arm64); this Mac has an Intel CPU")]
    if facts.is_mac and cond.arch == ("arm64",):
        return [_unmet("arch", f"needs a native arm64 Python; this one is {arch}")]
    if facts.is_mac and cond.arch == ("x86_64",) and facts.cpu.apple_silicon:
        return [_unmet("arch", "needs an Intel Mac (x86_64); this Mac has Apple silicon")]
    return [_unmet("arch", f"needs {' or '.join(cond.arch)} hardware; this machine is {arch}")]


def _rosetta_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    interp = facts.interpreter
    if not cond.native_arm64 or interp is None or arch_family(interp.machine) != "x86_64":
        return []
    if facts.rosetta is None:
        return [_fits_if("native_arm64", "this x86_64 Python is not running under Rosetta")]
    if not facts.rosetta:
        return []
    return [_unmet("native_arm64", f"this Python ({interp.executable or 'x86_64'}) is x86_64 and runs under Rosetta; a native arm64 "
            "Python is needed (python.org universal2 installer or Homebrew in /opt/homebrew)")]


def _os_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    have = facts.os.version_tuple
    name = platform_label(facts.platform)
    if not have:  # unknown: do not block on what was not measured
        bounds = [f"{name} is {cond.min_os} or newer" if cond.min_os else "",
                  f"{name} is older than {cond.below_os}" if cond.below_os else ""]
        subject = "min_os" if cond.min_os else "below_os"
        return [_fits_if(subject, " and ".join(b for b in bounds if b))] if any(bounds) else []
    reasons: List[Shortfall] = []
    if cond.min_os and have < _tuple(cond.min_os):
        reasons.append(_unmet("min_os", f"needs {name} {cond.min_os} or newer; this is {_os_label(facts)}"))
    if cond.below_os and have >= _tuple(cond.below_os):
        reasons.append(_unmet("below_os", f"for {name} older than {cond.below_os}; this is {_os_label(facts)}"))
    return reasons


_tuple = versions.release


def _gpu_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    if not cond.gpu_vendor or any(g.vendor in cond.gpu_vendor for g in facts.gpus):
        return []
    wanted = " or ".join(cond.gpu_vendor)
    if not facts.gpu_list_known and not set(cond.gpu_vendor) <= set(facts.gpus_ruled_out):
        return [_fits_if("gpu_vendor", f"this machine has an {wanted} GPU")]
    if not facts.gpu_list_known:  # collect_env's 'No CUDA': nvidia-smi found no driver
        return [_unmet("gpu_vendor", f"needs an {wanted} GPU; the evidence shows no {wanted} driver")]
    found = ", ".join(g.display_name for g in facts.gpus) or "none"
    return [_unmet("gpu_vendor", f"needs an {wanted} GPU; found: {found}")]


def _python_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    interp = facts.interpreter
    if cond.python is None:
        return []
    if interp is None or not interp.version:
        return [_fits_if("python", f"the Python is {python_tags(cond.python)}")]
    if cond.python.contains(interp.version, prereleases=True):
        return []
    short = ".".join(interp.version.split(".")[:2])
    return [_unmet("python", f"no wheel for Python {short}; supported {python_tags(cond.python)}")]


def _nvidia(facts: MachineFacts) -> Tuple[GPU, ...]:
    return facts.gpus_by_vendor("NVIDIA")


def _driver_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    if not cond.min_driver:
        return []
    gpus = _nvidia(facts)
    if not gpus:
        if not facts.gpu_list_known:
            return [_fits_if("min_driver", f"this machine has an NVIDIA GPU with a driver >= {cond.min_driver}")]
        return [_unmet("min_driver", f"needs an NVIDIA driver >= {cond.min_driver}; no NVIDIA GPU found")]
    have = _version(gpus[0].driver_version)
    if have is None:
        return [_fits_if("min_driver", f"the NVIDIA driver is >= {cond.min_driver} (check `nvidia-smi`)")]
    if have < Version(cond.min_driver):
        return [_unmet("min_driver", f"NVIDIA driver {gpus[0].driver_version} is older than {cond.min_driver}")]
    return []


def _sm(capability: str) -> str:
    return "sm_" + capability.replace(".", "")


def _capability_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    if cond.compute_capability is None:
        return []
    gpus = _nvidia(facts)
    if not gpus:
        if not facts.gpu_list_known:
            return [_fits_if("compute_capability", f"the NVIDIA GPU's compute capability is {cond.compute_capability}")]
        return [_unmet("compute_capability", "needs an NVIDIA GPU; none found")]
    reasons: List[Shortfall] = []
    for gpu in gpus:
        if gpu.compute_capability is None:
            reasons.append(_fits_if("compute_capability", f"{gpu.model}'s compute capability is {cond.compute_capability} "
                                  "(check `nvidia-smi --query-gpu=compute_cap`)"))
        elif not cond.compute_capability.contains(gpu.compute_capability, prereleases=True):
            reasons.append(_unmet("compute_capability", f"{gpu.model} ({_sm(gpu.compute_capability)}) is outside this build's "
                           f"compute capability {cond.compute_capability}"))
    return reasons


def _gfx_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    if cond.rocm_gfx is None:
        return []
    reasons: List[Shortfall] = []
    amd = facts.gpus_by_vendor("AMD")
    if any(rocm_gfx_verdict(g.compute_capability, cond.rocm_gfx)[0] is not False for g in amd):
        return []  # one AMD GPU the wheels may run on is enough: check_rocm_target says to hide the others
    for gpu in amd:
        fits, why = rocm_gfx_verdict(gpu.compute_capability, cond.rocm_gfx)
        if fits is False:  # unknown or unlisted targets are not refused
            reasons.append(_unmet("rocm_gfx", f"{gpu.display_name} ({gpu.compute_capability}) is not supported by PyTorch's ROCm "
                           f"{cond.rocm_gfx} wheels: {why}"))
    return reasons


def is_virtual_machine(facts: MachineFacts) -> Optional[bool]:
    """True/False when the facts say so, None when nothing was measured.

    Reads MachineFacts.vm when the probe provides it, else the Apple chip's "(Virtual)" name."""
    stated = getattr(facts, "vm", None)
    if isinstance(stated, bool):
        return stated
    chip = facts.cpu.chip
    if chip is not None and getattr(chip, "virtual", None):
        return True
    return None


def _vm_reason(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    if cond.vm is not False or not is_virtual_machine(facts):
        return []
    name = facts.cpu.chip.name if facts.cpu.chip else "this machine"
    return [_unmet("vm", f"not for virtual machines ({name}): a VM's paravirtual GPU gives no usable Metal compute")]


CHECKS = (_platform_reason, _arch_reason, _rosetta_reason, _os_reason, _vm_reason, _gpu_reason, _python_reason,
          _driver_reason, _capability_reason, _gfx_reason)


def shortfalls(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    """Every way this host falls short of cond (UNMET) or may fall short (FITS_IF)."""
    found: List[Shortfall] = []
    for check in CHECKS:
        found.extend(check(cond, facts))
        if any(s.kind == UNMET for s in found) and check in (_platform_reason, _arch_reason):
            break  # the rest would only repeat that this is the wrong kind of machine
    return found


def unmet_conditions(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    """Every way this host falls short of cond; empty when it fits or may fit."""
    return [s for s in shortfalls(cond, facts) if s.kind == UNMET]


def fits_if(cond: Condition, facts: MachineFacts) -> List[Shortfall]:
    """What must hold of facts the evidence does not give for cond to fit ("fits if ...")."""
    return [s for s in shortfalls(cond, facts) if s.kind == FITS_IF]
