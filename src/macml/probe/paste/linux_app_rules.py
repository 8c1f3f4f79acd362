"""Facts that Linux and Windows apps and shells state in their own words: torch asked in a REPL or a
one-liner ('torch.cuda.is_available()' then 'True'), its device properties and old-GPU warning, a torch wheel's
index or a pin, the YOLOv5 / Ultralytics banner and `yolo checks` rows, llama.cpp's device list, DeepSpeed's
ds_report, an issue template's keys with their '(e.g., ...)' hints, a driver named in prose, nvidia-smi's header
copied onto separate lines, `uname -a`'s machine, platform.platform()'s kernel, hostnamectl, `free -h`,
/proc/meminfo, and a report saying it runs on bare metal.

`line_facts(line)` reads one line; `answers(lines)` reads what needs the lines around it (a REPL answer,
a header's second half) and returns line index -> facts, as devices.device_facts does.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from packaging.version import InvalidVersion, Version

from macml.probe.paste.base import strip_prompt
from macml.probe.paste.board_rules import generic_amd_gpu
from macml.probe.paste.gpu_names import gib, gpu_names, gpu_vendor
from macml.probe.paste.packages import canonical
from macml.probe.paste.python_prose_rules import answer_after
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

# What a torch expression answers: ('torch.cuda.is_available()', 'True') -> torch.cuda_available True
_TORCH_EXPRESSIONS = (
    (r"torch\.cuda\.is_available\(\)", "available"), (r"torch\.version\.cuda\b", "cuda"),
    (r"torch\.version\.hip\b", "hip"), (r"torch\.__version__", "version"),
    (r"torch\.cuda\.get_device_name\(\s*(?:0|device=0|torch\.cuda\.current_device\(\))?\s*\)", "device"),
)
_TORCH_EXPRESSION = re.compile("|".join(f"({pattern})" for pattern, _ in _TORCH_EXPRESSIONS))
# the answer written on the same line: '... returns False', '-> True', '== True', 'gives 11.8'
_INLINE_ANSWER = re.compile(r"^\s*[`'\")]*\s*(?:returns|returned|gives|gave|->|=>|==|=|is|prints|printed|:)\s*[`'\"]*"
                            r"(True|False|None|\d+\.\d+[\w.+]*)(?=[`'\",.;)\s]|$)")
_ANSWER_LINE = re.compile(r"^\s*(?:Out\[\d+\]:\s*|return(?:s|ed)?\s+|->\s*)?[`'\"]?(.+?)[`'\"]?\s*$")
_OLD_GPU = re.compile(r"Found GPU(\d+) (.+?) which is of (?:cuda capability|compute capability \(CC\)) (\d+)\.(\d+)")
# a JetPack wheel's version carries a pre-release and a dotted local part: 'torch-2.1.0a0+41361538.nv23.06 CUDA:0'
_YOLO = re.compile(r"\b(?:YOLOv\d+|Ultralytics)\b.*?\btorch[- ](\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+)?(?:\+[\w.]+)?)\s+(CPU|CUDA:\d+|MPS)"
                   r"(?:\s+\(((?:[^()]|\([^()]*\))*)\))?")
_YOLO_DEVICE = re.compile(r"\bCUDA:(\d+) \(([^,()]+), (\d+)MiB\)")
_CHECK_ROW = re.compile(r"^\s*([A-Za-z][\w.-]*)\s+(?:✅|❌)\s*(\d+(?:\.\d+)+[\w+.]*?)(?=[<>=!~,]|\s|$)")
_LLAMA_DEVICE = re.compile(r"^\s*(?:\w+: )?Device (\d+): (.+?), (?:compute capability (\d+\.\d+)|(gfx[0-9a-f]+)\b)")
_DOTTED = re.compile(r"^\s*([A-Za-z][\w .()/-]*?)\s*\.{4,}\s*(\S.*?)\s*$")  # ds_report: 'torch version ..... 1.7.1'
_TEMPLATE_KEY = re.compile(r"^\s*[-*]?\s*(?:\*\*)?([A-Za-z][\w /]*?)\s*\((?:e\.g\.?|use |if |[a-z]+ or )[^)]*\)(?:\*\*)?"
                           r"\s*:\s*(?:\*\*)?\s*(\S.*?)\s*$")
_DRIVER_WORDS = re.compile(r"(?<!CUDA )(?<!cuda )\b[Dd]river(?:\s+[Vv]ersion)?\s*(?:[:=]|is)?\s*v?"
                           r"([2-9]\d{2}\.\d{2,3}(?:\.\d{1,2})?)(?![\d.])")
_UNAME_MACHINE = re.compile(r"\b(x86_64|aarch64|ppc64le|s390x)(?:\s+\S+){0,2}\s+GNU/Linux\s*$")
_UNAME_KERNEL = re.compile(r"\bLinux\s+(?:\S+\s+)?(\d+\.\d+\.\d+[\w.+~-]*)\s+#\d+")
_PLATFORM_KERNEL = re.compile(r"\bLinux-(\d+\.\d+\.\d+[\w.+~-]*?)-(?:x86_64|aarch64|armv7l|ppc64le|s390x)-with\b")
_FREE_MEM = re.compile(r"^\s*Mem:\s+(\d+(?:[.,]\d+)?)\s*([KMGT]i|[MGT])\s")
_BARE_METAL = re.compile(r"^\s*[-*]?\s*(?:\*\*)?(?:Environment|Virtuali[sz]ation|Hypervisor|VM|Virtual machine)(?:\*\*)?\s*:"
                         r"\s*(?:\*\*)?\s*(?:bare[- ]metal|none|no|physical(?: machine| host)?|not virtuali[sz]ed)\b"
                         r"|^\s*[-*]?\s*(?:\*\*)?OS(?:\*\*)?\s*:[^:]*,\s*(?:native Linux|bare[- ]metal)\s*$",  # 'OS: Ubuntu 26.04, native Linux'
                         re.IGNORECASE)
_TORCH_WHEEL = re.compile(r"/whl/(?:(cu)(\d)(\d{1,2})|cpu)/torch-(\d+\.\d+\.\d+[\w.]*?)(?:%2B\w+|\+\w+)?-cp\d+")
_OLD_LINUX_WHEEL = re.compile(r"-cp(3)(\d{1,2})-cp3\d{1,2}[dmu]*-linux_(x86_64|aarch64)\.whl\b")  # before manylinux tags
_DEVICE_PROPERTIES = re.compile(r"_CudaDeviceProperties\(name='([^']+)', major=(\d+), minor=(\d+),"
                                r"(?: gcnArchName='(gfx[0-9a-f]+)[^']*',)? total_memory=(\d+)MB")
_VIRTUALIZATION = re.compile(r"^\s*Virtualization:\s*(kvm|qemu|vmware|oracle|microsoft|xen|parallels|bhyve|amazon|google)\s*$")
_HYPERVISOR_NAMES = {"oracle": "VirtualBox", "microsoft": "Hyper-V", "vmware": "VMware", "kvm": "KVM", "qemu": "QEMU"}
_TORCH_PIN = re.compile(r"(?<![\w.-])(?:py)?torch==(\d+(?:\.\d+)+[\w.+]*)")
_HAVE = re.compile(r"\b(?:environment|env|installed|I have|I'm on|I am on|I use|I'm using|I am using|running)\b", re.IGNORECASE)
_DS_REPORT = {"torch cuda version": "torch.cuda_version", "torch hip version": "torch.hip_version"}


def _torch_answer(kind: str, value: str) -> Facts:
    """One answer of a torch expression, as facts ('available', 'True' -> torch.cuda_available True)."""
    value = value.strip().strip("'\"`")
    if kind == "available" and value in ("True", "False"):
        return [("torch.cuda_available", value == "True")]
    if kind in ("cuda", "hip") and re.fullmatch(r"\d+\.\d+(?:\.\d+)?", value):
        return [(f"torch.{kind}_version", value)]
    if kind == "version" and re.fullmatch(r"\d+\.\d+(?:\.\d+)?(?:\.?[a-z]+\d*)?(?:\+[\w.]+)?", value):
        return [("package", {"name": "torch", "version": value}), ("torch.version", value)]
    if kind == "device" and (gpu_names(value) or generic_amd_gpu(value)):
        return [_gpu((gpu_names(value) or [value])[0], 0)]
    return []


def _gpu(name: str, index: Optional[int], capability: Optional[str] = None, memory_mib: Optional[int] = None) -> Tuple[str, Any]:
    value: Dict[str, Any] = {"name": name.strip(), "vendor": gpu_vendor(name), "memory_mib": memory_mib, "index": index}
    if capability:
        value["capability"] = capability
    return ("gpu", value)


def _kind(found: "re.Match[str]") -> str:
    return next(kind for (_, kind), group in zip(_TORCH_EXPRESSIONS, found.groups()) if group)


def _asked(line: str) -> List[str]:
    """The torch expressions a line asks, in order ('print(torch.__version__, torch.cuda.is_available())')."""
    return [_kind(found) for found in _TORCH_EXPRESSION.finditer(line)]


def _only_asks(line: str) -> bool:
    """A line that is only the asked expression(s): '>>> torch.cuda.is_available()', '`torch.version.cuda`',
    'print(torch.__version__, torch.cuda.is_available())', 'python -c "import torch; print(torch.__version__)"'."""
    rest = _TORCH_EXPRESSION.sub(" ", strip_prompt(line))
    return not re.sub(r">>>|In \[\d+\]:|^\s*\$|python3?\s+-c|import torch|print|[`'\"();,\s]", "", rest)


def torch_inline_answer(line: str) -> Facts:
    """'torch.cuda.is_available() returns False', '`torch.version.cuda` -> 11.8': asked and answered on one line."""
    facts: Facts = []
    for found in _TORCH_EXPRESSION.finditer(line):
        answer = _INLINE_ANSWER.match(line[found.end():])
        if answer:
            facts += _torch_answer(_kind(found), answer.group(1))
    return facts


def torch_answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what torch answered on the line after a line that only asks it: '>>> torch.cuda.is_available()'
    then 'True'; 'print(torch.__version__, torch.cuda.is_available())' then '2.1.0+cu121 True'."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        kinds = _asked(line)
        if not kinds or not _only_asks(line):
            continue
        answer = answer_after(lines, index)  # past a warning torch printed while answering
        text = _ANSWER_LINE.match(lines[answer]) if answer is not None else None
        if text is None or _asked(lines[answer]) or lines[answer].lstrip().startswith((">>>", "$", "Traceback")):
            continue
        values = [text.group(1)] if len(kinds) == 1 else text.group(1).split()
        if len(values) != len(kinds):
            continue
        facts = [fact for kind, value in zip(kinds, values) for fact in _torch_answer(kind, value)]
        if facts:
            found[answer] = facts
    return found


def torch_old_gpu(line: str) -> Facts:
    """torch's warning 'Found GPU0 GeForce GTX 670M which is of cuda capability 2.1. PyTorch no longer supports
    this GPU because it is too old.': the GPU, its capability, and torch's verdict on it."""
    found = _OLD_GPU.search(line)
    if not found or not gpu_names(found.group(2)):
        return []
    capability = f"{found.group(3)}.{found.group(4)}"
    return [_gpu(found.group(2), int(found.group(1)), capability), ("torch.incompatible", capability)]


def _normalised(version: str) -> str:
    try:
        return str(Version(version))
    except InvalidVersion:
        return version


def yolo_banner(line: str) -> Facts:
    """YOLOv5's and Ultralytics' banner: 'YOLOv5 🚀 v6.1 torch 1.10.2+cu113 CUDA:0 (NVIDIA GeForce RTX 3090,
    24268MiB)', 'Ultralytics 8.3.0 🚀 Python-3.11.2 torch-2.3.1 CPU (Cortex-A72)': torch, the Python, and the
    CUDA devices it runs on (a multi-GPU banner continues 'CUDA:1 (...)' on the next lines)."""
    facts: Facts = [_gpu(name, int(index), memory_mib=int(mib)) for index, name, mib in _YOLO_DEVICE.findall(line)
                    if gpu_names(name)]
    banner = _YOLO.search(line)
    if not banner:
        return facts
    version, device, detail = banner.groups()
    # the distribution's version is the normalised one pip lists ('nv23.06' is 'nv23.6'); torch.__version__ as printed
    facts = [("package", {"name": "torch", "version": _normalised(version)}), ("torch.version", version)] + facts
    python = re.search(r"\bPython-(3\.\d+\.\d+)\b", line)
    if python:
        facts.append(("python.version", python.group(1)))
    if device.startswith("CUDA"):
        facts.append(("torch.cuda_available", True))
    elif device == "MPS":
        facts += [("platform", "darwin"), ("metal.in_use", "mps")]
    elif detail and re.search(r"\b(Intel|AMD|Cortex|Neoverse|Apple)\b", detail):
        facts.append(("cpu.brand", detail.strip()))
    return facts


def check_row(line: str) -> Facts:
    """`yolo checks`' rows 'numpy               ✅ 1.24.2<2.0.0,>=1.23.0': the installed version, then the
    requirement it was checked against (❌ when it does not meet it)."""
    found = _CHECK_ROW.match(line)
    if not found:
        return []
    name, version = canonical(found.group(1)), found.group(2)
    return [("package", {"name": name, "version": version})] + ([("torch.version", version)] if name == "torch" else [])


def llama_device(line: str) -> Facts:
    """llama.cpp's device list: '  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes',
    '  Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no, Wave Size: 32', newer '..., VMM: yes, VRAM: 11172 MiB'."""
    found = _LLAMA_DEVICE.match(line)
    if not found or not gpu_names(found.group(2)):
        return []
    vram = re.search(r", VRAM: (\d{3,6}) MiB\b", line)  # newer builds print each device's memory
    facts: Facts = [_gpu(gpu_names(found.group(2))[0], int(found.group(1)), found.group(3),
                         int(vram.group(1)) if vram else None)]
    return facts + ([("gpu.gfx", found.group(4))] if found.group(4) else [])


def dotted_report(line: str) -> Facts:
    """DeepSpeed's ds_report: 'torch version .................... 1.7.1+cu110', 'torch cuda version ......
    11.0', 'deepspeed info ................... 0.6.5, unknown, unknown'."""
    found = _DOTTED.match(line)
    if not found:
        return []
    key, value = " ".join(found.group(1).lower().split()), found.group(2)
    if key in _DS_REPORT:
        return [(_DS_REPORT[key], value)] if re.fullmatch(r"\d+\.\d+(?:\.\d+)?", value) else []
    if key == "deepspeed info":
        version = re.match(r"(\d+\.\d+\.\d+\S*?)(?:,|\s|$)", value)
        return [("package", {"name": "deepspeed", "version": version.group(1)})] if version else []
    return by_key(key, value) if key.endswith("version") else []


def template_key(line: str) -> Facts:
    """An issue template's key with its hint: '- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Windows
    10', 'TensorFlow installed from (source or binary): binary': read as the key without the hint."""
    found = _TEMPLATE_KEY.match(line)
    if not found:
        return []
    return by_key(" ".join(found.group(1).lower().split()), found.group(2).strip("*` "))


def driver_in_words(line: str) -> Facts:
    """An NVIDIA driver number written in prose or a report: 'Driver version 435.21', '| driver 595.71.05 |',
    'NVIDIA driver is 535.104.05' (three-digit majors are NVIDIA's; 'CUDA Driver Version: 11.2' is the CUDA one)."""
    found = _DRIVER_WORDS.search(line)
    return [("gpu.driver", found.group(1))] if found else []


def kernel_line(line: str) -> Facts:
    """`uname -a` however it is quoted ('... Linux 4.19.128-microsoft-standard #1 SMP ... x86_64 x86_64 x86_64
    GNU/Linux': the kernel's machine is the hardware's), and platform.platform()'s release on Linux
    ('Linux-6.6.31+rpt-rpi-v8-aarch64-with-glibc2.36')."""
    machine, kernel = _UNAME_MACHINE.search(line), _UNAME_KERNEL.search(line)
    facts: Facts = [("platform", "linux"), ("cpu.hardware_arch", machine.group(1))] if machine else []
    facts += [("os.kernel", kernel.group(1))] if machine and kernel else []
    found = _PLATFORM_KERNEL.search(line)
    return facts + ([("platform", "linux"), ("os.kernel", found.group(1))] if found else [])


def torch_wheel(line: str) -> Facts:
    """A torch wheel from PyTorch's index, 'download.pytorch.org/whl/cu100/torch-1.0.1.post2-cp35-cp35m-linux_x86_64.whl':
    the index names its CUDA build ('cu100' = 10.0, 'cpu' = none); the old 'linux_x86_64' tag names Linux and the
    Python's arch and minor version, as manylinux tags do (report_rules.wheel_tag)."""
    facts: Facts = []
    wheel = _TORCH_WHEEL.search(line)
    if wheel:
        cuda, major, minor = wheel.group(1), wheel.group(2), wheel.group(3)
        build = f"{major}{minor[:-1]}.{minor[-1]}" if cuda else None  # cu100 -> 10.0, cu92 -> 9.2, cu118 -> 11.8
        facts.append(("torch.cuda_version", build))
    tag = _OLD_LINUX_WHEEL.search(line)
    if tag:
        facts += [("python.minor", f"{tag.group(1)}.{tag.group(2)}"), ("platform", "linux"), ("python.machine", tag.group(3))]
    return facts


def device_properties(line: str) -> Facts:
    """torch.cuda.get_device_properties(0): "_CudaDeviceProperties(name='NVIDIA GeForce RTX 3090', major=8,
    minor=6, total_memory=24259MB, ...)"; a ROCm build adds gcnArchName (its major/minor are no CUDA capability)."""
    found = _DEVICE_PROPERTIES.search(line)
    if not found or not gpu_names(found.group(1)):
        return []
    name, major, minor, gfx, mib = found.groups()
    nvidia = gpu_vendor(name) == "NVIDIA"
    return [_gpu(name, None, f"{major}.{minor}" if nvidia else None, int(mib))] + ([("gpu.gfx", gfx)] if gfx else [])


def system_answers(line: str) -> Facts:
    """hostnamectl's 'Virtualization: kvm' (systemd's hypervisor ids; containers and WSL are not VMs here), a report
    saying there is none ('Environment: bare metal', 'Virtualization: none'), 'Architecture: x86-64' (the kernel's,
    as lscpu's); the total memory in /proc/meminfo's 'MemTotal: 16303388 kB' and `free -h`'s 'Mem:   15Gi ...'."""
    if _BARE_METAL.match(line):
        return [("hypervisor.none", True)]
    virtual = _VIRTUALIZATION.match(line)
    if virtual:
        return [("platform", "linux"), ("hypervisor", _HYPERVISOR_NAMES.get(virtual.group(1), virtual.group(1).capitalize()))]
    arch = re.match(r"^\s*Architecture:\s*(x86[-_]64|arm64|aarch64)\s*$", line)
    if arch:
        return [("cpu.hardware_arch", "x86_64" if arch.group(1).startswith("x86") else arch.group(1))]
    memory = re.match(r"^\s*MemTotal:\s+(\d+)\s*kB\s*$", line)
    if memory:
        return [("cpu.memory_bytes", int(memory.group(1)) * 1024)]
    free = _FREE_MEM.match(line)
    size = gib(free.group(1).replace(",", ".") + " " + free.group(2)) if free else None
    return [("cpu.memory_bytes", size)] if size else []


def torch_pin(line: str) -> Facts:
    """'My environment is `pytorch==1.7.1+cu110`', a freeze line 'torch==2.1.0': the torch a text says it has;
    never a pin pip was asked for ('Collecting torch==2.0.1', 'No matching distribution found for torch==2.4.1')."""
    found = _TORCH_PIN.search(line)
    if not found or not (_HAVE.search(line[:found.start()]) or not line.replace(found.group(), "").strip(" `'\"-*")):
        return []
    return [("package", {"name": "torch", "version": found.group(1)}), ("torch.version", found.group(1))]


RULES = (torch_inline_answer, torch_old_gpu, yolo_banner, check_row, llama_device, dotted_report, template_key,
         driver_in_words, kernel_line, torch_wheel, torch_pin, device_properties, system_answers)


def line_facts(line: str) -> Facts:
    return [fact for rule in RULES for fact in rule(line)]


def split_header(lines: Sequence[str]) -> Dict[int, Facts]:
    """nvidia-smi's header copied field by field: 'Driver Version: 515.105.01' then 'CUDA Version: 11.7' (the
    CUDA the driver supports; alone, 'CUDA Version' could be any CUDA)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        cuda = re.match(r"^\s*CUDA Version\s*:\s*(\d+\.\d+)\s*$", line)
        if cuda and any(re.search(r"\bDriver Version\s*:\s*\d{3}\.", lines[i]) for i in range(max(0, index - 2), index)):
            found[index] = [("gpu.cuda_driver", cuda.group(1))]
    return found


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the facts that need the lines around it (REPL answers, a split nvidia-smi header)."""
    found = torch_answers(lines)
    for index, facts in split_header(lines).items():
        found[index] = found.get(index, []) + facts
    return found
