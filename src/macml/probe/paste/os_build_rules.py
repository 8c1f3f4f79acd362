"""A macOS version written with its build in an OS field: Xcode's event metadata '"device_osBuild" = "14.3.1 (23D60)";',
'OS Version: 13.4.1 (22F82)', 'System Version: 10.15.7 (19H2)', OBS's 'OS Version: Version 12.6 (Build 21G115)'.

The field need not say 'macOS': the build says it. A macOS build's first two digits are its Darwin major and its
letter the minor release (knowledge/macos_builds), so a build of the same macOS release as the version beside it
makes the pair a macOS one; iOS and iPadOS versions carry builds of other Darwin majors ('17.3.1 (21D61)': build
21D is macOS 12, not 17), so they never agree.

A line that is only such a pair ('15.7.9 (24G830)', as About This Mac's macOS line is copied without its label) is
read the same way: the build must be that release's. So is such a pair in prose ('In Macbook Pro M2 chip, OS 14.5
(23F79), python3.9'), after a word that names an OS or a version.

A macOS build in brackets after a mistyped version, on a line that names the Mac ('I have M1 Pro is v4.2.1 (23C71)'):
the build alone says the macOS (23C71 is 14.2.1); an iPhone's builds are of other Darwin majors, so the line must name
the Mac.

A form's bare 'Version: 26.0' just under its 'OS: macOS' or 'Distribution: Tahoe' answer is that macOS's version
(hashcat's issue form asks OS, Distribution, Version in turn).

Each rule is a pure function of one `key: value` pair, or of one line, or (the form) of the lines.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.macos_builds import macos_for_build

Facts = List[Tuple[str, Any]]

_OS_KEY = re.compile(r"^(?:device |host |system |product |software )?(?:os ?build|os ?version|os|system version|"
                     r"product ?version|software version|version)$")
_VERSION_BUILD = re.compile(r"^\s*(?:Version\s+)?(\d{2}\.\d{1,2}(?:\.\d{1,2})?)(?:\s+Beta(?:\s+\d{1,2})?)?\s*\((?:Build\s+)?"
                            r"(\d{2}[A-Z]\d{1,5}[a-z]?)\)\s*[\"';,]*\s*$")  # '10.14.2 Beta (18C52a)' too


def _major(version: str) -> Tuple[str, ...]:
    """'15.7.9' -> ('15',); '10.15.7' -> ('10', '15'): the release a build's Darwin major names. The letter after it
    does not settle the minor (Apple kept 24G for both 15.6 and 15.7: '15.7.9 (24G830)')."""
    parts = version.split(".")
    return tuple(parts[:2]) if parts[0] == "10" else tuple(parts[:1])


def version_with_build(key: str, value: str) -> Facts:
    """'device osbuild' = '14.3.1 (23D60)' -> macOS 14.3.1, build 23D60 (where the build is that release's)."""
    if not _OS_KEY.match(key.strip().lower()):
        return []
    return _pair(value)


_PROSE_PAIR = re.compile(r"\b(?:macOS|OS ?X|OS|Version|Sonoma|Ventura|Sequoia|Tahoe|Monterey|Big Sur)\s+(\d{2}\.\d{1,2}(?:\.\d{1,2})?)"
                         r"\s*\((\d{2}[A-Z]\d{1,5}[a-z]?)\)")


_BRACKETED_BUILD = re.compile(r"\bv?\d{1,2}(?:\.\d{1,2}){1,2}\s*\((\d{2}[A-Z]\d{2,4}[a-z]?)\)")
_NAMES_A_MAC = re.compile(r"\b(?:mac(?:OS|book|mini|studio)?|M[1-5](?: (?:Pro|Max|Ultra))?|Apple silicon|Tahoe|Sequoia|Sonoma|Ventura"
                          r"|Monterey|Big Sur|Catalina|Mojave)\b", re.IGNORECASE)


def bracketed_build(line: str) -> Facts:
    """'I have M1 Pro is v4.2.1 (23C71)' -> macOS build 23C71 (the version beside it is not macOS's)."""
    found = _BRACKETED_BUILD.search(line)
    if not found or _pair(found.group(0).lstrip("v")) or not _NAMES_A_MAC.search(line) or not macos_for_build(found.group(1))[0]:
        return []
    return [("platform", "darwin"), ("os.build", found.group(1))]


def line_facts(line: str) -> Facts:
    """'15.7.9 (24G830)' alone on its line; 'OS 14.5 (23F79)' in a sentence; '(23C71)' beside a mistyped version."""
    prose = _PROSE_PAIR.search(line)
    return _pair(line) or (_pair(f"{prose.group(1)} ({prose.group(2)})") if prose else []) or bracketed_build(line)


def _pair(value: str) -> Facts:
    found = _VERSION_BUILD.match(value)
    if not found:
        return []
    version, build = found.groups()
    release, _ = macos_for_build(build)
    if not release or _major(release) != _major(version):
        return []
    return [("platform", "darwin"), ("os.version", version), ("os.build", build)]


_BUILD_KEYS = ("buildid", "build id", "os build", "osbuild", "productbuildversion", "build version", "system build")


def build_alone(key: str, value: str) -> Facts:
    """fastfetch's '"buildID": "24C101"', sw_vers' 'BuildVersion: 24C101': a macOS build (its release by the table)."""
    build = value.strip().strip('",')
    if key.strip().lower() not in _BUILD_KEYS or not re.fullmatch(r"\d{2}[A-Z]\d{1,5}[a-z]?", build) or not macos_for_build(build)[0]:
        return []
    return [("platform", "darwin"), ("os.build", build)]


def keyed_facts(key: str, value: str) -> Facts:
    return version_with_build(key, value) or build_alone(key, value)


_MACOS_ANSWER = re.compile(r"^\s*[-*]?\s*(?:OS|Distribution|System|Platform)\s*:\s*(?:macOS|Mac\s?OS(?: X)?|OS X|Tahoe|Sequoia|"
                           r"Sonoma|Ventura|Monterey|Big Sur|Catalina|Mojave)\s*$", re.IGNORECASE)
_BARE_VERSION = re.compile(r"^\s*[-*]?\s*Version\s*:\s*((?:1[1-9]|2\d)(?:\.\d{1,2}){0,2}|10\.1[0-5](?:\.\d{1,2})?)\s*$",
                           re.IGNORECASE)


def form_version(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> macOS and its version, for 'Version: 26.0' within two lines under a macOS answer."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        bare = _BARE_VERSION.match(line)
        if bare and any(_MACOS_ANSWER.match(above) for above in lines[max(0, index - 2):index]):
            found[index] = [("platform", "darwin"), ("os.version", bare.group(1))]
    return found
