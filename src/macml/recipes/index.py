"""Pre-flight: does PyPI have a wheel of each pinned package for the TARGET interpreter?

The target's tags come from macml.recipes.tags (facts reported by the target itself,
expanded with packaging.tags); PyPI answers through its JSON API.
When no wheel fits, the blocking constraint is named: Python, OS, arch, macOS or glibc.
"""
from __future__ import annotations

import os
from urllib.parse import urlparse
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

import requests
from packaging import tags
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from macml.recipes.tags import TargetPlatform, parse_pair, target_tags

DEFAULT_PYPI_URL = "https://pypi.org"
PYPI_TIMEOUT = 20.0

# ---------------------------------------------------------------- why no wheel fits


def _os_family(platform: str) -> str:
    if platform == "any":
        return "any"
    if platform.startswith("macosx"):
        return "macOS"
    if platform.startswith("win"):
        return "Windows"
    if "linux" in platform:
        return "Linux"
    return platform


def _platform_arch(platform: str) -> str:
    if platform.startswith("macosx"):
        return platform.split("_", 3)[-1]
    if platform.startswith("win"):
        return {"win32": "x86", "win_amd64": "AMD64", "win_arm64": "ARM64"}.get(platform, platform)
    for arch in ("x86_64", "aarch64", "i686", "ppc64le", "s390x", "armv7l"):
        if platform.endswith(arch):
            return arch
    return platform


def _arch_fits(wheel_arch: str, target: TargetPlatform) -> bool:
    if target.os == "macOS" and wheel_arch in ("universal2", "universal"):
        return True
    if target.os == "macOS" and wheel_arch == "intel":
        return target.arch == "x86_64"
    return wheel_arch == target.arch


def _span(interpreters: Iterable[str]) -> str:
    names = sorted(set(interpreters), key=lambda s: (s.rstrip("0123456789t"), int("".join(c for c in s if c.isdigit()) or 0)))
    return names[0] if len(names) == 1 else f"{names[0]}–{names[-1]}"


def explain_no_wheel(wheel_tags: Sequence[FrozenSet[tags.Tag]], target: TargetPlatform,
                     compatible: FrozenSet[tags.Tag]) -> Tuple[str, str]:
    """(blocking constraint, sentence) for wheels none of which fit the target."""
    pairs = {(t.interpreter, t.abi) for t in compatible}
    for_python = [ws for ws in wheel_tags if any((t.interpreter, t.abi) in pairs for t in ws)]
    if not for_python:
        offered = _span(t.interpreter for ws in wheel_tags for t in ws)
        return "Python", f"no wheel for Python {target.python_label}; wheels exist for {offered}"
    plats = {t.platform for ws in for_python for t in ws}
    same_os = {p for p in plats if _os_family(p) in (target.os, "any")}
    if not same_os:
        families = ", ".join(sorted({_os_family(p) for p in plats}))
        return "OS", f"no wheel for {target.os}; wheels exist only for {families}"
    same_arch = {p for p in same_os if _arch_fits(_platform_arch(p), target)}
    if not same_arch:
        arches = ", ".join(sorted({_platform_arch(p) for p in same_os}))
        return "arch", f"no wheel for {target.arch}; wheels exist only for {arches}"
    if target.os == "macOS":
        oldest = min((parse_pair(p.split("_")[1] + "." + p.split("_")[2]) or (0, 0)) for p in same_arch)
        have = ".".join(map(str, target.os_version or ()))
        return "macOS version", f"needs macOS {oldest[0]}.{oldest[1]} or newer; the target is macOS {have or 'unknown'}"
    if target.os == "Linux":
        needed = [p for p in same_arch if p.startswith("manylinux_")]
        if needed:
            low = min(parse_pair(".".join(p.split("_")[1:3])) or (0, 0) for p in needed)
            have = ".".join(map(str, target.glibc)) if target.glibc else "no glibc (musl?)"
            return "glibc", f"needs glibc {low[0]}.{low[1]} or newer; the target has {have}"
    return "tags", "no wheel matches this interpreter's tags"


# ---------------------------------------------------------------- PyPI


@dataclass(frozen=True)
class PackageCheck:
    requirement: str
    ok: bool
    detail: str
    blocker: Optional[str] = None  # "Python", "OS", "arch", "macOS version", "glibc", "PyPI"
    wheel: Optional[str] = None  # a wheel that fits
    checked: bool = True  # False: PyPI was not asked (a direct URL, or not pinned)


@dataclass(frozen=True)
class Preflight:
    checks: Tuple[PackageCheck, ...] = ()
    skipped: Optional[str] = None  # why nothing was checked

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def checked(self) -> Tuple[PackageCheck, ...]:
        return tuple(c for c in self.checks if c.checked)

    @property
    def unchecked(self) -> Tuple[PackageCheck, ...]:
        return tuple(c for c in self.checks if not c.checked)


def pypi_url(base: Optional[str] = None) -> str:
    return (base or os.environ.get("MACML_PYPI_URL") or DEFAULT_PYPI_URL).rstrip("/")


class PyPIUnreachable(Exception):
    pass


def release_files(session: requests.Session, base: str, name: str, version: str) -> Optional[List[Mapping[str, Any]]]:
    """The files of name==version, or None when PyPI has no such project or release."""
    data = _get_json(session, f"{base}/pypi/{canonicalize_name(name)}/json")
    if data is None:
        return None
    wanted = Version(version)
    for key, files in (data.get("releases") or {}).items():
        try:
            if Version(key) == wanted:
                return list(files)
        except InvalidVersion:
            continue
    exact = _get_json(session, f"{base}/pypi/{canonicalize_name(name)}/{version}/json")
    return list(exact.get("urls") or []) if exact else None


def _get_json(session: requests.Session, url: str) -> Optional[Dict[str, Any]]:
    try:
        response = session.get(url, timeout=PYPI_TIMEOUT, headers={"Accept": "application/json"})
    except requests.RequestException as exc:
        raise PyPIUnreachable(f"{type(exc).__name__}: {exc}") from None
    if response.status_code == 404:
        return None
    if response.status_code != 200:
        raise PyPIUnreachable(f"HTTP {response.status_code} from {url}")
    try:
        return response.json()
    except ValueError:
        raise PyPIUnreachable(f"{url} did not answer JSON") from None


def pinned_version(requirement: Requirement) -> Optional[str]:
    specs = list(requirement.specifier)
    if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version:
        return specs[0].version.split("+")[0]
    return None


def check_files(requirement: str, files: Sequence[Mapping[str, Any]], target: TargetPlatform,
                compatible: FrozenSet[tags.Tag]) -> PackageCheck:
    wheels: List[Tuple[str, FrozenSet[tags.Tag]]] = []
    for item in files:
        filename = str(item.get("filename", ""))
        if not filename.endswith(".whl") or item.get("yanked"):
            continue
        try:
            wheels.append((filename, parse_wheel_filename(filename)[3]))
        except InvalidWheelFilename:
            continue
    for filename, wheel_tags in wheels:
        if wheel_tags & compatible:
            return PackageCheck(requirement, True, f"wheel {filename}", wheel=filename)
    if not wheels:
        has_sdist = any(str(f.get("filename", "")).endswith((".tar.gz", ".zip")) for f in files)
        if has_sdist:
            return PackageCheck(requirement, True, "no wheel: pip would build it from source (slow, may need a compiler)")
        return PackageCheck(requirement, False, "no files on PyPI for this release", blocker="PyPI")
    blocker, sentence = explain_no_wheel([w for _, w in wheels], target, compatible)
    return PackageCheck(requirement, False, sentence, blocker=blocker)


def preflight(requirements: Sequence[str], target: TargetPlatform, base_url: Optional[str] = None,
              custom_index: bool = False) -> Preflight:
    """Check each pinned requirement (markers evaluated for the target) against PyPI.

    custom_index: the recipe installs from another index, so a release missing on PyPI is
    only a warning there.
    """
    base = pypi_url(base_url)
    compatible = target_tags(target)
    checks: List[PackageCheck] = []
    with requests.Session() as session:
        for text in requirements:
            try:
                req = Requirement(text)
            except InvalidRequirement:
                checks.append(PackageCheck(text, False, "not a valid requirement string", blocker="recipe"))
                continue
            if req.marker is not None and target.markers and not req.marker.evaluate(dict(target.markers)):
                continue
            if req.url is not None:
                checks.append(PackageCheck(text, True, "a direct URL: not checked", checked=False))
                continue
            version = pinned_version(req)
            if version is None:
                checks.append(PackageCheck(text, True, "not pinned: not checked", checked=False))
                continue
            try:
                files = release_files(session, base, req.name, version)
            except PyPIUnreachable as exc:
                host = urlparse(base).netloc or base
                return Preflight(tuple(checks), skipped=f"cannot reach {host} ({exc}); pre-flight skipped "
                                                        "(pass --offline to skip it without trying)")
            if files is None:
                detail = f"{req.name} {version} is not on {base}"
                checks.append(PackageCheck(text, custom_index, detail + (" (the recipe's index may have it)" if custom_index else ""),
                                           blocker=None if custom_index else "PyPI"))
                continue
            checks.append(check_files(text, files, target, compatible))
    return Preflight(tuple(checks))
