"""What an `OS:` answer says, beyond the OS name statement_rules reads.

- A bare release number ('- OS:13.3'): the OS is not named, so the number is only a macOS release where the
  machine is a Mac (stated.py uses os.version on Macs only); numbers no macOS had (16-25, 10.16) say nothing.
- The OS the writer declares for their machine ('OS: [macOS] Monterey 12.6'): prose may name other machines
  ('the same speed as the other Win10'), so a declared OS outweighs the OS words elsewhere (`declared_platform`).
- A release's own version key: 'Big Sur Version: 11.0.1' (the number must be that release's).
"""
from __future__ import annotations

import re
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from macml.knowledge.macos import MACOS_RELEASE_NAMES
from macml.probe.paste.linux_clues_rules import wsl_distro
from macml.probe.paste.statement_rules import platform_word

Facts = List[Tuple[str, Any]]

_OS_KEYS = ("os", "operating system", "os version", "operating system version")
_BARE_MACOS = re.compile(r"^(10\.(?:[4-9]|1[0-5])(?:\.\d{1,2})?|1[1-5]\.\d{1,2}(?:\.\d{1,2})?|26\.\d{1,2}(?:\.\d{1,2})?)$")
_BRACKETS = re.compile(r"[\[\]]")


def bare_os_version(key: str, value: str) -> Facts:
    """'OS: 13.3': a release number alone under an OS key (a macOS one, if the machine is a Mac)."""
    found = _BARE_MACOS.match(value.strip()) if key in _OS_KEYS else None
    return [("os.version", re.sub(r"^(\d+\.\d+)\.0$", r"\1", found.group(1)))] if found else []


def declared_os(key: str, value: str) -> Facts:
    """'OS: [macOS] Monterey 12.6', 'Operating system: Windows 11': the OS the writer declares for their machine."""
    if key not in _OS_KEYS:
        return []
    platform = platform_word(_BRACKETS.sub(" ", wsl_distro(value) or value))  # 'Windows 11 ... WSL2 Ubuntu': Linux
    return [("platform.declared", platform)] if platform else []


_RELEASE_KEY = re.compile(r"(?:macos\s*|os\s*x\s*)?(" + "|".join(MACOS_RELEASE_NAMES) + r")\s+version")


def release_version(key: str, value: str) -> Facts:
    """'Big Sur Version: 11.0.1', 'Catalina version: 10.15.7': the macOS release the key names, in full; a number
    that is not that release's ('Big Sur version: 12.1') says nothing."""
    named = _RELEASE_KEY.fullmatch(key)
    found = re.match(r"^\s*(\d{2}(?:\.\d{1,2}){0,2})\b", value) if named else None
    if not found or not (found.group(1) + ".").startswith(MACOS_RELEASE_NAMES[named.group(1)] + "."):
        return []
    return [("platform", "darwin"), ("os.version", found.group(1))]


def windows_feature_update(key: str, value: str) -> Facts:
    """'Windows 11: 25H2': Windows, named with its feature update (Microsoft's 'YYH1/YYH2' release names)."""
    found = re.fullmatch(r"windows (1[01])", key.strip())
    update = re.fullmatch(r"(2\d[Hh][12])", value.strip())
    return [("platform", "win32"), ("os.name", f"Windows {found.group(1)} {update.group(1).upper()}")] if found and update else []


def keyed_facts(key: str, value: str) -> Facts:
    return bare_os_version(key, value) + declared_os(key, value) + release_version(key, value) + windows_feature_update(key, value)


def declared_platform(statements: Sequence[Mapping[str, Any]]) -> Optional[str]:
    """The one OS the text's `OS:` answers declare, if they agree."""
    declared = {s.get("value") for s in statements if s.get("fact") == "platform.declared"}
    return declared.pop() if len(declared) == 1 else None
