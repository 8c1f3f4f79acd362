"""Set 8's Linux clues, each a pure function over one line (or one `key: value` pair) returning stated facts.

- A distribution and its version opening a sentence: 'Ubuntu Server 22.04 LTS with Python 3.11 and Tesla K40.'
  (and as the answer to a 'host' / 'docker' / 'container' key: '**host**: ubuntu 22.04 with kernel 5.19').
- A build target triple a tool prints about the machine it runs on: `text-generation-launcher --env`'s
  'Target: x86_64-unknown-linux-gnu', `rustc -vV`'s 'host: ...', `gcc -v`'s 'Target: x86_64-linux-gnu'.
- A `dpkg -l` row: 'ii  cudnn-local-repo-ubuntu2204-8.9.7.29  1.0-1  amd64  cudnn-local ...' (Debian's
  architecture names: amd64 is x86_64, arm64 is aarch64; 'all' says nothing).
- LLVM's host CPU name (numba -s 'CPU Name : skylake', `llc --version` 'Host CPU: znver3', Julia's '(ORCJIT,
  alderlake)') names the hardware's architecture; numba -s 'Python Compiler : MSC v.1915 64 bit (AMD64)' the Python's.
- ollama's 'msg="system memory" total="31.1 GiB"' / 'msg="updating system memory data" before.total="61.4 GiB"'.
- A list item that is only the RAM: '- 128GB RAM', '* 64 GB DDR5 memory'.
- nvtop's header: 'Device 0 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x ...' (often two devices a line), with each
  device's 'MEM[|||  0.349Gi/23.988Gi]' on a following line in the same order.
- A Go log's source file: ollama's 'source=cpu_windows.go:139' (Go compiles a file named *_windows.go only for
  Windows, *_linux.go only for Linux, *_darwin.go only for macOS).
- An OS answer naming WSL and its distribution: 'Windows version: 10.0.19045.6466 WSL2 Ubuntu 24.04.4 LTS' is
  Ubuntu (a Python in WSL runs on Linux).
- ollama's GPU discovery, finished, that reports only non-CUDA devices: no NVIDIA driver answered it.
- 'the operating system is Linux', 'My OS is Windows 11': the OS in a sentence.
- 'NVIDIA Graphics Device' in a GPU field: how the driver names a board it has no name for (an A800, a new part).
- lscpu's 'Vulnerability Srbds: Not affected' rows: Linux's own report (/sys/devices/system/cpu/vulnerabilities).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.llvm_cpus import llvm_cpu_arch
from macml.probe.paste.gpu_names import gib, gpu_record

Facts = List[Tuple[str, Any]]

# How each distribution spells itself (os-release NAME), keyed by the lower-cased words people write.
_DISTRO_NAMES = {"ubuntu": "Ubuntu", "ubuntu server": "Ubuntu Server", "ubuntu desktop": "Ubuntu Desktop",
                 "debian": "Debian", "fedora": "Fedora", "centos": "CentOS", "rocky linux": "Rocky Linux",
                 "almalinux": "AlmaLinux", "opensuse leap": "openSUSE Leap", "linux mint": "Linux Mint",
                 "pop!_os": "Pop!_OS", "rhel": "RHEL", "red hat enterprise linux": "Red Hat Enterprise Linux"}
_DISTRO_OPENS = re.compile(r"^\s*(?:[-*>]\s+|#+\s*(?:\[\w+\]:?\s*)?)?(" + "|".join(re.escape(k) for k in sorted(_DISTRO_NAMES, key=len, reverse=True))
                           + r")\s+(\d{1,2}(?:\.\d{1,2}){0,2})(\s+LTS)?(?=[\s,;.)]|$)(?!\.\d)", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|never|no longer|without|except|instead)\b|n't\b|\bvs\.?\b", re.IGNORECASE)
_HOST_KEYS = ("host", "host os", "docker", "container", "os/host", "host system", "env", "environment")
_TRIPLE = re.compile(r"^(x86_64|amd64|aarch64|arm64)-(?:unknown-|pc-)?linux-(?:gnu|musl)\w*$")
_TRIPLE_KEYS = ("target", "host", "build target")
_DPKG_ROW = re.compile(r"^\s*[uihrp][inucfhWt]\s+\S+\s+\S+\s+(amd64|arm64|i386|armhf|ppc64el|s390x)\s+\S")
_DEBIAN_ARCH = {"amd64": "x86_64", "arm64": "aarch64"}


def distro_opening(text: str) -> Facts:
    """'Ubuntu Server 22.04 LTS with Python 3.11 and Tesla K40.' -> linux, 'Ubuntu Server 22.04 LTS';
    'ubuntu 22.04 with kernel 5.19' -> 'Ubuntu 22.04'; an issue's title, '# [Issue]: Ubuntu 24.04.4 crashing every other
    day'. Nothing from 'Ubuntu 22.04 is not supported'."""
    found = _DISTRO_OPENS.match(text)
    if not found or _NEGATED.search(text):
        return []
    name = _DISTRO_NAMES[found.group(1).lower()] + " " + found.group(2) + (" LTS" if found.group(3) else "")
    return [("platform", "linux"), ("os.name", name)]


def target_triple(key: str, value: str) -> Facts:
    """'Target: x86_64-unknown-linux-gnu' -> linux on x86_64; 'host: aarch64-unknown-linux-gnu' -> aarch64."""
    found = _TRIPLE.match(value.strip()) if key in _TRIPLE_KEYS else None
    if not found:
        return []
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(found.group(1), found.group(1))
    return [("platform", "linux"), ("cpu.hardware_arch", arch)]


def dpkg_row(line: str) -> Facts:
    """'ii  libcudnn8  8.9.7.29-1+cuda11.8  amd64  cuDNN runtime libraries' -> linux on x86_64."""
    found = _DPKG_ROW.match(line)
    if not found:
        return []
    arch = _DEBIAN_ARCH.get(found.group(1))
    return [("platform", "linux")] + ([("cpu.hardware_arch", arch)] if arch else [])


_LLVM_CPU_KEYS = ("cpu name", "host cpu")
_ORCJIT = re.compile(r"\(ORCJIT,\s*([\w-]+)\)")
_MSC = re.compile(r"^MSC v\.\d+ (?:64|32) bit \((AMD64|ARM64|Intel)\)$")
_MSC_MACHINE = {"AMD64": "x86_64", "ARM64": "arm64", "Intel": "x86"}


def llvm_cpu(key: str, value: str) -> Facts:
    """'CPU Name: skylake' (numba -s), 'Host CPU: znver3' (llc --version) -> the hardware is x86_64."""
    arch = llvm_cpu_arch(value) if key in _LLVM_CPU_KEYS else None
    return [("cpu.hardware_arch", arch)] if arch else []


def python_compiler(key: str, value: str) -> Facts:
    """numba -s 'Python Compiler : MSC v.1915 64 bit (AMD64)' -> a Windows x86_64 Python."""
    found = _MSC.match(value.strip()) if key == "python compiler" else None
    return [("platform", "win32"), ("python.machine", _MSC_MACHINE[found.group(1)])] if found else []


_OLLAMA_MEMORY = re.compile(r'msg="?(?:updating )?system memory(?: data)?"?.*?\b(?:before\.)?total="?([\d.]+ ?[GMT]iB)"?')
_RAM_ITEM = re.compile(r"^\s*[-*•]\s+(\d{1,4})\s?GB\s+(?:of\s+)?(?:(?:LP)?DDR\d\w*\s+)?(?:RAM|memory|system memory)\s*$",
                       re.IGNORECASE)


def memory_line(line: str) -> Facts:
    """ollama's 'msg="system memory" total="31.1 GiB"'; a list item '- 128GB RAM' -> the machine's memory."""
    found = _OLLAMA_MEMORY.search(line)
    size = gib(found.group(1)) if found else None
    item = _RAM_ITEM.match(line) if size is None else None
    size = gib(item.group(1) + " GB") if item else size
    return [("cpu.memory_bytes", size)] if size else []


_GPU_KEYS = ("gpu type", "gpu", "gpu name", "gpu models and configuration", "device name", "gpu model")
_UNNAMED_NVIDIA = re.compile(r"^(?:GPU \d+:\s*)?(NVIDIA Graphics Device)\b(?!.*\bNVIDIA\s+\w*\d)")


def unnamed_nvidia(key: str, value: str) -> Facts:
    """'GPU type: NVIDIA Graphics Device' -> an NVIDIA GPU the driver has no marketing name for."""
    found = _UNNAMED_NVIDIA.match(value.strip()) if key in _GPU_KEYS else None
    return [gpu_record(found.group(1))] if found else []


_WSL_DISTRO = re.compile(r"\bWSL\s*2?\b[\s:,/-]*(?:with\s+|running\s+)?((?:" + "|".join(
    re.escape(k) for k in sorted(_DISTRO_NAMES, key=len, reverse=True)) + r")(?![A-Za-z]).*)$", re.IGNORECASE)


def wsl_distro(value: str) -> str:
    """'Windows version: 10.0.19045.6466 WSL2 Ubuntu 24.04.4 LTS (Noble Numbat)' -> 'Ubuntu 24.04.4 LTS (Noble Numbat)';
    '' where no WSL distribution is named."""
    found = _WSL_DISTRO.search(value)
    if not found or _NEGATED.search(value):
        return ""
    named = re.sub(r"^([A-Za-z]+)(\d{1,2}\.\d{1,2}(?:\.\d+)?)\b", r"\1 \2", found.group(1).strip())  # 'Ubuntu22.04'
    return re.sub(r"^([A-Za-z]+)\d{3,4}\b", r"\1", named)  # 'Ubuntu2202' names no release: only the distribution


_VULNERABILITY = re.compile(r"^\s*Vulnerability\s+[A-Z][\w ]{1,30}:\s+(?:Not affected|Mitigation|Vulnerable|KVM)\b")


# ubuntu-drivers' device header: '== /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0 ==' (Linux's sysfs)
_UBUNTU_DRIVERS_DEVICE = re.compile(r"^\s*== /sys/devices/\S+ ==\s*$")


def line_facts(line: str) -> Facts:
    if _VULNERABILITY.match(line) or _UBUNTU_DRIVERS_DEVICE.match(line):
        return [("platform", "linux")]
    jit = _ORCJIT.search(line)
    arch = llvm_cpu_arch(jit.group(1)) if jit else None
    return (distro_opening(line.replace("**", "")) + dpkg_row(line) + memory_line(line) + os_sentence(line) + go_source_platform(line)
            + ([("cpu.hardware_arch", arch)] if arch else []))


def keyed_facts(key: str, value: str) -> Facts:
    facts = target_triple(key, value) + llvm_cpu(key, value) + python_compiler(key, value) + unnamed_nvidia(key, value)
    if key in _HOST_KEYS:
        facts += distro_opening(value)
    return facts


_NVTOP_DEVICE = re.compile(r"\bDevice (\d{1,2}) \[([^\]]{3,60})\] PCIe GEN \d")
_NVTOP_MEM = re.compile(r"\bMEM\[[|\s]*[\d.]+[GM]i/([\d.]+)([GM])i\]")


def nvtop_devices(lines: Sequence[str]) -> Dict[int, Facts]:
    """nvtop's header lines -> one GPU per 'Device N [name]', with the total of the N-th MEM[...] below it in MiB
    ('23.988Gi' is nvtop's GiB with three decimals: 24564 MiB)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        devices = _NVTOP_DEVICE.findall(line)
        if not devices:
            continue
        below = next((_NVTOP_MEM.findall(l) for l in lines[index + 1:index + 4] if _NVTOP_MEM.search(l)), [])
        facts: Facts = []
        for place, (number, name) in enumerate(devices):
            record = gpu_record(name.strip(), index=int(number))
            if len(below) == len(devices):
                size, unit = below[place]
                record[1]["memory_mib"] = round(float(size) * (1024 if unit == "G" else 1))
            facts.append(record)
        found[index] = facts + [("platform", "linux")]  # nvtop reads Linux's DRM and NVML
    return found


_OS_SENTENCE = re.compile(r"\b(?:the |my |our )?(?:operating system|OS)(?:\s+(?:is|was)\s+|\s*:\s*)(Linux|Windows|macOS)\b", re.IGNORECASE)
_PLATFORMS = {"linux": "linux", "windows": "win32", "macos": "darwin"}


def os_sentence(line: str) -> Facts:
    """'... and the operating system is Linux.' -> linux; 'My OS is Windows 11' -> win32."""
    found = _OS_SENTENCE.search(line)
    if not found or _NEGATED.search(line[:found.end()]):
        return []
    return [("platform", _PLATFORMS[found.group(1).lower()])]


_GO_SOURCE = re.compile(r"\bsource=[\w./-]*?_(windows|linux|darwin)(?:_(?:amd64|arm64))?\.go:\d+")
_GO_PLATFORMS = {"windows": "win32", "linux": "linux", "darwin": "darwin"}


def go_source_platform(line: str) -> Facts:
    """'level=INFO source=cpu_windows.go:139 msg=packages count=1' -> win32."""
    found = _GO_SOURCE.search(line)
    return [("platform", _GO_PLATFORMS[found.group(1)])] if found else []


_DISCOVERY = re.compile(r'msg="(?:discovering available GPUs|looking for compatible GPUs)')
_COMPUTE = re.compile(r'msg="inference compute".*?\blibrary="?(\w+)', re.IGNORECASE)
_HIDDEN_CUDA = re.compile(r"CUDA_VISIBLE_DEVICES|ollama/ollama:rocm|\blibrary=cuda", re.IGNORECASE)


def ollama_no_cuda(lines: Sequence[str]) -> Dict[int, Facts]:
    """ollama's discovery ('discovering available GPUs...'), then 'inference compute' lines with only library=ROCm /
    Vulkan / cpu, then the log going on: ollama's builds carry CUDA's libraries, so no NVIDIA driver answered.
    Nothing where discovery is cut off, where CUDA_VISIBLE_DEVICES may hide a GPU, or in a ROCm-only image."""
    start = next((i for i, line in enumerate(lines) if _DISCOVERY.search(line)), None)
    computes = [i for i, line in enumerate(lines) if _COMPUTE.search(line)]
    if start is None or not computes or any(_HIDDEN_CUDA.search(line) for line in lines):
        return {}
    finished = any(line.strip() and not _COMPUTE.search(line) for line in lines[computes[-1] + 1:])
    return {computes[0]: [("gpu.absent", "NVIDIA")]} if finished and computes[0] > start else {}


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what the lines around it decide (nvtop's header, ollama's GPU discovery)."""
    found = nvtop_devices(lines)
    for index, facts in ollama_no_cuda(lines).items():
        found[index] = found.get(index, []) + facts
    return found
