"""A ROCm build of PyTorch installed, as a package list or a version line prints it: '[pip3]
torch==2.10.0.dev20250929+rocm7.0', conda's 'torchvision  0.25.0.dev20250930+rocm7.0  pypi_0  pypi',
'torch 2.3.0+rocm6.0', 'Torch: 2.2.0.dev20230928+rocm5.6', '[pip3] pytorch-triton-rocm==3.5.0+gitbbb06c03'.

pytorch.org publishes its '+rocmX.Y' wheels (and pytorch-triton-rocm, their Triton) for manylinux x86_64 only
(download.pytorch.org/whl/rocm*/ holds no aarch64 or Windows file), so an environment holding one is a Linux one
(WSL included) on x86-64 hardware, where ROCm runs (see rocm_runtime_rules). AMD's Windows wheels carry another local version
('+rocmsdk20251116') and are left alone. A wheel only named in a question, a condition or advice states nothing.
"""
from __future__ import annotations

import re

from macml.probe.paste.said_of_this_machine import mentioned_only
from macml.probe.paste.statement_rules import Facts

_ROCM_WHEEL = re.compile(r"(?<![\w-])(?:torch|torchvision|torchaudio)(?:\s*==\s*|\s*:\s*|\s+|-)v?\d+\.\d+[\w.]*\+rocm\d+(?:\.\d+)*\b"
                         r"|(?<![\w-])pytorch-triton-rocm\s*(?:==\s*|\s+)\d+\.\d+", re.IGNORECASE)


# a table row or field naming torch with the version in its own cell: '| PyTorch (for the check only) | `2.10.0+rocm7.2.4` |'
_TORCH_CELL = re.compile(r"^\s*\|?\s*(?:Py)?Torch\b[^|]{0,60}\|\s*`?v?\d+\.\d+[\w.]*\+rocm\d+(?:\.\d+)*`?\s*\|?\s*$",
                         re.IGNORECASE)


def line_facts(line: str) -> Facts:
    """'[pip3] torch==2.10.0.dev20250929+rocm7.0' -> a Linux machine."""
    found = _ROCM_WHEEL.search(line) or _TORCH_CELL.search(line)
    if not found or mentioned_only(line, found.start(), found.end()):
        return []
    return [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]
