"""A machine's specs typed out by hand (an 'About This Mac' list retyped, an issue form's answers, a table row):

- 'M1 8G Mac': the memory written right after a bare Apple chip on a line about a Mac;
- 'Monterrey 12.0.1', 'Sonoma 14.4': a macOS release name (misspelt by at most one letter) and the version it
  names (the number must be that release's);
- '10.14.5 (18F203)' on its own line: a macOS version with its build (the build must be that version's);
- '40GB 2133 MHz DDR4 memory': the machine's RAM (a GPU's memory is GDDR);
- 'Intel HD Graphics 530 1536 MB', 'Radeon RX580 with 8G Ram': a GPU and its memory written right after it;
- '| iMac 27" 2019 | i9 | 64 | 2TB | 11.6 | 10.15.6 |': a table row about a Mac whose only 10.9-10.15 cell is
  its macOS (Xcode, the other version such rows hold, stopped at 10.3);
- 'My SI shows an AMD eGPU is present' beside one AMD desktop card: that card is the eGPU (the others named
  are a Mac's own).
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.knowledge.macos import MAC_MEMORY_GB, MACOS_RELEASE_NAMES, mac_only_gpu
from macml.knowledge.macos_builds import macos_for_build
from macml.probe.paste.gpu_names import gib, gpu_names, gpu_vendor, informal_gpu_names, with_partner
from macml.probe.paste.statement_rules import Facts

_MAC_WORD = re.compile(r"\bmac ?os|\bMac\b|\bMacBook|\biMac|\bMac ?mini|\bMac ?Studio", re.IGNORECASE)
_CHIP_MEMORY = re.compile(r"(?<![\w./-])M[1-5](?:\s+(?:Pro|Max|Ultra))?(?:\s+(?:chip|CPU/GPU|CPU|SoC))?[\s,]+(\d{1,3})\s?G(?:B|iB)?(?![\w.])"
                          r"(?!\s*(?:SSD|storage|disk|flash|VRAM))", re.IGNORECASE)
_NAME_VERSION = re.compile(r"(?<![A-Za-z])([A-Za-z]{5,9}(?: [A-Za-z]{3,6})?),?\s+(?:version\s+)?"
                           r"((?:1[0-5]|2[6-9])\.\d{1,2}(?:\.\d{1,2})?)(?![\d.])", re.IGNORECASE)
_VERSION_BUILD = re.compile(r"^\s*(?:[-*]\s+)?((?:1[0-5]|2[6-9])\.\d{1,2}(?:\.\d{1,2})?)\s*\((\d{2}[A-Z]\d{1,5}[a-z]?)\)\s*$")
_DDR_MEMORY = re.compile(r"(?<![\w.])(\d{1,3})\s?GB\s+\d{3,4}\s?MHz\s+(?:LP)?DDR\d\b", re.IGNORECASE)
_SIZE_AFTER = re.compile(r"\s*(?:with\s+)?(\d{1,4}(?:\.\d)?)\s?(GB|MB|G|Go)\b(?:\s+(?:of\s+)?(?:V?RAM|memory|GDDR\d\w*))?"
                         r"\s*(?:$|[,;.)]|\band\b|\bgraphics\b)", re.IGNORECASE)
_TABLE_CELLS = re.compile(r"^\s*\|(.+)\|\s*$")
_OLD_MACOS = re.compile(r"^10\.(?:9|1[0-5])(?:\.\d{1,2})?$")
_VENDOR_EGPU = re.compile(r"\b(AMD|Radeon|NVIDIA|GeForce)\s+e-?GPU\b(?!\s+(?:is\s+)?(?:not|never))", re.IGNORECASE)
_MOBILE_GPU = re.compile(r"\bM\d{3}X?\b|\d{3,4}M\b|\bRadeon Pro\b|\b(?:Intel|Iris|UHD|HD Graphics)\b", re.IGNORECASE)


def _one_letter_off(word: str, name: str) -> bool:
    """'monterrey' ~ 'monterey': one letter added, dropped or changed."""
    if word == name:
        return True
    if abs(len(word) - len(name)) > 1 or len(name) < 6:
        return False
    short, long_ = sorted((word, name), key=len)
    if len(short) == len(long_):
        return sum(a != b for a, b in zip(short, long_)) == 1
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def chip_memory(line: str) -> Facts:
    """'本机是M1 8G Mac' (after the CJK spacing), 'M2 Pro 16GB MacBook': the memory right after the chip."""
    found = _CHIP_MEMORY.search(line)
    if not found or not _MAC_WORD.search(line) or int(found.group(1)) not in MAC_MEMORY_GB:
        return []
    return [("cpu.memory_bytes", int(found.group(1)) * 1024**3)]


def release_name_version(line: str) -> Facts:
    """'Monterrey 12.0.1', '系统是最新的 Sonoma 14.4': a release name and its own version."""
    for found in _NAME_VERSION.finditer(line):
        words = found.group(1).lower().split()
        for candidate in (" ".join(words), words[-1]):
            release = next((n for n in MACOS_RELEASE_NAMES if _one_letter_off(candidate, n)), None)
            if release and (found.group(2) + ".").startswith(MACOS_RELEASE_NAMES[release] + "."):
                return [("platform", "darwin"), ("os.version", found.group(2))]
    return []


def version_with_build(line: str) -> Facts:
    """'10.14.5 (18F203)' alone on its line: About This Mac's version and build."""
    found = _VERSION_BUILD.match(line)
    if not found:
        return []
    version, build = found.group(1), found.group(2)
    of_build, _ = macos_for_build(build)
    if not of_build or ".".join(of_build.split(".")[:2]) != ".".join(version.split(".")[:2]):
        return []
    return [("platform", "darwin"), ("os.version", version), ("os.build", build)]


# a memory kit: 'G.SKILL 4x8Gb DDR4 3200Mhz RAM', '2 x 16GB DDR5' (modules times their size)
_MEMORY_KIT = re.compile(r"(?<![\w.])([1-8])\s?[x×]\s?(\d{1,3})\s?G(?:B|b|iB)?\b(?=[^,;|]{0,30}?\b(?:(?:LP)?DDR\d|RAM)\b)")


def ddr_memory(line: str) -> Facts:
    """'Graphics card, 40GB 2133 MHz DDR4 memory': DDR (not GDDR) memory with its speed is the machine's RAM; so is
    a kit of modules, '4x8Gb DDR4 3200Mhz RAM'."""
    found = _DDR_MEMORY.search(line)
    if found:
        return [("cpu.memory_bytes", int(found.group(1)) * 1024**3)]
    kit = _MEMORY_KIT.search(line)
    return [("cpu.memory_bytes", int(kit.group(1)) * int(kit.group(2)) * 1024**3)] if kit else []


def gpu_with_memory(line: str) -> Facts:
    """'IRadeon Pro 460 4 GB, Intel HD Graphics 530 1536 MB', 'Radeon RX580 with 8G Ram': the one GPU named on the
    line and the memory written right after its name (a mention: tools' GPU records stay first)."""
    names = list(dict.fromkeys(gpu_names(line) + informal_gpu_names(line)))
    names = [n for n in names if not any(n != other and n in other for other in names)]
    start = line.find(names[0]) if len(names) == 1 else -1
    size = _SIZE_AFTER.match(line, start + len(names[0])) if start >= 0 else None
    if not size:
        return []
    unit = {"G": "GB", "GO": "GB"}.get(size.group(2).upper(), size.group(2).upper())
    mib = gib(f"{size.group(1)} {unit}") // 1024**2
    return [("gpu.mention", with_partner(line, names[0])), ("gpu.memory_of", {"index": None, "memory_mib": mib})]


def mac_table_row(line: str) -> Facts:
    """'| iMac 27" 2019 | i9 3.6 GHz 8-core | 64 | 2TB | 11.6 | 10.15.6 | 252 |': the one 10.x cell is macOS."""
    row = _TABLE_CELLS.match(line)
    if not row:
        return []
    cells = [c.strip() for c in row.group(1).split("|")]
    if not cells or not _MAC_WORD.search(cells[0]):
        return []
    old = [c for c in cells if _OLD_MACOS.match(c)]
    return [("platform", "darwin"), ("os.version", old[0])] if len(old) == 1 else []


def line_facts(line: str) -> Facts:
    return (chip_memory(line) + release_name_version(line) + version_with_build(line) + ddr_memory(line)
            + gpu_with_memory(line) + mac_table_row(line))


def _vendor(word: str) -> str:
    return "AMD" if word.lower() in ("amd", "radeon") else "NVIDIA"


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """'an AMD eGPU is present', with one AMD desktop card named in the text: that card (on its line) is external."""
    vendors = {_vendor(m.group(1)) for line in lines for m in _VENDOR_EGPU.finditer(line)}
    found: Dict[int, Facts] = {}
    for vendor in vendors:
        cards: Dict[str, List[int]] = {}
        for index, line in enumerate(lines):
            for name in gpu_names(line) or informal_gpu_names(line):
                if gpu_vendor(name) == vendor and not mac_only_gpu(name) and not _MOBILE_GPU.search(name):
                    cards.setdefault(with_partner(line, name), []).append(index)
        if len(cards) == 1:
            name, where = next(iter(cards.items()))
            found.setdefault(where[0], []).append(("gpu.external", name))
    return found

