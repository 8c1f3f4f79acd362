"""A Linux distribution (and its version) named wherever a text names it, each read by a pure function:

- inxi's System line: '  v: 1.30.0 Distro: Linux Mint 22.1 Xia base: Ubuntu 24.04 noble' (the field sits mid-line,
  after other fields; 'base:' names the distribution it derives from, not the one installed);
- a release line in lsb_release's words: 'Ubuntu Release:        20.04', 'Debian Version: 12';
- a list item that is only a distribution: '- Ubuntu', '* Fedora 40'; a part of a machine's field that is one
  ('Host: Ubuntu, driver 615.71.09, ...', 'Specs: Ubuntu 22.04, 2x RTX 3090');
- prose in which the writer says their machine runs the distribution: 'The host machine runs CachyOS with ...',
  'I have a similar problem on Linux Mint 22' (a first-person subject earlier in the sentence; not 'CI runs on Ubuntu
  20.04', 'My friend using Manjaro', 'using the Ubuntu 22.04 docker image', 'Works on Ubuntu 22.04 but fails on my Mac');
- a CPU answer naming an x86 family ('CPU:Xeon-6338*2', 'Processor: Ryzen 7 7800X3D'), or only a model number
  ('CPU: 7402p', an EPYC; Arm CPUs are named in words): x86_64 hardware, unless the answer names an Arm CPU or sets
  the family apart ('Apple M1 Pro (not Ryzen)').

The version is kept as written; stated.py reads it part by part.
"""
from __future__ import annotations

import re
from typing import Optional

from macml.probe.paste.said_of_this_machine import NEGATION
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
          "bazzite": "Bazzite", "rhel": "RHEL", "red hat enterprise linux": "Red Hat Enterprise Linux",
          "linuxmint": "Linux Mint", "mint": "Mint", "rocky": "Rocky", "centos linux": "CentOS Linux", "talos linux": "Talos Linux",
          "dgx os": "DGX OS"}  # os-release's ID, as people also write it
_DISTRO = "(?P<name>" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(_NAMES, key=len, reverse=True)) + ")"
_VERSION = r"(?P<version>\d{1,4}(?:\.\d{1,2}){0,2})(?P<lts>\s+LTS)?"
_END = r"(?![\w.!-]*\w)"

_INXI_DISTRO = re.compile(r"(?:^|\s)Distro:\s+" + _DISTRO + r"(?:\s+Asahi\s+Remix)?(?:\s+" + _VERSION + r")?" + _END, re.IGNORECASE)
_RELEASE_LINE = re.compile(r"^\s*" + _DISTRO + r"\s+(?:Release|Version)\s*:\s*" + _VERSION + r"\s*$", re.IGNORECASE)
_BARE_ITEM = re.compile(r"^\s*[-*•+]\s*" + _DISTRO + r"(?:\s+" + _VERSION + r")?\s*$", re.IGNORECASE)
# a setup list's line that is only the OS, named as one: 'UBUNTU OS', 'Ubuntu Linux' (a bare 'Ubuntu' may be a heading)
_BARE_OS_LINE = re.compile(r"^\s*" + _DISTRO + r"(?:\s+" + _VERSION + r")?\s+(?:OS|Linux)\s*$", re.IGNORECASE)
_RUNS = re.compile(r"\b(?:runs?|running|use[ds]?|using|installed|on|under)\s+(?:the\s+|my\s+)?(?:latest\s+)?`?" + _DISTRO
                   + r"(?:\s+" + _VERSION + r")?" + _END + r"(?!\s+(?:or|and|vs)\b)", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"^\s*Am\b|\b(?:I|I'm|I've|my|me)\b(?!\s+(?:friend|colleague|coworker|co-worker|brother|sister|wife|"
                           r"husband|son|daughter|dad|father|mom|mother|boss|client|customer|team|other)\b)"
                           r"|\b(?:the|this)\s+host(?:\s+(?:machine|system|OS|computer))?\s*(?:is\s*)?$",
                           re.IGNORECASE)
_NOT_THE_HOST = re.compile(r"^[\s-]*(?:based\s+)?(?:docker\s+|container\s+|base\s+)*(?:image|container|VM|virtual machine|"
                           r"runner|CI|chroot|WSL|guest)\b", re.IGNORECASE)
_ARM_CPU = re.compile(r"\b(?:Apple|M[1-5](?:\s+(?:Pro|Max|Ultra))?|ARM|aarch64|arm64|Snapdragon|Graviton|Ampere|Cortex)\b",
                      re.IGNORECASE)
_X86_FAMILY = re.compile(r"(?<![A-Za-z])(?:Xeon|Core\s*i[3579]|i[3579]-\d{4,5}|Ryzen|EPYC|Threadripper|Pentium|Celeron|Athlon)"
                         r"(?![A-Za-z])", re.IGNORECASE)
_CPU_KEYS = ("cpu", "cpus", "processor", "processors")
_BARE_MODEL_NUMBER = re.compile(r"^(?:(?!(?:19|20)\d\d$)\d{4,5}[a-z]{0,2}(?:3d)?|[a-z]\d-?\d{4,5}[a-z]{0,2})$", re.IGNORECASE)


def distro_spelling(name: str) -> str:
    """A distribution's own capitals for the name people typed ('ubuntu' -> 'Ubuntu'); other spellings ('Pop OS')
    and other names unchanged."""
    own = _NAMES.get(" ".join(name.lower().split()), name)
    return own if own.lower() == name.lower() else name


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
    """'- Ubuntu' in an environment list, or 'UBUNTU OS' on a line of its own -> 'Ubuntu' (no version: none is invented)."""
    return _os_name(_BARE_ITEM.match(line) or _BARE_OS_LINE.match(line))


def runs_distro(line: str) -> Facts:
    """'The host machine runs CachyOS with Ryzen 7800X3D' -> 'CachyOS'. Nothing from 'it doesn't run on Fedora', nor
    from a sentence without the writer as its subject ('CI runs on Ubuntu 20.04', 'The wheels are built on CentOS 7')."""
    for found in _RUNS.finditer(line):
        sentence = re.split(r"[.;!?](?:\s|$)|\bbut\b", line[:found.start()])[-1]
        if NEGATION.search(line[max(0, found.start() - 25):found.start()]) or not _FIRST_PERSON.search(sentence):
            continue
        if _NOT_THE_HOST.match(line[found.end():]):
            continue
        return _os_name(found)
    return []


_SPEC_KEYS = re.compile(r"\b(?:CPU|GPU|RAM)\s*:", re.IGNORECASE)


def spec_line_distro(line: str) -> Facts:
    """'CPU: AMD Ryzen 5 2600X; GPU: RX590 8GB; RAM: 2x8GB, darktable 4.6.1 on Arch linux.': the OS the writer's
    listed hardware runs (a line of their own CPU/GPU/RAM keys is their machine's)."""
    if len(_SPEC_KEYS.findall(line)) < 2 or NEGATION.search(line):
        return []
    found = next((m for m in _RUNS.finditer(line) if not _NOT_THE_HOST.match(line[m.end():])), None)
    return _os_name(found)


# /etc/redhat-release's one line: 'Rocky Linux release 9.7 (Blue Onyx)', 'CentOS Linux release 7.9.2009 (Core)'
_REDHAT_RELEASE = re.compile(r"(?:^|[\s:])" + _DISTRO + r"(?:\s+Linux)?\s+release\s+(?P<version>\d{1,2}(?:\.\d{1,4}){0,2})\s+\(",
                             re.IGNORECASE)


def redhat_release(line: str) -> Facts:
    """'Rocky Linux release 9.7 (Blue Onyx) & AMD EPYC 9654' -> 'Rocky Linux 9.7'."""
    return _os_name(_REDHAT_RELEASE.search(line))


def line_facts(line: str) -> Facts:
    return (inxi_distro(line) or release_line(line) or bare_item(line) or runs_distro(line) or nix_info_host(line)
            or field_in_sentence(line) or redhat_release(line) or spec_line_distro(line))


# '... (tag ...). Host: Ubuntu, driver 615.71.09, 2x RTX PRO 6000 Blackwell (sm_120). Inside the image:'
_FIELD_IN_SENTENCE = re.compile(r"[.;!]\s+(host|system|setup|machine|hardware)\s*:\s*([^.;]+)", re.IGNORECASE)


def field_in_sentence(line: str) -> Facts:
    """A machine's field that opens a sentence after another: its listed distribution."""
    found = _FIELD_IN_SENTENCE.search(line)
    return listed_distro(found.group(1).lower(), found.group(2)) if found else []


_MACHINE_KEYS = ("host", "system", "specs", "setup", "environment", "machine", "hardware")
_LISTED_DISTRO = re.compile(r"^\s*" + _DISTRO + r"(?:\s+" + _VERSION + r")?\s*$", re.IGNORECASE)


def listed_distro(key: str, value: str) -> Facts:
    """'Host: Ubuntu, driver 615.71.09, 2x RTX PRO 6000 Blackwell': a part of a machine's field that is only a
    distribution -> Linux, that distribution."""
    if key not in _MACHINE_KEYS or NEGATION.search(value):
        return []
    items = [re.sub(r"^\s*Linux\s+\d+\.\d+[\w.-]*\s+\((.+)\)\s*$", r"\1", item) for item in re.split(r"[,;]", value)]
    found = next((m for m in map(_LISTED_DISTRO.match, items) if m), None)  # 'Linux 6.12 (Rocky 10)': the distribution
    if not found:
        return []
    name = distro_spelling(found.group("name")) + (f" {found.group('version')}" if found.group("version") else "")
    return [("platform", "linux"), ("os.name", name)]


def keyed_facts(key: str, value: str) -> Facts:
    """'CPU: Xeon-6338*2', 'Processor: Ryzen 7 7800X3D': an x86 CPU family, so x86_64 hardware; 'Host: x86_64, Linux
    6.12 (Rocky 10), ...': a machine's field that lists its architecture."""
    arch = re.match(r"\s*(x86_64|aarch64|arm64)\s*(?:,|$)", value) if key in _MACHINE_KEYS else None
    listed = listed_distro(key, value) + ([("cpu.hardware_arch", arch.group(1))] if arch else [])
    if listed:
        return listed
    if key in _CPU_KEYS and _BARE_MODEL_NUMBER.match(value.strip()):
        return [("cpu.hardware_arch", "x86_64")]  # '7402p' (EPYC 7402P), '5800X3D': Arm CPUs are named in words
    found = _X86_FAMILY.search(value) if key in _CPU_KEYS else None
    if not found or _ARM_CPU.search(value) or NEGATION.search(value[max(0, found.start() - 25):found.start()]):
        return []
    return [("cpu.hardware_arch", "x86_64")]


_NIX_INFO = re.compile(r"^\s*-?\s*host os:\s*`?Linux [\d.]+, NixOS, (\d{2}\.\d{2})\b")
# `nixos-version`'s answer: release, date and nixpkgs commit, and the codename ('26.05.20260409.4c1018d (Yarara)')
_NIXOS_VERSION = re.compile(r"^\s*[-*]?\s*`?nixos-version`?\s*[:=]?\s*`?(\d{2}\.\d{2})\.\d{8}\.[0-9a-f]{7,40}\b")


def nix_info_host(line: str) -> Facts:
    """nix-info's ' - host os: `Linux 6.8.7, NixOS, 24.05 (Uakari), 24.05.20240427.58a1abd`' -> NixOS 24.05;
    '`nixos-version`: 26.05.20260409.4c1018d (Yarara)' -> NixOS 26.05."""
    found = _NIX_INFO.match(line) or _NIXOS_VERSION.match(line)
    return [("platform", "linux"), ("os.name", f"NixOS {found.group(1)}")] if found else []
