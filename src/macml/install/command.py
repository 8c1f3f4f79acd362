"""`macml install`: guard, pre-flight, plan, apply (with rollback), then check the result.

Order: the recipe is matched to this host; the doctor's install-target check guards the target;
PyPI is asked whether every pinned package has a wheel for the target (before anything
gigabytes-big is downloaded); pip's (or uv's) resolver plans (--dry-run stops there); under the
target's lock, the install runs with the previous state recorded, and any failure or signal
restores it; finally the doctor's framework probe says whether the recipe's promise holds.
Each stage returns a frozen value; one `InstallReport` is built at each exit.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional, Tuple

from macml import progress
from macml.errors import MacmlError
from macml.facts import MachineFacts
from macml.install import journal, lock, pip as install_pip
from macml.install.apply import apply
from macml.install.report import InstallReport
from macml.install.target import Target, confirm, env_dir, guard_problems, resolve_target, venv_path
from macml.probe.runner import KILL, children_tied
from macml.recipes import catalog as recipes, index as pypi
from macml.recipes.tags import parse_target


def choose_recipe(recipe: Optional[str], recipe_file: Optional[Path]) -> recipes.Recipe:
    if recipe_file is not None:
        return recipes.load_recipe_file(recipe_file)
    if not recipe:
        raise MacmlError("Which recipe? Pass --recipe NAME or --recipe-file PATH.",
                         "`macml recipes` lists the recipes and whether each fits this machine.")
    return recipes.find_recipe(recipe, recipes.load_all())


@children_tied(KILL)  # a child must not outlive macml: pip would go on changing the environment
def run_install(recipe: Optional[str] = None, recipe_file: Optional[Path] = None, python: Optional[str] = None,
                venv: Optional[Path] = None, dry_run: bool = False, yes: bool = False, use_uv: bool = False,
                allow_system: bool = False, offline: bool = False,
                pypi_url: Optional[str] = None, wait: bool = True) -> InstallReport:
    chosen = choose_recipe(recipe, recipe_file)
    target, facts, env, recovered = _target(python, venv, dry_run, wait)
    found = recipes.match(chosen, facts)
    if not found.ok:
        raise MacmlError(f"Recipe {chosen.name} does not fit this machine: {'; '.join(found.reasons)}",
                         "`macml recipes` shows which recipes fit; `macml doctor` explains the machine.")
    guard = guard_problems(facts, target, allow_system)
    if guard and not dry_run:  # a dry run shows the refusal beside the plan instead
        raise MacmlError("Refusing to install: " + " ".join(guard), "Nothing was changed.")
    report = functools.partial(InstallReport, recipe=chosen.name, pin_label=found.pin_label, target=target.python,
                               venv=str(target.venv_dir) if target.venv_dir else None, dry_run=dry_run,
                               requirements=found.requirements, index_url=found.index_url, guard=guard,
                               verify_workload=chosen.verify, recovered=recovered)

    macos = facts.os.version if facts.is_mac else ""
    platform = parse_target(facts.interpreter, macos)  # the same interpreter facts, not probed again
    idle = pypi.not_applying(found.requirements, platform.markers)
    if len(idle) == len(found.requirements):
        return report(failure=f"nothing to install: {'; '.join(idle)}; nothing was changed")
    preflight = None if offline else _preflight(found, platform, pypi_url)
    warnings = idle + (("offline: the PyPI wheel pre-flight was skipped",) if offline else (
        (preflight.skipped,) if preflight.skipped else ()))
    if preflight is not None and not preflight.ok:
        return report(warnings=warnings, preflight=preflight,
                      failure="pre-flight: no compatible wheel for a pinned package; nothing was downloaded or changed")
    installer = "uv" if use_uv else "pip"
    plan = _plan(target, found, installer)
    if not plan.ok:
        return report(warnings=warnings, preflight=preflight, plan=plan,
                      failure=f"{plan.tool} could not resolve the recipe's requirements; nothing was changed")
    if use_uv and plan.tool != "uv":
        warnings += ("--uv: uv is neither on PATH nor installed beside macml; using pip instead",)
    if dry_run:
        return report(warnings=warnings, preflight=preflight, plan=plan)
    if not yes:
        progress.say(_plan_summary(plan))
    confirm(f"Install {chosen.name} into {target.python}?", yes)
    with lock.exclusive(env, wait=wait):
        applied, more = apply(chosen, found, target, plan.tool, facts.accelerator_kind, env)
    return report(warnings=warnings + more, preflight=preflight, plan=plan, applied=applied)


def _target(python: Optional[str], venv: Optional[Path], dry_run: bool,
            wait: bool) -> Tuple[Target, MachineFacts, str, Tuple[str, ...]]:
    """The target, its facts (no framework probe: matching needs none), the directory its lock is keyed
    by, and what a killed install into it left that was restored first: a venv such a run was creating
    goes before anything looks at it."""
    from macml.probe.collect import collect_snapshot, facts_from_snapshot

    recovered = _recover(str(venv_path(venv)), dry_run, wait) if venv is not None else ()
    target = resolve_target(python, venv)
    facts = facts_from_snapshot(collect_snapshot(python=target.probe_python, frameworks=False))
    env = env_dir(target, facts.interpreter)
    return target, facts, env, recovered + _recover(env, dry_run, wait)


def _recover(env: str, dry_run: bool, wait: bool) -> Tuple[str, ...]:
    """What an install into env that was killed left behind, restored first, under the lock; a dry run,
    which changes and locks nothing, only says so."""
    if dry_run:
        left = journal.pending(env)
        return (f"a previous macml install (pid {left.pid}) into {env} was killed during {left.doing}; the next "
                "install (without --dry-run) restores the environment first",) if left else ()
    with lock.exclusive(env, wait=wait):
        return journal.recover(env)


def _preflight(found: recipes.RecipeMatch, platform, pypi_url: Optional[str]) -> pypi.Preflight:
    with progress.status("Pre-flight: asking PyPI for wheels that fit the target…"):
        return pypi.preflight(found.requirements, platform, pypi_url, index_url=found.index_url)


def _plan(target: Target, found: recipes.RecipeMatch, installer: str) -> install_pip.Plan:
    """The resolver in the target; for a venv still to be made, in its base as if empty."""
    python = target.probe_python
    chosen = (install_pip.uv_installer(python) if installer == "uv" else None) or install_pip.pip_installer(python)
    with progress.status(f"Plan: {chosen.name}'s resolver picks versions (nothing is installed)…"):
        return install_pip.make_plan(chosen, found.requirements, found.index_url, ignore_installed=target.create_venv)


def _plan_summary(plan: install_pip.Plan) -> str:
    picked = ", ".join(f"{n} {v}" for n, v in plan.packages) or "nothing new"
    return f"Plan: {plan.command}\n{plan.tool} would install: {picked}"
