"""What a Linux or Windows machine's arch and GPUs say of its CPU: every Apple-silicon chip is arm64, and no
Apple-silicon machine drives an NVIDIA, AMD or Intel GPU. Asahi Linux runs only the chip's own Apple GPU
(asahilinux.org/docs/platform/feature-support/overview/: no Thunderbolt eGPU, no PCIe GPU in a Mac Pro's slots),
and Windows runs on Apple silicon only as a virtual machine's guest, whose GPU is a virtual one."""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, Mapping, Sequence

from macml.facts import CPUFacts, MachineFacts
from macml.knowledge.gpu_specs import identify_apple_chip

_OTHER_VENDORS = ("NVIDIA", "AMD", "Intel")


def gpus_not_apple_silicon(facts: MachineFacts, sources: Dict[str, str]) -> MachineFacts:
    """An NVIDIA, AMD or Intel GPU on Linux or Windows: the machine is not Apple silicon (unknown stays unknown
    where no such GPU is named)."""
    if facts.is_mac or facts.platform not in ("linux", "win32") or facts.cpu.apple_silicon is not None:
        return facts
    gpu = next((g for g in facts.gpus if g.vendor in _OTHER_VENDORS), None)
    if gpu is None:
        return facts
    sources["cpu.apple_silicon"] = (f"{gpu.vendor} GPU ({gpu.model}) on {facts.platform}: an Apple-silicon machine "
                                    "drives no GPU but its own")
    return dataclasses.replace(facts, cpu=dataclasses.replace(facts.cpu, apple_silicon=False), sources=sources)


def x86_is_not_apple_silicon(facts: MachineFacts, cpu: CPUFacts, sources: Dict[str, str],
                             statements: Sequence[Mapping[str, Any]] = ()) -> CPUFacts:
    """Linux or Windows on x86_64 hardware: not Apple silicon, whose every chip is arm64. (On a Mac the
    x86_64 answer may come from a Rosetta process, so infer_mac_cpu decides there; and where the text also
    states arm64 or an Apple chip, the x86_64 Linux may be an emulated container on a Mac.)"""
    if facts.is_mac or cpu.apple_silicon is not None or cpu.hardware_arch != "x86_64":
        return cpu
    if any(_says_apple_silicon(s) for s in statements):
        return cpu
    sources["cpu.apple_silicon"] = "x86_64 hardware (" + sources.get("cpu.hardware_arch", "the arch the text gives") \
        + "); every Apple-silicon chip is arm64"
    return dataclasses.replace(cpu, apple_silicon=False)


def _says_apple_silicon(statement: Mapping[str, Any]) -> bool:
    fact, value = statement.get("fact"), statement.get("value")
    return ((fact == "cpu.hardware_arch" and value in ("arm64", "aarch64"))
            or (fact == "cpu.apple_silicon" and value is True) or fact == "cpu.chip")


def apple_chip_on_linux(facts: MachineFacts, sources: Dict[str, str]) -> MachineFacts:
    """Linux on an Apple chip (Asahi): Apple silicon, and its GPUs are the chip's own, all of them listed."""
    brand = facts.cpu.brand or ""
    if facts.platform != "linux" or not re.match(r"Apple M\d", brand) or facts.cpu.apple_silicon is False:
        return facts
    if any(g.vendor in _OTHER_VENDORS for g in facts.gpus):
        return facts
    sources["cpu.apple_silicon"] = f"CPU {brand} on Linux: Asahi Linux on an Apple-silicon Mac"
    sources["gpus"] = f"Asahi Linux drives only the {brand}'s own GPU (no eGPU, no PCIe GPU)"
    cpu = dataclasses.replace(facts.cpu, apple_silicon=True, chip=facts.cpu.chip or identify_apple_chip(brand))
    return dataclasses.replace(facts, cpu=cpu, gpu_list_known=True,
                               egpu=False, sources=sources)
