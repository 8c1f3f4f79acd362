"""GeForce models whose memory size is part of the product's name, because NVIDIA sold the number in variants that
differ in more than memory (other chips or core counts). Source: the PCI ID repository's NVIDIA list,
https://pci-ids.ucw.cz/read/PC/10de ('GP106 [GeForce GTX 1060 3GB]', 'GP106 [GeForce GTX 1060 6GB]',
'GP106 [GeForce GTX 1060 5GB]', 'GP107 [GeForce GTX 1050 3GB]', 'TU106 [GeForce RTX 2060 12GB]',
'GA107 [GeForce RTX 3050 6GB]'). Elsewhere a size written after a GeForce ('RTX5080 16GB') is the card's memory,
not its name.
"""
from __future__ import annotations

import re
from typing import Dict, FrozenSet, Optional

SIZED_MODELS: Dict[str, FrozenSet[int]] = {
    "1060": frozenset({3, 5, 6}),
    "1050": frozenset({3}),
    "2060": frozenset({12}),
    "3050": frozenset({6}),
}
# a consumer GeForce as people write it ('RTX5080', 'nvidia GTX 1060', 'Nvidia 1060'), then a size
_GEFORCE = re.compile(r"^(?:nvidia\s+)?(?:geforce\s+)?(?:(?:rtx|gtx)\s?-?)?(\d{4})(\s?(?:ti|super))?$", re.IGNORECASE)
_SIZE = re.compile(r"^(.*?\S)\s?(\d{1,2})\s?G(?:i?B)?$", re.IGNORECASE)  # '16GB', and '6G' as Chinese lists write it


def _number(name: str) -> Optional[str]:
    found = _GEFORCE.match(name.strip())
    return found.group(1) if found and not found.group(2) else (found.group(1) + "+" if found else None)


def sized_name(name: str, text: str) -> str:
    """The model name a GeForce written with a size has: 'RTX5080 16GB' -> 'RTX5080', 'RTX3060 6G' -> 'RTX3060';
    'Nvidia 1060' in 'GPU : Nvidia 1060 3GB' -> 'Nvidia 1060 3GB'. Other names are returned unchanged."""
    sized = _SIZE.match(name.strip())
    if sized:
        number = _number(sized.group(1))
        if number is None or int(sized.group(2)) in SIZED_MODELS.get(number, frozenset()):
            return name
        return sized.group(1)
    number = _number(name)
    after = re.search(re.escape(name.strip()) + r"\s?(\d{1,2})\s?GB\b", text, re.IGNORECASE)
    if number and after and int(after.group(1)) in SIZED_MODELS.get(number, frozenset()):
        return f"{name.strip()} {after.group(1)}GB"
    return name
