"""What ROCm's runtime prints, and what an app says of ROCm on this machine, each a pure function of a line:

- ROCclr's log lines from its ROCr backend ('rocdevice.cpp :2728: 0225198107 us: ...', ':1:rocvirtual.cpp :3018:')
  and the HSA runtime's status codes ('HSA_STATUS_ERROR_INVALID_ISA'): ROCr (libhsa-runtime64) runs on Linux only;
  HIP on Windows runs on the PAL backend, whose files are pal*.cpp (github.com/ROCm/clr, rocclr/device/rocm vs
  device/pal). So the machine runs Linux (WSL included). Not from a line that asks about them or negates them, nor
  prose that gives them to others or to a case ('Users on Linux get HSA_STATUS_ERROR_INVALID_ISA', 'On Linux this
  would show ...') or gives the writer Windows or macOS ('...; I use Windows 11'); a ROCclr log line always counts;
- an app's verdict that the writer's hardware suits a ROCm runtime ('my hardware compatible with ROCm llama.cpp',
  'my GPU is supported by ROCm'): an AMD GPU is there (ROCm runs on AMD GPUs only). Not from a question, a
  negation, or someone else's hardware;
- LM Studio's hardware survey '"vramCapacity": 17179869184': the GPU memory it found, in bytes (0 = none found);
- the writer's ROCm release on a line of its own ('ROCm version 5.6.0', '- ROCm: 6.0.2'): AMD builds ROCm releases up
  to 6.x for x86-64 hosts only (rocm.docs.amd.com, 'System requirements (Linux)' and the HIP SDK's Windows
  requirements list x86-64 CPUs alone), so the hardware is x86-64. HIP's runtime carries ROCm's release number
  ('[+] HIP Runtime v5.7.31921' in AMDGPU.jl's versioninfo), so it says the same;
- MIOpen's log names the GPU it compiles for: the ISA 'amdgcn-amd-amdhsa--gfx900:sramecc-:xnack-' and its kernel
  database 'gfx900_64.kdb' (the target and the compute-unit count). Only MIOpen's own lines: elsewhere an
  'amdgcn-amd-amdhsa--gfx...' may be a code object a wheel bundles, not the device.
"""
from __future__ import annotations

import re

from macml.probe.paste.said_of_this_machine import someone_elses, writers_os
from macml.probe.paste.statement_rules import Facts

_ROCR_LOG = re.compile(r"(?<![\w/])roc(?:device|virtual|memory|signal|kernel|program|blit|settings|counters|schedcl|"
                       r"appprofile|prof)\.cpp\s*:\s*\d+\s*:")
_HSA_STATUS = re.compile(r"\bHSA_STATUS_ERROR_[A-Z_]+\b")
_ASKED_OR_NEGATED = re.compile(r"\?|\b(?:not|never|no|without|unlike|instead of|rather than|if|whether|does|do|can)\b"
                               r"|n't\b", re.IGNORECASE)
_WOULD = re.compile(r"\b(?:would|might|should|could)\b", re.IGNORECASE)
_ROCM_FIT = re.compile(r"\bmy\s+(?:hardware|GPU|graphics card|video card|card|system|machine|PC|computer)\b"
                       r"(?:\s+(?:is|as|shows?\s+as|shown\s+as|was|appears?))*\s+(?:fully\s+)?(?:compatible|supported)\s+"
                       r"(?:with|by)\s+(?:the\s+)?ROCm\b", re.IGNORECASE)
_VRAM_CAPACITY = re.compile(r'^\s*"vramCapacity"\s*:\s*(\d+)\s*,?\s*$')


def rocr_runtime(line: str) -> Facts:
    """'... rocdevice.cpp :2728: ... HSA_STATUS_ERROR_INVALID_ISA ...' -> Linux."""
    if _ROCR_LOG.search(line):
        return [("platform", "linux")]
    found = _HSA_STATUS.search(line)
    if not found or _ASKED_OR_NEGATED.search(line[:found.start()]) or _prose_of_elsewhere(line, found.start()):
        return []
    return [("platform", "linux")]


def _prose_of_elsewhere(line: str, start: int) -> bool:
    """'Users on Linux get HSA_STATUS_...', 'On Linux this would show HSA_STATUS_...; I use Windows 11'."""
    return (someone_elses(line[:start]) or bool(_WOULD.search(line[:start]))
            or writers_os(line) in ("darwin", "win32") and "wsl" not in line.lower())


def rocm_fit(line: str) -> Facts:
    """'`Runtime` show as my hardware compatible with ROCm llama.cpp (Linux)' -> an AMD GPU."""
    found = _ROCM_FIT.search(line)
    sentence = re.split(r"[.;!](?:\s|$)", line[:found.start()])[-1] if found else ""
    if not found or _ASKED_OR_NEGATED.search(sentence + found.group()) or "?" in line[found.end():].split(".")[0]:
        return []
    return [("gpu.present", "AMD")]


def vram_capacity(line: str) -> Facts:
    """'"vramCapacity": 17179869184,' -> 16384 MiB of GPU memory."""
    found = _VRAM_CAPACITY.match(line)
    mib = int(found.group(1)) // 1024**2 if found else 0
    return [("gpu.memory_of", {"index": None, "memory_mib": mib})] if mib >= 256 else []


# a later major release may add other CPUs, so only 1.x-6.x counts
_ROCM_RELEASE = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*)?ROCm(?:\s+version)?(?:\*\*)?\s*[:=]?\s*(?:\*\*)?v?[1-6]\.\d{1,2}(?:\.\d{1,2})?\s*$",
                           re.IGNORECASE)


_HIP_RUNTIME = re.compile(r"^\s*(?:\[\+\]\s*)?HIP Runtime v[1-6]\.\d{1,2}\.\d+\s*$")


def rocm_release(line: str) -> Facts:
    """'ROCm version 5.6.0', '[+] HIP Runtime v5.7.31921' -> x86-64 hardware."""
    return [("cpu.hardware_arch", "x86_64")] if _ROCM_RELEASE.match(line) or _HIP_RUNTIME.match(line) else []


_MIOPEN_LINE = re.compile(r"^\s*MIOpen(?:\(HIP\)|\(OpenCL\))?(?::| Error:)")
_MIOPEN_TARGET = re.compile(r"\bamdgcn-amd-amdhsa--(gfx[0-9a-f]{3,4})\b|/(gfx[0-9a-f]{3,4})_\d+\.kdb\b")


def miopen_target(line: str) -> Facts:
    """'MIOpen(HIP): Warning [BuildOcl] amdgcn-amd-amdhsa--gfx900:sramecc-:xnack-' -> an AMD GPU, gfx900."""
    found = _MIOPEN_TARGET.search(line) if _MIOPEN_LINE.match(line) else None
    return [("gpu.present", "AMD"), ("gpu.gfx", found.group(1) or found.group(2))] if found else []


def line_facts(line: str) -> Facts:
    return rocr_runtime(line) + rocm_fit(line) + vram_capacity(line) + rocm_release(line) + miopen_target(line)
