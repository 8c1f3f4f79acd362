"""A framework written alone on a line of a hand-written environment list, as its distribution and release:
'tensorflow-gpu-2.4.0' (a wheel's stem without its tags), 'torch 1.13.1', '- jaxlib 0.4.30', between the list's
'GPU:NVIDIA RTX3060 12G' and 'cuda:11.0' lines.

Only the distributions whose every release has three parts (knowledge/release_versions.py) and a three-part
version are read, so the dash before the version cannot belong to the name, and a distribution named with its
version in prose ('Ubuntu 20.04') is never taken for a package. A name-version alone, with no 'key: value' line of a
list beside it, may be a file listed anywhere (a download, a wheel cache): it is not read.
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.knowledge.release_versions import THREE_PART_RELEASES
from macml.probe.paste.statement_rules import Facts

_NAMES = "|".join(sorted((re.escape(name) for name in THREE_PART_RELEASES), key=len, reverse=True))
_ALONE = re.compile(r"^\s*(?:[-*+•]\s+)?(" + _NAMES + r")(?:-|\s+v?)(\d+\.\d+\.\d+(?:[+.]\w+)*)\s*$", re.IGNORECASE)
_LIST_ROW = re.compile(r"^\s*(?:[-*+•]\s+)?[A-Za-z][\w .()/-]{0,30}\s*[:：]\s*\S")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the framework a list line names alone ('   tensorflow-gpu-2.4.0' -> tensorflow-gpu 2.4.0)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        alone = _ALONE.match(line)
        beside = [l for l in (lines[index - 1] if index else "", lines[index + 1] if index + 1 < len(lines) else "") if l.strip()]
        if alone and any(_LIST_ROW.match(l) for l in beside):
            found[index] = [("package", {"name": alone.group(1).lower(), "version": alone.group(2)})]
    return found
