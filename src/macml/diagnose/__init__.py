"""Diagnose: the doctor's checks, and the `macml doctor` command (`doctor`).

Takes: a machine's facts and the loaded recipes. Gives: findings. Each check is a function
`check_<name>(facts) -> Finding | None`, or `check_<name>(facts, recipes)` where it needs the
recipes (they are loaded once by the caller, never read mid-diagnosis). The set is discovered from
the names, so `--list-checks` and `macml doctor NAME...` need no separate registry. Order of
modules and definitions is the report's order.

The rule every check, recipe reason and recommendation keeps: unknown is not no. Facts come in
three values (true, false, unknown: None), derived once from all the evidence by macml.probe.infer.
A fact the evidence does not give is unknown, and nothing negative is asserted from it: a check on
an unknown fact says nothing (or says it is unknown), a recipe condition on it is shown as
"fits if ..." and never refuses, and a CPU build is never recommended on a machine known to have
a usable GPU. tests/diagnose/test_unknown_is_not_no.py holds every recorded machine to this.
"""
from __future__ import annotations

import dataclasses
import inspect
from typing import Callable, Dict, Iterable, List, Optional, Sequence

from macml.diagnose import (cpu_checks, framework_checks, gpu_support, mac_hardware, multi_gpu_checks, plaidml_checks,
                            python_env, system, tensorflow_checks, torch_checks)
from macml.facts import MachineFacts
from macml.diagnose.findings import Finding, Fix
from macml.recipes.catalog import Recipe

Check = Callable[..., Optional[Finding]]
_MODULES = (system, mac_hardware, cpu_checks, python_env, gpu_support, torch_checks, tensorflow_checks, plaidml_checks,
            multi_gpu_checks, framework_checks)
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


def wants_recipes(check: Check) -> bool:
    return "recipes" in inspect.signature(check).parameters


def run_checks(facts: MachineFacts, recipes: Sequence[Recipe], only: Iterable[str] = ()) -> List[Finding]:
    checks = all_checks()
    names = list(only) or list(checks)
    findings = []
    for name in names:
        check = checks[name]
        try:
            finding = check(facts, recipes) if wants_recipes(check) else check(facts)
        except Exception as exc:  # one broken check must not take the report down
            finding = Finding("System", "warn", f"check {name} crashed: {type(exc).__name__}: {exc}",
                              Fix("This is a macml bug: please report it with `macml doctor --save-snapshot snap.json`."))
        if finding is not None:
            findings.append(dataclasses.replace(finding, check=name))
    return findings
