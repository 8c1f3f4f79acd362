"""Small helpers the checks share: how to name things and how to spell fix commands."""
from __future__ import annotations

import shlex
from typing import Optional

from macml.facts import MachineFacts


def python_cmd(facts: MachineFacts) -> str:
    exe = facts.interpreter.executable if facts.interpreter else "python3"
    return shlex.quote(exe)


def pip_cmd(facts: MachineFacts, args: str) -> str:
    return f"{python_cmd(facts)} -m pip {args}"


def describe_chip(facts: MachineFacts) -> str:
    if facts.cpu.chip:
        return facts.cpu.chip.name
    return facts.cpu.brand or "this machine"


def mac_has_metal_gpu(facts: MachineFacts) -> bool:
    """A GPU PyTorch's MPS, tensorflow-metal or MLX would use (they skip Intel iGPUs)."""
    if not facts.is_mac:
        return False
    return facts.cpu.apple_silicon or any(g.vendor in ("Apple", "AMD") for g in facts.gpus)


def accelerator_kind(facts: MachineFacts) -> Optional[str]:
    """'mps', 'cuda', 'rocm' or None: what the hardware offers a framework."""
    if mac_has_metal_gpu(facts):
        return "mps"
    if facts.gpus_by_vendor("NVIDIA"):
        return "cuda"
    if not facts.is_mac and facts.gpus_by_vendor("AMD"):
        return "rocm"
    return None


def macos_at_least(facts: MachineFacts, minimum: tuple) -> Optional[bool]:
    have = facts.os.version_tuple
    return None if not have else have >= minimum

