"""Asahi Linux's GPU name: its Mesa drivers (the 'asahi' Gallium driver, the Honeykrisp Vulkan driver) add the GPU
generation and revision to the chip's name, 'Apple M1 Max (G13C C0)', 'Apple M2 (G14G B1)'; macOS's Metal and
MoltenVK say only 'Apple M1 Max'. A line with that name was printed on Linux running on an Apple-silicon Mac (arm64),
where Metal, MPS and MLX do not exist. Source: Mesa's src/asahi (agx_device.c builds the name from the chip and its
'G13G'/'G13S'/'G13C'/'G13D'/'G14G' generation codes).
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_ASAHI_GPU = re.compile(r"\bApple M[1-9](?: (?:Pro|Max|Ultra))? \(G1\d[A-Z] [A-Z]\d\)")


def asahi_gpu(line: str) -> Facts:
    return [("platform", "linux"), ("cpu.hardware_arch", "aarch64")] if _ASAHI_GPU.search(line) else []


def line_facts(line: str) -> Facts:
    return asahi_gpu(line)
