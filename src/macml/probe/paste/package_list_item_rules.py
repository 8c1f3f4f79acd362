"""Packages listed as Markdown items under a label that says they are packages: 'Package versions tested:' /
'Dependencies:' / 'Installed libraries:' / 'Software Environment:' then '- parakeet-mlx 0.5.1', '- torch==2.3.1',
'* numpy: 1.26.4', '- Unsloth 2025.4.8 (git)'.
Only items of one name and one version are read; an item of several ('- mlx / mlx-metal:') or of versions tried in
turn (a nested list) states no single installed version.
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.probe.paste.statement_rules import Facts

_LABEL = re.compile(r"^\s*(?:#+\s*)?(?:\*\*)?[\w ]*\b(?:packages?|dependenc(?:y|ies)|librar(?:y|ies)|package versions|"
                    r"versions|software environment)\b[\w ()]*(?:\*\*)?:?(?:\*\*)?\s*$", re.IGNORECASE)
_ITEM = re.compile(r"^[-*]\s+`?([A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])`?\s*(?:==|:|\s)\s*v?`?(\d+(?:\.\d+){1,3}(?:[.+-]?[\w.]+)?)`?(?:\s+\((?:git|from source|source|dev|nightly)\))?\s*$")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _LABEL.match(line):
            continue
        for item_index in range(index + 1, min(len(lines), index + 40)):
            item = lines[item_index]
            if not item.strip():
                continue
            if not re.match(r"^[-*]\s", item):  # top-level items only; a nested list or prose ends the list
                if re.match(r"^\s+[-*]\s", item):
                    continue
                break
            read = _ITEM.match(item)
            if read:
                found.setdefault(item_index, []).append(
                    ("package", {"name": read.group(1).lower().replace("_", "-"), "version": read.group(2)}))
    return found
