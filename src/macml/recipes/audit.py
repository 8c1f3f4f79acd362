"""`macml recipes --audit`: is every row of every recipe true today?

For each row, every (Python, OS, arch) it claims becomes a TargetPlatform; each pinned requirement
must have a wheel for each target on the row's index (PyPI when the row has none), asked through
the pre-flight's client. A newer release with wheels for every target is reported (unless the
recipe `holds` the package, saying why). Rows are also checked against macml.knowledge.compat's facts:
CUDA arch lists and drivers, ROCm per torch release, MPS minimum macOS, Apple's TF table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from packaging import tags
from packaging.requirements import Requirement
from packaging.version import Version

from macml.facts import PLATFORM_LABELS, os_arch_name, platform_label
from macml.recipes.schema import PinSet, Recipe
from macml.recipes.client import IndexClient, IndexUnreachable, releases
from macml.recipes.conditions import Condition
from macml.recipes.facts_audit import fact_problems
from macml.recipes.index import applies, check_files, check_requirement, pinned_version
from macml.recipes.tags import TargetPlatform, target_tags

PYTHON_MINORS = range(6, 16)  # CPython 3.6 .. 3.15: the Pythons a row can claim
AUDIT_GLIBC = (2, 28)  # the oldest glibc a Linux row is taken to claim (manylinux_2_28: RHEL 8, Debian 10)
MAC_FLOOR = {"arm64": "11.0", "x86_64": "10.15"}  # the macOS a row claims when it names none



@dataclass(frozen=True)
class RowAudit:
    recipe: str
    label: str
    index: str
    targets: Tuple[str, ...]  # "cp312 macOS 14.0 arm64"
    problems: Tuple[str, ...] = ()  # the row is wrong
    newer: Tuple[str, ...] = ()  # a newer release fits every target
    held: Tuple[str, ...] = ()  # newer exists, held on purpose (the recipe says why)
    note: str = ""  # e.g. its own index was unreachable, PyPI's copy of the release was checked

    @property
    def ok(self) -> bool:
        return not self.problems


def _merged(outer: Condition, inner: Condition):
    platforms = inner.platform or outer.platform or tuple(PLATFORM_LABELS)
    arches = inner.arch or outer.arch
    pythons = [m for m in PYTHON_MINORS
               if all(c.python is None or c.python.contains(f"3.{m}", prereleases=True) for c in (outer, inner))]
    mins = [v for v in (outer.min_os, inner.min_os) if v]
    return platforms, arches, pythons, max(mins, key=lambda v: tuple(map(int, v.split(".")))) if mins else None


def claimed_targets(recipe: Recipe, pin: PinSet) -> Tuple[TargetPlatform, ...]:
    """Every (Python, OS, arch) the row claims to install on, at its oldest claimed OS."""
    platforms, arches, pythons, min_os = _merged(recipe.requires, pin.when)
    found = []
    for platform in platforms:
        for arch in arches or (("x86_64",) if platform == "win32" else ("x86_64", "arm64")):
            mac = min_os or MAC_FLOOR[arch] if platform == "darwin" else None
            for minor in pythons:
                found.append(_target(platform, arch, minor, mac))
    return tuple(found)


def _target(platform: str, arch: str, minor: int, mac: Optional[str]) -> TargetPlatform:
    machine = os_arch_name(arch, platform)
    markers = {"python_version": f"3.{minor}", "python_full_version": f"3.{minor}.0", "sys_platform": platform,
               "platform_system": {"darwin": "Darwin", "linux": "Linux", "win32": "Windows"}[platform],
               "platform_machine": machine, "os_name": "nt" if platform == "win32" else "posix",
               "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    parts = tuple(int(p) for p in (mac or "0").split("."))
    return TargetPlatform("cpython", (3, minor), platform_label(platform), machine,
                          os_version=(parts + (0,))[:2] if mac else None,
                          glibc=AUDIT_GLIBC if platform == "linux" else None, markers=markers)


def describe(target: TargetPlatform) -> str:
    where = f"macOS {target.os_version[0]}.{target.os_version[1]}" if target.os_version else target.os
    return f"cp3{target.python[1]} {where} {target.arch}"


def _check_targets(client: IndexClient, pin: PinSet, targets: Sequence[TargetPlatform],
                   index_url: Optional[str]) -> List[str]:
    problems = []
    for target in targets:
        compatible = target_tags(target)
        for text in pin.requirements:
            found = check_requirement(client, text, target, index_url, compatible, sdist_ok=False)
            if found is not None and not found.ok:
                problems.append(f"{text} on {describe(target)}: {found.detail}")
    return problems


def _newer(client: IndexClient, recipe: Recipe, pin: PinSet, targets: Sequence[TargetPlatform],
           index_url: Optional[str]) -> Tuple[List[str], List[str]]:
    newer, held = [], []
    tag_sets: Dict[int, FrozenSet[tags.Tag]] = {}
    for text in pin.requirements:
        req = Requirement(text)
        version = pinned_version(req)
        files = client.project_files(req.name, index_url) if version else None
        if not files:
            continue
        mine = [t for t in targets if applies(req, t.markers)]
        for candidate, group in sorted(releases(files).items(), reverse=True):
            if candidate <= Version(version) or candidate.is_prerelease or candidate.is_devrelease:
                continue
            if all(check_files(text, group, t, tag_sets.setdefault(id(t), target_tags(t)), False).ok for t in mine):
                line = f"{req.name} {candidate} has wheels for every target of this row (pinned {version})"
                (held if req.name in recipe.holds else newer).append(
                    line + (f"; held: {recipe.holds[req.name]}" if req.name in recipe.holds else ""))
                break
    return newer, held


def audit_row(client: IndexClient, recipe: Recipe, pin: PinSet) -> RowAudit:
    targets = claimed_targets(recipe, pin)
    labels = tuple(describe(t) for t in targets)
    facts = fact_problems(recipe, pin)
    index_url, note = pin.index_url, ""
    try:
        problems = _check_targets(client, pin, targets, index_url)
    except IndexUnreachable as exc:
        # The cuXYZ/rocm builds share the release's Python and OS matrix: PyPI's copy is the next best proof.
        index_url, note = None, f"index unreachable ({exc}); checked the same release on {client.pypi}"
        try:
            problems = _check_targets(client, pin, targets, None)
        except IndexUnreachable as again:
            return RowAudit(recipe.name, pin.label, client.where(pin.index_url), labels, tuple(facts),
                            note=f"not checked: {again}")
    # PyPI's newer releases say nothing about the row's own index (cu128 ends at 2.11): only ask the real one.
    newer, held = _newer(client, recipe, pin, targets, index_url) if index_url == pin.index_url else ([], [])
    return RowAudit(recipe.name, pin.label, client.where(pin.index_url), labels, tuple(facts + problems),
                    tuple(newer), tuple(held), note)


def audit(recipes: Sequence[Recipe], client: Optional[IndexClient] = None) -> Tuple[RowAudit, ...]:
    client = client or IndexClient()
    wanted = [(Requirement(r).name, pin.index_url) for recipe in recipes for pin in recipe.pins for r in pin.requirements]
    client.prefetch(wanted + [(name, None) for name, _ in wanted])
    return tuple(audit_row(client, recipe, pin) for recipe in recipes for pin in recipe.pins)
