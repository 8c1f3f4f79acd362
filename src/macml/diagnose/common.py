"""Small helpers the checks share: how to name things and how to spell fix commands."""
from __future__ import annotations

import shlex
from typing import Optional

from macml.facts import MachineFacts


def python_cmd(facts: MachineFacts) -> str:
    exe = facts.interpreter.executable if facts.interpreter else "python3"
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

