"""AMD GPU code names and Instinct boards -> the LLVM gfx target their GPU compiles for.

Source: LLVM's AMDGPU processor table (llvm.org/docs/AMDGPUUsage.html, "Processors": gfx900 Vega 10,
gfx906 Vega 20 / Radeon VII / MI50 / MI60, gfx908 MI100, gfx90a MI210 / MI250, gfx942 MI300, gfx950 MI350;
gfx1010 Navi 10, gfx1012 Navi 14, gfx1030-1034 Navi 21-24, gfx1100-1102 Navi 31-33, gfx1200/1201 Navi 44/48;
gfx803 Fiji and Polaris 10/11/12 (pci.ids calls them Ellesmere, Baffin, Lexa), gfx802 Tonga and Iceland, gfx701 Hawaii)
and ROCm's GPU support tables (rocm.docs.amd.com, "System requirements (Linux)").
"""
from __future__ import annotations

import re
from typing import Optional

# The Instinct boards as people write them ('MI50', 'AMD Instinct MI300X'): the models INSTINCT_GFX knows
INSTINCT_MODEL = r"(?:AMD\s+)?(?:Instinct\s+)?MI(?:25|50|60|100|210|250X?|300[AX]?|308X|325X|35[05]X)"
CODENAME_GFX = {
    "navi 10": "gfx1010", "navi 14": "gfx1012", "navi 21": "gfx1030", "navi 22": "gfx1031", "navi 23": "gfx1032",
    "navi 24": "gfx1034", "navi 31": "gfx1100", "navi 32": "gfx1101", "navi 33": "gfx1102", "navi 44": "gfx1200",
    "navi 48": "gfx1201", "vega 10": "gfx900", "vega 20": "gfx906",
    "polaris 10": "gfx803", "polaris 11": "gfx803", "polaris 12": "gfx803", "polaris 20": "gfx803", "polaris 21": "gfx803",
    "ellesmere": "gfx803", "baffin": "gfx803", "lexa": "gfx803", "fiji": "gfx803",
    "tonga": "gfx802", "iceland": "gfx802", "hawaii": "gfx701",
    # APUs' integrated GPUs as lspci names them (LLVM: gfx902 Raven / Picasso, gfx90c Renoir / Cezanne / Lucienne,
    # gfx1035 Rembrandt, gfx1036 Raphael, gfx1037 Mendocino, gfx1103 Phoenix)
    "raven ridge": "gfx902", "raven": "gfx902", "picasso": "gfx902", "renoir": "gfx90c", "cezanne": "gfx90c",
    "lucienne": "gfx90c", "rembrandt": "gfx1035", "raphael": "gfx1036", "mendocino": "gfx1037", "phoenix": "gfx1103",
    "phoenix1": "gfx1103",
}
INSTINCT_GFX = {
    "mi25": "gfx900", "mi50": "gfx906", "mi60": "gfx906", "mi100": "gfx908", "mi210": "gfx90a", "mi250": "gfx90a",
    "mi250x": "gfx90a", "mi300": "gfx942", "mi300a": "gfx942", "mi300x": "gfx942", "mi308x": "gfx942", "mi325x": "gfx942",
    "mi350x": "gfx950", "mi355x": "gfx950",
}


def codename_target(name: str) -> Optional[str]:
    """'Navi 22' -> 'gfx1031', 'Vega20' -> 'gfx906'; None for a name the table does not hold."""
    key = re.sub(r"^(navi|vega|polaris)\s*(\d+)$", r"\1 \2", " ".join(name.strip().lower().split()))
    return CODENAME_GFX.get(key)


def instinct_target(name: str) -> Optional[str]:
    """'MI60' -> 'gfx906', 'Instinct MI250X' -> 'gfx90a'."""
    return INSTINCT_GFX.get(re.sub(r"^(?:amd\s+)?(?:instinct\s+)?|\s+(?:vf|oam)$", "", name.strip().lower()))  # a VF: a virtual function of the board


# Polaris cards by their Radeon RX number: Polaris 10/11/12/20/21/23/30 all compile for gfx803 (LLVM's
# AMDGPUUsage "Processors": gfx803 'polaris10, polaris11, polaris12 ... Radeon RX 470/480/570/580/590, RX 460/560').
_POLARIS_RX = re.compile(r"^(?:amd\s+)?(?:radeon\s+)?rx\s?(?:4[6-8]0|5[4-9]0)x?(?:\s+series)?$", re.IGNORECASE)


# Radeon Pro WX workstation cards (AMD's product pages): WX 2100/3100/3200/4100/5100/7100 are Polaris 10/11/12/23
# (gfx803, as above), WX 8200 and WX 9100 are Vega 10 (gfx900).
_PRO_WX = re.compile(r"^(?:amd\s+)?radeon\s+pro\s+wx\s?(?:(?P<polaris>[2-57]100|3200)|(?P<vega>8200|9100))(?:\s+graphics)?$",
                     re.IGNORECASE)


# RDNA Radeon RX cards by number (LLVM's AMDGPUUsage "Processors" table names each gfx target's chips: gfx1010 navi10,
# gfx1012 navi14, gfx1030 navi21, gfx1031 navi22, gfx1032 navi23, gfx1034 navi24, gfx1100 navi31, gfx1101 navi32,
# gfx1102 navi33, gfx1200/gfx1201 navi44/navi48; AMD's product pages give each card's chip)
_RDNA_RX = (
    (r"5[67]00(?:\s?xt)?", "gfx1010"), (r"5[35]00(?:\s?xt)?", "gfx1012"),
    (r"6[89]50\s?xt|69[05]0\s?xt|6800(?:\s?xt)?", "gfx1030"), (r"67[05]0(?:\s?xt)?|6[78][05]0m", "gfx1031"),
    (r"66[05]0(?:\s?xt)?|66[05]0m|6[78]00s", "gfx1032"), (r"6[345]00(?:\s?xt)?", "gfx1034"),
    (r"7900\s?(?:xtx|xt|gre)", "gfx1100"), (r"7[78]00(?:\s?xt)?", "gfx1101"), (r"7600(?:\s?xt)?", "gfx1102"),
    (r"9060(?:\s?xt)?", "gfx1200"), (r"9070(?:\s?xt|\s?gre)?", "gfx1201"),
)
_RDNA = re.compile(r"^(?:amd\s+)?(?:radeon\s+)?rx\s?(" + "|".join(f"(?:{p})" for p, _ in _RDNA_RX) + r")(?:\s+(?:series|graphics))?$",
                   re.IGNORECASE)


def radeon_target(name: str) -> Optional[str]:
    """'AMD RX 580' / 'Radeon RX 470' / 'AMD Radeon (TM) Pro WX 5100 Graphics' -> 'gfx803'; 'Radeon Pro WX 9100' ->
    'gfx900'; 'AMD Radeon VII' -> 'gfx906'; 'RX 6600' -> 'gfx1032'; lspci's 'Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]' -> its chip's 'gfx1030';
    'Vega 64' -> 'gfx900'; 'AMD Radeon R9 200 Series' -> PRE_GFX9 (older than Vega, whichever chip);
    None for any other name (Polaris, the Pro WX cards, the RDNA RX cards and lspci's chip names)."""
    name = re.sub(r"\s*\((?:TM|R)\)", "", name.strip(), flags=re.IGNORECASE)
    chip = re.match(r"^(?:Advanced Micro Devices, Inc\. \[AMD/ATI\]\s*|AMD\s+)?(\w+(?: \d+| Ridge)?)(?: (?:XT|PRO|XL|GL))*\s*\[", name)
    if chip and codename_target(chip.group(1)):  # lspci's 'Ellesmere [Radeon RX 470/480/570/570X/580/580X]': the chip's
        return codename_target(chip.group(1))
    if re.fullmatch(r"(?:amd\s+)?radeon\s+vii", name, re.IGNORECASE):  # Vega 20, like the MI50
        return "gfx906"
    if re.fullmatch(r"(?:amd\s+)?(?:radeon\s+)?(?:rx\s+)?vega\s?(?:56|64)(?:\s+liquid)?", name, re.IGNORECASE):
        return "gfx900"  # the RX Vega 56 and 64 are Vega 10 (LLVM's AMDGPUUsage: gfx900 'vega10')
    workstation = _PRO_WX.match(name)
    if workstation:
        return "gfx803" if workstation.group("polaris") else "gfx900"
    rdna = _RDNA.match(name)
    if rdna:
        return next(gfx for pattern, gfx in _RDNA_RX if re.fullmatch(pattern, rdna.group(1), re.IGNORECASE))
    return "gfx803" if _POLARIS_RX.match(name) else PRE_GFX9 if _PRE_GFX9_NAMES.match(name) else None


# Radeons every chip of which predates Vega's gfx900 (LLVM's AMDGPUUsage "Processors": gfx6 Southern Islands (Tahiti,
# Pitcairn, Oland), gfx7 Sea Islands (Hawaii, Bonaire, the Kaveri APUs' 'R7 Graphics'), gfx8 Volcanic Islands (Tonga,
# Fiji, Polaris, the Carrizo / Bristol Ridge APUs); the TeraScale Radeon HD 2000-6000s before them have no gfx target):
# a series sold on several of them ('R9 200 Series', 'Radeon 500 Series', a Radeon HD 7000/8000) has no one target,
# but no ROCm build of PyTorch runs on any of them (knowledge/rocm.py).
PRE_GFX9 = "pre-gfx9"
_PRE_GFX9_NAMES = re.compile(r"^(?:amd\s+)?(?:ati\s+)?radeon\s+(?:r[3-9]\s+(?:m?[23]\d0x?|[23]00\s+series|graphics)"
                             r"|hd\s+[2-8]\d{3}[a-z]?|[45]00\s+series)(?:\s+series)?$", re.IGNORECASE)


# CDNA Instinct accelerators (MI100 and later) have drivers for Linux only: AMD publishes no Windows or macOS driver
# for them, and ROCm's Windows HIP SDK lists Radeon and Radeon PRO GPUs only (rocm.docs.amd.com, "System requirements
# (Windows)"; Instinct support matrix under "System requirements (Linux)").
_CDNA_INSTINCT = re.compile(r"\bInstinct\s+MI(?:100|2[15]0X?|3\d\d[AX]?)\b|\bMI(?:100|2[15]0X?|3\d\d[AX]?)\b(?=.*\bInstinct\b)",
                            re.IGNORECASE)


def linux_only_gpu(name: str) -> bool:
    """'AMD Instinct MI250X/MI250', 'Instinct MI300X OAM': an accelerator that runs under Linux only."""
    return bool(_CDNA_INSTINCT.search(name or ""))


# AMD's TeraScale GPUs (Radeon HD 2000-6000 series, 2007-2011) have no Metal driver on any macOS: Metal runs on GCN and
# later AMD GPUs only, and Apple's Metal Macs start with the 2012 models (support.apple.com/102894, "Mac computers that
# support Metal"); the Radeon HD 4670-6970M of the 2009-2011 iMacs and MacBook Pros are TeraScale.
_TERASCALE = re.compile(r"\bRadeon HD [2-6]\d{3}M?\b", re.IGNORECASE)


def before_metal(name: str) -> bool:
    """'AMD Radeon HD 6750M' -> True: an AMD GPU no Metal framework (MPS, tensorflow-metal) can use."""
    return bool(_TERASCALE.search(name or ""))
