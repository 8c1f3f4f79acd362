"""What people write about their machine in issue text, each read by a pure function returning stated facts.

- Bug-report templates answered inside their brackets: '- OS: [Ubuntu 24.04.]', '- NVIDIA Driver Version [470.57.02]'
  (a bracket still holding the template's 'e.g. ...' is not an answer); a stated NVIDIA driver means an NVIDIA GPU.
- Specs written on one line: 'CPU: Intel i9-10900; GPU: RX 7900 XTX 24GB; RAM: 128GB DDR4;' and
  'System: Win11, R5 7500F, AMD RX 9070 16GB, 32GB RAM'; 'my AMD 6800U, 32GB ram' (a Ryzen U/H/HS laptop chip and
  its Radeon graphics).
- Windows by its short names ('Win11', 'OS is win10') or alone on a line ('Windows 10 (64bit, updated)'); a Linux
  distribution the writer runs ('My device runs Ubuntu with', 'used Ubuntu 20.04', 'this time Fedora') or titles a
  section with ('-----wsl2 ubuntu 22.04-------').
- GPUs named in prose: 'with rx 6600 xt', 'GPU - Radeon 6900xt', 'with Inter Arc770', 'dual AMD GPUs, both are RX
  7900 XTX' (that many of that model); nvidia-smi seeing the GPUs ('When I run nvidia-smi I can see my 3 GPUs',
  'visible in the host - nvidia-smi validated'); 'CUDA version (from nvidia-smi): 13.0' and '(6 GB VRAM, Driver
  v591.86, CUDA 13.1)': the driver's CUDA version.
- torch and Python in prose are read by python_prose_rules; line_facts and answers here include its rules, so
  statements registers one module.
- hostnamectl's 'Kernel: Linux 6.6.20+rpt-rpi-v8': the kernel release.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste import python_prose_rules
from macml.probe.paste.gpu_names import gpu_names, gpu_record, informal_gpu_names
from macml.probe.paste.said_of_this_machine import someone_elses
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

_NEGATED = re.compile(r"\b(?:not|never|no longer|without|instead of|from)\b|n't\b", re.IGNORECASE)
_TEMPLATE = re.compile(r"^\s*[-*•]\s*([A-Za-z][\w ./()-]{1,40}?)\s*:?\s*\[([^\]\[]+)\]\s*$")


def template_answer(line: str) -> Facts:
    """'- OS: [Ubuntu 24.04.]' -> Ubuntu 24.04; '- OS: [Ubuntu, OD]' -> Ubuntu; '- NVIDIA Driver Version [470.57.02]'
    -> that driver; '- CUDA Version [e.g. 11.4]' -> nothing (the template's example)."""
    found = _TEMPLATE.match(line)
    if not found or re.match(r"^\s*(?:e\.g\.|eg\b|optional|example|x\.y)", found.group(2), re.IGNORECASE):
        return []
    key, value = " ".join(found.group(1).lower().split()), found.group(2).strip().rstrip(".").strip()
    windows = windows_named(value) if key in ("os", "operating system", "windows version", "windows") else []
    facts = windows or by_key(key, value)
    first = value.split(",")[0].strip()
    if key in ("os", "operating system") and not any(f == "os.name" for f, _ in facts):
        facts += by_key(key, first)
        if re.fullmatch(_DISTROS, first) and not any(f == "os.name" for f, _ in facts):
            facts += [("platform", "linux"), ("os.name", first)]
    return facts + nvidia_driver(key, value)


def nvidia_driver(key: str, value: str) -> Facts:
    """'NVIDIA driver version: 582.08': a stated NVIDIA driver means the machine has an NVIDIA GPU."""
    return [("gpu.present", "NVIDIA")] if re.search(r"\bnvidia\b.*\bdriver\b", key) and re.match(r"^\d{3}\.\d{2}", value) else []


_PIECE = re.compile(r"^\s*([A-Za-z][\w ()/-]{0,30}?)\s*:\s*(\S.*?)\s*$")


def semicolon_specs(line: str) -> Facts:
    """'CPU: Intel i9-10900; GPU: RX 7900 XTX 24GB; RAM: 128GB DDR4;' -> each 'key: value' as its own answer."""
    pieces = [p for p in line.split(";") if p.strip()]
    if len(pieces) < 2:
        return []
    facts: Facts = []
    for piece in pieces[1:]:  # the first piece is the line's own 'key: value', which statements reads
        found = _PIECE.match(piece)
        if found:
            facts += by_key(" ".join(found.group(1).lower().split()), found.group(2))
    return facts


_WINDOWS_SHORT = re.compile(r"(?<![\w.-])win(?:dows)?\s?-?(7|8\.1|8|10|11)(?![\w.-])", re.IGNORECASE)
_WINDOWS_JOINED = re.compile(r"^Windows\s?(7|8\.1|8|10|11)$", re.IGNORECASE)  # a template's '[Windows11]' 
_WINDOWS_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(Windows (?:7|8\.1|8|10|11))\b(?:\s*\([^)]*\))?\s*$")
# 'an AMD Mi50 32GB (Windows 11)': the writer's OS in parentheses after their hardware
_WINDOWS_PARENS = re.compile(r"\((?:on\s+)?(?:Microsoft\s+)?(Windows (?:7|8\.1|8|10|11))(?:\s+(?:Pro|Home|Enterprise|Education))?\)")
_WRITER = re.compile(r"\b(?:I|I'm|I've|my|we|our)\b", re.IGNORECASE)


def windows_named(line: str) -> Facts:
    """'OS is win11', 'System: Win11, ...', 'Windows 10 (64bit, updated)' alone on a line, 'I ... with an AMD Mi50
    (Windows 11)' -> Windows 11 / 10."""
    whole = _WINDOWS_LINE.match(line)
    if whole:
        return [("platform", "win32"), ("os.name", whole.group(1))]
    parens = _WINDOWS_PARENS.search(line)
    if parens and _WRITER.search(line[:parens.start()]) and not _NEGATED.search(line[:parens.start()]) \
            and not re.search(r"\bwsl", line, re.IGNORECASE):
        return [("platform", "win32"), ("os.name", parens.group(1))]
    joined = _WINDOWS_JOINED.match(line.strip())
    if joined:
        return [("platform", "win32"), ("os.name", f"Windows {joined.group(1)}")]
    short = _WINDOWS_SHORT.search(line)
    if not short or not re.match(r"win-?\d", short.group(0), re.IGNORECASE) or re.search(r"\bwsl", line, re.IGNORECASE):
        return []
    if _NEGATED.search(line[max(0, short.start() - 15):short.start()]):
        return []
    return [("platform", "win32"), ("os.name", f"Windows {short.group(1)}")]


_DISTROS = r"(Ubuntu|Fedora|Debian|Linux Mint|Manjaro|openSUSE(?: Tumbleweed| Leap)?|CentOS|Rocky Linux|Pop!_OS|Arch Linux|EndeavourOS)"
_RUNS_DISTRO = re.compile(r"\b(?:runs?|running|use[ds]?|using|installed|this time|now on)\s+" + _DISTROS
                          + r"(?:\s+(\d{1,2}\.\d{1,2}(?:\.\d{1,2})?))?(?![\w.-]*\s+or\b)")
_DISTRO_TITLE = re.compile(r"^\s*[-=#*]{2,}\s*(?:wsl\s?2?\s+)?((?i:ubuntu|debian|fedora)\s+\d{1,2}\.\d{1,2})\s*[-=#*]{2,}\s*$")


def distro_named(line: str) -> Facts:
    """'My device runs Ubuntu with dual AMD GPUs' -> Ubuntu; 'used Ubuntu 20.04,' -> Ubuntu 20.04; 'this time
    Fedora' -> Fedora; '-----wsl2 ubuntu 22.04-------' -> ubuntu 22.04 (as written)."""
    title = _DISTRO_TITLE.match(line)
    if title:
        return [("platform", "linux"), ("os.name", title.group(1))]
    found = _RUNS_DISTRO.search(line)
    if not found or _NEGATED.search(line[max(0, found.start() - 20):found.start()]):
        return []
    return [("platform", "linux"), ("os.name", " ".join(g for g in found.groups() if g))]


_RADEON_BARE = re.compile(r"(?<![\w.-])((?:AMD\s+)?Radeon\s+\d{4}\s?(?:XTX|XT|GRE)?)(?![\w.+-])", re.IGNORECASE)
_ARC = re.compile(r"(?<![\w.-])((?:Intel|Inter)\s+Arc\s?A?\d{3}M?|Arc\s?A\d{3}M?"
                  r"|(?-i:A(?:310|380|580|750|770)|B(?:570|580)))(?![\w.+-])", re.IGNORECASE)  # Arc's bare model numbers
_OWNED = re.compile(r"\b(?:with|my|have|got|using|on)\s+(?:an?\s+|the\s+|my\s+)?$", re.IGNORECASE)
_SIZE_AFTER = re.compile(r"\s*(\d{1,3})\s?GB\b(?!\s*(?:of\s+)?(?:system\s+)?(?:RAM|DDR))", re.IGNORECASE)
_DASH_GPU = re.compile(r"^\s*[-*•]?\s*(?:GPU|Graphics card|Video card)\s+[-–—:]\s+(\S.*)$", re.IGNORECASE)


def owned_gpu(line: str) -> Facts:
    """'with rx 6600 xt on windows 11', 'GPU - Radeon 6900xt', 'on Win11 with Inter Arc770': the writer's GPU,
    named informally ('my RX 9060XT 16GB': with its memory)."""
    dash = _DASH_GPU.match(line)
    if dash:
        bare = _RADEON_BARE.match(dash.group(1).strip())
        return [gpu_record(bare.group(1))] if bare and not gpu_names(dash.group(1)) else []
    facts: Facts = []
    text = re.sub(r"\.(?=\s|$)", " ", line)
    for pattern in (_RADEON_BARE, _ARC):
        for found in pattern.finditer(text):
            if _OWNED.search(text[max(0, found.start() - 25):found.start()]):
                name = found.group(1)
                size = _SIZE_AFTER.match(text[found.end():])  # 'I have an A770 16GB': the card's memory
                memory = int(size.group(1)) * 1024 if size and 2 <= int(size.group(1)) <= 64 else None
                facts.append(("gpu.owned", {"name": name, "vendor": "Intel" if _ARC.match(name) else "AMD",
                                            "memory_mib": memory, "index": None}))
    for name in informal_gpu_names(text):
        at = text.find(name)
        if (_OWNED.search(text[max(0, at - 25):at]) and not _NEGATED.search(text[max(0, at - 25):at])
                and not someone_elses(text[at:at + 40])):
            size = _SIZE_AFTER.match(text[at + len(name):])  # 'my RX 9060XT 16GB': the card's memory
            memory = int(size.group(1)) * 1024 if size and 2 <= int(size.group(1)) <= 192 else None
            facts.append(("gpu.owned", dict(gpu_record(name)[1], memory_mib=memory)))
            facts += [("gpu.memory_of", {"index": None, "memory_mib": memory})] if memory else []
    return facts


_NUMBERS = {"two": 2, "dual": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
_SAME_GPUS = re.compile(r"\b(dual|two|three|four|[234])\s+(?:AMD\s+|NVIDIA\s+|Radeon\s+)?GPUs?\b[^.]{0,15}?\b(?:both|all)\s+(?:are\s+|of them\s+)?(.+)$",
                        re.IGNORECASE)


def same_gpus(line: str) -> Facts:
    """'dual AMD GPUs, both are RX 7900 XTX.' -> two 'RX 7900 XTX'."""
    found = _SAME_GPUS.search(line)
    if not found:
        return []
    rest = re.sub(r"\.(?=\s|$)", " ", found.group(2))
    names = gpu_names(rest) or informal_gpu_names(rest)
    if not names or not rest.strip().lower().startswith(names[0].lower()):
        return []
    return [gpu_record(names[0], index=i) for i in range(_NUMBERS[found.group(1).lower()])]


_SMI_SEES = re.compile(r"\bnvidia-smi\b", re.IGNORECASE)
_SEES = re.compile(r"\b(?:see|sees|shows?|lists?|validated|works|detects?|visible|recogni[sz]es?)\b", re.IGNORECASE)
_SMI_FAILS = re.compile(r"\b(?:not found|no devices?|fail\w*|error|not|couldn't|can't|cannot|doesn't)\b", re.IGNORECASE)


def nvidia_smi_sees(line: str) -> Facts:
    """'When I run nvidia-smi I can see my 3 GPUs', '(visible in the host - nvidia-smi validated.)': NVIDIA's tool
    lists the GPUs, so the machine has an NVIDIA GPU."""
    found = _SMI_SEES.search(line)
    if not found:
        return []
    window = line[max(0, found.start() - 40):found.end() + 40]
    window = re.split(r"\b(?:however|but)\b", window, flags=re.IGNORECASE)[0] if found.start() < 40 else window
    return [("gpu.present", "NVIDIA")] if _SEES.search(window) and not _SMI_FAILS.search(window) else []


_CUDA_FROM_SMI = re.compile(r"^cuda version\s*\(from nvidia-smi\)$")
_DRIVER_AND_CUDA = re.compile(r"\bDriver\s+v?\d{3}\.\d{2}(?:\.\d{2})?\s*,\s*CUDA\s+(\d{2}\.\d)\b", re.IGNORECASE)


def smi_cuda_keyed(key: str, value: str) -> Facts:
    """'CUDA version (from nvidia-smi): 13.0' -> the driver's CUDA version 13.0."""
    return [("gpu.cuda_driver", value)] if _CUDA_FROM_SMI.match(key) and re.match(r"^\d{2}\.\d$", value) else []


def driver_and_cuda(line: str) -> Facts:
    """'(6 GB VRAM, Driver v591.86, CUDA 13.1)': the CUDA version beside a driver's is the driver's."""
    found = _DRIVER_AND_CUDA.search(line)
    return [("gpu.cuda_driver", found.group(1))] if found else []


_RYZEN_MOBILE = re.compile(r"\b(?:AMD\s+(?:Ryzen\s+[3579]\s+)?|Ryzen\s+[3579]\s+)([4-9]\d{3}(?:U|H|HS|HX))\b")
_CPU_SHORT = re.compile(r"(?<![\w.-])R([3579])\s+(\d{4}X?3?D?F?)(?![\w.-])")
_RAM_OWNED = re.compile(r"(?<![\w.])(\d{1,4})\s?G(?:B|iB)?\s+(?:of\s+)?(?:DDR\d\w*\s+)?(?:ram|memory)\b", re.IGNORECASE)
_GPU_WORDS = re.compile(r"\b(?:TITAN|GPU|VRAM|graphics|card|RTX|GTX|Radeon|Quadro|Tesla)\b", re.IGNORECASE)
_SPEC_KEY = re.compile(r"^\s*(?:[-*•]\s*)?(?:(?:my|our)\s+)?(?:System|Specs?|Setup|Hardware|PC|Rig|Machine)(?:\s+(?:is|are))?\s*:\s*(.+)$",
                       re.IGNORECASE)  # also 'My hardware is: RTX3090+AMD 3900X+128G RAM'
# a Ryzen desktop CPU by its number after the maker ('AMD 3900X'): the thousands digit is the generation, the hundreds
# the tier (9: Ryzen 9, 7-8: Ryzen 7, 5-6: Ryzen 5); no Radeon is named with four digits and a bare X
_AMD_DESKTOP_CPU = re.compile(r"\bAMD\s+([1-9]([5-9])[05]0X(?:3D)?)(?![\w.-])")


def machine_parts(line: str) -> Facts:
    """'System: Win11, R5 7500F, AMD RX 9070 16GB, 32GB RAM' and 'my AMD 6800U, 32GB ram': a Ryzen laptop chip
    (x86_64, with Radeon graphics), 'R5 7500F' (a Ryzen 5), the GPU and the RAM of a parts list."""
    facts: Facts = []
    spec = _SPEC_KEY.match(line)
    owned = spec is not None or re.search(r"\b(?:my|I have|I've got)\b", line, re.IGNORECASE)
    mobile = _RYZEN_MOBILE.search(line)
    if mobile and owned:
        facts += [("cpu.hardware_arch", "x86_64"), ("gpu.present", "AMD")]
    short = _CPU_SHORT.search(line) if spec else None
    if short:
        facts += [("cpu.brand", f"AMD Ryzen {short.group(1)} {short.group(2)}"), ("cpu.hardware_arch", "x86_64")]
    desktop = _AMD_DESKTOP_CPU.search(line) if spec else None
    if desktop:
        tier = {"9": 9, "8": 7, "7": 7, "6": 5, "5": 5}[desktop.group(2)]
        facts += [("cpu.brand", f"AMD Ryzen {tier} {desktop.group(1)}"), ("cpu.hardware_arch", "x86_64")]
    ram = _RAM_OWNED.search(line)
    before = line[:ram.start()] if ram else ""
    gpu_before = gpu_names(before) or informal_gpu_names(before) or _GPU_WORDS.search(before)
    if ram and owned and (spec or not gpu_before):  # 'TITAN Xp is what I have, 12 GB RAM': the GPU's
        facts.append(("cpu.memory_bytes", int(ram.group(1)) * 1024**3))
    if spec:
        for piece in re.split(r",|\+", spec.group(1)):
            names = informal_gpu_names(piece) or gpu_names(piece)
            if names:
                facts.append(gpu_record(names[0], memory=re.search(r"\d+\s?GB", piece) and re.search(r"\d+\s?GB", piece).group()))
    return facts


def hostnamectl_kernel(key: str, value: str) -> Facts:
    """hostnamectl's 'Kernel: Linux 6.6.20+rpt-rpi-v8' -> the kernel release 6.6.20+rpt-rpi-v8."""
    found = re.match(r"^Linux\s+(\d+\.\d+\.\d+\S*)$", value.strip()) if key == "kernel" else None
    return [("platform", "linux"), ("os.kernel", found.group(1))] if found else []


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (template_answer, semicolon_specs, windows_named, distro_named, owned_gpu, same_gpus, nvidia_smi_sees,
                 driver_and_cuda, machine_parts):
        facts += rule(line)
    return facts + python_prose_rules.line_facts(line)


def keyed_facts(key: str, value: str) -> Facts:
    return nvidia_driver(key, value) + smi_cuda_keyed(key, value) + hostnamectl_kernel(key, value) + x86_cpu_answer(key, value)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts read from the lines around it."""
    found: Dict[int, Facts] = {}
    for reader in (python_prose_rules.available_answered, python_prose_rules.ipython_versions):
        for index, facts in reader(lines).items():
            found.setdefault(index, []).extend(facts)
    return found


_X86_CPU_VALUE = re.compile(r"^(?:AMD\s+|Intel(?:\(R\))?\s+)?(?:(Ryzen\s+[3579]\s+\d{4}\w*|Ryzen\s+Threadripper\s+\w+)"
                            r"|(Core(?:\(TM\))?\s+i[3579]-\d{4,5}\w*))\b", re.IGNORECASE)


def x86_cpu_answer(key: str, value: str) -> Facts:
    """'CPU: Ryzen 5 5600G' -> an AMD Ryzen 5 5600G, x86_64; 'Processor: Core i7-9700' -> Intel, x86_64."""
    found = _X86_CPU_VALUE.match(value.strip()) if key in ("cpu", "processor", "processor (cpu)") else None
    if not found:
        return []
    brand = f"AMD {found.group(1)}" if found.group(1) else f"Intel {found.group(2)}"
    return [("cpu.brand", " ".join(brand.split())), ("cpu.hardware_arch", "x86_64")]
