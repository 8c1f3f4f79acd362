"""Peak FP32 throughput and memory bandwidth of the GPUs macml meets, by name.

Pure tables: Apple chips (../shared/FACTS.md, top GPU configuration, scaled by GPU cores
for smaller bins), AMD GPUs of Intel Macs, and a few NVIDIA GPUs. Numbers are vendor
peaks: they bound what a workload can reach, they do not predict it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Mapping, Optional, Tuple

from macml.facts import AppleChip

Peak = Tuple[float, Optional[float]]  # (FP32 TFLOPS, memory bandwidth GB/s or None)


@dataclass(frozen=True)
class AppleGPUSpec:
    max_cores: int
    tflops: float  # at max_cores
    bandwidth_gbs: float
    bandwidth_by_cores: Optional[Mapping[int, float]] = None  # bins with a narrower memory bus

    def bandwidth_for(self, cores: Optional[int]) -> float:
        if cores is not None and self.bandwidth_by_cores:
            return self.bandwidth_by_cores.get(cores, self.bandwidth_gbs)
        return self.bandwidth_gbs


APPLE_GPUS: Dict[str, AppleGPUSpec] = {
    "M1": AppleGPUSpec(8, 2.6, 68),
    "M1 Pro": AppleGPUSpec(16, 5.2, 200),
    "M1 Max": AppleGPUSpec(32, 10.4, 400),
    "M1 Ultra": AppleGPUSpec(64, 21.0, 800),
    "M2": AppleGPUSpec(10, 3.6, 100),
    "M2 Pro": AppleGPUSpec(19, 6.8, 200),
    "M2 Max": AppleGPUSpec(38, 13.5, 400),
    "M2 Ultra": AppleGPUSpec(76, 27.2, 800),
    "M3": AppleGPUSpec(10, 4.1, 100),
    "M3 Pro": AppleGPUSpec(18, 7.4, 150),
    "M3 Max": AppleGPUSpec(40, 14.2, 400, {30: 300}),
    "M3 Ultra": AppleGPUSpec(80, 28.4, 819),
    "M4": AppleGPUSpec(10, 4.6, 120),
    "M4 Pro": AppleGPUSpec(20, 9.2, 273),
    "M4 Max": AppleGPUSpec(40, 18.4, 546, {32: 410}),
    "M5": AppleGPUSpec(10, 5.7, 153),
}

# (pattern over the normalised name, TFLOPS, GB/s). First match wins: specific first.
OTHER_GPUS: Tuple[Tuple[str, float, Optional[float]], ...] = (
    # NVIDIA (nvidia-smi names: "NVIDIA H200", "NVIDIA A100-SXM4-80GB", ...)
    (r"\bh200 nvl\b", 60.0, 4800),
    (r"\bh200\b", 67.0, 4800),
    (r"\bh100 pcie\b", 51.0, 2000),
    (r"\bh100\b", 67.0, 3350),
    (r"\ba100\b.*\b80gb\b.*\bpcie\b|\ba100\b.*\bpcie\b.*\b80gb\b", 19.5, 1935),
    (r"\ba100\b.*\b80gb\b", 19.5, 2039),
    (r"\ba100\b", 19.5, 1555),
    (r"\brtx 4090\b", 82.6, 1008),
    (r"\brtx 3090\b(?! ti)", 35.6, 936),
    # AMD in Intel Macs ("AMD Radeon Pro 5500M", "Radeon Pro 560X", ...)
    (r"\bpro 555x\b", 1.4, None),
    (r"\bpro 560x\b", 2.0, None),
    (r"\bpro 580x\b", 5.6, None),
    (r"\bvega 16\b", 2.4, None),
    (r"\bvega 20\b", 3.2, None),
    (r"\bvega 56\b", 11.0, 400),
    (r"\bvega 64\b", 11.0, 400),
    (r"\bvega ii\b", 14.1, 1000),  # Vega II Duo shows up as two GPUs, each one of these
    (r"\bpro 5300m\b", 3.2, None),
    (r"\bpro 5500m\b", 4.0, 192),
    (r"\bpro 5600m\b", 5.3, 394),
    (r"\bw6800x duo\b", 15.1, 512),  # per GPU; the card holds two
    (r"\bw6800x\b", 16.0, 512),
    (r"\bw6900x\b", 22.0, 512),
)

_NOT_A_TIER = {"chip", "cpu", "gpu", "soc", "processor", "virtual"}
# M-series, and the A-series chips Apple puts in Macs too (A12Z of the Developer Transition Kit, A18 Pro of the MacBook Neo)
_CHIP = re.compile(r"\bapple\s+(?:(m)(\d{1,2})|(a)(1[2-9]|[2-9]\d)([a-z]?))\b(?:\s+([a-z]+))?", re.IGNORECASE)


def identify_apple_chip(brand: str) -> Optional[AppleChip]:
    """'Apple M3 Max' -> AppleChip; also future names ('Apple M9 Ultra'); None for others."""
    match = _CHIP.search(brand or "")
    if not match:
        return None
    letter, number = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    generation = int(number)
    tier = (match.group(6) or "").capitalize()
    if tier.lower() in _NOT_A_TIER or letter.lower() == "a" and tier != "Pro":
        tier = ""
    family = f"{letter.upper()}{generation}{(match.group(5) or '').upper()}"
    name = f"Apple {family} {tier}".strip()
    virtual = "virtual" in brand.lower()
    return AppleChip(name=name, family=family, generation=generation, tier=tier, virtual=virtual)


def apple_gpu_spec(chip: AppleChip) -> Optional[AppleGPUSpec]:
    return APPLE_GPUS.get(f"{chip.family} {chip.tier}".strip())


def _normalise(name: str) -> str:
    text = name.lower().replace("(tm)", " ").replace("(r)", " ")
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(text.split())


def _apple_peak(chip: AppleChip, gpu_cores: Optional[int]) -> Optional[Peak]:
    spec = apple_gpu_spec(chip)
    if spec is None:
        return None
    tflops = spec.tflops
    if gpu_cores and 0 < gpu_cores < spec.max_cores:
        tflops = round(spec.tflops * gpu_cores / spec.max_cores, 2)
    return tflops, float(spec.bandwidth_for(gpu_cores))


def peak_fp32(model: str, gpu_cores: Optional[int] = None) -> Optional[Peak]:
    """(peak FP32 TFLOPS, bandwidth GB/s or None) for a GPU or chip name; None if unknown."""
    if not model:
        return None
    chip = identify_apple_chip(model)
    if chip is not None:
        return _apple_peak(chip, gpu_cores)
    name = _normalise(model)
    for pattern, tflops, bandwidth in OTHER_GPUS:
        if re.search(pattern, name):
            return tflops, (float(bandwidth) if bandwidth is not None else None)
    return None
