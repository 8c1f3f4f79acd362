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
