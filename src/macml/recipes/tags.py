"""The wheel tags a TARGET interpreter accepts, from the facts it reports about itself
(checks/probes/interpreter_facts.py: Python, ABI, platform, glibc), expanded with packaging.tags."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import FrozenSet, List, Mapping, Optional, Tuple

from packaging import tags

from macml import versions
from macml.facts import InterpreterFacts

# glibc 2.x minor -> the older manylinux alias (2014 also covers aarch64/ppc64le/s390x).
LEGACY_MANYLINUX = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}


@dataclass(frozen=True)
class TargetPlatform:
    implementation: str  # "cpython"
    python: Tuple[int, int]
    os: str  # "macOS", "Linux", "Windows"
    arch: str  # "arm64", "x86_64", "aarch64", ...
    os_version: Optional[Tuple[int, int]] = None  # macOS version (wheels are tagged with it)
    glibc: Optional[Tuple[int, int]] = None
    gil_disabled: bool = False
    markers: Mapping[str, str] = field(default_factory=dict)

    @property
    def python_label(self) -> str:
        return f"{self.python[0]}.{self.python[1]}"


def parse_pair(text: str) -> Optional[Tuple[int, int]]:
    """'14.4.1' -> (14, 4); '10.9-universal2' -> (10, 0); '' -> None."""
    parts = versions.release(text)
    return (parts[0], parts[1] if len(parts) > 1 else 0) if parts else None


def parse_target(interp: InterpreterFacts, macos_version: str = "") -> TargetPlatform:
    """The interpreter's own facts to a TargetPlatform; macos_version (from sw_vers) beats mac_ver()."""
    plat = interp.platform_tag or ""
    machine = interp.machine
    os_name = "macOS" if plat.startswith("macosx") else "Windows" if plat.startswith("win") else "Linux"
    os_version = parse_pair(macos_version or interp.mac_ver or "") if os_name == "macOS" else None
    if os_name == "Windows":
        machine = {"win-amd64": "AMD64", "win32": "x86", "win-arm64": "ARM64"}.get(plat, machine)
    return TargetPlatform(
        implementation=interp.implementation or "cpython",
        python=parse_pair(interp.version or "3.0") or (3, 0),
        os=os_name,
        arch=machine,
        os_version=os_version,
        glibc=parse_pair(interp.glibc or "") if os_name == "Linux" else None,
        gil_disabled=interp.gil_disabled,
        markers=dict(interp.markers),
    )


def _linux_platforms(target: TargetPlatform) -> List[str]:
    arch = target.arch
    out: List[str] = []
    if target.glibc:
        major, minor = target.glibc
        for m in range(minor, -1, -1):
            out.append(f"manylinux_{major}_{m}_{arch}")
            legacy = LEGACY_MANYLINUX.get(m)
            if legacy and (arch in ("x86_64", "i686") or legacy == "manylinux2014"):
                out.append(f"{legacy}_{arch}")
    out.append(f"linux_{arch}")
    return out


def target_platforms(target: TargetPlatform) -> List[str]:
    if target.os == "macOS":
        return list(tags.mac_platforms(version=target.os_version or (11, 0), arch=target.arch))
    if target.os == "Windows":
        return [{"AMD64": "win_amd64", "x86": "win32", "ARM64": "win_arm64"}.get(target.arch, "win_amd64")]
    return _linux_platforms(target)


def target_tags(target: TargetPlatform) -> FrozenSet[tags.Tag]:
    platforms = target_platforms(target)
    version = target.python
    nodot = f"{version[0]}{version[1]}"
    if target.implementation == "cpython":
        # CPython < 3.8 was built with pymalloc's "m" ABI suffix (cp37m); 3.13+ free-threaded adds "t".
        abi = f"cp{nodot}t" if target.gil_disabled else f"cp{nodot}m" if version < (3, 8) else f"cp{nodot}"
        found = list(tags.cpython_tags(python_version=version, abis=[abi], platforms=platforms))
        interpreter = f"cp{nodot}"
    else:
        interpreter = f"{tags.INTERPRETER_SHORT_NAMES.get(target.implementation, target.implementation)}{nodot}"
        found = list(tags.generic_tags(interpreter=interpreter, abis=["none"], platforms=platforms))
    found += list(tags.compatible_tags(python_version=version, interpreter=interpreter, platforms=platforms))
    return frozenset(found)
