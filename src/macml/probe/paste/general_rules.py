"""Facts that turn up in any kind of paste, whatever tool printed them: x86 flag lists in more layouts
(/proc/cpuinfo's 'flags : ...' with any spacing, lshw's 'capabilities:', a lone lscpu 'Flags:' line),
environment variables set anywhere ('export CUDA_VISIBLE_DEVICES=6,7', '**NCCL_P2P_DISABLE=1** ./run',
'CUDA_VISIBLE_DEVICES: 0'), a CPU or GPUs named in a sentence ('dual X5690', 'I have two GPUs: A6000 and
GT1030'), Windows' systeminfo, a build's target triple, NCCL's log, jetson_release, ZLUDA's device name.

`find_flag_lines(lines)` is a paste finder (it returns Parts with CPU flags); `line_facts(line)` reads one
line, as the other rule modules do. Two facts are new here: 'env' ({name, value}; stated.py fills
MachineFacts.env with the first value of each) and 'gpu.owned' (a bare NVIDIA model the writer owns; used,
like a mention, only where no line lists GPUs, and only where no mention names the same model whole).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.base import Part
from macml.probe.paste.gpu_names import gpu_record
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

# --- x86 flag lists ------------------------------------------------------------------------------------

_FLAG_LINE = re.compile(r"^\s*(flags|Flags|capabilities)\s*:\s*(\S.*?)\s*$")


def flag_words(value: str) -> List[str]:
    """An x86 feature list ('fpu vme de pse ... sse4_2 avx', or py-cpuinfo's comma-separated one) -> its
    words; [] for anything else (lspci's 'Flags: bus master, fast devsel', a NIC's lshw capabilities)."""
    words = [w.lower() for w in re.split(r"[,\s]+", value) if w]
    return sorted(set(words)) if len(words) >= 5 and {"fpu", "sse2"} & set(words) else []


def find_flag_lines(lines: Sequence[str]) -> List[Part]:
    """A CPU flag list on a line of its own: /proc/cpuinfo's 'flags : fpu vme ...' (tabs or spaces before
    the colon), lshw's '       capabilities: lm fpu ... sse4_2', a grep'd lscpu 'Flags: fpu ...'.
    cpuinfo, lshw and lscpu are Linux's; py-cpuinfo's comma-separated list runs anywhere."""
    parts: List[Part] = []
    for index, line in enumerate(lines):
        found = _FLAG_LINE.match(line)
        words = flag_words(found.group(2)) if found else []
        if words:
            platform = None if "," in found.group(2) else "linux"
            parts.append(Part("cpu_flags", index + 1, index + 1, platform=platform, cpu_flags=words))
    return parts


# --- environment variables -----------------------------------------------------------------------------

# The variables the live probe records (probe/collect.py RELEVANT_ENV) and every NCCL_* one.
_ENV_NAMES = (r"CUDA_VISIBLE_DEVICES|HIP_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|HSA_OVERRIDE_GFX_VERSION|NCCL_[A-Z0-9_]+"
              r"|PYTORCH_ENABLE_MPS_FALLBACK|PYTORCH_MPS_(?:HIGH|LOW)_WATERMARK_RATIO|PLAIDML_[A-Z_]+|KERAS_BACKEND")
_VALUE = r"""(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'`;)*\]]+))"""
# 'export X=1', 'X=1 cmd', 'set X=1', '$env:X="1"', '-e X=1', 'X: 1' / 'X = 1' (an env dump), os.environ['X'] = '1'
_ENV_ASSIGNED = re.compile(rf"(?<![\w$.-])(?:\$env:)?({_ENV_NAMES})(?:\s*=(?!=)\s*|:\s+|\s+=\s+){_VALUE}")
_ENV_PYTHON = re.compile(rf"""\bos\.environ\[\s*["']({_ENV_NAMES})["']\s*\]\s*=(?!=)\s*{_VALUE}""")
_NOT_A_VALUE = re.compile(r"^(?:not|unset|none|null|n/a|\(?unset\)?|<.*|\$.*|\.\.\.|x|y)$", re.IGNORECASE)


def env_assignments(line: str) -> Facts:
    """'export CUDA_VISIBLE_DEVICES=6,7' -> ('env', {'name': 'CUDA_VISIBLE_DEVICES', 'value': '6,7'})."""
    facts: Facts = []
    for found in list(_ENV_PYTHON.finditer(line)) + list(_ENV_ASSIGNED.finditer(line)):
        name, value = found.group(1), next((g for g in found.groups()[1:] if g is not None), "")
        value = value.rstrip(",.") if found.group(4) else value  # 'X=0, then ...': the sentence's comma
        if not _NOT_A_VALUE.match(value) and ("env", {"name": name, "value": value}) not in facts \
                and all(name != f[1]["name"] for f in facts):
            facts.append(("env", {"name": name, "value": value}))
    if _ROCR_EXPORT.search(line) and facts:
        facts.append(("platform", "linux"))
    return facts


# ROCr, the runtime that reads these, runs on Linux only (Windows' HIP runs on PAL), and `export` is a POSIX shell's
_ROCR_EXPORT = re.compile(r"(?<![\w$.-])export\s+(?:HSA_OVERRIDE_GFX_VERSION|ROCR_VISIBLE_DEVICES)=")


# --- a CPU named in words ------------------------------------------------------------------------------

_FORMAL_BRAND = re.compile(r"\(R\)|\(TM\)|\(tm\)")  # a brand string as the CPU reports it: the other rules read it
_XEON_WORDS = re.compile(r"\b(?:(?:Intel\s+)?Xeon\s+|(?:dual|twin|two|2\s?x)\s+(?:Intel\s+)?(?:Xeon\s+)?)"
                         r"([EXWL]\d{4}|E[357]-\d{4}[A-Z]?(?:\s?v\d)?)\b", re.IGNORECASE)
_INTEL_WORDS = re.compile(r"\b(?:Intel\s+)?(Core\s?2\s?(?:Duo|Quad|Extreme)|Celeron|Pentium(?: Gold| Silver)?|Atom)\s+"
                          r"([A-Za-z]{0,2}\d{3,4}[A-Za-z]{0,2})\b")  # 'Celeron n4000' as typed
_AMD_WORDS = re.compile(r"\b(?:(?i:AMD)\s+)?((?i:Phenom(?: II)?(?: X\d)?|Athlon(?: II| 64)(?: X\d)?)|FX)[\s-](\d{3,4}[A-Za-z]?)\b")


def cpu_in_words(line: str) -> Facts:
    """A CPU model named in a sentence ('On my Mac Pro (5,1, dual X5690)', 'a Celeron J3455 box', 'my old
    Phenom II X4 965'): the brand, for the CPU-model table (knowledge/cpu_models.py)."""
    if _FORMAL_BRAND.search(line):
        return []
    xeon = _XEON_WORDS.search(line)
    if xeon:
        return [("cpu.brand", f"Intel Xeon {xeon.group(1).upper()}")]
    intel = _INTEL_WORDS.search(line)
    if intel:
        return [("cpu.brand", f"Intel {' '.join(intel.group(1).split())} {intel.group(2).upper()}")]
    amd = _AMD_WORDS.search(line)
    if amd:
        joiner = "-" if amd.group(1) == "FX" else " "
        name = " ".join(word.capitalize() if word.isalpha() and len(word) > 2 else word.upper() for word in amd.group(1).split())
        return [("cpu.brand", f"AMD {name}{joiner}{amd.group(2).upper()}")]  # 'amd phenom ii x6 1055t' as typed
    return []


# --- GPUs named in a sentence --------------------------------------------------------------------------

_OWNED = re.compile(r"\b(?:I|we)(?:'ve| have| got| own| use| am using|'m using| bought)\b|\b(?:my|our)\b", re.IGNORECASE)
_GPU_WORD = re.compile(r"\b(?:GPUs?|graphics cards?|video cards?|cards)\b", re.IGNORECASE)
# NVIDIA model names as people write them, without 'NVIDIA'/'GeForce' ('A6000', 'GT1030', 'RTX 3090', 'V100')
_BARE_NVIDIA = re.compile(r"(?<![\w.-])((?:RTX|GTX|GTS|GT)\s?\d{3,4}(?:\s?Ti)?(?:\s?SUPER)?|(?:RTX\s)?A(?:2000|4000|4500|5000|5500|6000)"
                          r"|A(?:100|800|10G?|30|40)|[HVP]100|H200|H800|L40S?|T4|K80|P40|M40|M60)(?![\w.-])")


def gpus_in_prose(line: str) -> Facts:
    """'On my rack I have two GPUs: A6000 and GT1030' -> an NVIDIA A6000 and a GT1030: the GPU models named
    after a possessive ('I have', 'my', 'we use') in a sentence about GPUs, as written."""
    owned = _OWNED.search(line)
    if not owned or not _GPU_WORD.search(line):
        return []
    sentence = re.split(r"[.!?](?:\s|$)", line[owned.end():], maxsplit=1)[0]
    names = dict.fromkeys(m.group(1) for m in _BARE_NVIDIA.finditer(sentence))
    return [("gpu.owned", {"name": name, "vendor": "NVIDIA", "memory_mib": None, "index": None}) for name in names]


# --- system and tool lines -----------------------------------------------------------------------------

_SYSTEM_TYPE = re.compile(r"^\s*System Type:\s+(x64|ARM64|X86)-based PC\s*$")
_SYSTEMINFO_MEMORY = re.compile(r"^\s*Total Physical Memory:\s+(\d{1,3}(?:[,. ]\d{3})+|\d+)\s*MB\s*$")
_TRIPLE = re.compile(r"^\s*(?:Target|[Hh]ost|target)\s*:\s*(x86_64|aarch64|i686)-(?:unknown-|pc-)?(linux-gnu|linux-musl|windows-msvc)\b")
_NCCL_LOG = re.compile(r"\bNCCL INFO\b")
_NCCL_DRIVER = re.compile(r"\bNCCL INFO cudaDriverVersion (\d{4,5})\b")
_TF_WINDOWS_CUDA = re.compile(r"""\bcu(?:da|dnn)[_ ]?version['"]?\s*[:=]\s*['"]?64_\d{2,3}\b""", re.IGNORECASE)
_JETSON = re.compile(r"\bJetPack\s+\d|\bL4T\s+\d+\.\d+|\bjetson-stats\b", re.IGNORECASE)
_DISTRIBUTION = re.compile(r"^\s*[-*]?\s*Distribution\s*:\s*(\S.*?)\s*$")
_TEGRA_RELEASE = re.compile(r"^\s*[-*]?\s*Release\s*:\s*(\d+\.\d+\.\d+[\w.+~-]*-tegra)\s*$")
_ZLUDA = re.compile(r"\b((?:AMD )?Radeon[^\[\]:]*?)\s*\[ZLUDA\]")
_PYTHON2_ANSWER = re.compile(r"^\s*Python (2\.\d{1,2}\.\d{1,2})\s*$")
_DISTRO_ALONE = re.compile(r"^\s*((?:ubuntu|debian|fedora|centos|rocky|almalinux|kali|mint|manjaro|opensuse)"
                           r"(?: linux)?\s+\d+(?:\.\d+)*)\s*$", re.IGNORECASE)
# a setup listed in one line ('Debian 10 Buster, Python v2.7, tensorflow v1.14.0:', 'tensorflow 2.1.0 from pip3')
_FRAMEWORK = r"(tensorflow(?:-gpu|-cpu)?|pytorch|torch|jaxlib|jax)\s+v?(\d+\.\d+(?:\.\d+)?(?:rc\d+)?)"
_FRAMEWORK_VERSION = re.compile(rf"(?:[,;(]\s*|\b(?:with|using|under|and)\s+){_FRAMEWORK}(?=\s*(?:$|[,;:)]|\s+(?:from|via|installed|and)\b))"
                                rf"|^\s*{_FRAMEWORK}(?=\s+(?:from|via|installed)\b)", re.IGNORECASE)
_PYTHON_ITEM = re.compile(r"(?:[,;&]\s*|\b(?:with|using|under|and)\s+)python\s+v?(\d\.\d{1,2}\.\d{1,2})(?=\s*(?:$|[,;:)]))",
                          re.IGNORECASE)
# a Mac named with its chip, then macOS's version closing the line: 'MacBook Pro 14 M3 Pro 14.2.1'
_MAC_HEADER = re.compile(r"\b(?:MacBook(?: Pro| Air)?|iMac(?: Pro)?|Mac ?mini|Mac ?Studio|Mac Pro)\b[^,;:]*?\bM\d{1,2}"
                         r"(?: Pro| Max| Ultra)?[,\s]+(1[0-5]|2[6-9])(\.\d{1,2}(?:\.\d{1,2})?)\s*$")
_RAM_FIRST = re.compile(r"\bRAM\s?(\d{1,4})\s?G(?:B|iB)?\b")  # 'imac2017 RAM64G', 'RAM 32GB'
# conda's compiler activation sets HOST to its toolchain's triple, which zsh's prompt shows: the env's arch
_CONDA_HOST_PROMPT = re.compile(r"^\s*(?:\([\w.-]+\)\s*)*[\w.-]+@(x86_64|arm64)-apple-darwin[\d.]*\s")
_NOT_INSTALLED = re.compile(r"\b(?:or (?:later|newer|above|higher)|requires?|upgrad|downgrad|instead|than|until|before)\b",
                            re.IGNORECASE)


def system_lines(line: str) -> Facts:
    """systeminfo's 'System Type: x64-based PC' and 'Total Physical Memory: 32,550 MB'; a build's target
    triple ('Target: x86_64-unknown-linux-gnu'); NCCL's log (Linux only) and its 'cudaDriverVersion 12080';
    TensorFlow's Windows build info ('CUDA version: 64_112', from cudart64_112.dll); jetson_release's lines;
    a Radeon under ZLUDA's CUDA name ('cuda:0 Radeon RX Vega [ZLUDA] : native')."""
    facts: Facts = []
    system_type = _SYSTEM_TYPE.match(line)
    if system_type and system_type.group(1) != "X86":
        facts += [("platform", "win32"), ("cpu.hardware_arch", "x86_64" if system_type.group(1) == "x64" else "arm64")]
    memory = _SYSTEMINFO_MEMORY.match(line)
    if memory:
        facts.append(("cpu.memory_bytes", int(re.sub(r"\D", "", memory.group(1))) * 1024**2))
    triple = _TRIPLE.match(line)
    if triple and triple.group(1) != "i686":
        facts += [("platform", "win32" if triple.group(2) == "windows-msvc" else "linux"),
                  ("cpu.hardware_arch", triple.group(1))]
    if _NCCL_LOG.search(line):
        facts.append(("platform", "linux"))  # NCCL runs on Linux only
    driver = _NCCL_DRIVER.search(line)
    if driver:
        version = int(driver.group(1))
        facts += [("gpu.cuda_driver", f"{version // 1000}.{version % 1000 // 10}"), ("gpu.present", "NVIDIA")]
    if _TF_WINDOWS_CUDA.search(line):
        facts.append(("platform", "win32"))
    if _JETSON.search(line):
        facts.append(("platform", "linux"))
    distribution = _DISTRIBUTION.match(line)
    if distribution:
        facts += by_key("os", distribution.group(1))
    tegra = _TEGRA_RELEASE.match(line)
    if tegra:
        facts += [("platform", "linux"), ("os.kernel", tegra.group(1))]
    zluda = _ZLUDA.search(line)
    if zluda:
        facts += [gpu_record(zluda.group(1).strip()), ("gpu.present", "AMD"), ("torch.cuda_available", True)]
    return facts


def version_lines(line: str) -> Facts:
    """`python -V`'s 'Python 2.7.16' on its own line; a distribution alone on a line ('debian 10.2'); Python's
    or a framework's version in a line listing the setup ('..., pyenv & python 3.10.11', 'tensorflow 2.1.0 from
    pip3'); macOS's version closing a Mac's header line; 'RAM64G'; a zsh prompt showing conda's host triple
    ('user@x86_64-apple-darwin13 ~ %': the conda env's arch)."""
    facts: Facts = []
    python2 = _PYTHON2_ANSWER.match(line)
    if python2:
        facts.append(("python.version", python2.group(1)))
    distro = _DISTRO_ALONE.match(line)
    if distro:
        facts += [("platform", "linux"), ("os.name", distro.group(1))]
    python = _PYTHON_ITEM.search(line)
    if python:
        facts.append(("python.version", python.group(1)))
    mac = _MAC_HEADER.search(line)
    if mac:
        facts += [("platform", "darwin"), ("os.version", mac.group(1) + mac.group(2))]
    ram = _RAM_FIRST.search(line)
    if ram:
        facts.append(("cpu.memory_bytes", int(ram.group(1)) * 1024**3))
    conda_host = _CONDA_HOST_PROMPT.match(line)
    if conda_host:
        facts += [("platform", "darwin"), ("python.machine", conda_host.group(1))]
    if not _NOT_INSTALLED.search(line):
        for found in _FRAMEWORK_VERSION.finditer(line):
            name, version = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
            name = "torch" if name.lower() == "pytorch" else name.lower()
            facts.append(("package", {"name": name, "version": version}))
            if name == "torch":
                facts.append(("torch.version", version))
    return facts


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (env_assignments, cpu_in_words, gpus_in_prose, system_lines, version_lines):
        facts += rule(line)
    return facts


def stated_env(statements: Sequence[Dict[str, Any]]) -> Dict[str, str]:
    """The variables the statements set, the first value of each."""
    env: Dict[str, str] = {}
    for stated in statements:
        if stated.get("fact") == "env":
            env.setdefault(stated["value"]["name"], stated["value"]["value"])
    return env
