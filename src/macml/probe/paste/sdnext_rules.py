"""SD.Next's platform summary (its issue form's 'Version Platform Description', printed by installer.py at start):

    OS: Ubuntu 22.04.3, Platform: arch=x86_64 cpu=x86_64      (platform.machine(): the Python's arch)
    ROCm agents detected: ['gfx1030']                          (rocm_agent_enumerator: the AMD GPUs' targets)
    Torch "2.3.0.dev20240218+rocm6.0"                          (torch.__version__)
    Device: None (6900xt)                                      (torch's device; the writer may add the card)
"""
from __future__ import annotations

import re

from macml.probe.paste.gpu_names import gpu_record, informal_gpu_names
from macml.probe.paste.statement_rules import Facts
from macml.probe.paste.system_rules import arch_word

_PLATFORM = re.compile(r"\bPlatform: arch=(x86_64|aarch64|arm64|AMD64) cpu=")
_AGENTS = re.compile(r"^\s*ROCm agents detected: \[([^\]]*)\]")
_TORCH = re.compile(r"^\s*Torch \"(\d+\.\d+\.\d+[\w.+]*)\"\s*$")
_DEVICE = re.compile(r"^\s*Device: None\s*\(([^)]+)\)\s*$")


def line_facts(line: str) -> Facts:
    facts: Facts = []
    platform = _PLATFORM.search(line)
    if platform:
        facts.append(("python.machine", arch_word(platform.group(1))))
    agents = _AGENTS.match(line)
    if agents:
        targets = re.findall(r"gfx[0-9a-f]{3,4}", agents.group(1))
        facts += [("platform", "linux")] + [("gpu.present", "AMD")] * bool(targets) + [("gpu.gfx", t) for t in targets]
    torch = _TORCH.match(line)
    if torch:
        facts += [("package", {"name": "torch", "version": torch.group(1)}), ("torch.version", torch.group(1))]
    device = _DEVICE.match(line)
    named = informal_gpu_names(device.group(1)) if device else []
    if len(named) == 1:
        facts.append(gpu_record(named[0]))
    return facts
