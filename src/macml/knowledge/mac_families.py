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


def family_tiers(family: str) -> Optional[Tuple[str, ...]]:
    """'MacBook Air' -> ('',); 'Macbook Pro' -> ('', 'Pro', 'Max'); 'iMac Pro' (Intel only) -> None."""
    key = re.sub(r"\s+", " ", re.sub(r"(?i)^mac\s?book", "macbook ", family.strip())).strip().lower()
    key = re.sub(r"^mac ?mini$", "mac mini", key)
    return MAC_FAMILY_TIERS.get(key)


def only_plain_chip(family: str) -> bool:
    """A Mac family sold only with the plain chip of each generation: naming 'M2' there names the Apple M2."""
    return family_tiers(family) == ("",)
