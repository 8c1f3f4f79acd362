"""WSL (Windows Subsystem for Linux) in pasted text, each a pure function over one line returning stated facts.

- WSL named with its distribution: 'WSL Ubuntu22.04', 'Ubuntu 24.04 WSL2', 'WSL 2.6.3 + Ubuntu 24.04', 'installed in
  WSL (Ubuntu 22.04)', 'WSL2 Ubuntu2204': the Python runs in that Linux distribution. Ubuntu's compact spelling
  ('ubuntu2204', as NVIDIA's repository paths write it) is YYMM; one that is no release ('Ubuntu2202') gives the name only.
- WSL's own marks ("os.wsl"): WSL named (not in an unticked '- [ ] WSL 1' box), the dxgkrnl driver's kernel lines
  ('misc dxg: dxgk: ...', 'hv_vmbus: registering driver dxgkrnl'), a 'microsoft-standard-WSL2' kernel, /usr/lib/wsl/.
  The kernel lines and paths are the Linux guest's own (not lsmod's row of a dxgkrnl module: WSL's kernel builds it
  in, and a loaded module is a Hyper-V VM's GPU-PV driver, the dxgkrnl-dkms package). A WSL guest's GPU is the Windows host's (knowledge/wsl.py).
  WSL only named must be stated as this machine's: not in a question ('Does this work in WSL?'), advice ('If you use
  WSL2 ...') or a setup left behind ('I tried WSL2 but went back to native Ubuntu 22.04', 'Removed WSL Ollama').
- WSL's issue form with 'WSL 2' ticked: its 'Distro Version' answer is the Linux the writer works in.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

Facts = List[Tuple[str, Any]]

_NAMES = {"ubuntu": "Ubuntu", "debian": "Debian", "kali": "Kali", "fedora": "Fedora", "almalinux": "AlmaLinux",
          "opensuse leap": "openSUSE Leap", "oracle linux": "Oracle Linux"}
_DISTRO = (r"(?P<name>" + "|".join(sorted(_NAMES, key=len, reverse=True)) + r")[\s-]?"
           r"(?P<version>\d{1,2}(?:\.\d{1,2}){0,2}(?![\d.])|(?<=ubuntu)\d{4}(?!\d))(?P<lts>\s+LTS\b)?")
_WSL = r"\bWSL\s?2?(?:\s+v?\d+(?:\.\d+){1,3})?"  # 'WSL', 'WSL2', 'WSL 2', 'WSL 2.6.3'
_WSL_THEN_DISTRO = re.compile(_WSL + r"(?:\s+(?:environment|distro|instance))?\s*(?:[+/:,-]|\bwith\b|\brunning\b)?\s*\(?\s*"
                              + _DISTRO, re.IGNORECASE)
_DISTRO_THEN_WSL = re.compile(r"\b" + _DISTRO + r"\s*(?:\(|-|\b(?:on|in|under|via)\b)?\s*" + _WSL + r"\b", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|never|without|instead of|rather than|outside(?: of)?)\b|n't\b", re.IGNORECASE)
_NOT_STATED = re.compile(r"\b(?:tried(?!\s+(?:to\s+run|running)\b)|tested|used\s+to|switched|went\s+back|moved\s+(?:away|off|from)|gave\s+up|abandoned|"
                         r"removed|uninstalled|if|whether|does|do|can|could|would|should|might|instead)\b", re.IGNORECASE)
_UNTICKED = re.compile(r"^\s*[-*]\s*\[\s\]")
_GUEST_KERNEL = re.compile(r"\bmisc dxg:|\bdxgkrnl\b|\bdxgkio_\w+|\bmicrosoft-standard-WSL2\b|(?<![\w.])/usr/lib/wsl/")
_LSMOD_ROW = re.compile(r"^\s*\w+\s+\d+\s+\d+(?:\s+[\w,]+)?\s*$")


def _distro_name(found: "re.Match[str]") -> str:
    name, version = _NAMES[found.group("name").lower()], found.group("version")
    if len(version) == 4 and "." not in version:  # Ubuntu's YYMM: releases are YY.04 and YY.10
        return f"{name} {version[:2]}.{version[2:]}" if version[2:] in ("04", "10") else name
    return f"{name} {version}" + (" LTS" if found.group("lts") else "")


def wsl_distro(line: str) -> Facts:
    """'WSL Ubuntu22.04' / 'Ubuntu 24.04 WSL2' / 'installed in WSL (Ubuntu 22.04)' -> linux, 'Ubuntu 22.04'."""
    found = _WSL_THEN_DISTRO.search(line) or _DISTRO_THEN_WSL.search(line)
    if not found or _NEGATED.search(line[:found.end()]) or _UNTICKED.match(line):
        return []
    return [("platform", "linux"), ("os.name", _distro_name(found)), ("os.wsl", True)]


def _stated(line: str, named: "re.Match[str]") -> bool:
    """The sentence naming WSL states it: no question, condition, trial or removal in it."""
    start = max((m.end() for m in re.finditer(r"[.;!?,](?:\s|$)", line[:named.start()])), default=0)
    after = re.search(r"[.;!?](?:\s|$)|$", line[named.end():])
    sentence = line[start:named.end() + after.end()]
    return "?" not in sentence and not _NOT_STATED.search(sentence)


def wsl_signs(line: str) -> Facts:
    """The WSL guest's kernel lines and paths (a Linux) and WSL named: a Linux guest of a Windows host."""
    if _GUEST_KERNEL.search(line) and not _LSMOD_ROW.match(line):
        return [("platform", "linux"), ("os.wsl", True)]
    named = re.search(r"\bWSL\s?2?\b", line, re.IGNORECASE)
    if named and not _UNTICKED.match(line) and not _NEGATED.search(line[:named.end()]) and _stated(line, named):
        # run 'on' or 'in' WSL: the program ran in its Linux guest
        ran_in = re.search(r"\b(?:on|in|inside|under)\s+(?:the\s+|my\s+)?WSL\s?2?\b", line, re.IGNORECASE)
        return [("os.wsl", True)] + ([("platform", "linux")] if ran_in else [])
    return []


_TICKED_WSL2 = re.compile(r"^\s*[-*]\s*\[[xX]\]\s*WSL\s?2\b")
_DISTRO_HEADING = re.compile(r"^\s*#{2,4}\s*Distro(?:\s+Version)?\s*$", re.IGNORECASE)


def wsl_form_distro(lines: Sequence[str]) -> Dict[int, Facts]:
    """WSL's issue form with 'WSL 2' ticked: its 'Distro Version' answer ('Ubuntu 22.04') is the Linux guest the
    writer works in, whatever its 'Windows Version' answer says of the host."""
    if not any(map(_TICKED_WSL2.match, lines)):
        return {}
    for index, line in enumerate(lines):
        answer = next((i for i in range(index + 1, min(len(lines), index + 3)) if lines[i].strip()), None)
        if _DISTRO_HEADING.match(line) and answer is not None and re.match(r"\s*" + _DISTRO, lines[answer], re.IGNORECASE):
            return {answer: [("platform", "linux"), ("platform.declared", "linux"), ("os.wsl", True)]}
    return {}


def line_facts(line: str) -> Facts:
    return wsl_distro(line) or wsl_signs(line)
