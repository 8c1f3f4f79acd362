"""A framework written alone on a line as its distribution and release, the way a hand-written environment list
puts it: 'tensorflow-gpu-2.4.0' (a wheel's stem without its tags), 'torch 1.13.1', '- jaxlib 0.4.30'.

Only the distributions whose every release has three parts (knowledge/release_versions.py) and a three-part
version are read, so the dash before the version cannot belong to the name, and a distribution named with its
version in prose ('Ubuntu 20.04') is never taken for a package.
"""
from __future__ import annotations

import re

from macml.knowledge.release_versions import THREE_PART_RELEASES
from macml.probe.paste.statement_rules import Facts

_NAMES = "|".join(sorted((re.escape(name) for name in THREE_PART_RELEASES), key=len, reverse=True))
_ALONE = re.compile(r"^\s*(?:[-*+•]\s+)?(" + _NAMES + r")(?:-|\s+v?)(\d+\.\d+\.\d+(?:[+.]\w+)*)\s*$", re.IGNORECASE)


def line_facts(line: str) -> Facts:
    """'   tensorflow-gpu-2.4.0' -> tensorflow-gpu 2.4.0 installed."""
    found = _ALONE.match(line)
    return [("package", {"name": found.group(1).lower(), "version": found.group(2)})] if found else []
