"""The lines of a section that lists what a program needs, not what this machine has: under a heading such as
'## System Requirements', '**Minimum specs:**', 'Recommended hardware:' or 'Supported GPUs', a '- 32 GB RAM' or
'- NVIDIA RTX 3060 or better' is a requirement. Such a section ends at the next heading, or at a blank line
followed by text that is not a list item. A 'requirements.txt' heading is a file of packages, and is read.
"""
from __future__ import annotations

import re
from typing import FrozenSet, Sequence

_HEADING = re.compile(r"^\s*(?:#{1,6}\s+|\*\*|__)?\s*(?P<title>[^*#_:]{0,60}?)\s*(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$")
# what a program needs; never 'System Configuration' or 'Hardware', which describe the writer's own machine
_REQUIREMENT = re.compile(r"\b(?:requirements?|prerequisites|minimum|recommended|"
                          r"supported\s+(?:hardware|gpus?|platforms?|devices?))\b", re.IGNORECASE)
_ANY_HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*\s*:?\s*$|[A-Z][\w ]{0,40}:\s*$)")


def _is_requirement_heading(line: str) -> bool:
    found = _HEADING.match(line)
    if not found or not line.strip() or "requirements.txt" in line.lower() or not _ANY_HEADING.match(line):
        return False
    return bool(_REQUIREMENT.search(found.group("title")))


def requirement_lines(lines: Sequence[str]) -> FrozenSet[int]:
    """Indices of the lines inside requirement sections (their headings excluded)."""
    inside, found, blank = False, set(), False
    for index, line in enumerate(lines):
        if _ANY_HEADING.match(line) and not re.match(r"^\s*[-*]\s", line):
            inside, blank = _is_requirement_heading(line), False
            continue
        if not line.strip():
            blank = True
            continue
        if inside and blank and not re.match(r"^\s*(?:[-*+]|\d+[.)])\s", line):
            inside = False
        blank = False
        if inside:
            found.add(index)
    return frozenset(found)
