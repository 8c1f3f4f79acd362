"""Intel Macs whose only GPU is the CPU's integrated one, by model identifier, named as System Information's
'Chipset Model' names it. Only identifiers sold in one graphics configuration are listed (Macmini7,1 came with HD
Graphics 5000 or Iris 5100, iMac16,1 with HD 6000 or Iris 6100: left out).

Source: Apple's technical specifications per model (support.apple.com/specs: 'Graphics' of each MacBook Pro, MacBook
Air, MacBook, Mac mini and iMac), matched to identifiers by Apple's 'Identify your MacBook Pro / MacBook Air /
MacBook / Mac mini / iMac model' pages (support.apple.com/102869, /102869-air, /103257, /102852, /108054).
"""
from __future__ import annotations

from typing import Optional

MAC_INTEGRATED_GPU = {
    "MacBookPro8,1": "Intel HD Graphics 3000", "MacBookPro9,2": "Intel HD Graphics 4000",
    "MacBookPro10,2": "Intel HD Graphics 4000", "MacBookPro11,1": "Intel Iris", "MacBookPro11,2": "Intel Iris Pro",
    "MacBookPro11,4": "Intel Iris Pro", "MacBookPro12,1": "Intel Iris Graphics 6100",
    "MacBookPro13,1": "Intel Iris Graphics 540", "MacBookPro13,2": "Intel Iris Graphics 550",
    "MacBookPro14,1": "Intel Iris Plus Graphics 640", "MacBookPro14,2": "Intel Iris Plus Graphics 650",
    "MacBookPro15,2": "Intel Iris Plus Graphics 655", "MacBookPro15,4": "Intel Iris Plus Graphics 645",
    "MacBookPro16,3": "Intel Iris Plus Graphics 645", "MacBookPro16,2": "Intel Iris Plus Graphics",
    "MacBookAir4,1": "Intel HD Graphics 3000", "MacBookAir4,2": "Intel HD Graphics 3000",
    "MacBookAir5,1": "Intel HD Graphics 4000", "MacBookAir5,2": "Intel HD Graphics 4000",
    "MacBookAir6,1": "Intel HD Graphics 5000", "MacBookAir6,2": "Intel HD Graphics 5000",
    "MacBookAir7,1": "Intel HD Graphics 6000", "MacBookAir7,2": "Intel HD Graphics 6000",
    "MacBookAir8,1": "Intel UHD Graphics 617", "MacBookAir8,2": "Intel UHD Graphics 617",
    "MacBookAir9,1": "Intel Iris Plus Graphics", "MacBook8,1": "Intel HD Graphics 5300",
    "MacBook9,1": "Intel HD Graphics 515", "MacBook10,1": "Intel HD Graphics 615",
    "Macmini6,1": "Intel HD Graphics 4000", "Macmini6,2": "Intel HD Graphics 4000", "Macmini8,1": "Intel UHD Graphics 630",
    "iMac16,2": "Intel Iris Pro Graphics 6200", "iMac18,1": "Intel Iris Plus Graphics 640",
}
SOURCE = "Apple's technical specifications of that model (its only GPU)"


def mac_integrated_gpu(identifier: str) -> Optional[str]:
    """'MacBookPro11,4' -> 'Intel Iris Pro'; a Mac with a discrete GPU, several options or Apple silicon -> None."""
    return MAC_INTEGRATED_GPU.get((identifier or "").strip())
