"""Windows probes (basic): the OS version from `cmd /c ver`; NVIDIA GPUs as on Linux."""
from __future__ import annotations

import re
from typing import Callable, Sequence

from macml.facts import CPUFacts, OSFacts, SystemFacts
from macml.probe.linux import NVIDIA_QUERY, NVIDIA_SMI, nvidia_gpus
from macml.probe.runner import CommandResult

VER = ("cmd", "/c", "ver")
COMMANDS = (VER, NVIDIA_SMI, NVIDIA_QUERY)
FINGERPRINT = (VER, NVIDIA_QUERY)


def parse_ver(text: str) -> str:
    match = re.search(r"Version\s+([\d.]+)", text)
    return match.group(1) if match else ""


def build_facts(run: Callable[[Sequence[str]], CommandResult]) -> SystemFacts:
    os_facts = OSFacts(system="Windows", name="Windows", version=parse_ver(run(VER).stdout))
    cpu = CPUFacts(brand="", hardware_arch="unknown")
    gpus, problems = nvidia_gpus(run(NVIDIA_SMI), run(NVIDIA_QUERY))
    return SystemFacts(os_facts, cpu, gpus, problems)
