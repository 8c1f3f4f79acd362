"""Which Apple-silicon chip tiers each Mac family was sold with, M1 to M4 generations.

Sources: apple.com/mac/compare and each model's tech-specs page (support.apple.com/specs): the MacBook Air and
the iMac only ever had the plain chip (M1, M2, M3, M4); the Mac mini the plain chip or the Pro (M2 Pro, M4 Pro);
the MacBook Pro the plain chip, Pro or Max; the Mac Studio Max or Ultra; the Mac Pro (2023) the M2 Ultra.
So 'MacBook Air M2' names the Apple M2, while 'MacBook Pro M3' may be any M3 tier.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

MAC_FAMILY_TIERS = {
    "macbook air": ("",),
    "imac": ("",),
    "mac mini": ("", "Pro"),
    "macbook pro": ("", "Pro", "Max"),
    "mac studio": ("Max", "Ultra"),
    "mac pro": ("Ultra",),
}

# Generations where a family had fewer tiers than above: the Mac mini (M1, 2020) came only with the plain M1
# (support.apple.com/kb/SP823); the M1 Pro and Max were sold only in MacBook Pros. The Mac Studio (2025) came with an
# M4 Max or an M3 Ultra, so its M3 is the Ultra and its M4 the Max (support.apple.com, Mac Studio (2025) Tech Specs).
MAC_FAMILY_GENERATION_TIERS = {("mac mini", 1): ("",), ("mac studio", 3): ("Ultra",), ("mac studio", 4): ("Max",)}


def family_tiers(family: str, generation: Optional[int] = None) -> Optional[Tuple[str, ...]]:
    """'MacBook Air' -> ('',); 'Macbook Pro' -> ('', 'Pro', 'Max'); 'iMac Pro' (Intel only) -> None."""
    key = re.sub(r"\s+", " ", re.sub(r"(?i)^mac\s?book", "macbook ", family.strip())).strip().lower()
    key = re.sub(r"^mac ?mini$", "mac mini", key)
    return MAC_FAMILY_GENERATION_TIERS.get((key, generation)) or MAC_FAMILY_TIERS.get(key)


def only_tier(family: str, generation: int) -> Optional[str]:
    """The one tier a family was sold with in that generation: ('Mac Studio', 3) -> 'Ultra', ('MacBook Air', 2) -> ''."""
    tiers = family_tiers(family, generation)
    return tiers[0] if tiers is not None and len(tiers) == 1 else None


def only_plain_chip(family: str, generation: Optional[int] = None) -> bool:
    """A Mac family sold only with the plain chip of that generation (of each, without one): naming 'M2' there names
    the Apple M2; 'M1 Mac mini' names the Apple M1."""
    return family_tiers(family, generation) == ("",)


# Unified-memory sizes (GB) each Apple chip was sold with in Macs. Source: Apple's Tech Specs pages of each Mac
# (support.apple.com/specs: MacBook Air/Pro, Mac mini, iMac, Mac Studio, Mac Pro), M1 to M4 generations; a
# generation is listed only where all its tiers are known.
APPLE_CHIP_MEMORY_GB = {
    "M1": frozenset({8, 16}), "M1 Pro": frozenset({16, 32}), "M1 Max": frozenset({32, 64}),
    "M1 Ultra": frozenset({64, 128}),
    "M2": frozenset({8, 16, 24}), "M2 Pro": frozenset({16, 32}), "M2 Max": frozenset({32, 64, 96}),
    "M2 Ultra": frozenset({64, 128, 192}),
    "M3": frozenset({8, 16, 24}), "M3 Pro": frozenset({18, 36}), "M3 Max": frozenset({36, 48, 64, 96, 128}),
    "M3 Ultra": frozenset({96, 256, 512}),
    "M4": frozenset({16, 24, 32}), "M4 Pro": frozenset({24, 48, 64}), "M4 Max": frozenset({36, 48, 64, 128}),
}


def chip_by_memory(generation: int, memory_gb: int) -> Optional[str]:
    """(2, 24) -> 'M2': only the plain M2 came with 24 GB; (4, 24) -> None (the M4 and M4 Pro both did)."""
    tiers = [chip for chip in APPLE_CHIP_MEMORY_GB if chip.split()[0] == f"M{generation}"]
    sold = [chip for chip in tiers if memory_gb in APPLE_CHIP_MEMORY_GB[chip]]
    return sold[0] if len(sold) == 1 else None


# Years in which an Apple chip generation reached Macs only as the plain chip: the M1 in November 2020 (the M1 Pro
# and M1 Max followed in October 2021: apple.com/newsroom/2021/10/introducing-m1-pro-and-m1-max), the M2 in
# June 2022 (the M2 Pro and M2 Max followed in January 2023: apple.com/newsroom/2023/01/apple-unveils-m2-pro-and-m2-max).
# The M3 and M4 tiers reached Macs together (apple.com/newsroom/2023/10, 2024/10), so no year settles them.
PLAIN_ONLY_YEARS = {1: frozenset({2020}), 2: frozenset({2022})}


# Metal's GPU architecture name (MTLDevice.architecture.name, which MLX's device_info prints as 'architecture'):
# 'applegpu_g' + a generation number + a tier letter. Read from pasted device_info dicts that also name the chip:
# g13g 'Apple M1', g16g 'Apple M4', g16s 'Apple M4 Pro', g13s 'Apple M1 Max', g17s 'Apple M5 Max', g15d
# 'Apple M3 Ultra' (ml-explore/mlx issues and READMEs). So g13 is the M1 generation and each step one more; 'g' is the
# plain chip and 'd' the Ultra, while 's' is a Pro or a Max (which one the name does not say). 'p' is an iPhone or
# iPad chip (an A-series GPU), not a Mac.
_METAL_ARCHITECTURE = re.compile(r"\bapplegpu_g(1[3-9]|[2-9]\d)([a-z])\b")
_METAL_TIERS = {"g": "", "d": "Ultra"}


def metal_architecture_chip(text: str) -> Optional[Tuple[int, Optional[str]]]:
    """'applegpu_g14d' -> (2, 'Apple M2 Ultra'); 'applegpu_g16s' -> (4, None): an M4 Pro or Max; a phone's -> None."""
    found = _METAL_ARCHITECTURE.search(text)
    if not found or found.group(2) == "p":
        return None
    generation = int(found.group(1)) - 12
    tier = _METAL_TIERS.get(found.group(2))
    return generation, (None if tier is None else f"Apple M{generation} {tier}".strip())
