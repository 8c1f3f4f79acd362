"""/etc/os-release and `uname -a` pastes."""
from __future__ import annotations

import re
from typing import List, Sequence

from macml.probe.paste.base import Part, runs, strip_prompt

_OS_RELEASE_LINE = re.compile(r'^\s*[A-Z][A-Z0-9_]*=("[^"]*"|\'[^\']*\'|\S*)\s*$')
_UNAME = re.compile(r"^(Linux|Darwin)\s+(\S+)\s+(\S+)\s+(.*)$")
_MACHINE = re.compile(r"\b(x86_64|aarch64|arm64|ppc64le|s390x|armv7l|i686)\b")


def find_os_release(lines: Sequence[str]) -> List[Part]:
    parts = []
    for first, last in runs(lines, lambda line: bool(_OS_RELEASE_LINE.match(line))):
        block = [line.strip() for line in lines[first:last + 1]]
        if not any(line.startswith(("NAME=", "ID=", "PRETTY_NAME=")) for line in block):
            continue
        parts.append(Part("os_release", first + 1, last + 1, platform="linux",
                          commands={"cat /etc/os-release": "\n".join(block) + "\n"}))
    return parts


def find_uname(lines: Sequence[str]) -> List[Part]:
    """`uname -a`: 'Linux host 5.15.0-107-generic #117... x86_64 x86_64 x86_64 GNU/Linux'.

    Linux gives the `uname -rm` the probe runs. Darwin's machine field is the asking process's
    (x86_64 under Rosetta), so it is kept only as `uname -a`; its kernel build tag
    (RELEASE_X86_64 / RELEASE_ARM64_T8101) is what tells the hardware."""
    parts = []
    for index, raw in enumerate(lines):
        match = _UNAME.match(strip_prompt(raw).strip())
        if not match or not re.match(r"^\d+\.\d+", match.group(3)):
            continue
        system, release, rest = match.group(1), match.group(3), match.group(4)
        machines = _MACHINE.findall(rest)
        part = Part("uname", index + 1, index + 1, platform="linux" if system == "Linux" else "darwin",
                    commands={"uname -a": strip_prompt(raw).strip() + "\n"})
        if system == "Linux" and machines:
            part.commands["uname -rm"] = f"{release} {machines[-1] if len(machines) == 1 else machines[0]}\n"
        parts.append(part)
    return parts
