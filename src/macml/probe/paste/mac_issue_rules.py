"""What Mac users write about their machine in issue prose and issue forms.

A Mac named with its chip in shorthand ('MBP M2', 'mac air (with the m1 chip)'), Docker's form answer 'Intel chip
or Apple chip: Intel chip', a macOS version after its (even misspelled) name ('Mac OS, Mojave, 10.14.6', 'macOS
Version: Big Sir v11.6'), GPUs in an eGPU enclosure ('Gigabyte Gaming Box RX 580'), an Intel GPU without its
'Intel' ('Iris Plus Graphics 650 1536 MB'), a Mac Pro's MPX GPU ('a 32GB AMD Pro Vega II'), a Python version
in prose ('Python version (3.8.10 is the only one...)', 'cpython 3.8.12') and pip's torch candidates that stop at
the last x86_64 macOS wheel. Each rule is a pure function of one line (or one `key: value` pair).
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.knowledge.compat import INTEL_MAC_LAST_TORCH
from macml.knowledge.macos import MACOS_RELEASE_NAMES
from macml.probe.paste.gpu_names import gpu_names, gpu_record, informal_gpu_names
from macml.probe.paste.system_rules import NO_SUCH_MACOS

Facts = List[Tuple[str, Any]]

_MAC_WORD = r"(?:mac\s?book(?:\s?(?:pro|air))?|mac\s?(?:mini|studio|air|pro)|imac|mbp|mba|mac)"
_CHIP_WORD = r"m([1-5])(?:\s?(pro|max|ultra))?"
# 'MBP M2', 'MacBook Air (M2)', 'mac air (with the m1 chip)', 'M1 MBA', 'an m2 max macbook', 'MacBook Pro 2020 m1'
_MAC_THEN_CHIP = re.compile(rf"(?<![\w-]){_MAC_WORD}s?\b[\s,(]*(?:20[12]\d\)?[\s,]*)?(?:with\s+(?:an?|the)\s+|w/\s*)?{_CHIP_WORD}\b(?![.\w-])",
                            re.IGNORECASE)
_CHIP_THEN_MAC = re.compile(rf"(?<![\w.-]){_CHIP_WORD}\s+(?:chip\s+)?(?:{_MAC_WORD}|air(?=\s+\d{{2}}\b|\s*(?:$|[,.;:()])|\s+(?:with|and|running|on|from)\b))s?\b",
                            re.IGNORECASE)  # 'M2 Air 15'' is a MacBook Air
# 'platform: macOS(m3)': the chip in brackets after the OS (not 'macOS M1 support', which names no Mac)
_MACOS_CHIP = re.compile(rf"(?<![\w-])mac\s?os\s*\(\s*{_CHIP_WORD}\s*\)", re.IGNORECASE)
# 'my instructions for installing keras and tensorflow on M1': a task done on an Apple-chip Mac
_ON_CHIP = re.compile(rf"\b(?:install(?:ing|ed)?|run(?:ning|s)?|ran|build(?:ing)?|built|work(?:s|ing)?|test(?:ed|ing)?)\b"
                      rf"[^.;?]{{0,60}}?\bon\s+(?:an?\s+|my\s+)?(?<![\w-]){_CHIP_WORD}(?=\s*(?:$|[,.;:)]))", re.IGNORECASE)
_NOT = re.compile(r"(?:\b(?:not|non|no|without)\b|n't\b)[\s\w-]{0,12}$", re.IGNORECASE)
_AIR = re.compile(r"\b(?:air|mba)\b", re.IGNORECASE)
# a line about two Macs ('both my macbooks (M2 work and Intel personal)'): which one this text is about it does not say
_TWO_MACS = re.compile(r"\bboth\s+(?:of\s+)?(?:my|our|the)\s+(?:\w+\s+)?(?:mac\w*|imacs?|machines?|computers?|laptops?)\b"
                       r"|\bIntel\b", re.IGNORECASE)  # not 'both the github and cran versions'


def mac_with_chip(line: str) -> Facts:
    """'can't install on MBP M2', 'the new mac air (with the m1 chip)': a Mac with an Apple chip is Apple silicon.
    The chip is named where a tier is written, or the Mac is an Air (MacBook Airs ship only the base M chips:
    apple.com/macbook-air/specs); otherwise the line gives the chip's generation, when it names only one."""
    found = _MAC_THEN_CHIP.search(line) or _CHIP_THEN_MAC.search(line) or _MACOS_CHIP.search(line) or _ON_CHIP.search(line)
    if not found or _NOT.search(line[:found.start()]) or _TWO_MACS.search(line):
        return []
    facts: Facts = [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]
    tier = found.group(2)
    if tier or _AIR.search(found.group(0)):
        facts.append(("cpu.brand", f"Apple M{found.group(1)}" + (f" {tier.capitalize()}" if tier else "")))
    elif len({m.group(1) for pattern in (_MAC_THEN_CHIP, _CHIP_THEN_MAC, _MACOS_CHIP, _ON_CHIP) for m in pattern.finditer(line)}) == 1:
        facts.append(("cpu.apple_generation", int(found.group(1))))  # one generation, no tier: the base chip
    return facts


def intel_or_apple_chip(key: str, value: str) -> Facts:
    """Docker Desktop's issue form: 'Intel chip or Apple chip: Intel chip' -> an Intel Mac (x86_64); '...: M1' -> the
    Apple M1."""
    if not re.fullmatch(r"(?:intel chip or apple chip|apple chip or intel chip|chip type)", key):
        return []
    answer = value.strip().lower()
    if re.fullmatch(r"intel(?: chip| cpu)?", answer):
        return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    if re.fullmatch(r"apple(?: chip| silicon)?", answer):
        return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]
    chip = re.fullmatch(r"(?:apple\s+)?m([1-5])(?:\s+(pro|max|ultra))?(?: chip)?", answer)  # the chip itself: 'M1'
    if chip:
        return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"),
                ("cpu.brand", f"Apple M{chip.group(1)}" + (f" {chip.group(2).capitalize()}" if chip.group(2) else ""))]
    return []


_VERSION = re.compile(r"(?<![\d.])v?(10\.(?:[4-9]|1[0-5])(?:\.\d{1,2})?|1[1-5](?:\.\d{1,2}){1,2}|26(?:\.\d{1,2}){1,2})(?![\d.]*\d)")


def macos_version_answer(key: str, value: str) -> Facts:
    """'macOS Version: Big Sir v11.6' (a misspelled name before it): the version a macOS form field gives."""
    if not re.fullmatch(r"(?:mac\s?os(?: x)?|os x)(?: version)?", key):
        return []
    found = _VERSION.search(value)
    return [("platform", "darwin"), ("os.version", found.group(1))] if found else []


_RELEASE = re.compile(r"\b(" + "|".join(sorted(MACOS_RELEASE_NAMES, key=len, reverse=True)).replace(" ", r"\s") + r")\b"
                      r"[\s,:(]*(?:(?:mac\s?)?OS(?:\s?X)?\s+)?(?:version\s*|v)?(\d{2}(?:\.\d{1,2}){0,2})\b(?!\.?\d)", re.IGNORECASE)  # a full stop may end it


def macos_release_version(line: str) -> Facts:
    """'Mac OS, Mojave, 10.14.6', 'macOS Big Sur Version 11.6': a version beside the release name it belongs to."""
    for found in _RELEASE.finditer(line):
        prefix = MACOS_RELEASE_NAMES[" ".join(found.group(1).lower().split())]
        version = found.group(2)
        if version == prefix or version.startswith(prefix + "."):
            return [("platform", "darwin"), ("os.version", version)]
    return []


_EGPU = re.compile(r"\b(?:e-?GPU|external GPU|Ra[sz][eo]r Core(?: X| V2)?|(?:AORUS|Gigabyte) (?:RTX \d+ |RX \d+ )?Gaming Box"
                   r"|Sonnet (?:eGFX|Breakaway)|Akitio Node|Mantiz (?:Venus|Saturn)|PowerColor (?:Gaming Station|Devil Box)"
                   r"|Bizon ?Box)\b", re.IGNORECASE)


_MINE = re.compile(r"\b(?:I\s+have|I've\s+got|I\s+own|my)\b", re.IGNORECASE)
# a GPU named just before the enclosure it sits in: 'my RTX 2080 Ti connected via Razor Core X'
_INTO_ENCLOSURE = re.compile(r"(?:connected\s+(?:via|through|to|in)|plugged\s+into|in|inside)\s+(?:an?\s+|my\s+|the\s+)?$",
                             re.IGNORECASE)


def egpu_gpus(line: str) -> Facts:
    """'I do have an eGPU (enclosure is Razer Core X and GPU is AMD RX580)', 'a Gigabyte Gaming Box RX 580':
    the GPUs named after an eGPU or an eGPU enclosure are external (a name as tools print it is also that GPU;
    an informal one, 'RX580', only marks the GPU another line names)."""
    found = _EGPU.search(line)
    if not found or _NOT.search(line[:found.start()]):
        return []
    rest = line[found.start():found.end() + 300]  # an enclosure's full shop name may come before the GPU
    reach = found.end() - found.start() + 250  # a GPU named within that reach, read whole even where it ends past it
    named = [name for name in gpu_names(rest) if not name.startswith("Apple") and rest.find(name) < reach]
    # the writer's own Mac's GPUs named before it ('I have MB Pro 2016 ..., Radeon Pro 455 + eGPU ...') are built in
    before = line[:found.start()]
    into = _INTO_ENCLOSURE.search(before)
    if into and not named:  # the GPU sits in the enclosure named after it
        just_before = before[max(0, into.start() - 40):into.start()]
        held = gpu_names(just_before) or informal_gpu_names(just_before)
        return [("gpu.external", held[-1])] if held else []
    inside = [n for n in gpu_names(before) if not n.startswith("Apple")] if _MINE.search(before) else []
    return ([gpu_record(name) for name in inside + named]
            + [("gpu.external", name) for name in named or informal_gpu_names(rest)])


_NAMED_MAKER = re.compile(r"(?:\bIntel|Corporation|Radeon|AMD|®|\(R\)|\(TM\)|™)\s*$", re.IGNORECASE)
_BARE_INTEL = re.compile(r"\b((?:Iris(?: Plus| Pro)?|UHD|HD) Graphics \d{3,4})\b"
                         r"(?:\s+(\d{3,5}\s*MB|\d{1,2}\s*GB)\b)?")


def bare_intel_gpu(line: str) -> Facts:
    """'System GPUs: IIntel Iris Plus Graphics 650 1536 MB', 'Iris Pro Graphics 5200': Intel's GPU names written
    without (or with a misspelled) 'Intel'."""
    return [gpu_record("Intel " + m.group(1), m.group(2)) for m in _BARE_INTEL.finditer(line)
            if not _NAMED_MAKER.search(line[:m.start()])]


_MPX = re.compile(r"(?:(\d{2})\s?GB\s+)?((?:AMD\s+)?(?:Radeon\s+)?Pro\s+(?:Vega\s+II(?:\s+Duo)?|W5[57]00X|W6[689]00X(?:\s+Duo)?))\b",
                  re.IGNORECASE)
_OWNS = re.compile(r"\b(?:has|have|had|my|with|using|got)\b", re.IGNORECASE)
_OTHERS = re.compile(r"\b(?:like|such as|other|e\.g\.)\b", re.IGNORECASE)


def mac_pro_gpu(line: str) -> Facts:
    """'My machine ... has a 32GB AMD Pro Vega II': a Mac Pro (2019) MPX GPU the writer owns, as written, with the
    memory before it; one only given as an example ('cards like the Pro Vega II Duo') is not theirs."""
    facts: Facts = []
    for found in _MPX.finditer(line):
        before = line[max(0, found.start() - 30):found.start()]
        if _OWNS.search(before) and not _OTHERS.search(before):
            facts.append(gpu_record(found.group(2), found.group(1) + " GB" if found.group(1) else None))
    return facts


_PYTHON_PROSE = re.compile(r"\b(?:c?python)(?:\s+version)?\s*(?:\(|:|\bis\b)?\s*`?v?([23]\.\d{1,2}\.\d{1,2})\b(?!\d|\.\d)",
                           re.IGNORECASE)
# advice to the reader, not the writer's Python: 'You might need to install Python 3.9.2', 'try python 3.10.4'
_ADVICE = re.compile(r"\b(?:install|need|try|switch\s+to|upgrade\s+to|downgrade\s+to|recommend|should)\b[\w\s]{0,12}$", re.IGNORECASE)


def python_in_prose(line: str) -> Facts:
    """'(conda 4.9.2, cpython 3.8.12, MacOS 12.2)', 'the correct Python version (3.8.10 is the only one that worked)',
    "I'm using python `3.10.5`"; nothing from advice ('You might need to install Python 3.9.2')."""
    found = _PYTHON_PROSE.search(line)
    if not found or _ADVICE.search(line[:found.start()]):
        return []
    return [("python.version", found.group(1))]


_TORCH_CANDIDATES = re.compile(r"requirement torch\b[^\n]*?\(from versions: ([^)]*)\)", re.IGNORECASE)  # past '(from medaka)'


def _release(version: str) -> Tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


def torch_candidates(line: str) -> Facts:
    """pip's 'Could not find a version that satisfies the requirement torch==2.6.0 (from versions: 2.0.0, ...,
    2.2.2)': torch wheels that stop at the last x86_64 macOS one (2.2.2; arm64 and Linux wheels go on) mean the
    Python asking is an x86_64 one on macOS."""
    found = _TORCH_CANDIDATES.search(line)
    if not found:
        return []
    versions = [v.strip() for v in found.group(1).split(",") if re.fullmatch(r"\d+\.\d+\.\d+", v.strip())]
    if len(versions) < 2 or max(map(_release, versions)) != _release(INTEL_MAC_LAST_TORCH):
        return []
    return [("python.machine", "x86_64")]


_OWNED_WITH_MEMORY = re.compile(r"\b(?:I have|I've got|I own|my)\s+(?:an?\s+|the\s+)?(.{4,40}?)\s*(?:with|,|\(|-)\s*"
                                r"(\d{1,2})\s?G[Bb]\b(?!/s)")


def owned_gpu_memory(line: str) -> Facts:
    """'I have a AMD Radeon Pro 5500M with 8Gb', 'my Radeon Pro 580 (8GB)': the writer's GPU and its memory."""
    found = _OWNED_WITH_MEMORY.search(line)
    names = gpu_names(found.group(1)) if found else []
    if len(names) != 1 or names[0].startswith("Apple") or not found.group(1).strip().endswith(names[0]):
        return []
    return [gpu_record(names[0], found.group(2) + " GB")]


_MACOS_ARCH = re.compile(r"\bmac\s?OS(?: X)?\b[^()\n]{0,40}?,\s*(x86(?:[_-]64)?|intel|amd64)\s*[),;]", re.IGNORECASE)


def macos_with_arch(line: str) -> Facts:
    """'(macOS Big Sur Version 11.6, x86)', 'macOS 13.4, Intel;': the machine a system line names, with its arch."""
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")] if _MACOS_ARCH.search(line) else []


# ComfyUI's 'Mac Version (14, 7, 6)' (platform.mac_ver()'s release as a tuple); 'my mac (15.1.1 M2)'
_MAC_VERSION_TUPLE = re.compile(r"\bMac Version \((1[1-9]|2[0-9]|10), (\d{1,2})(?:, (\d{1,2}))?\)")
_MAC_VERSION_BRACKET = re.compile(r"\bmy mac(?:\s?os)?\s*\(\s*(1[1-9]|2[0-9])\.(\d{1,2})(?:\.(\d{1,2}))?(?=[\s),])", re.IGNORECASE)


def macos_version_beside_mac(line: str) -> Facts:
    """'Mac Version (14, 7, 6)', 'It works fine on my mac (15.1.1 M2)': the macOS version written beside 'Mac'."""
    found = _MAC_VERSION_TUPLE.search(line) or _MAC_VERSION_BRACKET.search(line)
    if not found:
        return []
    version = ".".join(part for part in found.groups() if part is not None)
    return [] if NO_SUCH_MACOS.match(version) else [("platform", "darwin"), ("os.version", version)]


# 'I got it set up on my macbook 1.6 GHz intel Core i5': the writer's own Mac, named as what it runs on
_RUN_ON_MY_MAC = re.compile(r"\b(?:(?:on|using|with|from) my|I(?:'m| am) (?:running|using|on) an?) (?:new |old )?"
                            r"(?:mac\s?book(?:\s?(?:pro|air))?|imac|mac mini|mac studio)\b", re.IGNORECASE)  # 'I am running a Macbook Pro'


_MY_HACKINTOSH = re.compile(r"\b(?:I have|I've got|I own|I use|I'm on|on|using|my)\s+(?:an?\s+)?(?:old\s+|new\s+)?hackintosh\b", re.IGNORECASE)


# Chinese: 黑苹果 ('black apple', a Hackintosh) in a line where the writer speaks of their own (我); 'N G的内存' (N GB of memory)
_MY_HACKINTOSH_ZH = re.compile(r"我.*黑苹果|黑苹果.*我")
_MEMORY_ZH = re.compile(r"(?<![\d.])(\d{1,3})\s?G[Bb]?\s*的内存")


def my_hackintosh(line: str) -> Facts:
    """'I have a hackintosh, i5 4590 and a GTX 750 Ti', '我试着自己配置了一下' beside 黑苹果: macOS on a PC, so an x86_64
    machine; '看着64G的内存' ('looking at 64G of memory'): its memory."""
    found = _MY_HACKINTOSH.search(line)
    facts: Facts = [("cpu.memory_bytes", int(m.group(1)) * 1024**3) for m in _MEMORY_ZH.finditer(line)][:1]
    if (found and not _NOT.search(line[:found.start()])) or _MY_HACKINTOSH_ZH.search(line):
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    return facts


def run_on_my_mac(line: str) -> Facts:
    """'run on my macbook', 'on my iMac': the machine the writer runs on is a Mac."""
    found = _RUN_ON_MY_MAC.search(line)
    if not found or _NOT.search(line[:found.start()]) or re.search(r"\b(?:but|not|instead of)\b[^.]{0,30}$", line[:found.start()]):
        return []
    return [("platform", "darwin")]


# A Mac without slots ('MBP 2015 13 inch i7 model with RX 6800 XT and Kryptonite', 'Mac mini with a RX 580'): a desktop
# Radeon RX card beside it can only be an eGPU (Apple put RX-named cards in no laptop or mini; theirs are 'Radeon Pro')
_SLOTLESS_MAC = re.compile(r"\b(?:MBP|MacBook(?:\s?(?:Pro|Air))?|Mac\s?mini)\b", re.IGNORECASE)
_DESKTOP_RX = re.compile(r"(?<![\w-])(?:AMD\s+)?(?:Radeon\s+)?RX\s?(?:[4-5][5-9]0|5[5-7]00|6[4-9][05]0|7[6-9]00|90[67]0)(?:\s?(?:XTX|XT|GRE))?(?![\w-])",
                         re.IGNORECASE)


def desktop_card_on_slotless_mac(line: str) -> Facts:
    """'I'm using MBP 2015 13 inch i7 model with RX 6800 XT and Kryptonite' -> the RX 6800 XT is external."""
    mac, card = _SLOTLESS_MAC.search(line), _DESKTOP_RX.search(line)
    if not mac or not card or card.start() < mac.start() or _NOT.search(line[:card.start()]) or line.rstrip().endswith("?"):
        return []
    return [("gpu.external", " ".join(card.group().split()))]


# 'mac intel chip anaconda found 2.17 version': a Mac said with its kind of chip, 'mac (with) intel chip', 'mac m1 chip'
_MAC_CHIP_WORDS = re.compile(r"\bmac(?:book(?:\s+(?:pro|air))?)?\s+(?:with\s+(?:an?\s+)?)?(intel|m[1-5])\s+(?:chip|cpu|processor)\b",
                             re.IGNORECASE)


def mac_chip_words(line: str) -> Facts:
    """'mac intel chip anaconda found ...' -> an Intel Mac (x86_64); 'macbook with m2 chip' -> Apple silicon. Nothing from
    a question ('does no support mac intel chip anymore?') or a negation."""
    found = _MAC_CHIP_WORDS.search(line)
    if not found or line.rstrip().endswith("?") or re.search(r"\b(?:not|no|never|isn't|unlike)\b", line[:found.start()], re.IGNORECASE):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64" if found.group(1).lower() == "intel" else "arm64")]


LINE_RULES = (mac_with_chip, macos_version_beside_mac, run_on_my_mac, my_hackintosh, owned_gpu_memory, macos_with_arch, macos_release_version, egpu_gpus, bare_intel_gpu, mac_pro_gpu, python_in_prose,
              torch_candidates, mac_chip_words, desktop_card_on_slotless_mac)


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in LINE_RULES:
        facts += rule(line)
    return facts


def keyed_facts(key: str, value: str) -> Facts:
    return intel_or_apple_chip(key, value) + macos_version_answer(key, value)
