"""Patterns that state a fact wherever they stand in a line ("Darwin Kernel Version 23.5.0",
"Apple M2 Pro", "MacBookPro18,3", "NVRM version: ... 535.104.05"), grouped by what they read.

Each group returns (fact, value) pairs, in the vocabulary statement_rules.py documents;
statements.py attaches the line.
"""
from __future__ import annotations

import re

from macml.knowledge.hardware import chip_of_kernel
from macml.probe.paste.gpu_names import CHIP, gpu_names, gpu_record, gpu_value, plaidml_devices, with_partner
from macml.probe.paste.log_rules import log_line_facts
from macml.probe.paste.report_rules import report_line_facts
from macml.probe.paste.said_of_this_machine import writers_os
from macml.probe.paste.statement_rules import PLATFORM_STRING, Facts, package_facts, python_platform
from macml.probe.paste.system_rules import (DOTTED_MODEL_ID, MODEL_ID, NO_SUCH_MACOS, SPACED_MODEL_ID, arch_word,
                                           conda_virtual_packages)

# 'macOS 14.5', 'MacOS 13.0.1', 'Mac os 14.4', 'Mac OS Big Sur Version 11.6', 'Mac OS Big Sir (11.5)', 'macOS Mojave v 10.14.4'; never a binary's 'built for Mac OS X 12.0'
_MACOS = re.compile(r"(?<!built for )(?<!built for Mac )\b(?:(?i:mac ?os ?x)|OS ?X|(?:[Mm]ac|MAC) ?(?:O[Ss]|os)|[Mm]acos(?: [xX](?= \d))?|Mac [Vv]ersion)(?:\s+(?:[A-Z][a-z]+|[Vv]ersion)){0,3}"
                    r"[\s-]+(?:\(|[Vv]\.?\s?)?(1[0-9]|2[0-9])((?:\.\d+){1,2})\b(?!\.[xX*])"  # '12.3.x' names a range, not a release
                    r"|\bMac Version \((1[0-9]|2[0-9]), (\d+)\)")
# 'macOS 26 beta 4', 'macOS 15 Developer Beta': the betas before a major release are of its .0
_MACOS_MAJOR_BETA = re.compile(r"\b(?:[Mm]ac ?OS|macos)(?:\s+[A-Z][a-z]+)?\s+(1[1-9]|2[0-9])\s+(?:(?:Developer|Public)\s+)?[Bb]eta\b")
_MACOS_BUILD = re.compile(r"\b(?:macOS|Mac OS X|OS X)\b[^()]*\((?:Build )?(\d{2}[A-Z]\d{1,4}[a-z]?)\)")  # crash reports: '(Build 21D62)'
_DARWIN = re.compile(r"\bDarwin(?: Kernel Version|\s+\S+)?\s+(\d{2}\.\d+\.\d+)\b|release='(\d{2}\.\d+\.\d+)'.*system='Darwin'"
                     r"|system='Darwin'.*release='(\d{2}\.\d+\.\d+)'")
_XNU_ARCH = re.compile(r"RELEASE_(ARM64|X86_64)")
_INTEL_BRAND = re.compile(r"\b(Intel\(R\) (?:Core\(TM\)|Xeon\(R\)|Celeron\(R\)|Pentium\(R\))[^,;|\"]*?"
                          r"(?:@ ?[\d.]+ ?GHz|CPU\b[^,;|\"]*|[\w-]*\d[\w-]*(?=\s*$))|Intel Core (?:i\d|2 Duo|m\d)\b|Intel Xeon\b)")
# Homebrew's names for Apple-silicon core designs (brew config's CPU line)
_APPLE_CORES = re.compile(r"\barm_(?:firestorm|icestorm|blizzard|avalanche|everest|sawtooth|ibiza|lobos|palma|donan|brava)(?![a-z])")
_CORE_ULTRA = re.compile(r"(?<![\w-])(?:Intel(?:\(R\))?\s+)?Core(?:\(TM\))?\s+Ultra\s+([3579])\s+(\d{3}[A-Za-z]{0,2})\b")
_AMD_BRAND = re.compile(r"\b(AMD (?:Ryzen|EPYC|Athlon|Threadripper)[\w -]*?\d[\w-]*(?: \d+-Core Processor)?"
                        r"|AMD Opteron(?:\((?:tm|TM)\))?(?: Processor)? \d{3,4}\w{0,2})\b")
_CONDA_PLATFORM = re.compile(r"\b(osx-arm64|osx-64|linux-64|linux-aarch64|win-64)\b")
# conda packages built only for one Linux subdir, as a `conda list` row names them ('ld_impl_linux-64  2.40  h41732ed_0')
_CONDA_LINUX_ROW = re.compile(r"^\s*(?:ld_impl|sysroot|kernel-headers)_linux-(64|aarch64)\s+\d[\w.]*\s+\S+")
# a JSON or repr path doubles its backslashes; a forward-slash path names a folder only Windows has ('F:/Program Files/')
_WINDOWS_SIGN = re.compile(r"^\s*(?:\([\w.-]+\)\s*)?PS [A-Z]:\\|(?<![\w/])[A-Z]:\\{1,2}[\w .$()-]+\\"
                           r"|(?<![\w/])[A-Z]:/(?:Program Files(?: \(x86\))?|ProgramData|Windows)/")
_PYTHON_BANNER = re.compile(r"^\s*(?:#\s*)?Python (3\.\d{1,2}\.\d{1,2})\b")
# A macOS guest of Apple's Virtualization framework names its platform: `uname -v`'s 'RELEASE_ARM64_VMAPPLE' kernel,
# ioreg's 'soc-generation' = <"VMApple2"> and 'AppleVirtualPlatformIO', and its GPU 'Apple Paravirtual device' (no Mac's
# hardware is called so)
_VMAPPLE = re.compile(r"\bRELEASE_ARM64_VMAPPLE\b|\"VMApple\d*\"|\bAppleVirtualPlatform\w*\b|\"arm-io,vmapple\d*\""
                      r"|\bApple [Pp]aravirtual(?:ized)? (?:GPU|[Dd]evice|[Gg]raphics)\b")  # the guest's GPU ('Apple Paravirtual device')
_HYPERVISORS = (("vmware", "VMware"), ("virtualbox", "VirtualBox"), ("parallels", "Parallels"),
                ("qemu", "QEMU"), ("kvm", "KVM"), ("hyper-v", "Hyper-V"), ("xen", "Xen"),
                ("apple virtual machine", "Apple Virtual Machine"), ("virtualmac", "Apple Virtual Machine"),
                ("mvisor", "mvisor"), ("bochs", "Bochs"))  # mvisor: Tenclass's KVM-based hypervisor (github.com/tenclass/mvisor)
_HYPERVISOR_FIELDS = tuple((re.compile(rf"(?:hypervisor|virtual platform|virtual machine|vendor|model|product)[^:]*:\s*[^,]*"
                                       rf"\b{re.escape(name)}", re.IGNORECASE), label) for name, label in _HYPERVISORS)


def mac_system(line: str) -> Facts:
    """macOS and Darwin releases, builds, Apple chips, model identifiers, and the signs only macOS prints."""
    facts: Facts = []
    for match in _MACOS.finditer(line):
        version = match.group(1) + match.group(2) if match.group(1) else f"{match.group(3)}.{match.group(4)}"
        version = re.sub(r"^(\d+\.\d+)\.0$", r"\1", version)  # 'macOS 14.5.0' is sw_vers' 14.5
        if not NO_SUCH_MACOS.match(version):
            facts += [("platform", "darwin"), ("os.version", version)]
    beta = _MACOS_MAJOR_BETA.search(line)
    if beta and not NO_SUCH_MACOS.match(beta.group(1)):
        facts += [("platform", "darwin"), ("os.version", f"{beta.group(1)}.0")]
    facts += conda_virtual_packages(line)
    if re.search(r"(?:^|[\s'\"(=])/Applications/(?:[^/\n]+/)*?[^/\n]+\.app/Contents/", line):  # a macOS app bundle's own path
        facts.append(("platform", "darwin"))
    on = re.search(r"You're on macOS \(`macosx_\d+_\d+_(x86_64|arm64)`\)", line)  # uv's hint names its Python's tag
    if on:
        facts += [("platform", "darwin"), ("python.machine", on.group(1))]
    uname_arch = re.search(r"RELEASE_(?:ARM64|X86_64)\S*\s+(arm64|x86_64)\s*$", line)  # uname -a's machine: the shell's
    if uname_arch:
        facts.append(("process.arch", uname_arch.group(1)))
    build = _MACOS_BUILD.search(line)
    if build:
        facts.append(("os.build", build.group(1)))
    darwin = _DARWIN.search(line) or re.search(r"\bDarwin/(\d{2}\.\d+\.\d+)", line)  # or conda's user-agent
    if darwin:
        facts += [("platform", "darwin"), ("os.darwin", next(g for g in darwin.groups() if g))]
    agent_os = re.search(r"\bDarwin/\d{2}\.\d+\.\d+ OSX/(10\.(?!16\b)\d{1,2}(?:\.\d{1,2})?|1[1-5]\.\d{1,2}(?:\.\d{1,2})?)\b", line)
    if agent_os:  # conda's user-agent names the release too: 'Darwin/16.4.0 OSX/10.12.3' (10.16: an old SDK's answer)
        facts.append(("os.version", agent_os.group(1)))
    # 'mac 25.6.0 (arm64)': macOS went from 15 to 26, so a 'mac' 17-25 with three parts is Darwin's number
    # (16 is left out: macOS 26 answers 16.0 to old-SDK programs)
    kernel = re.search(r"\bmac(?:OS)?\s+((?:1[7-9]|2[0-5])\.\d{1,2}\.\d{1,2})(?![\d.])", line, re.IGNORECASE)
    if kernel:
        facts += [("platform", "darwin"), ("os.darwin", kernel.group(1))]
    xnu = _XNU_ARCH.search(line)
    if xnu:
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64" if xnu.group(1) == "ARM64" else "x86_64")]
    return facts + _apple_chip(line) + _mac_only_signs(line)


def _apple_chip(line: str) -> Facts:
    facts: Facts = []
    soc = chip_of_kernel(line)
    chip = CHIP.search(line)
    if soc and not chip:
        facts.append(("cpu.brand", soc))
    if chip and not re.search(r"Apple M\d+[\w ]*(?:GPU|Neural)", line[chip.start():chip.end() + 8]):
        virtual = " (Virtual)" if re.match(r"\s*\(Virtual\)", line[chip.end():]) else ""  # a macOS guest's brand string
        facts.append(("cpu.brand", " ".join(g for g in ("Apple", *chip.groups()) if g) + virtual))
        # Godot's 'Apple M4 Pro (14 threads)' (no SMT: a thread per core), 'Apple M2 Pro (Mac14,12) with 10 CPU cores'
        for named in CHIP.finditer(line):
            cores = re.match(r"\s*(?:\((\d{1,2}) threads\)|(?:\([\w,]+\)\s*)?with (\d{1,2}) CPU cores\b)", line[named.end():])
            facts += [("cpu.cores", int(cores.group(1) or cores.group(2)))] if cores else []
    facts += [("cpu.model", m) for m in MODEL_ID.findall(line)]
    facts += [("cpu.model", name + number) for name, number in SPACED_MODEL_ID.findall(line)]
    facts += [("cpu.model", f"{name.replace(' ', '')}{major},{minor}") for name, major, minor in DOTTED_MODEL_ID.findall(line)]
    if _APPLE_CORES.search(line):
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]
    return facts


def _mac_only_signs(line: str) -> Facts:
    facts: Facts = []
    if re.search(r"\bMach-O\b|\bggml_metal|\bMTLGPUFamily|\bMTLCopyAllDevices|\bimport Metal\b", line):
        facts.append(("platform", "darwin"))  # Mach-O binaries and Metal exist only on Apple's systems
    if re.search(r"(?:^|[$%>]\s*)arch -x86_64 \S", line):  # the command runs translated by Rosetta 2
        facts += [("platform", "darwin"), ("process.translated", True)]
    julia_triple = re.search(r"\((arm64|x86_64)-apple-darwin", line)  # the Julia binary's own arch
    if julia_triple:
        facts += [("platform", "darwin"), ("process.arch", julia_triple.group(1))]
    if re.search(r'"(?:procPath|procName|bundleInfo|cpuType)"\s*:', line):
        facts.append(("platform", "darwin"))  # an .ips crash report
    for python in (re.search(r'"app_name"\s*:\s*"Python".*"app_version"\s*:\s*"(3\.\d+\.\d+)"', line),  # a crash of Python
                   re.search(r'"CFBundleShortVersionString":"(3\.\d+\.\d+)".*"CFBundleIdentifier":"org\.python\.python"', line)):
        if python:
            facts.append(("python.version", python.group(1)))
    return facts


def cpu_and_os(line: str) -> Facts:
    """CPU brands, conda and Python platform strings, Windows paths, Debian multiarch paths, hypervisors, RAM."""
    facts: Facts = []
    for pattern in (_INTEL_BRAND, _AMD_BRAND):
        found = pattern.search(line)
        if found:
            facts.append(("cpu.brand", re.sub(r"\s+", " ", found.group(1)).strip()))
    ultra = _CORE_ULTRA.search(line)  # 'Core Ultra 9 275HX' (Intel's 2023- brand, x86-64 only)
    if ultra:
        facts += [("cpu.brand", f"Intel Core Ultra {ultra.group(1)} {ultra.group(2).upper()}"), ("cpu.hardware_arch", "x86_64")]
    conda = _CONDA_PLATFORM.search(line)
    # a project's target list ('platforms = ["osx-64", "osx-arm64"]', '"linux-64", "linux-aarch64",'): not this machine
    if conda and (len(set(_CONDA_PLATFORM.findall(line))) > 1 or re.search(r"[\"']" + conda.group(1) + r"[\"']", line)):
        conda = None
    if conda:
        word = conda.group(1)
        facts.append(("platform", "darwin" if word.startswith("osx") else "linux" if word.startswith("linux") else "win32"))
        if re.search(r"\bCONDA_SUBDIR\s*=\s*$", line[:conda.start()]):
            # an override for a new environment, not the running Python; osx-arm64 code runs only on arm64 Macs
            facts += [("cpu.hardware_arch", "arm64")] if word == "osx-arm64" else []
        else:
            facts.append(("python.machine", "arm64" if word == "osx-arm64" else "aarch64" if "aarch64" in word else "x86_64"))
    linux_row = _CONDA_LINUX_ROW.match(line)
    if linux_row:
        arch = "x86_64" if linux_row.group(1) == "64" else "aarch64"  # the environment's subdir: its Python's too
        facts += [("platform", "linux"), ("cpu.hardware_arch", arch), ("python.machine", arch)]
    for platform_string in PLATFORM_STRING.finditer(line):
        facts += python_platform(platform_string.group())
    # a .dll in a Unix path is Mono's or .NET's ('/Applications/Unity/.../UnityEditor.OSXStandalone.Extensions.dll')
    windows_binary = re.search(r"(?<![/\w.-])(?<!/)[\w-]+(?:\.[\w-]+)*\.(?:exe|dll)\b", line) and not re.search(r"(?:^|[\s'\"(=])/[\w.-]+/\S*\.dll\b", line)
    if (windows_binary and writers_os(line) in (None, "win32")) or _WINDOWS_SIGN.search(line):
        facts.append(("platform", "win32"))
    if re.search(r"\[MSC v\.\d+ 64 bit \(AMD64\)\]", line):
        facts += [("platform", "win32"), ("python.machine", "x86_64")]
    if re.search(r"Math Kernel Library.*Intel\(R\) 64 architecture", line):
        facts.append(("python.machine", "x86_64"))  # MKL ships only in x86_64 builds (torch's arm64 ones have none)
    banner = _PYTHON_BANNER.match(line)
    if banner:
        facts.append(("python.version", banner.group(1)))
    multiarch = re.search(r"/(x86_64|aarch64)-linux-gnu/", line)  # Debian's multiarch library path
    if multiarch:
        facts += [("platform", "linux"), ("cpu.hardware_arch", multiarch.group(1))]
    uname = re.search(r"uname_result\((?:sys(?:tem|name))='(\w+)'.*machine='(\w+)'", line)
    if uname:  # platform.uname() / os.uname() from inside Python: the interpreter's own machine
        facts.append(("python.machine", arch_word(uname.group(2)) or uname.group(2)))
    ram = re.search(r"\btotal RAM (\d+) MB\b", line)
    if ram:
        facts.append(("cpu.memory_bytes", int(ram.group(1)) * 1024**2))
    if _VMAPPLE.search(line):  # Virtualization.framework's guest platform
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("hypervisor", "Apple Virtual Machine")]
    elif re.search(r"\bRELEASE_ARM64_T\d{4}\b", line):  # the kernel built for a real chip's board: a macOS guest boots VMAPPLE's
        facts.append(("hypervisor.none", True))
    for field, label in _HYPERVISOR_FIELDS if ":" in line else ():
        if field.search(line):
            facts.append(("hypervisor", label))
    return facts


def gpu_drivers(line: str) -> Facts:
    """NVIDIA and AMD driver versions as nvidia-smi, the kernel, CUDA.jl, rocminfo or torch's warning print them."""
    facts: Facts = []
    web = re.search(r"\bWeb ?[Dd]river\W{0,4}(\d{3}\.\d{2}\.\d{2}\.\d{2}\.\d{2}\.\d{2,3})\b", line)
    if web:  # NVIDIA's macOS Web Driver: '387.10.10.10.40.136'
        facts += [("platform", "darwin"), ("gpu.driver", web.group(1)), ("gpu.present", "NVIDIA")]
    julia = re.match(r"^\s*(CUDA|NVIDIA) driver (\d+(?:\.\d+)+)\s*$", line)  # CUDA.jl's versioninfo()
    if julia:
        cuda = re.sub(r"^(\d+\.\d+)\.0$", r"\1", julia.group(2))  # 'CUDA driver 11.0.0': the driver's CUDA 11.0
        facts += [("gpu.cuda_driver", cuda) if julia.group(1) == "CUDA" else ("gpu.driver", julia.group(2)),
                  ("gpu.present", "NVIDIA")]
    if "NVIDIA-SMI" in line or "Driver Version" in line or re.match(r"^\s*CUDA Version\s+:", line):
        driver = re.search(r"(?<!CUDA )(?:Driver|KMD) Version\s*:\s*(\d+(?:\.\d+)+)", line)
        cuda = re.search(r"CUDA (?:UMD )?Version\s*:\s*(\d+\.\d+)", line)
        windows = driver and re.fullmatch(r"\d{2}\.\d+\.\d+\.\d+", driver.group(1))  # '27.21.14.6109': Windows', any maker's
        facts += [("gpu.driver", driver.group(1)), ("gpu.present", "NVIDIA")] if driver and not windows else []
        facts += [("gpu.cuda_driver", cuda.group(1))] if cuda else []
    amdgpu = re.search(r"\bamdgpu version:\s*(\d+(?:\.\d+)+)", line, re.IGNORECASE)
    if amdgpu:
        facts.append(("gpu.driver", amdgpu.group(1)))
    rock = re.search(r"\bROCk module version (\S+) is loaded", line)  # rocminfo: the amdgpu driver's version
    if rock:  # the amdgpu module's compute interface: an AMD GPU it drives
        facts += [("platform", "linux"), ("gpu.driver", rock.group(1)), ("gpu.present", "AMD")]
    # /proc/driver/nvidia/version's 'NVRM version:' line, and the module's own 'NVRM: loading ...' in the kernel log
    nvrm = re.search(r"NVRM(?: version)?:\s*(?:loading\s+)?NVIDIA UNIX (?:Open Kernel Module for (x86_64|aarch64)|"
                     r"(x86_64|aarch64) Kernel Module)\s+(\d+(?:\.\d+)+)", line)
    if nvrm:
        facts += [("platform", "linux"), ("cpu.hardware_arch", nvrm.group(1) or nvrm.group(2)),
                  ("gpu.driver", nvrm.group(3)), ("gpu.present", "NVIDIA")]
    too_old = re.search(r"driver on your system is too old \(found version (\d+)\)", line)
    if too_old and len(too_old.group(1)) >= 4:  # torch's warning: 11040 = CUDA 11.4
        version = int(too_old.group(1))
        found = f"{version // 1000}.{version % 1000 // 10}"
        facts += [("gpu.cuda_driver", found), ("gpu.present", "NVIDIA"), ("torch.driver_too_old", found)]
    libcuda = re.search(r"\blibcuda\.so\.(\d{3}\.\d+(?:\.\d+)?)\b", line)  # the driver's own library
    if libcuda:
        facts += [("gpu.driver", libcuda.group(1)), ("gpu.present", "NVIDIA")]
    return facts


def gpus_in_use(line: str) -> Facts:
    """GPUs named anywhere, and what the frameworks say of them: Metal plugins, PlaidML, torch's
    capability warnings and CUDA build, ComfyUI's device line, jax.devices."""
    facts: Facts = []
    if "Metal device set to:" in line:  # printed by tensorflow-metal / jax-metal inside the Python process
        named = gpu_value(line.split("Metal device set to:", 1)[1])
        facts += [("platform", "darwin")] + named
        vendors = {value["vendor"] for _, value in named}
        if vendors == {"Apple"}:
            facts.append(("python.machine", "arm64"))  # those plugins drive an Apple GPU from arm64 wheels only
        elif vendors & {"AMD", "Intel"}:
            facts.append(("python.machine", "x86_64"))  # an AMD or Intel GPU is an Intel Mac's
    facts += plaidml_devices(line) + [("gpu.mention", with_partner(line, name)) for name in gpu_names(line)]  # PlaidML's names first
    if re.search(r"\b(?:Device|Type|Name):\**\s*mps\b|Metal device set to:|ggml_metal\w*: GPU name:", line):
        facts += [("metal.in_use", "mps" if "mps" in line else "metal"), ("platform", "darwin")]  # MPS/Metal: macOS only
    cuda_device = re.search(r"\bcuda:\d+ (.+?) : \w+", line)  # ComfyUI: torch's CUDA device in use
    if cuda_device and gpu_names(cuda_device.group(1)):
        facts += [gpu_record(gpu_names(cuda_device.group(1))[0]), ("torch.cuda_available", True)]
    vram = re.search(r"\bTotal VRAM (\d+) MB\b", line)
    if vram:
        facts.append(("gpu.memory_of", {"index": None, "memory_mib": int(vram.group(1))}))
    jax = re.search(r"^\s*jax\.devices \(\d+ total, \d+ local\): \[(.*)\]", line)
    if jax:
        kinds = re.findall(r"(\w+?)(?:Device)?\(id=", jax.group(1))  # CpuDevice(id=0), gpu(id=0), cuda(id=0)
        facts.append(("jax.platforms", ",".join(sorted({p.lower() for p in kinds}))))
    return facts + _plaidml(line) + _torch_cuda_build(line)


def _plaidml(line: str) -> Facts:
    facts: Facts = []
    version = re.search(r"PlaidML Setup \((\d[\w.]*)\)", line)
    if version:
        facts.append(("package", {"name": "plaidml", "version": version.group(1)}))
    if re.search(r"\bINFO:plaidml:|\bimport plaidml\b", line):
        facts.append(("python.machine", "x86_64"))  # plaidml published x86_64 wheels only
    device = re.search(r"\b(metal|opencl)_(amd|nvidia|intel)_\w+(?:\.\d+)?\b", line)  # '.0' left out in prose
    if device:
        facts.append(("gpu.present", {"amd": "AMD", "nvidia": "NVIDIA", "intel": "Intel"}[device.group(2)]))
        if device.group(1) == "metal":
            facts.append(("platform", "darwin"))
    return facts


def _torch_cuda_build(line: str) -> Facts:
    facts: Facts = []
    arches = re.search(r"supports CUDA capabilities ((?:(?:sm|compute)_\d+\s*)+)", line)  # torch's own warning
    if arches:
        facts.append(("torch.arch_list", " ".join(arches.group(1).split())))
    capability = re.search(r"with CUDA capability sm_(\d+)(\d)\b( is not compatible)?", line)
    if capability:
        named = gpu_names(line[:capability.start()])
        if not named and re.search(r"\bNVIDIA Graphics Device\s*$", line[:capability.start()]):
            # the driver's name for a board it has no name for (a new part): an NVIDIA GPU, named so where the text
            # names no other ('用5060ti显卡' elsewhere is that board)
            facts += [("gpu.present", "NVIDIA"), ("gpu.named", "NVIDIA Graphics Device")]
        facts.append(("gpu.capability", {"name": named[-1] if named else None,
                                         "capability": f"{capability.group(1)}.{capability.group(2)}"}))
        if capability.group(3):  # torch's own verdict on this GPU
            facts.append(("torch.incompatible", f"{capability.group(1)}.{capability.group(2)}"))
    runtime = re.match(r"^\s*-\s*CUDA Runtime (\d+\.\d+)", line)  # torch.__config__.show()
    if runtime:
        facts.append(("torch.cuda_version", runtime.group(1)))
    return facts


def packages_inline(line: str) -> Facts:
    """Versions stated inside a line: collect_env's first line run into the second, 'Huggingface_hub version: 0.16.4'."""
    facts: Facts = []
    torch_inline = re.search(r"\S\s{2,}PyTorch version: (\d\S+)", line)
    if torch_inline:
        facts += package_facts("torch", torch_inline.group(1))
    underscored = re.match(r"^\s*[-*]?\s*`?([A-Za-z][\w.-]*_[\w.-]+)`? version:\s*(\d\S*)", line)
    if underscored:
        facts += package_facts(underscored.group(1).lower(), underscored.group(2))
    # an env dump's 'sgl_kernel: 0.3.9.post2' (the import name, lower-case; an upper-case NAME_LIKE_THIS is an
    # environment variable): three version parts, so a config's 'weight_decay: 0.01' is not read as a package
    module = re.match(r"^\s*[-*]?\s*`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?:\s*(\d+\.\d+\.\d+\S*)\s*$", line)
    if module and not underscored:
        facts += package_facts(module.group(1), module.group(2))
    dashed = re.match(r"^\s*(?:[-*]\s+)?([A-Za-z][\w.]*(?:-[A-Za-z][\w.]*)*)\s+-\s+v?(\d+\.\d+(?:\.\d+)*)\s*$", line)
    if dashed:  # a version list written 'Jax-Metal - 0.1.1', 'Jaxlib - 0.5.1'
        facts += package_facts(dashed.group(1).lower(), dashed.group(2))
    return facts


def anywhere(line: str) -> Facts:
    """Every pattern that states a fact wherever it stands in a line."""
    return (mac_system(line) + cpu_and_os(line) + gpu_drivers(line) + gpus_in_use(line) + packages_inline(line)
            + log_line_facts(line) + report_line_facts(line))
