"""`macml install`: guard, pre-flight, plan, apply (with rollback), then check the result.

Order: the recipe is matched to this host; the doctor's install-target check guards the target;
the index pip will use (the row's own, else the user's pip index or PyPI, then the user's extra
indexes and find-links) is asked whether every pinned package has a wheel for the target (before
anything gigabytes-big is downloaded); where the row's own index cannot be reached, the same
requirements from PyPI are planned and their download size shown as an explicit alternative
(--from-pypi); pip's (or uv's) resolver plans (--dry-run stops there); under the
target's lock, the install runs with the previous state recorded, and any failure or signal
restores it; finally the doctor's framework probe says whether the recipe's promise holds.
Each stage returns a frozen value; one `InstallReport` is built at each exit.
"""
from __future__ import annotations

import functools
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Optional, Tuple

from macml import progress
from macml.errors import MacmlError
from macml.install import journal, lock, pip as install_pip
from macml.install.apply import apply
from macml.install.alternative import Alternative
from macml.install.downloads import summary
from macml.install.report import InstallReport
from macml.install.sources import PipConfig, Sources, install_sources, read_pip_config
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
                pypi_url: Optional[str] = None, wait: bool = True, from_pypi: bool = False) -> InstallReport:
    chosen = choose_recipe(recipe, recipe_file)
    # A venv a killed run was creating goes before anything looks at it.
    recovered = _recover(str(venv_path(venv)), dry_run, wait) if venv is not None else ()
    target = resolve_target(python, venv)
    config = in_background(read_pip_config, target.probe_python)  # waited for only where it is needed
    facts, found, guard = _match(chosen, target, allow_system, dry_run)
    env = env_dir(target, facts.interpreter)
    recovered += _recover(env, dry_run, wait)
    label = found.pin_label + (", from PyPI instead of its own index (--from-pypi)" if from_pypi and found.index_url
                               else "")
    report = functools.partial(_report, config, found.index_url, from_pypi, recipe=chosen.name, pin_label=label,
                               target=target.python, venv=str(target.venv_dir) if target.venv_dir else None,
                               dry_run=dry_run, requirements=found.requirements, guard=guard,
                               verify_workload=chosen.verify, recovered=recovered)
    macos = facts.os.version if facts.is_mac else ""
    idle = pypi.not_applying(found.requirements, parse_target(facts.interpreter, macos).markers)
    if len(idle) == len(found.requirements):
        return report(failure=f"nothing to install: {'; '.join(idle)}; nothing was changed")
    warnings = idle + _source_warnings(found, from_pypi, offline)
    installer = "uv" if use_uv else "pip"
    # pip reads the user's configuration itself: with --offline it is not waited for before the plan.
    sources = install_sources(found.index_url, config.result() if use_uv or not offline else PipConfig(), from_pypi)
    preflight = None if offline else _preflight(found, facts, pypi_url, sources)
    if preflight is not None and preflight.blocked_by_unreachable and sources.row_index:
        return report(warnings=warnings + (preflight.skipped,), preflight=preflight,
                      alternative=_alternative(target, found, config.result(), installer),
                      failure=f"cannot reach {preflight.unreachable}, the recipe's own index; nothing was downloaded "
                              "or changed")
    warnings += _preflight_warnings(preflight)
    if preflight is not None and not preflight.ok:
        return report(warnings=warnings, preflight=preflight,
                      failure="pre-flight: no compatible wheel for a pinned package; nothing was downloaded or changed")
    plan = _plan(target, found, installer, sources, offline, facts.interpreter.pip_version if facts.interpreter else None)
    if not plan.ok:
        row_host = sources.row_index and plan.unreachable and plan.unreachable in (sources.index_url or "")
        alternative = _alternative(target, found, config.result(), installer, measure=not offline) if row_host else None
        return report(warnings=warnings, preflight=preflight, plan=plan, alternative=alternative,
                      failure=f"{plan.tool} could not resolve the recipe's requirements; nothing was changed")
    if use_uv and plan.tool != "uv":
        warnings += ("--uv: uv is neither on PATH nor installed beside macml; using pip instead",)
    if dry_run:
        return report(warnings=warnings, preflight=preflight, plan=plan)
    if not yes:
        progress.say(_plan_summary(plan))
    confirm(f"Install {chosen.name} into {target.python}?", yes)
    with lock.exclusive(env, wait=wait):
        applied, more = apply(chosen, found, target, plan.tool, facts.accelerator_kind, env, sources)
    return report(warnings=warnings + more, preflight=preflight, plan=plan, applied=applied)


def _recover(env: str, dry_run: bool, wait: bool) -> Tuple[str, ...]:
    """What an install into env that was killed left behind, restored first, under the lock; a dry run,
    which changes and locks nothing, only says so."""
    if dry_run:
        left = journal.pending(env)
        return (f"a previous macml install (pid {left.pid}) into {env} was killed during {left.doing}; the next "
                "install (without --dry-run) restores the environment first",) if left else ()
    with lock.exclusive(env, wait=wait):
        return journal.recover(env)


def in_background(function, *args) -> Future:
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(function, *args)
    finally:
        pool.shutdown(wait=False)


def _match(chosen: recipes.Recipe, target: Target, allow_system: bool, dry_run: bool):
    """(facts, the row that fits, guard problems); a recipe that does not fit, or a refused target, raises."""
    from macml.probe.collect import collect_snapshot, facts_from_snapshot

    facts = facts_from_snapshot(collect_snapshot(python=target.probe_python, frameworks=False))  # no framework needed
    found = recipes.match(chosen, facts)
    if not found.ok:
        raise MacmlError(f"Recipe {chosen.name} does not fit this machine: {'; '.join(found.reasons)}",
                         "`macml recipes` shows which recipes fit; `macml doctor` explains the machine.")
    guard = guard_problems(facts, target, allow_system)
    if guard and not dry_run:  # a dry run shows the refusal beside the plan instead
        raise MacmlError("Refusing to install: " + " ".join(guard), "Nothing was changed.")
    return facts, found, guard


def _report(config: Future, row_index_url: Optional[str], from_pypi: bool, **fields) -> InstallReport:
    """One report per exit, with the places pip looked in as the user's configuration names them."""
    sources = install_sources(row_index_url, config.result(), from_pypi)
    return InstallReport(**fields, index_url=sources.index_url, sources=sources.describe())


def _preflight_warnings(preflight: Optional[pypi.Preflight]) -> Tuple[str, ...]:
    if preflight is not None and preflight.skipped:  # pip may still get through: let it try
        return (f"{preflight.skipped} (pass --offline to skip it without trying)",)
    if preflight is not None and preflight.unreachable:
        return (f"cannot reach {preflight.unreachable}; every pinned package has a fitting wheel in the other "
                "places your pip configuration names",)
    return ()


def _source_warnings(found: recipes.RecipeMatch, from_pypi: bool, offline: bool) -> Tuple[str, ...]:
    warnings = ("offline: the PyPI wheel pre-flight was skipped",) if offline else ()
    if from_pypi and found.index_url:
        warnings += (f"--from-pypi: {', '.join(found.requirements)} from PyPI (or your pip index) instead of the "
                     f"recipe's {found.index_url}; it may be another build (PyPI's torch for Linux x86_64 is the "
                     "CUDA build, with its CUDA libraries)",)
    elif from_pypi:
        warnings += ("--from-pypi: this recipe row installs from PyPI already",)
    return warnings


def _preflight(found: recipes.RecipeMatch, facts, pypi_url: Optional[str], sources: Sources) -> pypi.Preflight:
    platform = parse_target(facts.interpreter, facts.os.version if facts.is_mac else "")  # not probed again
    also = [pypi.Place(index_url=url) for url in sources.extra_index_urls]
    also += [pypi.Place(links=place) for place in sources.find_links]
    where = "the recipe's index" if sources.row_index else ("your pip index" if sources.index_url else "PyPI")
    with progress.status(f"Pre-flight: asking {where} for wheels that fit the target…"):
        return pypi.preflight(found.requirements, platform, pypi_url, index_url=sources.index_url, also=also)


def _plan(target: Target, found: recipes.RecipeMatch, installer: str, sources: Sources,
          offline: bool, pip_version: Optional[str] = None, what: str = "Plan") -> install_pip.Plan:
    """The resolver in the target; for a venv still to be made, in its base as if empty."""
    python = target.probe_python
    chosen = ((install_pip.uv_installer(python) if installer == "uv" else None)
              or install_pip.pip_installer(python, pip_version))
    with progress.status(f"{what}: {chosen.name}'s resolver picks versions (nothing is installed)…"):
        return install_pip.make_plan(chosen, found.requirements, sources, ignore_installed=target.create_venv,
                                     offline=offline)


def _alternative(target: Target, found: recipes.RecipeMatch, config: PipConfig, installer: str,
                 measure: bool = True) -> Alternative:
    """The same requirements from PyPI (or the user's own index), planned and measured so the cost is
    shown before anyone chooses it; measure=False (--offline) only names it."""
    plan = (_plan(target, found, installer, install_sources(None, config), offline=False,
                  what="The same from PyPI, to show its size") if measure else None)
    return Alternative(", ".join(found.requirements), config.index_url, plan)


def _plan_summary(plan: install_pip.Plan) -> str:
    picked = ", ".join(f"{n} {v}" for n, v in plan.packages) or "nothing new"
    sizes = summary(plan.downloads)
    return f"Plan: {plan.command}\n{plan.tool} would install: {picked}" + (f"\n{sizes}" if sizes else "")
