"""A recipe's post-install steps (data, never shell strings), run against the target."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from packaging.utils import canonicalize_name

from macml.errors import MacmlError
from macml.facts import FrameworkFacts
from macml import frameworks
from macml.install.pip import QUICK_TIMEOUT, freeze, tool_error
from macml.recipes.schema import PostStep
from macml.probe.runner import run_command

IMPORT_TIMEOUT = 120.0
FRAMEWORK_TIMEOUT = 180.0


@dataclass(frozen=True)
class StepResult:
    action: str
    ok: bool
    message: str


def run_step(step: PostStep, python: str, pip: Sequence[str]) -> StepResult:
    try:
        if step.action == "uninstall":
            return _uninstall(step, pip)
        if step.action == "check-import":
            return _check_import(step, python)
        if step.action == "plaidml-configure":
            from macml.install import plaidml as plaidml_setup  # lazy: only this recipe needs it

            placed = plaidml_setup.install_config_files(python)  # a --user install leaves them astray
            return StepResult(step.action, True, placed + " " + plaidml_setup.configure(python, step.device))
        if step.action == "env-hint":
            why = f" ({step.reason})" if step.reason else ""
            return StepResult(step.action, True, f"set {step.variable}={step.value} in your shell{why}")
    except MacmlError as exc:
        return StepResult(step.action, False, str(exc))
    return StepResult(step.action, False, f"unknown action {step.action!r}")


def _uninstall(step: PostStep, pip: Sequence[str]) -> StepResult:
    installed = freeze(pip)
    present = [p for p in step.packages if canonicalize_name(p) in installed]
    if not present:
        return StepResult(step.action, True, f"{', '.join(step.packages)}: not installed, nothing to remove")
    result = run_command(list(pip) + ["uninstall", "--yes"] + present, timeout=QUICK_TIMEOUT, new_session=True)
    if not result.ok:
        return StepResult(step.action, False, f"uninstall {' '.join(present)} failed: {tool_error(result)}")
    return StepResult(step.action, True, f"removed {', '.join(present)}")


def _check_import(step: PostStep, python: str) -> StepResult:
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    result = run_command([python, "-c", code] + list(step.modules), timeout=IMPORT_TIMEOUT, new_session=True)
    if result.ok:
        return StepResult(step.action, True, f"imported {', '.join(step.modules)}")
    return StepResult(step.action, False, f"import {', '.join(step.modules)} failed: {result.last_error_line}")


# ---------------------------------------------------------------- after: does it do what the recipe promises?


@dataclass(frozen=True)
class After:
    ok: bool  # the recipe's promise holds: the GPU for a GPU recipe, an import for a CPU one
    accelerated: bool
    sentence: str


def acceleration(framework: FrameworkFacts, kind: Optional[str], promises_gpu: bool = True) -> After:
    """Judged as the doctor does, against what the recipe promises."""
    if not framework.ok:
        return After(False, False, f"{framework.name} did not import: {framework.error or 'unknown error'}")
    use = frameworks.judge(framework.name, framework.data, kind) if kind else None
    if use is not None and use.sees:
        return After(True, True, f"{framework.name} uses the GPU: {use.label}")
    if not promises_gpu:
        where = "this machine has no GPU it could use" if kind is None else "this is a CPU-only build"
        return After(True, False, f"{framework.name} imports and runs on the CPU, as this recipe promises ({where})")
    if kind is None:
        return After(False, False, f"{framework.name} imports; this machine has no GPU it could use (CPU only)")
    if use.sees is None:
        return After(False, False, f"{framework.name} imports, but this build has no {kind.upper()} support")
    return After(False, False, f"{framework.name} imports but finds no GPU ({kind.upper()})")


def probe_after(python: str, framework: str, kind: Optional[str], promises_gpu: bool = True) -> Optional[After]:
    from macml.probe.frameworks import parse_frameworks, probe_framework_raw

    if frameworks.get(framework) is None:
        return None
    raw = probe_framework_raw(python, framework, FRAMEWORK_TIMEOUT)
    facts = parse_frameworks({framework: raw}).get(framework)
    if facts is None:
        return After(False, False, f"{framework} is not installed in {python}")
    return acceleration(facts, kind, promises_gpu)
