"""pip list, pip freeze and conda list pastes, and collect_env's '[pip3] ...' / '[conda] ...' library lines
outside a whole report (a paste that starts inside one) -> the interpreter's packages."""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.base import Part, runs
from macml.probe.paste.collect_env import LIBRARY, library_packages

_FREEZE = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9_.\-]*)(?:\[[^\]]*\])?\s*(?:==|===)\s*([^\s;#]+)")
_FREEZE_URL = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9_.\-]*)\s*@\s*\S+")
_CONDA_EQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9_.\-]*)=(\d[^=\s]*)=\S+\s*$")
_TABLE_ROW = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9_.\-]*)\s+(\d[\w.+!\-]*)(?:\s+\S.*)?$")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _collect(lines: Sequence[str], pattern) -> Dict[str, str]:
    found: Dict[str, str] = {}
    for line in lines:
        match = pattern.match(line)
        if match:
            found.setdefault(canonical(match.group(1)), match.group(2))
    return found


def find(lines: Sequence[str]) -> List[Part]:
    parts: List[Part] = []
    for first, last in runs(lines, lambda l: bool(_FREEZE.match(l) or _FREEZE_URL.match(l)), gap=1):
        packages = _collect(lines[first:last + 1], _FREEZE)
        if len(packages) >= 2:
            parts.append(Part("pip_freeze", first + 1, last + 1, packages=packages))
    for first, last in runs(lines, lambda l: bool(_CONDA_EQ.match(l)), gap=1):
        packages = _collect(lines[first:last + 1], _CONDA_EQ)
        if packages:
            parts.append(Part("conda_list", first + 1, last + 1, packages=packages))
    for first, last in runs(lines, lambda l: bool(LIBRARY.match(l))):
        packages = library_packages(lines[first:last + 1])
        if len(packages) >= 2:
            parts.append(Part("collect_env_libraries", first + 1, last + 1, packages=packages))
    for index, line in enumerate(lines):
        words = line.split()
        if words[:2] == ["Package", "Version"] or words[:2] == ["#", "Name"]:
            body = lines[index + 1:]
            if body and re.match(r"^\s*-+\s+-+", body[0]):
                body = body[1:]
            spans = runs(body, lambda l: bool(_TABLE_ROW.match(l)))
            if spans and spans[0][0] == 0:
                last = index + 1 + spans[0][1] + (1 if lines[index + 1:index + 2] and "---" in lines[index + 1] else 0)
                shape = "conda_list" if words[0] == "#" else "pip_list"
                parts.append(Part(shape, index + 1, last + 1, packages=_collect(lines[index + 1:last + 1], _TABLE_ROW)))
    return parts
