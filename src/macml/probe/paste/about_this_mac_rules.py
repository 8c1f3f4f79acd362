"""The memory line of a Mac's 'About This Mac' summary, copied or retyped as its label and value on one line:

    Chip Apple M1 Max            Processor 2.3 GHz 8-Core Intel Core i9
    Memory 32GB                  Memory 16 GB 2667 MHz DDR4
    Startup disk Macintosh HD    Graphics AMD Radeon Pro 5500M 4 GB

'Memory 32GB' has no colon, so the `key: value` readers miss it. It counts only beside another line of the same
summary (within three lines: Chip, Processor, Graphics, Startup Disk, Serial Number, Version, a Mac's model), so a
bare 'Memory 16GB' under 'Minimum requirements:' or in a sentence ('Memory 32GB is not enough') does not fire;
nor does a block that a question, advice or someone else's machine introduces (said_of_this_machine).
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.gpu_names import gpu_record
from macml.probe.paste.said_of_this_machine import hypothetical, someone_elses
from macml.probe.paste.statement_rules import Facts

_MEMORY = re.compile(r"^\s*(?:[-*•]\s+)?(?:Memory|RAM|Unified memory)\s+(\d{1,4})\s?(GB|GiB|TB)"
                     r"(?:\s+\d{3,4}\s?MHz(?:\s+(?:LP)?DDR\d\w*)?)?\s*$", re.IGNORECASE)  # the DDR may wrap to the next line
_SUMMARY_LINE = re.compile(
    r"^\s*(?:[-*•]\s+)?(?:Chip\s+Apple\s+M\d|Processor\s+\S.*(?:GHz|Intel|Apple|Core)|Graphics\s+\S|Startup\s+disk\s+\S"
    r"|Serial\s+number\s+\S|Version\s+\d{2}\.\d|macOS\s+[A-Z][a-z]+(?:\s+\d{2}(?:\.\d+)*)?\s*$|Apple\s+M\d(?:\s+(?:Pro|Max|Ultra))?\s*$"
    r"|(?:MacBook(?:\s+(?:Pro|Air))?|iMac(?:\s+Pro)?|Mac\s*mini|Mac\s+Studio|Mac\s+Pro)\s*\(?\d{2}[- ]inch|"
    r"(?:MacBook(?:\s+(?:Pro|Air))?|iMac(?:\s+Pro)?|Mac\s*mini|Mac\s+Studio|Mac\s+Pro)\s*\(.*\d{4}\)\s*$)",
    re.IGNORECASE)
_REACH = 3


def _introduced_as_mention(lines: Sequence[str], index: int) -> bool:
    """A question, a requirement or someone else's machine in the lines just above the summary."""
    above = [line for line in lines[max(0, index - _REACH - 2):index] if line.strip()]
    return any(hypothetical(line) or someone_elses(line) for line in above[-2:])


def summary_memory(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the RAM an About This Mac 'Memory 32GB' line states, where another summary line is near."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        memory = _MEMORY.match(line)
        if not memory:
            continue
        near = [i for i in range(max(0, index - _REACH), min(len(lines), index + _REACH + 1))
                if i != index and _SUMMARY_LINE.match(lines[i])]
        if not near or _introduced_as_mention(lines, min(near + [index])):
            continue
        size = int(memory.group(1)) * (1024 if memory.group(2).upper() == "TB" else 1)
        # About This Mac is macOS's own window
        found[index] = [("platform", "darwin"), ("cpu.memory_bytes", size * 1024**3)]
        found.update(_wrapped_graphics(lines, near))
    return found


_GRAPHICS = re.compile(r"^\s*Graphics\s+(\S.*?)\s*$", re.IGNORECASE)
_WRAPPED_REST = re.compile(r"^\s*(\d{3,4})\s+(\d{3,5}\s?MB|\d{1,2}\s?GB)\s*$", re.IGNORECASE)


def _wrapped_graphics(lines: Sequence[str], near: Sequence[int]) -> Dict[int, Facts]:
    """A summary's 'Graphics Intel HD Graphics' whose model number and memory wrapped to the next line ('630 1536 MB')."""
    for index in near:
        graphics = _GRAPHICS.match(lines[index])
        rest = _WRAPPED_REST.match(lines[index + 1]) if graphics and index + 1 < len(lines) else None
        if rest:
            return {index: [gpu_record(f"{graphics.group(1)} {rest.group(1)}", rest.group(2))]}
    return {}


_FAMILY_ONLY = re.compile(r"^\s*(MacBook(?: Pro| Air)?|iMac(?: Pro)?|Mac mini|Mac Pro)\s*$", re.IGNORECASE)
_SIZE_AND_YEAR = re.compile(r"^\s*((?:Retina,\s*)?(?:\d{2}-inch,\s*)?(?:Early|Mid|Late)?\s*20[01]\d)\s*$", re.IGNORECASE)


def split_model_name(lines: Sequence[str]) -> Dict[int, Facts]:
    """About This Mac's name over two lines, as its window shows it: 'MacBook Pro' then '15-inch, Early 2011' ->
    'MacBook Pro (15-inch, Early 2011)', where another summary line follows (Processor, Memory, ...)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        family, year = _FAMILY_ONLY.match(line), _SIZE_AND_YEAR.match(lines[index + 1])
        after = lines[index + 2:index + 2 + _REACH]
        if family and year and any(_SUMMARY_LINE.match(x) or _MEMORY.match(x) for x in after) \
                and not _introduced_as_mention(lines, index):
            found[index + 1] = [("platform", "darwin"), ("cpu.model_name", f"{family.group(1)} ({year.group(1)})")]
    return found


# the macOS version under the release name, as the window shows it: 'Version 13.5.2' or 'Version 14.1 (23B74)'
_VERSION = re.compile(r"^\s*(?:[-*•]\s+)?Version\s+(10\.1[0-5]|1[1-5]|2[6-9])\.(\d{1,2}(?:\.\d{1,2})?)(?:\s*\(\w+\))?\s*$")


def summary_version(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the macOS version a summary's 'Version 13.5.2' line states, where another summary line is near
    (an app's 'Version 13.5.2' stands alone)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        version = _VERSION.match(line)
        near = [i for i in range(max(0, index - _REACH), min(len(lines), index + _REACH + 1))
                if i != index and _SUMMARY_LINE.match(lines[i]) and not _VERSION.match(lines[i])] if version else []
        if near and not _introduced_as_mention(lines, min(near + [index])):
            found[index] = [("platform", "darwin"), ("os.version", f"{version.group(1)}.{version.group(2)}")]
    return found


def answers(lines: Sequence[str]) -> Dict[int, List]:
    return {**split_model_name(lines), **summary_memory(lines), **summary_version(lines)}
