"""A Mac's specs as people write them in prose and short pastes: the chip said plainly ('M1 chip', 'a regular M1',
'apple M1 Max chipset') or implied by the Mac family ('iMac 24 with M1', 'm2 macbook air': those Macs had only the
plain chip), a bare 'M1' beside a Mac word, 'on Apple Silicon', a glued 'MacOS14.2', 'macOS Monterey, version 12.2',
'My Python is 3.10.2', '16gb ram', System Information's 'Intel HD Graphics 40001536MB' (name and VRAM run
together), a Radeon Pro named only by its number on an Intel Mac ('i9 - 5500M'), `accelerate env`'s hyphenated
keys ('pytorch-version: 1.13.1'), pip's 'Successfully installed spacy-3.1.3' quoted in a sentence, 'pip 21.3.1
from ... (python 3.9)', 'pipx installed open-webui 0.5.3', 'MediaPipe version 0.10.20', conda list rows (Apple's
own channel, the defaults channel's per-platform build hashes, a long name that leaves one space), and
Paddle's `python -c "import platform;...print(platform.machine())"` check pasted with its answers.

Line rules are pure functions of one line; `keyed_facts` reads a `key: value` pair; `answers` reads what needs
the lines around it.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.mac_families import only_tier
from macml.knowledge.macos import MACOS_RELEASE_NAMES, MAC_MEMORY_GB
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.said_of_this_machine import hypothetical, someone_elses
from macml.probe.paste.statement_rules import by_key, package_facts

Facts = List[Tuple[str, Any]]

_TIER = r"(?:\s+(Pro|Max|Ultra))"
# 'M1 chip', 'M4 Chip', 'apple M1 Max chipset', 'M1 CPU/GPU', 'a regular M1', 'Mac mini m2 pro'
_CHIP_WORD = re.compile(r"(?<![\w.-])(?:apple\s+)?M([1-5])" + _TIER + r"?\s*[-_]?\s*(?:chip(?:set)?|CPU|SoC)\b", re.IGNORECASE)
_PLAIN_WORD = re.compile(r"\b(?:regular|plain|base|standard|vanilla|basic|non-pro)\s+(?:apple\s+)?M([1-5])(?![\w.])"
                         r"(?!\s+(?:Pro|Max|Ultra)\b)", re.IGNORECASE)
_LOWER_TIER = re.compile(r"(?<![\w.-])(?:apple\s+)?m([1-5])\s+(pro|max|ultra)\b(?!\s*(?:chip|\d))")
_FAMILY = r"(Mac ?Book ?Air|iMac(?! ?Pro)|Mac ?mini|Mac ?Book ?Pro|Mac ?Studio)"
_FAMILY_CHIP = re.compile(_FAMILY + r"\b(?:\s+\d{2}(?:\"|”|-inch|\s?inch)?)?(?:\s*\(|\s+with\s+(?:an?\s+)?|\s*,\s*|\s+)"
                          r"(?:apple\s+)?M([1-5])(?![\w.])(?!\s+(?:Pro|Max|Ultra)\b)", re.IGNORECASE)
_CHIP_FAMILY = re.compile(r"(?<![\w.-])M([1-5])\s+" + _FAMILY + r"\b", re.IGNORECASE)
_CHIP_STUDIO = re.compile(r"(?<![\w.-])M([34])\s+(?:Mac\s?)?Studio\b", re.IGNORECASE)  # 'on M3 Studio internal drive'
_OS_SPEC = (r"(?:mac ?OS(?: X)?\s*(?:" + "|".join(n.title() for n in MACOS_RELEASE_NAMES) + r")?|"
            + "|".join(n.title() for n in MACOS_RELEASE_NAMES) + r")\s*(?:1[0-5]|2[6-9])(?:\.\d{1,2}){0,2}")
# a line that is only the macOS and the chip: 'Sonoma 14.5  M1', 'M2, macOS 13.4', 'macOS 12.3 arm64, M1'
_SPEC_LINE_CHIP = re.compile(r"^\s*(?:[-*]\s+)?(?:" + _OS_SPEC + r"(?:\s+arm64)?\s*[,/|;]?\s*(?:apple\s+)?M([1-5])|(?:apple\s+)?M([1-5])\s*[,/|;]?\s*"
                             + _OS_SPEC + r")\s*$", re.IGNORECASE)
# a title or line that opens with the chip and the macOS: 'm1 macOS 12.4 GPU process has crashed'
_LEADING_SPEC = re.compile(r"^\s*(?:#+\s*)?(?:apple\s+)?M([1-5])\s*[,/|;]?\s*" + _OS_SPEC + r"(?![\d.])", re.IGNORECASE)
_BARE_CHIP = re.compile(r"(?<![\w./-])M[1-5](?![\w]|\.\w)")  # 'on Mac M1.': a sentence's full stop may follow
_MAC_WORD = re.compile(r"\bmac ?os|\bMac\b|\bMBP\b|\bMacBook|\biMac|\bMetal\b|\bMPS\b", re.IGNORECASE)
_INTEL_WORD = re.compile(r"\bIntel\b|\bx86|\bi[3579]\b", re.IGNORECASE)
# ... or the macOS it names, marked: 'macOS Tahoe 26.2 (Apple Silicon)'
_ON_APPLE_SILICON = re.compile(r"\b(?:on|with|using|running)\s+(?:an?\s+|my\s+)?Apple[- ]Silicon\b"
                               r"|\bmac\s?OS\b[\w. ]{0,30}\(\s*Apple[- ]Silicon\s*\)", re.IGNORECASE)
_GLUED_MACOS = re.compile(r"\bmac ?OS(1[1-5]|2[6-9])\.(\d{1,2}(?:\.\d{1,2})?)(?![\d.])", re.IGNORECASE)
_NAMED_VERSION = re.compile(r"\bmac ?OS(?: X)?\s+(" + "|".join(n.title() for n in MACOS_RELEASE_NAMES) + r"),?\s+(?:version\s+)?"
                            r"((?:1[0-5]|2[6-9])\.\d{1,2}(?:\.\d{1,2})?)(?![\d.])", re.IGNORECASE)
_MY_PYTHON = re.compile(r"\bmy python(?: version)? is\s+v?(3\.\d{1,2}(?:\.\d{1,2})?)(?!\d|\.\d)", re.IGNORECASE)
_RAM = re.compile(r"(?<![\d.])(\d{1,3})\s?(?:gb|gib|gigs?|g)\s+(?:of\s+)?(?:ram|memory)\b", re.IGNORECASE)  # '8 gig of ram', '96G ram' too
_APPLE_CHIP_WORD = re.compile(r"\bM[1-5](?:\s+(?:Pro|Max|Ultra))?\b")
_GPU_WORDS = re.compile(r"\b(?:GPU|VRAM|graphics|card|Radeon|GeForce|RTX|GTX|TITAN|Quadro|Tesla|NVIDIA|Arc)\b", re.IGNORECASE)
_INTEL_GLUED_VRAM = re.compile(r"\b(Intel (?:HD|UHD|Iris(?: Pro| Plus)?) Graphics(?: P)? ?\d{3,4})(128|256|384|512|768|1024|1536|2048|3072)"
                               r"\s?MB\b")
# The Radeon Pro GPUs of Intel MacBook Pros and iMacs named by their number alone (support.apple.com/specs)
_RADEON_NUMBER = re.compile(r"(?<![\w-])(5[356]00M|555X|560X)(?![\w-])")
_INTEL_MAC = re.compile(r"\bIntel Mac\b|\bMBP\b|\bMac ?Book ?Pro\b|\biMac\b", re.IGNORECASE)
_SUCCESSFULLY = re.compile(r"\bSuccessfully installed ((?:[A-Za-z][\w.]*(?:-[A-Za-z][\w.]*)*-\d[\w.+!]*\s*)+)")
_PIP_VERSION = re.compile(r"^\s*pip (\d+\.\d+(?:\.\d+)?) from \S+ \(python (3\.\d{1,2})\)")
_INSTALLED_WITH = re.compile(r"\b(?:pipx?|conda|mamba|uv|brew)\s+installed\s+([A-Za-z][\w.-]*[A-Za-z0-9])\s+v?(\d+\.\d+(?:\.\d+)+)\b(?![\w.])",
                             re.IGNORECASE)
_NAME_VERSION = re.compile(r"(?<![\w./-])([A-Za-z][\w-]{2,})\s+version\s+v?(\d+\.\d+\.\d+)(?![\w.])")
_NOT_PACKAGES = {"python", "macos", "os", "ios", "android", "cuda", "cudnn", "driver", "kernel", "xcode", "clang", "gcc",
                 "bazel", "java", "node", "npm", "chrome", "safari", "firefox", "ndk", "sdk", "rust", "cargo", "ruby", "php",
                 "version", "build", "app", "release", "model", "metal", "docker", "sonoma", "sequoia", "ventura",
                 "monterey", "tahoe", "catalina", "mojave", "sur", "firmware", "bios", "windows", "ubuntu", "the", "this", "that", "which", "last", "latest", "first", "same", "new", "old", "your", "my", "its",
                 "tools", "nvidia-smi", "api", "protocol", "engine", "server", "client", "system", "software", "update"}
# Apple's conda channel publishes tensorflow-deps and its kin for osx-arm64 only (anaconda.org/apple)
_APPLE_CHANNEL_ROW = re.compile(r"^\s*`*[\w.-]+\s+\d[\w.]*\s+\S+\s+apple\s*`*\s*$")
# The defaults channel's build hash of a package with no other pins is the platform's own: 'py310hecd8cb5_0' is
# osx-64, 'py310hca03da5_0' osx-arm64 (repo.anaconda.com/pkgs/main/osx-64, .../osx-arm64)
_CONDA_HASH = re.compile(r"^\s*[\w.-]+\s+\d[\w.!+]*\s+(?:py\d{2,3})?h(ecd8cb5|ca03da5)_\d+(?:\s+\S+)?\s*$")
_X86_ONLY_ROW = re.compile(r"^\s*(?:intel-openmp|mkl|mkl-service|mkl_fft|mkl_random)\s+\d[\w.]*\s+\S+(?:\s+\S+)?\s*$"
                           r"|^\s*blas\s+\d[\w.]*\s+mkl(?:\s+\S+)?\s*$")
_LONG_ROW = re.compile(r"^\s*`*([a-z][\w.-]{24,}) (\d[\w.!+]*)\s+(pypi_0|py\w*_\d+|h[0-9a-f]{7}_\d+|\d+)\s+(\S+)\s*`*\s*$")
# Docker Desktop for Mac passes no GPU to its Linux containers (docs.docker.com/desktop/features/gpu: Windows WSL 2 only)
_DOCKER_ON_MAC = re.compile(r"\b(?:mac ?os|mac ?book\w*|mac|M[1-5])\b[\w\s]{0,12}\bdocker\b|\bdocker(?: desktop)?\s+(?:on|in|for)\s+"
                            r"(?:my\s+|an?\s+)?(?:mac ?os|mac ?book\w*|mac|M[1-5])\b", re.IGNORECASE)
_IMPORT_PADDLE = re.compile(r"^\s*(?:>>>\s*)?(?:import|from) paddle\b")
_MACHINE_CHECK = re.compile(r"\bpython\d?(?:\.\d+)?\s+-c\s+[\"'].*print\(platform\.machine\(\)\)")
_MACHINE_ANSWER = {"arm64": "darwin", "aarch64": "linux", "AMD64": "win32", "ARM64": "win32", "x86_64": None}

_chip = "Apple M{}".format


def chip_said(line: str) -> Facts:
    """'apple M1 Max chipset', 'a regular M1', 'Mac mini m2 pro': the chip, named in full ('M1 chip' alone: `answers`)."""
    text = line.replace("_", " ").replace("*", "")
    for pattern in (_CHIP_WORD, _PLAIN_WORD, _LOWER_TIER):
        found = pattern.search(text)
        if found and (pattern is not _CHIP_WORD or found.group(2)):
            tier = found.group(2) if pattern.groups > 1 and found.group(2) else ""
            brand = _chip(found.group(1)) + (f" {tier.title()}" if tier else "")
            return [("platform", "darwin"), ("cpu.brand", brand), ("cpu.hardware_arch", "arm64")]
    return []


def _plain_chip_word(line: str) -> str:
    """'M1 chip' / 'M4 Chip' with no tier, or a line of only the macOS and 'M1': the generation ('1'), else ''."""
    found = _CHIP_WORD.search(line.replace("_", " ").replace("*", ""))
    spec = _SPEC_LINE_CHIP.match(line)
    leading = _LEADING_SPEC.match(line)
    return (found.group(1) if found and not found.group(2) else (spec.group(1) or spec.group(2)) if spec
            else leading.group(1) if leading else "")


def family_chip(line: str) -> Facts:
    """'iMac 24 with M1', 'm2 macbook air', 'MacBook Air (M2)': a Mac sold only with the plain chip names it; 'M3
    Studio', a Mac Studio, whose only M3 is the Ultra."""
    found = _FAMILY_CHIP.search(line)
    family, generation = (found.group(1), found.group(2)) if found else (None, None)
    if not found:
        other = _CHIP_FAMILY.search(line)
        if other and not re.match(r"\s+(?:Pro|Max|Ultra)\b", line[other.start() + 2:], re.IGNORECASE):
            family, generation = other.group(2), other.group(1)
    studio = _CHIP_STUDIO.search(line) if not family else None
    if studio:  # a Mac Studio sold in one tier of that generation: 'M3 Studio' is the M3 Ultra
        family, generation = "Mac Studio", studio.group(1)
    tier = only_tier(family, int(generation)) if family else None
    if tier is None:
        return []
    return [("platform", "darwin"), ("cpu.brand", _chip(generation) + (f" {tier}" if tier else "")), ("cpu.hardware_arch", "arm64")]


_MY_PLAIN_CHIP = re.compile(r"\bmy\s+(?:Apple\s+)?M([1-5])\b(?![\w-]|\s*(?:Pro|Max|Ultra)\b)", re.IGNORECASE)


def bare_chip_beside_mac(line: str) -> Facts:
    """'# MacOS14.2 M1 can't install', 'Trying to get Metal working M1': an 'M1' on a line about a Mac is its Apple
    chip (the tier stays unnamed); a line that also names Intel is left alone."""
    if not _BARE_CHIP.search(line) or not _MAC_WORD.search(line) or _INTEL_WORD.search(line):
        return []
    mine = _MY_PLAIN_CHIP.search(line)  # 'issues on my M2 (macOS 13.2.1)': the writer names their chip, with no tier
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")] + ([("cpu.brand", f"Apple M{mine.group(1)}")] if mine else [])


def on_apple_silicon(line: str) -> Facts:
    """'OpenWebUI does not use the MPS/GPU on Apple Silicon': the writer's Mac (not a question about one)."""
    if not _ON_APPLE_SILICON.search(line) or "?" in line or _INTEL_WORD.search(line):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]


def macos_written(line: str) -> Facts:
    """'MacOS14.2' (no space), 'macOS Monterey, version 12.2': a macOS version (its name must match the number)."""
    glued = _GLUED_MACOS.search(line)
    if glued:
        return [("platform", "darwin"), ("os.version", f"{glued.group(1)}.{glued.group(2)}")]
    named = _NAMED_VERSION.search(line)
    if named and named.group(2).startswith(MACOS_RELEASE_NAMES[named.group(1).lower()] + "."):
        return [("platform", "darwin"), ("os.version", named.group(2))]
    return []


def my_python(line: str) -> Facts:
    """'My Python is 3.10.2': the writer's Python."""
    found = _MY_PYTHON.search(line)
    if not found:
        return []
    version = found.group(1)
    return [("python.version", version)] if version.count(".") == 2 else [("python.minor", version)]


def ram_said(line: str) -> Facts:
    """'my device has 16gb ram', '32 GB of memory': the machine's memory (not a GPU's, which its line names: 'TITAN Xp,
    12 GB RAM' is its VRAM; but an Apple chip's GPU shares the RAM: 'an M4 Pro 20C GPU with 48GB of RAM')."""
    found = _RAM.search(line)
    said_of_a_mac = bool(found and re.search(r"\bRAM\b", found.group(0), re.IGNORECASE) and _APPLE_CHIP_WORD.search(line))
    beside_gpu = (_GPU_WORDS.search(line) or gpu_names(line)) and not said_of_a_mac
    if not found or beside_gpu or int(found.group(1)) not in MAC_MEMORY_GB | {4, 6}:  # a GPU's line: its VRAM, unless 'RAM'
        return []
    if hypothetical(line) or someone_elses(line):  # 'You need at least 96 GB of memory'
        return []
    return [("cpu.memory_bytes", int(found.group(1)) * 1024**3)]


# '16GB/ 64 GB DDR4': a size of plain DDR memory from 8 GB up is the machine's RAM (a GPU's is GDDR or HBM; the few
# cards with plain DDR, such as the GT 1030 DDR4, carry 2-4 GB)
_DDR_RAM = re.compile(r"(?<![\d.x×])(\d{1,3})\s?GB\s+(?:LP)?DDR[2-5]\w*\b", re.IGNORECASE)


def ddr_ram(line: str) -> Facts:
    found = _DDR_RAM.search(line)
    if not found or int(found.group(1)) < 8 or hypothetical(line) or someone_elses(line):
        return []
    return [("cpu.memory_bytes", int(found.group(1)) * 1024**3)]


def intel_glued_vram(line: str) -> Facts:
    """System Information's 'Intel HD Graphics 4000' and '1536 MB' copied as one word 'Intel HD Graphics 40001536MB'."""
    found = _INTEL_GLUED_VRAM.search(line)
    if not found:
        return []
    return [("gpu", {"name": found.group(1), "vendor": "Intel", "memory_mib": int(found.group(2)), "index": None})]


def radeon_by_number(line: str) -> Facts:
    """'Intel Mac (i9 - 5500M)': on an Intel MacBook Pro or iMac, '5500M' / '560X' is its AMD Radeon Pro GPU."""
    found = _RADEON_NUMBER.search(line)
    if not found or not _INTEL_MAC.search(line) or re.search(r"\bRadeon\b", line, re.IGNORECASE):
        return []
    name = f"AMD Radeon Pro {found.group(1)}"
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64"),
            ("gpu", {"name": name, "vendor": "AMD", "memory_mib": None, "index": None})]


def packages_said(line: str) -> Facts:
    """pip's 'Successfully installed spacy-3.1.3' quoted in a sentence, 'pip 21.3.1 from ... (python 3.9)',
    'pipx installed open-webui 0.5.3', '**MediaPipe version 0.10.20**'."""
    facts: Facts = []
    text = line.replace("*", "").replace("`", "")
    installed = _SUCCESSFULLY.search(text)
    if installed and not re.match(r"^\s*Successfully installed", text):
        for item in installed.group(1).split():
            name, _, version = item.rpartition("-")
            facts += package_facts(name, version)
    pip = _PIP_VERSION.match(text)
    if pip:
        facts += [("package", {"name": "pip", "version": pip.group(1)}), ("python.minor", pip.group(2))]
    for found in (_INSTALLED_WITH.search(text), _NAME_VERSION.search(text)):
        if found and found.group(1).lower() not in _NOT_PACKAGES:
            facts += package_facts(found.group(1).lower(), found.group(2))
    return facts


def conda_rows(line: str) -> Facts:
    """conda list rows: Apple's channel ('tensorflow-deps 2.10.0 0 apple') is osx-arm64 only; the defaults channel's
    'py310hecd8cb5_0' builds are osx-64 and 'hca03da5' osx-arm64; intel-openmp, mkl and 'blas 1.0 mkl' exist only
    for x86_64; a name of 25+ letters leaves one space before its version."""
    facts: Facts = []
    if _APPLE_CHANNEL_ROW.match(line):
        facts += [("platform", "darwin"), ("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")]
    hashed = _CONDA_HASH.match(line)
    if hashed:
        facts += [("platform", "darwin"), ("python.machine", "x86_64" if hashed.group(1) == "ecd8cb5" else "arm64")]
        if hashed.group(1) == "ca03da5":
            facts.append(("cpu.hardware_arch", "arm64"))
    if _X86_ONLY_ROW.match(line):
        facts.append(("python.machine", "x86_64"))
    long_row = _LONG_ROW.match(line)
    if long_row:
        facts += package_facts(long_row.group(1), long_row.group(2))
    return facts


def paddle_imported(line: str) -> Facts:
    """'import paddle', '>>> import paddle': the user works with PaddlePaddle (its distribution is paddlepaddle)."""
    return [("framework.used", "paddlepaddle")] if _IMPORT_PADDLE.match(line) else []


def docker_on_mac(line: str) -> Facts:
    """'macos m2  docker', 'Docker Desktop on my Mac': a Linux container on a Mac, which Docker Desktop gives no
    NVIDIA or AMD GPU."""
    return [("gpu.absent", "NVIDIA"), ("gpu.absent", "AMD")] if _DOCKER_ON_MAC.search(line) else []


LINE_RULES = (chip_said, family_chip, bare_chip_beside_mac, on_apple_silicon, macos_written, my_python, ram_said, ddr_ram,
              intel_glued_vram, radeon_by_number, packages_said, conda_rows, docker_on_mac,
              paddle_imported)


def line_facts(line: str) -> Facts:
    return [fact for rule in LINE_RULES for fact in rule(line)]


_HYPHEN_KEYS = {"python-version": "python version", "pytorch-version": "pytorch version"}


def keyed_facts(key: str, value: str) -> Facts:
    """`accelerate env` of 2022: 'accelerate-version: 0.15.0', 'python-version: py3.10.8', 'pytorch-version: 1.13.1'."""
    if not key.endswith("-version"):
        return []
    value = re.sub(r"^py(?=3\.\d)", "", value.strip())
    if key in _HYPHEN_KEYS:
        return by_key(_HYPHEN_KEYS[key], value)
    return package_facts(key[: -len("-version")], value)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts: 'M1 chip' names the plain M1 unless the text names an M1 Pro, Max or Ultra; Paddle's `python -c "import platform;print(platform.architecture()[0]);print(
    platform.machine())"` then its answers '64bit' and 'arm64': the last answer is the interpreter's arch, and
    its spelling names the OS (macOS says arm64, Linux aarch64, Windows AMD64/ARM64)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        generation = _plain_chip_word(line)
        if generation:  # 'a newer mac with M3 chip' then 'Chip: Apple M3 Max': the chip is not the plain M3
            tiered = any(re.search(rf"(?<![\w.-])M{generation}\s+(?:Pro|Max|Ultra)\b", other, re.IGNORECASE) for other in lines)
            found[index] = [("platform", "darwin"), ("cpu.hardware_arch", "arm64")] + ([] if tiered else [("cpu.brand", _chip(generation))])
        if not _MACHINE_CHECK.search(line):
            continue
        following = [i for i in range(index + 1, min(len(lines), index + 4)) if lines[i].strip()][:2]
        for answer in following:
            word = lines[answer].strip()
            if word in _MACHINE_ANSWER:
                machine = {"AMD64": "x86_64", "ARM64": "arm64"}.get(word, word)
                facts: Facts = [("python.machine", machine)]
                if _MACHINE_ANSWER[word]:
                    facts.insert(0, ("platform", _MACHINE_ANSWER[word]))
                found[answer] = facts
                break
            if word not in ("64bit", "32bit"):
                break
    return found
