"""The one recommendation that `macml doctor` and `macml recipes` both show: which recipe suits this
kind of machine (`preference`), the first that fits (`recommendation`), or the first choice with
what must change before it fits."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from macml.facts import UNNAMED_GPU, MachineFacts
from macml.probe.infer import TEGRA_GPU
from macml.recipes.catalog import Recipe, RecipeMatch, find_recipe, load_all, match, match_all
from macml.recipes.conditions import is_virtual_machine, python_tags


@dataclass(frozen=True)
class Recommendation:
    """The one recommendation `macml doctor` and `macml recipes` both show."""

    recipe: str
    match: Optional[RecipeMatch]  # how it fits this interpreter (not ok when `once` is set)
    once: str = ""  # what must change first, e.g. "a native arm64 Python (not Rosetta)"


def preference(facts: MachineFacts) -> Tuple[str, ...]:
    """Recipe names in the order worth recommending for this kind of machine. A CPU build is never
    among them where a GPU is known, except in a VM (the GPU cannot be reached from inside): there the
    answer is a GPU recipe, or none with the reasons why none fits (a driver to update, a GPU that no
    current build covers); the user decides whether to train on the CPU."""
    vendors = {g.vendor for g in facts.gpus if g.model != UNNAMED_GPU}
    if facts.is_mac and is_virtual_machine(facts):
        return ("pytorch-cpu",)  # no Metal compute inside a VM
    if facts.is_mac and facts.cpu.apple_silicon:
        return ("pytorch-mps", "mlx", "tensorflow-metal", "jax-metal")
    if facts.is_mac and "AMD" in vendors:
        return ("pytorch-mps", "plaidml-amd", "tensorflow-metal")
    if facts.is_mac and facts.cpu.apple_silicon is None and not facts.gpu_list_known:
        return ("pytorch-mps", "mlx", "pytorch-cpu")  # each shown with what it assumes
    if not facts.is_mac and "NVIDIA" in vendors:
        if all(g.model.startswith(TEGRA_GPU) for g in facts.gpus_by_vendor("NVIDIA")):
            return ()  # a Jetson runs NVIDIA's JetPack wheels, which no recipe installs
        return ("pytorch-cuda",)
    if facts.platform == "linux" and "AMD" in vendors:
        return ("pytorch-rocm",)
    return ("pytorch-cpu",)


def recommendation(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Optional[Recommendation]:
    """The first preferred recipe that fits this interpreter; else the first choice with what must
    change first (a native arm64 Python instead of Rosetta, a supported Python, a newer NVIDIA
    driver). None when nothing fits."""
    names = preference(facts)
    recipes = load_all() if recipes is None else recipes
    matches = {m.recipe: m for m in match_all(facts, recipes)}
    for name in names:
        found = matches.get(name)
        if found is not None and found.ok:
            return Recommendation(name, found)
    if facts.rosetta and names:
        return Recommendation(names[0], matches.get(names[0]), once="a native arm64 Python (not Rosetta)")
    if names:
        once = _fits_once(find_recipe(names[0], recipes), facts)
        if once:
            return Recommendation(names[0], matches.get(names[0]), once=once)
    return None


def _fits_once(recipe: Recipe, facts: MachineFacts) -> str:
    """What must change for `recipe` to fit: a supported Python, a newer NVIDIA driver, or both
    (the same match with that fact unknown); "" when neither is enough."""
    interp = facts.interpreter
    python = (dataclasses.replace(facts, interpreter=dataclasses.replace(interp, version=""))
              if interp is not None and interp.version and recipe.requires.python is not None else None)
    tags = python_tags(recipe.requires.python) if python is not None else ""
    changes = [(python, f"a supported Python ({tags})")]
    if recipe.name == "pytorch-cuda" and facts.gpus_by_vendor("NVIDIA"):
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
