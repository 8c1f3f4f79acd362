"""Signs of the host that set 13's captures showed, each a pure function returning stated facts:

- an x86 CPU family named in prose as the machine's ('paired with a Ryzen 5800H', 'an HPE server with two Epyc
  CPUs'): an x86_64 machine;
- an AMD APU's integrated Radeon by its own name ('Radeon 8060S Graphics', 'Radeon 780M'): the APU's CPU cores
  are x86 (Zen), so x86_64;
- rocminfo's 'ROCk module is loaded' (ROCk: the amdgpu kernel driver's compute interface, a Linux module): Linux;
- a 'Running in a VM: no' answer (PAPI's papi_component_avail, from CPUID's hypervisor bit): bare metal; 'yes': a guest;
- inxi's 'Mobo: ASUSTeK model: PRIME B550-PLUS': a physical board (a guest's is QEMU's, VMware's, innotek's ...);
- an Intel Arc card by its bare number beside 'Arc' ('an Intel ARC card (I'm using an A770)');
- a Linux distribution the writer runs ('In the live ISO of openSUSE Tumbleweed', "I'm running Fedora"): Linux;
- a sentence about another machine ('An identical system contains an NVIDIA A100'): `elsewhere` gives its part of
  the line, whose GPUs are not this machine's;
- a kernel release ending '-linuxkit' ('Linux-5.15.49-linuxkit-aarch64-with-glibc2.29'): Docker Desktop's LinuxKit
  VM, which Docker Desktop runs on macOS and Windows (docs.docker.com/desktop: the Linux VM) and which gets no GPU
  except through WSL 2: a virtual machine.
"""
from __future__ import annotations

import re
from typing import List

from macml.probe.paste.gpu_names import gpu_names, informal_gpu_names
from macml.probe.paste.said_of_this_machine import hypothetical, someone_elses
from macml.probe.paste.statement_rules import Facts

_X86_PROSE = re.compile(r"\b(?:with|paired with|has|have|having|running|runs|using|uses|on)\s+(?:an?\s+|two\s+|dual\s+|2\s?x?\s*|my\s+)?"
                        r"(?:AMD\s+|Intel\s+)?(?:Ryzen(?:\s+\d)?\s+\d{4}\w*|EPYC|Xeon|Threadripper|Core\s+i[3579])\b",
                        re.IGNORECASE)
# the integrated Radeons of Ryzen APUs (AMD's product pages: Radeon 610M-890M, 8040S/8050S/8060S, Vega N Graphics)
_RADEON_IGPU = re.compile(r"\bRadeon(?:\(TM\))?\s+(?:[678]\d0M|80[4-6]0S|Vega\s+\d{1,2}\s+Graphics)\b")
_ROCK = re.compile(r"\bROCk module (?:is (?:NOT )?loaded|version)\b")
_LINUXKIT = re.compile(r"\b\d+\.\d+\.\d+-linuxkit\b")
_VM_KEYS = ("running in a vm", "running in vm", "running in a virtual machine")
_MOBO = re.compile(r"\bMobo:\s+(\S.*?)\s+model:\s+\S")
_VIRTUAL_BOARD = re.compile(r"QEMU|innotek|VirtualBox|VMware|Microsoft|Xen|Red Hat|Parallels|Amazon|Google|Bochs|N/A",
                            re.IGNORECASE)
_ARC_NUMBER = re.compile(r"(?<![\w-])(A(?:310|380|580|750|770)M?|B5[78]0)(?![\w-])")
_DISTROS = (r"openSUSE(?:\s+(?:Tumbleweed|Leap))?|Ubuntu|Kubuntu|Xubuntu|Debian|Fedora|Linux Mint|Arch Linux|Manjaro|"
            r"Pop!_OS|CentOS|Rocky Linux|AlmaLinux|Gentoo|NixOS|EndeavourOS")
_RUNS_DISTRO = re.compile(r"(?:\blive\s+(?:ISO|USB|CD|session|image)\s+(?:of\s+)?|\bI(?:'m|\s+am)\s+(?:using|running|on)\s+|"
                          r"\bI\s+(?:use|run)\s+)(?:the\s+)?(?:latest\s+)?(?:" + _DISTROS + r")\b", re.IGNORECASE)
_OTHER_MACHINE = re.compile(r"(?:^|(?<=[.;!?])\s+|\()\s*(?:An?\s+(?:identi\w*|similar|different|second|another)|Another|My other|"
                            r"Our other|The other)\s+(?:system|machine|server|node|box|computer|PC|laptop|workstation)\b[^.;!?]*",
                            re.IGNORECASE)


def x86_prose(line: str) -> Facts:
    """'a minisforum HX80G (paired with a Ryzen 5800H)', 'a server with two Epyc CPUs': x86_64."""
    found = _X86_PROSE.search(line)
    return [("cpu.hardware_arch", "x86_64")] if found and not (hypothetical(line) or someone_elses(line)) else []


def radeon_igpu(line: str) -> Facts:
    """'Radeon 8060S Graphics', 'Radeon 780M': a Ryzen APU's GPU, so an x86_64 machine."""
    return [("cpu.hardware_arch", "x86_64")] if _RADEON_IGPU.search(line) else []


def rock_module(line: str) -> Facts:
    return [("platform", "linux")] if _ROCK.search(line) else []


def inxi_board(line: str) -> Facts:
    found = _MOBO.search(line)
    return [("hypervisor.none", True)] if found and not _VIRTUAL_BOARD.search(found.group(1)) else []


def arc_number(line: str) -> Facts:
    """'Run an Intel ARC card (I'm using an A770)': that Arc model, as written, as a GPU the writer owns (which
    a fuller name elsewhere, 'Intel Arc A770', takes over)."""
    if not re.search(r"\bArc\b", line, re.IGNORECASE) or gpu_names(line) or informal_gpu_names(line):
        return []
    return [("gpu.owned", {"name": m.group(1), "vendor": "Intel", "memory_mib": None, "index": None})
            for m in _ARC_NUMBER.finditer(line)]


def runs_distro(line: str) -> Facts:
    return [("platform", "linux")] if _RUNS_DISTRO.search(line) else []


def vm_answer(key: str, value: str) -> Facts:
    """'Running in a VM          : no' -> bare metal; 'yes' -> a hypervisor guest."""
    if key not in _VM_KEYS:
        return []
    answer = value.strip().lower()
    return [("hypervisor.none", True)] if answer in ("no", "false") else [("hypervisor", None)] if answer in ("yes", "true") else []


def elsewhere(line: str) -> List[str]:
    """The parts of a line that describe another machine ('An identitical system contains an NVIDIA A100 ...')."""
    return [m.group().strip() for m in _OTHER_MACHINE.finditer(line)]


def linuxkit_kernel(line: str) -> Facts:
    if not _LINUXKIT.search(line):
        return []
    return [("platform", "linux"), ("hypervisor", "Docker Desktop's LinuxKit VM"),
            ("gpu.absent_guest", "NVIDIA"), ("gpu.absent_guest", "AMD")]


def line_facts(line: str) -> Facts:
    mine = line
    for part in elsewhere(line):
        mine = mine.replace(part, " ")
    return (x86_prose(mine) + radeon_igpu(mine) + rock_module(line) + inxi_board(line) + arc_number(mine)
            + runs_distro(mine) + linuxkit_kernel(line))


def keyed_facts(key: str, value: str) -> Facts:
    return vm_answer(key, value)


def drop_elsewhere(line: str, facts: Facts) -> Facts:
    """A line's facts without the GPUs its sentence about another machine names."""
    other = elsewhere(line)
    if not other:
        return facts
    return [(f, v) for f, v in facts if not (f.startswith("gpu") and any(
        str(v.get("name") if isinstance(v, dict) else v) in part for part in other))]
