"""The doctor's checks: each is a function `check_<name>(facts) -> Finding | None`.

The set is discovered from the names, so `--list-checks` and `macml doctor NAME...`
need no separate registry. Order of modules and definitions is the report's order.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Dict, Iterable, List, Optional

from macml.diagnose import framework_checks, plaidml_checks, python_env, system, tensorflow_checks, torch_checks
from macml.facts import MachineFacts
from macml.findings import Finding, Fix

Check = Callable[[MachineFacts], Optional[Finding]]
_MODULES = (system, python_env, torch_checks, tensorflow_checks, plaidml_checks, framework_checks)
PREFIX = "check_"


def all_checks() -> Dict[str, Check]:
    found: Dict[str, Check] = {}
    for module in _MODULES:
        for attr, value in vars(module).items():
            if attr.startswith(PREFIX) and callable(value) and value.__module__ == module.__name__:
                found[attr[len(PREFIX):]] = value
    return found


def describe(check: Check) -> str:
    return (check.__doc__ or "").strip().splitlines()[0] if check.__doc__ else ""


def run_checks(facts: MachineFacts, only: Iterable[str] = ()) -> List[Finding]:
    checks = all_checks()
    names = list(only) or list(checks)
    findings = []
    for name in names:
        try:
            finding = checks[name](facts)
        except Exception as exc:  # one broken check must not take the report down
            finding = Finding("System", "warn", f"check {name} crashed: {type(exc).__name__}: {exc}",
                              Fix("This is a macml bug: please report it with `macml doctor --save-snapshot snap.json`."))
        if finding is not None:
            findings.append(dataclasses.replace(finding, check=name))
    return findings
