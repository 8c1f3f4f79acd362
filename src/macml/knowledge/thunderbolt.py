"""Which Intel Macs have Thunderbolt 3, the port macOS drives eGPUs through.

Apple supports eGPUs only on Macs with Thunderbolt 3 (support.apple.com/102363, 'Use an external graphics processor
with your Mac'); older Macs (Thunderbolt 1/2: the Mac Pro 2013, iMacs to 2015/2017's 21.5-inch non-Retina, MacBook Pros
to 2015) need unsupported patches (purge-wrangler) and break with macOS updates. First model identifier with
Thunderbolt 3 per family, from Apple's tech specs (support.apple.com/specs): MacBook Pro 2016 (MacBookPro13,x),
MacBook Air 2018 (MacBookAir8,1), iMac 2017 (iMac18,x), Mac mini 2018 (Macmini8,1), Mac Pro 2019 (MacPro7,1),
iMac Pro (iMacPro1,1). The 12-inch MacBook has no Thunderbolt at all.
"""
from __future__ import annotations

import re
from typing import Optional

from macml.knowledge.hardware import model_identifier

_FIRST_WITH_TB3 = {"MacBookPro": 13, "MacBookAir": 8, "iMac": 18, "Macmini": 8, "MacPro": 7, "iMacPro": 1, "MacBook": 99}


def has_thunderbolt3(model_id: str) -> Optional[bool]:
    """'MacPro6,1' -> False, 'MacBookPro16,1' -> True; None for an unknown or Apple-silicon identifier ('Mac14,2')."""
    parts = model_identifier(model_id)
    if parts is None or parts[0] not in _FIRST_WITH_TB3:
        return None
    return parts[1] >= _FIRST_WITH_TB3[parts[0]]


# The first year each family shipped with Thunderbolt 3 (the same tech-specs pages): MacBook Pro 2016, MacBook Air
# 2018, iMac 2017, Mac mini 2018, Mac Pro 2019; every iMac Pro (2017) has it, the 12-inch MacBook never did.
_FIRST_TB3_YEAR = {"macbookpro": 2016, "macbookair": 2018, "imac": 2017, "macmini": 2018, "macpro": 2019, "imacpro": 2017,
                   "macbook": 9999}
_NAMED = re.compile(r"\b(Mac ?Book(?: ?Pro| ?Air)?|MBP|iMac(?: ?Pro)?|Mac ?mini|Mac ?Pro)\b.*?\b(20[01]\d|202\d)\b"
                    r"|\b(20[01]\d|202\d)\b\D{0,12}?\b(Mac ?Book(?: ?Pro| ?Air)?|MBP|iMac(?: ?Pro)?|Mac ?mini|Mac ?Pro)\b", re.IGNORECASE)


def name_has_thunderbolt3(name: str) -> Optional[bool]:
    """A Mac named by family and year: 'MacBook Pro 15" Late-2013' -> False, 'MacBook Pro (13-inch, 2016)' -> True,
    '2015 iMac' -> False; None without both."""
    found = _NAMED.search(name or "")
    if not found:
        return None
    family = "".join((found.group(1) or found.group(4)).split()).lower().replace("mbp", "macbookpro")
    year = int(found.group(2) or found.group(3))
    return year >= _FIRST_TB3_YEAR[family]
