"""A Mac's GPUs as people list an eGPU setup: the Mac Pro 2013's FirePro GPUs named bare, the GPUs of an eGPU section.

- 'Dual D500s' in a text about a Mac Pro 2013 ('Mac Pro 6, 1', 'Mac Pro (Late 2013)', MacPro6,1): its AMD FirePro
  D300/D500/D700 (every one has two; Apple's tech specs, support.apple.com/kb/SP697).
- An 'eGPU:' heading and the lines under it (to a blank line): the GPU named there is in the enclosure ('Sonnet 350W',
  'XFX Radeon RX 580'), so it is external.
- A setup list whose item names an eGPU enclosure ('- Razer Core X V2 on a direct rear Thunderbolt 5 connection') and
  whose next item is a GPU alone ('- AMD Radeon RX 7900 XTX'): that GPU is the one in the enclosure.
- An enclosure named with its GPU on one line ('Using Razer Core X with a Nvidia geforce 960'): that GPU, external.
- A crash report's system profile 'PCI Card: Radeon RX 570, sppci_displaycontroller, Thunderbolt@132,0,0': a display
  controller on a Thunderbolt slot is in an enclosure.

`answers` reads the whole text: line index -> facts.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.gpu_names import gpu_names, gpu_record, informal_gpu_names

Facts = List[Tuple[str, Any]]

_MAC_PRO_2013 = re.compile(r"\bMac\s?Pro\s*(?:6,\s?1\b|\(?\s*(?:late\s+)?2013\b)|\bMacPro6,1\b|\b(?:late\s+)?2013\s+Mac\s?Pro\b",
                           re.IGNORECASE)
_FIREPRO_BARE = re.compile(r"(?<![\w-])(dual|two|2x?)?\s*(?:AMD\s+)?(?:FirePro\s+)?(D[357]00)(s)?(?![\w-])", re.IGNORECASE)
_EGPU_HEADING = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?e-?GPU(?:\s+(?:setup|config\w*|enclosure|box))?(?:\*\*)?\s*:\s*(?:\*\*)?\s*$",
                           re.IGNORECASE)


def mac_pro_firepro(lines: Sequence[str]) -> Dict[int, Facts]:
    """'Dual D500s' where the text names a Mac Pro 2013: its two AMD FirePro GPUs."""
    found: Dict[int, Facts] = {}
    named = [index for index, line in enumerate(lines) if _MAC_PRO_2013.search(line)]
    if not named:
        return found
    found[named[0]] = [("platform", "darwin"), ("cpu.hardware_arch", "x86_64"), ("cpu.model", "MacPro6,1")]
    for index, line in enumerate(lines):
        match = _FIREPRO_BARE.search(line)
        if not match or len(line.strip()) > 120 or re.search(r"\b(?:AMD|FirePro)\b", line, re.IGNORECASE):

            continue  # named with its brand: mac_words_rules reads it
        record = {"name": f"AMD FirePro {match.group(2).upper()}", "vendor": "AMD", "memory_mib": None, "index": None}
        two = match.group(1) or match.group(3)
        found.setdefault(index, []).extend([("platform", "darwin"), ("cpu.hardware_arch", "x86_64")] + (
            [("gpu", dict(record, index=0)), ("gpu", dict(record, index=1))] if two else [("gpu", record)]))
    return found


def egpu_section(lines: Sequence[str]) -> Dict[int, Facts]:
    """'eGPU:' then 'Sonnet 350W', 'XFX Radeon RX 580': the GPU listed under the heading is external."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _EGPU_HEADING.match(line):
            continue
        for follow in range(index + 1, min(len(lines), index + 8)):
            if not lines[follow].strip():
                break
            for name in gpu_names(lines[follow]):
                fact, record = gpu_record(name)
                found.setdefault(follow, []).extend([(fact, record), ("gpu.external", name)])
    return found


_ENCLOSURE_ITEM = re.compile(r"^\s*[-*]\s+(?:an?\s+)?(?:Ra[sz][eo]r Core(?: X)?(?: V2| Chroma)?|Sonnet (?:eGFX|Breakaway)\b[\w -]*"
                             r"|Akitio Node\b[\w -]*|Mantiz (?:Venus|Saturn)\b[\w -]*|(?:AORUS|Gigabyte) Gaming Box\b[\w -]*"
                             r"|PowerColor (?:Gaming Station|Devil Box)\b[\w -]*|e-?GPU (?:enclosure|box)\b[\w -]*)\b", re.IGNORECASE)
_GPU_ITEM = re.compile(r"^\s*[-*]\s+(\S.*?)\s*$")


def enclosure_item(lines: Sequence[str]) -> Dict[int, Facts]:
    """'- Razer Core X V2 on ...' then '- AMD Radeon RX 7900 XTX': the GPU item after the enclosure's is external."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        item = _GPU_ITEM.match(lines[index + 1]) if _ENCLOSURE_ITEM.match(line) and not gpu_names(line) else None
        names = gpu_names(item.group(1)) if item else []
        if names and names[0] == item.group(1):
            found[index + 1] = [gpu_record(names[0]), ("gpu.external", names[0])]
    return found


_ENCLOSURE = (r"(?:Ra[sz][eo]r Core(?: X)?(?: V2| Chroma)?|Sonnet (?:eGFX|Breakaway)(?: \w+){0,3}?|Akitio Node(?: \w+){0,2}?|"
              r"Mantiz (?:Venus|Saturn)|(?:AORUS|Gigabyte) Gaming Box|PowerColor (?:Gaming Station|Devil Box))")
_ENCLOSURE_WITH = re.compile(r"\b" + _ENCLOSURE + r"\s+(?:with|holding|housing|containing|and)\s+(?:an?\s+|my\s+|the\s+)?(.+)$",
                             re.IGNORECASE)


def enclosure_with_gpu(line: str) -> Facts:
    """'Using Razer Core X with a Nvidia geforce 960' -> the GTX 960, in the enclosure."""
    found = _ENCLOSURE_WITH.search(line)
    names = (gpu_names(found.group(1)) or informal_gpu_names(found.group(1))) if found else []
    return [gpu_record(names[0]), ("gpu.external", names[0])] if names else []


_THUNDERBOLT_CARD = re.compile(r"^\s*PCI Card:\s*([^,]+),\s*sppci_displaycontroller,\s*Thunderbolt@")


def thunderbolt_card(line: str) -> Facts:
    """The crash report's PCI Card line of a display controller on Thunderbolt: that GPU, external."""
    found = _THUNDERBOLT_CARD.match(line)
    names = gpu_names(found.group(1)) if found else []
    return [("gpu.external", names[0])] if names else []


def _line_facts(line: str) -> Facts:
    return enclosure_with_gpu(line) + thunderbolt_card(line)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found = {index: facts for index, facts in enumerate(map(_line_facts, lines)) if facts}
    for index, facts in mac_pro_firepro(lines).items():
        found.setdefault(index, []).extend(facts)
    for index, facts in list(egpu_section(lines).items()) + list(enclosure_item(lines).items()):
        found.setdefault(index, []).extend(facts)
    return found
