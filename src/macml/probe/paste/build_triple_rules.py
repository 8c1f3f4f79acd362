"""The target triple a running program reports as its own platform: R's sessionInfo() 'Platform:
aarch64-apple-darwin20 (64-bit)', `rustc -vV`'s 'host: aarch64-apple-darwin', `rustup show`'s 'Default host:
arm64-apple-darwin'. The program was built for, and runs as, that arch on macOS: an arm64 one only on Apple silicon
(statements give it as the process's arch; an x86_64 one may run under Rosetta 2, which infer_mac decides).

Only these keys fire: a triple in a command, a target list or a sentence ('rustup target add aarch64-apple-darwin',
'cross-compiling for arm64-apple-darwin', 'Target: ...' of a cross compiler) names a build, not this machine.
"""
from __future__ import annotations

import re

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


def keyed_facts(key: str, value: str) -> Facts:
    return own_triple(key, value)
