"""Set 14's clues about Linux machines with AMD parts, each a pure function returning stated facts:

- a GPU named by its role ('integrated graphics is AMD 660M', 'dGPU: RX 6800M'): a GPU the writer has;
- a GPU answer with its memory after 'with' ('GPU is nvidia 3050ti with 4GB'): that GPU's memory;
- a GPU the writer's run is on, named in a title or sentence ('... when running "mnist" on 7900XTX', 'I run it on
  my 7900XTX'): a GPU the writer has; not one a report or the docs name ('reported on 7900XTX in #1234', 'The docs say
  it should run on 7900XTX');
- a path under /opt/rocm (ROCm's install prefix, also rocm_sdk_builder's '/opt/rocm_sdk_612'): Linux, the one OS
  ROCm installs there (the Windows HIP SDK lives under 'C:\\Program Files\\AMD\\ROCm');
- ollama's CPU runners ('runners/cpu_avx2/ollama_llama_server', 'runners="[cpu_avx2 rocm_avx cpu cpu_avx]"'): AVX
  builds, so an x86_64 machine;
- amdgpu's sysfs size of the GPU's memory ('mem_info_vram_total' returns 8589934592): Linux, 8192 MiB (an APU's
  carve-out, as the BIOS set it).
"""
from __future__ import annotations

import re
from typing import List

from macml.probe.paste.env_report_rules import spoken_gpu
from macml.probe.paste.gpu_names import gpu_names, gpu_record, gpu_vendor, informal_gpu_names
from macml.probe.paste.statement_rules import Facts

_NEGATED = re.compile(r"\b(?:not|never|no|without|instead of|rather than|unlike|than)\b|n't\b", re.IGNORECASE)
_ROLE = re.compile(r"\b(?:(?:integrated|discrete|dedicated|onboard)\s+(?:graphics|GPU|video)(?:\s+card)?|[id]GPU)"
                   r"\s*(?:is|:|=|-)\s*(?:an?\s+|the\s+)?", re.IGNORECASE)
_WITH_MEMORY = re.compile(r"^\s*(?:[-*]\s*)?(?:my\s+|the\s+)?(?:GPU|graphics card|video card|dGPU)\s*(?:is|:)\s+(.+?)\s+with\s+"
                          r"(\d{1,2})\s?(?:GB|GiB|G)\b(?:\s+(?:of\s+)?(?:VRAM|memory))?\s*[.!]?\s*$", re.IGNORECASE)
_WRITERS_RUN = re.compile(r"\b(?:I|I'm|I've|my|me)\b|\bwhen\s+(?:running|using|training|loading|trying)\b"
                          r"|^\s*[#*>\s-]*(?:Running|Using|Training)\b|^\s*[-*]?\s*\w[\w ]{0,20}:\s", re.IGNORECASE)
_OTHERS = re.compile(r"\b(?:reported|docs?|documentation|should|supposed|claims?|says?|said|according|someone|others?|"
                     r"people|users?|they|he|she|friend|colleague)\b", re.IGNORECASE)
_RUN_ON = re.compile(r"\b(?:on|with|using)\s+(?:an?\s+|my\s+|the\s+)?", re.IGNORECASE)
_ROCM_PREFIX = re.compile(r"(?:^|[\s'\"(=:`])/opt/(?:rocm(?:[-_][\w.]+)?|amdgpu)(?:/|\b)")  # and AMD's driver's /opt/amdgpu
_CPU_RUNNER = re.compile(r"\brunners[/\\]cpu_avx(?:2|512)?[/\\]|\brunners=\"\[[^\]]*\bcpu_avx(?:2|512)?\b")  # or its list: runners="[cpu_avx2 rocm_avx cpu]"


def _names_at(text: str) -> List[str]:
    """The GPU names the text begins with (formal or as people write them)."""
    return [n for n in gpu_names(text) + informal_gpu_names(text) if text.lower().startswith(n.lower())]


def role_gpu(line: str) -> Facts:
    """'integrated graphics is AMD 660M' -> the AMD 660M, as written."""
    facts: Facts = []
    for found in _ROLE.finditer(line):
        if _NEGATED.search(line[max(0, found.start() - 20):found.start()]):
            continue
        names = _names_at(line[found.end():])
        if names and gpu_vendor(names[0]) != "unknown":
            facts.append(("gpu.owned", gpu_record(max(names, key=len))[1]))
    return facts


def gpu_with_memory(line: str) -> Facts:
    """'GPU is nvidia 3050ti with 4GB' -> 4096 MiB for the GPU that line names."""
    found = _WITH_MEMORY.match(line)
    if not found or not (gpu_names(found.group(1)) or informal_gpu_names(found.group(1)) or spoken_gpu(found.group(1))):
        return []
    return [("gpu.memory_of", {"index": None, "memory_mib": int(found.group(2)) * 1024})]


def run_on_gpu(line: str) -> Facts:
    """'HIP error ... when running "mnist" on 7900XTX' -> a 7900XTX: the one GPU a line names, after 'on'."""
    named = set(gpu_names(line) + informal_gpu_names(line))
    if len(named) != 1:
        return []
    for found in _RUN_ON.finditer(line):
        names = _names_at(line[found.end():])
        if names and not _NEGATED.search(line[max(0, found.start() - 20):found.start()]) and gpu_vendor(names[0]) == "AMD":
            before = line[:found.end()]
            if "my" not in found.group().lower() and (not _WRITERS_RUN.search(before) or _OTHERS.search(before)):
                return []
            return [("gpu.owned", gpu_record(names[0])[1])]
    return []


def rocm_prefix(line: str) -> Facts:
    return [("platform", "linux")] if _ROCM_PREFIX.search(line) else []


def cpu_runner(line: str) -> Facts:
    return [("cpu.hardware_arch", "x86_64")] if _CPU_RUNNER.search(line) else []


_GFX_GPU = re.compile(r"\b(?:It is|it's|I have|I use|on|with|my)\s+(?:a|an|my|the)?\s*(gfx\d{3,4}[a-f]?)\s+(?:GPU|card|device)\b",
                      re.IGNORECASE)


def gfx_gpu(line: str) -> Facts:
    """'It is a gfx1032 GPU', 'I have tested that on a gfx1032 GPU': an AMD GPU named by its gfx target."""
    found = _GFX_GPU.search(line)
    if not found or re.search(r"\b(?:not|no|if|should|would)\b[^.]{0,20}$", line[:found.start()], re.IGNORECASE):
        return []
    return [("gpu.present", "AMD"), ("gpu.gfx", found.group(1).lower())]


# amdgpu's sysfs file of the GPU's memory, in bytes: 'cat /sys/class/drm/card0/device/mem_info_vram_total' -> 8589934592
_VRAM_TOTAL = re.compile(r"\bmem_info_vram_total\b\W{0,3}(?:returns|reads|is|shows|=|:)?\W{0,3}(\d{9,13})\b")


def sysfs_vram(line: str) -> Facts:
    """'`mem_info_vram_total` returns `8589934592`' -> Linux (amdgpu's sysfs), the AMD GPU's 8192 MiB."""
    found = _VRAM_TOTAL.search(line)
    if not found or int(found.group(1)) < 1 << 28:
        return []
    return [("platform", "linux"), ("gpu.memory_of", {"index": None, "memory_mib": int(found.group(1)) // 1024**2})]


def line_facts(line: str) -> Facts:
    return [fact for rule in (role_gpu, gpu_with_memory, run_on_gpu, rocm_prefix, cpu_runner, gfx_gpu, sysfs_vram)
            for fact in rule(line)]
