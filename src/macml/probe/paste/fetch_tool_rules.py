"""What system-info tools (neofetch, screenfetch, fastfetch) print, as their wrappers pass it on:

- neofetch's 'OS: macOS 12.0.1 21A559 x86_64' (release, build, arch: a person typing an OS leaves out the build)
  ends with `uname -m` of the process that ran it: on an
  Apple-silicon Mac an 'x86_64' there is a process translated by Rosetta 2 (infer_mac.infer_translation judges
  it against the hardware), 'arm64' a native one.
- A wrapper's debug dump of the lines it captured as a Python list (FetchCord's
  "memline: ['Memory: 12112MiB / 32768MiB']", "sysosline: ['OS: macOS Mojave 10.14.6 18G103 x86_64 ', ...]"):
  each quoted item is one of the tool's own lines, read as such.

- fastfetch's text GPU line, 'GPU: Apple M1 (8) [Integrated]': the count in brackets is its GPU cores.
- fastfetch's JSON GPU object: '"name": "Apple M4 Pro",' then, in the same object, '"coreCount": 20,' (its GPU cores).

Each line rule is a pure function of one line; `answers` reads the JSON object's lines together.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.mac_text_rules import early_line_facts

Facts = List[Tuple[str, Any]]

# 'OS: macOS 12.0.1 21A559 x86_64', 'OS: macOS Mojave 10.14.6 18G103 x86_64', 'OS: macOS Sonoma 14.5 arm64'
_OS_LINE_ARCH = re.compile(r"^\s*OS:\s+(?:macOS|Mac OS X|OS X)\b(?:\s+[A-Z][a-z]+)*\s+\d{2}\.\d{1,2}(?:\.\d{1,2})?"
                           r"\s+\(?\d{2}[A-Z]\d{1,5}[a-z]?\)?\s+(x86_64|arm64)\s*$")
_LIST_REPR = re.compile(r"^\s*[a-z][\w ]{0,30}:\s*\[\s*((?:'[^']*'|\"[^\"]*\")(?:\s*,\s*(?:'[^']*'|\"[^\"]*\"))*)\s*\]\s*$")
_ITEM = re.compile(r"'([^']*)'|\"([^\"]*)\"")


def os_line_arch(line: str) -> Facts:
    """neofetch's macOS line: the architecture its process ran as."""
    found = _OS_LINE_ARCH.match(line)
    return [("platform", "darwin"), ("process.arch", found.group(1))] if found else []


def list_items(line: str) -> List[str]:
    """"memline: ['Memory: 12112MiB / 32768MiB']" -> ['Memory: 12112MiB / 32768MiB']; [] for any other line."""
    found = _LIST_REPR.match(line)
    if not found:
        return []
    return [a or b for a, b in _ITEM.findall(found.group(1))]


# fastfetch's text GPU line: 'GPU: Apple M1 (8) [Integrated]', the count in brackets its GPU cores
_APPLE_GPU_CORES = re.compile(r"^\s*GPU:\s+Apple M\d(?: (?:Pro|Max|Ultra))? \((\d{1,2})\)(?:\s+@\s+[\d.]+ GHz)?(?:\s+\[Integrated\])?"
                              r"(?:\s+\d+ms)?\s*$")


def apple_gpu_cores(line: str) -> Facts:
    """fastfetch's 'GPU: Apple M1 (8) [Integrated]' -> an Apple GPU of 8 cores."""
    found = _APPLE_GPU_CORES.match(line)
    return [("gpu.cores", int(found.group(1)))] if found else []


def line_facts(line: str) -> Facts:
    facts = os_line_arch(line) + apple_gpu_cores(line)
    for item in list_items(line):
        facts += os_line_arch(item) + early_line_facts(item)
    return facts


_JSON_APPLE_GPU = re.compile(r'^\s*"name"\s*:\s*"(Apple M\d[^"]*)"\s*,?\s*$')
_JSON_CORE_COUNT = re.compile(r'^\s*"coreCount"\s*:\s*(\d{1,2})\s*,?\s*$')


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the GPU cores fastfetch's JSON gives the Apple GPU named in the same object."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _JSON_APPLE_GPU.match(line):
            continue
        for follow in range(index + 1, min(len(lines), index + 12)):
            if re.match(r"^\s*[{}]", lines[follow]):
                break  # the object ends, or a nested one starts (its keys are not the GPU's)
            cores = _JSON_CORE_COUNT.match(lines[follow])
            if cores:
                found[follow] = [("gpu.cores", int(cores.group(1)))]
                break
    return found
