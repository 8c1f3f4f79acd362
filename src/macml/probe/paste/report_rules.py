"""Facts stated by reports that are neither dumps nor system tools: bitsandbytes' bug-report banner,
CUDA's deviceQuery, pip's install log (wheel tags), file paths in tracebacks, shell prompts, a Mac
named with its chip ('Mac Studio M3 Ultra'), a distribution named on its own line, and what the
text shows being imported or installed (the frameworks its user works with).
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.knowledge.release_versions import pinned_release
from macml.probe.paste.gpu_names import CHIP, gib, gpu_names, gpu_record
from macml.probe.paste.packages import canonical
from macml.probe.paste.prose_rules import prose_line_facts
from macml.probe.paste.said_of_this_machine import NEGATION

Facts = List[Tuple[str, Any]]

_WHEEL = re.compile(r"-(?:cp([23])(\d{1,2})|py3)-(?:cp[23]\d+(?:mu?|t)?|abi3|none)-(macosx_\d+_\d+_(arm64|x86_64|universal2)"
                    r"|(?:many|musl)linux[\w.]*_(x86_64|aarch64)|win_amd64)\.whl\b")
# the wheel the writer says they installed or use, by its file name's distribution and version
_USED_WHEEL = re.compile(r"\b(?:I|we)\b[^.;]{0,20}?\b(?:install(?:ed|ing)?|using|used|use)\b[^.;]{0,30}?(?<![\w.-])"
                         r"([A-Za-z][\w.]*?)-(\d+(?:\.\d+)+\w*)$", re.IGNORECASE)  # the writer's, not pip's 'Using cached ...'
_SITE_PACKAGES = re.compile(r"/lib(?:64)?/python([23])\.(\d{1,2})/(?:site|dist)-packages/")
_PYENV_VERSION = re.compile(r"/\.?pyenv/versions/(3\.\d{1,2}\.\d{1,2})/(?:bin|lib)/")  # pyenv's own directory for it
_MAC_PATH = re.compile(r"(?:^|[\s'\"(=])(?:/Users/[\w.-]+/|/opt/homebrew/|/Library/Frameworks/Python\.framework/)")
_LINUX_PATH = re.compile(r"(?:^|[\s'\"(=])/(?:home|mnt)/[\w.-]+/|\blib\w*cuda\w*\.so\b|\blibcudart\.so\b"
                         r"|\blib[\w+-]+\.so\.\d+\b")  # a versioned soname ('libOpenCL.so.1'): ELF, which macOS and Windows don't use
# an extension module's file name carries its CPython's tag: '_C.cpython-39-x86_64-linux-gnu.so'
_EXTENSION_TAG = re.compile(r"\.cpython-3(\d{1,2})-(x86_64|aarch64)-linux-gnu\.so\b")
_MKL_DYLIB = re.compile(r"\blibmkl_\w+?(?:\.\d+)*\.dylib\b")  # 'dlopen(/opt/miniconda3/envs/ml/lib/libmkl_intel_thread.1.dylib'
_APPLE_TRIPLE = re.compile(r"\b(arm64|x86_64)-apple-darwin\d*\b")
# bash's default macOS prompt 'Host-MacBook-Pro:dir user$', zsh's 'user@host dir %'
_MAC_PROMPT = re.compile(r"^\s*(?:\([\w.-]+\)\s*)*(?:[\w-]*(?:MacBook|iMac|Mac-mini|Macmini|Mac-Pro|Mac-Studio)[\w.-]*:\S* [\w.-]+\$"
                         r"|[\w.-]+@[\w.-]+ [~/][\w./~-]* %)\s")
_MAC_WITH_CHIP = re.compile(r"\b(?:MacBook(?: Pro| Air)?|Mac ?Studio|Mac ?mini|iMac|Mac Pro)[\s*,]+(M\d{1,2})(?: (Pro|Max|Ultra))?\b"
                            r"|\b[Aa]pple [Ss]ilicon,? \(?([Mm]\d{1,2})(?: ([Pp]ro|[Mm]ax|[Uu]ltra))?\b")
_CHIP_MEMORY = re.compile(r"\bM\d{1,2}(?: (?:Pro|Max|Ultra))?\**,\s*(\d+)\s*GB\b|\b(?:Memory|RAM)\s+(\d+)\s*G(?:B|iB)?\b")
_DISTRO_LINE = re.compile(r"^\s*((?:Ubuntu|Debian(?: GNU/Linux)?|Fedora(?: Linux)?|CentOS(?: Linux)?|Rocky Linux|Linux Mint|"
                          r"Pop!_OS|Arch Linux|openSUSE \w+|Kali Linux \w+|Manjaro(?: Linux)?) \d+(?:\.\d+)*(?: LTS)?)\s*$")
_BNB_CAPABILITY = re.compile(r"CUDA SETUP: Highest compute capability among GPUs detected: (\d+\.\d)\b")
_DEVICE_QUERY = re.compile(r'^\s*Device (\d+): "([^"]+)"\s*$')
_DOCKER_HOST = re.compile(r"detected host platform \((linux)/(amd64|arm64|x86_64|aarch64)")
_USED = re.compile(r"^\s*(?:>>>\s*)?(?:import|from) (torch|tensorflow|mlx|jax|plaidml|keras)\b"
                   r"|\b(?:pip3?|uv pip|conda) install (?:-[-\w]+(?:\s+\S+)? )*([a-z][\w.-]*)"
                   r"|^\s*Collecting ([a-z][\w.-]*)|\bsatisfies the requirement ([a-z][\w.-]*)"
                   r"|/site-packages/(tensorflow|mlx|jax|torch|plaidml|keras)/|\b(tensorflow)\[?/core/\S+\.cc:\d+\]"
                   r"|\b(plaidml)\.keras\.backend|INFO:(plaidml):")
_INLINE_PIN = re.compile(r"(?:^|[\s(`'\"])([a-z][a-z0-9_.-]*[a-z0-9])==(\d+(?:\.\d+)+[\w.+]*)(?=[\s)`'\",]|$)")
_BACKTICK_PACKAGE = re.compile(r"`([a-z][a-z0-9_.-]*[a-z0-9]) v?(\d+(?:\.\d+)+[\w.+]*)`")
_PLAIDML_ID = re.compile(r"\b(metal|opencl)_((?:amd|nvidia|intel|apple)(?:\(r\))?_[a-z0-9_()-]+?)(?:\.\d+)?(?=[\"'\s,.]|$)")
_DIST_ALIASES = {"pytorch": "torch"}  # conda's name of torch ('pytorch==1.7.1+cu110')
_NOT_DISTRIBUTIONS = {"python", "python3", "macos", "cuda", "ubuntu", "darwin", "xcode", "metal", "version"}


def wheel_tag(line: str) -> Facts:
    """pip's 'numpy-2.2.3-cp313-cp313-macosx_14_0_arm64.whl': pip picks only wheels its own Python can
    install, so the tag names that Python's OS, arch and minor version."""
    found = _WHEEL.search(line)
    if not found:
        return []
    major, minor, tag, mac_arch, linux_arch = found.groups()
    facts: Facts = [("python.minor", f"{major}.{minor}")] if minor else []
    if tag.startswith("macosx"):
        facts.append(("platform", "darwin"))
        if mac_arch != "universal2":
            facts.append(("python.machine", mac_arch))
    elif linux_arch:
        facts += [("platform", "linux"), ("python.machine", linux_arch)]
    else:
        facts += [("platform", "win32"), ("python.machine", "x86_64")]
    named = _USED_WHEEL.search(line[:found.start()])  # 'I tried using this build tensorflow-1.12.0-cp36-...whl'
    if named:
        facts.append(("package", {"name": canonical(named.group(1)), "version": named.group(2)}))
    return facts


# pip's warning under an old Python, of the Python running it: 'DEPRECATION: Python 2.7 will reach the end of its life
# on January 1st, 2020' (pip 19.x), 'DEPRECATION: Python 3.5 reached the end of its life on September 13th, 2020'
_PIP_PYTHON_EOL = re.compile(r"^\s*DEPRECATION: Python ([23]\.\d{1,2}) (?:will reach|reached|has reached) the end of its life\b")


def pip_python_end_of_life(line: str) -> Facts:
    found = _PIP_PYTHON_EOL.match(line)
    return [("python.minor", found.group(1))] if found else []


# an environment's own Python: a conda env's or a venv's lib/pythonX.Y (its standard library, not a system Python's)
_ENV_STDLIB = re.compile(r"/(?:envs/[\w.-]+|\.?venv[\w.-]*|virtualenvs/[\w.-]+)/lib/python(3)\.(\d{1,2})/")


_BUILD_DIR = re.compile(r"\bbuild/(?:src|temp|lib)\.macosx-\d+\.\d+-(arm64|x86_64)-(3\.\d{1,2})\b")
# NVIDIA's CUDA libraries built for macOS ('libcudart.10.0.dylib'): NVIDIA shipped CUDA for macOS up to 10.2, for
# Intel Macs (docs.nvidia.com/cuda/archive/10.2: 'CUDA 10.2 is the last release to support macOS')
_CUDA_DYLIB = re.compile(r"\blib(?:cudart|cublas|cudnn|cufft|curand|cusolver|cusparse|nvrtc|cuda)(?:\.\d+)*\.dylib\b")


def path_facts(line: str) -> Facts:
    """A path names its OS: /Users/... and /opt/homebrew are macOS's, /home/..., /mnt/... (macOS mounts under /Volumes;
    WSL's /mnt/c is Linux too), lib*cuda*.so and sonames ('libOpenCL.so.1') Linux's;
    '.../lib/python3.11/site-packages/' (Fedora's '/usr/local/lib64/python3.13/site-packages/') names the Python's minor version (so does an environment's own standard library,
    '.../envs/comfyui/lib/python3.13/multiprocessing/...'), pyenv's '/.pyenv/versions/3.8.13/lib/...' its
    version; 'x86_64-apple-darwin13' is a
    macOS build triple (conda's host name); an MKL dylib loaded ('libmkl_intel_thread.1.dylib') an x86_64 Python's."""
    facts: Facts = []
    site = _SITE_PACKAGES.search(line) or _ENV_STDLIB.search(line)
    if site:
        facts.append(("python.minor", f"{site.group(1)}.{site.group(2)}"))
    pyenv = _PYENV_VERSION.search(line)
    if pyenv and (not site or pyenv.group(1).startswith(f"{site.group(1)}.{site.group(2)}.")):
        facts.append(("python.version", pyenv.group(1)))
    extension = _EXTENSION_TAG.search(line)
    if extension:
        facts += [("platform", "linux"), ("python.machine", extension.group(2)), ("python.minor", f"3.{extension.group(1)}")]
    if _MKL_DYLIB.search(line):  # Intel builds MKL for macOS on x86_64 only: the process loading it is x86_64
        facts += [("platform", "darwin"), ("python.machine", "x86_64")]
    build_dir = _BUILD_DIR.search(line)
    if build_dir:  # setuptools' build/src.macosx-13.2-arm64-3.7: the platform tag of the Python building the package
        facts += [("platform", "darwin"), ("python.machine", build_dir.group(1)), ("python.minor", build_dir.group(2))]
    if _CUDA_DYLIB.search(line):  # CUDA for macOS (10.2 at the last) ran on Intel Macs only
        facts += [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    if _MAC_PATH.search(line) or _APPLE_TRIPLE.search(line) or _MAC_PROMPT.match(line):
        facts.append(("platform", "darwin"))
    elif _LINUX_PATH.search(line):
        facts.append(("platform", "linux"))
    return facts


def mac_with_chip(line: str) -> Facts:
    """'Mac Studio **M3 Ultra, 96 GB**', 'MacBook Air M1', 'apple silicon m1': the chip of a Mac named
    without 'Apple', and the memory written beside it."""
    found = _MAC_WITH_CHIP.search(line)
    memory = _CHIP_MEMORY.search(line) if found or CHIP.search(line) else None  # also 'Apple M1 chip Memory 8G'
    facts: Facts = [("cpu.memory_bytes", gib((memory.group(1) or memory.group(2)) + " GB"))] if memory else []
    if not found:
        return facts
    generation, tier = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
    chip = "Apple " + generation.upper() + (f" {tier.capitalize()}" if tier else "")
    return [("platform", "darwin"), ("cpu.brand", chip), ("gpu.mention", chip)] + facts


def gpu_reports(line: str) -> Facts:
    """bitsandbytes' 'CUDA SETUP: Highest compute capability among GPUs detected: 6.1' (a Linux CUDA
    library's banner), deviceQuery's 'Device 0: "NVIDIA Tegra X1"', and 'Apple M2 Max GPU 38-cores'."""
    capability = _BNB_CAPABILITY.search(line)
    if capability:
        return [("platform", "linux"), ("gpu.present", "NVIDIA"),
                ("gpu.capability", {"name": None, "capability": capability.group(1)})]
    cores = re.search(r"\bApple M\d{1,2}(?: (?:Pro|Max|Ultra))? GPU,? (\d{1,3})[- ]cores?\b", line)
    if cores:
        return [("gpu.cores", int(cores.group(1)))]
    device = _DEVICE_QUERY.match(line)
    if device:
        return [gpu_record(device.group(2), index=int(device.group(1)))]
    return []


def system_line(line: str) -> Facts:
    """A distribution named alone on a line ('Ubuntu 21.04'), docker's 'detected host platform
    (linux/arm64/v8)', and the Apple Paravirtual device only a macOS guest has."""
    facts: Facts = []
    distro = _DISTRO_LINE.match(line)
    if distro:
        facts += [("platform", "linux"), ("os.name", distro.group(1))]
    host = _DOCKER_HOST.search(line)
    if host:
        arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(host.group(2), host.group(2))
        facts += [("platform", "linux"), ("cpu.hardware_arch", arch)]
    if "Apple Paravirtual device" in line or _PARAVIRT_DRIVER.search(line):
        facts += [("platform", "darwin"), ("hypervisor", "Apple Virtual Machine")]
    vm = _MACOS_VM_VIA.search(line)
    if vm:
        facts += [("platform", "darwin"), ("hypervisor", vm.group(1).title().replace("Vmware", "VMware").replace("Utm", "UTM"))]
    named_vm = _NAMED_VM.search(line)
    if named_vm and not vm and not NEGATION.search(line[max(0, named_vm.start() - 20):named_vm.start()]):
        facts.append(("hypervisor", named_vm.group(1)))  # the guest's OS is not said
    return facts


# the Metal driver of a macOS guest's paravirtual GPU ('AppleParavirtGPUMetalIOGPUFamily', '-[AppleParavirtDevice ...]')
_PARAVIRT_DRIVER = re.compile(r"\bAppleParavirt(?:Device|GPU\w*)\b")
# 'MacOS 14.1.1 VM running via Parallels 19.1.1', 'a macOS VM in UTM'
_MACOS_VM_VIA = re.compile(r"\bmac ?OS\b[^;!?]{0,20}?\b(?:VM|virtual machine|guest)\b[^;!?]{0,20}?\b(?:via|in|on|under|with)\s+"
                           r"(Parallels|VMware|UTM|VirtualBox|Tart)\b", re.IGNORECASE)


# 'it seems to crash inside a UTM VM with M1 mac': a VM named by its hypervisor
_NAMED_VM = re.compile(r"\b(?:inside|in|on|within|under)\s+(?:a|an|the|my)\s+(UTM|Parallels|VMware(?: Fusion)?|VirtualBox|Tart)\s+"
                       r"(?:VM|virtual machine|guest)\b")


def frameworks_used(line: str) -> Facts:
    """What the user imports, installs or runs ('import tensorflow', 'pip install mlx', 'Collecting
    jax-metal', a traceback through site-packages/tensorflow/): the frameworks they work with."""
    facts: Facts = []
    for found in _USED.finditer(line):
        name = next(g for g in found.groups() if g)
        facts.append(("framework.used", name.lower()))
    return facts


def inline_packages(line: str) -> Facts:
    """'tensorflow-metal==1.1.0' in prose, '`mlx 0.32.2`', pip's 'Successfully installed numpy-2.2.3', 'xFormers 0.0.35+42fc265.d20260623' (xformers.info's
    banner): a distribution and its version. A requirement pip could not satisfy was never installed."""
    unmet = re.search(r"Could not find a version that satisfies|No matching distribution found for|"
                      r"ResolutionImpossible|conflicting dependencies|requires? a different Python"
                      r"|can(?:'|no)t be installed|doesn't have a source distribution or wheel"
                      r"|^\s*error: Distribution `|没有\s*`?[\w.-]+==", line)  # uv's words; its error breaks the line after 'can't be'
    pins = [(name, pinned_release(name, version)) for name, version in _INLINE_PIN.findall(line)]  # '==2.11' is 2.11.0
    pairs = [] if unmet else pins + _BACKTICK_PACKAGE.findall(line)
    installed = re.match(r"^\s*Successfully installed ((?:\S+-\d\S*\s*)+)$", line)  # pip's last line
    if installed:
        pairs += [tuple(item.rsplit("-", 1)) for item in installed.group(1).split()]
    banner = re.match(r"^\s*xFormers (\d+\.\d+\.\d+\S*)\s*$", line)
    if banner:
        pairs.append(("xformers", banner.group(1)))
    return [("package", {"name": _DIST_ALIASES.get(canonical(name), canonical(name)), "version": version})
            for name, version in pairs if name.lower() not in _NOT_DISTRIBUTIONS]


def plaidml_device_id(line: str) -> Facts:
    """PlaidML's device ids spell the GPU's name: 'opencl_intel_intel(r)_iris(tm)_plus_graphics_655.0' is
    Intel(R) Iris(TM) Plus Graphics 655, 'metal_apple_m1.0' Apple M1; a Metal device is a Mac's."""
    found = _PLAIDML_ID.search(line)
    if not found:
        return []
    words = found.group(2).split("_")
    if len(words) > 1 and words[1].startswith(words[0]):  # 'intel_intel(r)_...': the vendor, then the name
        words = words[1:]
    name = " ".join(w.upper() if w in ("amd", "xt", "hd", "uhd", "rx", "gtx", "rtx") or re.fullmatch(r"m\d+|\d+[a-z]{1,2}", w) else w.capitalize()
                    for w in words)
    name = re.sub(r"\((r|tm)\)", lambda m: f"({m.group(1).upper()})", name, flags=re.IGNORECASE)
    names = gpu_names(name)
    facts: Facts = [("gpu.mention", names[0])] if names else []
    opened = re.search(r'Opening device "[^"]*\.(\d)"', line)  # the device PlaidML runs on: '.1' is the second of that name
    if names and opened and found.group(1) == "metal":
        facts += [gpu_record(names[0], index=i) for i in range(int(opened.group(1)) + 1)]
        # the FirePro D300/D500/D700 exist only as the pair in the Mac Pro (Late 2013) (Apple's tech specs, MacPro6,1)
        facts += [("cpu.model", "MacPro6,1")] if re.fullmatch(r"(?:AMD )?FirePro D[357]00", names[0]) else []
    return facts + ([("platform", "darwin")] if found.group(1) == "metal" else [])


def torch_backend_answers(line: str) -> Facts:
    """'torch.backends.mps.is_built() == True', 'torch.backends.mps.is_available() -> False'."""
    found = re.search(r"torch\.backends\.mps\.is_(available|built)\(\)\s*(?:==|=>|->|:|returns)\s*(True|False)\b", line)
    return [(f"torch.mps_{found.group(1)}", found.group(2) == "True")] if found else []


def report_line_facts(line: str) -> Facts:
    facts: Facts = []
    for rule in (wheel_tag, pip_python_end_of_life, path_facts, mac_with_chip, gpu_reports, system_line, frameworks_used, inline_packages,
                 torch_backend_answers, plaidml_device_id):
        facts += rule(line)
    return facts + prose_line_facts(line)
