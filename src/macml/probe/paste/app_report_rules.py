"""What GPU apps print about the machine they run on:

- NVIDIA Warp's start banner ('Warp 1.10.0 initialized:'): its 'CUDA Toolkit 12.8, Driver 13.0' line (the
  driver's CUDA version), the '"cpu" : "x86_64"' device (the machine's arch) and each '"cuda:0" : "NAME" (32 GiB,
  sm_120, ...)' device: one GPU with its memory and compute capability;
- LM Studio's hardware survey JSON ('"cpuInfo"' / '"memoryInfo"'): the CPU's '"architecture"' and '"ramCapacity"'
  in bytes; its runtime names carry the OS they are built for ('CUDA llama.cpp (Windows)', 'Vulkan llama.cpp for
  linux');
- a Windows display driver under a 'GPU Driver' key: the third field of its version says whose it is
  (AMD '32.0.13031.3015', NVIDIA '32.0.15.6094' = 560.94, Intel '31.0.101.5333');
- a driver version in brackets after a GPU's name ('GPU: AMD Radeon RX 6650 XT (Driver Version 23.10.2)');
- PrusaSlicer's system info 'Total RAM size [MB]: 17,180MB' (format_memsize_MB: millions of bytes, so 16 GiB), and
  macOS Installer's log 'Hardware: MacBookPro17,1 @ 2.40 GHz (x 8), 16384 MB RAM' (MiB);
- numba's `cuda.detect()`: "id 0    b'NVIDIA Quadro RTX 8000'    [SUPPORTED]", each CUDA device by its number;
- a numbered device list with each GPU's size after a middle dot, as ToshLLM's start banner prints it under 'GPUs
  detected:' ('    [1] AMD Radeon PRO W6800X · 31 GB'): each GPU by its number.
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.probe.paste.gpu_names import gpu_names, gpu_record, gpu_vendor
from macml.probe.paste.statement_rules import Facts
from macml.probe.paste.windows_tool_rules import windows_driver

_WARP_BANNER = re.compile(r"^\s*Warp \d+\.\d+(?:\.\d+)?\S* initialized:?\s*$")
_WARP_CUDA = re.compile(r"^\s*CUDA Toolkit:? (\d+\.\d+),? Driver:? (\d+\.\d+)\s*$")
_WARP_CPU = re.compile(r'^\s*"cpu"\s*:\s*"(x86_64|aarch64|arm64|AMD64)"\s*$')
_WARP_CUDA_DEVICE = re.compile(r'^\s*"cuda:(\d+)"\s*:\s*"([^"]+)"\s*\((\d+(?:\.\d+)?) GiB, sm_(\d{2,3})\b')
_WARP_END = 16  # the banner's lines: a few devices and the kernel cache path


def _capability(sm: str) -> str:
    """'120' -> '12.0', '86' -> '8.6'."""
    return f"{sm[:-1]}.{sm[-1]}"


def warp_banner(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what the Warp start banner above it states."""
    found: Dict[int, Facts] = {}
    for start, line in enumerate(lines):
        if not _WARP_BANNER.match(line):
            continue
        for index in range(start + 1, min(len(lines), start + 1 + _WARP_END)):
            text = lines[index]
            cuda, cpu, device = _WARP_CUDA.match(text), _WARP_CPU.match(text), _WARP_CUDA_DEVICE.match(text)
            if cuda:
                found.setdefault(index, []).append(("gpu.cuda_driver", cuda.group(2)))
            elif cpu:
                found.setdefault(index, []).append(("cpu.hardware_arch", cpu.group(1)))
            elif device:
                name = device.group(2).strip()
                found.setdefault(index, []).append(("gpu", {
                    "name": name, "vendor": gpu_vendor(name), "memory_mib": int(float(device.group(3)) * 1024),
                    "index": int(device.group(1)), "capability": _capability(device.group(4))}))
    return found


_SURVEY_KEYS = re.compile(r'"(?:cpuInfo|memoryInfo|hardwareSurveyResult|cpuSurveyResult|gpuSurveyResult)"\s*:')
_SURVEY_ARCH = re.compile(r'^\s*"architecture"\s*:\s*"(x86_64|arm64|aarch64)"\s*,?\s*$')
_SURVEY_RAM = re.compile(r'^\s*"ramCapacity"\s*:\s*(\d{9,13})\s*,?\s*$')


def lm_studio_survey(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the CPU arch and RAM of LM Studio's hardware survey, in a text that has its keys."""
    if not any(_SURVEY_KEYS.search(line) for line in lines):
        return {}
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        arch, ram = _SURVEY_ARCH.match(line), _SURVEY_RAM.match(line)
        if arch:
            found[index] = [("cpu.hardware_arch", arch.group(1))]
        elif ram:
            found[index] = [("cpu.memory_bytes", int(ram.group(1)))]
    return found


_RUNTIME_OS = re.compile(r"\b(?:CUDA(?: \d+(?:\.\d+)?)?|Vulkan|ROCm|CPU)\s+llama\.(?:cpp|app)\s*(?:\(|for\s+)(windows|linux)\b",
                         re.IGNORECASE)


def runtime_platform(line: str) -> Facts:
    """'CUDA llama.cpp (Windows)', 'CUDA llama.app for windows shows incompatible': LM Studio lists the runtimes
    built for the OS it runs on."""
    found = _RUNTIME_OS.search(line)
    return [("platform", "win32" if found.group(1).lower() == "windows" else "linux")] if found else []


_DRIVER_KEYS = ("gpu driver", "graphics driver", "display driver", "gpu driver version", "graphics driver version",
                "video driver", "devpkey device driverversion")  # the last: Windows' device property, as dumps print it


def windows_driver_vendor(version: str) -> str:
    """A Windows display driver version's third field: 5 digits AMD, 13-16 NVIDIA (13-14 before the 460s), 100+ Intel."""
    third = version.strip().split(".")[2] if version.count(".") == 3 else ""
    return ("AMD" if len(third) == 5 else "NVIDIA" if third in ("13", "14", "15", "16") else
            "Intel" if third.isdigit() and len(third) == 3 else "unknown")


def video_row(value: str) -> Facts:
    """d912pxy's summary 'Video: NVIDIA GeForce GTX 1050 Ti / 27.21.14.5671 / 20200930': a GPU, its Windows driver
    and the driver's date."""
    parts = [part.strip() for part in value.split(" / ")]
    names = gpu_names(parts[0]) if len(parts) == 3 and re.fullmatch(r"\d{8}", parts[2]) else []
    if len(names) != 1:
        return []
    vendor = gpu_vendor(names[0])
    driver = windows_driver(parts[1], vendor) if vendor in ("AMD", "NVIDIA") and windows_driver_vendor(parts[1]) == vendor else None
    return [("platform", "win32"), gpu_record(names[0])] + (
        [("gpu.driver_of", {"name": names[0], "driver": driver})] if driver else [])


# AMD's Windows driver package by its release ('Radeon Software version: 17.12.2', 'Adrenalin version: 24.3.1'):
# the Radeon Software / Adrenalin package is Windows' (Linux has AMDGPU-PRO, numbered 2x.x0)
_RADEON_SOFTWARE_KEYS = ("radeon software version", "adrenalin version", "adrenalin edition version",
                         "radeon software adrenalin version", "amd software version")


def keyed_facts(key: str, value: str) -> Facts:
    if key == "video":
        return video_row(value)
    release = re.match(r"^\s*(\d{2}\.\d{1,2}\.\d{1,2})\b", value) if key in _RADEON_SOFTWARE_KEYS else None
    if release:
        return [("platform", "win32"), ("gpu.present", "AMD"), ("gpu.driver", release.group(1))]
    if key not in _DRIVER_KEYS:
        return []
    vendor = windows_driver_vendor(value.split()[0] if value.split() else "")
    driver = windows_driver(value.split()[0], vendor) if vendor in ("AMD", "NVIDIA") else None
    return [("platform", "win32"), ("gpu.driver", driver)] if driver else []


_BRACKET_DRIVER = re.compile(r"\(\s*(?:Driver|Adrenalin)(?: Version| v\.?)?:?\s*v?(\d+\.\d+(?:\.\d+)*)\s*\)", re.IGNORECASE)


def bracket_driver(line: str) -> Facts:
    """'GPU: GIGABYTE AMD Radeon RX 6650 XT (Driver Version 23.10.2)', 'GPU: Nvidia Quadro M5000, GTX 1070 (driver v.
    576.80)': the driver of the GPUs just named."""
    found = _BRACKET_DRIVER.search(line)
    if not found or not gpu_names(line[:found.start()]):
        return []
    return [("gpu.driver", found.group(1))]


_PRUSA_RAM = re.compile(r"^\s*Total RAM size \[MB\]:\s*(\d{1,3}(?:,\d{3})+|\d{3,7})\s*MB\s*$")


_INSTALLER_HARDWARE = re.compile(r"^\s*Hardware:\s*[A-Za-z]+\d{1,2},\d\s*@.*?,\s*(\d{4,7}) MB RAM\s*$")


def app_memory(line: str) -> Facts:
    """The machine's memory as PrusaSlicer (millions of bytes) or macOS Installer's log (MiB) print it."""
    found = _PRUSA_RAM.match(line)
    installer = _INSTALLER_HARDWARE.match(line)
    return ([("cpu.memory_bytes", int(found.group(1).replace(",", "")) * 1000**2)] if found else []) + (
        [("cpu.memory_bytes", int(installer.group(1)) * 1024**2)] if installer else [])


_NUMBA_DEVICE = re.compile(r"^\s*id (\d{1,2})\s+b'([^']+)'\s+\[(?:SUPPORTED|UNSUPPORTED[^\]]*)\]\s*$")


def numba_device(line: str) -> Facts:
    found = _NUMBA_DEVICE.match(line)
    if not found or gpu_vendor(found.group(2)) != "NVIDIA":
        return []
    return [gpu_record(found.group(2), index=int(found.group(1)))]


_DOTTED_DEVICE = re.compile(r"^\s*\[(\d{1,2})\]\s+(\S.*?)\s+·\s+\d{1,3}(?:\.\d{1,2})?\s?GB\s*$")


def dotted_device(line: str) -> Facts:
    found = _DOTTED_DEVICE.match(line)
    names = gpu_names(found.group(2)) if found else []
    if len(names) != 1:
        return []
    return [gpu_record(names[0], index=int(found.group(1)))]


def line_facts(line: str) -> Facts:
    return runtime_platform(line) + bracket_driver(line) + app_memory(line) + numba_device(line) + dotted_device(line)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    for part in (warp_banner(lines), lm_studio_survey(lines)):
        for index, facts in part.items():
            found.setdefault(index, []).extend(facts)
    return found

