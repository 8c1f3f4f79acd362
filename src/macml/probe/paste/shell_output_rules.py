"""Shell outputs the `key: value` reader misses:

- `file $(which python)`: '/Users/u/venv/bin/python: Mach-O 64-bit executable x86_64' is that Python's arch
  (a universal binary names several and says nothing of the process);
- a `pip list` row whose name is as long as the name column ('tensorflow-io-gcs-filesystem 0.29.0'): one space
  only, its version in the column the rows around it align.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.statement_rules import Facts, package_facts

_FILE_PYTHON = re.compile(r"^\s*\S*/python(?:3(?:\.\d{1,2})?)?:\s+Mach-O 64-bit executable (x86_64|arm64)\s*$")
_PIP_ROW = re.compile(r"^(\s*)([A-Za-z][\w.-]*)(\s+)(\d[\w.+!-]*)\s*$")


def file_python(line: str) -> Facts:
    found = _FILE_PYTHON.match(line)
    return [("platform", "darwin"), ("python.machine", found.group(1))] if found else []


def line_facts(line: str) -> Facts:
    return file_python(line)


def pip_rows(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the package of a one-space `pip list` row aligned with a neighbouring row."""
    rows = {i: _PIP_ROW.match(line) for i, line in enumerate(lines)}
    found: Dict[int, Facts] = {}
    for index, row in rows.items():
        if not row or len(row.group(3)) != 1:
            continue
        column = row.start(4)
        aligned = [rows.get(other) for other in (index - 2, index - 1, index + 1, index + 2)]
        if any(other and len(other.group(3)) >= 2 and other.start(4) == column for other in aligned):
            facts = package_facts(row.group(2).lower(), row.group(4))
            if facts:
                found[index] = facts
    return found


def answers(lines: Sequence[str]) -> Dict[int, List]:
    return dict(pip_rows(lines))
