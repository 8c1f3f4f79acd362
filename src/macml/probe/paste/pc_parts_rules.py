"""A PC's parts as people write them in issues (set 16's Windows captures), each a pure function returning stated facts:

- a parts list under a heading that says it is the writer's ('Here is my system:', 'Hardware:', 'My specs:'), one
  part a line: a CPU named without its brand or tier ('Ryzen 5600g': x86_64, and a Ryzen APU's Radeon with its gfx
  target), the RAM with brand and speed words ('32gb samsung ddr4 3200mhz laptop ram'), the GPU's memory ('VRAM 16GB');
- a GPU named by its bare model number in a sentence about this machine ('graphics card is 3080', 'my GPU is a 4090'),
  kept as written, with the vendor and capability its number makes certain;
- a GPU answer that begins with its vendor but misspells the series ('gpu: nvidia qradro p2000 (5GB GPU memory)'):
  the one series that number belongs to gives the capability; the name is kept as written;
- a machine named after its CPU ('RyzenAI 370 HX (gfx1150) based PC', 'a Ryzen 7 5700G based mini PC'): x86_64, and an
  APU's Radeon (every Ryzen AI part has one).
"""
from __future__ import annotations

import difflib
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.knowledge.amd_apus import apu_gfx, apu_target
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.paste.gpu_names import gpu_names, gpu_record, informal_gpu_names
from macml.probe.paste.said_of_this_machine import hypothetical, mentioned_only, someone_elses

Facts = List[Tuple[str, Any]]

# A heading that introduces the writer's own parts, one a line: 'Here is my system:', 'My specs', 'Hardware:'
_PARTS_HEADING = re.compile(r"^\s*(?:#{1,4}\s*)?(?:\*\*)?(?:(?:here\s+is|here'?s|this\s+is|these\s+are)\s+)?"
                            r"(?:(?:my|our)\s+(?:hackintosh\s+)?(?:system|specs?|setup|hardware|pc|rig|machine|computer|configuration|hackintosh)"
                            r"|hardware|system\s+specs?|pc\s+specs?|specs)(?:\s+(?:specs?|details|info))?\s*:?\s*(?:\*\*)?\s*:?\s*$"
                            r"|^\s*(?:currently\s+)?I\s+(?:have|own|use|am\s+using)\s+(?:an?\s+|this\s+)?(?:laptop|pc|desktop|machine"
                            r"|computer|notebook|workstation)\s+with\s+(?:these|the\s+following)\s+specs?\s*:\s*$",
                            re.IGNORECASE)
# a heading naming no owner ('Specs', 'Hardware:') is another's list after 'Recommended for the 13B model'
_BARE_HEADING = re.compile(r"^\W*(?:hardware|system\s+specs?|pc\s+specs?|specs)\b", re.IGNORECASE)
_MAX_ITEM = 80  # a parts list's line is short; a longer one is prose and ends the list
_CPU_ITEM = re.compile(r"^\s*(?:[-*]\s*)?(?:CPU\s*:?\s*)?(?:AMD\s+)?Ryzen\s*(?:([3579])\s+)?(?:PRO\s+)?(\d{4}[A-Z]{0,2}\d?D?)\s*$",
                       re.IGNORECASE)
_RAM_ITEM = re.compile(r"^\s*(?:[-*]\s*)?(\d{1,4})\s?(?:GB|GiB|G)\b(?:(?:\s+[\w-]+){0,5}?\s+(?:RAM|memory|L?P?DDR\d\w*)\s*$"
                       r"|\s+(?:Corsair|G\.?Skill|Kingston|Crucial|HyperX|TeamGroup|Patriot|ADATA)\b)",  # a memory maker's kit
                       re.IGNORECASE)
_INTEL_CORE_ITEM = re.compile(r"^\s*(?:[-*]\s*)?(?:CPU\s*:?\s*)?(?:Intel\s+)?(?:Core\s+)?(i[3579])[- ]?(\d{4,5})-?([A-Z]{0,2})\s*$",
                              re.IGNORECASE)
_VRAM_ITEM = re.compile(r"^\s*(?:[-*]\s*)?(?:(?:VRAM|GPU\s+memory|Video\s+memory)\s*:?\s*(\d{1,3}(?:\.\d+)?)\s?(GB|GiB|G|MB|MiB)"
                        r"|(\d{1,3}(?:\.\d+)?)\s?(GB|GiB|G|MB|MiB)\s+(?:of\s+)?VRAM)\s*$", re.IGNORECASE)


def ryzen_part(tier: Optional[str], number: str) -> Facts:
    """'Ryzen 5600g' -> AMD Ryzen 5600G, x86_64, and (an APU) an AMD GPU with its gfx target. knowledge/amd_apus keys
    its table on the model number; the tier digit only completes the name it matches, so any tier stands in for one
    the writer left out."""
    number = number.upper()
    brand = f"AMD Ryzen {tier} {number}" if tier else f"AMD Ryzen {number}"
    facts: Facts = [("cpu.brand", brand), ("cpu.hardware_arch", "x86_64")]
    gfx = apu_gfx(f"amd ryzen {tier or 5} {number.lower()}")
    return facts + [("gpu.present", "AMD"), ("gpu.gfx", gfx)] if gfx else facts


def part_facts(line: str) -> Facts:
    """One line of a parts list: a CPU named without its brand or tier, the RAM, the GPU's memory."""
    cpu = _CPU_ITEM.match(line)
    if cpu:
        return ryzen_part(cpu.group(1), cpu.group(2))
    core = _INTEL_CORE_ITEM.match(line)
    if core:  # '- i3 3110-M': Intel's brand for it, 'Core i3-3110M'
        return [("cpu.brand", f"Intel Core {core.group(1).lower()}-{core.group(2)}{core.group(3).upper()}"),
                ("cpu.hardware_arch", "x86_64")]
    gpus = gpu_names(line) or informal_gpu_names(line)
    size = re.search(r"(\d{1,2})\s?GB\b", line, re.IGNORECASE)
    if gpus:  # '- nVidia GT 720M', 'MSI GTX 1060 Gaming X 3GB': the writer's GPU (and its memory)
        return [gpu_record(gpus[0], f"{size.group(1)} GB" if size else None)]
    vega = re.match(r"^\s*(?:[-*]\s*)?((?:AMD\s+)?(?:Radeon\s+)?(?:RX\s+)?Vega\s?\d{1,2})(?:\s+Graphics)?\s*$", line, re.IGNORECASE)
    if vega:  # '- Vega 8': an AMD APU's Radeon Vega graphics, as written
        return [("gpu", dict(gpu_record(vega.group(1))[1], vendor="AMD"))]
    ram = _RAM_ITEM.match(line)
    if ram and not re.search(r"\b(?:VRAM|GPU|graphics)\b", line, re.IGNORECASE):
        return [("cpu.memory_bytes", int(ram.group(1)) * 1024**3)]
    vram = _VRAM_ITEM.match(line)
    if vram:
        size = vram.group(1) or vram.group(3)
        unit = (vram.group(2) or vram.group(4)).upper()
        mib = round(float(size)) if unit.startswith("M") else round(float(size) * 1024)
        return [("gpu.memory_of", {"memory_mib": mib, "index": None})]
    return []


def _introduced_as_others(before: Sequence[str]) -> bool:
    """The line just before a bare heading (one blank line may sit between) makes its list requirements or another's
    ('The README lists these minimum requirements:')."""
    said = next((line for line in reversed(before[-2:]) if line.strip()), "")
    return hypothetical(said) or someone_elses(said)


def parts_lists(lines: Sequence[str]) -> Dict[int, Facts]:
    """Line index -> the facts of each part in a list under a heading that says the parts are the writer's; the
    list ends at a blank line, a long (prose) line or the next heading."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _PARTS_HEADING.match(line) or _BARE_HEADING.match(line) and _introduced_as_others(lines[:index]):
            continue
        first = next((i for i in range(index + 1, min(len(lines), index + 3)) if lines[i].strip()), index + 1)
        for follow in range(first, min(len(lines), first + 15)):  # a blank line under the heading opens the list
            item = lines[follow]
            if not item.strip() or len(item.strip()) > _MAX_ITEM or _PARTS_HEADING.match(item) or item.lstrip().startswith(("#", "**")):
                break
            facts = part_facts(item)
            if facts:
                found.setdefault(follow, []).extend(facts)
    return found


# 'graphics card is 3080', 'my GPU is a 4090', 'the video card is an nvidia 1080ti': this machine's card by its number
_CARD_IS = re.compile(r"(?:^|[,;.]\s*|\bmy\s+|\bthe\s+|\bour\s+)(?:graphics\s+card|video\s+card|gpu|graphics)\s+(?:is|=)\s+"
                      r"(?:an?\s+)?((?:nvidia\s+|amd\s+)?(\d{4})\s?(ti|super|xtx|xt)?)(?![\w.+-])", re.IGNORECASE)
_CONDITION = re.compile(r"\b(?:if|whether|when|unless|recommended|minimum|required|suggested|should|needs?|what|which)\b[^,;.]*$",
                        re.IGNORECASE)
# 'gpu = 1080', 'GPU=3090': a config line's key and value, not a sentence about this machine
_CONFIG_KEY = re.compile(r"^\s*[\w.-]*gpu[\w.-]*\s*=", re.IGNORECASE)
# '3090 or better': a floor asked for, not a card held
_AT_LEAST = re.compile(r"\s*(?:or|and)\s+(?:better|higher|newer|above|up|later)\b", re.IGNORECASE)
# Radeon RX desktop numbers (RX 5500-5700, 6400-6950, 7600-7900, 9060-9070): no GeForce of this century shares them
_RADEON_NUMBER = re.compile(r"^(?:5[5-7]|6[4-9]|7[6-9])\d0$|^90[67]0$")


def card_is(line: str) -> Facts:
    """'windows 11 22H2, graphics card is 3080, cpu is intel.' -> the GPU '3080' (NVIDIA, 8.6), as written.
    Nothing from 'if the GPU is 3080' or 'the recommended graphics card is 3080' (not this machine's)."""
    found = _CARD_IS.search(line)
    if (not found or _CONDITION.search(line[:found.start(1)]) or mentioned_only(line, found.start(1), found.end(1))
            or _CONFIG_KEY.match(line) or _AT_LEAST.match(line[found.end():]) or gpu_names(line) or informal_gpu_names(line)):
        return []
    name, number, suffix = found.group(1), found.group(2), (found.group(3) or "").lower()
    if name.lower().startswith("amd") or suffix.startswith("x") or _RADEON_NUMBER.match(number) and suffix not in ("ti", "super"):
        return [("gpu.owned", {"name": name, "vendor": "AMD", "memory_mib": None, "index": None})] if _RADEON_NUMBER.match(number) else []
    series = "rtx" if number[:2] in ("20", "30", "40", "50") else "gtx"
    capability = nvidia_compute_capability(f"geforce {series} {number} {suffix}".strip())
    if capability is None:
        return []
    return [("gpu.owned", {"name": name, "vendor": "NVIDIA", "memory_mib": None, "index": None, "capability": capability})]


# NVIDIA's series words; a misspelt one ('qradro', 'Qaudro', 'Geforse') is the series it is closest to
_SERIES = ("quadro", "tesla", "geforce", "titan")
_VENDOR_LED = re.compile(r"^\s*(nvidia)\s+([a-z]{4,8})\s+((?:rtx\s+|gtx\s+)?[a-z]{0,2}\d{2,4}[a-z]{0,3})\s*(?:\((\d{1,3})\s?GB\b[^)]*\))?\s*$",
                         re.IGNORECASE)
_GPU_KEYS = ("gpu", "graphics card", "video card", "graphics", "gpu model", "gpu type", "gpu name")


def misspelt_series(key: str, value: str) -> Facts:
    """'gpu: nvidia qradro p2000 (5GB GPU memory)' -> 'nvidia qradro p2000' (Quadro P2000: 6.1), 5120 MiB. Only a
    series word close to one NVIDIA series (not a name another rule reads, nor 'nvidia driver 535')."""
    found = _VENDOR_LED.match(value) if key in _GPU_KEYS else None
    if not found or gpu_names(value) or informal_gpu_names(value):
        return []
    word = found.group(2).lower()
    close = difflib.get_close_matches(word, _SERIES, n=1, cutoff=0.7)
    if not close or word in _SERIES:
        return []
    capability = nvidia_compute_capability(f"{close[0]} {found.group(3)}")
    if capability is None:
        return []
    name = f"{found.group(1)} {found.group(2)} {found.group(3)}"
    _, record = gpu_record(name, memory=found.group(4) and f"{found.group(4)}GB")
    return [("gpu", dict(record, vendor="NVIDIA", capability=capability))]


# 'RyzenAI 370 HX (gfx1150) based PC', 'a Ryzen 7 5700G based mini PC', 'my Ryzen 9 7940HS-based laptop'
_CPU_BASED = re.compile(r"\bRyzen\s*(AI\s*(?:Max\+?\s*)?)?(?:([3579])\s+)?(?:PRO\s+)?(?:HX\s+)?(\d{3,4}[A-Z]{0,2}\d?)(?:\s+HX)?\s*"
                        r"(?:\((gfx[0-9a-f]{3,4})\)\s*)?[- ]based\s+(?:mini[- ]?)?(?:PC|laptop|machine|system|computer|desktop|notebook|"
                        r"workstation|server|box)\b(?!s)", re.IGNORECASE)
_NOT_MINE = re.compile(r"\b(?:for|unlike|other|supports?|supported|such\s+as|e\.g\.|like|any|all|vs\.?|than)\s+(?:an?\s+|the\s+)?$",
                       re.IGNORECASE)


def cpu_based(line: str) -> Facts:
    """'RyzenAI 370 HX (gfx1150) based PC detected' -> x86_64, an AMD GPU (gfx1150). Ryzen AI parts are all APUs
    (AMD's Ryzen AI 300 and AI Max product pages: Radeon 800M / 8000S graphics on every one). Nothing from 'support
    for Ryzen AI based laptops' or 'unlike a Ryzen 5600G based PC'."""
    found = _CPU_BASED.search(line)
    if not found or _NOT_MINE.search(line[:found.start()]) or mentioned_only(line, found.start(), found.end()):
        return []
    ai, tier, number, stated_gfx = found.group(1), found.group(2), found.group(3), found.group(4)
    facts: Facts = [("cpu.hardware_arch", "x86_64")]
    gfx = stated_gfx.lower() if stated_gfx and apu_target(stated_gfx) else None
    if not ai:
        return facts + [(f, v) for f, v in ryzen_part(tier, number) if f != "cpu.hardware_arch"]
    facts += [("gpu.present", "AMD")]
    return facts + ([("gpu.gfx", gfx)] if gfx else [])


# a Ryzen desktop APU by its number alone in a machine's description ('a small computer with 5700G+64G RAM+1T drive'):
# no other part is numbered so (amd.com: 2200G-8700G)
_APU_NUMBER = re.compile(r"(?<![\w.-])([2-8]\d00GE?)(?![\w.-])")
_MACHINE_WORDS = re.compile(r"\+|\b(?:computer|PC|machine|box|build|rig|APU|Ryzen)\b", re.IGNORECASE)


def apu_number(line: str) -> Facts:
    """Not in a question ('Will this work on a Ryzen 7 5700G based system?'): a machine asked about is no one's."""
    found = _APU_NUMBER.search(line)
    return ryzen_part(None, found.group(1)) if found and _MACHINE_WORDS.search(line) and "?" not in line else []


def line_facts(line: str) -> Facts:
    return card_is(line) + cpu_based(line) + apu_number(line)


def keyed_facts(key: str, value: str) -> Facts:
    return misspelt_series(key, value)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    return parts_lists(lines)
