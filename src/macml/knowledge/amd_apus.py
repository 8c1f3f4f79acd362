"""AMD Ryzen APU model -> the gfx target of its integrated Radeon. Pure data.

Sources: LLVM's AMDGPU processor table (llvm.org/docs/AMDGPUUsage.html, "Processors": gfx902 Raven/Picasso,
gfx90c Renoir/Lucienne/Cezanne/Barcelo, gfx1035 Rembrandt, gfx1036 Raphael/Dragon Range, gfx1037 Mendocino,
gfx1103 Phoenix/Hawk Point, gfx1150 Strix Point, gfx1151 Strix Halo) and AMD's mobile model numbering
(amd.com "AMD Ryzen Mobile Processor Naming", 2023: in a 7000/8000-series number the third digit is the
architecture (desktop 7000s, Raphael: 7600, 7700X, 7800X3D, PRO 7945), 2 = Zen 2 Mendocino, 3 = Zen 3 Barcelo-R, 3/5 = Zen 3+ Rembrandt-R, 4 = Zen 4 Phoenix / Hawk
Point, 5 with HX = Zen 4 Dragon Range). Only parts that have an integrated GPU are listed; the patterns run
over the lower-cased brand ('amd ryzen 7 pro 7840u'); the first match wins.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

_RYZEN = r"\bryzen [3579](?: pro)? "
APU_GFX: Tuple[Tuple[str, str], ...] = (
    (r"\bryzen ai max\+?(?: pro)? 3[89]\d\b", "gfx1151"),  # Strix Halo: AI Max 385 / 390 / Max+ 395
    (r"\bryzen ai 9(?: pro)?(?: hx)? 3[67]\d\b", "gfx1150"),  # Strix Point: AI 9 365, AI 9 HX 370 / 375
    (_RYZEN + r"(?:[78]\d4[05](?:u|hs|h)|8\d00ge?)\b", "gfx1103"),  # Phoenix / Hawk Point: 7840U, 8845HS, 8700G
    (_RYZEN + r"7\d45hx3?d?\b", "gfx1036"),  # Dragon Range: 7945HX
    # Raphael, the desktop Ryzen 7000s (amd.com lists 'AMD Radeon Graphics' for each; the F parts have none)
    (_RYZEN + r"(?:7[5-9][05]0(?:x3d|x)?|7[6-9]45)(?![\w-])", "gfx1036"),
    (_RYZEN + r"(?:6\d\d0(?:u|hs|hx|h)|7\d35(?:u|hs|h))\b", "gfx1035"),  # Rembrandt (-R): 6600H, 6800U, 7735HS
    (_RYZEN + r"7\d20u\b", "gfx1037"),  # Mendocino: 7520U
    (_RYZEN + r"(?:[45]\d\d[05](?:u|h|hs|hx|g|ge)|7\d30u)\b", "gfx90c"),  # Renoir, Lucienne, Cezanne, Barcelo(-R)
    (_RYZEN + r"[23]\d\d0(?:u|h|g|ge)\b", "gfx902"),  # Raven Ridge, Picasso: 2500U, 3400G
)

# Platform codenames people write instead of a model (the same LLVM table): every such machine has the iGPU.
APU_CODENAMES: Tuple[Tuple[str, str], ...] = (("strix halo", "gfx1151"), ("strix point", "gfx1150"))


def apu_gfx(brand: str) -> Optional[str]:
    """'AMD Ryzen 5 6600H' -> 'gfx1035'; 'AMD Ryzen AI Max+ 395' -> 'gfx1151'; a part without graphics -> None."""
    text = " ".join((brand or "").lower().split())
    return next((gfx for pattern, gfx in APU_GFX if re.search(pattern, text)), None)


def apu_target(gfx: Optional[str]) -> bool:
    """A gfx target only APUs' integrated GPUs have ('gfx1103' Phoenix; not 'gfx803', a Polaris card's)."""
    return (gfx or "").strip().lower() in {target for _, target in APU_GFX}


# An APU's VBIOS part number names its platform ('102-RAPHAEL-008', '113-PHOENIX-...', '113-REMBRANDT-X37'):
# the codenames of the LLVM table above.
VBIOS_CODENAMES = {"raphael": "gfx1036", "phoenix": "gfx1103", "phoenix1": "gfx1103", "phoenix2": "gfx1103",
                   "hawkpoint": "gfx1103", "rembrandt": "gfx1035", "mendocino": "gfx1037", "renoir": "gfx90c",
                   "cezanne": "gfx90c", "lucienne": "gfx90c", "barcelo": "gfx90c"}


def vbios_gfx(vbios: str) -> Optional[str]:
    """'102-RAPHAEL-008' -> 'gfx1036'; a discrete card's VBIOS ('113-D1631400-X11') -> None."""
    found = re.match(r"\s*\d{3}-([A-Za-z]+\d?)-", vbios or "")
    return VBIOS_CODENAMES.get(found.group(1).lower()) if found else None


def lspci_codename_gfx(name: str) -> Optional[str]:
    """lspci's name for an APU's GPU, its platform's codename ('Phoenix1', 'Hawk Point') -> that APU's gfx target;
    None for any other name."""
    return VBIOS_CODENAMES.get(re.sub(r"^hawk\s?point$", "hawkpoint", (name or "").lower()))


def codename_gfx(text: str) -> Optional[str]:
    """'my Strix Halo box' -> 'gfx1151'; None when no APU codename is named."""
    words = " ".join((text or "").lower().split())
    return next((gfx for name, gfx in APU_CODENAMES if re.search(rf"\b{name}\b", words)), None)


# The integrated Radeons by their own name (amd.com product pages list each Ryzen's graphics: 660M / 680M in Rembrandt, 740M / 760M / 780M in Phoenix / Hawk Point, 880M / 890M in
# Strix Point, 8040S / 8050S / 8060S in Strix Halo), with the LLVM target of those APUs (same table as above). A name two targets share is left out: the
# Radeon 610M is gfx1036 in Raphael / Dragon Range but gfx1037 in Mendocino (Ryzen 7520U).
IGPU_GFX: Tuple[Tuple[str, str], ...] = (
    (r"\bradeon 6[68]0m\b", "gfx1035"), (r"\bradeon 7[468]0m\b", "gfx1103"),
    (r"\bradeon 8[89]0m\b", "gfx1150"), (r"\bradeon 80[456]0s\b", "gfx1151"),
)


def igpu_gfx(text: str) -> Optional[str]:
    """'From my Radeon 780M' -> 'gfx1103'; None when no integrated Radeon is named."""
    words = " ".join((text or "").lower().split())
    return next((gfx for pattern, gfx in IGPU_GFX if re.search(pattern, words)), None)
