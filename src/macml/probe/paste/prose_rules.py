"""A machine described in words: an issue's spec list ('Chip: M2', 'Memory: 16GB'), a Mac named in prose
('Macbook air M1 2020 with 8GB memory running Sonoma 14.0'), the parts of an Intel Mac ('i7-6700, 32GB RAM,
AMD 5700XT'), Rosetta written out ('Python 3.8.7 (x86_64 through Rosetta)'), and build lines that only a
Mac prints ('-framework Accelerate', whisper.cpp's 'announced as x86_64, but ... ARM64')."""
from __future__ import annotations

import re
from typing import Optional

from macml.probe.paste.gpu_names import gib, gpu_names, gpu_record
from macml.probe.paste.said_of_this_machine import NEGATION
from macml.probe.paste.system_rules import NO_SUCH_MACOS, Facts

# UTM's form asks 'Mac Chip (Intel, M1, ...):', its hint in brackets
_SPEC = re.compile(r"^\s*(?:[-*]|\d{1,2}[.)])?\s*(?:Mac\s+)?(Chip|Mac|Memory|RAM|System RAM|Unified memory|MacOS|systemMemory)\s*(?:\([^()]{0,40}\))?\s*:"
                   r"\s*(.+?)\s*$", re.IGNORECASE)
_METAL_SYSTEM_MEMORY = re.compile(r"\]?\s*systemMemory:\s*(\d+(?:\.\d+)?\s*GB)\b")
_CHIP_WORD = re.compile(r"^(?:Apple\s+)?(M\d{1,2})(?:\s+(Pro|Max|Ultra))?\b", re.IGNORECASE)
_MAC_PROSE = re.compile(r"\b(?:mac ?book(?: ?pro| ?air)?|mac ?studio|mac ?mini|imac|mac pro)\b"
                        r"(?:\s+\d{2}(?:[- ]?inch|\"|”|'')?)?[\s*,]+(m\d{1,2})(?:\s+(pro|max|ultra))?\b", re.IGNORECASE)
_MEMORY_WORDS = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,2})?)\s*G(?:B|iB)?\s+(?:of\s+)?(?:unified\s+)?(?:memory|RAM)\b", re.IGNORECASE)
_MEMORY_DDR = re.compile(r"^\s*(\d{1,3})\s*GB\s+\d{4}\s*MHz\s+(?:LP)?DDR\d")  # 'About This Mac': '32 GB 2667 MHz DDR4'
_MACOS_ALONE = re.compile(r"^\s*mac ?OS\s+(\d{2}(?:\.\d+){1,2})\s*(?:\(\w+\))?\s*$", re.IGNORECASE)
_MEMORY_AFTER_CHIP = re.compile(r"\bm\d{1,2}(?:\s+(?:pro|max|ultra))?[\s,*]+(\d{1,3})\s*G(?:B|iB)?\b(?!\s*(?:SSD|storage|disk))",
                                re.IGNORECASE)
_IN_USE = re.compile(r"\b(?:allocat|us|consum|tak|eat|occup|fill|need|requir|swap)\w*(?:\s+(?:up|to|over|around|about|almost|"
                     r"nearly|all))*\s*$", re.IGNORECASE)
_MAC_NAMED = re.compile(r"\b(?:mac ?book(?: ?pro| ?air)?|mac ?studio|mac ?mini|imac|mac pro)\b", re.IGNORECASE)
_RAM_SIZE = re.compile(r"\b(8|12|16|18|24|32|36|48|64|96|128|192)\s*(?:GB|GiB)\b(?!\s*(?:SSD|storage|disk|flash|VRAM|HDD|drive))")
_MACOS_NAMES = {"tahoe": 26, "sequoia": 15, "sonoma": 14, "ventura": 13, "monterey": 12, "big sur": 11}
_MACOS_NAMED = re.compile(r"\b(Tahoe|Sequoia|Sonoma|Ventura|Monterey|Big Sur)\s+(\d{2}(?:\.\d+){0,2})\b", re.IGNORECASE)
# 'AMD 5700XT', 'AMD 6900 XTX'; a bare X after four digits is a Ryzen CPU ('AMD 3900X'), no Radeon is so named
_AMD_MAC_GPU = re.compile(r"\b(AMD \d{4}\s?XTX?)\b(?:\s+(\d+)\s*(?:GB|go|Go)\s+VRAM)?")
_INTEL_CPU = re.compile(r"\b(?:Intel (?:Core )?)?(i[3579]-\s?\d{4,5}[A-Za-z]{0,2})\b|\bIntel (?:chip|system|CPU|processor|Mac)\b"
                        r"|\b\d\.\d GHz \d+-Core Intel Core i[3579]\b")
_GPU_WITH_MEMORY = re.compile(r"^\s*(Intel(?:\(R\))? (?:UHD|Iris(?: Plus| Pro)?|HD) Graphics(?: \d{3,4})?)\s+(\d+\s*(?:MB|GB))\s*$")
_PYTHON_ITEM = re.compile(r"^\s*[-*]\s*python3?\s*:?\s*v?(3\.\d{1,2}\.\d{1,2})\b(?![.\d])", re.IGNORECASE)
_FORM_VERSION = re.compile(r"^\s*[-*]?\s*(TensorFlow|Keras|JAX|jaxlib) version \([^)]*\)\s*:\s*v?(\d+\.\d+(?:\.\d+)?)\b",
                           re.IGNORECASE)  # TensorFlow's issue template: 'TensorFlow version (use command below): 2.4.1'
_ARM_HOMEBREW_PYTHON = re.compile(r"(?:^|[\s'\"])/opt/homebrew/(?:bin|opt/python@[\d.]+/bin|Cellar/python@[\d.]+/\S+/bin)/python3[\d.]*\b")
_ROSETTA = re.compile(r"\brosetta\b", re.IGNORECASE)
_X86_WORD = re.compile(r"\b(?:x86_64|x86-64|i386)\b|\bx86\b(?=.*\bRosetta[- ]translated\b|.*\b(?:under|through|via) Rosetta\b)",
                       re.IGNORECASE)  # bare 'x86' only beside 'Rosetta-translated' ('Rosetta translates x86 apps' is no process)
_NON_NATIVE_PYTHON = re.compile(r"\bnon-native python\b", re.IGNORECASE)
_ARCH_ANNOUNCED = re.compile(r"arch is announced as (x86_64|arm64), but it seems to actually be (ARM64|x86_64)", re.IGNORECASE)
_MAC_FRAMEWORK_LINK = re.compile(r"\s-framework (?:Accelerate|Metal|MetalKit|Foundation|CoreML)\b")
_R_SYSTEM = re.compile(r"^\s*system\s+(aarch64|x86_64),\s*darwin\d+")


def _chip_name(generation: str, tier: Optional[str]) -> str:
    return "Apple " + generation.upper() + (f" {tier.capitalize()}" if tier else "")


def spec_list_line(line: str) -> Facts:
    """An issue form's list: 'Chip: M2', '1. Mac: M2' (an Apple chip), 'Memory: 16GB' / 'System RAM: 48.00 GB' (the
    machine's RAM), 'MacOS: 14.4.1', and tensorflow-metal's 'systemMemory: 64.00 GB'."""
    metal = _METAL_SYSTEM_MEMORY.search(line)
    if metal:
        return [("cpu.memory_bytes", gib(metal.group(1)))]
    found = _SPEC.match(line)
    if not found:
        return []
    key, value = found.group(1).lower(), found.group(2)
    if key in ("chip", "mac"):  # '1. Mac: M2'
        chip = _CHIP_WORD.match(value)
        return [("platform", "darwin"), ("cpu.brand", _chip_name(chip.group(1), chip.group(2)))] if chip else []
    if key == "macos":
        version = re.match(r"(\d{2}(?:\.\d+){0,2})\b", value)
        return [("platform", "darwin"), ("os.version", version.group(1))] \
            if version and not NO_SUCH_MACOS.match(version.group(1)) else []
    memory = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(GB|GiB|G)", value, re.IGNORECASE)
    return [("cpu.memory_bytes", gib(memory.group(1) + " GB"))] if memory else []


def mac_in_prose(line: str) -> Facts:
    """'Macbook air M1 2020 with 8GB memory running Sonoma 14.0', 'MacBook Pro 13 inch M1', 'mac book pro
    m4 48G': the chip, the memory beside it, and a macOS named with its version."""
    facts: Facts = []
    mac = _MAC_PROSE.search(line)
    if mac:
        chip = _chip_name(mac.group(1), mac.group(2))
        facts += [("platform", "darwin"), ("cpu.brand", chip), ("gpu.mention", chip)]
        after = _MEMORY_AFTER_CHIP.search(line, mac.start(1))
        if after:
            facts.append(("cpu.memory_bytes", gib(after.group(1) + " GB")))
    memory = _MEMORY_WORDS.search(line) or (_RAM_SIZE.search(line) if not mac and _MAC_NAMED.search(line) else None) if mac or re.search(r"\bmac|\bintel\b|\bi[3579]-\d|\bapple\s+m[1-9]\b", line, re.IGNORECASE) \
        else _MEMORY_DDR.match(line)
    before = line[:memory.start()].rstrip() if memory else ""
    if memory and _IN_USE.search(before):  # 'the application allocates 70GB of RAM': what a program takes, not the Mac's
        memory = None
    if memory and not any(before.endswith(name) for name in gpu_names(before)):  # 'Radeon Pro 5500 XT 8 GB' is VRAM
        facts.append(("cpu.memory_bytes", gib(memory.group(1) + " GB")))
    alone = _MACOS_ALONE.match(line)
    if alone and not NO_SUCH_MACOS.match(alone.group(1)):
        facts += [("platform", "darwin"), ("os.version", alone.group(1))]
    named = _MACOS_NAMED.search(line)
    if named and named.group(2).split(".")[0] == str(_MACOS_NAMES[named.group(1).lower()]):
        facts += [("platform", "darwin"), ("os.version", named.group(2))]
    return facts


def intel_mac_parts(line: str) -> Facts:
    """The parts of an Intel Mac named in prose: an Intel Core CPU ('i7-6700', 'Intel chip', '2.4 GHz 8-Core
    Intel Core i9'), an AMD desktop GPU ('AMD 5700XT 8go VRAM'), an Intel GPU with its memory ('Intel UHD
    Graphics 630 1536 MB')."""
    facts: Facts = []
    cpu = _INTEL_CPU.search(line)
    either = re.search(r"\bIntel chip or Apple chip\b|\bApple chip or Intel chip\b", line, re.IGNORECASE)  # a form's question
    if cpu and not either and not (cpu.group(1) is None and NEGATION.search(line[max(0, cpu.start() - 40):cpu.start()])):
        # 'I'm not able to test this on an Intel Mac': a Mac the writer does not have
        model = cpu.group(1) and cpu.group(1).replace(" ", "")
        facts.append(("cpu.brand", f"Intel Core {model[:2]}{model[2:].upper()}" if model else "Intel"))
    gpu = _AMD_MAC_GPU.search(line)
    if gpu:
        facts.append(gpu_record(gpu.group(1), gpu.group(2) + " GB" if gpu.group(2) else None))
    intel_gpu = _GPU_WITH_MEMORY.match(line)
    if intel_gpu:
        facts.append(gpu_record(intel_gpu.group(1), intel_gpu.group(2)))
    if _MY_MAC.search(line) and not re.search(r"hackintosh", line, re.IGNORECASE):
        facts += [gpu_record(m.group(1)) for m in _TYPED_MAC_GPU.finditer(line) if not gpu_names(m.group(1))]
    return facts


# the writer's own Mac ('I have mbp mid 2014 with ...', 'my MacBook Pro has ...') and its GPUs as typed in lower case
# ('intel iris + nvidia gt 750m 2gb'), which the names-as-tools-print-them readers leave out
_MY_MAC = re.compile(r"\b(?:I\s+(?:have|own|use|got)|my)\s+(?:an?\s+|the\s+)?(?:\d{4}\s+)?(?:MBP|MBA|Mac ?Book|iMac|Mac ?mini|Mac ?Pro)\b",
                     re.IGNORECASE)
_TYPED_MAC_GPU = re.compile(r"(?<![\w-])(intel\s+(?:iris(?:\s+(?:plus|pro))?|u?hd)(?:\s+graphics)?(?:\s+\d{3,4}(?!\s?[mg]b))?"
                            r"|nvidia\s+(?:geforce\s+)?gtx?\s?\d{3,4}m?)(?![\w-])", re.IGNORECASE)


def rosetta_in_words(line: str) -> Facts:
    """'Python version: 3.8.7 (x86_64 through Rosetta)', 'a fish shell via Rosetta (`uname -m` gives me
    x86_64)', 'It's i386 ... a non-native python': a process translated by Rosetta 2 (Apple silicon)."""
    form = _FORM_VERSION.match(line)
    if form:
        return [("package", {"name": form.group(1).lower(), "version": form.group(2)})]
    if _ARM_HOMEBREW_PYTHON.search(line) and "arch -x86_64" not in line:  # Homebrew's Apple-silicon prefix
        return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("python.machine", "arm64")]
    item = _PYTHON_ITEM.match(line)
    if item:  # a setup list's '- python 3.12.5, installed via homebrew'
        return [("python.version", item.group(1))]
    if _NON_NATIVE_PYTHON.search(line) and _X86_WORD.search(line):
        return [("platform", "darwin"), ("process.translated", True), ("python.machine", "x86_64")]
    rosetta = _ROSETTA.search(line)
    if not (rosetta and _X86_WORD.search(line)) or NEGATION.search(line[max(0, rosetta.start() - 30):rosetta.end() + 30]):
        return []  # a denial beside 'Rosetta' ('not using Rosetta'), not one elsewhere ('not able to detect the CPU')
    facts: Facts = [("platform", "darwin"), ("process.translated", True), ("process.arch", "x86_64")]
    if re.search(r"\bpython\b", line, re.IGNORECASE):
        facts.append(("python.machine", "x86_64"))
    return facts


def mac_build_lines(line: str) -> Facts:
    """Build output only a Mac prints: '-framework Accelerate' on a link line, whisper.cpp's Makefile
    'Your arch is announced as x86_64, but it seems to actually be ARM64' (a translated shell on Apple
    silicon), and R's sessionInfo ' system   aarch64, darwin20' (an arm64 build runs on arm64 only)."""
    announced = _ARCH_ANNOUNCED.search(line)
    if announced and announced.group(1).lower() == "x86_64" and announced.group(2).lower() == "arm64":
        return [("platform", "darwin"), ("process.arch", "x86_64"), ("cpu.hardware_arch", "arm64"),
                ("process.translated", True)]
    r_system = _R_SYSTEM.match(line)
    if r_system:
        return [("platform", "darwin")] + ([("cpu.hardware_arch", "arm64")] if r_system.group(1) == "aarch64" else [])
    return [("platform", "darwin")] if _MAC_FRAMEWORK_LINK.search(line) else []


def prose_line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (spec_list_line, mac_in_prose, intel_mac_parts, rosetta_in_words, mac_build_lines):
        facts += rule(line)
    return facts
