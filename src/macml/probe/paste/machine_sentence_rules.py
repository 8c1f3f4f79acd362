"""The machine described in a sentence, each a pure function returning stated facts.

- A distribution and release, then its kernel and/or architecture: 'Ubuntu 22.04 5.15.0-71-generic x64'.
- The writer's own 'Running on a virtual machine' / 'in a VM' / 'these problems are VM specific': a hypervisor guest
  (which one is not said).
- Memory counted in kB as /proc/meminfo counts it: 'with 49437012 kB of memory' (KiB); the writer's 'My RAM is only 32G'.
- An Intel desktop CPU named by its number alone, with its K/F suffix: '14700K' (Core i7-14700K), '12900KS'.
"""
from __future__ import annotations

import re

from macml.knowledge.macos import sole_release
from macml.probe.paste.said_of_this_machine import NEGATION
from macml.probe.paste.statement_rules import Facts

_ARCH = {"x64": "x86_64", "x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}
_DISTRO_KERNEL_ARCH = re.compile(r"\b(Ubuntu|Debian|Fedora|CentOS|Rocky Linux|AlmaLinux|Linux Mint|openSUSE Leap)\s+"
                                 r"(\d{1,2}(?:\.\d{1,2}){0,2})(?:\s+LTS)?(?:\s+(\d+\.\d+\.\d+-[\w.-]+))?"
                                 r"(?:\s+(x64|x86_64|amd64|aarch64|arm64))?(?![\w.-])")
_VM = re.compile(r"\b(?:running|run|runs|working)\s+(?:on|in|inside)\s+(?:a|an|my|our|the)\s+(?:virtual machine|VM)\b(?!\s*[:=])"
                 # 'now i use ubuntu22.04 vm with kernel 5.19': the writer works in a VM of that OS
                 r"|\bI\s+(?:now\s+)?(?:use|am using|'m using|run|am running|'m running)\s+(?:an?\s+|my\s+|the\s+)?"
                 r"(?:[\w.-]+\s+)?(?:VM|virtual machine)\b(?!\s*[:=])"
                 # 'I'm assuming these problems are VM specific': the writer's own problems come from the VM they run in
                 # 'if I run plaidml-setup inside a Mac OS 10.11.5 (el capitan) VM': the writer's run is in a guest
                 r"|\b(?:I|we)\s+(?:run|ran|try|tried|use|used)\b[^.;]{0,40}?\b(?:inside|within)\s+(?:an?|my|our|the)\s+"
                 r"(?:[^.;,!?]|\.(?=\S)){0,40}?"
                 r"\b(?:VM|virtual machine)\b(?!\s*[:=])"
                 r"|\b(?:these|those|the|my|this|our)\s+(?:problems?|issues?|errors?|bugs?|crash(?:es)?)\s+(?:are|is)\s+"
                 r"(?:probably\s+|likely\s+|just\s+)?(?:VM|virtual[- ]machine)[- ]specific\b", re.IGNORECASE)
_MY_MEMORY = re.compile(r"\bmy\s+(?:RAM|memory|unified\s+memory)\s+is\s+(?:only\s+|just\s+)?(\d{1,3})\s?(?:G|GB|GiB)\b(?![\w.])",
                        re.IGNORECASE)
_KB_MEMORY = re.compile(r"\b(\d{6,10})\s?kB\s+(?:of\s+)?(?:memory|RAM)\b", re.IGNORECASE)


# Intel Core 10th-14th generation desktop numbers ('i7-14700K' without 'i7-'), source: Intel ark's Core processor
# lists; the suffix is required, since a bare 14700 could be anything
_INTEL_DESKTOP = re.compile(r"(?<![\w.-])(1[0-4][1-9]\d0)(KS|KF|K|F)(?![\w.-])", re.IGNORECASE)


def intel_desktop_cpu(line: str) -> Facts:
    found = _INTEL_DESKTOP.search(line)
    return [("cpu.brand", f"Intel Core {found.group(1)}{found.group(2).upper()}")] if found else []


def distro_kernel_arch(line: str) -> Facts:
    """'Ubuntu 22.04 5.15.0-71-generic x64': Linux, that release, its kernel and the machine's arch."""
    found = _DISTRO_KERNEL_ARCH.search(line)
    if not found or not (found.group(3) or found.group(4)):
        return []
    facts: Facts = [("platform", "linux"), ("os.name", f"{found.group(1)} {found.group(2)}")]
    facts += [("os.kernel", found.group(3))] if found.group(3) else []
    return facts + ([("cpu.hardware_arch", _ARCH[found.group(4).lower()])] if found.group(4) else [])


# 'I'm using VMWare with sequoia OS on a ryzen 2600': the writer's OS runs in that hypervisor
_USING_HYPERVISOR = re.compile(r"\bI(?:'m|\s+am)\s+(?:using|running)\s+(VMware|VirtualBox|Parallels|QEMU|UTM)\s+(?:with|to run|for)\b",
                               re.IGNORECASE)
_HYPERVISOR_NAMES = {"vmware": "VMware", "virtualbox": "VirtualBox", "parallels": "Parallels", "qemu": "QEMU", "utm": "UTM"}


def virtual_machine(line: str) -> Facts:
    using = _USING_HYPERVISOR.search(line)
    if using and not NEGATION.search(line[:using.start()]):
        guest = sole_release(line[using.end():using.end() + 30])  # '... with sequoia OS': a macOS guest
        return [("hypervisor", _HYPERVISOR_NAMES[using.group(1).lower()])] + (
            [("platform", "darwin"), ("os.release", guest)] if guest else [])
    found = _VM.search(line)
    return [("hypervisor", None)] if found and not NEGATION.search(line[:found.start()]) else []


def kb_memory(line: str) -> Facts:
    found = _KB_MEMORY.search(line)
    return [("cpu.memory_bytes", int(found.group(1)) * 1024)] if found else []


def my_memory(line: str) -> Facts:
    """'(My RAM is only 32G)': the writer's machine's memory."""
    found = _MY_MEMORY.search(line)
    return [("cpu.memory_bytes", int(found.group(1)) * 1024**3)] if found else []


def line_facts(line: str) -> Facts:
    return distro_kernel_arch(line) + virtual_machine(line) + kb_memory(line) + my_memory(line) + intel_desktop_cpu(line)
