"""Clues to a Mac's hardware that people write in words or that tools print in passing: a Homebrew or Python
named after Rosetta ('my Rosetta brew', 'your Rosetta python env'), an x86_64 build of an app run on Apple silicon,
Rosetta's own runtime error, what a Python reports for `platform.machine()` / `platform.processor()`, memory
called "unified" (Apple silicon's), an AMD Radeon GPU named in prose, a macOS release named by its codename or by
its major number alone ('on a Mac 5,1 with macOS 12': the same test of whose release it is), sysctl's missing
`hw.optional.arm64` (an Intel Mac's kernel), and MLX's library (arm64 only).

Each rule is a pure function of one line returning (fact, value) pairs; `line_facts` applies them all.
"""
from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

from macml.knowledge.macos import APPLE_SILICON_MEMORY_GB, MACOS_RELEASE_NAMES, sole_release
from macml.probe.paste.gpu_names import gpu_record, with_partner
from macml.probe.paste.mac_words_rules import PACKAGE_WORDS
from macml.probe.paste.own_release import release_of_this_mac
from macml.probe.paste.packages import canonical
from macml.probe.paste.said_of_this_machine import NEGATION, labels_results
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

_ROSETTA_TOOL = re.compile(r"\brosetta(?:[- ]2)?[- ](?:installed\s+)?(brew|homebrew|python3?|pyenv|conda|miniconda|anaconda|"
                           r"terminal|shell|iterm)\b", re.IGNORECASE)
_PYTHON_VERSION = re.compile(r"\bpython\s?v?(3\.\d{1,2}\.\d{1,2})\b(?![.\d])", re.IGNORECASE)
_APPLE_SILICON = re.compile(r"\b(?:apple silicon|apple chip|M[1-5](?: (?:Pro|Max|Ultra))?(?![\w.])|arm64 mac)", re.IGNORECASE)
_X86_BUILD = re.compile(r"\b(?:an?\s+)?(?:x86[_-]64|x64|Intel|x86)\s+(?:version|build|binary|release|copy)\s+of\s+"
                        r"([A-Za-z][\w.+-]*)", re.IGNORECASE)
_ROSETTA_ERROR = re.compile(r"^\s*rosetta error:", re.IGNORECASE)
_MACHINE_REPORT = re.compile(r"platform\.(machine|processor)\(\)`?\s*(?:is|returns|reports|gives|prints|says|=+|:|->)\s*"
                             r"[`'\"]?(arm64|arm|i386|x86_64)\b[`'\"]?", re.IGNORECASE)
_REPORTS_PLATFORM = re.compile(r"\breports?\s+(?:platform|processor|machine)\s+[`'\"]?(arm64|i386)\b", re.IGNORECASE)
_JSON_PROCESSOR = re.compile(r"^\s*\"processor\"\s*:\s*\"(arm|i386)\"\s*,?\s*$")
_UNIFIED = re.compile(r"(?<![\d.])(\d{1,3})\s?(?:GB|GiB|G)\b\s*(?:of\s+)?\(?\s*unified\b", re.IGNORECASE)
_APPLE_METAL_GPU = re.compile(r"\bApple\s+(?:Metal|GPU)\b", re.IGNORECASE)
# 'RX5300M 4GB GPU', 'Radeon Pro 5500M', 'AMD RX 580 8GB': an AMD Radeon named in prose, with its memory
_RADEON = re.compile(r"(?<![\w-])((?:AMD\s+)?(?:Radeon\s+(?:Pro\s+)?)?RX\s?\d{3,4}M?(?:\s?XTX?)?|(?:AMD\s+)?Radeon\s+Pro\s+"
                     r"(?:W?\d{3,4}[MX]?(?:\s?XTX?)?|Vega\s?\d{2}))(?![\w-])(?:\s+(\d{1,2})\s?G(?:B|iB)?\b)?", re.IGNORECASE)
_MACOS_CODENAME = re.compile(r"\bmac\s?OS(?:\s?X)?,?\s+\(?(?:Tahoe|Sequoia|Sonoma|Ventura|Monterey|Big Sur|Catalina|Mojave|"
                             r"High Sierra|Sierra)\b", re.IGNORECASE)
_NO_ARM64_OID = re.compile(r"sysctl: unknown oid '?hw\.optional\.arm64'?")
_MLX_LIBRARY = re.compile(r"\blibmlx\.dylib\b|\bmlx::core::")
_CHIP_MAC = re.compile(r"(?<![\w-])M[1-9](?:\s+(?:Pro|Max|Ultra))?\s+(?:Mac ?Book(?: ?Pro| ?Air)?|Mac ?mini|Mac ?Studio|iMac)\b"
                       r"|\bMac(?: ?Book(?: ?Pro| ?Air)?)?\s*(?:\(|,)?\s*M[1-9](?![\w.])", re.IGNORECASE)
_MAC_INTEL = re.compile(r"\b(?:Mac ?Book ?(?:Pro|Air)?|iMac(?: ?Pro)?|Mac ?mini|Mac ?Pro)[\s,(]+(?:Intel|x64|x86[_-]64)\b"
                        r"|\bMac\s+(?:with|having|w/)\s+(?:an?\s+)?(?:Intel|x64|x86[_-]64)\s+(?:CPU|processor|chip)\b"
                        r"|\bmac\s*系统\s*(?:是\s*)?intel\s*架构", re.IGNORECASE)  # 'mac系统intel架构的': a Mac, Intel architecture
_WRITTEN_VERSIONS = re.compile(r"\b(Python|OS Version|macOS)\s?\((\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)\)", re.IGNORECASE)
_CHECKBOX = re.compile(r"^\s*[-*]\s*\[[xX ]\]\s*([A-Za-z][\w .()/-]{0,40}?)\s*:\s*(\S.*?)\s*$")
_PYTHON_VERSION_SAID = re.compile(r"\bpython version\s*(?:=|:|is)\s*`?(?:python\s*)?v?(3\.\d{1,2}(?:\.\d{1,2})?)(?![\d.])`?",
                                  re.IGNORECASE)
_TESTED_WITH_PYTHON = re.compile(r"\b(?:tested|tried|ran|run|running|works?|worked)\b[^.;?]{0,30}?\b(?:with|on|using|under)\s+python\s?v?"
                                 r"(3\.\d{1,2}(?:\.\d{1,2})?)(?![\d.])", re.IGNORECASE)
_LISTED_PYTHON = re.compile(r",\s*python\s?v?(3\.\d{1,2}\.\d{1,2})(?![\d.])", re.IGNORECASE)
_CHIP_MEMORY = re.compile(r"(?<![\w-])M([1-5])(?:\s*(Pro|Max|Ultra)\b)?(?:\s+(?:mini|Mac ?Book(?: ?Pro| ?Air)?|Mac ?mini|Studio|iMac|Air))?"
                          r"\s*(?:chip\s*)?(?:,?\s*20[2-3]\d\b)?(?:with\s+|[,\u2013\u2014-]\s*|w/\s*)?(\d{1,3})\s?(?:GB|GiB)\b"
                          r"(?!\s*(?:of\s+)?(?:SSD|storage|disk|flash|drive|HDD))", re.IGNORECASE)
_PACKAGE_SAID = re.compile(r"(?<![\w./-])([A-Za-z][\w-]*)(?:\s+version\s+is|\s*=(?!=))\s*`?v?(\d+\.\d+(?:\.\d+)*)\b`?(?![\w.])",
                           re.IGNORECASE)
_MPS_QUESTION = re.compile(r"^\s*[-*]?\s*Is MPS\b[^?]{0,40}?\b(built|available)\?\s*(True|False)\s*$", re.IGNORECASE)
_BREW_REPORTS_X86 = re.compile(r"\bbrew(?: config)?\b.*\breports?\b.*\bx86[_-]64\b", re.IGNORECASE)


def rosetta_tool(line: str) -> Facts:
    """'I am using Rosetta brew and not my default arm brew', 'switch to your Rosetta python env (I use python 3.8.5
    ...)': a Homebrew, Python or shell that runs translated by Rosetta 2, so the Mac is Apple silicon."""
    found = _ROSETTA_TOOL.search(line)
    if not found or re.search(r"\b(?:no|not|without|never)\b(?:\s+\w+){0,2}\s+rosetta", line, re.IGNORECASE):
        return []
    facts: Facts = [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True),
                    ("process.arch", "x86_64")]
    if found.group(1).lower().startswith(("python", "pyenv", "conda", "miniconda", "anaconda")):
        facts.append(("python.machine", "x86_64"))
        version = _PYTHON_VERSION.findall(line)
        facts += [("python.version", version[0])] if len(set(version)) == 1 else []
    return facts


def x86_build_on_apple_silicon(line: str) -> Facts:
    """'using Apple Silicon running an x86_64 version of Julia', 'an Intel build of Blender on my M1': an x86_64
    app on an Apple chip runs translated by Rosetta 2 (a Python among them is the interpreter)."""
    found = _X86_BUILD.search(line)
    if not found or not _APPLE_SILICON.search(line) or NEGATION.search(line):
        return []
    facts: Facts = [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True),
                    ("process.arch", "x86_64")]
    return facts + ([("python.machine", "x86_64")] if found.group(1).lower().startswith("python") else [])


def rosetta_runtime_error(line: str) -> Facts:
    """'rosetta error: unexpectedly need to EmulateForward ...': Rosetta 2 itself failed in a translated process."""
    if not _ROSETTA_ERROR.match(line):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True), ("process.arch", "x86_64")]


def python_reports_machine(line: str) -> Facts:
    """'`platform.machine()` is `arm64`', 'my M1 Max reports platform `arm64`', collect_env JSON's '"processor": "arm"':
    the Python's own arch (macOS's platform.processor() says 'arm' natively on Apple silicon, 'i386' for x86_64)."""
    found = _MACHINE_REPORT.search(line) or _REPORTS_PLATFORM.search(line) or _JSON_PROCESSOR.match(line)
    if not found or NEGATION.search(line):
        return []
    word = found.group(found.lastindex).lower()
    if word in ("arm", "arm64"):
        return [("python.machine", "arm64"), ("process.arch", "arm64")] + ([("platform", "darwin")] if word == "arm" else [])
    return [("python.machine", "x86_64")]


def unified_memory(line: str) -> Facts:
    """'GPU model and memory: Apple Metal 32gb (unified)', '64 gb of unified memory': Apple silicon's memory, shared
    by CPU and GPU; 'Apple Metal' / 'Apple GPU' beside it is the chip's GPU."""
    found = _UNIFIED.search(line)
    if not found or int(found.group(1)) not in APPLE_SILICON_MEMORY_GB:
        return []
    facts: Facts = [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.memory_bytes", int(found.group(1)) * 1024**3)]
    if _APPLE_METAL_GPU.search(line):
        facts.append(("gpu", {"name": "Apple GPU", "vendor": "Apple", "memory_mib": None, "index": None}))
    return facts


def radeon_in_words(line: str) -> Facts:
    """'experiments on the RX5300M 4GB GPU', 'an AMD Radeon Pro 5700 XT GPU', About This Mac's 'AMD Radeon PRO W6800X
    32 GB': an AMD GPU the writer has, with its memory when written beside it (on a Mac, only an Intel Mac drives one)."""
    found = list(_RADEON.finditer(line))
    alone = len(found) == 1 and found[0].group(2) and not line.replace(found[0].group(0), "").strip(" -*:|")
    if not (alone or re.search(r"\b(?:GPU|graphics|card|eGPU|VRAM)\b", line, re.IGNORECASE)) or NEGATION.search(line) \
            or re.search(r"\b(?:Intel|NVIDIA|GeForce|Apple)\b", line):  # a list of devices: the dedicated readers'
        return []
    if len({m.group(1).lower() for m in found}) != 1:
        return []
    name, memory = found[0].group(1), found[0].group(2)
    fact, record = gpu_record(with_partner(line, name), memory + " GB" if memory else None)
    size = [("gpu.memory_of", {"index": None, "memory_mib": record["memory_mib"]})] if record["memory_mib"] else []
    return [(fact, dict(record, vendor="AMD"))] + size


def macos_codename(line: str) -> Facts:
    """'MPS support on MacOS Ventura', 'macOS Big Sur', 'MacOS (Mojave)': macOS named by its release name (os.release:
    the version that name stands for); '- MacOS Mojave: 10.14.6' with the version after a colon."""
    found = _MACOS_CODENAME.search(line)
    if not found:
        return []
    version = re.match(r"\s*\)?\s*[:(,-]?\s*v?(1[0-9]\.\d{1,2}(?:\.\d{1,2})?|2[0-9](?:\.\d{1,2}){0,2})\b(?![.\d])", line[found.end():])
    release = [("os.release", sole_release(line))] if sole_release(line) and release_of_this_mac(line) else []
    number = _of_release(version.group(1), sole_release(line)) if version else None
    return [("platform", "darwin")] + release + ([("os.version", number)] if number else [])


def _of_release(number: str, release: Optional[str]) -> Optional[str]:
    """The version written after a release's name, as that release's: 'High Sierra(13.4)' is 10.13.4 (the '10.' left
    out); a number of another release ('Catalina 13.4') is none of it."""
    if not release or number == release or number.startswith(release + "."):
        return number
    if release.startswith("10.") and number.split(".")[0] == release.split(".")[1]:
        return "10." + number
    return None


_MACOS_MAJOR = re.compile(r"\bmac\s?OS\s*(1[1-5]|2[6-9])(?!\.?\d|\s*\+|\s+(?:or|and)\s+(?:later|newer|above))", re.IGNORECASE)
_NAME_OF_MAJOR = {version: name for name, version in MACOS_RELEASE_NAMES.items() if "." not in version}


def macos_major(line: str) -> Facts:
    """'AMD RX 6900 XT on a Mac 5,1 with macOS 12.' -> macOS 12 (os.release), where the line says it of the writer's
    Mac as it would the release's name ('with macOS Monterey')."""
    majors = {m.group(1): m for m in _MACOS_MAJOR.finditer(line)}
    if len(majors) != 1 or sole_release(line):
        return []
    major, found = majors.popitem()
    name = _NAME_OF_MAJOR.get(major, "tahoe")  # a release newer than the table ('macOS 27') is phrased the same way
    named = line[:found.start()] + "macOS " + name.title() + line[found.end():]
    return [("platform", "darwin"), ("os.release", major)] if release_of_this_mac(named) else []


# 'Tested on mac 13.2.1 (intel chip)': the writer's Mac, its macOS version, and which kind of chip
_ON_MAC_VERSION = re.compile(r"\b(?:tested|testing|running|run|ran|on)\s+(?:on\s+)?(?:a\s+|my\s+)?mac(?:OS| OS)?\s+"
                             r"((?:1[0-5]|2[6-9])\.\d{1,2}(?:\.\d{1,2})?)(?![\d.])(?:\s*\((intel|apple silicon|M[1-5])(?: chip)?\))?",
                             re.IGNORECASE)


def mac_with_version(line: str) -> Facts:
    found = _ON_MAC_VERSION.search(line)
    if not found or NEGATION.search(line[:found.start()]):
        return []
    arch = {"intel": "x86_64"}.get((found.group(2) or "").lower(), "arm64" if found.group(2) else "")
    return [("platform", "darwin"), ("os.version", found.group(1))] + ([("cpu.hardware_arch", arch)] if arch else [])


_PERF_EFFICIENCY_CORES = re.compile(r"\b(\d{1,2})[- ]core\s*\((\d{1,2}) performance and (\d{1,2}) efficiency\)", re.IGNORECASE)


def split_cpu_cores(line: str) -> Facts:
    """'M1 8 core (6 performance and 2 efficiency)': an Apple chip's CPU cores (which, with its tier, name its GPU bin)."""
    found = _PERF_EFFICIENCY_CORES.search(line)
    if not found or int(found.group(1)) != int(found.group(2)) + int(found.group(3)):
        return []
    return [("platform", "darwin"), ("cpu.cores", int(found.group(1)))]


def missing_arm64_sysctl(line: str) -> Facts:
    """"sysctl: unknown oid 'hw.optional.arm64'" (a Makefile probing it): the kernel lacks the key, which only an
    Intel Mac's does (on Apple silicon it exists even for translated processes)."""
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")] if _NO_ARM64_OID.search(line) else []


def mlx_library(line: str) -> Facts:
    """'SIGABRT in libmlx.dylib', 'mlx::core::gpu::check_error': MLX runs only in native arm64 processes."""
    return [("platform", "darwin"), ("process.arch", "arm64")] if _MLX_LIBRARY.search(line) else []


def apple_chip_mac(line: str) -> Facts:
    """'in M1 Macbook Pro 32GB', 'MacBook Air (M2)': a Mac named with its Apple chip generation is Apple silicon
    (the chip itself stays unnamed: 'M1' is often written for an M1 Pro or Max)."""
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")] if _CHIP_MAC.search(line) else []


def intel_mac_product(line: str) -> Facts:
    """'Have MacbookPro Intel X64', 'iMac (Intel)', 'running on Mac with x86_64 CPU': a Mac named with Intel or x64
    right after it."""
    if not _MAC_INTEL.search(line) or _APPLE_SILICON.search(line) or NEGATION.search(line):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]


def versions_in_parentheses(line: str) -> Facts:
    """'OS Version(14.1), Python(3.10)': versions written in parentheses after their name, on a line about a Mac."""
    facts: Facts = []
    for name, version in _WRITTEN_VERSIONS.findall(line):
        if name.lower() == "python" and version.startswith("3."):
            facts.append(("python.version", version))
        elif name.lower() != "python" and re.search(r"\bmac", line, re.IGNORECASE):
            facts.append(("os.version", version))
    return facts


def checkbox_answer(line: str) -> Facts:
    """An issue form's ticked list '- [x] Python version: 3.11.4': the key and its answer."""
    found = _CHECKBOX.match(line)
    return by_key(" ".join(found.group(1).lower().split()), found.group(2)) if found else []


def python_version_said(line: str) -> Facts:
    """'## python version = `Python 3.12.7`', '- Python version:3.8', 'on macOS 12.0.1, arm64, python 3.8.12', 'I tested
    it with python 3.10 + pytorch 2.0.1': the writer's Python (a bare minor where that is all they give)."""
    found = _PYTHON_VERSION_SAID.search(line)
    listed = _LISTED_PYTHON.search(line) if re.search(r"\bmac ?os\b", line, re.IGNORECASE) else None
    tested = None if line.rstrip().endswith("?") else _TESTED_WITH_PYTHON.search(line)
    match = found or listed or tested
    return [("python.version", match.group(1))] if match else []


def chip_memory(line: str) -> Facts:
    """'my M1 Max 32GB', 'm4pro 48gb', 'M2 Pro with 16GB', 'Mac M2 mini, 24GB', '(Apple M1 Pro - 16 GB)': an Apple chip written with
    its memory (not its storage): the memory, and the chip (a plain 'M2' as its generation, which stated.py reads)."""
    found = _CHIP_MEMORY.search(line)
    if not found or int(found.group(3)) not in APPLE_SILICON_MEMORY_GB or labels_results(line[found.end():]):
        return []
    tier = found.group(2)
    chip = [("cpu.brand", f"Apple M{found.group(1)} {tier.title()}")] if tier else [("cpu.apple_generation", int(found.group(1)))]
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.memory_bytes", int(found.group(3)) * 1024**3)] + chip


def package_said(line: str) -> Facts:
    """'My tensorflow-metal version is `0.3.0`', 'where jax-metal=0.1.1': a known distribution and the version the
    writer has (not a pip/conda command's requirement)."""
    if re.search(r"\b(?:pip3?|conda|mamba|uv)\s+install\b|==|>=|<=", line):
        return []
    facts: Facts = []
    for name, version in _PACKAGE_SAID.findall(line):
        word = canonical(name)
        if word in PACKAGE_WORDS:
            facts.append(("package", {"name": PACKAGE_WORDS[word], "version": version}))
    return facts


def mps_question(line: str) -> Facts:
    """A script's questions 'Is MPS (Metal Performance Shader) built? True', 'Is MPS available? True': torch's MPS."""
    found = _MPS_QUESTION.match(line)
    if not found:
        return []
    value = found.group(2).lower() == "true"
    facts: Facts = [("platform", "darwin")] if value else []
    if found.group(1).lower() == "built":
        return facts + [("torch.mps_built", value)]
    return facts + [("torch.mps_available", value)] + ([("torch.mps_built", True)] if value else [])


def brew_reports_x86(line: str) -> Facts:
    """'the home brew config reports this my machine is base on x86_64': that Homebrew runs as an x86_64 process."""
    found = _BREW_REPORTS_X86.search(line.replace("home brew", "brew").replace("Home brew", "brew"))
    return [("platform", "darwin"), ("process.arch", "x86_64")] if found and not NEGATION.search(line) else []


LINE_RULES = (rosetta_tool, x86_build_on_apple_silicon, rosetta_runtime_error, python_reports_machine, unified_memory,
              radeon_in_words, macos_codename, macos_major, mac_with_version, split_cpu_cores, missing_arm64_sysctl, mlx_library, apple_chip_mac, intel_mac_product,
              versions_in_parentheses, checkbox_answer, python_version_said, chip_memory, package_said, mps_question,
              brew_reports_x86)


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in LINE_RULES:
        facts += rule(line)
    return facts
