"""`lshw -C display`: one '*-display' block per graphics device, its 'product:' (lspci's chip and marketing names,
'Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]') and 'vendor:' lines. lshw reads Linux's /proc and /sys, so the
machine runs Linux; each block is one GPU, numbered in the list's order (four identical RX 480 blocks are four GPUs).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.probe.paste.gpu_names import gpu_names

Facts = List[Tuple[str, Any]]

_BLOCK = re.compile(r"^\s*\*-display(?::\d+)?\b")
_ANY_NODE = re.compile(r"^\s*\*-[\w:.]+")  # the next node ends a block ('*-graphics': the EFI framebuffer, not a GPU)
_FIELD = re.compile(r"^\s*(product|vendor|description):\s*(\S.*?)\s*$")
_VENDORS = (("NVIDIA", "NVIDIA"), ("Advanced Micro Devices", "AMD"), ("AMD", "AMD"), ("ATI", "AMD"), ("Intel", "Intel"))


def _vendor(text: str) -> Optional[str]:
    return next((name for word, name in _VENDORS if word in text), None)


def _name(product: str, vendor: Optional[str]) -> str:
    """The GPU's name as the other readers give it: AMD's chip and bracket as lspci's ('Ellesmere [Radeon RX 470/...]',
    whose chip gives the gfx target) and Intel's codename form ('CoffeeLake-S GT2 [UHD Graphics 630]'); NVIDIA's marketing
    name ('GP107 [GeForce GTX 1050 Ti]' -> 'GeForce GTX 1050 Ti') and Intel's bare one ('HD Graphics 530 [8086:191B]' ->
    'Intel HD Graphics 530')."""
    product = re.sub(r"\s*\[[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}\]", "", product).strip()
    if vendor == "AMD" or vendor == "Intel" and "[" in product:  # Intel's codename and its bracket: 'CoffeeLake-S GT2 [...]'
        return product
    named = [n for bracket in re.findall(r"\[([^\]]+)\]", product) for n in gpu_names(bracket) or gpu_names(f"{vendor} {bracket}")]
    return (named or gpu_names(f"{vendor} {product}") or [product])[-1]


def display_blocks(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index of each block's 'product:' line -> that GPU (vendor from its 'vendor:' line), on Linux."""
    found: Dict[int, Facts] = {}
    starts = [index for index, line in enumerate(lines) if _BLOCK.match(line)]
    for number, start in enumerate(starts):
        end = next((i for i in range(start + 1, min(len(lines), start + 30)) if _ANY_NODE.match(lines[i])),
                   min(len(lines), start + 30))
        fields = {m.group(1): (index, m.group(2)) for index, m in ((i, _FIELD.match(lines[i])) for i in range(start + 1, end)) if m}
        if "product" not in fields or "vendor" not in fields or not _vendor(fields["vendor"][1]):
            continue
        index, product = fields["product"]
        vendor = _vendor(fields["vendor"][1])
        found[index] = [("platform", "linux"), ("gpu", {"name": _name(product, vendor), "vendor": vendor, "memory_mib": None,
                                                        "index": number})]
    return found
