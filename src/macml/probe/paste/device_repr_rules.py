"""GPU device objects as GPU libraries print them, one device a line, numbered by the library:

- AMDGPU.jl's `AMDGPU.devices()` / `versioninfo()`: '- HIPDevice(name="AMD Radeon RX 6800 XT", id=2)', or
  'HIPDevice(name="gfx1100", id=1)' where ROCm knows the GPU by its gfx target alone;
- CUDA.jl's 'CuDevice(0): NVIDIA GeForce RTX 3090';
- oneAPI.jl's 'ZeDevice(GPU, vendor 0x8086, device 0x56a0): Intel(R) Arc(TM) A770 Graphics';
- jax.print_environment_info()'s 'device info: AMD Radeon RX 9070 XT-1, 1 local devices' (the device kind, then how
  many devices of that kind).

Each printed device is one GPU of this machine, named as the library names it ('AMD Radeon Graphics' is an
APU's integrated GPU). A device object written into a sentence that only mentions it (a question, a condition,
another machine's) states nothing.

A tensor torch printed on a CUDA device ('tensor([1., 2., 3.], device='cuda:0')', a whole output line) was made
there: torch's CUDA (or ROCm's HIP, which torch calls 'cuda') works on this machine.
"""
from __future__ import annotations

import re

from macml.probe.paste.board_rules import generic_amd_gpu
from macml.probe.paste.gpu_names import gpu_names, gpu_vendor
from macml.probe.paste.said_of_this_machine import mentioned_only
from macml.probe.paste.statement_rules import Facts

_NAMED = re.compile(r"""\b(?:HIP|ROC)Device\(\s*name\s*=\s*["']([^"'\n]+)["']\s*,\s*(?:device_)?id\s*=\s*(\d{1,2})\s*\)""")
_NUMBERED = re.compile(r"\b(?:Cu|Ze)Device\((?:(\d{1,2})|GPU,[^)]*)\):\s*(\S.*?)\s*$")


_GFX_NAME = re.compile(r"gfx\d{3,4}[a-f]?")


def _gpu(name: str, index: object) -> Facts:
    if _GFX_NAME.fullmatch(name.strip()):  # ROCm names a GPU it has no marketing name for by its gfx target
        return [("gpu", {"name": name.strip(), "vendor": "AMD", "memory_mib": None, "index": index, "gfx": name.strip()})]
    if not (gpu_names(name) or generic_amd_gpu(name)):
        return []
    return [("gpu", {"name": name.strip(), "vendor": gpu_vendor(name), "memory_mib": None, "index": index})]


_JAX_DEVICES = re.compile(r"^\s*device info:\s*(.+?)-(\d{1,2}),\s*\d{1,2} local devices\b")
_CUDA_TENSOR = re.compile(r"^\s*tensor\(.*,\s*device='cuda(?::\d{1,2})?'(?:,\s*\w+=[^)]*)?\)\s*$")


def line_facts(line: str) -> Facts:
    """'- HIPDevice(name="AMD Radeon Graphics", id=1)' -> that GPU, index 1; 'CuDevice(0): NVIDIA GeForce RTX 3090'."""
    facts: Facts = []
    for found in _NAMED.finditer(line):
        if not mentioned_only(line, found.start(), found.end()):
            facts += _gpu(found.group(1), int(found.group(2)))
    numbered = _NUMBERED.search(line)
    if numbered and not mentioned_only(line, numbered.start(), numbered.end()):
        facts += _gpu(numbered.group(2), int(numbered.group(1)) if numbered.group(1) else None)
    jax = _JAX_DEVICES.match(line)
    if jax and gpu_names(jax.group(1)):
        facts += [fact for index in range(int(jax.group(2))) for fact in _gpu(jax.group(1), index)]
    if _CUDA_TENSOR.match(line):
        facts.append(("torch.cuda_available", True))
    return facts
