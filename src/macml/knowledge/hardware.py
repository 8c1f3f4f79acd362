"""Lookup tables that turn a name into a hardware fact: Mac model identifier -> chip, NVIDIA GPU
name -> compute capability. Pure data; each table cites where it comes from.
"""
from __future__ import annotations

import re
from typing import Dict, Optional, Tuple

# Mac model identifier -> Apple-silicon chip. Source: Apple's "Identify your Mac" pages
# (support.apple.com/102869 MacBook Pro, /102869-air MacBook Air, /102852 Mac mini, /108054 iMac,
# /102231 Mac Studio, /102887 Mac Pro), cross-checked with everymac.com's identifier index.
# Only identifiers with a single chip tier are listed; others fall back to the family rules below.
MAC_MODEL_CHIPS: Dict[str, str] = {
    # M1 (2020-2021)
    "MacBookAir10,1": "Apple M1", "MacBookPro17,1": "Apple M1", "Macmini9,1": "Apple M1",
    "iMac21,1": "Apple M1", "iMac21,2": "Apple M1",
    "MacBookPro18,1": "Apple M1 Pro", "MacBookPro18,3": "Apple M1 Pro",
    "MacBookPro18,2": "Apple M1 Max", "MacBookPro18,4": "Apple M1 Max",
    "Mac13,1": "Apple M1 Max", "Mac13,2": "Apple M1 Ultra",
    # M2 (2022-2023)
    "Mac14,2": "Apple M2", "Mac14,7": "Apple M2", "Mac14,3": "Apple M2", "Mac14,15": "Apple M2",
    "Mac14,12": "Apple M2 Pro", "Mac14,9": "Apple M2 Pro", "Mac14,10": "Apple M2 Pro",
    "Mac14,5": "Apple M2 Max", "Mac14,6": "Apple M2 Max", "Mac14,13": "Apple M2 Max",
    "Mac14,14": "Apple M2 Ultra", "Mac14,8": "Apple M2 Ultra",
    # M3 (2023-2025)
    "Mac15,3": "Apple M3", "Mac15,4": "Apple M3", "Mac15,5": "Apple M3", "Mac15,12": "Apple M3",
    "Mac15,13": "Apple M3", "Mac15,6": "Apple M3 Pro", "Mac15,7": "Apple M3 Pro",
    "Mac15,8": "Apple M3 Max", "Mac15,9": "Apple M3 Max", "Mac15,10": "Apple M3 Max", "Mac15,11": "Apple M3 Max",
    "Mac15,14": "Apple M3 Ultra",
    # M4 (2024-2025)
    "Mac16,1": "Apple M4", "Mac16,2": "Apple M4", "Mac16,3": "Apple M4", "Mac16,10": "Apple M4",
    "Mac16,12": "Apple M4", "Mac16,13": "Apple M4",
    "Mac16,7": "Apple M4 Pro", "Mac16,8": "Apple M4 Pro", "Mac16,11": "Apple M4 Pro",
    "Mac16,5": "Apple M4 Max", "Mac16,6": "Apple M4 Max", "Mac16,9": "Apple M4 Max",
}
# Models Apple sold with one GPU configuration only, and its GPU core count (Apple's tech specs pages,
# support.apple.com/specs: e.g. 'MacBook Air (15-inch, M2, 2023)': 'Apple M2 chip ... 10-core GPU'). Models sold in
# two GPU bins (the 13-inch Airs, the iMacs, every Pro/Max/Ultra Mac) are left out: their model does not settle it.
MAC_MODEL_GPU_CORES: Dict[str, int] = {
    "MacBookPro17,1": 8, "Macmini9,1": 8,  # 13-inch MacBook Pro (M1, 2020), Mac mini (M1, 2020)
    "Mac14,7": 10, "Mac14,3": 10, "Mac14,15": 10,  # 13-inch MacBook Pro (M2), Mac mini (M2), 15-inch MacBook Air (M2)
    "Mac15,3": 10, "Mac15,13": 10,  # 14-inch MacBook Pro (M3, Nov 2023), 15-inch MacBook Air (M3)
    "Mac16,1": 10, "Mac16,10": 10, "Mac16,13": 10,  # 14-inch MacBook Pro (M4), Mac mini (M4), 15-inch MacBook Air (M4)
}
# Models sold in several chips where one chip came with one GPU bin only (support.apple.com/specs: the 16-inch MacBook
# Pro's M1 Pro has the 16-core GPU, its M2 Pro the 19-core, its M3 Pro the 18-core, its M4 Pro the 20-core)
MAC_MODEL_CHIP_GPU_CORES: Dict[Tuple[str, str], int] = {
    ("MacBookPro18,1", "Apple M1 Pro"): 16, ("Mac14,10", "Apple M2 Pro"): 19, ("Mac15,7", "Apple M3 Pro"): 18,
    ("Mac16,7", "Apple M4 Pro"): 20,
}
# The Mac mini by its chip, where that chip's Mac mini came in one GPU bin (support.apple.com/specs: Mac mini (M1, 2020)
# 8-core GPU, Mac mini (2023) M2 10-core, Mac mini (2024) M4 10-core): a text may name the family, not the identifier
MAC_MINI_GPU_CORES: Dict[str, int] = {"Apple M1": 8, "Apple M2": 10, "Apple M4": 10}
# The 13-inch MacBook Pro by its chip (support.apple.com/specs: MacBook Pro (13-inch, M1, 2020) 8-core GPU, (13-inch,
# M2, 2022) 10-core GPU; the M3 generation has no 13-inch MacBook Pro)
MACBOOK_PRO_13_GPU_CORES: Dict[str, int] = {"Apple M1": 8, "Apple M2": 10}
# ... and the 16-inch one by its Pro chip (the same pages as MAC_MODEL_CHIP_GPU_CORES: M1 Pro 16, M2 Pro 19, M3 Pro 18,
# M4 Pro 20 cores); its Max chips came in two bins
MACBOOK_PRO_16_GPU_CORES: Dict[str, int] = {"Apple M1 Pro": 16, "Apple M2 Pro": 19, "Apple M3 Pro": 18, "Apple M4 Pro": 20}
# Chips whose GPU bins Apple sold with different unified-memory sizes, so the memory settles the GPU cores
# (support.apple.com/specs, 14/16-inch MacBook Pro (M3 Max, Nov 2023): 14-core CPU / 30-core GPU with 36 GB or 96 GB,
# 16-core CPU / 40-core GPU with 48, 64 or 128 GB; MacBook Pro and Mac Studio (M4 Max, 2024-25): 32-core GPU with
# 36 GB, 40-core GPU with 48, 64 or 128 GB). The M1/M2 Max and every Pro tier share memory sizes across bins.
CHIP_MEMORY_GPU_CORES: Dict[Tuple[str, int], int] = {
    ("Apple M3 Max", 36): 30, ("Apple M3 Max", 96): 30, ("Apple M3 Max", 48): 40, ("Apple M3 Max", 64): 40,
    ("Apple M3 Max", 128): 40, ("Apple M4 Max", 36): 32, ("Apple M4 Max", 48): 40, ("Apple M4 Max", 64): 40,
    ("Apple M4 Max", 128): 40,
}
# Chips whose CPU bins each came with one GPU bin, so the CPU core count settles the GPU cores (support.apple.com/specs:
# M2 Pro 10-core CPU / 16-core GPU or 12 / 19; M3 Pro 11 / 14 or 12 / 18; M3 Max 14 / 30 or 16 / 40; M4 Pro 12 / 16
# or 14 / 20; M4 Max 14 / 32 or 16 / 40; M1 Pro 8 / 14, while its 10-core CPU came with 14 or 16, so it is left out).
CHIP_CPU_GPU_CORES: Dict[Tuple[str, int], int] = {
    ("Apple M1 Pro", 8): 14, ("Apple M2 Pro", 10): 16, ("Apple M2 Pro", 12): 19, ("Apple M3 Pro", 11): 14,
    ("Apple M3 Pro", 12): 18, ("Apple M3 Max", 14): 30, ("Apple M3 Max", 16): 40, ("Apple M4 Pro", 12): 16,
    ("Apple M4 Pro", 14): 20, ("Apple M4 Max", 14): 32, ("Apple M4 Max", 16): 40,
    ("Apple M3 Ultra", 28): 60, ("Apple M3 Ultra", 32): 80,  # Mac Studio (2025) tech specs
}
# Identifier families: from this number on, the line is Apple silicon; below it, Intel.
# "MacN,M" identifiers started with Apple silicon (Mac13,1, 2022), so every one of them is.
APPLE_SILICON_FROM = {"MacBookAir": 10, "MacBookPro": 17, "Macmini": 9, "iMac": 21, "Mac": 13}
INTEL_ONLY_FAMILIES = ("MacPro", "iMacPro", "MacBook")  # MacPro1-7, iMacPro1,1, MacBook1-10 (MacPro as
# "Mac14,8" is Apple silicon: it is in the "Mac" family)
_IDENTIFIER = re.compile(r"^([A-Za-z]+?)(\d+),(\d+)$")


# The SoC an Apple-silicon kernel was built for, from `uname -v` (RELEASE_ARM64_T8103). Only SoCs with
# a kernel of their own are listed: M1 Pro, Max and Ultra share T6000's, the M2's T6020's, M4 Pro and M4 Max
# T6041's (public `uname -a` outputs show T6041 beside both an 'Apple M4 Pro' and an M4 Max's 16 cores / 128 GB).
# Source: the xnu build targets in Apple's open-source xnu releases, and `uname -v` beside the chip's name in public
# reports (T6030 with 'Apple M3 Pro' and Mac15,7; T6031 with 'Apple M3 Max'; T8122 on a MacBook Air M3; T8132 with
# 'Apple M4' and Mac16,10 / Mac16,13).
XNU_SOC_CHIPS: Dict[str, str] = {"T8103": "Apple M1", "T8112": "Apple M2", "T8122": "Apple M3", "T6030": "Apple M3 Pro",
                                 "T6031": "Apple M3 Max", "T8132": "Apple M4"}


def chip_of_kernel(text: str) -> Optional[str]:
    """'... RELEASE_ARM64_T8103' -> 'Apple M1'; None where the SoC is shared or unknown."""
    match = re.search(r"RELEASE_ARM64_(T\d{4})\b", text or "")
    return XNU_SOC_CHIPS.get(match.group(1)) if match else None


def chip_of_profiler_item(text: str) -> Optional[str]:
    """system_profiler's untranslated display name 'kHW_AppleM1ProItem' -> 'Apple M1 Pro'."""
    match = re.search(r"\bkHW_Apple(M\d{1,2})(Pro|Max|Ultra)?Item\b", text or "")
    return " ".join(g for g in ("Apple", *match.groups()) if g) if match else None


def model_identifier(identifier: str) -> Optional[Tuple[str, int]]:
    """'MacBookPro15,1' -> ('MacBookPro', 15): a Mac model identifier's family and generation; None for anything else."""
    match = _IDENTIFIER.match((identifier or "").strip())
    return (match.group(1), int(match.group(2))) if match else None


def mac_model_silicon(identifier: str) -> Tuple[Optional[bool], Optional[str]]:
    """'Mac14,14' -> (True, 'Apple M2 Ultra'); 'MacBookPro15,1' -> (False, None); unknown -> (None, None).

    'VirtualMac2,1' (an Apple Virtualization guest) is Apple silicon with no chip of its own."""
    identifier = (identifier or "").strip()
    if identifier in MAC_MODEL_CHIPS:
        return True, MAC_MODEL_CHIPS[identifier]
    parts = model_identifier(identifier)
    if parts is None:
        return None, None
    family, number = parts
    if family == "VirtualMac":
        return True, None
    if family in APPLE_SILICON_FROM:
        return number >= APPLE_SILICON_FROM[family], None
    if family in INTEL_ONLY_FAMILIES:
        return False, None
    return None, None



# A Mac line's model years: (the last year it had an Intel model, the first year it had an Apple-silicon
# one); None where the line never had that kind. Source: Apple's "Identify your Mac" pages (the same as
# MAC_MODEL_CHIPS above, and support.apple.com/102871 iMac Pro, /103257 MacBook): MacBook Pro and MacBook
# Air had both in 2020, Mac mini's last Intel model is 2018, iMac's 2020, Mac Pro's 2019 (then 2023, M2
# Ultra); Mac Studio (2022-) was never Intel, iMac Pro (2017) and the 12-inch MacBook (-2017) never
# Apple silicon.
MAC_LINE_YEARS: Dict[str, Tuple[Optional[int], Optional[int]]] = {
    "macbook pro": (2020, 2020), "macbook air": (2020, 2020), "mac mini": (2018, 2020), "imac": (2020, 2021),
    "imac pro": (2017, None), "mac pro": (2019, 2023), "mac studio": (None, 2022), "macbook": (2017, None),
}


def mac_year_silicon(line: str, year: int) -> Optional[bool]:
    """('Mac Pro', 2013) -> False (Intel); ('MacBook Pro', 2021) -> True; ('MacBook Air', 2020) -> None (both)."""
    squeezed = {name.replace(" ", ""): years for name, years in MAC_LINE_YEARS.items()}
    last_intel, first_silicon = squeezed.get("".join(line.lower().split()), (None, None))
    intel = last_intel is not None and 2006 <= year <= last_intel
    silicon = first_silicon is not None and first_silicon <= year <= 2035
    return None if intel == silicon else silicon

# NVIDIA GPU name -> compute capability. Source: https://developer.nvidia.com/cuda-gpus (and the
# CUDA C Programming Guide's compute-capability table), Kepler (3.x) to Blackwell (10.x/12.x).
# Patterns run over the lower-cased name with "nvidia", "geforce", "tesla", "quadro" kept; the
# first match wins, so specific names come before families.
NVIDIA_CAPABILITIES: Tuple[Tuple[str, str], ...] = (
    # Names that would also match a later family: workstation Ada ("RTX 4000 Ada Generation") and
    # Turing Quadro RTX ("Quadro RTX 4000", "Quadro RTX 5000").
    (r"\brtx \d+ ada\b", "8.9"), (r"\bquadro rtx \d+\b", "7.5"), (r"\brtx 2050\b", "8.6"),  # GA107, Ampere
    # Blackwell
    (r"\bgb10\b", "12.1"), (r"\b(gb300|b300)\b", "10.3"), (r"\b(gb200|b200|b100)\b", "10.0"),
    (r"\bblackwell\b|\brtx 50[5-9]0\b", "12.0"), (r"\bthor\b", "11.0"),
    # Hopper
    (r"\b(gh200|h200|h100|h800|h20)\b", "9.0"),
    # Ada Lovelace
    (r"\b(l40s?|l4|l20|rtx 40[5-9]0)\b", "8.9"),
    # Ampere
    (r"\b(a100|a800|a30)\b", "8.0"), (r"\borin\b", "8.7"),
    (r"\b(a40|a10g?|a16|a2|rtx a\d+|rtx 30[5-9]0|a\d{3,4}m?)\b", "8.6"),
    # Turing
    (r"\b(t4|t1000|t400|t600|t1200|titan rtx|rtx 20[6-8]0|gtx 16[5-6]0)\b", "7.5"),
    # Volta
    (r"\bxavier\b", "7.2"), (r"\b(v100[sd]?|titan v|quadro gv100)\b", "7.0"),
    # Pascal
    # Maxwell GM107/GM108 mobile and Quadro K parts whose names sit among Pascal and Maxwell-desktop ones
    # (developer.nvidia.com/cuda-legacy-gpus: GTX 960M/950M, 940M, 930M, 840M, 830M, Quadro K2200/K1200/K620
    # are 5.0; the 940MX/930MX/920MX and MX110/MX130 refreshes use the same GM107/GM108 chips)
    (r"\b(gtx 9[56]0m|9[2-4]0mx|9[34]0m|8[34]0m|mx1[13]0|quadro k(?:2200|1200|620)m?|k(?:2200|620)m)\b", "5.0"),
    (r"\b(p100|quadro gp100)\b", "6.0"), (r"\btx2\b", "6.2"),
    (r"\b(p4|p40|p6|titan xp|gtx 10[5-8]0|gt 1030|quadro p\d+|mx[1-3]\d0)\b|\btitan x \(pascal\)", "6.1"),
    (r"\btegra x2\b", "6.2"), (r"\btegra x1\b", "5.3"),  # Jetson TX2 (Parker) and TX1 / Nano (Tegra X1)
    # Maxwell
    (r"\b(m40|m60|m6|m4|gtx 9[5-8]0m?|gtx 965m|gtx titan x|quadro (?:m[4-6]000m?|m5500m?|m3000m|m2200|m2000))\b", "5.2"),  # 965M: GM204; Quadro M2000/M2200: GM206
    (r"\b(gtx 750|gtx 745|gtx 8[5-6]0m|quadro m\d+m?|m10)\b", "5.0"), (r"\b(nano|tx1)\b", "5.3"),
    # Kepler
    (r"\bk80\b", "3.7"), (r"\b(k40[cmst]?|k20(?:xm|[cmsx])?|gtx titan( z| black)?|gtx 780|quadro k6000|gt 7[123]0|geforce 7[123]0|geforce 920m)\b", "3.5"),  # GeForce 710 = GT 710 (GK208); 920M: GK208B (920MX is Maxwell)
    (r"\b(quadro k5200|(?:quadro )?k[56]10m)\b", "3.5"),  # GK110B; the mobile K510M/K610M are GK208
    # Fermi mobile parts whose names sit among Kepler ones (GF114 GTX 670M/675M, GF117 GeForce 820M)
    (r"\b(gtx 67[05]m|geforce 820m)\b", "2.1"),
    (r"\b(k10|k520|gtx 6[5-9]0(?:mx|m)?|gtx 67[05]mx|gtx 7[67]0|gtx 7[6-8][05]m|gt 6[3-5]0m?|gt 740|gt 7[45][05]m|geforce 7[45][05]m|quadro k\d+m?|k\d{3,4}m)\b", "3.0"),
    # Fermi and Tesla (developer.nvidia.com/cuda-legacy-gpus): no CUDA 9+ toolkit builds for them
    # GF100/GF110 (2.0) and GF104/GF114 (2.1): the GTX 460 and 560 are GF1x4, the 560 Ti 448 a GF110
    (r"\b(gtx 465|gtx 4[78]0|gtx 560 ti[- ]448|gtx 5[78]0|gtx 590|tesla c20[5-7]0|tesla m20[5-9]0)\b", "2.0"),
    # Fermi Quadros named by the number alone (the same legacy list): 4000/5000/6000 GF100 2.0, 600/2000 GF106/GF108 2.1
    (r"\bquadro [456]000\b(?! ?(?:ada|blackwell))", "2.0"), (r"\bquadro (?:600|2000)\b", "2.1"),
    (r"\b(gt 4[234]0|gt 5[234]0m?|gt 6[12]0|gts 450|gtx 460m?|gtx 550 ti|gtx 560(?: ti| se)?)\b", "2.1"),
    (r"\bgeforce (?:410m|610m)\b", "2.1"),  # GF119 notebook parts without a series word (the same legacy list)
    # NVS business cards (same legacy list): NVS 810 Maxwell 5.0, NVS 510 Kepler 3.0, NVS 310/315 and the
    # NVS 4200M-5400M Fermi 2.1, NVS 300 1.2, NVS 295 1.1
    (r"\bnvs 810\b", "5.0"), (r"\bnvs 510\b", "3.0"), (r"\bnvs (?:31[05]|[45][2-4]00m)\b", "2.1"),
    (r"\bnvs 300\b", "1.2"), (r"\bnvs 295\b", "1.1"),
    (r"\b(gtx 2[6-9]0|gtx 275|gtx 285|gtx 295|tesla c10[56]0)\b", "1.3"),
    (r"\b(geforce (?:g ?)?210|gt 2[2-4]0|geforce 310|gt 3[2-4]0m?|geforce 320m)\b", "1.2"),  # 'GeForce G210' (DxDiag); 320M: MCP89
    # G80 (8800 GTX/Ultra, 1.0) and G84-G98 (the other GeForce 8 and 9 parts, 1.1): the same legacy list
    (r"\bgeforce (?:8800 ultra|gtx 8800)\b", "1.0"),  # the name reader writes '8800 GTX' as 'gtx 8800'
    (r"\bgeforce (?:gtx )?(?:8[1-9]\d\d|9[1-9]\d\d)(?: ?(?:gt|gs|gso|gtx|gts|ultra|m|mgs|mgt|mgtx))?\b", "1.1"),
)


def nvidia_compute_capability(name: str) -> Optional[str]:
    """'NVIDIA A100-SXM4-80GB' -> '8.0'; None for names the table does not know. A name nvidia-smi cut
    short ('GeForce GTX 105...') gives the capability every completion of it shares, if they agree."""
    text = " ".join(re.sub(r"[^a-z0-9()]+", " ", (name or "").lower()).split())
    text = re.sub(r"\b(gtx|gts|gt|rtx)(?=\d)", r"\1 ", text)  # 'GT1030', 'RTX3090' as people write them
    text = re.sub(r"\b(\d{3,4})(ti|super|d)\b", r"\1 \2", text)  # 'GTX 1070Ti', 'RTX 3060Ti', 'RTX 5090D' as written
    text = re.sub(r"\b(\d{4}(?: ti)?) (rtx|gtx)\b", r"\2 \1", text)  # '4080 RTX'
    text = re.sub(r"\bgtx (?=(?:20[6-8]|30[5-9]|40[6-9]|50[5-9])0\b)", "rtx ", text)  # 'GTX 3070': no such GTX
    text = re.sub(r"^nvidia ([km]\d{3,4}m?)\b", r"quadro \1", text)  # 'Nvidia K5200': a Quadro (Teslas K80, M60 have two digits)
    text = re.sub(r"\bgrid ((?:rtx ?)?[a-z]?\d+)[a-z]{0,2} \d+[a-z]\b", r"grid \1", text)  # a vGPU type 'GRID A100D-20C' is
    # <board>-<framebuffer GB><series> on that board's GPU (docs.nvidia.com/grid, Virtual GPU Types)
    if (name or "").rstrip().endswith(("...", "\u2026")):
        last = text.split()[-1] if text.split() else ""
        words = [text[:len(text) - len(last)] + word for word in _CUT_WORDS if last and word.startswith(last) and word != last]
        found = {_capability(candidate) for candidate in [text + tail for tail in ("", *"0123456789", "0 ti")] + words} - {None}
        return found.pop() if len(found) == 1 else None
    unsaid = (re.sub(pattern, series, text) for pattern, series in _SERIES_UNSAID)
    return _capability(text) or next((found for alt in unsaid if alt != text for found in [_capability(alt)] if found), None)


# words nvidia-smi's 22-column name cell cuts ('NVIDIA RTX PRO 4500 Blac...'), completed to find the model
_CUT_WORDS = ("blackwell", "ada generation", "laptop gpu", "generation", "super", "workstation edition")


# a GeForce written with only its maker and number: 'nvidia 820m' (a notebook part), 'nvidia 1080ti' (a GTX)
_SAID = r"^(?:nvidia (?:geforce )?|geforce )"  # ... or with 'GeForce' and no series: 'Nvidia geforce 960'
_SERIES_UNSAID = ((_SAID + r"(?=[7-9][1-6]0mx?$)", "geforce "), (_SAID + r"(?=(?:9[5-8]0|10[5-8]0|16[56]0)(?: ti| super)?$)", "gtx "),
                  (_SAID + r"(?=(?:20[6-8]0|30[5-9]0|40[6-9]0|50[5-9]0)(?: ti| super)?$)", "rtx "))


def _capability(text: str) -> Optional[str]:
    for pattern, capability in NVIDIA_CAPABILITIES:
        if re.search(pattern, text):
            return capability
    return None


# Raspberry Pi kernels as `uname -r` and platform.platform() name them: Raspberry Pi OS's '6.6.31+rpt-rpi-v8',
# older '6.1.21-v8+' and '5.10.103-v7l+', Ubuntu's '5.15.0-1034-raspi'. Source: the kernel builds (kernel7,
# kernel7l, kernel8) of raspberrypi.com/documentation/computers/linux_kernel.html and Ubuntu's linux-raspi
# package. Such a board's GPU is its SoC's Broadcom VideoCore, which no ML framework drives. The Pi 5's own
# kernel ('6.6.51+rpt-rpi-2712') is left out: a Pi 5 / CM5 takes a PCIe graphics card (an RTX 3060 on a CM5 in
# tests/captures/linux-rpi-pcie-790-...), which the Pi 4's single PCIe lane never ran (pipci.jeffgeerling.com).
_RASPBERRY_PI_KERNEL = re.compile(r"[-+]rpi-v[678]l?\b|-raspi\b|-v(?:7l?|8)\+(?:\s|$)")
RASPBERRY_PI_GPU = "Broadcom VideoCore (Raspberry Pi)"
# Boards that expose PCIe to a card (Pi 5 / Pi 500 via the FPC connector, the Compute Modules 4 and 5 on their
# carrier boards; raspberrypi.com/documentation/computers/raspberry-pi.html#pcie): a graphics card is not ruled
# out there. The Pi 1-4, 400 and Zero have no PCIe slot, so their only GPU is the VideoCore.
_PI_PCIE = ("5", "500", "CM4", "CM5")


def raspberry_pi_has_pcie(model: str) -> bool:
    """'4' -> False, '5' -> True, 'CM4' -> True (the model as written after 'Raspberry Pi')."""
    return model.strip().upper() in _PI_PCIE


def raspberry_pi_kernel(release: Optional[str]) -> bool:
    """A kernel only a Raspberry Pi without a PCIe graphics card runs: '6.6.31+rpt-rpi-v8' -> True;
    '6.6.51+rpt-rpi-2712' (a Pi 5) and '6.8.0-111-generic' -> False."""
    return bool(_RASPBERRY_PI_KERNEL.search(release or ""))


# Apple-silicon chip -> (CPU core counts, GPU core counts) it was sold with in Macs. Source: Apple's Tech Specs
# pages of each Mac (support.apple.com/specs: MacBook Air/Pro, Mac mini, iMac, Mac Studio, Mac Pro), M1 to M5.
# A core count beside a chip that is only in the GPU set is the GPU's ('M1 Ultra (64 core)').
APPLE_CHIP_CORES: Dict[str, Tuple[frozenset, frozenset]] = {
    "M1": (frozenset({8}), frozenset({7, 8})),
    "M1 Pro": (frozenset({8, 10}), frozenset({14, 16})),
    "M1 Max": (frozenset({10}), frozenset({24, 32})),
    "M1 Ultra": (frozenset({20}), frozenset({48, 64})),
    "M2": (frozenset({8}), frozenset({8, 10})),
    "M2 Pro": (frozenset({10, 12}), frozenset({16, 19})),
    "M2 Max": (frozenset({12}), frozenset({30, 38})),
    "M2 Ultra": (frozenset({24}), frozenset({60, 76})),
    "M3": (frozenset({8}), frozenset({8, 10})),
    "M3 Pro": (frozenset({11, 12}), frozenset({14, 18})),
    "M3 Max": (frozenset({14, 16}), frozenset({30, 40})),
    "M3 Ultra": (frozenset({28, 32}), frozenset({60, 80})),
    "M4": (frozenset({8, 10}), frozenset({8, 10})),
    "M4 Pro": (frozenset({12, 14}), frozenset({16, 20})),
    "M4 Max": (frozenset({14, 16}), frozenset({32, 40})),
    "M5": (frozenset({10}), frozenset({10})),
}


def apple_core_options(chip: str) -> Optional[Tuple[frozenset, frozenset]]:
    """'M1 Ultra' (or 'Apple M1 Ultra') -> ({20}, {48, 64}); None for a chip not in the table."""
    return APPLE_CHIP_CORES.get(re.sub(r"^Apple\s+", "", (chip or "").strip()))


# Intel's discrete GPUs: Arc A-series (Alchemist, the DG2 chip: A310..A770, A370M..A770M), Arc B-series
# (Battlemage: B570, B580) and the Data Center GPU Flex / Max cards. Source: intel.com ark, "Intel Arc Graphics"
# and "Intel Data Center GPU" product lists; written without its letter too ('Arc770'). Core Ultra's 'Intel Arc Graphics' and 'Arc 130V/140V' are integrated.
# The brand alone as the GPU's whole name ('Is Intel Arc not supported?') is the card line: Intel names its
# integrated ones 'Intel Arc Graphics' or by their V model.
_INTEL_DISCRETE = re.compile(r"\bArc(?:\(TM\))?\s?(?:[AB]\s?\d{3}M?|[3-7]\d0M?)\b|\bDG2\b|\bData Center GPU (?:Flex|Max)\b"
                             r"|^\s*Intel(?:\(R\))? Arc(?:\(TM\))?\s*$", re.IGNORECASE)


def intel_discrete_gpu(name: str) -> bool:
    """'Intel Arc A770', 'Intel(R) Arc(TM) A770 Graphics', 'Intel Corporation DG2 [Arc A770]' -> True; 'Intel Arc Graphics', 'Intel UHD Graphics 630' -> False."""
    return bool(_INTEL_DISCRETE.search(name or ""))


# Intel's integrated GPUs (HD / UHD / Iris / Iris Xe / Iris Plus / Iris Pro Graphics, Core Ultra's Arc Graphics) sit on
# the die of an Intel x86 CPU (intel.com ark, each processor's "Processor Graphics"); Intel ships no Arm part with one.
_INTEL_INTEGRATED = re.compile(r"\bIntel(?:\(R\))?\s+(?:U?HD|Iris)\b|\bIntel(?:\(R\))?\s+Arc(?:\(TM\))?\s+(?:Graphics|1[34]0V)\b",
                               re.IGNORECASE)


def intel_integrated_gpu(name: str) -> bool:
    """'Intel HD Graphics 520', 'Intel(R) UHD Graphics 630', 'Intel Iris Xe Graphics' -> True; 'Intel Arc A770' -> False."""
    return bool(_INTEL_INTEGRATED.search(name or "")) and not intel_discrete_gpu(name)
