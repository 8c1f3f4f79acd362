"""Hardware as people write it in prose and spec lists:

- 'my processor is intel i5': an Intel Core CPU, so an x86_64 machine;
- a board partner's AMD card ('Sapphire Vega 56', 'XFX RX 580'), named as written; on the line after an eGPU
  enclosure ('Razer Core X eGPU') it is that external GPU;
- a GPU's memory written after its name, in GB or in French 'Go' ('Radeon Pro Vega 64X 16 Go');
- an Intel CPU's own graphics named by its model in brackets ('only Intel core graphics (UHD 630)'): that GPU,
  the Intel UHD Graphics 630;
- a Mac's CPU and GPU core counts side by side ('MacBook Pro 14 (10 CPU cores, 16 GPU cores)', 'M5 Pro 18 CPU/20 GPU'),
  and VS Code's system-info row 'CPUs | Apple M3 Pro (12 x 24)' (the CPU's core count, then its clock);
- 'N-core graphics processor' / 'N-core GPU' on its own line, for the one Apple chip the text names, when the
  chip comes with that many GPU cores.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence

from macml.knowledge.hardware import apple_core_options
from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.mac_issue_rules import _EGPU
from macml.probe.paste.said_of_this_machine import NEGATION
from macml.probe.paste.statement_rules import Facts

_INTEL_CORE_PROSE = re.compile(r"\b(?:processor|cpu)\s+(?:is\s+)?(?:an?\s+)?intel\s+(?:core\s+)?(i[3579])\b(?![-\w])",
                               re.IGNORECASE)
# Sapphire, PowerColor and XFX make AMD cards only; the model word (Vega, RX) says AMD for the others
_PARTNER_CARD = re.compile(r"\b((?:Sapphire|PowerColor|XFX|ASRock|Gigabyte|MSI|ASUS)\s+(?:(?:Pulse|Nitro\+?|Red Devil|Red Dragon)\s+)?"
                           r"(?:Radeon\s+)?(?:RX\s*(?:Vega\s*(?:56|64)|\d{3,4}(?:\s?XTX?)?)|Vega\s*(?:56|64)))(?![\w.])",
                           re.IGNORECASE)
_MEMORY = re.compile(r"(?<![\w.])(\d{1,2})\s?(?:GB|Go|Gio|GiB)\b(?!\s*(?:RAM|of RAM|memory|DDR|LPDDR|SSD))")
_GPU_CORE_LINE = re.compile(r"(?<![\d.])(\d{1,2})[- ]?cores?\s+(?:GPU|graphics(?: processor)?)\b", re.IGNORECASE)
_CHIP = re.compile(r"(?<![\w-])(?:Apple\s+)?M([1-9])(?:\s+(Pro|Max|Ultra))?(?![\w.])")


def intel_core_prose(line: str) -> Facts:
    """'my processor is intel i5': an Intel Core CPU (x86_64)."""
    return [("cpu.hardware_arch", "x86_64")] if _INTEL_CORE_PROSE.search(line) else []


def partner_cards(line: str) -> List[str]:
    """AMD cards named with their board partner, when no name as tools print it is on the line."""
    return [] if gpu_names(line) else [m.group(1) for m in _PARTNER_CARD.finditer(line)]


def partner_card_facts(line: str) -> Facts:
    return [("gpu", {"name": name, "vendor": "AMD", "memory_mib": None, "index": None}) for name in partner_cards(line)]


def memory_after_gpu(line: str) -> Facts:
    """'Radeon Pro Vega 64X 16 Go': the memory written right after one GPU's name."""
    sizes = [m for m in _MEMORY.finditer(line)
             if any(line[:m.start()].rstrip().endswith(name) for name in gpu_names(line[:m.start()].rstrip())
                    + partner_cards(line[:m.start()].rstrip()))]
    return [("gpu.memory_of", {"index": None, "memory_mib": int(sizes[0].group(1)) * 1024})] if len(sizes) == 1 else []


_INTEL_GRAPHICS_BRACKET = re.compile(r"\bIntel\s+(?:core\s+|integrated\s+|on-?board\s+|CPU\s+)?graphics\s*\(\s*"
                                     r"(UHD|HD|Iris(?: Xe| Plus| Pro)?)\s*(\d{3,4})?\s*\)", re.IGNORECASE)


def intel_graphics_bracket(line: str) -> Facts:
    """'only Intel core graphics (UHD 630)' -> the Intel UHD Graphics 630."""
    found = _INTEL_GRAPHICS_BRACKET.search(line)
    if not found or NEGATION.search(line[max(0, found.start() - 30):found.start()]):
        return []
    family = {"uhd": "UHD", "hd": "HD"}.get(found.group(1).lower(), found.group(1))
    return [gpu_record(" ".join(p for p in ("Intel", family, "Graphics", found.group(2)) if p))]


_CPU_AND_GPU_CORES = re.compile(r"\b(\d{1,2})[- ]?(?:core\s+)?CPUs?(?:\s+cores?)?\s*(?:[,/&]|\s-)\s*(?:and\s+)?(\d{1,2})[- ]?(?:core\s+)?GPUs?"
                                r"(?:\s+cores?)?\b", re.IGNORECASE)
# the label first: 'Apple M5 Max with CPU 18-Core and GPU 40-Core'
_LABEL_FIRST_CORES = re.compile(r"\bCPU\s+(\d{1,2})[- ]cores?\s*(?:[,/&]|\band\b)\s*(?:and\s+)?GPU\s+(\d{1,2})[- ]cores?\b",
                                re.IGNORECASE)
_VSCODE_CPUS = re.compile(r"^\s*\|\s*CPUs\s*\|\s*Apple M\d[^|]*\((\d{1,2}) x \d+\)\s*\|")


_CHIP_CORES = re.compile(r"\bApple (M\d(?: (?:Pro|Max|Ultra))?)\s+(?:[·•]\s+)?\(?(\d{1,2})[- ]cores?\b(?!\s*(?:GPU|graphics))", re.IGNORECASE)
_CRASH_PROC = re.compile(r"\bproc (\d{1,2}):\d{1,2}:\d{1,2}(?::\d+)? processors\b")  # a crash report's 'proc 28:20:8:0'


def core_counts(line: str) -> Facts:
    """'(10 CPU cores, 16 GPU cores)', 'with CPU 18-Core and GPU 40-Core' -> 10 (18) CPU and 16 (40) GPU cores; '|CPUs|Apple M3 Pro (12 x 24)|' and a crash report's
    'proc 28:20:8:0 processors' -> 12 and 28 CPU cores; 'Apple M4 Pro 14 core', 'Apple M2 Pro (12 cores: 8
    performance, 4 efficiency)' -> 14 and 12 CPU cores (a count only that
    chip's CPU comes in, none of its GPU's)."""
    both = _CPU_AND_GPU_CORES.search(line) or _LABEL_FIRST_CORES.search(line)
    if both:
        return [("cpu.cores", int(both.group(1))), ("gpu.cores", int(both.group(2)))]
    vscode = _VSCODE_CPUS.match(line) or _CRASH_PROC.search(line)
    if vscode:
        return [("cpu.cores", int(vscode.group(1)))]
    chip = _CHIP_CORES.search(line)
    options = apple_core_options(chip.group(1)) if chip else None
    count = int(chip.group(2)) if chip else 0
    return [("cpu.cores", count)] if options and count in options[0] and count not in options[1] else []


def line_facts(line: str) -> Facts:
    return (intel_core_prose(line) + partner_card_facts(line) + memory_after_gpu(line) + intel_graphics_bracket(line)
            + core_counts(line))


def _one_chip(lines: Sequence[str]) -> Optional[str]:
    named = {f"M{m.group(1)} {m.group(2) or ''}".strip() for line in lines for m in _CHIP.finditer(line)}
    return named.pop() if len(named) == 1 else None


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts that need another line: the eGPU enclosure before a partner card, the chip a GPU
    core count belongs to."""
    found: Dict[int, Facts] = {}
    chip = _one_chip(lines)
    options = apple_core_options(chip) if chip else None
    previous = ""
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        external = partner_cards(line) if _EGPU.search(previous) or _EGPU.search(line) else []
        if external:
            found.setdefault(index, []).extend(("gpu.external", name) for name in external)
        cores = _GPU_CORE_LINE.search(line)
        if cores and options and int(cores.group(1)) in options[1] and not _CHIP.search(line):
            found.setdefault(index, []).append(("gpu.cores", int(cores.group(1))))
        previous = line
    return found
