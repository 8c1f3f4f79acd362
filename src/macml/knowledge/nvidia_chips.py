"""NVIDIA GPU chips (the code lspci, inxi and pci.ids print before a board's name: 'GF108 [GeForce GT 730]')
-> the CUDA compute capability every board on that chip has.

A board name alone can be ambiguous where the chip is not: a GeForce GT 730 is a GF108 (Fermi, 2.1) or a GK208
(Kepler, 3.5); the chip settles it. Source: NVIDIA's CUDA GPUs list (developer.nvidia.com/cuda-gpus) and the CUDA
C Programming Guide's compute-capability tables, joined to chips by the PCI ID Repository (pci-ids.ucw.cz), which
names each board's chip. A chip code may carry a suffix for its variant: M (mobile), GL (workstation), GLM, B, BM,
S, BGL, C, CM, which do not change the capability.
"""
from __future__ import annotations

import re
from typing import Optional

CHIP_CAPABILITIES = {
    # Tesla: G80 1.0; G84-G98 and the chipset GPUs (MCP7x/C7x: GeForce 9400M, ION) 1.1; GT21x 1.2; GT200 1.3
    "G80": "1.0", "G84": "1.1", "G86": "1.1", "G92": "1.1", "G94": "1.1", "G96": "1.1", "G98": "1.1",
    "MCP79": "1.1", "C79": "1.1", "MCP89": "1.2",
    "GT215": "1.2", "GT216": "1.2", "GT218": "1.2", "GT200": "1.3",
    # Fermi: GF100/GF110 2.0, the rest 2.1
    "GF100": "2.0", "GF110": "2.0", "GF104": "2.1", "GF106": "2.1", "GF108": "2.1", "GF114": "2.1", "GF116": "2.1",
    "GF117": "2.1", "GF119": "2.1",
    # Kepler
    "GK104": "3.0", "GK106": "3.0", "GK107": "3.0", "GK20A": "3.2", "GK110": "3.5", "GK208": "3.5", "GK210": "3.7",
    # Maxwell
    "GM107": "5.0", "GM108": "5.0", "GM200": "5.2", "GM204": "5.2", "GM206": "5.2", "GM20B": "5.3",
    # Pascal
    "GP100": "6.0", "GP102": "6.1", "GP104": "6.1", "GP106": "6.1", "GP107": "6.1", "GP108": "6.1", "GP10B": "6.2",
    # Volta, Turing
    "GV100": "7.0", "GV10B": "7.2",
    "TU102": "7.5", "TU104": "7.5", "TU106": "7.5", "TU116": "7.5", "TU117": "7.5",
    # Ampere, Ada, Hopper, Blackwell
    "GA100": "8.0", "GA102": "8.6", "GA103": "8.6", "GA104": "8.6", "GA106": "8.6", "GA107": "8.6", "GA10B": "8.7",
    "AD102": "8.9", "AD103": "8.9", "AD104": "8.9", "AD106": "8.9", "AD107": "8.9",
    "GH100": "9.0",
    "GB100": "10.0", "GB102": "10.0",
    "GB202": "12.0", "GB203": "12.0", "GB205": "12.0", "GB206": "12.0", "GB207": "12.0",
}

_CHIP_CODE = re.compile(r"^(G[FKMPV]\d{2}[0-9AB]|GT2\d{2}|G[89]\d|TU1\d{2}|G[AH]10[0-9B]|AD10\d|GB[12]0\d|MCP[78]9|C79)"
                        r"(?:B|M|BM|GL|GLM|S|GLS|GLX|BGL|C|CM)?$")


def chip_capability(code: str) -> Optional[str]:
    """'GF108' -> '2.1'; 'GK208BM' -> '3.5'; 'GA102GL' -> '8.6'; None for a code the table does not hold."""
    found = _CHIP_CODE.match(code.strip().upper())
    return CHIP_CAPABILITIES.get(found.group(1)) if found else None
