"""What Metal's own numbers, as llama.cpp prints them, say about an Apple-silicon Mac.

'ggml_metal_init: recommendedMaxWorkingSetSize = 5726.63 MB': MTLDevice.recommendedMaxWorkingSetSize, which macOS
sets to 2/3 of the unified memory on smaller Macs and 3/4 on larger ones (5726.63 MB = 5461.34 MiB = 2/3 of 8 GiB;
'= 28991.03 MB' = 3/4 of 36 GiB; ggml prints MB of 10^6 bytes, see ggml-metal.m's `/ 1e6`). The memory is the one
size Apple sells that either share gives; where two sizes fit (24 GiB is 3/4 of 32 and 2/3 of 36) nothing is read.

torch's 'MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes, max allowed: 7.93 GB). Tried
to allocate 256 bytes': nothing allocated and a request under the limit refused is the paravirtual Metal device of a
macOS virtual machine (GitHub's Apple-silicon runners: actions/runner-images#9918, kitzeslab/opensoundscape#850), which has no
memory for MPS. A Mac that is out of memory has allocated something. Any such error is torch at work on a Mac: the
writer's Python runs torch, with its MPS backend. Its 'max allowed' is PYTORCH_MPS_HIGH_WATERMARK_RATIO (1.7 unless
set) times the recommended working set, in GiB (torch's MPSAllocator: format_size prints GB of 2^30 bytes), so
'max allowed: 18.13 GB' is 1.7 x 2/3 of 16 GiB: the memory, as from the working set above.

MLX's Metal backend at work ('mlx/backend/metal/kernels/utils.h:470:10: fatal error: ...', a kernel it compiles at run
time): MLX runs in this Python, and MLX publishes arm64 macOS wheels only (pypi.org/project/mlx), so the Python is a
native arm64 one on Apple silicon.

MoltenVK, Vulkan over Metal, on macOS: its log lines ('[mvk-info] MoltenVK version 1.0.0'), the macOS surface
extension 'VK_MVK_macos_surface' and the Metal feature sets it lists ('OSX GPU Family 1 v3', Metal's macOS families):
the machine runs macOS ('GPU device Intel HD Graphics 5000 (vendorID: 0x8086, ...)' names its GPU).
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.knowledge.macos import APPLE_SILICON_MEMORY_GB
from macml.probe.paste.gpu_names import gpu_names, gpu_record

Facts = List[Tuple[str, Any]]

_WORKING_SET = re.compile(r"\brecommendedMaxWorkingSetSize\s*[=:]\s*(\d+(?:\.\d+)?)\s*(MB|MiB)\b")
_SHARES = (2 / 3, 3 / 4)


def working_set_memory(line: str) -> Facts:
    """Metal's recommended working set -> the Mac's unified memory (stated.py uses it on Apple-silicon Macs only)."""
    found = _WORKING_SET.search(line)
    if not found:
        return []
    return _memory_of_working_set(float(found.group(1)) * (1e6 if found.group(2) == "MB" else 1024**2) / 1024**3)


_MAX_ALLOWED = re.compile(r"\bMPS backend out of memory \(MPS allocated: [^)]*\bmax allowed: (\d+\.\d+) GB\)")
_DEFAULT_WATERMARK = 1.7  # torch/csrc: MPSAllocator's default high watermark ratio


def max_allowed_memory(line: str) -> Facts:
    """'MPS backend out of memory (..., max allowed: 9.07 GB)' -> an 8 GB Mac (9.07 / 1.7 = 2/3 of 8 GiB)."""
    found = _MAX_ALLOWED.search(line)
    return _memory_of_working_set(float(found.group(1)) / _DEFAULT_WATERMARK) if found else []


def _memory_of_working_set(size: float) -> Facts:
    """A recommended working set in GiB -> the one memory size whose 2/3 or 3/4 it is."""
    fits = {gb for gb in APPLE_SILICON_MEMORY_GB for share in _SHARES if abs(gb * share - size) <= 0.01 * size}
    return [("platform", "darwin"), ("memory.unified", fits.pop() * 1024**3)] if len(fits) == 1 else []


_EMPTY_MPS_OOM = re.compile(r"\bMPS backend out of memory \(MPS allocated: 0 bytes, other allocations: 0 bytes"
                            r"(?:, max allowed: (\d+(?:\.\d+)?) ([KMG]i?B))?\)\.?\s*Tried to allocate (\d+(?:\.\d+)?) (bytes|[KMG]i?B)\b")
_UNIT = {"bytes": 1, "KB": 1e3, "KiB": 1024, "MB": 1e6, "MiB": 1024**2, "GB": 1e9, "GiB": 1024**3}


_MPS_OOM = re.compile(r"\bMPS backend out of memory \(MPS allocated:")


def mps_out_of_memory(line: str) -> Facts:
    """'RuntimeError: MPS backend out of memory (MPS allocated: 6.38 GB, ...)': torch runs MPS on this Mac."""
    return [("platform", "darwin"), ("framework.used", "torch")] if _MPS_OOM.search(line) else []


def empty_mps_out_of_memory(line: str) -> Facts:
    """MPS refusing a request smaller than its limit with nothing allocated: a macOS guest's paravirtual GPU."""
    found = _EMPTY_MPS_OOM.search(line)
    if not found:
        return []
    asked = float(found.group(3)) * _UNIT[found.group(4)]
    limit = float(found.group(1)) * _UNIT[found.group(2)] if found.group(1) else 1024**2
    if asked >= limit:
        return []  # a request over the limit fails on any Mac
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("hypervisor", "Apple Virtual Machine")]


_MLX_METAL_BACKEND = re.compile(r"mlx/backend/metal/[\w/]+\.(?:h|cpp|metal)\b")


def mlx_metal_backend(line: str) -> Facts:
    if not _MLX_METAL_BACKEND.search(line):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("python.machine", "arm64")]


_MOLTENVK = re.compile(r"^\s*\[mvk-(?:info|debug|warn|error)\]|\bVK_MVK_macos_surface\b|^\s*OSX GPU Family \d+ v\d+\s*$")
_MVK_DEVICE = re.compile(r"^\s*\[mvk-info\] GPU device (.+?) \(vendorID: 0x[0-9a-f]{4}")


def moltenvk(line: str) -> Facts:
    """'[mvk-info] GPU device Intel HD Graphics 5000 (vendorID: 0x8086, ...)' -> macOS, that GPU."""
    if not _MOLTENVK.search(line):
        return []
    device = _MVK_DEVICE.match(line)
    names = gpu_names(device.group(1)) if device else []
    return [("platform", "darwin")] + ([gpu_record(names[0])] if names else [])


def line_facts(line: str) -> Facts:
    return (moltenvk(line) + working_set_memory(line) + empty_mps_out_of_memory(line) + mlx_metal_backend(line) + mps_out_of_memory(line)
            + max_allowed_memory(line))
