"""AMD GPUs' gfx targets and external GPUs, where the text states them apart from the GPU's own line: a gfx target
said once for the AMD GPUs a tool listed without one, a GPU name that gives its target, an APU's Vega by its Ryzen,
and a GPU the text calls external."""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, Mapping, Tuple

from macml.facts import GPU
from macml.knowledge.amd_apus import apu_gfx, igpu_gfx
from macml.knowledge.amd_gfx import radeon_target


def stated_gfx(gpus: Tuple[GPU, ...], snapshot: Mapping[str, Any], sources: Dict[str, str],
                brand: str = "") -> Tuple[GPU, ...]:
    """A GPU the text calls external ('an external NVIDIA GeForce RTX 4070'); a gfx target the text states once
    ('Navi 22' in rocm-smi's cut name is gfx1031) for the AMD GPUs a tool listed without one (not where it names two)."""
    for said in (s for s in snapshot.get("statements") or () if s.get("fact") == "gpu.external"):
        named = " ".join(re.sub(r"\b(?:nvidia|geforce|amd)\b", " ", str(said["value"]).lower()).split())
        gpus = tuple(dataclasses.replace(g, external=True) if " ".join(re.sub(
            r"\b(?:nvidia|geforce|amd)\b", " ", g.model.lower()).split()) == named else g for g in gpus)
        sources["egpu"] = f"line {said.get('line')}: {str(said.get('text'))[:120]}"
    stated = [s for s in snapshot.get("statements") or () if s.get("fact") == "gpu.gfx"]
    if len({s["value"] for s in stated}) != 1:
        return tuple(_named_gfx(g, index, sources, brand) for index, g in enumerate(gpus))
    out = []
    several_amd = sum(1 for g in gpus if g.vendor == "AMD") > 1  # then only the GPU the gfx line names
    for index, gpu in enumerate(gpus):
        if gpu.vendor == "AMD" and not gpu.compute_capability and (not several_amd or gpu.model in str(stated[0].get("text"))):
            gpu = dataclasses.replace(gpu, compute_capability=stated[0]["value"])
            sources[f"gpus.{index}.compute_capability"] = f"line {stated[0].get('line')}: {str(stated[0].get('text'))[:120]}"
        out.append(_named_gfx(gpu, index, sources, brand))  # another AMD GPU's name may give its own
    return tuple(out)


def _named_gfx(gpu: GPU, index: int, sources: Dict[str, str], brand: str) -> GPU:
    """An AMD GPU whose name alone gives its gfx target ('AMD RX 580' is Polaris, gfx803; 'AMD Radeon 780M', an APU's,
    gfx1103), or an APU's 'Vega 8', whose Ryzen's model gives it (a 2500U's is gfx902)."""
    target = (radeon_target(gpu.model) or igpu_gfx(gpu.model)) if gpu.vendor == "AMD" and not gpu.compute_capability else None
    if target:
        sources[f"gpus.{index}.compute_capability"] = f"GPU-name table: {gpu.model} compiles for {target}"
        return dataclasses.replace(gpu, compute_capability=target)
    apu = apu_gfx(brand) if gpu.vendor == "AMD" and not gpu.compute_capability and _APU_VEGA.search(gpu.model) else None
    if apu:
        sources[f"gpus.{index}.compute_capability"] = f"{gpu.model} is the integrated GPU of the {brand}: {apu}"
        return dataclasses.replace(gpu, compute_capability=apu)
    return gpu


_APU_VEGA = re.compile(r"\bvega\s?(?:3|6|7|8|9|11)\b", re.IGNORECASE)
