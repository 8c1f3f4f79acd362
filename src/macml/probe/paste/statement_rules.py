"""The vocabulary of statements: which `key: value` lines and which patterns state which fact.

Each function returns (fact, value) pairs; statements.py attaches the line. Facts:
platform, os.name, os.version (macOS or distribution release), os.build, os.darwin (Darwin kernel
release), os.kernel (Linux), cpu.brand, cpu.model (Mac model identifier), cpu.hardware_arch,
cpu.memory_bytes, process.arch / process.translated (a process's, e.g. a shell's or a crashed app's),
python.version, python.machine, gpu ({name, vendor, memory_mib}), gpu.driver, gpu.cuda_driver,
gpu.gfx, package ({name, version}), torch.version, torch.cuda_version (None: a build without CUDA),
torch.hip_version, torch.cuda_available, hypervisor, hypervisor.none (a report saying it runs on bare metal).
"""
from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

from macml.knowledge.hardware import chip_of_kernel
from macml.probe.paste.gpu_names import CHIP as _CHIP, gib, gpu_names, gpu_record, gpu_value, plaidml_devices
from macml.probe.paste.linux_clues_rules import wsl_distro
from macml.probe.paste.log_rules import log_line_facts
from macml.probe.paste.packages import canonical
from macml.probe.paste.report_rules import report_line_facts
from macml.probe.paste.system_rules import (MODEL_ID as _MODEL_ID, NO_SUCH_MACOS as _NO_SUCH_MACOS, X86_SYSCTL,
                                           arch_word as _arch, conda_virtual_packages)

Facts = List[Tuple[str, Any]]

_VERSION = r"\d+(?:\.\d+)+"
# 'macOS 14.5', 'MacOS 13.0.1', 'Mac OS Big Sur Version 11.6'; never a binary's 'built for Mac OS X 12.0'
_MACOS = re.compile(r"(?<!built for )(?<!built for Mac )\b(?:[Mm]ac ?OS ?X|OS X|[Mm]ac ?OS|macos|Mac [Vv]ersion)(?:\s+(?:[A-Z][a-z]+|[Vv]ersion)){0,3}"
                    r"[\s-]+(1[0-9]|2[0-9])((?:\.\d+){1,2})\b"
                    r"|\bMac Version \((1[0-9]|2[0-9]), (\d+)\)")
_MACOS_BUILD = re.compile(r"\b(?:macOS|Mac OS X|OS X)\b[^()]*\((\d{2}[A-Z]\d{1,4}[a-z]?)\)")
_DARWIN = re.compile(r"\bDarwin(?: Kernel Version|\s+\S+)?\s+(\d{2}\.\d+\.\d+)\b|release='(\d{2}\.\d+\.\d+)'.*system='Darwin'"
                     r"|system='Darwin'.*release='(\d{2}\.\d+\.\d+)'")
_XNU_ARCH = re.compile(r"RELEASE_(ARM64|X86_64)")
_INTEL_BRAND = re.compile(r"\b(Intel\(R\) (?:Core\(TM\)|Xeon\(R\)|Celeron\(R\)|Pentium\(R\))[^,;|\"]*?"
                          r"(?:@ ?[\d.]+ ?GHz|CPU\b[^,;|\"]*|[\w-]*\d[\w-]*(?=\s*$))|Intel Core (?:i\d|2 Duo|m\d)\b|Intel Xeon\b)")
# Homebrew's names for Apple-silicon core designs (brew config's CPU line)
_APPLE_CORES = re.compile(r"\barm_(?:firestorm|icestorm|blizzard|avalanche|everest|sawtooth|ibiza|lobos|palma|donan|brava)(?![a-z])")
_AMD_BRAND = re.compile(r"\b(AMD (?:Ryzen|EPYC|Athlon|Threadripper)[\w -]*?\d[\w-]*(?: \d+-Core Processor)?)\b")
_CONDA_PLATFORM = re.compile(r"\b(osx-arm64|osx-64|linux-64|linux-aarch64|win-64)\b")
_WINDOWS_SIGN = re.compile(r"^\s*(?:\([\w.-]+\)\s*)?PS [A-Z]:\\|(?<![\w/])[A-Z]:\\[\w .$()-]+\\")
_PYTHON_BANNER = re.compile(r"^\s*(?:#\s*)?Python (3\.\d{1,2}\.\d{1,2})\b")
_PLATFORM_STRING = re.compile(r"\b(macOS|Linux|Windows)-([\w.+~-]+?)-(x86_64|arm64|aarch64|i386|AMD64)\b")
_HYPERVISORS = (("vmware", "VMware"), ("virtualbox", "VirtualBox"), ("parallels", "Parallels"),
                ("qemu", "QEMU"), ("kvm", "KVM"), ("hyper-v", "Hyper-V"), ("xen", "Xen"),
                ("apple virtual machine", "Apple Virtual Machine"), ("virtualmac", "Apple Virtual Machine"))
_NOT_PACKAGES = {"python", "version", "os", "cuda", "cudnn", "gcc", "clang", "cmake", "nvcc", "driver", "platform",
                 "system", "machine", "processor", "release", "architecture", "available", "gpu", "cpu", "memory",
                 "kernel", "build", "date", "time", "uptime", "bogomips", "pid", "port", "commit", "llvm", "hip", "rocm", "msvc",
                 "libc version", "is debug build", "julia version", "word size", "report version", "mkl", "opencv"}
_DIST_NAME = re.compile(r"^[a-z][a-z0-9._-]*$")
_UNIT_AFTER = re.compile(r"\d(?:[KMGT]i?B?|[MG]Hz|W|C|%)$")  # 'Swap: 4.0Gi', 'totalMemory: 2.00GiB' are sizes, not versions
_DARWIN_RELEASE = re.compile(r"(?:1\d|2\d)\.\d\.\d+")  # platform.release() on macOS; Ubuntu's 22.04.3 has two-digit minors
_NOT_VERSIONED = {"bios", "vbios", "firmware", "kernel", "glibc", "libc", "app", "api", "sdk", "xcode", "metal", "opengl",
                  "vulkan", "boot rom", "smc", "protocol", "model", "cpu", "gpu", "os", "system", "software"}
_ALIASES = {"pytorch": "torch", "pytorch.version": "torch", "torch version": "torch", "pytorch version": "torch", "tensorflow version": "tensorflow",
            "keras version": "keras", "numpy version": "numpy", "sklearn": "scikit-learn"}  # show_versions: import names


def _platform_word(value: str) -> Optional[str]:
    word = value.strip().lower()
    if word.startswith(("darwin", "macos", "mac os", "os x", "osx")):
        return "darwin"
    if word.startswith(("linux", "ubuntu", "debian", "centos", "red hat", "fedora", "rocky", "arch linux", "opensuse",
                        "kali", "linux mint", "manjaro", "pop!_os", "almalinux", "alpine", "gentoo")):
        return "linux"
    if word.startswith(("win32", "windows", "microsoft windows")) or word == "nt":  # os.name on Windows
        return "win32"
    return None


def _os_line(value: str) -> Facts:
    facts, value = [], wsl_distro(value) or value  # 'Windows 10 ... WSL2 Ubuntu 24.04': Python runs in the Ubuntu
    platform = _platform_word(value)
    if platform:
        facts.append(("platform", platform))
    if re.match(r"^\s*(?:Linux|Windows)-\d", value):  # platform.platform(): a kernel or build, not the OS's name
        return facts
    named = re.sub(r"\s*\([^)]*\)", "", value).strip()  # '(x86_64)', '(x86_64-linux-gnu)', '(bookworm)'
    if platform == "linux" and re.search(r"\b\d+(?:\.\d+)*\b", named):
        facts.append(("os.name", named))
    elif platform == "linux" and re.search(r"\(\d+(?:\.\d+)+\)", value):  # 'Kali Linux Rolling (2018.2)'
        facts.append(("os.name", value.strip()))
    if platform == "win32" and "windows" in value.lower():
        facts.append(("os.name", re.sub(r"\s*\(\w+\)\s*$", "", value.strip())))
    return facts


def _python_platform(value: str) -> Facts:
    match = _PLATFORM_STRING.search(value)
    if not match:
        return []
    system, version, machine = match.groups()
    facts: Facts = [("platform", {"macOS": "darwin", "Linux": "linux", "Windows": "win32"}[system]),
                    ("python.machine", _arch(machine) or machine)]
    if system == "macOS" and version not in ("10.16",) and re.match(r"^1\d\.\d+", version):
        facts.append(("os.version", version))  # 10.16 is the compatibility answer of old-SDK Pythons
    return facts


def _python_version(value: str) -> Facts:
    """'3.12.9 (main, ...)', 'Python 3.8.2', '3.12.1.final.0 (64 bit)'."""
    found = re.match(r"(?:Python )?(3\.\d+\.\d+)", value.strip())
    return [("python.version", found.group(1))] if found else []


def _torch_cuda(value: str) -> Facts:
    """'12.1', or 'None': a build without CUDA (the statement says so; a missing line says nothing)."""
    build = value.strip()
    if build.lower() in ("none", "n/a"):
        return [("torch.cuda_version", None)]
    return [("torch.cuda_version", build)] if re.match(r"^\d+\.\d+", build) else []


def _available(value: str) -> Facts:
    word = value.strip().lower()
    if word.startswith(("true", "yes")):
        return [("torch.cuda_available", True)]
    if word.startswith(("false", "no")):
        return [("torch.cuda_available", False)]
    return []


def _package(name: str, value: str) -> Facts:
    version = re.match(r"^v?(\d+(?:\.\d+)+(?:[.+-]?[A-Za-z0-9]+)*?)(?:-\d+-g[0-9a-f]{7,40})?(?:\s|@|$|\s*\()", value.strip() + " ")
    name = _ALIASES.get(name, name)
    if not version or name in _NOT_PACKAGES or not _DIST_NAME.match(name) or _UNIT_AFTER.search(version.group(1)):
        return []
    facts: Facts = [("package", {"name": canonical(name), "version": version.group(1)})]
    if name == "torch":
        facts.append(("torch.version", version.group(1)))
    return facts


def _macos_value(value: str) -> Facts:
    """brew config's 'macOS: 11.1-arm64', an app's 'macOS: Version 26.4 (Build 25E246)'."""
    version = re.search(r"\b(1[0-9]|2[0-9])\.\d+(?:\.\d+)?\b", value)
    if not version or _NO_SUCH_MACOS.match(version.group()):
        return []
    facts: Facts = [("platform", "darwin"), ("os.version", re.sub(r"^(\d+\.\d+)\.0$", r"\1", version.group()))]
    build = re.search(r"\bBuild (\w+)\)?", value)
    if build:
        facts.append(("os.build", build.group(1)))
    arch = re.search(r"-(arm64|x86_64)\b", value)
    if arch:
        facts.append(("process.arch", arch.group(1)))
    return facts


def _processor(value: str) -> Facts:
    """platform.processor() ('i386' is macOS's x86_64 Python, Linux prints the arch), hostinfo's
    'arm64e (ARM64E)', or a processor's name."""
    word = value.strip().split()[0].lower() if value.strip() else ""
    if word == "i386":
        return [("python.machine", "x86_64")]
    if word in ("arm64e", "arm64e,"):
        return [("cpu.hardware_arch", "arm64")]
    if word in ("x86_64", "aarch64", "arm64"):
        return [("python.machine", _arch(word))]
    return []


def _model_line(value: str) -> Facts:
    """A crash report's 'Model: iMac14,2, BootROM ..., 4 processors, Intel Core i5, 3.2 GHz, 8 GB, SMC ...'."""
    facts: Facts = [("cpu.memory_bytes", b) for b in [gib(m.group()) for m in
                                                      re.finditer(r"(?<=, )\d+ GB(?=,)", value)] if b][:1]
    intel = re.search(r"\b(Intel Core (?:i\d|2 Duo|m\d)|Intel Xeon \w*)", value)
    if intel:
        facts.append(("cpu.brand", intel.group(1)))
    return facts


BY_KEY = {
    "os": _os_line, "operating system": _os_line, "os version": _os_line, "osversion": _os_line,
    "sys.platform": lambda v: [("platform", p) for p in [_platform_word(v)] if p],
    "system": lambda v: [("platform", p) for p in [_platform_word(v)] if p and len(v.split()) <= 3],
    "python platform": _python_platform,
    "platform": lambda v: _python_platform(v) or (_os_line(v) if _platform_word(v) and len(v.split()) <= 3 else []),
    "python version": lambda v: _python_version(v),
    "python": lambda v: _python_version(v),
    "cuda used to build pytorch": _torch_cuda, "rocm used to build pytorch":
        lambda v: [("torch.hip_version", v.strip())] if re.match(r"^\d", v.strip()) else [],
    "is cuda available": _available, "cuda available": _available, "available": _available,
    "pytorch version": lambda v: _package("torch", v), "torch version": lambda v: _package("torch", v),
    "pytorch": lambda v: _package("torch", v),
    "gpu available": lambda v: _available("no" if v.lower().startswith("no") else v),
    "gpu models and configuration": gpu_value, "gpu": gpu_value, "gpu 0": gpu_value, "gpu name": gpu_value,
    "chipset model": gpu_value, "graphics": gpu_value, "gpu type": gpu_value, "device name": gpu_value,
    "nvidia driver version": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "driver version": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "kmd version": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "cuda umd version": lambda v: [("gpu.cuda_driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "machine": lambda v: [("process.arch", a) for a in [_arch(v)] if a],
    "uname -m": lambda v: [("process.arch", a) for a in [_arch(v)] if a],
    "processor": _processor, "processor type": _processor,
    "macos": _macos_value, "macos version": _macos_value, "system version": _macos_value,
    "release": lambda v: [("os.darwin", v.strip())] if _DARWIN_RELEASE.fullmatch(v.strip()) else [],
    "rosetta 2": lambda v: [("process.translated", v.strip().lower() == "true")] if v.strip().lower() in ("true", "false") else [],
    "arch string raw": lambda v: [("python.machine", a) for a in [_arch(v)] if a],  # py-cpuinfo runs in Python
    "brand raw": lambda v: [("cpu.brand", v.strip())] if v.strip() else [],
    "gpu cores": lambda v: [("gpu.cores", int(v.split()[0]))] if v.split() and v.split()[0].isdigit() else [],
    "uname -r": lambda v: [("os.darwin", v.strip())] if re.fullmatch(r"\d{2}\.\d+\.\d+", v.strip()) else [],
    "uname -s": lambda v: [("platform", p) for p in [_platform_word(v)] if p],
    "model identification": lambda v: [("cpu.model", v.strip().replace(".", ","))]
        if re.fullmatch(r"[A-Za-z]+\d+[.,]\d+", v.strip()) else [],
    "code type": lambda v: ([("process.arch", a) for a in [_arch(v)] if a]
                            + [("platform", "darwin")]
                            + ([("process.translated", True)] if "translated" in v.lower() else [])),
    "translated": lambda v: ([("process.translated", v.strip().lower() in ("true", "1"))]
                             if v.strip().lower() in ("true", "1", "false", "0") else []),
    "cputype": lambda v: [("process.arch", a) for a in [_arch(v)] if a],
    "gpu model": gpu_value, "marketing name": gpu_value,
    "card series": lambda v: [("platform", "linux")] + ([gpu_record(v.strip())] if gpu_names(v) else []),  # rocm-smi's name
    "gfx version": lambda v: [("platform", "linux")] + [("gpu.gfx", m.group()) for m in [re.search(r"gfx[0-9a-f]+", v.lower())] if m],
    "asic name": lambda v: [("gpu.gfx", m.group()) for m in [re.search(r"gfx[0-9a-f]+", v.lower())] if m],
    "vram size": lambda v: [("gpu.memory_of", {"index": None, "memory_mib": b // 1024**2}) for b in [gib(v)] if b],
    "driver used": lambda v: [("platform", "linux")] if v.strip() in ("amdgpu", "nvidia", "radeon") else [],
    "cuda driver version": lambda v: ([("gpu.driver", v.split()[0])] if re.match(r"\d{3}\.\d+", v)
                                      else [("gpu.cuda_driver", v.split()[0])] if re.match(r"\d{1,2}\.\d", v) else []),
    "sysctl.proc translated": lambda v: [("process.translated", v.strip() == "1")] if v.strip() in "01" else [],
    "hw.optional.arm64": lambda v: [("cpu.hardware_arch", "arm64" if v.strip() == "1" else "x86_64")]
        if v.strip() in ("0", "1") else [],
    "memory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "unified memory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "memory (system)": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "total memory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "physical memory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "hw.memsize": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "ram": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "physicalmemory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "primary memory available": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "is xpu available": lambda v: [("gpu.present", "Intel")] if v.strip().lower().startswith("true") else [],
    "model": _model_line, "hardware model": _model_line,
    "os platform and distribution": _os_line,  # TensorFlow's issue form
    "gpu model and memory": gpu_value, "gpu.name": gpu_value,
    "pytorch version (gpu?)": lambda v: _package("torch", v) + _available(  # transformers-cli env: '2.0.1 (False)'
        "".join(re.findall(r"\((True|False)\)", v))),
    "pytorch.cuda": lambda v: _available("true" if v.strip().lower() == "available" else v),  # xformers.info
    "gpu.compute capability": lambda v: [("gpu.capability", {"name": None, "capability": v.strip()})]
        if re.fullmatch(r"\d{1,2}\.\d", v.strip()) else [],
    "cuda capability major/minor version number": lambda v: [("gpu.capability", {"name": None, "capability": v.strip()})]
        if re.fullmatch(r"\d{1,2}\.\d", v.strip()) else [],  # deviceQuery
    "total amount of global memory": lambda v: [("gpu.memory_of", {"index": None, "memory_mib": int(m.group(1))})
                                                for m in [re.match(r"(\d+) MBytes", v.strip())] if m],
    "cuda driver version / runtime version": lambda v: [fact for m in [re.match(r"(\d+\.\d+)\s*/", v.strip())] if m
                                                        for fact in (("gpu.cuda_driver", m.group(1)), ("gpu.present", "NVIDIA"))],
    "macosversion": _macos_value,
    "ramgb": lambda v: [("cpu.memory_bytes", b) for b in [gib(v.strip() + " GB")] if b and re.fullmatch(r"\d+", v.strip())],
    "product name": gpu_value, "description": _os_line, "distributor id": _os_line,
}


def by_key(key: str, value: str) -> Facts:
    if key in X86_SYSCTL:
        return [("platform", "darwin"), ("cpu.x86_features", f"{key}: {value}"[:200])]
    in_unit = re.fullmatch(r"(?:installed |total ?)?physical ?memory \((gb|mb)\)|ram \((gb|mb)\)", key)
    if in_unit and re.fullmatch(r"\d+(?:\.\d+)?", value.strip()):  # xpuinfo's 'Installed Physical Memory (GB): 96'
        return [("cpu.memory_bytes", gib(f"{value.strip()} {(in_unit.group(1) or in_unit.group(2)).upper()}"))]
    handler = BY_KEY.get(key)
    if handler is not None:
        return handler(value)
    if re.fullmatch(r"gpu\s*\d+|gpu\[\d+\]", key):
        return gpu_value(value, int(re.search(r"\d+", key).group()))
    named = re.fullmatch(r"([a-z][\w.-]*) version", key)  # 'transformers Version: 5.15.0', 'xformers version: 0.0.20'
    if named and named.group(1) not in _NOT_VERSIONED:
        return _package(named.group(1), value)
    return _package(key, value) if " " not in key else []


def anywhere(line: str) -> Facts:
    """Patterns that state a fact wherever they stand in a line."""
    facts: Facts = []
    for match in _MACOS.finditer(line):
        version = match.group(1) + match.group(2) if match.group(1) else f"{match.group(3)}.{match.group(4)}"
        version = re.sub(r"^(\d+\.\d+)\.0$", r"\1", version)  # 'macOS 14.5.0' is sw_vers' 14.5
        if not _NO_SUCH_MACOS.match(version):
            facts += [("platform", "darwin"), ("os.version", version)]
    facts += conda_virtual_packages(line)
    on = re.search(r"You're on macOS \(`macosx_\d+_\d+_(x86_64|arm64)`\)", line)  # uv's hint names its Python's tag
    if on:
        facts += [("platform", "darwin"), ("python.machine", on.group(1))]
    ram = re.search(r"\btotal RAM (\d+) MB\b", line)
    if ram:
        facts.append(("cpu.memory_bytes", int(ram.group(1)) * 1024**2))
    uname_arch = re.search(r"RELEASE_(?:ARM64|X86_64)\S*\s+(arm64|x86_64)\s*$", line)  # uname -a's machine: the shell's
    if uname_arch:
        facts.append(("process.arch", uname_arch.group(1)))
    build = _MACOS_BUILD.search(line)
    if build:
        facts.append(("os.build", build.group(1)))
    darwin = _DARWIN.search(line)
    if darwin:
        facts += [("platform", "darwin"), ("os.darwin", next(g for g in darwin.groups() if g))]
    xnu = _XNU_ARCH.search(line)
    if xnu:
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64" if xnu.group(1) == "ARM64" else "x86_64")]
    soc = chip_of_kernel(line)
    if soc and not _CHIP.search(line):
        facts.append(("cpu.brand", soc))
    chip = _CHIP.search(line)
    if chip and not re.search(r"Apple M\d+[\w ]*(?:GPU|Neural)", line[chip.start():chip.end() + 8]):
        facts.append(("cpu.brand", " ".join(g for g in ("Apple", *chip.groups()) if g)))
    facts += [("cpu.model", m) for m in _MODEL_ID.findall(line)]
    for pattern in (_INTEL_BRAND, _AMD_BRAND):
        found = pattern.search(line)
        if found:
            facts.append(("cpu.brand", re.sub(r"\s+", " ", found.group(1)).strip()))
    conda = _CONDA_PLATFORM.search(line)
    if conda:
        word = conda.group(1)
        facts += [("platform", "darwin" if word.startswith("osx") else "linux" if word.startswith("linux") else "win32"),
                  ("python.machine", "arm64" if word == "osx-arm64" else "aarch64" if "aarch64" in word else "x86_64")]
    julia = re.match(r"^\s*(CUDA|NVIDIA) driver (\d+(?:\.\d+)+)\s*$", line)  # CUDA.jl's versioninfo()
    if julia:
        facts += [("gpu.cuda_driver" if julia.group(1) == "CUDA" else "gpu.driver", julia.group(2)),
                  ("gpu.present", "NVIDIA")]
    if "NVIDIA-SMI" in line or "Driver Version" in line or re.match(r"^\s*CUDA Version\s+:", line):
        driver = re.search(r"(?<!CUDA )(?:Driver|KMD) Version\s*:\s*(\d+(?:\.\d+)+)", line)
        cuda = re.search(r"CUDA (?:UMD )?Version\s*:\s*(\d+\.\d+)", line)
        facts += [("gpu.driver", driver.group(1)), ("gpu.present", "NVIDIA")] if driver else []
        facts += [("gpu.cuda_driver", cuda.group(1))] if cuda else []
    amdgpu = re.search(r"\bamdgpu version:\s*(\d+(?:\.\d+)+)", line, re.IGNORECASE)
    if amdgpu:
        facts.append(("gpu.driver", amdgpu.group(1)))
    if re.search(r"\bMach-O\b|\bggml_metal|\bMTLGPUFamily|\bMTLCopyAllDevices|\bimport Metal\b", line):
        facts.append(("platform", "darwin"))  # Mach-O binaries and Metal exist only on Apple's systems
    if _APPLE_CORES.search(line):
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]
    rock = re.search(r"\bROCk module version (\S+) is loaded", line)  # rocminfo: the amdgpu driver's version
    if rock:
        facts += [("platform", "linux"), ("gpu.driver", rock.group(1))]
    if re.search(r"\b[\w-]+\.(?:exe|dll)\b", line):
        facts.append(("platform", "win32"))
    nvrm = re.search(r"NVRM version: NVIDIA UNIX (x86_64|aarch64) Kernel Module\s+(\d+(?:\.\d+)+)", line)
    if nvrm:
        facts += [("platform", "linux"), ("cpu.hardware_arch", nvrm.group(1)), ("gpu.driver", nvrm.group(2)),
                  ("gpu.present", "NVIDIA")]
    too_old = re.search(r"driver on your system is too old \(found version (\d+)\)", line)
    if too_old and len(too_old.group(1)) >= 4:  # torch's warning: 11040 = CUDA 11.4
        version = int(too_old.group(1))
        found = f"{version // 1000}.{version % 1000 // 10}"
        facts += [("gpu.cuda_driver", found), ("gpu.present", "NVIDIA"), ("torch.driver_too_old", found)]
    ips_python = re.search(r'"app_name"\s*:\s*"Python".*"app_version"\s*:\s*"(3\.\d+\.\d+)"', line)
    if ips_python:  # a crash report of Python itself names its version
        facts.append(("python.version", ips_python.group(1)))
    if re.search(r"(?:^|[$%>]\s*)arch -x86_64 \S", line):  # the command runs translated by Rosetta 2
        facts += [("platform", "darwin"), ("process.translated", True)]
    for platform_string in _PLATFORM_STRING.finditer(line):
        facts += _python_platform(platform_string.group())
    if _WINDOWS_SIGN.search(line):
        facts.append(("platform", "win32"))
    if re.search(r"\[MSC v\.\d+ 64 bit \(AMD64\)\]", line):
        facts += [("platform", "win32"), ("python.machine", "x86_64")]
    if re.search(r"Math Kernel Library.*Intel\(R\) 64 architecture", line):
        facts.append(("python.machine", "x86_64"))  # MKL ships only in x86_64 builds (torch's arm64 ones have none)
    banner = _PYTHON_BANNER.match(line)
    if banner:
        facts.append(("python.version", banner.group(1)))
    if "Metal device set to:" in line:  # printed by tensorflow-metal / jax-metal inside the Python process
        named = gpu_value(line.split("Metal device set to:", 1)[1])
        facts += [("platform", "darwin")] + named
        vendors = {value["vendor"] for _, value in named}
        if vendors == {"Apple"}:
            facts.append(("python.machine", "arm64"))  # those plugins drive an Apple GPU from arm64 wheels only
        elif vendors & {"AMD", "Intel"}:
            facts.append(("python.machine", "x86_64"))  # an AMD or Intel GPU is an Intel Mac's
    facts += plaidml_devices(line)
    plaidml = re.search(r"PlaidML Setup \((\d[\w.]*)\)", line)
    if plaidml:
        facts.append(("package", {"name": "plaidml", "version": plaidml.group(1)}))
    facts += [("gpu.mention", name) for name in gpu_names(line)]
    arches = re.search(r"supports CUDA capabilities ((?:(?:sm|compute)_\d+\s*)+)", line)  # torch's own warning
    if arches:
        facts.append(("torch.arch_list", " ".join(arches.group(1).split())))
    capability = re.search(r"with CUDA capability sm_(\d+)(\d)\b( is not compatible)?", line)
    if capability:
        named = gpu_names(line[:capability.start()])
        facts.append(("gpu.capability", {"name": named[-1] if named else None,
                                         "capability": f"{capability.group(1)}.{capability.group(2)}"}))
        if capability.group(3):  # torch's own verdict on this GPU
            facts.append(("torch.incompatible", f"{capability.group(1)}.{capability.group(2)}"))
    runtime = re.match(r"^\s*-\s*CUDA Runtime (\d+\.\d+)", line)  # torch.__config__.show()
    if runtime:
        facts.append(("torch.cuda_version", runtime.group(1)))
    if re.search(r"\b(?:Device|Type|Name):\**\s*mps\b|Metal device set to:|ggml_metal\w*: GPU name:", line):
        facts += [("metal.in_use", "mps" if "mps" in line else "metal"), ("platform", "darwin")]  # MPS/Metal: macOS only
    cuda_device = re.search(r"\bcuda:\d+ (.+?) : \w+", line)  # ComfyUI: torch's CUDA device in use
    if cuda_device and gpu_names(cuda_device.group(1)):
        facts += [gpu_record(gpu_names(cuda_device.group(1))[0]), ("torch.cuda_available", True)]
    vram = re.search(r"\bTotal VRAM (\d+) MB\b", line)
    if vram:
        facts.append(("gpu.memory_of", {"index": None, "memory_mib": int(vram.group(1))}))
    torch_inline = re.search(r"\S\s{2,}PyTorch version: (\d\S+)", line)  # collect_env's first line run into the second
    if torch_inline:
        facts += _package("torch", torch_inline.group(1))
    libcuda = re.search(r"\blibcuda\.so\.(\d{3}\.\d+(?:\.\d+)?)\b", line)  # the driver's own library
    if libcuda:
        facts += [("gpu.driver", libcuda.group(1)), ("gpu.present", "NVIDIA")]
    darwin_agent = re.search(r"\bDarwin/(\d{2}\.\d+\.\d+)", line)  # conda's user-agent
    if darwin_agent:
        facts += [("platform", "darwin"), ("os.darwin", darwin_agent.group(1))]
    multiarch = re.search(r"/(x86_64|aarch64)-linux-gnu/", line)  # Debian's multiarch library path
    if multiarch:
        facts += [("platform", "linux"), ("cpu.hardware_arch", multiarch.group(1))]
    if re.search(r"\bINFO:plaidml:|\bimport plaidml\b", line):
        facts.append(("python.machine", "x86_64"))  # plaidml published x86_64 wheels only
    plaidml_device = re.search(r"\b(metal|opencl)_(amd|nvidia|intel)_\w+\.\d+\b", line)
    if plaidml_device:
        facts.append(("gpu.present", {"amd": "AMD", "nvidia": "NVIDIA", "intel": "Intel"}[plaidml_device.group(2)]))
        if plaidml_device.group(1) == "metal":
            facts.append(("platform", "darwin"))
    julia_triple = re.search(r"\((arm64|x86_64)-apple-darwin", line)  # the Julia binary's own arch
    if julia_triple:
        facts += [("platform", "darwin"), ("process.arch", julia_triple.group(1))]
    if re.search(r'"(?:procPath|procName|bundleInfo|cpuType)"\s*:', line):
        facts.append(("platform", "darwin"))  # an .ips crash report
    bundle = re.search(r'"CFBundleShortVersionString":"(3\.\d+\.\d+)".*"CFBundleIdentifier":"org\.python\.python"', line)
    if bundle:
        facts.append(("python.version", bundle.group(1)))
    jax = re.search(r"^\s*jax\.devices \(\d+ total, \d+ local\): \[(.*)\]", line)
    if jax:
        kinds = re.findall(r"(\w+?)(?:Device)?\(id=", jax.group(1))  # CpuDevice(id=0), gpu(id=0), cuda(id=0)
        facts.append(("jax.platforms", ",".join(sorted({p.lower() for p in kinds}))))
    uname = re.search(r"uname_result\(system='(\w+)'.*machine='(\w+)'", line)
    if uname:  # platform.uname() from inside Python: the interpreter's own machine
        facts.append(("python.machine", _arch(uname.group(2)) or uname.group(2)))
    facts += log_line_facts(line) + report_line_facts(line)
    underscored = re.match(r"^\s*[-*]?\s*`?([A-Za-z][\w.-]*_[\w.-]+)`? version:\s*(\d\S*)", line)  # 'Huggingface_hub version: 0.16.4'
    if underscored:
        facts += _package(underscored.group(1).lower(), underscored.group(2))
    for name, label in _HYPERVISORS:
        if re.search(rf"(?:hypervisor|virtual platform|virtual machine|vendor|model|product)[^:]*:\s*[^,]*\b{re.escape(name)}",
                     line, re.IGNORECASE):
            facts.append(("hypervisor", label))
    return facts
