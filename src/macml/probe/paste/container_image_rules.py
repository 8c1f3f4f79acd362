"""The torch a container runs, named by the image it was started from: the official images carry the release in
their tag. 'docker run ... rocm/pytorch:rocm5.7_ubuntu22.04_py3.10_pytorch_2.0.1' runs torch 2.0.1 (a ROCm 5.7 build,
Python 3.10), 'FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime' torch 2.1.0 built with CUDA 12.1 (the tag scheme:
hub.docker.com/r/rocm/pytorch/tags, hub.docker.com/r/pytorch/pytorch/tags). Only where the line starts, pulls or builds
from the image; a tag merely mentioned ('the rocm/pytorch:latest image works for others') says nothing of this machine.
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.probe.paste.statement_rules import Facts

_USED = re.compile(r"\b(?:docker|podman|nerdctl)\s+(?:run|pull|create)\b|^\s*FROM\s|\bimage\s*[:=]", re.IGNORECASE)
_ROCM_IMAGE = re.compile(r"\brocm/pytorch:rocm(\d+\.\d+(?:\.\d+)?)_ubuntu\d+\.\d+_py(3\.\d+)_pytorch_(?:release_)?"
                         r"(\d+\.\d+(?:\.\d+)?)\b")
_CUDA_IMAGE = re.compile(r"\bpytorch/pytorch:(\d+\.\d+\.\d+)-cuda(\d+\.\d+)-cudnn\d+-(?:runtime|devel)\b")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the torch of the image that line's command (joined over its '\\' continuations) starts."""
    found: Dict[int, Facts] = {}
    command = ""
    for index, line in enumerate(lines):
        command = command + " " + line if command else line
        facts = image_torch(line) if _USED.search(command) else []
        if facts:
            found[index] = facts
        if not line.rstrip().endswith("\\"):
            command = ""
    return found


def image_torch(line: str) -> Facts:
    rocm, cuda = _ROCM_IMAGE.search(line), _CUDA_IMAGE.search(line)
    if rocm:
        return [("package", {"name": "torch", "version": rocm.group(3)}), ("torch.version", rocm.group(3)),
                ("platform", "linux"), ("cpu.hardware_arch", "x86_64")]  # rocm/pytorch's tags are linux/amd64 only
    if cuda:
        return [("package", {"name": "torch", "version": cuda.group(1)}), ("torch.version", cuda.group(1)),
                ("torch.cuda_version", cuda.group(2)), ("platform", "linux")]
    return []
