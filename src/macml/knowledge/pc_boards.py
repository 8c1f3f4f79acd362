"""PC motherboard chipsets -> the CPU architecture they take.

Desktop chipset codes are x86 only: Intel's H/B/Z/Q/X series (H61 ... Z890; ark.intel.com 'Chipsets') and AMD's
A/B/X series for AM4/AM5 (A320 ... X870; amd.com 'AMD Socket AM4/AM5 Platform'). A board named with one
('ASRock H81 BTC Pro R2.0 motherboard') is an x86_64 machine (every such chipset's CPUs are 64-bit).
"""
from __future__ import annotations

import re
from typing import Optional

_BOARD_MAKERS = r"ASRock|ASUS|ASUSTeK|MSI|Gigabyte|GIGABYTE|Biostar|EVGA|NZXT|Supermicro"
_INTEL_CHIPSET = r"[HBZQ](?:[1-9]\d|[1-8]\d0)|X(?:58|79|99|299)"  # H81, B85, Z97, H110, B460, Z790, X299
_AMD_CHIPSET = r"[ABX](?:3[2-7]0|4[57]0|5[257]0|6[2-7]0|8[5-7]0)E?"  # A320, B450, X570, B650E, X870E
BOARD = re.compile(rf"\b(?:{_BOARD_MAKERS})\s+(?:\w+\s+)?((?:{_INTEL_CHIPSET}|{_AMD_CHIPSET})[A-Z]?)\b(?:[^.\n]|\.\d){{0,40}}"
                   r"\b(?:motherboard|mainboard|board)\b", re.IGNORECASE)


def board_chipset(text: str) -> Optional[str]:
    """'an ASRock H81 BTC Pro R2.0 motherboard' -> 'H81'; None when no maker's board with a desktop chipset is named."""
    found = BOARD.search(text)
    return found.group(1).upper() if found else None


_CHIPSET_WORD = re.compile(rf"(?<![\w.])((?:{_INTEL_CHIPSET}|{_AMD_CHIPSET}))(?:[A-Z]{{0,2}}|-\w+)?(?![\w.])", re.IGNORECASE)
_NVIDIA_NAMES = {"H20", "H100", "H200", "H800", "B100", "B200", "B300"}  # GPUs, not chipsets
_NOT_A_BOARD = re.compile(r"\b(?:NVIDIA|HGX|DGX|GPU|Tesla|Radeon|GeForce|Jetson|Raspberry|Apple|Mac)\b", re.IGNORECASE)


def keyed_chipset(value: str) -> Optional[str]:
    """A motherboard field's answer ('X870E', 'ASUS ROG STRIX B550-XE', 'MSI MAG B650 Tomahawk') -> its desktop
    chipset; None for anything else (an NVIDIA HGX board, a Raspberry Pi)."""
    if _NOT_A_BOARD.search(value):
        return None
    found = _CHIPSET_WORD.search(value)
    return found.group(1).upper() if found and found.group(1).upper() not in _NVIDIA_NAMES else None
