"""Small helpers the checks share: how to name things and how to spell fix commands."""
from __future__ import annotations

import shlex
from typing import Optional

from macml import frameworks
from macml.facts import FrameworkFacts, MachineFacts
from macml.diagnose.findings import Finding, Fix, warn


def probe_timed_out(probe: FrameworkFacts) -> bool:
    return not probe.ok and probe.timed_out


def timed_out_finding(probe: FrameworkFacts) -> Finding:
    """A probe that ran out of time says nothing about the install: say so, not 'reinstall'."""
    return warn(frameworks.area_of(probe.name), f"The {probe.name} probe timed out: its state is unknown",
                Fix("The first import after an install can take minutes (caches, Metal/CUDA kernels). "
                    "Run again with a longer limit:", ("macml doctor --refresh --timeout 180",)),
                probe.error or "")


def python_cmd(facts: MachineFacts) -> str:
    exe = (facts.interpreter.executable if facts.interpreter else "") or "python3"
    return shlex.quote(exe)


def pip_cmd(facts: MachineFacts, args: str) -> str:
    return f"{python_cmd(facts)} -m pip {args}"


def describe_chip(facts: MachineFacts) -> str:
    if facts.cpu.chip:
        return facts.cpu.chip.name
    return facts.cpu.brand or "this machine"


def macos_at_least(facts: MachineFacts, minimum: tuple) -> Optional[bool]:
    have = facts.os.version_tuple
    return None if not have else have >= minimum

