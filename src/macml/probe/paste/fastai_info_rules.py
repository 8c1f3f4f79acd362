"""fastai 1.x's show_install() report (fastai/utils/collect_env.py), its `key : value` rows read one at a time:

- 'torch cuda    : 9.0.176 / is available' (torch.version.cuda, then torch.cuda.is_available(); the other answer
  is '/ is **Not available**');
- '  - gpu0      : 11177MB | GeForce GTX 1080 Ti' (one row per GPU from nvidia-smi's memory.total and name).
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_TORCH_CUDA = re.compile(r"^(\d{1,2}\.\d)(?:\.\d+)?\s*/\s*is\s+(\*\*Not available\*\*|Not available|available)\b",
                         re.IGNORECASE)
_GPU_KEY = re.compile(r"^(?:-\s*)?gpu(\d{1,2})$")
_GPU_ROW = re.compile(r"^(\d{3,6})\s?MB\s*\|\s*(\S.*?)\s*$")


def keyed_facts(key: str, value: str) -> Facts:
    value = value.strip()
    cuda = _TORCH_CUDA.match(value) if key == "torch cuda" else None
    if cuda:
        return [("torch.cuda_version", cuda.group(1)),
                ("torch.cuda_available", not cuda.group(2).strip("*").lower().startswith("not"))]
    index, row = _GPU_KEY.match(key), _GPU_ROW.match(value)
    if index and row:
        return [("gpu", {"name": row.group(2), "vendor": "NVIDIA", "memory_mib": int(row.group(1)),
                         "index": int(index.group(1))})]
    return []
