"""The target triple a running program reports as its own platform: R's sessionInfo() 'Platform:
aarch64-apple-darwin20 (64-bit)', `rustc -vV`'s 'host: aarch64-apple-darwin', `rustup show`'s 'Default host:
arm64-apple-darwin'. The program was built for, and runs as, that arch on macOS: an arm64 one only on Apple silicon
(statements give it as the process's arch; an x86_64 one may run under Rosetta 2, which infer_mac decides).

Only these keys fire: a triple in a command, a target list or a sentence ('rustup target add aarch64-apple-darwin',
'cross-compiling for arm64-apple-darwin', 'Target: ...' of a cross compiler) names a build, not this machine.
"""
from __future__ import annotations

import re

from macml.knowledge.macos import sole_release
from macml.probe.paste.statement_rules import Facts

_OWN_PLATFORM_KEYS = ("platform", "host", "default host", "host triple")
_APPLE_TRIPLE = re.compile(r"^(aarch64|arm64|x86_64)-apple-darwin[\d.]*(?:\s*\(64-bit\))?\s*$")


def own_triple(key: str, value: str) -> Facts:
    """'Platform: aarch64-apple-darwin20 (64-bit)' -> macOS, an arm64 process."""
    found = _APPLE_TRIPLE.match(value.strip()) if key in _OWN_PLATFORM_KEYS else None
    if not found:
        return []
    arch = "x86_64" if found.group(1) == "x86_64" else "arm64"
    return [("platform", "darwin"), ("process.arch", arch)]


# spack's 'platform-os-target' ('darwin-monterey-x86_64', 'darwin-sonoma-m2'): the target is what archspec makes of
# the Python spack runs in, so on macOS an x86 target is an x86_64 Python (under Rosetta on Apple silicon)
_SPACK_ARCH = re.compile(r"^darwin-([a-z]+)-([a-z0-9_]+)$")
_X86_TARGETS = re.compile(r"^(?:x86_64(?:_v\d)?|nehalem|westmere|sandybridge|ivybridge|haswell|broadwell|skylake\w*|"
                          r"cascadelake|icelake|cannonlake|kabylake|coffeelake)$")


def spack_arch(key: str, value: str) -> Facts:
    """spack debug report's 'Platform: darwin-monterey-x86_64' -> macOS 12, an x86_64 Python."""
    found = _SPACK_ARCH.match(value.strip().strip("*").strip()) if key == "platform" else None
    release = sole_release(found.group(1)) if found else None
    if not found or not release:
        return []
    target = found.group(2)
    machine = "x86_64" if _X86_TARGETS.match(target) else "arm64" if re.match(r"^(?:m[1-5]|aarch64|arm64)$", target) else None
    return [("platform", "darwin"), ("os.release", release)] + ([("python.machine", machine)] if machine else [])


def keyed_facts(key: str, value: str) -> Facts:
    return own_triple(key, value) + spack_arch(key, value)
