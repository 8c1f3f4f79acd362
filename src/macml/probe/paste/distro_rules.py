"""A Linux distribution (and its version) named wherever a text names it, each read by a pure function:

- inxi's System line: '  v: 1.30.0 Distro: Linux Mint 22.1 Xia base: Ubuntu 24.04 noble' (the field sits mid-line,
  after other fields; 'base:' names the distribution it derives from, not the one installed);
- a release line in lsb_release's words: 'Ubuntu Release:        20.04', 'Debian Version: 12';
- a list item that is only a distribution: '- Ubuntu', '* Fedora 40';
- prose naming the distribution the machine runs: 'The host machine runs CachyOS with ...', 'on Linux Mint 22';
- a CPU answer naming an x86 family ('CPU:Xeon-6338*2', 'Processor: Ryzen 7 7800X3D'): x86_64 hardware.

The version is kept as written; stated.py reads it part by part.
"""
from __future__ import annotations

import re
from typing import Optional

from macml.probe.paste.statement_rules import Facts

# How each distribution spells itself, keyed by the lower-cased words people write.
_NAMES = {"ubuntu": "Ubuntu", "kubuntu": "Kubuntu", "xubuntu": "Xubuntu", "lubuntu": "Lubuntu", "debian": "Debian",
          "fedora": "Fedora", "fedora linux": "Fedora Linux", "centos": "CentOS", "centos stream": "CentOS Stream",
          "rocky linux": "Rocky Linux", "almalinux": "AlmaLinux", "linux mint": "Linux Mint", "manjaro": "Manjaro",
          "manjaro linux": "Manjaro Linux", "opensuse": "openSUSE", "opensuse leap": "openSUSE Leap",
          "opensuse tumbleweed": "openSUSE Tumbleweed", "arch linux": "Arch Linux", "pop!_os": "Pop!_OS",
          "pop os": "Pop!_OS", "endeavouros": "EndeavourOS", "cachyos": "CachyOS", "garuda linux": "Garuda Linux",
          "nixos": "NixOS", "gentoo": "Gentoo", "zorin os": "Zorin OS", "elementary os": "elementary OS",
          "kali linux": "Kali Linux", "void linux": "Void Linux", "alpine linux": "Alpine Linux", "nobara": "Nobara",
          "bazzite": "Bazzite", "rhel": "RHEL", "red hat enterprise linux": "Red Hat Enterprise Linux"}
_DISTRO = "(?P<name>" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(_NAMES, key=len, reverse=True)) + ")"
_VERSION = r"(?P<version>\d{1,4}(?:\.\d{1,2}){0,2})(?P<lts>\s+LTS)?"
_END = r"(?![\w.!-]*\w)"

_INXI_DISTRO = re.compile(r"(?:^|\s)Distro:\s+" + _DISTRO + r"(?:\s+" + _VERSION + r")?" + _END, re.IGNORECASE)
_RELEASE_LINE = re.compile(r"^\s*" + _DISTRO + r"\s+(?:Release|Version)\s*:\s*" + _VERSION + r"\s*$", re.IGNORECASE)
_BARE_ITEM = re.compile(r"^\s*[-*•+]\s*" + _DISTRO + r"(?:\s+" + _VERSION + r")?\s*$", re.IGNORECASE)
_RUNS = re.compile(r"\b(?:runs?|running|use[ds]?|using|installed|on|under)\s+(?:the\s+)?(?:latest\s+)?" + _DISTRO
                   + r"(?:\s+" + _VERSION + r")?" + _END + r"(?!\s+(?:or|and|vs)\b)", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|never|no longer|without|except|instead of|unlike)\b|n't\b", re.IGNORECASE)
_X86_FAMILY = re.compile(r"(?<![A-Za-z])(?:Xeon|Core\s*i[3579]|i[3579]-\d{4,5}|Ryzen|EPYC|Threadripper|Pentium|Celeron|Athlon)"
                         r"(?![A-Za-z])", re.IGNORECASE)
_CPU_KEYS = ("cpu", "cpus", "processor", "processors")


def _os_name(found: "Optional[re.Match[str]]") -> Facts:
    if not found:
        return []
    name = _NAMES[" ".join(found.group("name").lower().split())]
    version = found.groupdict().get("version") or ""
    lts = " LTS" if found.groupdict().get("lts") else ""
    return [("platform", "linux"), ("os.name", f"{name} {version}{lts}".strip())]


def inxi_distro(line: str) -> Facts:
    """'  v: 1.30.0 Distro: Linux Mint 22.1 Xia base: Ubuntu 24.04 noble' -> 'Linux Mint 22.1'."""
    return _os_name(_INXI_DISTRO.search(line))


def release_line(line: str) -> Facts:
    """'Ubuntu Release:        20.04' -> 'Ubuntu 20.04'."""
    return _os_name(_RELEASE_LINE.match(line))


def bare_item(line: str) -> Facts:
    """'- Ubuntu' in an environment list -> 'Ubuntu' (no version: none is invented)."""
    return _os_name(_BARE_ITEM.match(line))


def runs_distro(line: str) -> Facts:
    """'The host machine runs CachyOS with Ryzen 7800X3D' -> 'CachyOS'. Nothing from 'it doesn't run on Fedora'."""
    for found in _RUNS.finditer(line):
        if not _NEGATED.search(line[max(0, found.start() - 25):found.start()]):
            return _os_name(found)
    return []


def line_facts(line: str) -> Facts:
    return inxi_distro(line) or release_line(line) or bare_item(line) or runs_distro(line)


def keyed_facts(key: str, value: str) -> Facts:
    """'CPU: Xeon-6338*2', 'Processor: Ryzen 7 7800X3D': an x86 CPU family, so x86_64 hardware."""
    return [("cpu.hardware_arch", "x86_64")] if key in _CPU_KEYS and _X86_FAMILY.search(value) else []
