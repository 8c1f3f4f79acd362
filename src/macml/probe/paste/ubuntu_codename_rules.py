"""An Ubuntu release stated by its version and code name, without the word Ubuntu: an issue form's OS field
answered '24.04.3 LTS (Noble Numbat)', 'OS: 22.04 (Jammy Jellyfish)', 'Distro - 20.04.6 LTS (Focal Fossa)'.

Only Ubuntu names its releases 'Adjective Animal', and the version must be the release the code name is
(knowledge/ubuntu_releases.py), so the pair names Ubuntu for certain. The line must be only that answer (after a
list marker or a 'key:' label): a release named inside a sentence ('upgrading to 24.04 (Noble Numbat) broke it')
may be another machine's or a plan.
"""
from __future__ import annotations

import re

from macml.knowledge.ubuntu_releases import codename_release
from macml.probe.paste.statement_rules import Facts

_ANSWER = re.compile(r"^\s*(?:[-*]\s+)?(?:[A-Za-z][\w /()-]{0,30}?\s*[:=-]\s*)?[\"']?"
                     r"(?P<version>\d{2}\.\d{2}(?:\.\d{1,2})?)(?P<lts>\s+LTS)?\s*\((?P<codename>[A-Z][a-z]+ [A-Z][a-z]+)\)[\"']?\s*$")


def line_facts(line: str) -> Facts:
    """'24.04.3 LTS (Noble Numbat)' -> Ubuntu 24.04.3 LTS, a Linux machine."""
    found = _ANSWER.match(line.replace("**", ""))
    if not found:
        return []
    release = codename_release(found.group("codename"))
    version = found.group("version")
    if release is None or not (version == release or version.startswith(release + ".")):
        return []
    return [("platform", "linux"), ("os.name", f"Ubuntu {version}{found.group('lts') or ''}")]
