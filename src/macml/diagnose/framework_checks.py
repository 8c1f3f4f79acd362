"""Cross-framework checks: does each installed framework actually see the GPU?"""
from __future__ import annotations

from typing import Optional, Sequence

from macml.facts import FrameworkFacts, MachineFacts
from macml import frameworks
from macml.recipes.catalog import Recipe, find_recipe, match, preference, recommend
from macml.findings import Finding, Fix, fail, info, ok, warn

WHY_NOT = {
    "mps": "On macOS, MPS needs macOS 14+, a native arm64 Python and a real (not virtual) GPU.",
    "cuda": "Check `nvidia-smi` works for this user, CUDA_VISIBLE_DEVICES, and the driver/CUDA pairing.",
    "rocm": "Check the user is in the render/video groups, HIP_VISIBLE_DEVICES and HSA_OVERRIDE_GFX_VERSION.",
}


def framework_gpu_finding(probe: FrameworkFacts, kind: str, facts: MachineFacts) -> Optional[Finding]:
    area = frameworks.area_of(probe.name)
    if probe.name == "tensorflow" and kind == "mps" and not facts.package("tensorflow-metal"):
        return None  # plain TensorFlow on a Mac never meant to use the GPU
    use = frameworks.judge(probe.name, probe.data, kind)
    if use.sees is None:
        return None
    version = probe.data.get("version", "")
    if use.sees:
        return ok(area, f"{probe.name} {version} uses the GPU: {use.label}")
    hints = [f"{k}={v}" for k, v in facts.env.items() if "VISIBLE" in k or "HSA_" in k]
    return fail(area, f"{probe.name} {version} imports but finds no GPU, while this machine has one",
                Fix(WHY_NOT[kind] + " Then re-run `macml doctor -v`.", ("macml verify",)), *hints)


def check_framework_gpu(facts: MachineFacts) -> Optional[Finding]:
    """A framework that imports but finds no GPU while the hardware has one."""
    kind = facts.accelerator_kind
    if kind is None:
        return None
    found = [framework_gpu_finding(p, kind, facts) for p in facts.frameworks.values() if p.ok]
    found = [f for f in found if f is not None]
    failures = [f for f in found if f.level == "fail"]
    if failures:
        first = failures[0]
        return fail(first.area, first.message, first.fix, *(first.details + tuple(f.message for f in failures[1:])))
    if found:
        return ok("GPU", "; ".join(f.message for f in found))
    return None


def check_recommended_recipe(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """The install recipe that fits this machine and interpreter best."""
    if facts.rosetta:
        first = preference(facts)[0]
        return info("Python", f"Recommended recipe: {first}, once this runs in a native arm64 Python "
                              "(see the Rosetta finding)",
                    Fix("From the native Python's venv:", (f"macml install --recipe {first}",)))
    best = recommend(facts, recipes)
    if best is None:
        return info("Python", "None of the recipes recommended for this machine fits this interpreter "
                              "(`macml recipes` says why)")
    framework = find_recipe(best.recipe, recipes).framework
    probe = facts.frameworks.get(framework)
    kind = facts.accelerator_kind
    using_gpu = [p.name for p in facts.frameworks.values()
                 if kind and p.ok and frameworks.judge(p.name, p.data, kind).sees]
    if using_gpu:
        verb = "uses" if len(using_gpu) == 1 else "use"
        return ok("Python", f"{' and '.join(using_gpu)} already {verb} the GPU: no recipe needed")
    if probe is not None and probe.ok and kind is None:
        return ok("Python", f"The recommended recipe, {best.recipe}, is in place: {framework} works (CPU only)")
    pins = f" ({best.pin_label})" if best.pin_label else ""
    if probe is None:
        pins += f"; {framework} is not installed yet"
    return info("Python", f"Recommended recipe: {best.recipe}{pins}",
                Fix("Install it (a plan is shown first):", (f"macml install --recipe {best.recipe}",)))


def check_python_wheels(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """A Python version with no wheel for the framework this hardware wants."""
    interp = facts.interpreter
    if interp is None:
        return None
    preferred = find_recipe(preference(facts)[0], recipes)
    result = match(preferred, facts)
    python_reasons = [r for r in result.reasons if "no wheel for Python" in r]
    if result.ok or not python_reasons:
        return None
    # Another framework already working here makes this a warning, not a failure.
    level = warn if any(p.ok for p in facts.frameworks.values()) else fail
    return level("Python", f"{preferred.name}: {python_reasons[0]}",
                Fix("Create a venv from a supported Python (e.g. with pyenv or python.org) and install there:",
                    (f"macml install --recipe {preferred.name} --venv ~/.venvs/ml --python /path/to/supported/python",)),
                *python_reasons[1:])
