"""Install recipes: TOML data in recipes/, loaded into frozen objects and matched to a host.

A recipe says what a host needs (platform, arch, OS, GPU, Python), and holds a table of
pinned requirement sets; the first row whose conditions hold for this host is the one
installed. Matching is a pure function of MachineFacts. The schema: recipes/README.md.
"""
from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple


from macml.errors import MacmlError
from macml.facts import MachineFacts
from macml.recipes.conditions import Condition, effective_arch, fits_if, unmet_conditions
from macml.recipes.schema import Recipe, parse_recipe
from macml.paths import TooLarge, read_bounded, recipes_dir


@dataclass(frozen=True)
class RecipeMatch:
    recipe: str
    ok: bool
    reasons: Tuple[str, ...] = ()  # why not, when not ok
    requirements: Tuple[str, ...] = ()  # the pinned set for this host, when ok
    index_url: Optional[str] = None
    pin_label: str = ""
    fits_if: Tuple[str, ...] = ()  # when ok: what must hold of facts the evidence does not give

    @property
    def line(self) -> str:
        if self.ok:
            return f"{self.recipe}: {self.pin_label}" + (f" (fits if {'; '.join(self.fits_if)})" if self.fits_if else "")
        return f"{self.recipe}: {'; '.join(self.reasons)}"


def load_recipe_file(path: Path) -> Recipe:
    try:
        text = read_bounded(path).decode("utf-8")
    except TooLarge as exc:
        raise MacmlError(f"{exc}.", "Pass --recipe-file with the path of a TOML recipe.") from None
    except OSError as exc:
        raise MacmlError(f"Cannot read recipe file {path}: {exc.strerror or exc}",
                         "Pass --recipe-file with the path of a TOML recipe.") from None
    except UnicodeDecodeError as exc:
        raise MacmlError(f"Recipe {path}: not UTF-8 text (byte {exc.start}: {exc.object[exc.start:exc.start + 1]!r})",
                         "TOML files are UTF-8: save the recipe as UTF-8 text.") from None
    return parse_recipe(text, str(path))


def load_all(directory: Optional[Path] = None) -> Tuple[Recipe, ...]:
    """The recipes in directory; by default the shipped ones, read once per process."""
    return _load_directory(Path(directory)) if directory else _shipped_recipes()


@functools.lru_cache(maxsize=1)
def _shipped_recipes() -> Tuple[Recipe, ...]:
    return _load_directory(recipes_dir())


def _load_directory(directory: Path) -> Tuple[Recipe, ...]:
    found: Dict[str, Recipe] = {}
    for path in sorted(directory.glob("*.toml")):
        recipe = load_recipe_file(path)
        if recipe.name in found:
            raise MacmlError(f"Recipe {path}: key 'name': {recipe.name!r} is also defined in "
                             f"{found[recipe.name].source}")
        found[recipe.name] = recipe
    return tuple(found.values())


def find_recipe(name: str, recipes: Sequence[Recipe]) -> Recipe:
    for recipe in recipes:
        if recipe.name == name:
            return recipe
    names = [r.name for r in recipes]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"Did you mean: {', '.join(close)}?" if close else f"Known recipes: {', '.join(names)}."
    raise MacmlError(f"No recipe named {name!r}.", hint + " `macml recipes` lists them all.")


# ---------------------------------------------------------------- matching


def match(recipe: Recipe, facts: MachineFacts) -> RecipeMatch:
    reasons = unmet_conditions(recipe.requires, facts)
    if reasons:
        return RecipeMatch(recipe.name, False, tuple(reasons))
    assumed = fits_if(recipe.requires, facts)
    misses: List[str] = []
    for pin in recipe.pins:
        pin_reasons = unmet_conditions(pin.when, facts)
        if not pin_reasons:
            return RecipeMatch(recipe.name, True, (), pin.requirements, pin.index_url, pin.label,
                               _merge_assumptions(assumed, fits_if(pin.when, facts)))
        if _same_kind(pin.when, facts):  # rows for other OSes or CPUs are noise
            misses.append(f"{pin.label}: {', '.join(pin_reasons)}")
    if not misses:
        return RecipeMatch(recipe.name, False, (f"no pinned set for {facts.platform}",))
    if len(misses) == 1:
        return RecipeMatch(recipe.name, False, tuple(misses))
    return RecipeMatch(recipe.name, False, ("no pinned set fits this host (" + " | ".join(misses) + ")",))


def _same_kind(when: Condition, facts: MachineFacts) -> bool:
    return ((not when.platform or facts.platform in when.platform)
            and (not when.arch or effective_arch(facts) in when.arch))


def _merge_assumptions(general: Sequence[str], specific: Sequence[str]) -> Tuple[str, ...]:
    """A pin row's "fits if" replaces the recipe's on the same subject ("macOS is 14.0 or newer" over
    "macOS is 12.3 or newer")."""
    merged: Dict[str, str] = {}
    for text in (*general, *specific):
        merged[text.split(" is ")[0]] = text
    return tuple(merged.values())


def match_all(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Tuple[RecipeMatch, ...]:
    return tuple(match(r, facts) for r in (load_all() if recipes is None else recipes))
