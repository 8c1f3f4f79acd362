"""Set 9's Linux/Windows clues about GPUs, each a pure function returning stated facts.

- A GPU listed as a device: lspci's 'VGA compatible controller: Intel Corporation DG2 [Arc A770] (rev 08)' (the
  bracketed marketing name with its maker, 'Intel Arc A770'; the whole name where no marketing name is bracketed),
  inxi -G's 'Device-1: Intel DG2 [Arc A770] driver: i915'.
- KDE's 'About this System': 'Graphics Processor: NVIDIA GeForce RTX 4060 Ti/PCIe/SSE2' (OpenGL's renderer string)
  and 'VRAM: 16GiB'.
- A GPU answer with its memory: 'GPU: [Intel Arc A730M 12G]', 'Graphics card - GTX 1070 8gb'; a 'key - value'
  list of parts ('Processor - Xeon E5 - 2689', 'RAM - 16GB', 'OS - Windows 10').
- A Jetson module named as the device ('Mobile device: NVIDIA Jetson AGX Orin', 'GPU model and memory: Jetson
  Nano 4GB'): its integrated GPU, an aarch64 Linux, and the module's memory.
- A count of GPUs ('4xH100', 'running 8 NVIDIA H100s') and a machine named for its GPU ('GH200 node'): gpu_count_rules,
  run with these.
- AMD code names and Instinct boards and their gfx target (knowledge/amd_gfx.py): 'Navi 22 [Radeon RX 6', 'my Mi60'.
- A GPU the writer calls external ('an external NVIDIA GeForce RTX 4070', 'an eGPU (RTX 3080)');
  '我的是NVIDIA GeForce RTX 3050 Laptop GPU' ('mine is ...').

The stack and OS around the GPU (CUDA's numbers, torch finding no GPU, OS answers) are read by stack_text_rules;
line_facts, keyed_facts and answers here include its rules, so statements registers one module.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.amd_apus import apu_target
from macml.knowledge.amd_gfx import codename_target, instinct_target
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.paste import gpu_count_rules, stack_text_rules
from macml.probe.paste.gpu_names import gpu_names, gpu_record, gpu_vendor, informal_gpu_names
from macml.probe.paste.said_of_this_machine import NEGATION, hypothetical
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

_GPU_VENDOR_WORDS = re.compile(r"^(?:Intel|NVIDIA|Advanced Micro Devices|AMD|ATI)\b", re.IGNORECASE)
_LSPCI = re.compile(r"^\s*(?:\S+\$\s+)?(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.\d\s+(?:VGA compatible controller|3D controller|"
                    r"Display controller)(?: \[\w+\])?:\s*(.+)$", re.IGNORECASE)


def _device_name(text: str) -> str:
    """'Intel Corporation DG2 [Arc A770] (rev 08) (prog-if 00 [VGA controller])' -> 'Intel Corporation DG2 [Arc A770]'."""
    text = re.sub(r"\s*\((?:rev|prog-if)\b.*$", "", text)
    return re.sub(r"\s*\[[0-9a-f]{4}:[0-9a-f]{4}\]", "", text).strip()


def _nvidia_board(device: str) -> str:
    """'NVIDIA Corporation GH100 [H200 SXM 141GB] [10de:2335]' -> 'H200 SXM 141GB': a data-center board's name in
    the bracket after its chip's (the capability table knows it), '' otherwise."""
    boards = [b for b in re.findall(r"\[([^\]]+)\]", device) if device.startswith("NVIDIA") and nvidia_compute_capability(b)]
    return boards[-1] if boards else ""


def lspci_boards(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> each NVIDIA board lspci lists by its bracketed name, numbered in list order (eight identical
    'GH100 [H200 SXM 141GB]' lines are eight GPUs)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        device = _LSPCI.match(line)
        board = _nvidia_board(device.group(1)) if device else ""
        if board:
            found[index] = [("gpu", {"name": board, "vendor": "NVIDIA", "memory_mib": None, "index": len(found)}),
                            ("platform", "linux")]
    return found


def apu_graphics(line: str) -> Facts:
    """'AMD® Renoir graphics': the integrated GPU of that APU, with its target; the APU is an x86 CPU."""
    named = _APU_GRAPHICS.search(line)
    denied = named and (NEGATION.search(line[:named.start()]) or re.search(r"\bno\s+$", line[:named.start()], re.IGNORECASE))
    gfx = codename_target(named.group(1)) if named and not denied else None
    return [gpu_record(f"AMD {named.group(1).title()}"), ("gpu.gfx", gfx), ("cpu.hardware_arch", "x86_64")] if gfx else []


def amd_chip(device: str) -> Facts:
    """'Advanced Micro Devices, Inc. [AMD/ATI] Renoir (rev d9)' (lspci's name, and gpu-utils' 'Card Model'): a GPU
    by its chip's name alone, with the chip's target; an APU's GPU sits in an x86 CPU."""
    chip = re.match(r"Advanced Micro Devices, Inc\. \[AMD/ATI\] (\w+(?: \d+| Ridge)?)$", _device_name(device))
    gfx = codename_target(chip.group(1)) if chip else None
    if not gfx:
        return []
    return ([gpu_record(f"AMD {chip.group(1)}"), ("gpu.gfx", gfx), ("platform", "linux")]
            + ([("cpu.hardware_arch", "x86_64")] if apu_target(gfx) else []))


def lspci_device(line: str) -> Facts:
    """An lspci display controller the marketing-name reader leaves out (no known name in its brackets): the
    device as lspci names it, 'Intel Corporation DG2 [Arc A770]'."""
    found = _LSPCI.match(line)
    if not found or not _GPU_VENDOR_WORDS.match(found.group(1)):
        return []
    brackets = re.findall(r"\[([^\]]+)\]", found.group(1))
    if any(gpu_names(bracket) for bracket in brackets):
        return []  # log_rules reads it
    if _nvidia_board(found.group(1)):
        return []  # lspci_boards reads it, each device by its place in the list
    intel = [f"Intel {b}" for b in brackets if found.group(1).startswith("Intel") and gpu_names(f"Intel {b}")]
    if intel:  # 'Intel Corporation DG2 [Arc A380]': the bracket is the marketing name, as for AMD's, less the maker
        return [gpu_record(intel[-1]), ("platform", "linux")]
    chip = amd_chip(found.group(1))
    if chip:
        return chip
    name = re.sub(r"^Intel Corporation (?=(?:Iris|U?HD|Arc)\b)", "Intel ", _device_name(found.group(1)))
    x86 = [("cpu.hardware_arch", "x86_64")] if _INTEL_CORE_GPU.search(name) else []  # an Intel Core CPU's own GPU
    return [gpu_record(name), ("platform", "linux")] + x86 if re.search(r"\d", name) else []


_INXI = re.compile(r"^\s*Device-(\d{1,2}):\s+(.+?)(?:\s+(?:driver|vendor|bus-ID):\s|\s*$)")  # fields may wrap to the next line


def inxi_device(line: str) -> Facts:
    """inxi -G's 'Device-1: Intel DG2 [Arc A770] driver: i915 v: kernel' -> one GPU (a Linux tool); an NVIDIA chip
    with its one board in brackets is that board, and 'driver: nvidia v: 450.80.02' its driver."""
    found = _INXI.match(line)
    if not found or not _GPU_VENDOR_WORDS.match(found.group(2)):
        return []
    name = found.group(2).strip()
    board = re.match(r"^NVIDIA\s+[A-Z]{2}\d{3}\w*\s+\[([^\]/]+)\]$", name)  # 'NVIDIA TU104BM [GeForce RTX 2080 Mobile]'
    driver = re.search(r"\bdriver:\s+nvidia\s+v:\s+(\d{3}\.\d{2,3}(?:\.\d{2})?)\b", line)
    return ([gpu_record(board.group(1) if board else name, index=int(found.group(1)) - 1), ("platform", "linux")]
            + ([("gpu.driver", driver.group(1))] if driver else []))


_RENDERER_SUFFIX = re.compile(r"/(?:PCIe?|AGP)/SSE2$")
# where tools print OpenGL's renderer string ('GeForce GT 740/PCIe/SSE2'): KDE, Webots, Blender, glxinfo
_RENDERER_KEYS = ("graphics processor", "opengl renderer", "renderer", "opengl renderer string", "gpu renderer")  # pyvista.Report's too
_GL_VERSION_KEYS = ("opengl version", "version", "opengl version string", "opengl core profile version string", "gl version",
                    "gpu version")
# Mesa's OpenGL strings: renderer 'Mesa DRI Intel(R) Haswell Mobile', version '3.0 Mesa 17.0.5'
_MESA_RENDERER = re.compile(r"^Mesa DRI (\S.*)$")
# Intel GPUs built into 64-bit Core CPUs only (Sandy Bridge on); a GMA 950 sat beside 32-bit-only Atoms
_INTEL_CORE_GPU = re.compile(r"\bIntel\b.*\b(?:Sandy\s?bridge|Ivy\s?bridge|Haswell|Broadwell|Skylake|Kaby\s?Lake|"
                             r"Coffee\s?Lake|Comet\s?Lake|Ice\s?Lake|Tiger\s?Lake|Alder\s?Lake|Raptor\s?Lake|"
                             r"(?:U?HD|Iris(?: Plus| Pro| Xe)?) Graphics)\b", re.IGNORECASE)
_MESA_VERSION = re.compile(r"^\d\.\d(?:\.\d+)?(?: \(\w+ Profile\))? Mesa \d{1,2}\.\d")
_GPU_KEYS = ("gpu", "gpu type", "gpu name", "gpu model", "graphics card", "video card", "graphics", "gpu model and memory",
             "gpu/vram")  # an issue template's 'GPU/VRAM: Quadro 4000 2Gb'
_MEMORY_AFTER = re.compile(r"(?<![\w.])(\d{1,3})\s?(?:G|GB|GiB)(?:\s*(?:VRAM|of VRAM))?\s*\]?\s*$", re.IGNORECASE)
_JETSON = re.compile(r"\b((?:NVIDIA\s+)?Jetson\s+(?:AGX\s+|Xavier\s+|Orin\s+|TX\d\s+)?(?:Orin|Xavier|Nano|TX1|TX2|Thor)"
                     r"(?:\s+(?:NX|Nano|Super|Developer Kit))*(?:\s+(\d{1,2})\s?GB)?)\b", re.IGNORECASE)
_JETSON_KEYS = _GPU_KEYS + ("mobile device", "device", "hardware", "board", "platform", "machine")


# GeForce numbers no other product line shares: GTX 1050-1080, 1650/1660; RTX 2060-2080, 3050-3090, 4060-4090, 5050-5090
_BARE_GEFORCE = re.compile(r"10[5-8]0|16[56]0|20[6-8]0|30[5-9]0|40[6-9]0|50[5-9]0")


def gpu_answer(key: str, value: str) -> Facts:
    """'Graphics Processor: NVIDIA GeForce RTX 4060 Ti/PCIe/SSE2' -> that GPU; 'VRAM: 16GiB' -> its memory;
    'GPU: [Intel Arc A730M 12G]' -> 12 GiB; 'Mobile device: NVIDIA Jetson AGX Orin' -> a Jetson."""
    value = value.strip().strip("'\"")
    if key in _RENDERER_KEYS and _RENDERER_SUFFIX.search(value):
        name = _RENDERER_SUFFIX.sub("", value).strip()
        return [gpu_record(name)] if gpu_vendor(name) else []
    mesa = _MESA_RENDERER.match(value) if key in _RENDERER_KEYS else None
    if mesa and gpu_vendor(mesa.group(1)):  # Mesa's DRI drivers: a Linux (or BSD) desktop's own GPU
        x86 = [("cpu.hardware_arch", "x86_64")] if _INTEL_CORE_GPU.search(mesa.group(1)) else []
        return [gpu_record(value.strip()), ("platform", "linux")] + x86
    if key in _GL_VERSION_KEYS and _MESA_VERSION.match(value):
        return [("platform", "linux")]
    gl_driver = re.match(r"\d\.\d(?:\.\d+)? NVIDIA (\d{3}\.\d{2,3}(?:\.\d{1,2})?)$", value) if key in _GL_VERSION_KEYS else None
    if gl_driver:  # OpenGL's version string names NVIDIA's driver: '4.5.0 NVIDIA 416.34'
        return [("gpu.driver", gl_driver.group(1)), ("gpu.present", "NVIDIA")]
    bare_chip = re.fullmatch(r"(?:Apple\s+)?(M[1-5])(?:\s+(Pro|Max|Ultra))?", value, re.IGNORECASE) if key in _GPU_KEYS else None
    if bare_chip:  # a GPU answer that is an Apple chip's name ('GPU model and memory: M1'): that chip's GPU
        name = " ".join(filter(None, ("Apple", bare_chip.group(1).upper(), (bare_chip.group(2) or "").capitalize())))
        return [("platform", "darwin"), ("cpu.brand", name), gpu_record(name), ("cpu.hardware_arch", "arm64")]
    geforce = _BARE_GEFORCE.fullmatch(value) if key in _GPU_KEYS else None
    if geforce:  # 'GPU: 3090': a GeForce model number alone, kept as written, with the capability of its full name
        series = "GTX" if value.startswith(("10", "16")) else "RTX"
        capability = nvidia_compute_capability(f"{series} {value}")
        return [("gpu", {"name": value, "vendor": "NVIDIA", "memory_mib": None, "index": None})] + (
            [("gpu.capability", {"name": value, "capability": capability})] if capability else [])
    if key == "vram":  # 'VRAM: 16GiB'; Unity's Direct3D block: 'VRAM:     11132 MB'
        size = re.match(r"^(\d{1,3}(?:\.\d+)?)\s?(GiB|GB|G)$|^(\d{3,6})\s?(?:MB|MiB)$", value, re.IGNORECASE)
        mib = (int(float(size.group(1)) * 1024) if size.group(1) else int(size.group(3))) if size else None
        return [("gpu.memory_of", {"index": None, "memory_mib": mib})] if mib else []
    jetson = _JETSON.search(value) if key in _JETSON_KEYS else None
    if jetson:
        memory = [("cpu.memory_bytes", int(jetson.group(2)) * 1024**3)] if jetson.group(2) else []
        return [("gpu", {"name": " ".join(jetson.group(1).split()), "vendor": "NVIDIA", "memory_mib": None, "index": None}),
                ("platform", "linux"), ("cpu.hardware_arch", "aarch64")] + memory
    size = _MEMORY_AFTER.search(value.strip("[]")) if key in _GPU_KEYS else None
    if size and (gpu_names(value) or by_key("gpu", value.strip("[]"))):
        return [("gpu.memory_of", {"index": None, "memory_mib": int(size.group(1)) * 1024})]
    return []


_DASH_ITEM = re.compile(r"^\s*[-*•]?\s*(Graphics card|Video card|[de]?GPU|Processor|CPU|RAM|Memory|OS|Operating system)\s+(?:[-–—]|->|=>|→)"
                        r"\s+(\S.*)$", re.IGNORECASE)  # 'dGPU -> AMD Radeon Pro 5500M 4GB' too
_X86_CPU = re.compile(r"\b(?:Xeon|Core|Ryzen|EPYC|Threadripper|Pentium|Celeron|Athlon|i[3579])\b", re.IGNORECASE)


def dash_item(line: str) -> Facts:
    """'Graphics card - GTX 1070 8gb', 'Processor - Xeon E5 - 2689', 'RAM - 16GB', 'OS - Windows 10': a parts list
    written 'key - value'."""
    found = _DASH_ITEM.match(line)
    if not found:
        return []
    key, value = found.group(1).lower(), found.group(2).strip()
    if key in ("processor", "cpu"):
        brand = re.sub(r"\s+-\s+", "-", value)
        return [("cpu.brand", brand if re.search(r"\b(?:Intel|AMD)\b", brand, re.IGNORECASE) else _cpu_maker(brand) + brand),
                ("cpu.hardware_arch", "x86_64")] if _X86_CPU.search(value) else []
    if key in ("graphics card", "video card", "gpu", "dgpu"):
        return by_key("gpu", value) + gpu_answer("gpu", value)
    if key == "egpu":
        return by_key("egpu", value)
    if key in ("ram", "memory"):
        return by_key("ram", value)
    return by_key("os", value)


def _cpu_maker(brand: str) -> str:
    return "AMD " if re.search(r"\b(?:Ryzen|EPYC|Threadripper|Athlon)\b", brand, re.IGNORECASE) else "Intel "


_MY_GPU_ZH = re.compile(r"我(?:的|用的|电脑的|笔记本的)\s*(?:显卡|GPU)?(?:型号)?是\s*(.+)$")


def chinese_owned_gpu(line: str) -> Facts:
    """'我的是NVIDIA GeForce RTX 3050 Laptop GPU' ('mine is ...'), '我的显卡是 RTX 3060' ('my GPU is ...')."""
    found = _MY_GPU_ZH.search(line)
    names = gpu_names(re.split(r"[，。；？！,;?]", found.group(1))[0]) if found else []
    return [gpu_record(names[0])] if names else []


_EXTERNAL = re.compile(r"\b(?:external|eGPU)\b(?:\s+(?:GPU|graphics card|card|enclosure))?[\s:(,-]*", re.IGNORECASE)


# 'the eGPU that contains a Gigabyte Radeon RX 5700 XT': what the enclosure holds, the card maker's name set aside
_HOLDS = re.compile(r"^(?:that|which)\s+(?:contains|holds|has|houses)\s+(?:an?\s+|the\s+)?", re.IGNORECASE)
_MAKER = re.compile(r"(?:Gigabyte|Sapphire|PowerColor|XFX|ASUS|MSI|ASRock|EVGA|Zotac|PNY)\s+", re.IGNORECASE)


def external_gpu(line: str) -> Facts:
    """'my machine which has an external NVIDIA GeForce RTX 4070', 'an eGPU (RTX 3080)', 'the eGPU that contains a
    Gigabyte Radeon RX 5700 XT': that GPU is external."""
    found = _EXTERNAL.search(line)
    if not found or NEGATION.search(line[max(0, found.start() - 20):found.start()]):
        return []
    rest = _HOLDS.sub("", line[found.end():found.end() + 120], count=1)[:80]
    maker = _MAKER.match(rest)
    card = rest[maker.end():] if maker else rest
    names = [n for n in gpu_names(card) + informal_gpu_names(card) if card.lower().startswith(n.lower())]
    return [("gpu.external", (maker.group(0) if maker else "") + names[0])] if names else []


_CODENAME = re.compile(r"\b(Navi\s?(?:1[04]|2[1-4]|3[1-3]|4[48])|Vega\s?(?:10|20))\b")
# an APU's GPU by its platform's codename ('AMD® Renoir graphics', Ubuntu's About panel): lspci's names for them
_APU_GRAPHICS = re.compile(r"\bAMD(?:®|\(R\))?\s+(Raven(?: Ridge)?|Picasso|Renoir|Cezanne|Lucienne|Rembrandt|Raphael|"
                           r"Mendocino|Phoenix)\s+(?:graphics|GPU|iGPU)\b", re.IGNORECASE)
# the brand words before the board are part of its name as written ('an AMD Mi50')
_INSTINCT = re.compile(r"(?:\b(?:my|our|an?|the|\d+x?)\s+|(?=\b(?:AMD|Instinct)\s))((?:AMD\s+)?(?:Instinct\s+)?"
                       r"MI-?(?:25|50|60|100|210|250X?|300[AX]?|325X|35[05]X))\b", re.IGNORECASE)  # 'mi-210' too


_CARD_IS_TARGET = re.compile(r"\b(?:my\s+)?(?:card|GPU)\s+is\s+(?:an?\s+)?(gfx[0-9a-f]{3,4})\b", re.IGNORECASE)


def amd_target(line: str) -> Facts:
    """'Navi 22 [Radeon RX 6' -> an AMD GPU, gfx1031; 'my Mi60 server' -> an AMD Instinct MI60 (gfx906), as named;
    'card is gfx1100 (W7900)' -> an AMD GPU, gfx1100."""
    card = _CARD_IS_TARGET.search(line)
    facts: Facts = [("gpu.present", "AMD"), ("gpu.gfx", card.group(1).lower())] if card and not hypothetical(line) else []
    codename = _CODENAME.search(line)
    if codename and codename_target(codename.group(1)) and not hypothetical(line):
        facts += [("gpu.present", "AMD"), ("gpu.gfx", codename_target(codename.group(1)))]
    board = _INSTINCT.search(line)
    name = re.sub(r"(?i)MI-", "MI", board.group(1)) if board else ""
    if board and instinct_target(name) and not NEGATION.search(line[:board.start()]):
        facts += [("gpu.owned", {"name": name, "vendor": "AMD", "memory_mib": None, "index": None}),
                  ("gpu.gfx", instinct_target(name))]
    return facts


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (lspci_device, inxi_device, dash_item, gpu_count_rules.gpu_count, gpu_count_rules.gpu_count_after,
                 gpu_count_rules.node_gpu, chinese_owned_gpu, external_gpu, amd_target, apu_graphics):
        facts += rule(line)
    return facts + stack_text_rules.line_facts(line)


def keyed_facts(key: str, value: str) -> Facts:
    chip = amd_chip(value) if key == "card model" else []  # gpu-utils' card list
    return (chip + gpu_count_rules.counted_in_gpu_field(key, value) + gpu_answer(key, value)
            + stack_text_rules.keyed_facts(key, value))


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what the lines around it decide (stack_text_rules.answers, lspci_boards)."""
    return {**stack_text_rules.answers(lines), **lspci_boards(lines)}
