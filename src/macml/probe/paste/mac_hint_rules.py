"""Hints at a Mac's hardware that people write or tools print in passing: About This Mac's Intel processor wording
('3.1 GHz Quad-Core Intel Core i7'), a model identifier written with spaces ('MacPro Server 5,1', 'mac pro 7,1'),
the Mac Pro 2019's MPX modules without their brand ('dual w6800x duos'), an 'ARM M1', a GPU called an eGPU after
its name, Rosetta 2's error after another message and its translation cache (/var/db/oah/), Intel MKL's SSE4.2
deprecation warning (x86_64 builds only), Chinese spec words (统一内存 unified memory, 核图形处理器 GPU cores),
a CPU arch key, even with its answer in brackets ('CPU arch: [x86]'), fastfetch's GPU JSON 'coreCount', and a question's
'platform.machine()' answered on a later line ('Returned value: 'x86_64''), 'my ARM macos', and brew config's
'macOS: 14.5-arm64' quoted in a sentence.

`line_facts` reads one line, `keyed_facts` a `key: value` pair, `answers` what needs other lines, and
`other_machine` says a line names a machine only to compare with (its hardware is not the writer's).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.macos import APPLE_SILICON_MEMORY_GB
from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.gpu_text_rules import informal_gpu_names
from macml.probe.paste.said_of_this_machine import NEGATION

Facts = List[Tuple[str, Any]]

# About This Mac's processor: speed, then core count (a word or digits), then the Intel family without a model number
_ABOUT_MAC_CPU = re.compile(r"^\s*(?:[-*]\s*)?(?:Processor\s*[:-]?\s*)?\d{1,2}(?:[.,]\d{1,2})?\s?GHz\s+(?:Dual|Quad|Hexa|Octa|\d{1,2})"
                            r"-Core\s+Intel\s+(Core\s+i[3579]|Core\s+m[357]|Xeon(?:\s+[EW])?|Core\s+2\s+Duo)\s*$", re.IGNORECASE)
_SPACED_MODEL = re.compile(r"\b(MacBook\s?Pro|MacBook\s?Air|Mac\s?mini|Mac\s?Pro|iMac\s?Pro|iMac)(?:\s+Server)?\s+(\d{1,2}),\s?(\d)"
                           r"(?![\w.]|,\s?\d|\s?GHz)", re.IGNORECASE)
_MODEL_FAMILY = {"macbookpro": "MacBookPro", "macbookair": "MacBookAir", "macmini": "Macmini", "macpro": "MacPro",
                 "imacpro": "iMacPro", "imac": "iMac"}
# the Mac Pro 2019's MPX modules named without 'Radeon Pro' (mac_only_gpu knows them with it)
_MPX = re.compile(r"(?<![\w-])(?<!Pro )(W(?:5500|5700|6600|6800|6900)X)(\s+Duos?)?\b", re.IGNORECASE)
_ARM_CHIP = re.compile(r"\bARM\s+M([1-5])(?:\s+(Pro|Max|Ultra))?(?![\w.])")
_NAME_EGPU = re.compile(r"\s+eGPU\b", re.IGNORECASE)
_ROSETTA_ERROR_AFTER = re.compile(r"[.:!]\s+rosetta error:\s", re.IGNORECASE)
_ROSETTA_CACHE = re.compile(r"(?:^|\s|')/(?:private/)?var/db/oah/")  # Rosetta 2's ahead-of-time translations
_MKL_SSE42 = re.compile(r"\bIntel MKL WARNING: Support of Intel\(R\) Streaming SIMD Extensions 4\.2\b", re.IGNORECASE)
_UNIFIED_ZH = re.compile(r"(?<![\d.])(\d{1,3})\s?G(?:B)?\s*(?:的\s*)?统一内存")
_CHIP_MEMORY_ZH = re.compile(r"\bM[1-5](?:\s+(?:Pro|Max|Ultra))?\s*[,，、]\s*(?:(\d{1,3})\s?G(?:B)?\s*内存|内存\s*[:：]?\s*(\d{1,3})\s?G(?:B)?(?![\w.]))")
# '我的16G内存' (my 16G of memory): the writer's own machine's memory
_MY_MEMORY_ZH = re.compile(r"(?:我的|我|本机|电脑)\s*(?:的\s*)?(\d{1,3})\s?G(?:B)?\s*(?:的\s*)?内存")
# 'on a MacBook Pro with an 8-core i9 CPU': a Mac the writer uses, with an Intel CPU in the same sentence
_MAC_WITH_INTEL = re.compile(r"\b(?:on|using|have|own|with)\s+(?:an?\s+|my\s+|the\s+)?(?:Mac ?Book(?: ?Pro| ?Air)?|iMac(?: ?Pro)?|"
                             r"Mac ?mini|Mac ?Pro)\b[^.;!?]{0,60}?\bwith\s+(?:an?\s+)?(?:\d{1,2}[- ]core\s+)?"
                             r"(?:Intel\b|(?:Core\s+)?i[3579]\b|Xeon\b)", re.IGNORECASE)
_GPU_CORES_ZH = re.compile(r"(?<![\d.])(\d{1,2})\s?核\s?(?:图形处理器|GPU)")
_BRACKETED = re.compile(r"^\[\s*([^\[\]]+?)\s*\]$")
_CPU_ARCH_KEYS = ("cpu arch", "cpu architecture", "cpu arch.")
_X86_WORDS = {"x86", "x86_64", "x86-64", "x64", "amd64", "intel", "i386"}
_ARM_WORDS = {"arm", "arm64", "aarch64", "apple silicon"}
_MACHINE_ASKED = re.compile(r"\bplatform\.machine\(\)")
_MACHINE_ANSWER = re.compile(r"^\s*[-*]?\s*(?:\*\*)?(?:Returned|Returns|Actual|Output|Result|Got)(?:\s+(?:value|result|output))?"
                             r"(?:\*\*)?\s*:\s*[`'\"]*(arm64|x86_64|i386)[`'\"]*\s*$", re.IGNORECASE)
_FASTFETCH_TYPE = re.compile(r"^\s*\"type\"\s*:\s*\"(\w+)\"")
_FASTFETCH_CORES = re.compile(r"^\s*\"coreCount\"\s*:\s*(\d{1,3})\s*,?\s*$")
# 'compare the performance to 24G Macbook Air M2': a machine named to compare with, after the writer's own
_COMPARED = re.compile(r"\bcompar(?:e|ed|ing)\b(?:\s+(?:it|this|that|the|its|my|performance|speed|results?|timings?)){0,3}"
                       r"\s+(?:to|with|against)\s+(?:an?\s+|my\s+|the\s+)?(?:\d{1,3}\s?G\w{0,2}\s+)?(?:Mac|iMac|Apple|M[1-5]\b)",
                       re.IGNORECASE)


def about_mac_processor(line: str) -> Facts:
    """About This Mac's 'Processor  3.1 GHz Quad-Core Intel Core i7': an Intel Mac (other systems name the model,
    'Intel(R) Core(TM) i7-7920HQ CPU @ 3.10GHz')."""
    found = _ABOUT_MAC_CPU.match(line)
    if not found:
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64"), ("cpu.brand", "Intel " + " ".join(found.group(1).split()))]


def spaced_model_identifier(line: str) -> Facts:
    """'MacPro Server 5,1', 'mac pro 7,1', 'MacBook Pro 16,1': a model identifier (MacPro5,1) written with spaces."""
    return [("cpu.model", _MODEL_FAMILY["".join(m.group(1).split()).lower()] + f"{m.group(2)},{m.group(3)}")
            for m in _SPACED_MODEL.finditer(line)]


def mpx_module(line: str) -> Facts:
    """'I have dual w6800x duos': the Mac Pro 2019's AMD Radeon Pro W6800X Duo MPX modules, named without the brand."""
    found = _MPX.search(line)
    if not found or not re.search(r"\b(?:have|has|with|using|my|dual|two|GPUs?)\b", line, re.IGNORECASE):
        return []
    name = f"AMD Radeon Pro {found.group(1).upper()}" + (" Duo" if found.group(2) else "")
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64"), gpu_record(name)]


def arm_chip(line: str) -> Facts:
    """'Intel MKL Warning on ARM M1 (2021)': an Apple M-series chip, arm64; the chip where a tier is written
    ('ARM M2 Pro'), else its generation."""
    found = _ARM_CHIP.search(line)
    if not found:
        return []
    generation, tier = found.groups()
    named = ("cpu.brand", f"Apple M{generation} {tier}") if tier else ("cpu.apple_generation", int(generation))
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), named]


def gpu_called_egpu(line: str) -> Facts:
    """'an AMD Radeon RX6900XT eGPU': the GPU named right before 'eGPU' is external."""
    for egpu in _NAME_EGPU.finditer(line):
        before = line[:egpu.start()]
        names = [n for n in gpu_names(before) + informal_gpu_names(before) if before.endswith(n)]
        if names:
            return [("gpu.external", names[0])]
    return []


def rosetta_traces(line: str) -> Facts:
    """'Backend quit unexpectedly. rosetta error: unable to mmap __TEXT', a path under /var/db/oah/ (Rosetta 2's
    translation cache): an x86_64 process translated on Apple silicon."""
    if not (_ROSETTA_ERROR_AFTER.search(line) or _ROSETTA_CACHE.search(line)):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True), ("process.arch", "x86_64")]


def mkl_sse42_warning(line: str) -> Facts:
    """Intel MKL's 'Support of Intel(R) Streaming SIMD Extensions 4.2 ... deprecated': MKL ships in x86_64 builds only,
    so the Python that loaded it is x86_64 (it warns where no AVX is seen, e.g. under Rosetta 2)."""
    return [("python.machine", "x86_64")] if _MKL_SSE42.search(line) else []


def chinese_specs(line: str) -> Facts:
    """'128GB 统一内存' (unified memory), 'M4 Max,128G内存' (memory), '40 核图形处理器' / '40核GPU' (GPU cores)."""
    facts: Facts = []
    memory = _UNIFIED_ZH.search(line) or _CHIP_MEMORY_ZH.search(line)
    size = int(next(g for g in memory.groups() if g)) if memory else 0
    if memory and size in APPLE_SILICON_MEMORY_GB:
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.memory_bytes", size * 1024**3)]
    mine = _MY_MEMORY_ZH.search(line)
    if mine and not memory and int(mine.group(1)) in APPLE_SILICON_MEMORY_GB | {12, 4, 6}:
        facts.append(("cpu.memory_bytes", int(mine.group(1)) * 1024**3))
    cores = _GPU_CORES_ZH.search(line)
    if cores:
        facts.append(("gpu.cores", int(cores.group(1))))
    return facts


def intel_mac_sentence(line: str) -> Facts:
    """'on a MacBook Pro with an 8-core i9 CPU and an AMD Radeon 5500m GPU': an Intel Mac (not a negated line, nor
    one that names Apple silicon)."""
    for sentence in re.split(r"(?<=[.!?])\s+", line):
        if _MAC_WITH_INTEL.search(sentence) and not re.search(r"\b(?:not|never|without)\b|n't\b|(?<![\w-])M[1-9]\b|Apple silicon",
                                                              sentence, re.IGNORECASE):
            return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    return []


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (about_mac_processor, spaced_model_identifier, mpx_module, arm_chip, gpu_called_egpu, rosetta_traces,
                 mkl_sse42_warning, chinese_specs, intel_mac_sentence, arm_mac_words):
        facts += rule(line)
    return facts


def keyed_facts(key: str, value: str) -> Facts:
    """A CPU architecture key (the machine's), its answer maybe left in the template's brackets ('CPU arch: [x86]')."""
    if key not in _CPU_ARCH_KEYS:
        return []
    bracketed = _BRACKETED.match(value.strip())
    word = (bracketed.group(1) if bracketed else value.strip()).lower()
    arch = "x86_64" if word in _X86_WORDS else "arm64" if word in _ARM_WORDS else None
    return [("cpu.hardware_arch", arch)] if arch else []


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts: 'platform.machine()' answered within three lines ('Returned value: 'x86_64''; an
    'Expected value' is not an answer); fastfetch's GPU module's 'coreCount' (an Apple GPU's cores)."""
    found: Dict[int, Facts] = {}
    asked = -10
    block = ""
    for index, line in enumerate(lines):
        if _MACHINE_ASKED.search(line):
            asked = index
        answer = _MACHINE_ANSWER.match(line)
        if answer and 0 < index - asked <= 3:
            machine = "arm64" if answer.group(1).lower() == "arm64" else "x86_64"
            found.setdefault(index, []).append(("python.machine", machine))
        kind = _FASTFETCH_TYPE.match(line)
        if kind and kind.group(1) not in ("Integrated", "Discrete", "Unknown"):  # a GPU's own type, not a module's
            block = kind.group(1)
        cores = _FASTFETCH_CORES.match(line)
        if cores and block == "GPU":
            found.setdefault(index, []).append(("gpu.cores", int(cores.group(1))))
    return found


def other_machine(line: str) -> bool:
    """'I wanted to compare the performance to 24G Macbook Air M2': the Mac named is not the one the text is about."""
    return bool(_COMPARED.search(line))


_ANOTHER_MAC = re.compile(r"\b(?:other|also|including|compared|unlike|than|previous|old)\b", re.IGNORECASE)
_CHIP_FACTS = ("cpu.brand", "gpu.mention")


def chips_of_other_macs(line: str, facts: Sequence[Tuple[str, Any]]) -> List[Tuple[str, Any]]:
    """A line naming two Apple chips ('I have bought a new MacBook Air with the M3 chip ... works on all other
    architectures, including in MacBook Air M1'): the chip said in a sentence about other Macs is dropped, the
    writer's own is kept."""
    chips = {str(v) for f, v in facts if f == "cpu.brand" and str(v).startswith("Apple M")}
    if len(chips) < 2:
        return list(facts)
    sentences = re.split(r"(?<=[.;!?])\s+", line)
    saying = {chip: [s for s in sentences if chip.removeprefix("Apple ").lower() in s.lower()] for chip in chips}
    others = {chip for chip, said in saying.items() if said and all(_ANOTHER_MAC.search(s) for s in said)}
    if not others or others == chips:
        return list(facts)
    return [(f, v) for f, v in facts if not (f in _CHIP_FACTS and str(v) in others)]


_ARM_MAC = re.compile(r"\b(?:my|an?|the|our)\s+(?:arm|arm64|aarch64)(?:[- ]based)?\s+(?:mac(?:OS|book(?: pro| air)?|\s?mini)?)\b",
                      re.IGNORECASE)
_BREW_CONFIG_MACOS = re.compile(r"\bmacOS:\s*(\d{2}\.\d{1,2}(?:\.\d{1,2})?)-(arm64|x86_64)\b")


def arm_mac_words(line: str) -> Facts:
    """'In my ARM macos, ...' -> an Apple-silicon Mac; brew config's 'macOS: 14.5-arm64' quoted in a sentence -> macOS
    14.5, run by an arm64 (or, '-x86_64', a translated) Homebrew."""
    facts: Facts = []
    arm = _ARM_MAC.search(line)
    if arm and not NEGATION.search(line[max(0, arm.start() - 30):arm.start()]):
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]
    for version, arch in _BREW_CONFIG_MACOS.findall(line):
        facts += [("platform", "darwin"), ("os.version", version), ("process.arch", arch)]
    return facts
