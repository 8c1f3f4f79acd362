"""What a Linux kernel log (dmesg, journalctl -k, a kernel oops) states about the machine it ran on:

- the kernel's own version string with Ubuntu's stamp ('Tainted: P OE 5.15.0-57-generic #63-Ubuntu', uname's
  '5.15.0-57-generic #63-Ubuntu SMP'): Linux, and Ubuntu's release whose own kernel that series is
  (knowledge/ubuntu_kernels.py). A backport ('#63~20.04.1-Ubuntu') names its release itself: not read here;
- arm64's data-abort report ('Mem abort info:', 'EC = 0x25: DABT (current EL)'): an aarch64 machine;
- an x86 stack dump's markers (a '<TASK>' / '<IRQ>' line, 'RIP: 0010:'): only arch/x86's dumpstack prints
  them, so the machine is x86_64;
- an amdgpu DKMS build of AMD's driver ('/var/lib/dkms/amdgpu/5.18.2.22.40-1504718.22.04/build',
  `dkms status`'s 'amdgpu/6.3.6-1697589.22.04, 5.15.0-88-generic, x86_64: installed'): Linux (DKMS builds Linux
  kernel modules), the amdgpu driver's version, and with `dkms status` the kernel's arch;
- the NVIDIA kernel modules' lines about one GPU ('[drm:nv_drm_load [nvidia_drm]] *ERROR* [nvidia-drm] [GPU ID
  0x00000100] ...', 'NVRM: GPU at PCI:0000:01:00: GPU-...', 'NVRM: GPU 0000:01:00.0: ...'): Linux with an NVIDIA GPU;
- the amdgpu kernel module's lines about one GPU ('amdgpu 0000:2b:00.0: amdgpu: GPU reset begin!', '[drm:amdgpu_job_timedout
  [amdgpu]] *ERROR* ring ...'): Linux with an AMD GPU bound to amdgpu;
- a ROCm build said to be made for one gfx target ('builds and installs without error for gfx900'): people build for
  the GPU they have, so an AMD GPU of that target;
- lsmod's row of a loaded Hyper-V guest driver ('hv_vmbus  176128  10 hv_balloon,...', hv_storvsc, hyperv_drm): those
  modules bind only to a Hyper-V host's VMBus devices (drivers/hv in the kernel), so the machine is a Hyper-V guest;
- Synology's DSM with its build ('DSM 7.3.2-86009'): DSM is Synology's Linux distribution for its NAS (a Linux kernel,
  'kernel 5.10.55+' in its own reports);
- Arch Linux's own kernel release ('6.0.1-arch2-1', as Mesa's renderer string and uname print it): Arch Linux ships
  for x86_64 only (archlinux.org: 'Arch Linux is an independent distribution for x86-64'); Arch Linux ARM's kernels
  are named otherwise ('5.15.0-1-ARCH').
"""
from __future__ import annotations

import re

from macml.knowledge.ubuntu_kernels import ubuntu_release_of_kernel
from macml.probe.paste.statement_rules import Facts

_UBUNTU_BUILD = re.compile(r"(?<![\w.-])(\d+\.\d+\.\d+)-\d+-[a-z][\w-]*\s+#\d+-Ubuntu\b")
_DMESG_PREFIX = r"^\s*(?:\[[^\]]{1,40}\]\s*)?(?:[A-Z][a-z]{2}\s+\d+\s+[\d:]+\s+\S+\s+kernel:\s*)?"
_X86_MARKER = re.compile(_DMESG_PREFIX + r"(?:</?(?:TASK|IRQ|NMI|SOFTIRQ)>\s*$|RIP:\s+00[13]0:)")
_DKMS_AMDGPU = re.compile(r"(?:/var/lib/dkms/amdgpu/|^\s*amdgpu[/,]\s*)(\d+\.\d+(?:\.\d+){0,4})-\d+(?:\.[\w.]+)?"
                          r"(?=[/,\s]|$)(?:,\s*\S+,\s*(x86_64|aarch64)\b)?")


def ubuntu_kernel(line: str) -> Facts:
    """'5.15.0-57-generic #63-Ubuntu' -> Ubuntu 22.04 (5.15 is 22.04's own kernel)."""
    found = _UBUNTU_BUILD.search(line)
    release = ubuntu_release_of_kernel(found.group(1)) if found else None
    return [("platform", "linux"), ("os.name", f"Ubuntu {release}")] if release else []


def x86_trace(line: str) -> Facts:
    """'[Fri Jan  6 18:42:01 2023]  <TASK>' -> x86_64."""
    return [("platform", "linux"), ("cpu.hardware_arch", "x86_64")] if _X86_MARKER.match(line) else []


def dkms_amdgpu(line: str) -> Facts:
    """'.../var/lib/dkms/amdgpu/5.18.2.22.40-1504718.22.04/build/...' -> driver 5.18.2.22.40, Linux."""
    found = _DKMS_AMDGPU.search(line)
    if not found:
        return []
    facts: Facts = [("platform", "linux"), ("gpu.driver", found.group(1))]
    return facts + ([("cpu.hardware_arch", found.group(2))] if found.group(2) else [])


_NVIDIA_GPU_LINE = re.compile(r"\[nvidia-drm\]\s*\[GPU ID 0x[0-9a-f]+\]|\bNVRM: GPU (?:at PCI:)?[0-9a-f]{4}:[0-9a-f]{2}:",
                              re.IGNORECASE)


_AMDGPU_GPU_LINE = re.compile(r"\bamdgpu [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d: amdgpu:|\[drm:amdgpu_\w+ \[amdgpu\]\]")
_BUILT_FOR_GFX = re.compile(r"\b(?:build|builds|built|building|compiles?|compiled|compiling)\b[^.;]{0,40}?\bfor (gfx[0-9a-f]{3,4})\b"
                            r"(?![\s,/]+gfx)", re.IGNORECASE)


def amdgpu_module_gpu(line: str) -> Facts:
    """'amdgpu 0000:2b:00.0: amdgpu: BACO reset' -> Linux, an AMD GPU (the amdgpu module names its device)."""
    return [("platform", "linux"), ("gpu.present", "AMD")] if _AMDGPU_GPU_LINE.search(line) else []


def built_for_gfx(line: str) -> Facts:
    """'builds and installs without error for gfx900' -> an AMD GPU of target gfx900 (one target, not a list)."""
    found = _BUILT_FOR_GFX.search(line)
    return [("gpu.present", "AMD"), ("gpu.gfx", found.group(1).lower())] if found else []


def nvidia_module_gpu(line: str) -> Facts:
    """'[nvidia-drm] [GPU ID 0x00000100] Failed to register device' -> Linux, an NVIDIA GPU (the module names it)."""
    return [("platform", "linux"), ("gpu.present", "NVIDIA")] if _NVIDIA_GPU_LINE.search(line) else []


# lsmod: name, size, then a use count; a guest driver in use (count > 0) is bound to a VMBus device
_HYPERV_MODULE = re.compile(r"^\s*(?:hv_vmbus|hv_storvsc|hv_netvsc|hv_utils|hv_balloon|hyperv_drm|hyperv_fb|hyperv_keyboard"
                            r"|hid_hyperv|pci_hyperv)\s+\d+\s+[1-9]\d*\b")


def hyperv_modules(line: str) -> Facts:
    """'hv_vmbus   176128  10 hv_balloon,hv_utils,...' (lsmod) -> a Linux guest of Microsoft Hyper-V."""
    return [("platform", "linux"), ("hypervisor", "Microsoft Hyper-V")] if _HYPERV_MODULE.match(line) else []


_SYNOLOGY_DSM = re.compile(r"\bDSM\s?\d\.\d(?:\.\d)?-\d{5}\b|\bSynology\b[^.]{0,60}\bDSM\s?\d")


def synology_dsm(line: str) -> Facts:
    """'DSM 7.3.2-86009 Update 1' -> Linux, that DSM release (the name as written)."""
    if not _SYNOLOGY_DSM.search(line):
        return []
    release = re.search(r"\bDSM\s?\d\.\d(?:\.\d)?(?:-\d{5})?(?: Update \d+)?", line)
    return [("platform", "linux")] + ([("os.name", release.group())] if release else [])


# arm64's data-abort report (arch/arm64/mm/fault.c: 'Mem abort info:', then 'ESR = 0x...' and 'EC = 0x25: DABT (current
# EL), IL = 32 bits'): only an arm64 kernel prints it
_ARM64_ABORT = re.compile(_DMESG_PREFIX + r"(?:Mem abort info:|Data abort info:|EC = 0x[0-9a-f]{2}: \w+ \((?:current|lower) EL\))")


def arm64_abort(line: str) -> Facts:
    """'[    8.466327] Mem abort info:' -> Linux on aarch64 hardware."""
    return [("platform", "linux"), ("cpu.hardware_arch", "aarch64")] if _ARM64_ABORT.match(line) else []


# an X server log's line from AMD's old fglrx (Catalyst) driver: '(--) fglrx(0): Video RAM: 2097152 kByte, Type: GDDR5'
_FGLRX_VRAM = re.compile(r"\(--\) fglrx\(\d\): Video RAM: (\d{5,9}) kByte\b")


def fglrx_vram(line: str) -> Facts:
    """fglrx's 'Video RAM: 2097152 kByte' -> Linux, an AMD GPU of 2048 MiB."""
    found = _FGLRX_VRAM.search(line)
    return ([("platform", "linux"), ("gpu.present", "AMD"),
             ("gpu.memory_of", {"index": None, "memory_mib": int(found.group(1)) // 1024})] if found else [])


_NOUVEAU_VRAM = re.compile(_DMESG_PREFIX + r"nouveau [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d: DRM: VRAM: (\d{2,6}) MiB\s*$")


def nouveau_vram(line: str) -> Facts:
    """'nouveau 0000:01:00.0: DRM: VRAM: 2048 MiB' -> the NVIDIA GPU's memory, as nouveau read it from the card."""
    found = _NOUVEAU_VRAM.match(line)
    return [("gpu.memory_of", {"index": None, "memory_mib": int(found.group(1))})] if found else []


_ARCH_KERNEL = re.compile(r"(?<![\w.])[3-9]\.\d{1,2}(?:\.\d{1,3})?-arch\d+-\d+\b")


def arch_kernel(line: str) -> Facts:
    """'NAVI22 (navi22, LLVM 14.0.6, DRM 3.48, 6.0.1-arch2-1)' -> Linux on x86_64."""
    return [("platform", "linux"), ("cpu.hardware_arch", "x86_64")] if _ARCH_KERNEL.search(line) else []


def line_facts(line: str) -> Facts:
    return (ubuntu_kernel(line) + arch_kernel(line) + x86_trace(line) + arm64_abort(line) + nouveau_vram(line) + fglrx_vram(line)
            + dkms_amdgpu(line) + nvidia_module_gpu(line) + amdgpu_module_gpu(line) + built_for_gfx(line) + hyperv_modules(line)
            + synology_dsm(line))
