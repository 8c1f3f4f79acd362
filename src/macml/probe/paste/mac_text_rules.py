"""More of what Mac users paste and write about their machines: About This Mac copied as 'Memory - 32 GB
2400 MHz DDR4', screenfetch/neofetch's 'RAM: 1610MiB / 524288MiB', an Apple chip's GPU core count
('M1 Ultra Mac Studio (64 core 128Gb)', Apple's '32/80/32' core triple), brew config's Intel 'CPU: quad-core
64-bit kabylake', the x86_64-only jaxlib AVX guard, uv's 'cpython-3.12.9-macos-x86_64-none', conda builds
for osx-arm64, 'conda create ... python=3.10', MLX's '[METAL]' errors and CLI, Apple's own Python framework
paths, llama.cpp's 'built with ... for arm64-apple-darwin23.5.0', NumPy 2's ABI warning, an iMac Pro or a
'Vega 64X video card', a macOS named by its release name, 'OS: Mac 10.14.6', 'OS: 14.0 Beta 3', the
Ultralytics banner's torch, and the A-series chip of a MacBook ('MacBook Neo Chip (A18 Pro)').

Line rules are pure functions of one line; `keyed_facts` reads a `key: value` pair; `answers` reads facts
that need the whole text (a chip named elsewhere, brew config's missing Rosetta line).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.knowledge.hardware import apple_core_options
from macml.knowledge.macos import APPLE_SILICON_MEMORY_GB, FINAL_RELEASES, sole_release
from macml.probe.paste.form_answer_rules import states_x86_architecture
from macml.probe.paste.own_release import UPGRADED_TO, keyed_release, release_of_this_mac
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

_CHIP = re.compile(r"(?<![\w-])(?:Apple\s+)?M([1-9])(?:\s+(Pro|Max|Ultra))?(?![\w.])")
_LOWER_TIERED_CHIP = re.compile(r"(?<![\w-])m([1-9])\s+(pro|max|ultra)(?![\w.])")  # '12 core m2 max , 30gpu cores'
_CORES = re.compile(r"(?<![\d.])(\d{1,2})[- ]?cores?\b(?!\s*(?:CPU|Neural|NE\b|processor|Intel|Xeon))", re.IGNORECASE)
_GPU_CORES = re.compile(r"(?<![\d.])(\d{1,2})[- ]?(?:core\s+GPU\b|c\s+GPU\b|GPU(?:[- ]cores?\b|(?=\s*\+)))", re.IGNORECASE)
_CORE_TRIPLE = re.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})/(16|32)(?![\d/])")
_SPEC_WORDS = re.compile(r"\b(?:specs?|cores?|config\w*|CPU|GPU)\b", re.IGNORECASE)
_PAREN_MEMORY = re.compile(r"\(([^()]*?)(?<![\d.])(\d{1,3})\s?(?:GB|Gb|gb|G)\b"
                           r"(?!\s*(?:SSD|storage|disk|drive|of (?:V?RAM|video)|VRAM))[^()]*\)")
_ABOUT_DASH = re.compile(r"^\s*[-*]?\s*(Processor|Memory|Graphics|Chip|macOS|Startup Disk)\s+[-–—]\s+(\S.*?)\s*$")
_USED_TOTAL = re.compile(r"(?:^|\s)(?:RAM|Memory):\s*\d+(?:\.\d+)?\s*[MG]iB\s*/\s*(\d+(?:\.\d+)?)\s*([MG])iB\s*$")
# Homebrew's Intel CPU families; not 'westmere', which is also what a Homebrew under Rosetta 2 reports
_BREW_CPU = re.compile(r"^\s*CPU:\s*(?:single|dual|quad|hexa|octa|deca|dodeca|\d+)-core 64-bit (penryn|nehalem|"
                       r"sandybridge|ivybridge|haswell|broadwell|skylake|kabylake|coffeelake|cometlake|cannonlake|icelake)\s*$")
_JAXLIB_AVX = re.compile(r"\bThis version of jaxlib was built using AVX instructions")
_UV_PYTHON = re.compile(r"/cpython-(\d+\.\d+\.\d+)-macos-(x86_64|aarch64)-none/")
_CONDA_ROW = re.compile(r"^\s*[\w.-]+\s+\d[\w.!+-]*\s+\S*(osxarm64|osx64)\S*(?:\s+[\w.-]+)?\s*$")
_CONDA_CREATE = re.compile(r"\b(?:conda|mamba|micromamba)\s+create\b.*?\spython=(3\.\d{1,2})(\.\d{1,2})?(?![\d.])")
_MLX_METAL = re.compile(r"\[METAL\] (?:Command buffer execution failed|Unable to|Failed to)")
_MLX_CLI = re.compile(r"(?:^|[\s`])(?:python3? -m )?mlx_lm[._](?:lora|generate|convert|fuse|server|chat)\b")
_FRAMEWORK_PATH = re.compile(r"/Python3?\.framework/Versions/(3\.\d{1,2})/")
_LLAMA_BUILT = re.compile(r"\b(?:built with|build: \d+ \(\w+\) with)\s.+?\bfor (x86_64|arm64)-apple-darwin(\d{2}\.\d+\.\d+)\b")
_OLD_LIBSYSTEM = re.compile(r"Symbol not found: _+darwin_check_fd_set_overflow\b")
_ARM64_FILE_X86_PROCESS = re.compile(r"incompatible architecture \(have [('](?:arm64e?)[)'], need [('](?:x86_64)[)']\)")
_NUMPY_ABI = re.compile(r"(?:^|cannot be run in\s+)NumPy (\d+\.\d+\.\d+) as it may crash")
# 'my iMac Pro', 'an iMac Pro', 'the 2017 iMac Pro' (the writer's; a host name 'iMacPro-Denis' is not)
_IMAC_PRO = re.compile(r"\b(?:my|an?|the|our)\s+(?:(?:20\d\d|27[\"”]|27-inch)\s+)?iMac Pro\b(?![\w-])", re.IGNORECASE)
_VEGA_CARD = re.compile(r"\b((?:AMD\s+)?(?:Radeon\s+)?(?:Pro\s+)?Vega\s+(?:II|\d{2}X?))\s+(?:video card|graphics(?: card)?|GPU)"
                        r"(?:\s+with\s+(\d{1,2})\s?GB)?", re.IGNORECASE)
_RELEASE_NAME = re.compile(r"\b(?:on|with|running|upgraded to|updated to|(?<=I )installed|(?<=and )installed|macOS|OS X)\s+(?:macOS\s+)?(Big Sur|Monterey|Ventura|Sonoma|"
                           r"Sequoia|Tahoe|Catalina|Mojave|High Sierra|El Capitan)\b"
                           r"|\b(?i:mac ?os ?x?|os ?x)(?:\s+|-)(?i:(big ?sur|monterey|ventura|sonoma|sequoia|tahoe|catalina|mojave|high sierra|el capitan))\b")
_INTEL_MACS = re.compile(r"\b(?:running|runs|run|working|works)\s+on\s+(?:an?\s+)?Intel[- ]Macs?\b(?:\s+with\s+(?:an?\s+)?"
                         r"(AMD)\s+(?:Radeon\s+)?GPUs?\b)?", re.IGNORECASE)
_MACOS_NUMBER = re.compile(r"\bmac ?OS(?: X)?\s+(?:1[0-5]|2[6-9])\.\d", re.IGNORECASE)
_ULTRALYTICS_TORCH = re.compile(r"\bUltralytics\s+(?:YOLOv)?\d+\.\d+\.\d+\b.*?"
                                r"\btorch-(\d+\.\d+\.\d+(?:\.dev\d+|a0\+\w+)?(?:\+\w+)?)(?:\s+(MPS|CPU)\b|\s*$)")  # a cut banner too
_MAC_A_CHIP = re.compile(r"\b(?:Mac ?Book(?: ?Pro| ?Air| ?Neo)?|Mac ?mini|iMac)\b(?:(?!iPhone|iPad)[^.]){0,24}?\b(?:Chip\s*)?\(?"
                         r"(?:Apple\s+)?(A1[2-9]Z?|A[2-9]\d)(?:\s+(Pro|Bionic))?\)?(?![\w])")


def about_mac_dash(line: str) -> Facts:
    """About This Mac copied as 'Memory - 32 GB 2400 MHz DDR4', 'Processor - 3.9 GHz 6-Core Intel Core i9'."""
    found = _ABOUT_DASH.match(line)
    return by_key(found.group(1).lower(), found.group(2)) if found else []


def used_over_total(line: str) -> Facts:
    """screenfetch's 'RAM: 1610MiB / 524288MiB', neofetch's 'Memory: 8187MiB / 16384MiB' (newer: '3.20GiB / 16GiB'):
    the second is the total."""
    found = _USED_TOTAL.search(line)
    return [("cpu.memory_bytes", int(float(found.group(1)) * 1024**(2 if found.group(2) == "M" else 3)))] if found else []


def chip_gpu_cores(line: str) -> Facts:
    """'M1 Ultra Mac Studio (64 core 128Gb)', 'M1 Max with 32 cores', '30-core (M3 Max)': a core count beside an
    Apple chip that only its GPU comes with (an M1 Ultra has 20 CPU cores and 48 or 64 GPU cores)."""
    chip = _CHIP.search(line) or _LOWER_TIERED_CHIP.search(line)
    if not chip:
        return []
    options = apple_core_options(f"M{chip.group(1)} {(chip.group(2) or '').title()}".strip())
    explicit = _GPU_CORES.search(line)
    if explicit:
        return [("gpu.cores", int(explicit.group(1)))]
    if options is None:
        return []
    cpu, gpu = options
    counts = [int(n) for n in _CORES.findall(line[chip.start():]) or _CORES.findall(line[max(0, chip.start() - 12):chip.start()])]
    return [("gpu.cores", n) for n in counts[:1] if n in gpu and n not in cpu]


def memory_in_chip_parentheses(line: str) -> Facts:
    """'M1 Ultra Mac Studio (64 core 128Gb)', 'M2 Max (32GB, 1TB SSD)': a memory size Apple sells, in parentheses after
    an Apple chip's name."""
    chip = _CHIP.search(line)
    found = _PAREN_MEMORY.search(line, chip.end()) if chip else None
    if not found or int(found.group(2)) not in APPLE_SILICON_MEMORY_GB:
        return []
    if re.search(r"\b(?:model|weights|\d+(?:\.\d+)?B)\b", found.group(1)):  # '(the 70B model takes 48 GB)'
        return []
    return [("cpu.memory_bytes", int(found.group(2)) * 1024**3)]


def jaxlib_avx(line: str) -> Facts:
    """'This version of jaxlib was built using AVX instructions, which your CPU ... do not support': only an
    x86_64 jaxlib has that guard, and only an x86_64 Python loads it."""
    return [("python.machine", "x86_64")] if _JAXLIB_AVX.search(line) else []


def uv_python(line: str) -> Facts:
    """'.../uv/python/cpython-3.12.9-macos-x86_64-none/bin/python3.12': the arch of a uv-managed Python on macOS."""
    found = _UV_PYTHON.search(line)
    if not found:
        return []
    return [("platform", "darwin"), ("python.machine", "arm64" if found.group(2) == "aarch64" else "x86_64")]


def conda_build_row(line: str) -> Facts:
    """A `conda list` row whose build names its subdir ('libblas 3.9.0 22_osxarm64_openblas conda-forge'): the
    environment is osx-arm64 (a native arm64 Python, only on Apple silicon) or osx-64."""
    found = _CONDA_ROW.match(line)
    if not found:
        return []
    if found.group(1) == "osxarm64":
        return [("platform", "darwin"), ("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")]
    return [("platform", "darwin"), ("python.machine", "x86_64")]


def conda_create_python(line: str) -> Facts:
    """'mamba create --name pytorch python=3.10 pytorch numpy': the environment's Python (a minor, or a full version)."""
    found = _CONDA_CREATE.search(line)
    if not found:
        return []
    return [("python.version", found.group(1) + found.group(2))] if found.group(2) else [("python.minor", found.group(1))]


def mlx_metal(line: str) -> Facts:
    """MLX's '[METAL] Command buffer execution failed' ran Metal work, which MLX does only in a native arm64 Python;
    'mlx_lm.lora --model ...' runs MLX."""
    facts: Facts = []
    if _MLX_METAL.search(line):
        facts += [("platform", "darwin"), ("python.machine", "arm64"), ("process.arch", "arm64"), ("framework.used", "mlx")]
    if _MLX_CLI.search(line):
        facts.append(("framework.used", "mlx"))
    return facts


def framework_python_path(line: str) -> Facts:
    """'/Library/Developer/CommandLineTools/Library/Frameworks/Python3.framework/Versions/3.9/lib/...': Apple's or
    python.org's framework Python, and its minor version."""
    found = _FRAMEWORK_PATH.search(line)
    return [("platform", "darwin"), ("python.minor", found.group(1))] if found else []


def llama_build_target(line: str) -> Facts:
    """llama.cpp's 'main: built with Apple clang ... for x86_64-apple-darwin23.5.0' (newer: 'build: 3051 (5921b8f0)
    with ... for arm64-apple-darwin23.5.0'): the Mac it was built on, which is the Mac running a local build; and the
    arch of the binary that printed it (an x86_64 one on Apple silicon runs under Rosetta 2)."""
    found = _LLAMA_BUILT.search(line)
    if not found:
        return []
    facts: Facts = [("platform", "darwin"), ("os.darwin", found.group(2)), ("process.arch", found.group(1))]
    return facts + ([("cpu.hardware_arch", "arm64")] if found.group(1) == "arm64" else [])


def numpy_abi_warning(line: str) -> Facts:
    """NumPy 2's 'A module that was compiled using NumPy 1.x cannot be run in / NumPy 2.3.1 as it may crash': the
    installed NumPy."""
    found = _NUMPY_ABI.search(line)
    return [("package", {"name": "numpy", "version": found.group(1)})] if found else []


def pre_big_sur_libsystem(line: str) -> Facts:
    """dyld's 'Symbol not found: ___darwin_check_fd_set_overflow' (Expected in: /usr/lib/libSystem.B.dylib): a library
    built for macOS 11+ on an older macOS, whose libSystem lacks it; macOS 10.x never ran on Apple silicon."""
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")] if _OLD_LIBSYSTEM.search(line) else []


def imac_pro(line: str) -> Facts:
    """'my iMac Pro (3GHz Xeon 10 core, ...)': the iMac Pro (2017) was only ever made with Intel Xeon CPUs."""
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")] if _IMAC_PRO.search(line) else []


def vega_card(line: str) -> Facts:
    """'Vega 64X video card with 16 GB of RAM': an AMD Vega GPU as the writer names it, with its memory."""
    found = _VEGA_CARD.search(line)
    if not found:
        return []
    memory = int(found.group(2)) * 1024 if found.group(2) else None
    return [("gpu", {"name": found.group(1), "vendor": "AMD", "memory_mib": memory, "index": None})]


def release_name(line: str) -> Facts:
    """'an iMac 27\" with Big Sur', 'upgraded to Sonoma': macOS named by its release name (and the version it stands
    for, where the line states it of this Mac)."""
    upgraded = UPGRADED_TO.search(line)
    if upgraded and not re.search(r"\b(?:if|when|whether|should|would|can|could)\b", line[:upgraded.start()], re.IGNORECASE):
        final = FINAL_RELEASES.get(" ".join(upgraded.group(1).lower().split())) if re.search(
            r"\b(?:latest|last|newest)\s+(?:version|release)\s+of\b", upgraded.group(0), re.IGNORECASE) else None
        return [("platform", "darwin"), ("os.release", sole_release(upgraded.group(1)))] + ([("os.version", final)] if final else [])
    said = release_of_this_mac(line)
    if not (_RELEASE_NAME.search(line) or keyed_release(line) or (said and re.search(r"\b(?:i?Mac|MacBook)", line))):
        return []
    release = sole_release(line) if said else None
    return [("platform", "darwin")] + ([("os.release", release)] if release else [])


def intel_macs(line: str) -> Facts:
    """'doesn't work on macOS 15.5 running on Intel Macs with AMD GPUs': the writer's macOS version beside 'running on
    Intel Macs' describes their own Intel Mac (and its AMD GPU, model unnamed)."""
    found = _INTEL_MACS.search(line)
    if not found or not _MACOS_NUMBER.search(line):
        return []
    facts: Facts = [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    if found.group(1):
        facts.append(("gpu", {"name": "AMD GPU (model not in the text)", "vendor": "AMD", "memory_mib": None, "index": None}))
    return facts


def ultralytics_torch(line: str) -> Facts:
    """Ultralytics' banner 'Ultralytics YOLOv8.0.128 🚀 Python-3.11.4 torch-2.1.0.dev20230705 MPS': torch's version;
    a torch on MPS is a macOS build, which has no CUDA."""
    found = _ULTRALYTICS_TORCH.search(line)
    if not found:
        return []
    facts: Facts = [("package", {"name": "torch", "version": found.group(1)}), ("torch.version", found.group(1))]
    if found.group(2) == "MPS":
        facts += [("platform", "darwin"), ("torch.cuda_available", False)]
    elif found.group(1).endswith("+cpu"):  # a CPU-only build has no CUDA to make available
        facts.append(("torch.cuda_available", False))
    return facts


def mac_a_chip(line: str) -> Facts:
    """'MacBook Neo Chip (A18 Pro)', the Developer Transition Kit's 'Mac mini (A12Z)': a Mac built on an A-series chip
    is Apple silicon (an iPhone's chip named without a Mac is not read)."""
    found = _MAC_A_CHIP.search(line)
    if not found:
        return []
    brand = f"Apple {found.group(1)}" + (f" {found.group(2)}" if found.group(2) == "Pro" else "")
    return [("platform", "darwin"), ("cpu.brand", brand), ("cpu.hardware_arch", "arm64")]


# Run before the shared vocabulary: screenfetch's 'RAM: used / total' would read as its first number there
EARLY_RULES = (used_over_total, about_mac_dash)
LINE_RULES = (chip_gpu_cores, memory_in_chip_parentheses, jaxlib_avx, uv_python, conda_build_row, conda_create_python,
              mlx_metal, framework_python_path, llama_build_target, numpy_abi_warning, pre_big_sur_libsystem, imac_pro,
              vega_card, release_name, intel_macs, ultralytics_torch, mac_a_chip)


def early_line_facts(line: str) -> Facts:
    return [fact for rule in EARLY_RULES for fact in rule(line)]


def line_facts(line: str) -> Facts:
    return [fact for rule in LINE_RULES for fact in rule(line)]


_MAC_OS_KEYS = ("mac os", "macos", "mac os x", "os x", "macos version", "mac os version", "os version")
_BARE_MACOS = re.compile(r"^(?:Mac\s+|OS\s+(?=2[6-9]\.))?((?:1[0-5]|2[6-9])\.\d{1,2}(?:\.\d{1,2})?)(?:\s*\(\w+\))?$")
_MAC_VALUE = re.compile(r"^Mac\s+((?:10|1[1-5]|2[6-9])\.\d{1,2}(?:\.\d{1,2})?)\b")
_BETA = re.compile(r"^((?:1[1-5])\.\d{1,2}(?:\.\d{1,2})?)\s+(?:Developer\s+)?Beta(?:\s+\d+)?$", re.IGNORECASE)


def keyed_facts(key: str, value: str) -> Facts:
    """'Mac OS: 15.3', 'OS: Mac 10.14.6', 'OS: 14.0 Beta 3' (Apple's beta numbering), '### Python Version' / '3.10'."""
    value = value.strip()
    if key in ("python version", "python") and re.fullmatch(r"3\.\d{1,2}", value):
        return [("python.minor", value)]
    if key in ("os", "operating system", "platform", "system"):
        found = _MAC_VALUE.match(value) or _BETA.match(value)
        return [("platform", "darwin"), ("os.version", found.group(1))] if found else []
    found = _BARE_MACOS.match(value) if key in _MAC_OS_KEYS else None
    return [("platform", "darwin"), ("os.version", found.group(1))] if found else []


def _one_chip(lines: Sequence[str]) -> Optional[str]:
    named = {f"M{m.group(1)} {m.group(2) or ''}".strip() for line in lines for m in _CHIP.finditer(line)
             if re.search(r"\bApple\s+M\d|\bM\d(?:\s+(?:Pro|Max|Ultra))?\s+(?:Mac|chip)", line)}
    return named.pop() if len(named) == 1 else None


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts that need the whole text: Apple's 'CPU/GPU/Neural Engine' core triple ('Board specs:
    32/80/32') for the one chip the text names; brew config's Intel CPU family where no 'Rosetta 2:' line says
    it runs on Apple silicon; dyld's '(have 'arm64', need 'x86_64')' beside site-packages: pip installs only
    wheels for its own arch, so an arm64-only extension there came from an arm64 pip, on Apple silicon."""
    found: Dict[int, Facts] = {}
    chip = _one_chip(lines)
    options = apple_core_options(chip) if chip else None
    rosetta_line = any(re.match(r"^\s*Rosetta 2:\s*true\b", line) for line in lines)
    # not where the text answers 'Architecture: X64': a wheel can carry another arch's binary (onnxruntime 1.14.0)
    site_packages = any("/site-packages/" in line for line in lines) and not states_x86_architecture(lines)
    for index, line in enumerate(lines):
        triple = _CORE_TRIPLE.search(line) if options and _SPEC_WORDS.search(line) else None
        if triple and int(triple.group(1)) in options[0] and int(triple.group(2)) in options[1]:
            found.setdefault(index, []).append(("gpu.cores", int(triple.group(2))))
        if _BREW_CPU.match(line) and not rosetta_line:
            found.setdefault(index, []).append(("cpu.hardware_arch", "x86_64"))
        if site_packages and _ARM64_FILE_X86_PROCESS.search(line):
            found.setdefault(index, []).append(("cpu.hardware_arch", "arm64"))
    return found
