"""A distribution the writer asked for and did not get, with the version asked for (a specifier):

- pip's 'Could not find a version that satisfies the requirement torch==2.3.0 (from versions: ...)' and
  'No matching distribution found for torch==2.3.0';
- uv's 'Because torch==2.4.1 has no wheels with a matching platform tag ...';
- a project that needs it ('on dev you are requiring torch>=2.4', 'requires torch>=2.5');
- the index said to lack it ('pip仓库没有torch==2.4.1': the pip index has no torch==2.4.1).

What the machine can have is the checks' business (diagnose/torch_checks.check_intel_mac_torch). Not from a denial
just before it ('does not require torch>=2.4'). A pure function of one line.
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.probe.paste.packages import canonical
from macml.probe.paste.said_of_this_machine import negated

Facts = List[Tuple[str, Any]]

_SPEC = r"`?([A-Za-z][\w.-]*[A-Za-z0-9])\s*((?:==|>=|~=|>)\s*\d+(?:\.\d+)*)(?![\d.A-Za-z])"  # CJK may follow
_WANTED = (re.compile(r"\b(?:Could not find a version that satisfies the requirement|No matching distribution found for)\s+"
                      + _SPEC),
           re.compile(r"\bBecause\s+" + _SPEC + r"\s+has\s+no\s+wheels?\s+with\s+a\s+matching\s+platform\s+tag"),
           re.compile(r"\b(?:requir(?:es|ing|ed|e)|needs?|depends\s+on)\s+" + _SPEC, re.IGNORECASE),
           re.compile(r"没有\s*" + _SPEC))


def line_facts(line: str) -> Facts:
    return [("package.wanted", {"name": canonical(found.group(1)), "version": re.sub(r"\s+", "", found.group(2))})
            for pattern in _WANTED for found in pattern.finditer(line) if not negated(line[:found.start()])]
