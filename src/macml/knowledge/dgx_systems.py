"""NVIDIA DGX systems -> the GPUs in one and the CPU's arch.

Sources: NVIDIA's datasheets and user guides (docs.nvidia.com/dgx/): DGX-2 16x Tesla V100 32GB, dual Xeon Platinum
8168; DGX Station 4x Tesla V100, Xeon E5-2698 v4; DGX Station A100 4x A100, AMD EPYC 7742; DGX A100 8x A100 (40GB or
80GB), dual AMD EPYC 7742; DGX H100 8x H100 SXM5 80GB and DGX H200 8x H200, dual Xeon Platinum 8480C; DGX B200 8x
B200, dual Xeon Platinum 8570; DGX Spark one GB10 Grace Blackwell superchip (Arm, DGX OS). DGX-1 is left out: it
shipped with P100s and later V100s, so the name alone does not give the model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class DGXSystem:
    name: str  # 'DGX A100'
    gpu: str  # 'A100'
    gpus: int
    arch: str  # 'x86_64' or 'aarch64'


_SYSTEMS = {
    "2": DGXSystem("DGX-2", "V100", 16, "x86_64"),
    "station": DGXSystem("DGX Station", "V100", 4, "x86_64"),
    "station a100": DGXSystem("DGX Station A100", "A100", 4, "x86_64"),
    "a100": DGXSystem("DGX A100", "A100", 8, "x86_64"),
    "h100": DGXSystem("DGX H100", "H100", 8, "x86_64"),
    "h200": DGXSystem("DGX H200", "H200", 8, "x86_64"),
    "b200": DGXSystem("DGX B200", "B200", 8, "x86_64"),
    "spark": DGXSystem("DGX Spark", "GB10", 1, "aarch64"),
}
DGX_NAME = re.compile(r"\bDGX[- ]?(Station(?:\s+A100)?|A100|H100|H200|B200|Spark|2)(?![\w.-])", re.IGNORECASE)


def dgx_system(name: str) -> Optional[DGXSystem]:
    """'DGX A100' / 'dgx-a100' / 'DGX Station' -> that system; 'DGX-1', 'DGX Cloud' -> None."""
    found = DGX_NAME.fullmatch(name.strip())
    return _SYSTEMS.get(" ".join(found.group(1).lower().split())) if found else None
