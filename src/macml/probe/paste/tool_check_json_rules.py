"""A tool's doctor report in JSON, one object per check, naming the check and what it observed on this machine:

    {
      "expected": "macOS >= 14.0 on Apple Silicon",
      "id": "os.macos_version",
      "observed": "27.2",
      "status": "pass"
    }

The check's name ('id', 'name', 'check', 'key') says what it measured; its observed value ('observed', 'actual',
'value', 'detected', 'found', 'current') is this machine's. 'expected' / 'required' values are the tool's
requirement, never read, and so is a check named for a bound ('min_macos_version', 'Target macOS version'). A
one-line object ('{"check": "macos_version", "found": ""}') is its own whole: the next object's value is not its.
Only a macOS version check is read here.
"""
from __future__ import annotations

import re
from typing import Dict, Optional, Sequence

from macml.probe.paste.statement_rules import Facts
from macml.probe.paste.system_rules import NO_SUCH_MACOS

_NAME = re.compile(r'"(?:id|name|check|key|title)"\s*:\s*"(?P<prefix>(?:[\w-]+[._ ])?)mac\s?os[._ -]?(?:version|release)"',
                   re.IGNORECASE)
_BOUND = re.compile(r"\b(?:min|max|minimum|maximum|required|requires|target|deployment|supported|expected|recommended)\b",
                    re.IGNORECASE)
_OBSERVED = re.compile(r'"(?:observed|actual|value|detected|found|current|got)"\s*:\s*"(?:mac\s?OS\s+)?'
                       r'(10\.\d{1,2}(?:\.\d{1,2})?|(?:1[1-9]|2\d)(?:\.\d{1,2}){0,2})"', re.IGNORECASE)
_BOUNDARY = re.compile(r"^\s*[{}\[\]],?\s*$")  # a bare brace: one check object ends and the next begins
_ONE_LINE = re.compile(r"^\s*\{.*\}\s*,?\s*$")  # a whole object on one line
_REACH = 15


def _ends(line: str) -> bool:
    return bool(_BOUNDARY.match(line) or _ONE_LINE.match(line))


def _object_lines(lines: Sequence[str], index: int) -> range:
    """The lines of the JSON object holding line `index`: up and down to the nearest bare brace."""
    if _ONE_LINE.match(lines[index]):
        return range(index, index + 1)
    start = index
    while start > 0 and index - start < _REACH and not _ends(lines[start - 1]) and not lines[start].lstrip().startswith("{"):
        start -= 1
    end = index
    while (end + 1 < len(lines) and end - index < _REACH and not _ends(lines[end + 1])
           and not lines[end].rstrip(" ,").endswith("}")):
        end += 1
    return range(start, end + 1)


def _observed(line: str) -> Optional[str]:
    found = _OBSERVED.search(line)
    version = found.group(1) if found else None
    return version if version and not NO_SUCH_MACOS.match(version) else None


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the macOS version a check object named for it observed."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        name = _NAME.search(line)
        if not name or _BOUND.search(name.group("prefix").replace("_", " ")):
            continue
        where = [index] if _observed(line) else [i for i in _object_lines(lines, index) if _observed(lines[i])]
        for at in where[:1]:
            found.setdefault(at, []).extend([("platform", "darwin"), ("os.version", _observed(lines[at]))])
    return found
