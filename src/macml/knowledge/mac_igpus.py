"""Intel Macs whose only GPU is the CPU's integrated one, by model identifier, named as System Information's
'Chipset Model' names it. Only identifiers sold in one graphics configuration are listed (Macmini7,1 came with HD
Graphics 5000 or Iris 5100, iMac16,1 with HD 6000 or Iris 6100: left out).

Source: Apple's technical specifications per model (support.apple.com/specs: 'Graphics' of each MacBook Pro, MacBook
Air, MacBook, Mac mini and iMac), matched to identifiers by Apple's 'Identify your MacBook Pro / MacBook Air /
MacBook / Mac mini / iMac model' pages (support.apple.com/102869, /102869-air, /103257, /102852, /108054).
"""
from __future__ import annotations

import re
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


# Intel Macs every configuration of which has a discrete AMD GPU (the model varies with the order, so only the vendor
# is known), from the same specifications pages: the 15-inch MacBook Pro 2015 with R9 M370X (11,5), 2016-2019 (13,3,
# 14,3, 15,1, 15,3), the 16-inch 2019 (16,1, 16,4); the 27-inch iMac 5K 2014-2020 (15,1, 17,1, 18,3, 19,1, 20,1, 20,2),
# the 21.5-inch iMac 4K 2017/2019 (18,2, 19,2), the iMac Pro (iMacPro1,1) and the Mac Pro 2013 and 2019 (6,1, 7,1).
MAC_AMD_GPU = frozenset({
    "MacBookPro11,5", "MacBookPro13,3", "MacBookPro14,3", "MacBookPro15,1", "MacBookPro15,3", "MacBookPro16,1",
    "MacBookPro16,4", "iMac15,1", "iMac17,1", "iMac18,2", "iMac18,3", "iMac19,1", "iMac19,2", "iMac20,1", "iMac20,2",
    "iMacPro1,1", "MacPro6,1", "MacPro7,1",
})
AMD_SOURCE = "Apple's technical specifications of that model (every configuration has an AMD GPU)"

# Intel Macs sold with one of two Intel integrated GPUs and nothing else (the same pages): the Mac mini (Late 2014)
# with HD Graphics 5000 or Iris Graphics 5100, the 21.5-inch iMac (Late 2015) with Iris Graphics 6100 or Iris Pro 6200.
MAC_INTEL_ONLY = frozenset({"Macmini7,1", "iMac16,1"})
INTEL_ONLY_SOURCE = "Apple's technical specifications of that model (every configuration has only Intel graphics)"


def mac_intel_only(identifier: str) -> bool:
    return (identifier or "").strip() in MAC_INTEL_ONLY


# The Mac Pro 2013 has two (its FirePro D300, D500 or D700 pair: the same specifications page); every other Mac of
# MAC_AMD_GPU has one.
MAC_AMD_GPU_COUNT = {"MacPro6,1": 2}


def mac_amd_gpu_count(identifier: str) -> int:
    return MAC_AMD_GPU_COUNT.get(identifier, 1)


# The same Macs by the name Apple's 'Identify your iMac / MacBook Pro model' pages give them (support.apple.com/108054,
# /102869): every 'iMac (Retina 5K, 27-inch, ...)' (Late 2014 to 2020; the 2021 iMac is '24-inch, M1'), the Retina 4K
# 21.5-inch iMacs of 2017 and 2019 (not Late 2015's, Iris Pro only), the 15-inch MacBook Pros of 2016-2019 and the
# 16-inch of 2019, the iMac Pro, and the Mac Pro (Late 2013) and (2019).
_MAC_NAME_AMD = re.compile(r"\biMac\b[^.;]{0,12}?\bRetina 5K\b|\biMac\b[^.;]{0,6}?\bRetina 4K, 21\.5-inch, 20(?:17|19)\b"
                           r"|\bMacBook Pro\s*\((?:Retina, )?(?:15-inch,[^)]*20(?:1[6-9])|16-inch, 2019)\)"
                           r"|\biMac Pro\b|\bMac Pro\s*\((?:Late 2013|2019)\)", re.IGNORECASE)


def mac_name_has_amd_gpu(name: str) -> bool:
    """'iMac (Retina 5K, 27-inch, 2020)' -> True; 'iMac (21.5-inch, 2017)' -> False (Intel graphics only)."""
    return bool(_MAC_NAME_AMD.search(name or ""))


def mac_has_amd_gpu(identifier: str) -> bool:
    """'MacBookPro15,1' -> True: an AMD GPU is in every one of these Macs, whichever model it is."""
    return identifier in MAC_AMD_GPU


# The CPU's own GPU beside the AMD one in the MacBook Pros of MAC_AMD_GPU (the same specifications pages list both:
# 'Intel Iris Pro Graphics' in the 15-inch 2015, 'Intel HD Graphics 530' in 2016, 630 in 2017, 'Intel UHD Graphics
# 630' in 2018-2019 and the 16-inch); the iMacs' and Mac Pros' pages list only the AMD GPU.
MAC_IGPU_BESIDE_AMD = {
    "MacBookPro11,5": "Intel Iris Pro", "MacBookPro13,3": "Intel HD Graphics 530", "MacBookPro14,3": "Intel HD Graphics 630",
    "MacBookPro15,1": "Intel UHD Graphics 630", "MacBookPro15,3": "Intel UHD Graphics 630",
    "MacBookPro16,1": "Intel UHD Graphics 630", "MacBookPro16,4": "Intel UHD Graphics 630",
}


BESIDE_AMD_SOURCE = "Apple's technical specifications of that model (its integrated GPU, beside the AMD one)"


def mac_igpu_beside_amd(identifier: str) -> Optional[str]:
    """'MacBookPro15,3' -> 'Intel UHD Graphics 630'; a Mac with only the AMD GPU listed -> None."""
    return MAC_IGPU_BESIDE_AMD.get((identifier or "").strip())
