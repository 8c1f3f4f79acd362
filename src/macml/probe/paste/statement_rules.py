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

from macml.knowledge.macos_builds import macos_for_build
from macml.probe.paste.gpu_names import apu_codename_gpu, gib, gpu_names, gpu_record, gpu_value
from macml.probe.paste.linux_clues_rules import wsl_distro
from macml.probe.paste.packages import canonical
from macml.probe.paste.system_rules import NO_SUCH_MACOS as _NO_SUCH_MACOS, X86_SYSCTL, arch_word

Facts = List[Tuple[str, Any]]

_VERSION = r"\d+(?:\.\d+)+"
PLATFORM_STRING = re.compile(r"\b(macOS|Linux|Windows)-([\w.+~-]+?)-(x86_64|arm64|aarch64|i386|AMD64)\b")
_NOT_PACKAGES = {"python", "version", "os", "cuda", "cudnn", "gcc", "clang", "cmake", "nvcc", "driver", "platform",
                 "system", "machine", "processor", "release", "architecture", "available", "gpu", "cpu", "memory",
                 "kernel", "build", "date", "time", "uptime", "bogomips", "pid", "port", "commit", "llvm", "hip", "rocm", "msvc",
                 "libc version", "is debug build", "julia version", "word size", "report version", "mkl", "opencv",
                 # a tool check's JSON fields: '"observed": "27.2"' is what the check measured, not a package
                 "observed", "expected", "actual", "value", "detected", "found", "current", "got", "required"}
_DIST_NAME = re.compile(r"^[a-z][a-z0-9._-]*$")
_UNIT_AFTER = re.compile(r"\d(?:[KMGT]i?B?|[MG]Hz|W|C|%)$")  # 'Swap: 4.0Gi', 'totalMemory: 2.00GiB' are sizes, not versions
_DARWIN_RELEASE = re.compile(r"(?:1\d|2\d)\.\d\.\d+")  # platform.release() on macOS; Ubuntu's 22.04.3 has two-digit minors
_NOT_VERSIONED = {"py", "bios", "vbios", "firmware", "kernel", "glibc", "libc", "app", "api", "sdk", "xcode", "metal", "opengl",
                  "vulkan", "boot rom", "smc", "protocol", "model", "cpu", "gpu", "os", "system", "software",
                  "dxdiag", "directx", "ddi", "driver", "dwm", "wddm",  # DxDiag's rows are Windows', not packages
                  "tahoe", "sequoia", "sonoma", "ventura", "monterey", "catalina", "mojave", "sierra", "yosemite",
                  "mavericks"}  # 'Catalina version: 10.15.7' is macOS's (os_answer_rules)
_ALIASES = {"pytorch": "torch", "pytorch.version": "torch", "torch version": "torch", "pytorch version": "torch", "tensorflow version": "tensorflow",
            "keras version": "keras", "numpy version": "numpy", "sklearn": "scikit-learn"}  # show_versions: import names


def _ram_size(value: str) -> Optional[int]:
    """'32 GB', a kit of modules: '2 x 16GB DDR5 6000' -> 32 GiB, and 'used / total': '5.23 GB / 8 GB (65%)' -> 8 GiB."""
    if re.match(r"\s*\d+ bytes \(\d+ MiB\) /", value):
        return None  # a Java app's heap ('Memory: 807884976 bytes (770 MiB) / ... up to ...'), not the RAM
    used_of = re.match(r"^\s*\d+(?:\.\d+)?\s?[KGM](?:B|iB)\s*/\s*(\d+(?:\.\d+)?\s?[GM](?:B|iB))\b", value)
    if used_of:  # winfetch's 'RAM: 14551MB / 32660 MB (45%)', envinfo's 'Memory: 124.86 MB / 16.00 GB' (free / total) too
        return gib(used_of.group(1))
    kit = re.match(r"^\s*([1-8])\s?[x×]\s?(\d{1,3})\s?G(?:B|b|iB)?\b", value)
    return int(kit.group(1)) * int(kit.group(2)) * 1024**3 if kit else gib(value)


def platform_word(value: str) -> Optional[str]:
    word = value.strip().lower()
    if word.startswith(("darwin", "macos", "mac os", "os x", "osx")):
        return "darwin"
    if word.startswith(("linux", "ubuntu", "debian", "centos", "red hat", "fedora", "rocky", "arch linux", "opensuse",
                        "kali", "linux mint", "manjaro", "pop!_os", "almalinux", "alpine", "gentoo", "nobara", "endeavouros",
                        "cachyos", "nixos", "zorin", "bazzite", "garuda", "void linux", "oracle linux", "talos", "dgx os")):
        return "linux"
    if word.startswith(("win32", "windows", "microsoft windows")) or word == "nt":  # os.name on Windows
        return "win32"
    if re.match(r"^[a-z][\w!.-]*(?: [a-z][\w!.-]*)? (?:gnu/)?linux\b", word):  # 'Nobara Linux 43', 'Oracle Linux 9'
        return "linux"
    return None


def _os_line(value: str) -> Facts:
    # OBS's 'OS Version: Version 10.16 (Build 20B29)'; Minecraft's 'Mac OS X (x86_64) version 15.0.1' (Java's os.arch)
    if re.match(r"Version 1\d\.\d+.*\(Build \w+\)", value.strip()):
        return _macos_value(value)
    java = re.match(r"Mac OS X \((x86_64|aarch64)\) version (1[0-5]|2[6-9])\.(\d{1,2})(?:\.(\d{1,2}))?\s*$", value.strip())
    if java:
        version = ".".join(part for part in java.groups()[1:] if part)
        return [("platform", "darwin"), ("os.version", version), ("process.arch", "arm64" if java.group(1) == "aarch64" else "x86_64")]
    facts, value = [], wsl_distro(value) or value  # 'Windows 10 ... WSL2 Ubuntu 24.04': Python runs in the Ubuntu
    platform = platform_word(value)
    if platform:
        facts.append(("platform", platform))
    if re.match(r"^\s*(?:Linux|Windows)-\d", value):  # platform.platform(): a kernel or build, not the OS's name
        return facts
    named = re.sub(r"\s*\([^)]*\)[^\s,;]*", "", value).strip()  # '(x86_64)', '(x86_64-linux-gnu)', '(bookworm)'
    named = re.sub(r",?\s+(?:with\s+)?kernel\b.*$", "", named, flags=re.IGNORECASE)  # 'Arch Linux, kernel 4.15.2'
    named = re.sub(r"^Linux\s+(?=(?:Ubuntu|Debian|CentOS|Fedora|Rocky|AlmaLinux|openSUSE|Kali|Manjaro)\b)", "", named,
                   flags=re.IGNORECASE)  # TensorFlow's form: 'Linux Ubuntu 20.04.2 LTS'
    if platform == "linux" and re.search(r"\b\d+(?:\.\d+)*\b", named):
        facts.append(("os.name", named))
    elif platform == "linux" and re.search(r"\(v?\d+(?:\.\d+)+\)", value):  # 'Kali Linux Rolling (2018.2)', 'Talos (v1.9.6)'
        facts.append(("os.name", value.strip()))
    elif platform == "linux" and re.fullmatch(r"[A-Za-z][\w!.-]*(?: [A-Za-z][\w!.-]*)?", named) \
            and named.lower() not in ("linux", "gnu/linux", "linux os", "linux kernel") \
            and not re.fullmatch(r"linux-(?:64|aarch64|ppc64le|s390x|armv7l)", named, re.IGNORECASE):  # conda's subdir
        facts.append(("os.name", named))  # a distribution named without its release: 'Ubuntu (Linux)', 'Arch Linux'
    scooby = re.match(r"\s*Windows \((1[01]|7|8\.1|8) \d+\.\d+\.\d+", value)  # scooby's 'Windows (11 10.0.26100 SP0 ...)'
    if platform == "win32" and "windows" in value.lower():
        facts.append(("os.name", f"Windows {scooby.group(1)}" if scooby else re.sub(r"\s*\([\w.-]+\)\s*$", "", value.strip())))
    return facts


def python_platform(value: str) -> Facts:
    match = PLATFORM_STRING.search(value)
    if not match:
        return []
    system, version, machine = match.groups()
    facts: Facts = [("platform", {"macOS": "darwin", "Linux": "linux", "Windows": "win32"}[system]),
                    ("python.machine", arch_word(machine) or machine)]
    if system == "macOS" and version not in ("10.16",) and re.match(r"^1\d\.\d+", version):
        facts.append(("os.version", version))  # 10.16 is the compatibility answer of old-SDK Pythons
    return facts


def _python_version(value: str) -> Facts:
    """'3.12.9 (main, ...)', 'Python 3.8.2', '3.12.1.final.0 (64 bit)'."""
    found = re.match(r"(?:Python )?(3\.\d+\.\d+)", value.strip())
    return [("python.version", found.group(1))] if found else []


def _pytorch_version(value: str) -> Facts:
    """'2.4.0+cu121 (GPU)': LLaMA-Factory's env adds ' (GPU)' where torch.cuda.is_available()
    (src/llamafactory/extras/env.py); docTR's '1.8.0 (torchvision: 0.9.0)' names torchvision beside it."""
    facts = package_facts("torch", value) + _available("true" if value.rstrip().endswith("(GPU)") else "")
    vision = re.search(r"\(torchvision: (\d[\w.+]*)\)", value)
    return facts + (package_facts("torchvision", vision.group(1)) if vision else [])


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


def package_facts(name: str, value: str) -> Facts:
    # 'Torch version: torch==2.3.0+rocm6.0', 'TensorFlow version: tf 2.16.2': the key's own package named again
    pinned = re.match(r"^\s*([A-Za-z][\w.-]*)\s*(?:==|\s)\s*(?=v?\d)", value)
    named = pinned and (pinned.group(1).lower() if pinned.group(1).lower() != "tf" else "tensorflow")
    if pinned and canonical(_ALIASES.get(named, named)) == canonical(_ALIASES.get(name, name)):
        value = value[pinned.end():]
    described = re.match(r"^\s*v\S+-g[0-9a-f]{7,40}\s+(\d+\.\d+\.\d+\S*)\s*$", value)  # TF's form: 'GIT_VERSION VERSION'
    value = described.group(1) if described else value
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
    build = re.search(r"\bBuild (\w+)\)?", value)
    if version and build and version.group().startswith("10.16"):  # an old-SDK app's Big Sur or later: the build says
        release = macos_for_build(build.group(1))[0]
        return [("platform", "darwin"), ("os.version", release), ("os.build", build.group(1))] if release else []
    if not version or _NO_SUCH_MACOS.match(version.group()):
        return []
    facts: Facts = [("platform", "darwin"), ("os.version", re.sub(r"^(\d+\.\d+)\.0$", r"\1", version.group()))]
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
    if value.strip().lower() == "arm":  # macOS's arm64 Python (Linux prints 'aarch64' or 'armv7l')
        return [("platform", "darwin"), ("python.machine", "arm64")]
    if word in ("arm64e", "arm64e,"):
        return [("cpu.hardware_arch", "arm64")]
    if word in ("x86_64", "aarch64", "arm64"):
        return [("python.machine", arch_word(word))]
    if re.match(r"^[\d.,]+ ?GHz \d+-Core Intel Core\s*$", value.strip()):  # About This Mac: '2,6 GHz 6-Core Intel Core'
        return [("cpu.brand", "Intel Core"), ("cpu.hardware_arch", "x86_64")]
    return []


def _model_line(value: str) -> Facts:
    """A crash report's 'Model: iMac14,2, BootROM ..., 4 processors, Intel Core i5, 3.2 GHz, 8 GB, SMC ...' (on Apple
    silicon 'proc 11:5:6 processors': all cores, then performance and efficiency)."""
    facts: Facts = [("cpu.memory_bytes", b) for b in [gib(m.group()) for m in
                                                      re.finditer(r"(?<=, )\d+ GB(?=,)", value)] if b][:1]
    facts += [("cpu.cores", int(m.group(1))) for m in [re.search(r"\bproc (\d{1,2}):\d{1,2}:\d{1,2} processors\b", value)] if m]
    intel = re.search(r"\b(Intel Core (?:i\d|2 Duo|m\d)|Intel Xeon \w*)", value)
    if intel:
        facts.append(("cpu.brand", intel.group(1)))
    return facts


BY_KEY = {
    "os": _os_line, "os name": _os_line, "operating system": _os_line, "prettyname": _os_line, "os version": _os_line, "osversion": _os_line,
    "running under": lambda v: _os_line(v) if platform_word(v) in ("win32", "linux") else [],  # R's sessionInfo()
    # OBS's log: 'Windows Version: 10.0 Build 26100 (release: 24H2; ...)'
    "windows version": lambda v: [("platform", "win32")] if re.match(r"\d+\.\d+ Build \d{4,5}\b", v.strip()) else [],
    "sys.platform": lambda v: [("platform", p) for p in [platform_word(v)] if p],
    "system": lambda v: [("platform", p) for p in [platform_word(v)] if p and len(v.split()) <= 3],
    "python platform": python_platform,
    "platform": lambda v: python_platform(v) or (_os_line(v) if platform_word(v) and (len(v.split()) <= 3 or re.match(
        r"\s*Windows (?:1[01]|7|8(?:\.1)?)\b", v)) else []),  # Cemu's 'Platform: Windows 10 Home (Build 9200)' too
    "python version": lambda v: _python_version(v),
    "python": lambda v: _python_version(v),
    "cuda used to build pytorch": _torch_cuda, "rocm used to build pytorch":
        lambda v: [("torch.hip_version", v.strip())] if re.match(r"^\d", v.strip()) else [],
    "is cuda available": _available, "cuda available": _available, "available": _available,
    "rocm available": _available,  # sglang's check_env on a ROCm build
    "pytorch version": _pytorch_version, "torch version": lambda v: package_facts("torch", v),
    "pytorch": lambda v: package_facts("torch", v),
    "gpu available": lambda v: _available("no" if v.lower().startswith("no") else v),
    "gpu models and configuration": gpu_value, "gpu": gpu_value, "gpu/driver": lambda v: gpu_value(v.split(" / ")[0]), "igpu": gpu_value, "dgpu": gpu_value, "gpu and vram": gpu_value, "gpu and memory": gpu_value, "gpu 0": gpu_value, "gpu name": gpu_value,
    # a form's eGPU answer in words tools do not print ('Aorus GamingBox Nvidia GTX 1080'; external_gpu marks it
    # external): a name as tools print it is egpu_gpus' to read, with the enclosure's words left out
    "egpu": lambda v: [] if gpu_names(v) else gpu_value(v), "external gpu": lambda v: [] if gpu_names(v) else gpu_value(v),
    "chipset model": gpu_value, "graphics": gpu_value, "graphics adapter": gpu_value, "gpu type": gpu_value, "device name": gpu_value,
    "nvidia driver version": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "nvidia driver": lambda v: [("gpu.driver", v.strip(" []"))] if re.fullmatch(r"\s*\[?\d{3}\.\d[\d.]*\]?\s*", v) else [],
    "driver version": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "gpu driver version": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "kmd version": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "cuda umd version": lambda v: [("gpu.cuda_driver", v.split()[0])] if re.match(_VERSION, v) else [],
    "machine": lambda v: [("process.arch", a) for a in [arch_word(v)] if a],
    "platform machine": lambda v: [("python.machine", a) for a in [arch_word(v)] if a],  # AutoGluon: platform.machine()
    "uname -m": lambda v: [("process.arch", a) for a in [arch_word(v)] if a],
    "processor": _processor, "processor type": _processor,
    "macos": _macos_value, "macos version": _macos_value, "system version": _macos_value,
    "release": lambda v: [("os.darwin", v.strip())] if _DARWIN_RELEASE.fullmatch(v.strip()) else [],
    "rosetta 2": lambda v: [("process.translated", v.strip().lower() == "true")] if v.strip().lower() in ("true", "false") else [],
    "arch string raw": lambda v: [("python.machine", a) for a in [arch_word(v)] if a],  # py-cpuinfo runs in Python
    "brand raw": lambda v: [("cpu.brand", v.strip())] if v.strip() else [],
    "gpu cores": lambda v: [("gpu.cores", int(v.split()[0]))] if v.split() and v.split()[0].isdigit() else [],
    "uname -r": lambda v: [("os.darwin", v.strip())] if re.fullmatch(r"\d{2}\.\d+\.\d+", v.strip()) else [],
    "uname -s": lambda v: [("platform", p) for p in [platform_word(v)] if p],
    "model identification": lambda v: [("cpu.model", v.strip().replace(".", ","))]
        if re.fullmatch(r"[A-Za-z]+\d+[.,]\d+", v.strip()) else [],
    "code type": lambda v: ([("process.arch", a) for a in [arch_word(v)] if a]
                            + [("platform", "darwin")]
                            + ([("process.translated", True)] if "translated" in v.lower() else [])),
    "translated": lambda v: ([("process.translated", v.strip().lower() in ("true", "1"))]
                             if v.strip().lower() in ("true", "1", "false", "0") else []),
    "cputype": lambda v: [("process.arch", a) for a in [arch_word(v)] if a],
    "gpu model": gpu_value, "marketing name": gpu_value, "gpu device": gpu_value,
    "card series": lambda v: [("platform", "linux")] + ([gpu_record(v.strip())] if gpu_names(v) else []),  # rocm-smi's name
    "gfx version": lambda v: [("platform", "linux")] + [("gpu.gfx", m.group()) for m in [re.search(r"gfx[0-9a-f]+", v.lower())] if m],
    "asic name": lambda v: [("gpu.gfx", m.group()) for m in [re.search(r"gfx[0-9a-f]+", v.lower())] if m],
    "vram size": lambda v: [("gpu.memory_of", {"index": None, "memory_mib": b // 1024**2}) for b in [gib(v)] if b],
    "driver used": lambda v: [("platform", "linux")] if v.strip() in ("amdgpu", "nvidia", "radeon") else [],
    "cuda driver version": lambda v: ([("gpu.driver", v.split()[0])] if re.match(r"\d{3}\.\d+", v)
                                      else [("gpu.cuda_driver", v.split()[0])] if re.match(r"\d{1,2}\.\d", v) else []),
    "cuda driver": lambda v: [("gpu.cuda_driver", v.split()[0])] if re.match(r"1?\d\.\d\b", v.strip()) else [],
    # a bare 'Driver:' row holds many things ('amdgpu', '6.12.12'); NVIDIA's three-digit branch is its driver's
    "driver": lambda v: [("gpu.driver", v.strip())] if re.fullmatch(r"[2-9]\d{2}\.\d{1,3}(?:\.\d{1,2})?", v.strip()) else [],
    "sysctl.proc translated": lambda v: [("process.translated", v.strip() == "1")] if v.strip() in "01" else [],
    "hw.optional.arm64": lambda v: [("cpu.hardware_arch", "arm64" if v.strip() == "1" else "x86_64")]
        if v.strip() in ("0", "1") else [],
    "memory": lambda v: [("cpu.memory_bytes", b) for b in [_ram_size(v)] if b],
    # Demucs GUI's log: 'System memory: 8589934592 (8GB)' (psutil's total, in bytes)
    "system memory": lambda v: [("cpu.memory_bytes", int(m.group(1))) for m in [re.match(r"(\d{9,13})\s*\(\d+(?:\.\d+)?\s?GB\)\s*$", v.strip())] if m],
    # AutoGluon's 'Memory Avail: 20.19 GB / 32.00 GB': free, then total
    "memory avail": lambda v: [("cpu.memory_bytes", b) for b in [gib(v.split("/", 1)[1])] if b] if "/" in v else [],
    "unified memory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "memory (system)": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "total memory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "physical memory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "hw.memsize": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "ram": lambda v: [("cpu.memory_bytes", b) for b in [_ram_size(v)] if b], "ram size": lambda v: BY_KEY["ram"](v),
    "total ram": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],  # llmfit system
    "physicalmemory": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "primary memory available": lambda v: [("cpu.memory_bytes", b) for b in [gib(v)] if b],
    "is xpu available": lambda v: [("gpu.present", "Intel")] if v.strip().lower().startswith("true") else [],
    "model": _model_line, "hardware model": _model_line,
    "os platform and distribution": _os_line,  # TensorFlow's issue form
    "gpu model and memory": gpu_value, "gpu.name": gpu_value,
    "pytorch version (gpu?)": lambda v: package_facts("torch", v) + _available(  # transformers-cli env: '2.0.1 (False)'
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
    # sw_vers: 'ProductVersion: 15.5' (with tabs or spaces), 'BuildVersion: 24F74': macOS, never a package
    "productversion": lambda v: _macos_value(v) if re.fullmatch(r"(?:1[0-5]|2[6-9])(?:\.\d{1,2}){1,2}", v.strip()) else [],
    "buildversion": lambda v: [("platform", "darwin"), ("os.build", v.strip())]
        if re.fullmatch(r"\d{2}[A-Z]\d{1,4}[a-z]?", v.strip()) else [],
    "productname": lambda v: [("platform", "darwin")] if re.fullmatch(r"mac ?os(?: x)?", v.strip(), re.IGNORECASE) else [],
    "ramgb": lambda v: [("cpu.memory_bytes", b) for b in [gib(v.strip() + " GB")] if b and re.fullmatch(r"\d+", v.strip())],
    "product name": gpu_value,
    # nvidia-smi -q's GPU Virtualization Mode: 'Pass-Through' or 'VGPU' is a guest's GPU ('Host VGPU' is the host's)
    "virtualization mode": lambda v: [("hypervisor", f"a VM given the GPU ({v.strip()}, nvidia-smi -q)")]
        if v.strip().lower() in ("pass-through", "vgpu") else [],
    "memorysize": lambda v: [("cpu.memory_bytes", int(n))] if (n := v.strip().rstrip(",")).isdigit() and int(n) >= 1 << 30 else [],
    "edition": lambda v: [("platform", "win32"), ("os.name", v.strip())] if re.match(r"Windows \d+\b", v.strip()) else [],
    "driverversion": lambda v: [("gpu.driver", v.split()[0])] if re.match(_VERSION, v) else [],  # WMI's property name
    # SPHardware's CPU line (SPDisplays' GPU 'Total Number of Cores: 10' names no performance cores)
    "total number of cores": lambda v: [("cpu.cores", int(m.group(1))) for m in
                                        [re.match(r"\s*(\d{1,2}) \(\d{1,2} performance and \d{1,2} efficiency\)", v)] if m],
    # `lshw -numeric -C display`: 'product: GM107GLM [Quadro M1000M] [10DE:13B1]' (the PCI ids mark lshw's own line)
    "product": lambda v: gpu_value(v) if re.search(r"\[[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}\]\s*$", v) else [], "description": _os_line, "distributor id": _os_line,
}


# keys a script words its own way: 'PyTorch build CUDA version: 10.2', 'PyTorch has active GPU: True'
_KEY_PATTERNS = ((re.compile(r"(?:py)?torch (?:build )?cuda version"), _torch_cuda),
                 (re.compile(r"(?:py)?torch has (?:an )?active gpu|is cuda available \((?:py)?torch\)"), _available),  # docTR's too
                 (re.compile(r"(?:operating system|os) (?:and|&) (?:version|release)"), _os_line),
                 (re.compile(r"nvidia (?:open gpu )?kernel modules? version|(?:amd )?adrenalin(?: driver)?(?: version)?"
                             r"|nvidia driver \((?:kernel )?module(?: version)?\)"),
                  BY_KEY["driver version"]))


def by_key(key: str, value: str) -> Facts:
    if key in X86_SYSCTL:
        return [("platform", "darwin"), ("cpu.x86_features", f"{key}: {value}"[:200])]
    in_unit = re.fullmatch(r"(?:installed |total ?)?physical ?memory \((gb|mb)\)|ram \((gb|mb)\)|(?:memory|ram) (gb)", key)
    if in_unit and re.fullmatch(r"\d+(?:\.\d+)?", value.strip()):  # xpuinfo's 'Installed Physical Memory (GB): 96'
        return [("cpu.memory_bytes", gib(f"{value.strip()} {next(g for g in in_unit.groups() if g).upper()}"))]
    handler = BY_KEY.get(key) or next((h for pattern, h in _KEY_PATTERNS if pattern.fullmatch(key)), None)
    if handler is None and re.search(r"\b[A-Z][A-Za-z]+\d+,\d+, BootROM ", value):
        handler = _model_line  # the crash report's Model line under a cut or other label ('odel: MacBookPro18,3, ...')
    if handler is not None:
        return handler(value)
    if re.fullmatch(r"gpu\s*\d+|gpu\[\d+\]", key):
        return gpu_value(value, int(re.search(r"\d+", key).group()))
    if re.fullmatch(r"graphics \d", key):  # GNOME About's second GPU, 'Graphics 1:'
        return gpu_value(value) or apu_codename_gpu(value)
    named = re.fullmatch(r"([a-z][\w.-]*) version", re.sub(r"^(tensor|onnx) (flow|runtime) ", r"\1\2 ", key))  # 'Tensor Flow Version' too;
    # 'transformers Version: 5.15.0', 'xformers version: 0.0.20'
    if named and named.group(1) not in _NOT_VERSIONED:
        # 'TensorFlow version: tensorflow-gpu 2.5.0': the distribution the value names, when it is one of the key's
        dist = re.fullmatch(r"([a-z][\w.-]*?)\s*(?:==|\s)\s*(v?\d+(?:\.\d+)+)", value.strip(), re.IGNORECASE)
        if dist and dist.group(1).lower().startswith(named.group(1) + "-"):
            return package_facts(dist.group(1).lower(), dist.group(2))
        return package_facts(named.group(1), value)
    remarked = re.fullmatch(r"(.+?)\s*\((?:for|only|just|used|as|in|the)\b[^()]*\)", key)  # 'PyTorch (for the check only)'
    if remarked:
        return by_key(remarked.group(1), value)
    return package_facts(key, value) if " " not in key else []
