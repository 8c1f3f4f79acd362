"""x86 CPU model -> the vector extensions it lacks, for texts that name a CPU but list no flags.

Only CPUs known to lack AVX or AVX2 are listed; a CPU the table does not know stays unknown (never
"has AVX"). Patterns run over the brand string lower-cased, with '(R)', '(TM)' and 'CPU' taken out and
spaces collapsed: 'Intel(R) Core(TM)2 Duo CPU E7500 @ 2.93GHz' -> 'intel core2 duo e7500 @ 2.93ghz'.
The first row that matches wins, so the narrower rows come first.

Sources: Intel ARK's 'Instruction Set Extensions' row of each product page (ark.intel.com); Wikipedia's
'Advanced Vector Extensions' (CPUs with AVX: Sandy Bridge and newer "except models branded as Celeron and
Pentium" until Tiger Lake; CPUs with AVX2: Haswell, Excavator and newer), 'Nehalem (microarchitecture)',
'Westmere (microarchitecture)', 'Intel Core 2', 'Silvermont', 'Goldmont', 'Goldmont Plus', 'Tremont',
'Sandy Bridge', 'Ivy Bridge (microarchitecture)', 'AMD K10', 'Bobcat (microarchitecture)',
'Bulldozer (microarchitecture)', 'Piledriver (microarchitecture)', 'Steamroller (microarchitecture)'.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Tuple

from macml.knowledge.hardware import model_identifier


@dataclass(frozen=True)
class CpuVectors:
    family: str  # "Westmere (Xeon 5600)"
    avx: bool
    avx2: bool
    source: str


_NO_AVX, _NO_AVX2 = (False, False), (True, False)
# (pattern over the normalised brand, family, (avx, avx2), source)
CPU_ROWS: Tuple[Tuple[str, str, Tuple[bool, bool], str], ...] = (
    # Intel: Core 2 and the Core Duo/Solo before it
    (r"\bcore ?2(?: ?(?:duo|quad|extreme|solo))?\b|\bcore (?:duo|solo)\b", "Intel Core 2 / Core Duo", _NO_AVX,
     "Wikipedia: Intel Core 2 (SSE4.1 at most)"),
    # first-generation Core i3/i5/i7: three-digit model numbers ('i7-920', 'i7 CPU 920', 'i5 CPU M 430')
    (r"\bi[357][- ](?:[a-z] )?\d{3}[a-z]{0,2}(?![\d.])", "Nehalem / Westmere (first-generation Core i)", _NO_AVX,
     "Wikipedia: Nehalem (microarchitecture), Westmere (microarchitecture); Intel ARK: SSE4.2 only"),
    # Xeons before Sandy Bridge: 3000/5100-5400/7100-7400 (Core), 3400-3600/5500/5600/6500/7500 (Nehalem,
    # Westmere), E7-x8xx without a version suffix (Westmere-EX)
    (r"\bxeon (?:processor )?(?:[exlw](?:3[0-6]|5[1-6]|65|7[1-5])\d{2}|e7-\d{4}(?! ?v[2-9]))\b", "Xeon before Sandy Bridge "
     "(Core / Nehalem / Westmere)", _NO_AVX, "Intel ARK: Xeon 5500/5600/3400-3600/7500 series (SSE4.2); "
     "Wikipedia: Westmere (microarchitecture)"),
    # Atom cores, and the Pentium/Celeron/Pentium Silver parts built on them (J/N model numbers)
    (r"\b(?:celeron|pentium)(?: gold| silver)? [jn]\d{4}[a-z]?\b", "Atom-class Pentium/Celeron (Silvermont, Airmont, Goldmont, "
     "Goldmont Plus, Tremont)", _NO_AVX, "Intel ARK (e.g. Celeron J3455, N3450, J4125, N5105: SSE4.2); "
     "Wikipedia: Goldmont, Tremont"),
    (r"\batom (?:processor )?(?:[zndce]\d{3,4}[a-z]?|x[57]-[ze]\d{4}|p5\d{3})\b", "Intel Atom (Bonnell to Tremont)", _NO_AVX,
     "Intel ARK; Wikipedia: Silvermont, Goldmont, Tremont"),
    # Pentium/Celeron before Tiger Lake: AVX fused off (Wikipedia: Advanced Vector Extensions)
    (r"\bpentium (?:4|d|m|dual|ii|iii|pro)\b|\bceleron (?:m|d)\b", "Pentium 4 / D / M / Dual-Core, Celeron M/D",
     _NO_AVX, "Wikipedia: Advanced Vector Extensions"),
    (r"\b(?:celeron|pentium)(?: gold| silver)? (?:g(?:[1-5]\d{3}|6[0-8]\d{2}|[4-9]\d{2})t?|[1-5]\d{3}[a-z]{0,2}"
     r"|[etbpu]\d{3,4}[a-z]?|\d{3}[a-z]?)\b(?![.\d])", "Pentium / Celeron before Tiger Lake", _NO_AVX,
     "Wikipedia: Advanced Vector Extensions (Celeron and Pentium gained AVX with Tiger Lake); Intel ARK"),
    # AVX but no AVX2: Sandy Bridge, Ivy Bridge (and -E), Xeon E3/E5 v1-v2, E7 v2
    (r"\bi[357][- ][23]\d{3}[a-z]{0,2}\b|\bi7[- ]4[89][236]0[kx]\b", "Sandy Bridge / Ivy Bridge (2nd/3rd-generation "
     "Core i)", _NO_AVX2, "Wikipedia: Sandy Bridge, Ivy Bridge (microarchitecture); Intel ARK: AVX only"),
    (r"\b(?:e3-1\d{3}[a-z]?|e5-[124]\d{3}[a-z]?|e7-\d{4}[a-z]?(?= ?v2))(?! ?v[3-9])\b", "Xeon E3/E5 v1-v2, E7 v2 "
     "(Sandy Bridge / Ivy Bridge)", _NO_AVX2, "Intel ARK: Xeon E3-1200 v1/v2, E5-2600 v1/v2 (AVX only)"),
    # AMD: K8 / K10 and Bobcat without AVX
    (r"\b(?:phenom|athlon (?:ii|64)|turion)\b|\bopteron (?:processor )?(?:[128][0-4]\d{2}|61\d{2}|41\d{2}|\d{3})\b(?![.\d])"
     r"|\ba[468]-3\d{3}[a-z]?\b|\bamd\b.*\b(?:[ec]-\d{2,3}|e[12]-1\d{3})\b", "AMD K8 / K10 / Bobcat (Athlon 64, "
     "Phenom, Athlon II, Llano, E-350)", _NO_AVX, "Wikipedia: AMD K10, Bobcat (microarchitecture)"),
    # AMD Bulldozer to Steamroller (and Jaguar APUs): AVX, no AVX2 (Excavator added it)
    (r"\bfx-[4689]\d{3}[a-z]?\b(?<!p)|\bopteron (?:processor )?[346][23]\d{2}\b|\ba(?:4|6|8|10)-[5-7]\d{3}[a-z]?\b",
     "AMD Bulldozer / Piledriver / Steamroller (FX, Opteron 6200/6300, A-series 5000-7000)", _NO_AVX2,
     "Wikipedia: Bulldozer, Piledriver, Steamroller (microarchitecture); AVX2 arrived with Excavator"),
)
_COMPILED = tuple((re.compile(p), family, flags, source) for p, family, flags, source in CPU_ROWS)


def normalise_brand(brand: str) -> str:
    """'Intel(R) Xeon(R) CPU           X5690  @ 3.47GHz' -> 'intel xeon x5690 @ 3.47ghz'."""
    text = re.sub(r"\((?:r|tm)\)", " ", (brand or "").lower())
    text = re.sub(r"\bcpu\b", " ", text)
    return " ".join(text.split()).replace(" -", "-")  # 'FX(tm)-8350' -> 'fx-8350'


def x86_vectors(brand: str) -> Optional[CpuVectors]:
    """'Intel(R) Celeron(R) CPU J3455 @ 1.50GHz' -> no AVX, no AVX2; 'Intel Core i7-3770' -> AVX, no AVX2;
    a CPU the table does not list (or not an x86 one) -> None."""
    text = normalise_brand(brand)
    if not text or not re.search(r"\b(?:intel|amd|xeon|core|celeron|pentium|atom|phenom|athlon|opteron|turion|fx-)", text):
        return None
    for pattern, family, (avx, avx2), source in _COMPILED:
        if pattern.search(text):
            return CpuVectors(family, avx, avx2, source)
    return None


# An Intel Mac's model identifier -> its CPU's vectors, for texts that name the Mac but not the CPU. Per family:
# (first model number with AVX, first with AVX2); below the first, no AVX. Sources: Apple's "Identify your Mac"
# pages (support.apple.com/102869 MacBook Pro, /102869-air MacBook Air, /108054 iMac, /102852 Mac mini, /102887 Mac Pro,
# /103257 MacBook) for each identifier's year and CPU, and Wikipedia's Sandy Bridge (AVX, 2011) and Haswell (AVX2,
# 2013) pages: MacBookPro8,1 / MacBookAir4,1 / iMac12,1 / Macmini5,1 are the 2011 Sandy Bridge models, MacPro6,1 is
# 2013's Ivy Bridge-EP Xeon E5 v2; MacBookPro11,1 / MacBookAir6,1 / iMac14,1 / Macmini7,1 / MacPro7,1 / MacBook8,1
# are the first Haswell-or-newer ones. Xserve and every MacBook before 8,1 are Core 2 / Xeon 5100-5500 machines.
_MAC_VECTORS = {"MacBookPro": (8, 11), "MacBookAir": (4, 6), "iMac": (12, 14), "Macmini": (5, 7), "MacPro": (6, 7),
                "MacBook": (8, 8), "Xserve": (99, 99)}
_MAC_SOURCE = "Apple's 'Identify your Mac' pages (each identifier's CPU); Wikipedia: Sandy Bridge, Haswell"


def mac_model_vectors(identifier: str) -> Optional[CpuVectors]:
    """'MacPro3,1' -> no AVX (2008 Harpertown Xeons); 'iMac13,2' -> AVX, no AVX2; 'MacBookPro15,1' or an
    identifier the table does not know -> None (nothing known to lack)."""
    parts = model_identifier(identifier)
    if parts is None or parts[0] not in _MAC_VECTORS:
        return None
    avx_from, avx2_from = _MAC_VECTORS[parts[0]]
    number = parts[1]
    if number >= avx2_from:
        return None
    family = ("Intel before Sandy Bridge" if number < avx_from else "Sandy Bridge / Ivy Bridge") + f" in a {identifier.strip()}"
    return CpuVectors(family, number >= avx_from, False, _MAC_SOURCE)


# The same by the name and year people write ('MacBook Pro (15-inch, Early 2011)', 'Mid 2010 Macbook Pro'): per family,
# the first model year with AVX and the first with AVX2 (the same pages). Only the 2013 MacBook Pro needs its season:
# Early 2013 is Ivy Bridge (AVX), Late 2013 Haswell (AVX2).
_FIRST_AVX_YEAR = {"macbookpro": 2011, "macbookair": 2011, "imac": 2011, "macmini": 2011, "macpro": 2013, "macbook": 2015}
_FIRST_AVX2_YEAR = {"macbookpro": 2014, "macbookair": 2013, "imac": 2013, "macmini": 2014, "macpro": 2019, "macbook": 2015}
_NAMED_MAC = re.compile(r"\b(Mac ?Book(?: ?Pro| ?Air)?|iMac|Mac ?mini|Mac ?Pro)\b(?! ?Pro\b).*?\b(?:(Early|Mid|Late)[ -])?(20[01]\d)\b"
                        r"|\b(?:(Early|Mid|Late)[ -])?(20[01]\d)\b\D{0,12}?\b(Mac ?Book(?: ?Pro| ?Air)?|iMac|Mac ?mini|Mac ?Pro)\b",
                        re.IGNORECASE)


def mac_name_vectors(name: str) -> Optional[CpuVectors]:
    """'MacBook Pro (15-inch, Early 2011)' -> AVX, no AVX2; 'Mid 2010 Macbook Pro' -> no AVX; a 2014 or later Mac,
    a 'MacBook Pro 2013' without its season, or no family and year -> None."""
    found = _NAMED_MAC.search(name or "")
    if not found:
        return None
    family = "".join((found.group(1) or found.group(6)).split()).lower()
    season, year = (found.group(2) or found.group(4) or "").lower(), int(found.group(3) or found.group(5))
    avx2_from = _FIRST_AVX2_YEAR[family]
    if family == "macbookpro" and year == 2013:
        if season != "early":
            return None  # Late 2013 is Haswell; unknown season: unknown
    elif year >= avx2_from:
        return None
    avx = year >= _FIRST_AVX_YEAR[family]
    era = "Sandy Bridge / Ivy Bridge" if avx else "Intel before Sandy Bridge"
    named = " ".join(found.group().split())
    return CpuVectors(f"{era} in a {named}" + ")" * (named.count("(") - named.count(")")), avx, False, _MAC_SOURCE)


# An Intel integrated GPU sits in its CPU, so its model names the CPU's generation (Intel ARK's 'Processor Graphics'
# row; Wikipedia: Intel HD and Iris Graphics): HD 2000/3000 only in Sandy Bridge, HD 2500/4000 only in Ivy Bridge (AVX,
# no AVX2); GMA 950/X3100/X4500 beside Core 2 and Atom parts (no AVX).
_IGPU_ROWS = ((re.compile(r"\bhd(?: graphics)? (?:2000|3000)\b"), "Sandy Bridge (its HD Graphics 2000/3000)", _NO_AVX2),
              (re.compile(r"\bhd(?: graphics)? (?:2500|4000)\b"), "Ivy Bridge (its HD Graphics 2500/4000)", _NO_AVX2),
              (re.compile(r"\bgma (?:950|x3100|x4500|3150)\b"), "Core 2 / Atom era (its GMA graphics)", _NO_AVX))
_IGPU_SOURCE = "Intel ARK: Processor Graphics of each CPU; Wikipedia: Intel HD and Iris Graphics"


def igpu_vectors(gpu_models: Tuple[str, ...]) -> Optional[CpuVectors]:
    """('Intel HD Graphics 4000',) -> Ivy Bridge: AVX, no AVX2; an Intel GPU the rows do not name -> None."""
    for model in gpu_models:
        text = " ".join(re.sub(r"\((?:r|tm)\)", " ", model.lower()).split())
        if "intel" not in text and not text.startswith(("hd ", "gma ")):
            continue
        row = next((r for r in _IGPU_ROWS if r[0].search(text)), None)
        if row:
            return CpuVectors(row[1], row[2][0], row[2][1], _IGPU_SOURCE)
    return None
