"""A recipe's post-install steps (data, never shell strings), run against the target."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Tuple

from packaging.utils import canonicalize_name

from macml.errors import MacmlError
from macml.facts import FrameworkFacts
from macml.install_pip import QUICK_TIMEOUT, freeze, pip_error
from macml.recipes import PostStep
from macml.runner import run_command

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
            from macml import plaidml_setup  # lazy: only this recipe needs it

            return StepResult(step.action, True, plaidml_setup.configure(python, step.device))
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
    result = run_command(list(pip) + ["uninstall", "--yes"] + present, timeout=QUICK_TIMEOUT)
    if not result.ok:
        return StepResult(step.action, False, f"uninstall {' '.join(present)} failed: {pip_error(result)}")
    return StepResult(step.action, True, f"removed {', '.join(present)}")


def _check_import(step: PostStep, python: str) -> StepResult:
    code = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    result = run_command([python, "-c", code] + list(step.modules), timeout=IMPORT_TIMEOUT)
    if result.ok:
        return StepResult(step.action, True, f"imported {', '.join(step.modules)}")
    tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
    return StepResult(step.action, False, f"import {', '.join(step.modules)} failed: {tail}")


def run_steps(steps: Sequence[PostStep], python: str, pip: Sequence[str]) -> Tuple[StepResult, ...]:
    """Run steps in order; stop at the first failure (the caller rolls back)."""
    done = []
    for step in steps:
        result = run_step(step, python, pip)
        done.append(result)
        if not result.ok:
            break
    return tuple(done)


# ---------------------------------------------------------------- after: is it accelerated now?


def acceleration(framework: FrameworkFacts) -> Tuple[bool, str]:
    """(accelerated, sentence) from the doctor's framework probe data."""
    if not framework.ok:
        return False, f"{framework.name} did not import: {framework.error or 'unknown error'}"
    data: Mapping[str, Any] = framework.data
    if framework.name == "torch":
        for key, label in (("cuda_available", "CUDA"), ("mps_available", "MPS")):
            if data.get(key):
                return True, f"torch sees {label}"
        return False, "torch imports, but neither CUDA nor MPS is available (CPU only)"
    if framework.name == "tensorflow":
        gpus = data.get("gpus") or []
        return (True, f"TensorFlow sees {len(gpus)} GPU device(s)") if gpus else (False, "TensorFlow sees no GPU")
    if framework.name == "mlx":
        ok = bool(data.get("metal_available"))
        return ok, "MLX sees the Metal GPU" if ok else "MLX reports no Metal device"
    if framework.name == "plaidml":
        devices = [d for d in (data.get("devices") or []) if not str(d).startswith("llvm_cpu")]
        if devices:
            return True, f"PlaidML devices: {', '.join(map(str, devices))}"
        return False, "PlaidML sees only its CPU device (llvm_cpu.0)"
    flags = [k for k, v in data.items() if k.endswith("available") and v is True]
    if flags:
        return True, f"{framework.name}: {', '.join(flags)}"
    return False, f"{framework.name} imports; no accelerator reported"


def probe_after(python: str, framework: str) -> Optional[Tuple[bool, str]]:
    from macml.frameworks import FRAMEWORKS, parse_frameworks, probe_framework_raw

    if framework not in FRAMEWORKS:
        return None
    raw = probe_framework_raw(python, framework, FRAMEWORK_TIMEOUT)
    facts = parse_frameworks({framework: raw}).get(framework)
    if facts is None:
        return False, f"{framework} is not installed in {python}"
    return acceleration(facts)
