"""A project's 'PyTorch Information' section (nnDetection's env dump and those written like it), one `key: value`
row at a time:

- 'PyTorch CUDA: 11.7' (torch.version.cuda: the CUDA the build targets);
- 'PyTorch CUDA Arch List: ['sm_37', 'sm_50', ...]' (torch.cuda.get_arch_list());
- 'PyTorch Current Device Capability: (8, 6)' (torch.cuda.get_device_capability(): an NVIDIA GPU of that compute
  capability, its name not printed);
- tsai's computer_setup() 'device : 1 gpu (['GeForce RTX 3090'])': printed only where torch.cuda.is_available()
  (tsai/imports.py), so torch's CUDA is available.
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_TORCH = r"(?:py)?torch"


def keyed_facts(key: str, value: str) -> Facts:
    value = value.strip()
    if key == "device" and re.fullmatch(r"\d{1,2} gpus? \(\[.+\]\)`?", value):
        return [("torch.cuda_available", True)]
    if re.fullmatch(_TORCH + r" cuda", key) and re.fullmatch(r"\d{1,2}\.\d", value):
        return [("torch.cuda_version", value)]
    if re.fullmatch(_TORCH + r" cuda arch list", key):
        arches = re.findall(r"\b(?:sm|compute)_\d{2,3}\b", value)
        return [("torch.arch_list", " ".join(arches))] if arches else []
    capability = re.fullmatch(r"\((\d{1,2}),\s*(\d)\)", value)
    if re.fullmatch(_TORCH + r" (?:current )?device capability", key) and capability:
        return [("gpu.present", "NVIDIA"),
                ("gpu.capability", {"name": None, "capability": f"{capability.group(1)}.{capability.group(2)}"})]
    return []
