"""A machine the writer says is a virtual machine guest:

- an environment list with 'Guest: macOS 13.7.8 Ventura' beside 'Host: Windows 11, AMD R7-7735HS / Radeon 680M':
  the text is about the guest, so it is a VM, and the Host line's hardware is another machine's (`host_lines`);
- 'I have a macos sequoia 15.3.2 VM hosted in proxmox': the writer's OS is a VM's;
- an OS answer with its hypervisor in parentheses ('OS: mac OS 13 (VMware Workstation 17 Pro)');
- 'it is running inside a KVM': the machine the text is about is that hypervisor's guest.

The hypervisor is the one the text names (QEMU, Proxmox, ...), else left generic. A macOS guest of QEMU, KVM,
Proxmox, VirtualBox, Hyper-V or VMware Workstation (a PC's hypervisor) is an x86_64 one: macOS runs on Apple silicon only under Apple's Virtualization
framework, which none of these use."""
from __future__ import annotations

import re
from typing import Dict, FrozenSet, Sequence

from macml.probe.paste.said_of_this_machine import hypothetical
from macml.probe.paste.statement_rules import Facts

_OS_WORDS = r"(?:mac\s?OS|Mac OS X|OS X|Windows|Ubuntu|Debian|Fedora|Linux|Arch)"
_GUEST = re.compile(r"^\s*[-*]?\s*(?:\*\*)?Guest(?:\s+OS)?(?:\*\*)?\s*:\s*(?:\*\*)?\s*" + _OS_WORDS, re.IGNORECASE)
_HOST = re.compile(r"^\s*[-*]?\s*(?:\*\*)?Host(?:\s+(?:OS|machine|system))?(?:\*\*)?\s*:", re.IGNORECASE)
_HYPERVISORS = (("vmware workstation", "VMware Workstation"), ("proxmox", "Proxmox (KVM)"), ("qemu", "QEMU"), ("kvm", "KVM"), ("vmware", "VMware"),
                ("parallels", "Parallels"), ("virtualbox", "VirtualBox"), ("utm", "UTM"), ("hyper-v", "Hyper-V"))
_MY_VM = re.compile(r"\b(?:I\s+have|I'?m\s+(?:running|using)|I\s+(?:run|use)|running|on)\s+(?:a|an|my)\s+" + _OS_WORDS
                    + r"(?:\s+[A-Za-z]+)?(?:\s+\d{1,2}(?:\.\d{1,2}){0,2})?\s+(?:VM|virtual machine|guest)\b", re.IGNORECASE)


def _hypervisor(text: str) -> str:
    lowered = text.lower()
    return next((label for word, label in _HYPERVISORS if re.search(rf"\b{re.escape(word)}\b", lowered)),
                "a virtual machine (the text's guest)")


_X86_ONLY_FOR_MACOS = ("QEMU", "KVM", "Proxmox (KVM)", "VirtualBox", "Hyper-V", "VMware Workstation")
_OS_IN_HYPERVISOR = re.compile(r"^\s*[-*]?\s*(?:\*\*)?OS(?:\s+version)?(?:\*\*)?\s*:\s*(?:\*\*)?\s*" + _OS_WORDS
                               + r"[^()]{0,30}\((?:(?:running\s+)?(?:in|on|under|inside)\s+)?(?:a\s+)?"
                               r"(VMware(?: Workstation| Fusion)?|VirtualBox|Parallels|UTM|QEMU|KVM|Proxmox|Hyper-V)\b", re.IGNORECASE)


def _vm_facts(os_text: str, hypervisor: str) -> Facts:
    mac = re.search(r"\b(?:mac\s?OS|Mac OS X|OS X)\b", os_text, re.IGNORECASE)
    return [("hypervisor", hypervisor)] + ([("cpu.hardware_arch", "x86_64")] if mac and hypervisor in _X86_ONLY_FOR_MACOS else [])


def _guest_line(lines: Sequence[str]) -> int:
    return next((i for i, line in enumerate(lines) if _GUEST.match(line)), -1)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    guest = _guest_line(lines)
    if guest < 0:
        return {}
    return {guest: _vm_facts(lines[guest], _hypervisor("\n".join(lines)))}


def host_lines(lines: Sequence[str]) -> FrozenSet[int]:
    """The 'Host:' lines of a text about a VM guest: another machine's hardware."""
    if _guest_line(lines) < 0:
        return frozenset()
    return frozenset(i for i, line in enumerate(lines) if _HOST.match(line))


_RUNNING_INSIDE = re.compile(r"\b(?:it|this|mine|I)\s*(?:is|am|'m|'s)\s+(?:running\s+)?(?:inside|in|on|under)\s+(?:a|an)\s+"
                             r"(KVM|QEMU|VirtualBox|VMware(?: Workstation| Fusion)?|Parallels|UTM|Proxmox|Hyper-V)"
                             r"(?:\s+(?:VM|guest|virtual machine))?\b", re.IGNORECASE)


def line_facts(line: str) -> Facts:
    inside = _RUNNING_INSIDE.search(line)
    if inside and not hypothetical(line):
        return [("hypervisor", _hypervisor(inside.group(1)))]
    answer = _OS_IN_HYPERVISOR.match(line)
    if answer:
        return _vm_facts(answer.group(), _hypervisor(answer.group(1)))
    found = _MY_VM.search(line)
    if not found or hypothetical(line):
        return []
    return _vm_facts(found.group(), _hypervisor(line))
