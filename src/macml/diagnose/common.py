"""Small helpers the checks share: how to name things and how to spell fix commands."""
from __future__ import annotations

import shlex
from typing import Optional, Sequence, Tuple

from macml import frameworks
from macml.facts import FrameworkFacts, MachineFacts
from macml.diagnose.findings import Finding, Fix, warn
from macml.recipes.catalog import Recipe, find_recipe, match
from macml.recipes.recommend import recipe_for, recipes_on


def probe_timed_out(probe: FrameworkFacts) -> bool:
    return not probe.ok and probe.timed_out


def timed_out_finding(probe: FrameworkFacts) -> Finding:
    """A probe that ran out of time says nothing about the install: say so, not 'reinstall'."""
    return warn(frameworks.area_of(probe.name), f"The {probe.name} probe timed out: its state is unknown",
                Fix("The first import after an install can take minutes (caches, Metal/CUDA kernels). "
                    "Run again with a longer limit:", ("macml doctor --refresh --timeout 180",)),
                probe.error or "")


def install_recipe(facts: MachineFacts, recipes: Sequence[Recipe], framework: str, accelerator: Optional[str] = None,
                   note: str = "") -> Tuple[str, ...]:
    """`macml install --recipe NAME` for the recipe this machine would get for framework (on accelerator),
    or no command where no recipe provides it here or this macOS is older than its every row."""
    name = recipe_for(facts, recipes, framework, accelerator)
    if name is None or match(find_recipe(name, recipes), facts).shortfalls_about("min_os"):  # a macOS older than every row
        return ()
    return (f"macml install --recipe {name}{note}",)


def reinstall_recipe(recipes: Sequence[Recipe], framework: str, accelerator: str) -> Tuple[str, ...]:
    """The command that reinstalls what is already chosen (e.g. PlaidML on Metal), whatever the machine."""
    found = recipes_on(recipes, accelerator, framework)
    return (f"macml install --recipe {found[0].name}",) if found else ()


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

