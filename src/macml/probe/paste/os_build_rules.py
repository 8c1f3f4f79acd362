"""A macOS version written with its build in an OS field: Xcode's event metadata '"device_osBuild" = "14.3.1 (23D60)";',
'OS Version: 13.4.1 (22F82)', 'System Version: 10.15.7 (19H2)', OBS's 'OS Version: Version 12.6 (Build 21G115)'.

The field need not say 'macOS': the build says it. A macOS build's first two digits are its Darwin major and its
letter the minor release (knowledge/macos_builds), so a build that is macOS's own release of the version beside it
makes the pair a macOS one; iOS and iPadOS versions carry builds of the same Darwin but other numbers ('17.3.1
(21D61)': build 21D is macOS 12.2, not 17.3), so they never agree.

Each rule is a pure function of one `key: value` pair.
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.knowledge.macos_builds import macos_for_build

Facts = List[Tuple[str, Any]]

_OS_KEY = re.compile(r"^(?:device |host |system |product |software )?(?:os ?build|os ?version|os|system version|"
                     r"product ?version|software version|version)$")
_VERSION_BUILD = re.compile(r"^\s*(?:Version\s+)?(\d{2}\.\d{1,2}(?:\.\d{1,2})?)\s*\((?:Build\s+)?(\d{2}[A-Z]\d{1,5}[a-z]?)\)\s*[\"';,]*\s*$")


def _minor(version: str) -> Tuple[str, ...]:
    parts = version.split(".")
    return tuple(parts[:2])


def version_with_build(key: str, value: str) -> Facts:
    """'device osbuild' = '14.3.1 (23D60)' -> macOS 14.3.1, build 23D60 (where the build is that release's)."""
    if not _OS_KEY.match(key.strip().lower()):
        return []
    found = _VERSION_BUILD.match(value)
    if not found:
        return []
    version, build = found.groups()
    release, _ = macos_for_build(build)
    if not release or _minor(release) != _minor(version):
        return []
    return [("platform", "darwin"), ("os.version", version), ("os.build", build)]


def keyed_facts(key: str, value: str) -> Facts:
    return version_with_build(key, value)
