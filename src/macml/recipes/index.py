"""Pre-flight: does the index have a wheel of each pinned package for the TARGET interpreter?

The target's tags come from macml.recipes.tags (facts reported by the target itself,
expanded with packaging.tags). The index is the recipe row's own (simple API) or PyPI (JSON API),
asked through macml.recipes.client, the same client `macml recipes --audit` uses.
When no wheel fits, the blocking constraint is named: Python, OS, arch, macOS or glibc.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from urllib.parse import urlparse
from typing import Any, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from packaging import tags
from packaging.markers import UndefinedComparison, UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import InvalidWheelFilename, parse_wheel_filename

from macml.recipes.client import DEFAULT_PYPI_URL, IndexClient, IndexUnreachable, pypi_url
from macml.recipes.tags import TargetPlatform, parse_pair, target_tags

__all__ = ["DEFAULT_PYPI_URL", "IndexClient", "IndexUnreachable", "PackageCheck", "Place", "Preflight", "check_files",
           "explain_no_wheel", "pinned_version", "preflight", "pypi_url"]

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


# ---------------------------------------------------------------- one requirement


@dataclass(frozen=True)
class PackageCheck:
    requirement: str
    ok: bool
    detail: str
    blocker: Optional[str] = None  # "Python", "OS", "arch", "macOS version", "glibc", "index", "sdist"
    wheel: Optional[str] = None  # a wheel that fits
    checked: bool = True  # False: PyPI was not asked (a direct URL, or not pinned)


@dataclass(frozen=True)
class Place:
    """Another place pip looks for packages: the user's extra index, or a find-links location."""

    index_url: Optional[str] = None
    links: Optional[str] = None

    def __str__(self) -> str:
        return f"find-links {self.links}" if self.links else f"index {self.index_url}"


@dataclass(frozen=True)
class Preflight:
    checks: Tuple[PackageCheck, ...] = ()
    skipped: Optional[str] = None  # why not everything was checked
    unreachable: Optional[str] = None  # the host of the index pip uses first, when it could not be reached

    @property
    def blocked_by_unreachable(self) -> Tuple[str, ...]:
        """Requirements found nowhere else while their index could not be reached."""
        return tuple(c.requirement for c in self.checks if c.blocker == "unreachable")

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def checked(self) -> Tuple[PackageCheck, ...]:
        return tuple(c for c in self.checks if c.checked)

    @property
    def unchecked(self) -> Tuple[PackageCheck, ...]:
        return tuple(c for c in self.checks if not c.checked)


def pinned_version(requirement: Requirement) -> Optional[str]:
    specs = list(requirement.specifier)
    if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version:
        return specs[0].version.split("+")[0]
    return None


def _wheels(files: Iterable[Mapping[str, Any]]) -> List[Tuple[str, FrozenSet[tags.Tag]]]:
    found = []
    for item in files:
        filename = str(item.get("filename", ""))
        if not filename.endswith(".whl") or item.get("yanked"):
            continue
        try:
            found.append((filename, parse_wheel_filename(filename)[3]))
        except InvalidWheelFilename:
            continue
    return found


def check_files(requirement: str, files: Sequence[Mapping[str, Any]], target: TargetPlatform,
                compatible: FrozenSet[tags.Tag], sdist_ok: bool = True) -> PackageCheck:
    """Does one of a release's files install on the target? sdist_ok: a source build counts as yes."""
    wheels = _wheels(files)
    for filename, wheel_tags in wheels:
        if wheel_tags & compatible:
            return PackageCheck(requirement, True, f"wheel {filename}", wheel=filename)
    if not wheels:
        if any(str(f.get("filename", "")).endswith((".tar.gz", ".zip")) for f in files):
            return PackageCheck(requirement, sdist_ok, "no wheel: pip would build it from source (slow, may need "
                                "a compiler)", blocker=None if sdist_ok else "sdist")
        return PackageCheck(requirement, False, "no files on the index for this release", blocker="index")
    blocker, sentence = explain_no_wheel([w for _, w in wheels], target, compatible)
    return PackageCheck(requirement, False, sentence, blocker=blocker)


def applies(req: Requirement, markers: Mapping[str, str]) -> bool:
    """Is the requirement's marker true for the target? Unknown markers: assume it applies."""
    return req.marker is None or not markers or req.marker.evaluate(dict(markers))


def not_applying(requirements: Sequence[str], markers: Mapping[str, str]) -> Tuple[str, ...]:
    """A sentence for each requirement whose marker is false for the target: pip skips it, so it is
    never installed ('x==1 does not apply to this interpreter (sys_platform == "win32")')."""
    sentences = []
    for text in requirements:
        try:
            req = Requirement(text)
            skipped = not applies(req, markers)
        except (InvalidRequirement, UndefinedComparison, UndefinedEnvironmentName):
            continue
        if skipped:
            sentences.append(f"{req.name}{req.specifier} does not apply to this interpreter ({req.marker})")
    return tuple(sentences)


def check_requirement(client: IndexClient, text: str, target: TargetPlatform, index_url: Optional[str],
                      compatible: FrozenSet[tags.Tag], sdist_ok: bool = True,
                      links: Optional[str] = None) -> Optional[PackageCheck]:
    """One requirement on one target; None when its marker excludes the target. May raise IndexUnreachable."""
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return PackageCheck(text, False, "not a valid requirement string", blocker="recipe")
    if not applies(req, target.markers):
        return None
    if req.url is not None:
        return PackageCheck(text, True, "a direct URL: not checked", checked=False)
    version = pinned_version(req)
    if version is None:
        return PackageCheck(text, True, "not pinned: not checked", checked=False)
    files = client.release_files(req.name, version, index_url, links)
    if files is None:
        where = f"find-links {links}" if links else client.where(index_url)
        return PackageCheck(text, False, f"{req.name} {version} is not on {where}", blocker="index")
    return check_files(text, files, target, compatible, sdist_ok)


def elsewhere(client: IndexClient, text: str, target: TargetPlatform, compatible: FrozenSet[tags.Tag],
              places: Sequence[Place]) -> Optional[PackageCheck]:
    """A fitting file of the requirement in one of the other places pip looks, or None."""
    for place in places:
        try:
            found = check_requirement(client, text, target, place.index_url, compatible, links=place.links)
        except IndexUnreachable:
            continue
        if found is not None and found.ok:
            return PackageCheck(text, True, f"{found.detail} from {place}", wheel=found.wheel)
    return None


def preflight(requirements: Sequence[str], target: TargetPlatform, base_url: Optional[str] = None,
              index_url: Optional[str] = None, client: Optional[IndexClient] = None,
              also: Sequence[Place] = ()) -> Preflight:
    """Check each pinned requirement (markers evaluated for the target) against the index pip will use:
    index_url (the recipe row's own, or the user's) when given, else PyPI at base_url; where that has
    no fitting file (or cannot be reached), in the other places pip looks too (`also`)."""
    client = client or IndexClient(base_url)
    compatible = target_tags(target)
    host = urlparse(client.where(index_url)).netloc or client.where(index_url)
    checks: List[PackageCheck] = []
    unreachable = None
    for text in requirements:
        try:
            found = check_requirement(client, text, target, index_url, compatible)
        except IndexUnreachable as exc:
            unreachable = unreachable or f"cannot reach {host} ({exc})"
            found = PackageCheck(text, True, f"not checked: cannot reach {host}", blocker="unreachable", checked=False)
        if found is not None and (not found.ok or found.blocker == "unreachable"):
            found = elsewhere(client, text, target, compatible, also) or found
        if found is not None:
            checks.append(found)
    result = Preflight(tuple(checks), unreachable=host if unreachable else None)
    if result.blocked_by_unreachable:
        return dataclasses.replace(result, skipped=f"{unreachable}; pre-flight skipped for "
                                                   f"{', '.join(result.blocked_by_unreachable)}")
    return result
