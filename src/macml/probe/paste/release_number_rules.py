"""A macOS version written as a bare number near the release's name: 'Installing 11.2.3 completed but normal boot hangs.
Can only start Big Sur in safe mode', '# 11.2.3 AMD Radeon 7950 not supported?' above a Big Sur report.

The number counts only where the text names one macOS release and nothing else (knowledge/macos.sole_release), the
number belongs to that release (11.x for Big Sur, 10.15.x for Catalina), it sits within two lines of the name, and an
install word, a heading mark or 'on'/'to' leads it ('CUDA 11.2', 'numpy 11.2.1' are led by their own names).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.macos import sole_release

Facts = List[Tuple[str, Any]]

_LEAD = r"(?:^\s*#+\s*|\b(?:installing|installed|install|updated?|upgraded?|updating|upgrading|running|on|to|version:?)\s+)"
_REACH = 2


def release_numbers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the macOS version a bare number near the text's one release name gives."""
    named = {index: sole_release(line) for index, line in enumerate(lines)}
    releases = {release for release in named.values() if release}
    if len(releases) != 1:
        return {}
    release = releases.pop()
    points = r"(?:\.\d{1,2})?" if "." in release else r"(?:\.\d{1,2}){1,2}"  # '10.15' may stand alone, '11' may not
    number = re.compile(_LEAD + r"(" + re.escape(release) + points + r")(?![\d.]*\d)", re.IGNORECASE)
    found: Dict[int, Facts] = {}
    for index in (i for i, r in named.items() if r):
        for near in range(max(0, index - _REACH), min(len(lines), index + _REACH + 1)):
            version = number.search(lines[near])
            if version and near not in found:
                found[near] = [("platform", "darwin"), ("os.version", version.group(1))]
    return found


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    return release_numbers(lines)
