"""The platform tag uv gives for the Python it resolves for, when no wheel fits: 'has no wheels with a matching
platform tag (e.g., `macosx_26_0_x86_64`)' and 'hint: You're on macOS (`macosx_14_0_arm64`), but ...'. The tag
is the target interpreter's own (its platform.machine() last), so a macosx tag names a Mac and that Python's arch.
uv also names that interpreter in words: 'The built wheel `...` is not compatible with the current Python 3.12 on macOS
aarch64' (its minor version, OS and arch).

The other tags in uv's messages ('Wheels are available for `torch` ... on the following platforms:
`manylinux_2_28_aarch64`, `win_amd64`') are the package's, not this machine's, and do not fire.
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_OWN_TAG = re.compile(r"(?:\bmatching platform tag \(e\.g\.,?\s*|\bYou're on macOS \()`macosx_\d{1,2}_\d{1,2}_(x86_64|arm64)`")


def uv_own_tag(line: str) -> Facts:
    """'no wheels with a matching platform tag (e.g., `macosx_26_0_x86_64`)' -> macOS, an x86_64 Python."""
    found = _OWN_TAG.search(line)
    return [("platform", "darwin"), ("python.machine", found.group(1))] if found else []


_CURRENT_PYTHON = re.compile(r"\bnot compatible with the current Python (3\.\d{1,2}) on (macOS|Linux|Windows) (aarch64|arm64|x86_64)\b")


def uv_current_python(line: str) -> Facts:
    """'... is not compatible with the current Python 3.12 on macOS aarch64' -> Python 3.12, macOS, arm64."""
    found = _CURRENT_PYTHON.search(line)
    if not found:
        return []
    platform = {"macOS": "darwin", "Linux": "linux", "Windows": "win32"}[found.group(2)]
    machine = "arm64" if found.group(3) == "aarch64" and platform == "darwin" else found.group(3)
    return [("platform", platform), ("python.minor", found.group(1)), ("python.machine", machine)]


def line_facts(line: str) -> Facts:
    return uv_own_tag(line) + uv_current_python(line)
