"""GPU names in any text: which models a line names, their vendor, and plaidml-setup's device lines.

Shared by the statement rules (statement_rules.py); each name is as printed, trimmed to the model.
"""
from __future__ import annotations

import functools
import re
from typing import Any, List, Optional, Tuple

from macml.knowledge.amd_apus import lspci_codename_gfx

Facts = List[Tuple[str, Any]]
CHIP = re.compile(r"\bApple (M\d{1,2})(?: (Pro|Max|Ultra))?\b")
_NVIDIA = re.compile(r"\b((?:(?i:nvidia) )?(?:GeForce|Quadro|Tesla|TITAN|RTX|NVS(?= \d)|(?i:NVIDIA) (?:G[BH]|[A-Z])(?=\d))"  # 'NVIDIA L4', 'NVIDIA T4', 'NVIDIA GB200'
                     r"[\w -]*?(?:\d+\s?(?:GB|MB)\b|\d[\w-]*|Ti|SUPER|(?i:Laptop GPU)|(?i:laptop|mobile)\b|Max-Q|\bD\b|TITAN (?:Z|X|V|Black)\b|PCIe|SXM\d*|NVL"
                     r"|(?<=\d )Blackwell(?: (?:Max-Q )?(?:Workstation|Server)(?: Edition)?)?|(?<=\d )Ada Generation"
                     r"|(?<=TITAN )(?:X \(Pascal\)|(?:Xp|X|V|Z|RTX|Black)\b))(?: with Max-Q Design| / Max-Q(?: Refresh)?)?(?: Low Profile| Lite Hash Rate)?)"
                     r"(?:(?<=\dGB)(?=\s+[A-Z]{2,}\b)"  # a board partner's word after the size: 'TITAN X 12GB GAMING'
                     r"|(?=\s*(?:$|[,():|\]\"'+&\u2014\u2013]|\.(?:\s|$)|\s{2}|\bwith\b|\bwhich\b)|\s(?:and|or|but|vs|cards?|GPUs?|Intel|AMD|NVIDIA)\b|\sPCI(?:e|-E)?\s+cards?\b|\s\d{2,4}\s?MB\b))")  # '320M 256 MB graphics' (a GB size is part of some names: 'H100 80GB HBM3')
_RADEON = re.compile(r"\b((?:AMD )?Ra(?:deon|dion|edon|deo)(?:\s?\(TM\))? (?:AI Pro |Pro |RX |R\d |HD |VII|Vega|W\d{4}X?(?![\w-])|\d{3,4}[MS] Graphics|\d{3,4}[Mm](?![\w-])|\d{4}S(?![\w-])|(?!20[0-3]\d\b)\d{3,4}X?(?![\w-]))[\w ]*?\d*\w*(?:/[A-Z]?\d{3,4}[A-Z]?\b)*)(?=\s*(?:$|[,():|\]\"'+&\u2014\u2013]|(?<=/[A-Z]\d{3})\s/(?:\s|$)|\s/\s(?![A-Z]?\d|(?:AMD\s+)?Radeon\b)|\s{2}|Compute Engine|GPU\b|\.(?:\s|$)|with\b|G?DDR\d|HBM\d?\b)|\s+\d+\s?[GM](?:B|o)?\b|\s(?:nor|and|or|but|vs|supports?|is|was|has|does|doesn't|isn't|works?)\s)",
                     re.IGNORECASE)  # 'GDDR6' after a name is its memory type; a verb ('... 64X supports metal') ends it
_FIREPRO = re.compile(r"\b((?:AMD |ATI )?FirePro(?:\(TM\))? [DWSVRM]\d{3,4}[A-Z]?)(?![\w-])")  # the Mac Pro's D300/D500/D700
# a Mac's Radeon Pro written without 'Radeon' ('my AMD Pro Vega 48', 'AMD Pro 5500M')
_AMD_PRO = re.compile(r"\b(AMD Pro (?:Vega (?:II|\d{2})(?: Duo)?|W\d{4}X(?: Duo)?|\d{3,4}[MX]?)"
                      r"|AMD 5[3-6]00M)(?![\w-])")  # or without 'Pro': 'AMD 5500M is okay' (the 16-inch MacBook Pro's)
_PARAVIRTUAL = re.compile(r"\b(Apple Paravirtual device)\b")  # Metal's name for a macOS guest's GPU
_ATI_HD = re.compile(r"\b(ATI HD ?[2-6]\d{3}[A-Z]?)\b")  # ATI's own brand before AMD's ('ATI HD 5770 Apple Edition')
_GRID = re.compile(r"\b((?:NVIDIA )?GRID [A-Z]\d+\w*-\d+[A-Z])\b")  # a vGPU profile: 'GRID V100D-32C'
# Jetson's integrated GPUs as CUDA names them: deviceQuery's 'NVIDIA Tegra X1', torch's 'Orin (nvgpu)'
_TEGRA = re.compile(r"\b((?:NVIDIA )?Tegra X\d|(?:NVIDIA )?(?:Orin|Xavier)(?: \(nvgpu\))?(?= \(nvgpu\)|\s*$|(?<=\)))|(?<=\bNVIDIA )Orin)")
_INSTINCT = re.compile(r"\b((?:AMD )?Instinct MI\d+\w*(?:/MI\d+\w*)?(?: OAM\b)?(?: VF\b)?|AMD MI(?:25|50|60|100|210|250X?|300[AX]?|308X|325X|35[05]X)\b)",
                       re.IGNORECASE)  # OAM: the module form; 'amd mi308x gpu': the maker and an Instinct number


def gib(value: str) -> Optional[int]:
    # 'Gi': free -h; 'Go'/'Mo': French octets ('RAM : 96 go'); '16g' as people type it ('内存：16g')
    value = re.sub(r"(?<!\d)(\d{1,3}),(\d{3})(?![\d,])", r"\1\2", value.replace("`", ""))  # a thousands comma: '16,354 MB' is 16354 MB
    match = re.search(r"([\d.]+)\s*(TB|Ti|GB|GiB|Gi|G|MB|MiB|Mi|gigabytes|megabytes|[Gg]o|[Mm]o|To|gb|Gb|gib|mb|mib|g)(?:[sS](?![a-zA-Z]))?\b", value)
    if match:
        scale = {"TB": 1024**4, "TI": 1024**4, "GB": 1024**3, "GIB": 1024**3, "GI": 1024**3, "G": 1024**3, "MB": 1024**2,
                 "MIB": 1024**2, "MI": 1024**2, "GIGABYTES": 1024**3, "MEGABYTES": 1024**2, "GO": 1024**3, "MO": 1024**2,
                 "TO": 1024**4}
        return int(float(match.group(1)) * scale[match.group(2).upper()])
    digits = value.strip()
    return int(digits) if digits.isdigit() and int(digits) >= 1 << 30 else None


# Radeon RX models by their bare number and XT/XTX suffix ('7900XTX', '6800 XT'): no other GPU is named so
_XT_NUMBER = r"(?:(?:5[5-7]|6[6-9]|7[6-9])[05]0|90[67]0)\s?xtx?"
_BARE_XT = r"(?<![\w.-])" + _XT_NUMBER + r"(?![\w.+-])"


def gpu_vendor(name: str) -> str:
    """'GeForce GTX 1050' -> 'NVIDIA', 'AMD Radeon Pro 580' -> 'AMD', 'Apple M1 Max' -> 'Apple'."""
    return ("NVIDIA" if re.search(r"n[i]?vidia|geforce|quadro|tesla|titan|rtx|\bgtx|\bgrid\b|\bnvs\s?\d{3}|\b(?:tegra|orin|xavier|jetson)\b"
                                  r"|\bgt\s?(?:1030|[2-7][1-6][05]m?)\b", name, re.I) else
            "AMD" if re.search(r"radeon|amd|\bati\b|firepro|instinct|\bvega\s?\d{1,2}\b|\brx\s?\d{3,4}(?:\b|(?=(?:xtx|xt|gre)\b))|\bmi(?:25|50|60|100|2[15]0x?|300[ax]?|325x|35[05]x)\b|"
                               + _BARE_XT, name, re.I) else
            "Apple" if name.startswith("Apple") else "Intel" if re.search(r"intel|\barc\s?[abc]\d{3}", name, re.I) else "unknown")


def full_radeon_name(name: str) -> str:
    """A Radeon written without its series words, by its card name: a bare RX number ('7900XTX', '6800 xt') ->
    'Radeon RX 7900 XTX'; 'AMD Pro Vega 48' -> 'AMD Radeon Pro Vega 48'. Other names unchanged."""
    bare = re.fullmatch(r"\s*(\d{4})\s?(xtx?)\s*", name, re.IGNORECASE)
    if bare and re.fullmatch(_XT_NUMBER, name.strip(), re.I):
        return f"Radeon RX {bare.group(1)} {bare.group(2).upper()}"
    return re.sub(r"^AMD Pro ", "AMD Radeon Pro ", name) if _AMD_PRO.fullmatch(name.strip()) else name


def without_opencl_suffix(name: str) -> str:
    """Apple's OpenCL name for a Mac's GPU is the GPU's own plus ' Compute Engine' ('AMD Radeon R9 M370X Compute
    Engine'): the GPU's own."""
    return re.sub(r"\s+Compute Engine\s*$", "", name)


def gpu_record(name: str, memory: Optional[str] = None, index: Optional[int] = None) -> Tuple[str, Any]:
    name = full_radeon_name(without_opencl_suffix(name))
    vendor = gpu_vendor(name)
    mib = None
    if memory:
        size = gib(memory)
        mib = size // 1024**2 if size else None
    return ("gpu", {"name": name.strip(), "vendor": vendor, "memory_mib": mib, "index": index})


_INTEL_GPU = re.compile(r"\b((?i:intel)(?:\(R\))? Arc(?:\(TM\))? [AB]\d{3}M? Graphics|(?i:intel)(?:\(R\))? GMA (?:950|X3100|3150)\b|(?i:intel)(?:\(R\))? (?:UHD|HD|Iris(?:\((?:TM|R)\))?(?: Pro| Plus| Xe)?|Arc)(?!\w)(?: Graphics)?(?: \w*\d\w*\b(?!\s?[MG]B\b))?(?: (?:CFL|KBL|SKL|CML)\b)?"
                        r"|Intel(?:\(R\))? Data Center GPU (?:Max|Flex) \d+)")
_PLAIDML_DEVICE = re.compile(r"^\s*((?:metal|opencl|llvm)_[^\s:]+|[a-z0-9_().-]+_compute_engine)\.(\d+)\s*:\s*(.+)$",
                             re.IGNORECASE)


_RADEON_SUFFIXES = frozenset({"xtx", "xt", "gre", "x", "m", "s", "graphics", "series", "duo", "ti", "pro", "max", "mobile"})
_RADEON_WORDS = frozenset({"amd", "radeon", "(tm)", "pro", "rx", "hd", "ai", "vega", "vii", "ii", "duo", "ssg", "fury", "nano",
                           "mobile", "gfx", "graphics"})


def radeon_name(found: str) -> Optional[str]:
    """The Radeon model in what the pattern took, without the words after it: 'AMD RADEON 6750M FAILURE' ->
    'AMD RADEON 6750M', 'Radeon Pro 5700 XT on Big Sur via' -> 'Radeon Pro 5700 XT' (a board partner's capitalised
    word stays: 'RX 6600 XT Fighter'); 'Radion Pro 5500M' (a typo) ->
    'Radeon Pro 5500M'; 'Radeon Pro activity' (no model) -> None."""
    words = re.sub(r"\bRa(?:dio|edo)n\b|\bRadeo\b", "Radeon", found, flags=re.IGNORECASE).split()
    numbered = [i for i, word in enumerate(words) if re.search(r"\d", word)]
    if numbered:
        end = numbered[0] + 1
        while end < len(words) and (words[end].lower() in _RADEON_SUFFIXES or re.search(r"\d", words[end])
                                    or re.fullmatch(r"[A-Z][a-z]{3,}", words[end]) and words[end] not in ("With", "Graphics")):
            end += 1
        return " ".join(words[:end])
    end = next((i for i, word in enumerate(words) if word.lower() not in _RADEON_WORDS), len(words))
    kept = words[:end]
    return " ".join(kept) if any(w.lower() in {"vega", "vii", "duo", "ssg", "fury", "nano"} for w in kept) else None


_BRANDS = {"tesla": "Tesla", "quadro": "Quadro", "geforce": "GeForce", "firepro": "FirePro", "radeon": "Radeon"}
# a brand word in capitals or with a small letter inside, before a model number
_BRAND_CASE = re.compile(r"\b(TESLA|QUADRO|GEFORCE|FIREPRO|RADEON|Firepro|Geforce)(?=\s+[A-Z]{0,3}\d)")
_LOWER_TESLA = re.compile(r"\btesla(?=\s+[KMPVT]\d{1,3}[a-z]?\b)", re.IGNORECASE)


def gpu_names(text: str) -> List[str]:
    """The GPU models a piece of text names: 'NVIDIA GeForce RTX 4090', 'AMD Radeon Pro 560X', 'Apple M1 Max'."""
    return list(_gpu_names(text))


# Strix Halo's integrated Radeon 8060S / 8050S / 8040S (AMD's Ryzen AI Max product pages): the S is the model's
_RADEON_S_MODEL = re.compile(r"\bRadeon\s+80[4-6]0s$", re.IGNORECASE)


def _singular(name: str) -> str:
    """A plural left off: '2x Tesla K80s', 'two RTX 3090s'; not the S of a model that has one ('Radeon 8060s')."""
    if _RADEON_S_MODEL.search(name):
        return name[:-1] + "S"
    return re.sub(r"(?<=\d)s$", "", name)


@functools.lru_cache(maxsize=4096)  # many rules ask about the same line
def _gpu_names(text: str) -> Tuple[str, ...]:
    names = []
    text = text.replace("NoGCNArchNameOnOldPyTorch", " ")  # collect_env's marker glued to an AMD name (old torch)
    text = _BRAND_CASE.sub(lambda m: _BRANDS[m.group(1).lower()], text)  # 'TESLA M40', 'Firepro D700' as written
    text = _LOWER_TESLA.sub("Tesla", text)  # 'tesla K40c': NVIDIA's data-center letters and a number say which Tesla
    text = re.sub(r"\b(Intel|Iris|Core) \((R|TM)\)", r"\1(\2)", text)  # 'Intel (R) UHD Graphics 630' (a summary's spacing)
    text = re.sub(r"\b((?i:intel)(?:\(R\))? U?HD)(\d{3,4})\b", r"\1 \2", text)  # 'Intel UHD630', 'Intel HD530' as typed
    text = re.sub(r"(?<!Radeon )\bRX Vega (56|64)\b", r"Radeon RX Vega \1", text)  # 'RX Vega 56': only AMD's Vega 10 cards
    for pattern in (_GRID, _NVIDIA, _TEGRA, _RADEON, _INSTINCT, _FIREPRO, _AMD_PRO, _INTEL_GPU, _PARAVIRTUAL, _ATI_HD):
        found = [m.group(1).strip() for m in pattern.finditer(text)]
        names += [n for n in map(radeon_name, found) if n] if pattern is _RADEON else found
    names = [_singular(name) for name in names]
    chip = CHIP.search(text)
    if chip and not names:
        names.append(" ".join(g for g in ("Apple", *chip.groups()) if g))
    return tuple(names)


# GPU models as people write them in a GPU field or a parts list, without the words tools print: 'GTX 3070
# laptop', 'RTX 5090D' (the China-market D models), 'geforce 960' (the series word left out), '4080 RTX', 'RX 6800', 'AMD 7900XTX' (a bare 'AMD 7900' is as
# likely the Ryzen 9 7900 CPU), 'AMD 5300M' (a mobile Radeon: no AMD CPU number ends in a bare M), 'vega 8' (an APU's)
_INFORMAL = re.compile(r"(?<![\w.-])((?:n[i]?vidia\s+)?(?:geforce\s+)?(?:(?:rtx|gtx)\s?-?\d{3,4}|gt\s?(?:1030|[2-7][1-6][05]m?))(?:\s?(?:ti|super|d)){0,2}"
                       r"(?:\s+(?:laptop|mobile|max-q)(?:\s+gpu)?)?|(?:n[i]?vidia\s+)?geforce\s+[1-9]\d{2,3}(?:\s?(?:ti|m))?|\d{4}(?:\s?(?:ti|super))?\s(?:rtx|gtx)"
                       r"|(?:amd\s+)?(?:radeon\s+)?rx\s?\d{3,4}(?:\s?(?:xtx|xt|gre)|m)?|amd\s+(?:radeon\s+)?\d{4}\s?(?:xtx|xt|gre)|amd\s+[6-8]\d0m(?!\s+graphics)"
                       r"|amd\s+[5-7][3-8]00m|(?:radeon\s+)?" + _XT_NUMBER + r""
                       r"|(?:intel\s+)?arc\s?(?:pro\s)?(?:a(?:310|380|580|750|770)|a[3-7][357]0m|b5[78]0|[ab][4-6]0)"  # Intel Arc's models (Intel ark)
                       r"|(?:radeon\s+)?vega\s?(?:3|6|7|8|11|56|64))"  # a Ryzen APU's Radeon Vega, the RX Vega 56/64 (not
                       # 'Vega 10', a chip's name too)
                       r"(?![\w+-]|\.\w)", re.IGNORECASE)


def informal_gpu_names(text: str) -> List[str]:
    """'GTX 3070 laptop 8GB vram' -> ['GTX 3070 laptop']; '4080 RTX' -> ['4080 RTX']; 'AMD 7900XTX' -> ['AMD 7900XTX']."""
    return [m.group(1).strip() for m in _INFORMAL.finditer(text)]


# pci.ids' name of a chip whose cards it lists (rocm-smi's Device Name, lspci): 'Navi 31 [Radeon RX 7900 XT/7900 XTX]'
_FAMILY_NAME = re.compile(r"^((?:Navi|Vega|Polaris|Ellesmere|Baffin|Lexa|Fiji|Tonga|Hawaii)\s?\d*\s*\[Radeon[^\]/]*/[^\]]*\])$",
                          re.IGNORECASE)


# an integrated GPU named without its model, as a GPU field may list it beside a discrete one
_GENERIC_IGPU = re.compile(r"(?:integrated\s+)?(?:AMD\s+)?Radeon(?:\s?\(TM\))?\s+Graphics", re.IGNORECASE)


def gpu_value(value: str, index: Optional[int] = None) -> Facts:
    """'NVIDIA GeForce RTX 4090', 'GPU 0: Tesla T4', 'Apple M1 Max', 'Radeon Pro 560X, 4 GB', 'GTX 1650 (4gb vram)'."""
    numbered = re.match(r"^(?:GPU\s*|cuda:)(\d+)\s*:?\s*", value.strip())
    if numbered:
        index, value = int(numbered.group(1)), value.strip()[numbered.end():]
    if value.strip().lower() in ("none", "n/a", "no", "false", "[]") or value.lower().startswith("could not"):
        return []
    joined = [p.strip() for p in re.split(r"\s\+\s", value)] if index is None else []
    if len(joined) > 1:  # 'Integrated Radeon Graphics + NVIDIA GeForce GTX 1650': each GPU of the machine
        each = [gpu_value(p) or ([gpu_record(p)] if _GENERIC_IGPU.fullmatch(p) else []) for p in joined]
        if all(each):
            return [fact for facts in each for fact in facts]
    listed = [p.strip() for p in value.split(",")] if index is None else []
    if len(listed) > 1 and all(gpu_names(p) == [p] for p in listed):
        return [gpu_record(p) for p in listed]  # 'Quadro K620, Tesla K80': one GPU a part
    family = _FAMILY_NAME.match(value.strip())
    if family:  # 'Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]' names a family, not which card of it
        return [gpu_record(family.group(1), None, index)]
    parts = [p.strip() for p in re.split(r"[,|]", value)]  # 'NVIDIA RTX A5000 | 24564 MiB | driver 595.71.05'
    glued = re.search(r"\s(\d{3,6})\s?MiB\s*$", parts[0])  # TensorFlow's form: 'GeForce 940MX 982MiB'
    if glued and len(parts) == 1:
        parts = [parts[0][:glued.start()].strip(), f"{glued.group(1)} MiB"]
    memory = next((p for p in parts[1:] if re.search(r"\d\s*(?:GB|MB|GiB|MiB)\b", p)), None)
    vram = re.search(r"\b(\d{1,3})\s*gb\s*(?:(?:of\s+)?(?:vram|memory)\b|\))", value, re.IGNORECASE)
    memory = memory or (vram.group(1) + " GB" if vram else None)
    bracketed = re.search(r"\(\s*(\d{3,6})\s?(MB|MiB)(?:\s+(?:VRAM|memory))?\s*\)", value, re.IGNORECASE)  # '(8176 MB VRAM)'
    memory = memory or (f"{bracketed.group(1)} {bracketed.group(2)}" if bracketed else None)
    trailing = re.search(r"\s(\d{3,5})\s?MB\s*$|\s(\d{1,2})\s?GB\s*$", parts[0]) \
        if len(gpu_names(parts[0])) == 1 else None  # 'Radeon Pro 560x 4096MB' (not the last of two GPUs' sizes)
    memory = memory or (f"{trailing.group(1)} MB" if trailing and trailing.group(1) else f"{trailing.group(2)} GB" if trailing else None)
    names = next((found for found in map(gpu_names, parts) if found), []) or informal_gpu_names(parts[0])
    after = parts[0].split(names[0], 1)[1] if names and names[0] in parts[0] else ""
    beside = re.match(r"\s+(\d{1,2})\s?G(?:B|iB)?\b(?!/s)", after)  # 'AMD Radeon Pro 5600M 8G HBM2  394 GB/s'
    memory = memory or (beside.group(1) + " GB" if beside else None)
    return [gpu_record(with_partner(parts[0], names[0]), memory, index)] if names else []


# board partners that put their name before the GPU's in a spec list ('GIGABYTE AMD Radeon RX 6650 XT')
_PARTNERS = (r"(?<![\w-])(?:GIGABYTE|Gigabyte|MSI|ASUS|Asus|ASRock|Sapphire|SAPPHIRE|PowerColor|XFX|ZOTAC|Zotac|EVGA|PNY|Palit"
             r"|Gainward|Inno3D|GALAX|Galax|KFA2|Colorful|Yeston|Maxsun) +")


# an APU's integrated GPU as lspci (and GNOME's About, which copies it) names it, by the APU's codename:
# 'Advanced Micro Devices, Inc. [AMD/ATI] Phoenix1' (knowledge/amd_apus.lspci_codename_gfx knows which names are such)
_APU_BY_CODENAME = re.compile(r"\[AMD/ATI\]\s*(\w+(?:\s\w+)?)\s*$", re.IGNORECASE)


def apu_codename_gpu(value: str) -> Facts:
    """'Advanced Micro Devices, Inc. [AMD/ATI] Phoenix1' -> an AMD GPU named 'Phoenix1', gfx1103."""
    found = _APU_BY_CODENAME.search(value)
    gfx = lspci_codename_gfx(found.group(1)) if found else None
    return [("gpu", {"name": found.group(1), "vendor": "AMD", "memory_mib": None, "index": None, "gfx": gfx})] if gfx else []


def with_partner(text: str, name: str) -> str:
    """A GPU name the text writes right after its board partner's: the name as written, partner included."""
    found = re.search(_PARTNERS + re.escape(name), text)
    return found.group(0) if found else name


def plaidml_devices(line: str) -> Facts:
    """plaidml-setup's device lines ('metal_amd_radeon_pro_460.0 : AMD Radeon Pro 460 (Metal)') name a
    GPU (each numbered device is one); a Metal device is a Mac's."""
    match = _PLAIDML_DEVICE.match(line)
    if not match:
        return []
    facts: Facts = [gpu_record(name, index=int(match.group(2))) for name in gpu_names(match.group(3))]
    if match.group(1).lower().startswith("metal_"):
        facts.append(("platform", "darwin"))
    return facts
