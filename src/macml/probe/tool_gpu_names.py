"""A name for a GPU a tool listed without one, from the text around it.

rocm-smi's plain table numbers its cards ('1    25.0c  10.0W ...') and names none, so the probe calls such a card
'AMD GPU 1'. When the writer names their one AMD GPU in the same text ('this is the output for my GPU (Vega 10 XT)
of rocm-smi'), that is the card: the only AMD GPU listed takes the only AMD GPU named as the writer's own.
Likewise a GPU a tool names by its vendor alone (inxi's 'Device-1: AMD driver: amdgpu'), the only one of that vendor,
takes the only model of that vendor another line names ('renderer: AMD Radeon 890M Graphics'). Several numbered cards
take the one model lspci lists once per card ('Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]' on two lines for two
rocm-smi rows), with the gfx target that model has.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Dict, List, Sequence

from macml.facts import GPU
from macml.knowledge.pci_ids import nvidia_device_capability, nvidia_device_name
from macml.probe.paste.gpu_names import gpu_vendor
from macml.probe.statement_source import Statement, where

_PLACEHOLDER = re.compile(r"^AMD GPU \d+$")


_VENDOR_ONLY = re.compile(r"^\s*(?:AMD|ATI|AMD/ATI|Advanced Micro Devices(?:, Inc\.)?(?: \[AMD/ATI\])?|NVIDIA(?: Corporation)?|"
                          r"Intel(?: Corporation)?)\s*$", re.IGNORECASE)


def name_unnamed_amd(gpus: List[GPU], statements: Sequence[Statement], sources: Dict[str, str]) -> List[GPU]:
    """[GPU('AMD GPU 1')] + the statement 'gpu.owned Vega 10 XT (AMD)' -> [GPU('Vega 10 XT')]."""
    owned = {str(s["value"].get("name")): s for s in statements
             if s.get("fact") == "gpu.owned" and s["value"].get("vendor") == "AMD" and s["value"].get("name")}
    return _one_model_per_card(_the_one_named(gpus, "AMD", _PLACEHOLDER, owned, sources), statements, sources)


def _one_model_per_card(gpus: List[GPU], statements: Sequence[Statement], sources: Dict[str, str]) -> List[GPU]:
    """N numbered AMD cards, and N AMD GPU records of one model elsewhere (lspci's lines): each card is that model."""
    listed = [i for i, g in enumerate(gpus) if g.vendor == "AMD"]
    records = [s for s in statements if s.get("fact") == "gpu" and s["value"].get("vendor") == "AMD"]
    names = {str(s["value"].get("name")) for s in records}
    if len(listed) < 2 or len(records) != len(listed) or len(names) != 1 or \
            not all(_PLACEHOLDER.match(gpus[i].model or "") for i in listed):
        return gpus
    gfx = {str(s["value"]) for s in statements if s.get("fact") == "gpu.gfx"}
    name = re.sub(r"^Advanced Micro Devices, Inc\. \[AMD/ATI\]\s*", "", names.pop())  # lspci's vendor words
    sources["gpus.model"] = where(records[0])
    return [dataclasses.replace(g, model=name, compute_capability=g.compute_capability or (next(iter(gfx)) if len(gfx) == 1
                                                                                            else None))
            if i in listed else g for i, g in enumerate(gpus)]


def name_vendor_only(gpus: List[GPU], statements: Sequence[Statement], sources: Dict[str, str]) -> List[GPU]:
    """[GPU('AMD')] + the statement 'gpu.mention AMD Radeon 890M Graphics' -> [GPU('AMD Radeon 890M Graphics')]."""
    for vendor in sorted({g.vendor for g in gpus}):
        named = {str(s["value"]): s for s in statements if s.get("fact") == "gpu.mention"
                 and gpu_vendor(str(s["value"])) == vendor and not _VENDOR_ONLY.match(str(s["value"]))}
        gpus = _the_one_named(gpus, vendor, _VENDOR_ONLY, named, sources)
    return gpus


def _the_one_named(gpus: List[GPU], vendor: str, unnamed: "re.Pattern[str]", named: Dict[str, Statement],
                   sources: Dict[str, str]) -> List[GPU]:
    """The vendor's only GPU, listed under a name `unnamed` matches, takes the only name in `named`."""
    listed = [i for i, g in enumerate(gpus) if g.vendor == vendor]
    if len(listed) != 1 or not unnamed.match(gpus[listed[0]].model or "") or len(named) != 1:
        return gpus
    name, stated = next(iter(named.items()))
    sources[f"gpus.{listed[0]}.model"] = where(stated)
    return [dataclasses.replace(g, model=name) if i == listed[0] else g for i, g in enumerate(gpus)]


_PCI_PLACEHOLDER = re.compile(r"^NVIDIA Corporation Device ([0-9a-f]{4})$")


def name_by_pci_id(gpus: List[GPU], sources: Dict[str, str]) -> List[GPU]:
    """[GPU('NVIDIA Corporation Device 1db6')] (lspci with a pci.ids older than the board) -> [GPU('Tesla V100 PCIe
    32GB')], with its chip's capability: the PCI ID names the board (knowledge/pci_ids.py)."""
    named: List[GPU] = []
    for index, gpu in enumerate(gpus):
        found = _PCI_PLACEHOLDER.match(gpu.model or "")
        board = nvidia_device_name(found.group(1)) if found else None
        if board:
            sources[f"gpus.{index}.model"] = f"PCI ID 10de:{found.group(1)} in the PCI ID Repository, for lspci's '{gpu.model}'"
            gpu = dataclasses.replace(gpu, model=board, compute_capability=gpu.compute_capability
                                      or nvidia_device_capability(found.group(1)))
        named.append(gpu)
    return named
