"""`python -m torch.utils.collect_env` output: every line it prints, old (2019) to new formats."""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from macml.probe.paste.base import Part, dedent, strip_prompt
from macml.probe.paste.cpu import lscpu_flags, normalise_lscpu

KNOWN_KEYS = (
    "PyTorch version", "Is debug build", "CUDA used to build PyTorch", "ROCM used to build PyTorch", "OS",
    "GCC version", "Clang version", "CMake version", "Libc version", "Python version", "Python platform",
    "Is CUDA available", "CUDA runtime version", "CUDA_MODULE_LOADING set to", "GPU models and configuration",
    "Nvidia driver version", "cuDNN version", "HIP runtime version", "MIOpen runtime version",
    "Is XNNPACK available", "Is XPU available", "CPU", "Versions of relevant libraries",
)
_CANONICAL = {k.lower(): k for k in KNOWN_KEYS}
# Case-insensitive ("Os:" in 2020 pastes); "PyTorch version 1.5.0" lost its colon in some.
_KEY = re.compile(r"^\s*(" + "|".join(re.escape(k) for k in KNOWN_KEYS) + r")(?:\s*:\s?|\s+(?=\d))(.*)$", re.I)
_START = re.compile(r"^\s*(Collecting environment information|PyTorch version\s*(:|\d))", re.I)
LIBRARY = re.compile(r"^\s*\[(pip\d?|conda)\]\s+(.*)$")
_GPU_LINE = re.compile(r"^\s*GPU\s+(\d+)\s*[:：]\s*(.+?)\s*(?:\(UUID:.*)?$")
_MISSING = ("", "n/a", "could not collect", "none", "unknown", "no cuda")
_LINUX_PLATFORM = re.compile(r"^Linux-(.+?)-(x86_64|aarch64|arm64|ppc64le|s390x|armv7l|i686)(?:-with-(.*))?$")
_MAC_PLATFORM = re.compile(r"^(?:macOS|Darwin)-([\d.]+)-(\w+)")
MACHINES = ("x86_64", "arm64", "aarch64", "ppc64le", "s390x", "armv7l", "i686", "AMD64")


def known(value: Optional[str]) -> Optional[str]:
    return None if value is None or value.strip().lower() in _MISSING else value.strip()


def find(lines: Sequence[str]) -> List[Part]:
    parts, index = [], 0
    while index < len(lines):
        if _START.match(strip_prompt(lines[index])):
            end = _span_end(lines, index)
            start = index - 1 if index and "collect_env" in lines[index - 1] else index
            parts.append(convert(lines[start:end + 1], start + 1, end + 1))
            index = end + 1
        else:
            index += 1
    return parts


def _span_end(lines: Sequence[str], start: int) -> int:
    """The last line that still belongs to the report: its keys, CPU block, library list, GPU
    and cuDNN continuation lines, and the extra sections some projects add (GPU topology ...);
    fifteen lines without one of its own keys end it."""
    last = last_known = start
    in_cpu = False
    for index in range(start, len(lines)):
        line = lines[index]
        if index - last_known > 15:
            break
        key = _KEY.match(line)
        if key or LIBRARY.match(line) or (in_cpu and line.strip()):
            last = last_known = index
            in_cpu = (key.group(1).upper() == "CPU") if key else in_cpu
        elif not line.strip():
            in_cpu = False
        elif _GPU_LINE.match(line) or re.match(r"^\s*([\w .()/-]+:\s*\S|/\S+|[A-Z]:\\)", line):
            last = index
    return last


def _fields(lines: Sequence[str]) -> Tuple[Dict[str, str], List[str], List[str], List[str]]:
    """(known key -> value, GPU names, CPU block lines, library lines)."""
    fields: Dict[str, str] = {}
    gpus: List[str] = []
    cpu: List[str] = []
    libraries: List[str] = []
    section = ""
    for line in dedent(lines):
        key = _KEY.match(line)
        library = LIBRARY.match(line)
        gpu = _GPU_LINE.match(line)
        if key:
            name, value = _CANONICAL[key.group(1).lower()], key.group(2).strip()
            fields.setdefault(name, value)
            section = name
            if name == "GPU models and configuration" and value:
                gpus.extend(_gpu_names(value))
        elif library:
            libraries.append(library.group(0).strip())
        elif gpu and section == "GPU models and configuration":
            gpus.append(gpu.group(2))
        elif section == "CPU" and line.strip():
            cpu.append(line)
        elif not line.strip() and section == "CPU" and cpu:
            section = ""
    return fields, gpus, cpu, libraries


def _gpu_names(value: str) -> List[str]:
    if not known(value):
        return []
    named = [m.group(2) for m in (_GPU_LINE.match(piece) for piece in re.split(r"(?=GPU \d+[:：])", value)) if m]
    return named or [value.strip()]


def platform_of(fields: Dict[str, str]) -> Optional[str]:
    system = (known(fields.get("OS")) or "").lower()
    python_platform = fields.get("Python platform", "")
    if system.startswith(("macos", "mac os")) or python_platform.startswith(("macOS-", "Darwin-")):
        return "darwin"
    if "windows" in system or python_platform.startswith("Windows-"):
        return "win32"
    if system or python_platform.startswith("Linux-"):
        return "linux"
    return None


def _machine(fields: Dict[str, str]) -> Optional[str]:
    """platform.machine() of the interpreter that ran collect_env."""
    os_arch = re.search(r"\((\w+)\)\s*$", fields.get("OS", ""))
    if os_arch and os_arch.group(1) in MACHINES:
        return os_arch.group(1)
    python_platform = fields.get("Python platform", "")
    for pattern in (_LINUX_PLATFORM, _MAC_PLATFORM):
        match = pattern.match(python_platform)
        if match:
            return match.group(2)
    msc = re.search(r"\[MSC [^\]]*\((\w+)\)\]", fields.get("Python version", ""))
    return msc.group(1) if msc else None


def library_packages(libraries: Sequence[str]) -> Dict[str, str]:
    packages: Dict[str, str] = {}
    for line in libraries:
        body = LIBRARY.match(line).group(2).strip()
        pinned = re.match(r"^([A-Za-z0-9_.\-]+)\s*==\s*(\S+)", body)
        listed = re.match(r"^([A-Za-z0-9_.\-]+)\s+(\d\S*)", body)
        match = pinned or listed
        if match:
            packages.setdefault(match.group(1).lower().replace("_", "-"), match.group(2))
    return packages


def _interpreter(fields: Dict[str, str], packages: Dict[str, str]) -> Dict[str, object]:
    raw = fields.get("Python version", "")
    version = re.match(r"^(\d+\.\d+(?:\.\d+)?)", raw)
    interpreter: Dict[str, object] = {}
    if version:
        interpreter["version"] = version.group(1)
        interpreter["implementation"] = "pypy" if "pypy" in raw.lower() else "cpython"
    machine = _machine(fields)
    if machine:
        interpreter["machine"] = machine
    bits = re.search(r"\((\d+)-bit runtime\)", raw)
    if bits:
        interpreter["bits"] = int(bits.group(1))
    if "conda" in raw.lower() or "anaconda" in raw.lower():
        interpreter["conda"] = True
    glibc = re.search(r"glibc-?(\d+\.\d+)", fields.get("Libc version", "") + " " + fields.get("Python platform", ""))
    if glibc:
        interpreter["glibc"] = glibc.group(1)
    mac = _MAC_PLATFORM.match(fields.get("Python platform", ""))
    if mac:
        interpreter["mac_ver"] = mac.group(1)
    if packages:
        interpreter["packages"] = packages
    return interpreter


def _torch(fields: Dict[str, str], gpus: Sequence[str], packages: Dict[str, str]) -> Dict[str, object]:
    version = known(fields.get("PyTorch version"))
    note = re.match(r"^(\d+\.\d+\S*)\s+\(.*\)$", version or "")  # '2.9.1 (This should be 2.10.0 but ...)': a note
    version = note.group(1) if note else version
    if not version and fields.get("PyTorch version", "").strip() == "N/A" and packages.get("torch"):
        # collect_env imports torch for that line: N/A beside an installed torch means the import failed
        return {"installed": True, "ok": False, "problem": "import_failed",
                "error": f"collect_env could not import torch ('PyTorch version: N/A') although torch "
                         f"{packages['torch']} is installed"}
    if not version:
        return {}
    cuda_build = known(fields.get("CUDA used to build PyTorch"))
    rocm_build = known(fields.get("ROCM used to build PyTorch"))
    data: Dict[str, object] = {"installed": True, "ok": True, "version": version,
                               # the 2019 format printed the toolkit's full version ('9.0.176')
                               "cuda_version": ".".join(cuda_build.split(".")[:2]) if cuda_build and cuda_build[0].isdigit()
                               else None,
                               # a paste cut before 'HIP runtime version' still names the ROCm it was built with
                               "hip_version": (known(fields.get("HIP runtime version")) or rocm_build) if rocm_build else None}
    if "CUDA used to build PyTorch" not in fields and "ROCM used to build PyTorch" not in fields and "+" not in version:
        data["build_unknown"] = True  # a fragment ('Pytorch version: 2.4.1' alone) names no build
    available = (known(fields.get("Is CUDA available")) or "").lower()
    if available in ("true", "yes", "false", "no"):
        data["cuda_available"] = available in ("true", "yes")
        data["device_names"] = list(gpus) if data["cuda_available"] else []
    return data


def _gpu_commands(fields: Dict[str, str], gpus: Sequence[str]) -> Dict[str, str]:
    if not gpus:
        return {}
    if known(fields.get("ROCM used to build PyTorch")) or known(fields.get("HIP runtime version")):
        lines = []
        for i, name in enumerate(gpus):  # 'AMD Instinct MI250X/MI250 (gfx90a:sramecc+:xnack-)'
            target = re.match(r"^(.*?)\s*\((gfx[0-9a-f]+)[^)]*\)\s*$", name)
            lines.append(f"GPU[{i}]\t\t: Card series: \t\t{target.group(1) if target else name}")
            if target:
                lines.append(f"GPU[{i}]\t\t: GFX Version: \t\t{target.group(2)}")
        return {"rocm-smi --showproductname": "\n".join(lines) + "\n"}
    driver = known(fields.get("Nvidia driver version")) or ""
    rows = [f"{name}, {driver}, , " for name in gpus]
    from macml.probe.linux import NVIDIA_QUERY
    return {" ".join(NVIDIA_QUERY): "\n".join(rows) + "\n"}


def _system_commands(platform: Optional[str], fields: Dict[str, str], cpu: Sequence[str]) -> Dict[str, str]:
    commands: Dict[str, str] = {}
    system = known(fields.get("OS")) or ""
    system = re.sub(r"\s*\(\w+\)\s*$", "", system)
    version = re.search(r"\d+(?:\.\d+)*", system)
    if platform == "darwin":
        if version:
            commands["sw_vers"] = f"ProductName:\tmacOS\nProductVersion:\t{version.group()}\n"
        if cpu and cpu[0].strip():
            commands["sysctl -n machdep.cpu.brand_string"] = cpu[0].strip() + "\n"
    elif platform == "linux":
        if system:
            name = re.split(r"\s+(?=\d)", system, maxsplit=1)[0]
            short = re.search(r"\d+(?:\.\d+)?", system)
            commands["cat /etc/os-release"] = (f'NAME="{name}"\nPRETTY_NAME="{system}"\n'
                                               + (f'VERSION_ID="{short.group()}"\n' if short else ""))
        uname = _LINUX_PLATFORM.match(fields.get("Python platform", ""))
        if uname:
            commands["uname -rm"] = f"{uname.group(1)} {uname.group(2)}\n"
        table = normalise_lscpu(cpu)
        if table:
            commands["lscpu"] = "\n".join(table) + "\n"
    elif platform == "win32":
        build = re.match(r"^Windows-[^-]+-(\d+\.\d+\.\d+)", fields.get("Python platform", ""))
        if build:
            commands["cmd /c ver"] = f"\nMicrosoft Windows [Version {build.group(1)}]\n"
    return commands


def convert(lines: Sequence[str], start: int, end: int) -> Part:
    fields, gpus, cpu, libraries = _fields(lines)
    platform = platform_of(fields)
    packages = library_packages(libraries)
    torch = _torch(fields, gpus, packages)
    if torch.get("version"):
        packages.setdefault("torch", str(torch["version"]))
    part = Part("collect_env", start, end, platform=platform, packages=packages,
                interpreter=_interpreter(fields, packages), frameworks={"torch": torch} if torch else {})
    part.commands.update(_system_commands(platform, fields, cpu))
    part.commands.update(_gpu_commands(fields, gpus))
    if platform == "linux":
        part.cpu_flags = lscpu_flags(normalise_lscpu(cpu))
    return part
