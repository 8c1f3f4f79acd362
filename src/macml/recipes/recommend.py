"""The one recommendation that `macml doctor` and `macml recipes` both show, from the recipes' own
roles: each recipe says what it provides (`framework`, `accelerator`) and its `rank`. This module
decides only what the hardware offers (`wanted_accelerators`); which recipes serve that, and in
which order, is recipe data. `recipe_for(facts, recipes, framework)` is the recipe a fix names."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from macml import versions
from macml.facts import MachineFacts
from macml.knowledge.amd_apus import apu_target
from macml.knowledge.compat import last_torch_for_gpu
from macml.knowledge.hardware import intel_discrete_gpu
from macml.knowledge.rocm import no_rocm_build
from macml.probe.infer import TEGRA
from macml.recipes.catalog import Recipe, RecipeMatch, load_all, match, match_all
from macml.recipes.conditions import UNMET, is_virtual_machine, python_tags, shortfalls

# The conditions that say what kind of machine a recipe is for; the rest (Python, Rosetta, driver,
# OS release) say what must change before it installs, which the recommendation reports as "once".
_MACHINE_KIND = ("platform", "gpu_vendor", "vm")


@dataclass(frozen=True)
class Recommendation:
    """The one recommendation `macml doctor` and `macml recipes` both show."""

    recipe: str
    match: Optional[RecipeMatch]  # how it fits this interpreter (not ok when `once` is set)
    once: str = ""  # what must change first, e.g. "a native arm64 Python (not Rosetta)"


def wanted_accelerators(facts: MachineFacts) -> Tuple[str, ...]:
    """What this machine's hardware offers a framework, best first. A CPU build is never among them
    where a usable GPU is known, except in a macOS VM (no Metal compute inside) and beside Radeons that no ROCm
    build runs on (a discrete one is the machine's GPU; an APU's only where no NVIDIA GPU can be there); an unknown GPU list keeps every possibility open ("fits if ..."
    says what each assumes) but a vendor the evidence rules out (collect_env's 'No CUDA')."""
    if facts.platform not in ("darwin", "linux", "win32"):  # the OS is unknown: go by the GPUs named
        vendors = {g.vendor for g in facts.gpus if g.usable}
        return (("cuda",) if "NVIDIA" in vendors else ()) + (("mps", "metal") if "Apple" in vendors else ())
    if facts.is_mac:
        if is_virtual_machine(facts):
            return ("cpu",)
        if facts.has_metal_gpu:
            return ("mps", "metal")
        if facts.cpu.apple_silicon is None and not facts.gpu_list_known:
            return ("mps", "metal", "cpu")
        return ("cpu",)
    nvidia = [g for g in facts.gpus_by_vendor("NVIDIA") if g.usable]
    if nvidia:  # a Jetson runs NVIDIA's JetPack wheels, which no recipe provides
        return () if all(g.family == TEGRA for g in nvidia) else ("cuda",)
    amd = [g for g in facts.gpus_by_vendor("AMD") if g.usable]
    if facts.platform == "linux" and amd:  # an APU's Radeon no ROCm build runs on (and no NVIDIA GPU) leaves the CPU
        nothing_else = facts.gpu_list_known or "NVIDIA" in facts.gpus_ruled_out
        igpus_only = all(no_rocm_build(g.compute_capability) and apu_target(g.compute_capability) for g in amd)
        if nothing_else and igpus_only or all(no_rocm_build(g.compute_capability) for g in amd):
            return ("cpu",)  # a Radeon no ROCm build runs on is the machine's GPU, as on Windows (rocm_target says so)
        return ("rocm",)
    if any(g.usable and intel_discrete_gpu(g.model) for g in facts.gpus_by_vendor("Intel")):
        return ("cpu",)  # like a named Radeon: a discrete Arc is the machine's GPU, and no recipe drives it
    if facts.platform == "win32" and any(g.usable for g in facts.gpus_by_vendor("AMD")):
        return ("cpu",)  # a named Radeon on Windows is the machine's GPU, and no recipe drives it there (ROCm is Linux's)
    if not facts.gpu_list_known:
        cuda = () if "NVIDIA" in facts.gpus_ruled_out else ("cuda",)
        return cuda + (("rocm", "cpu") if facts.platform == "linux" else ("cpu",))
    return ("cpu",)


def _for_this_kind_of_machine(recipe: Recipe, facts: MachineFacts) -> bool:
    """The recipe's own conditions do not rule out this hardware (its interpreter may still need changing)."""
    hardware_only = dataclasses.replace(facts, interpreter=None)
    return not any(s.kind == UNMET and (s.subject in _MACHINE_KIND or s.subject == "arch")
                   for s in shortfalls(recipe.requires, hardware_only))


# distribution (or imported module) -> the recipe framework that serves its user
_FAMILY = (("tensorflow", "tensorflow"), ("keras", "tensorflow"), ("mlx", "mlx"), ("jax", "jax"),
           ("plaidml", "plaidml"), ("torch", "torch"))


def user_frameworks(facts: MachineFacts) -> Tuple[str, ...]:
    """The recipe frameworks this user works with, most specific first, when the text decides it: one
    framework besides torch ('tensorflow' for a TensorFlow-only paste); a PlaidML user runs Keras, so
    TensorFlow serves them where PlaidML cannot. () when torch is among them, or several are."""
    names = set(facts.frameworks_in_use)
    if facts.interpreter is not None and not facts.interpreter.known:
        # a paste shows the frameworks its user chose to show; a probed interpreter holds whatever was
        # installed, and the recommendation there goes by the hardware
        names |= set(facts.frameworks) | set(facts.interpreter.packages)
    families = {family for name in names for prefix, family in _FAMILY
                if name == prefix or name.startswith(prefix + "-") or name == prefix + "lib"}
    if "torch" in families:
        return ()
    if "plaidml" in families:
        return ("plaidml", "tensorflow")
    return tuple(families) if len(families) == 1 else ()


# the oldest torch worth pinning for an old GPU: 1.3 (Oct 2019) on; a GPU whose last build is older (3.5: 1.2.0, 3.0:
# 0.3.0) has nothing a supported Python installs
_OLDEST_PINNABLE = (1, 3)


def _no_cuda_build_runs(facts: MachineFacts, recipes: Sequence[Recipe]) -> bool:
    """Every NVIDIA GPU here has a known compute capability that no row of the CUDA recipes builds for, and no
    PyTorch 1.3 or later binary ever did (a Kepler 3.0 GPU: the last was torch 0.3.0, 2018, Python <= 3.6; a 3.5 GPU:
    1.2.0, 2019, Python <= 3.7). A K80's 3.7 still has old 1.x/2.x builds a user may pin, so its CUDA recipe stays the
    wanted one. False while any capability is unknown."""
    nvidia = [g for g in facts.gpus_by_vendor("NVIDIA") if g.usable]
    specs = [p.when.compute_capability or r.requires.compute_capability for r in recipes_on(recipes, "cuda") for p in r.pins]
    known = all(re.match(r"^\d+\.\d+$", g.compute_capability or "") for g in nvidia)
    if not (nvidia and specs and known) or any(s is None or s.contains(g.compute_capability, prereleases=True)
                                                for g in nvidia for s in specs):
        return False
    lasts = [last_torch_for_gpu(g.compute_capability or "", facts.platform or "") for g in nvidia]
    return all(last is None or versions.release(last[0]) < _OLDEST_PINNABLE for last in lasts)


def _macos_too_old_for_metal(facts: MachineFacts, recipes: Sequence[Recipe]) -> bool:
    """A known macOS below every row of every Metal recipe for this Mac (the interpreter aside: it can change)."""
    if not facts.os.version_tuple:
        return False
    hardware = dataclasses.replace(facts, interpreter=None)
    found = [match(r, hardware) for r in recipes if r.accelerator in ("mps", "metal") and _for_this_kind_of_machine(r, hardware)]
    return bool(found) and all(not m.ok and m.shortfalls_about("min_os") for m in found)


def preference(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None,
               fallback: bool = True) -> Tuple[str, ...]:
    """Recipe names in the order worth recommending for this kind of machine; among the GPU recipes,
    those of the framework the user works with come first. `fallback=False`: in rank order, no framework first, and
    the GPU recipes even where none runs (a GPU too old for every CUDA build, a macOS too old for every Metal recipe)."""
    recipes = load_all() if recipes is None else recipes
    wanted = wanted_accelerators(facts)
    if fallback and wanted == ("cuda",) and _no_cuda_build_runs(facts, recipes):
        wanted = ("cpu",)  # Kepler and older: every CUDA build skips these GPUs, so the CPU is what runs
    if fallback and wanted == ("mps", "metal") and _macos_too_old_for_metal(facts, recipes):
        wanted = ("cpu",)  # macOS 11 on Apple silicon: until it is upgraded, the CPU is what runs
    suited = [r for r in recipes if r.accelerator in wanted and _for_this_kind_of_machine(r, facts)]
    used = user_frameworks(facts) if fallback else ()

    def order(recipe: Recipe) -> Tuple[bool, int, int, str]:
        # a recipe that stops working on newer macOS (jax-metal) is not put first on an unknown macOS
        lifted = recipe.framework in used and not (recipe.requires.below_os and not facts.os.version)
        mine = used.index(recipe.framework) if lifted else len(used)
        return recipe.accelerator == "cpu", mine, recipe.rank, recipe.name
    return tuple(r.name for r in sorted(suited, key=order))


def recipe_for(facts: MachineFacts, recipes: Sequence[Recipe], framework: str,
               accelerator: Optional[str] = None) -> Optional[str]:
    """The recipe a fix should name for `framework` on this machine (optionally on one accelerator):
    the most preferred one that provides it, None when no recipe does."""
    for name in preference(facts, recipes):
        recipe = next(r for r in recipes if r.name == name)
        if recipe.framework == framework and accelerator in (None, recipe.accelerator):
            return name
    return None


def recipes_on(recipes: Sequence[Recipe], accelerator: str, framework: Optional[str] = None) -> Tuple[Recipe, ...]:
    """Every recipe that provides `framework` (any, if None) on `accelerator`, whatever the machine."""
    return tuple(r for r in recipes if r.accelerator == accelerator and framework in (None, r.framework))


def recommendation(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Optional[Recommendation]:
    """The first preferred recipe that fits this interpreter; else the first choice with what must
    change first (a native arm64 Python instead of Rosetta, a supported Python, a newer NVIDIA
    driver). None when nothing fits."""
    recipes = load_all() if recipes is None else recipes
    names = preference(facts, recipes)
    matches = {m.recipe: m for m in match_all(facts, recipes)}
    for name in names:
        found = matches.get(name)
        if found is not None and found.ok:
            return Recommendation(name, found)
    if facts.rosetta and names:
        native = _native(facts)
        for name in names:  # the first that a native Python would get (a new one need not be this version)
            recipe = next(r for r in recipes if r.name == name)
            if match(recipe, native).ok:
                return Recommendation(name, matches.get(name), once="a native arm64 Python (not Rosetta)")
            minors = [m for m in range(6, 20) if recipe.requires.python is not None
                      and match(recipe, _native(facts, version=f"3.{m}.0")).ok]
            if minors:
                tags = f"cp3{minors[0]}" + (f"–cp3{minors[-1]}" if len(minors) > 1 else "")
                return Recommendation(name, matches.get(name), once=f"a native arm64 Python (not Rosetta), {tags}")
        return None
    if names:
        once = _fits_once(next(r for r in recipes if r.name == names[0]), facts)
        if once:
            return Recommendation(names[0], matches.get(names[0]), once=once)
    return None


def _native(facts: MachineFacts, version: Optional[str] = None) -> MachineFacts:
    """The same Mac with an arm64 Python (what a Rosetta user should switch to), of this Python's version or
    of `version`."""
    interp = facts.interpreter
    native = (dataclasses.replace(interp, machine="arm64", translated=False, version=version or interp.version)
              if interp is not None else None)
    return dataclasses.replace(facts, interpreter=native, translated_process=False)


def lowest_macos(recipe: Recipe) -> str:
    """The oldest macOS any row of a recipe installs on."""
    floors = [p.when.min_os or recipe.requires.min_os or "0" for p in recipe.pins
              if not p.when.platform or "darwin" in p.when.platform]
    return min(floors, key=versions.release) if floors else (recipe.requires.min_os or "")


def _has_driver_conditions(recipe: Recipe) -> bool:
    return bool(recipe.requires.min_driver or any(p.when.min_driver for p in recipe.pins))


def _fits_once(recipe: Recipe, facts: MachineFacts) -> str:
    """What must change for `recipe` to fit: a supported Python, a newer NVIDIA driver, or both
    (the same match with that fact unknown); "" when neither is enough."""
    interp = facts.interpreter
    python = (dataclasses.replace(facts, interpreter=dataclasses.replace(interp, version=""))
              if interp is not None and interp.version and recipe.requires.python is not None else None)
    tags = python_tags(recipe.requires.python) if python is not None else ""
    changes = [(python, f"a supported Python ({tags})")]
    if _has_driver_conditions(recipe) and facts.gpus_by_vendor("NVIDIA"):
        changes.append((_any_driver(facts), "a newer NVIDIA driver"))
        if python is not None:
            changes.append((_any_driver(python), f"a supported Python ({tags}) and a newer NVIDIA driver"))
    for changed, text in changes:
        if changed is not None and match(recipe, changed).ok:
            return text
    return ""


def _any_driver(facts: MachineFacts) -> MachineFacts:
    return dataclasses.replace(facts, gpus=tuple(dataclasses.replace(g, driver_version=None) for g in facts.gpus))


def recommend(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Optional[RecipeMatch]:
    """The recommended recipe's match when it fits this interpreter as it is."""
    found = recommendation(facts, recipes)
    return found.match if found is not None and not found.once else None
