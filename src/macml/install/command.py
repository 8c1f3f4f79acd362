"""`macml install`: pre-flight, plan, guard, apply (with rollback), then check the result.

Order: the recipe is matched to this host; PyPI is asked whether every pinned package
has a wheel for the target (before anything gigabytes-big is downloaded); pip's resolver
plans (--dry-run stops there); the guard refuses unsafe targets; pip installs with the
previous `pip freeze` recorded, and any failure restores it (a venv made by this run is
removed instead); finally the doctor's framework probe says whether acceleration works.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional, Sequence, Tuple


from macml import progress
from macml.install import pip as install_pip, steps as install_steps
from macml.recipes import catalog as recipes, index as pypi
from macml.errors import MacmlError
from macml.install.report import InstallReport
from macml.install.target import Target, confirm, create_venv, guard_problems, remove_venv, resolve_target
from macml.probe.runner import run_command
from macml.recipes.tags import parse_target


def choose_recipe(recipe: Optional[str], recipe_file: Optional[Path]) -> recipes.Recipe:
    if recipe_file is not None:
        return recipes.load_recipe_file(recipe_file)
    if not recipe:
        raise MacmlError("Which recipe? Pass --recipe NAME or --recipe-file PATH.",
                         "`macml recipes` lists the recipes and whether each fits this machine.")
    return recipes.find_recipe(recipe, recipes.load_all())


def run_install(recipe: Optional[str] = None, recipe_file: Optional[Path] = None, python: Optional[str] = None,
                venv: Optional[Path] = None, dry_run: bool = False, yes: bool = False, use_uv: bool = False,
                allow_system: bool = False, offline: bool = False,
                pypi_url: Optional[str] = None) -> InstallReport:
    from macml.probe.collect import collect_snapshot, facts_from_snapshot

    chosen = choose_recipe(recipe, recipe_file)
    target = resolve_target(python, venv)
    snapshot = collect_snapshot(python=target.probe_python, frameworks=False)  # matching needs no framework
    facts = facts_from_snapshot(snapshot)
    found = recipes.match(chosen, facts)
    if not found.ok:
        raise MacmlError(f"Recipe {chosen.name} does not fit this machine: {'; '.join(found.reasons)}",
                         "`macml recipes` shows which recipes fit; `macml doctor` explains the machine.")
    report = InstallReport(recipe=chosen.name, pin_label=found.pin_label, target=target.python,
                           venv=str(target.venv_dir) if target.venv_dir else None, dry_run=dry_run,
                           requirements=found.requirements, index_url=found.index_url)
    report.guard = tuple(guard_problems(facts.interpreter, target, allow_system))
    if report.guard and not dry_run:  # a dry run shows the refusal beside the plan instead
        raise MacmlError("Refusing to install: " + " ".join(report.guard), "Nothing was changed.")

    macos = facts.os.version if facts.is_mac else ""
    platform = parse_target(facts.interpreter, macos)  # the same interpreter facts, not probed again
    if offline:
        report.warnings += ("offline: the PyPI wheel pre-flight was skipped",)
    else:
        with progress.status("Pre-flight: asking PyPI for wheels that fit the target…"):
            report.preflight = pypi.preflight(found.requirements, platform, pypi_url, index_url=found.index_url)
        if report.preflight.skipped:
            report.warnings += (report.preflight.skipped,)
        if not report.preflight.ok:
            report.failure = "pre-flight: no compatible wheel for a pinned package; nothing was downloaded or changed"
            return report

    report.plan = _plan(target, found)
    if not report.plan.ok:
        report.failure = "pip could not resolve the recipe's requirements; nothing was changed"
    if dry_run or not report.plan.ok:
        return report
    if not yes:
        progress.say(_plan_summary(report.plan))
    confirm(f"Install {chosen.name} into {target.python}?", yes)
    if target.create_venv:
        with progress.status(f"Creating a venv at {target.venv_dir}…"):
            create_venv(target)
        report.venv_created = True
    try:
        _apply(report, chosen, found, target, use_uv, facts.accelerator_kind)
    finally:
        if report.venv_created and not report.installed:
            remove_venv(target.venv_dir)
            report.venv_removed = True
    return report


@functools.lru_cache(maxsize=None)  # plan and apply ask about the same interpreter
def _target_pip(python: str) -> Optional[str]:
    result = run_command([python, "-m", "pip", "--version"], timeout=install_pip.QUICK_TIMEOUT)
    return install_pip.parse_pip_version(result.stdout) if result.ok else None


def _plan(target: Target, found: recipes.RecipeMatch) -> install_pip.Plan:
    """pip's resolver in the target; for a venv still to be made, in its base as if empty."""
    python = target.probe_python
    pip = install_pip.pip_argv(python, _target_pip(python))
    with progress.status("Plan: pip's resolver picks versions (nothing is installed)…"):
        return install_pip.make_plan(pip, found.requirements, found.index_url, ignore_installed=target.create_venv)


def _apply(report: InstallReport, recipe: recipes.Recipe, found: recipes.RecipeMatch, target: Target,
           use_uv: bool, kind: Optional[str]) -> None:
    pip = install_pip.pip_argv(target.python, _target_pip(target.python))
    before = install_pip.freeze(pip)
    installer = _installer(pip, target.python, use_uv, report)
    argv = install_pip.install_argv(installer, found.requirements, found.index_url)
    report.install_command = " ".join(argv)
    with progress.status(f"Installing {len(report.plan.packages)} package(s) with pip… (this can take minutes)"):
        result = run_command(argv, timeout=install_pip.PIP_TIMEOUT)
    if not result.ok:
        report.failure = f"pip install failed: {install_pip.pip_error(result)}"
    else:
        report.steps = install_steps.run_steps(recipe.post_install, target.python, pip)
        failed = [s for s in report.steps if not s.ok]
        if failed:
            report.failure = f"post-install step {failed[0].action} failed: {failed[0].message}"
    if report.failure:
        if not report.venv_created:
            with progress.status("Rolling back to the recorded `pip freeze` set…"):
                report.rollback = install_pip.roll_back(pip, before)
        return
    report.installed = True
    report.after = install_steps.probe_after(target.python, recipe.framework, kind)
    report.verify = recipe.verify


def _installer(pip: Sequence[str], python: str, use_uv: bool, report: InstallReport) -> Tuple[str, ...]:
    if not use_uv:
        return tuple(pip)
    uv = install_pip.uv_argv(python)
    if uv is None:
        report.warnings += ("--uv: uv is not on PATH; installed with pip instead",)
        return tuple(pip)
    return uv


def _plan_summary(plan: install_pip.Plan) -> str:
    picked = ", ".join(f"{n} {v}" for n, v in plan.packages) or "nothing new"
    return f"Plan: {plan.command}\npip would install: {picked}"
