"""The CPU architecture a text names in passing: build and package names ('NVIDIA-Linux-x86_64-570.124.04.run',
'dkms ... x86_64: installed', CUDA's runfile 'cuda_11.4.4_470.82.01_linux.run', '/usr/lib/x86_64-linux-gnu/', 'win_amd64', '[MSC v.1934 64 bit (AMD64)]'), log lines
('ARM64 does not support NUMA'), x86's CPUID vendor strings ('GenuineIntel', 'AuthenticAMD'), the MKL that torch's
build config names ('Math Kernel Library ... for Intel(R) 64 architecture applications'), Windows' processor
family ('Intel64 Family 6 Model 158') and a desktop motherboard chipset ('Motherboard: X870E', knowledge/pc_boards).

A text that names one architecture family, and only that one, was written on a machine of that family: across
the non-Mac captures in tests/captures no text names one family while its machine is of the other. The fact is
"arch.named", a fallback infer takes only where nothing better says the architecture; on a Mac only an arm64
answer counts (arm64 code runs on no Intel Mac, while an x86_64 word there is often a Rosetta Python on arm64 hardware). Lines that list other platforms' builds
('wheels are available for ... the following platforms') and links are not read.
"""
from __future__ import annotations

import re
from typing import Dict, Optional, Sequence, Tuple

from macml.knowledge.pc_boards import keyed_chipset
from macml.probe.paste.statement_rules import Facts

_ARCH_WORD = re.compile(r"(?<![A-Za-z0-9])(x86[_-]64|amd64|x64|aarch64|arm64)(?![A-Za-z0-9]|_[A-Za-z])", re.IGNORECASE)
_X86_VENDOR = re.compile(r"\b(GenuineIntel|AuthenticAMD|Intel64 Family \d+|AMD64 Family \d+|x86 Family \d+|"
                         r"Intel Compatible Processor|for Intel\(R\) 64 archi\s*tecture)\b")  # the last: MKL's build line
# CUDA's Linux runfiles: the x86_64 one carries no architecture ('cuda_11.4.4_470.82.01_linux.run'), the Arm server
# one ends '_linux_sbsa.run' (developer.nvidia.com/cuda-downloads)
_CUDA_RUNFILE = re.compile(r"\bcuda_\d+\.\d+\.\d+_\d+\.\d+(?:\.\d+)?_linux(_sbsa)?\.run\b")
_LINK = re.compile(r"\b(?:https?|file)://\S+")
_OTHER_PLATFORMS = re.compile(r"\b(?:available for|following platforms|supported platforms|platforms?:\s*\[|"
                              r"cross[- ]compil\w*|for (?:the )?(?:target|host) )|--platform[= ]", re.IGNORECASE)
_BOARD_KEY = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?(?:motherboard|mainboard|mobo|board)(?:\*\*)?\s*[:=]\s*(?:\*\*)?\s*(.+)$",
                        re.IGNORECASE)


def family(word: str) -> str:
    """'AMD64', 'x86-64', 'x64' -> 'x86_64'; 'ARM64', 'aarch64' -> 'arm64'."""
    return "arm64" if word.lower() in ("aarch64", "arm64") else "x86_64"


def line_arch(line: str) -> Optional[Tuple[str, ...]]:
    """The architecture families one line names (None where the line lists other platforms' builds)."""
    if _OTHER_PLATFORMS.search(line):
        return None
    text = _LINK.sub(" ", line)
    found = {family(m.group(1)) for m in _ARCH_WORD.finditer(text)}
    if _X86_VENDOR.search(text):
        found.add("x86_64")
    runfile = _CUDA_RUNFILE.search(text)
    if runfile:
        found.add("arm64" if runfile.group(1) else "x86_64")
    board = _BOARD_KEY.match(text)
    if board and keyed_chipset(board.group(1)):
        found.add("x86_64")
    return tuple(sorted(found))


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """The first line naming an architecture, when every line that names one names the same single family."""
    first: Optional[int] = None
    families = set()
    for index, line in enumerate(lines):
        named = line_arch(line)
        if named:
            families.update(named)
            first = index if first is None else first
    if first is None or len(families) != 1:
        return {}
    return {first: [("arch.named", families.pop())]}
