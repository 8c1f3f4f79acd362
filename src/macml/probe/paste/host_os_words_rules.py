"""Which OS the writer's machine runs, in words other rules miss, each a pure function of text:

- Linux as the writer's own OS or host ('I'm on linux 100% of the time', 'On linux for me, the rocm support works', 'for my linux host', 'my Linux machine'):
  Linux; and where the same line sets a virtual machine beside it ('my linux host and ... my Windows virtual
  machine'), this Linux is the host, not a VM. Not from 'a Linux VM', 'Linux in a VM', a machine reached over ssh,
  a negation, a question, or a contrast that turns to another machine ('works on my Linux box but fails on my Mac');
- an app's Linux build the writer runs, by its file name ('(koboldcpp-linux-x64-nocuda to be precise)',
  'I run llama-b4000-bin-linux-arm64'): Linux on that arch. Not a build merely offered ('is there a -linux-arm64
  build?', 'download koboldcpp-linux-x64 from the releases', 'I see only koboldcpp-linux-x64 in the release'), nor
  one in a line where the writer is on another OS ('I downloaded koboldcpp-linux-x64 by mistake, I am on Windows');
- a bold question of an issue template answered on the next line ('**Which operating system?**' then
  'Slackware Linux 15.0-current x86-64', '**OS:**' then 'Fedora 40'): read as an 'OS: ...' answer.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence

from macml.probe.paste.said_of_this_machine import contrasted_after, negated, writers_os
from macml.probe.paste.statement_rules import Facts, by_key

_LINUX_MINE = re.compile(r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:on|using|running)\s+(?:a\s+)?linux\b|^\s*on\s+linux\s+for\s+me\b"
                         r"|\bmy\s+linux\s+(?:host|machine|box|pc|computer|desktop|laptop|server|system|workstation|install)\b",
                         re.IGNORECASE)
_GUEST_AFTER = re.compile(r"^\s*(?:(?:in|inside|under|on)\s+(?:an?\s+|the\s+|my\s+)?(?:\w+\s+)?)?"
                          r"(?:(?:virtual\s+machine|VM|guest|container)\b|\w+\s+(?:VM|virtual\s+machine|guest)\b)",
                          re.IGNORECASE)
_REMOTE_BEFORE = re.compile(r"\b(?:ssh|remote(?:ly)?|RDP|VNC|connect(?:s|ed|ing)?|log(?:s|ged|ging)?\s+in(?:to)?)\b[^.;!?]*$",
                            re.IGNORECASE)
_VM_BESIDE = re.compile(r"\b(?:virtual\s+machine|VM|guest)\b", re.IGNORECASE)
_LINUX_BUILD = re.compile(r"(?<![\w/.-])[A-Za-z][\w.-]*?-linux-(x64|x86_64|amd64|arm64|aarch64)(?:-[\w.]+)?(?![\w/-])",
                          re.IGNORECASE)
_RUNS_IT = re.compile(r"\b(?:I|I'm|I've|my|we)\b|\b(?:when|while)\s+(?:opening|running|launching|starting|using)\b", re.IGNORECASE)
_OFFERED_BEFORE = re.compile(r"\b(?:download(?:s|ed|ing)?|try|use|see|saw|found|there\s+(?:is|are))\s+(?:only\s+)?(?:the\s+)?$",
                            re.IGNORECASE)
_ARCH = {"x64": "x86_64", "x86_64": "x86_64", "amd64": "x86_64", "arm64": "aarch64", "aarch64": "aarch64"}
_BOLD_QUESTION = re.compile(r"^\s*\*\*\s*(?:which|what)\s+(?:operating\s+system|OS)\b[^*]{0,40}\?\s*\*\*\s*$"
                            r"|^\s*\*\*\s*(?:operating\s+system|OS)\s*:?\s*\*\*\s*:?\s*$", re.IGNORECASE)


def _os_of_mine(pattern: re.Pattern, line: str) -> Optional[re.Match]:
    """The writer's own OS the pattern finds, not denied, a guest's, a remote one's, contrasted or asked about."""
    found = pattern.search(line)
    if not found or negated(line[:found.start()]) or _GUEST_AFTER.match(line[found.end():]):
        return None
    if _REMOTE_BEFORE.search(line[:found.start()]) or contrasted_after(line[found.end():]):
        return None
    return None if "?" in re.split(r"[.;!](?:\s|$)", line[found.end():])[0] else found


def linux_mine(line: str) -> Facts:
    """'One weaker GPU (Nvidia 1050) for my linux host and ... my Windows virtual machine' -> Linux, not a VM."""
    found = _os_of_mine(_LINUX_MINE, line)
    if not found:
        return []
    host = found.group().lower().endswith("host") and _VM_BESIDE.search(line)
    return [("platform", "linux")] + ([("hypervisor.none", True)] if host else [])


_MAC_MINE = re.compile(r"\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:on|using|running)\s+mac\s?OS\b"
                       r"|\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:using|running)\s+[^.;!?]{1,60}?\bon\s+mac\s?OS\b"  # '... EGPU with RX580 on MacOS'
                       r"|\bmy\s+(?:computer|pc|machine|laptop|desktop|system|box|hackintosh)\s+(?:is\s+running|runs)\s+mac\s?OS\b",
                       re.IGNORECASE)
# an Intel CPU written with its number glued on ('with intel9900k cpu')
_GLUED_INTEL_CPU = re.compile(r"\bintel\s?\d{4,5}[a-z]{0,2}\s+(?:cpu|processor)\b", re.IGNORECASE)


def mac_mine(line: str) -> Facts:
    """'My computer is running macOS, with intel9900k cpu and amd Rx6600xt gpu' -> macOS (on an Intel CPU here)."""
    if not _os_of_mine(_MAC_MINE, line):
        return []
    intel = [("cpu.brand", "Intel"), ("cpu.hardware_arch", "x86_64")] if _GLUED_INTEL_CPU.search(line) else []
    return [("platform", "darwin")] + intel


def linux_build(line: str) -> Facts:
    """'When opening ... koboltcpp (koboldcpp-linux-x64-nocuda to be precise)' -> Linux on x86_64."""
    found = _LINUX_BUILD.search(line)
    sentence = re.split(r"[.;!?](?:\s|$)", line[:found.start()])[-1] if found else ""
    if not found or not _RUNS_IT.search(sentence) or negated(sentence) or _OFFERED_BEFORE.search(sentence):
        return []
    if writers_os(line) in ("darwin", "win32") and not re.search(r"\bWSL", line):
        return []
    if "?" in re.split(r"[.;!](?:\s|$)", line[found.end():])[0]:
        return []
    return [("platform", "linux"), ("cpu.hardware_arch", _ARCH[found.group(1).lower()])]


def bold_os_answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """'**Which operating system?**' then 'Slackware Linux 15.0-current x86-64' -> that OS."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _BOLD_QUESTION.match(line):
            continue
        answer = next((i for i in range(index + 1, min(len(lines), index + 3)) if lines[i].strip()), None)
        if answer is None or lines[answer].lstrip().startswith(("**", "#")):
            continue
        facts = by_key("os", lines[answer].strip())
        if facts:
            found[answer] = facts
    return found


# a report that opens with its OS, then the rest ('Windows 10, Julia v1.5.0, CUDA v1.3.0': CUDA.jl's own first line)
_WINDOWS_FIRST = re.compile(r"^\s*(?:(?:This|It)\s+(?:is|was|happens|happened)\s+on\s+)?"  # 'This is on Windows 10, ...'
                            r"((?:Microsoft\s+)?Windows\s+(?:1[01]|7|8(?:\.1)?)(?:\s+(?:Pro|Home|Enterprise|Education|"
                            r"x64|64-bit))*)(?:\s*\(build \d{4,5}\))?\s*(?:,|\s-)\s*\S")  # Godot's 'Windows 11 (build 26100) - ...'


def windows_first(line: str) -> Facts:
    """'Windows 10, Julia v1.5.0, CUDA v1.3.0', 'This is on Windows 10, Nvidia 1080 Ti.' -> Windows 10."""
    found = _WINDOWS_FIRST.match(line)
    return [("platform", "win32"), ("os.name", found.group(1))] if found else []


# the version first, then its noun: '10.11.2 is the version of the Mac OS', '14.2 is my macOS version'
_MACOS_VERSION_FIRST = re.compile(r"(?<![\w.])((?:10\.\d{1,2}|1[1-5]\.\d{1,2}|2[6-9]\.\d{1,2})(?:\.\d{1,2})?)\s+is\s+(?:the|my|our)\s+"
                                  r"(?:version\s+of\s+(?:the\s+|my\s+)?mac\s?OS(?:\s?X)?|mac\s?OS(?:\s?X)?\s+version)\b", re.IGNORECASE)


_OSX_PARENTHESISED = re.compile(r"\bOS\s?X\s*\((10\.\d{1,2}(?:\.\d{1,2})?|1[1-5]\.\d{1,2}(?:\.\d{1,2})?)\)", re.IGNORECASE)


def macos_version_first(line: str) -> Facts:
    """'10.11.2 is the version of the Mac OS'; 'os: macos OSX(11.5.2)'."""
    found = _MACOS_VERSION_FIRST.search(line) or _OSX_PARENTHESISED.search(line)
    return [("platform", "darwin"), ("os.version", found.group(1))] if found and not negated(line[:found.start()]) else []


def line_facts(line: str) -> Facts:
    return linux_mine(line) + mac_mine(line) + linux_build(line) + windows_first(line) + macos_version_first(line)


def answers(lines: Sequence[str]) -> Dict[int, List]:
    return bold_os_answers(lines)
