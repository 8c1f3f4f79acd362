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
from macml.recipes.conditions import UNMET, Condition, Shortfall, effective_arch, fits_if, unmet_conditions
from macml.recipes.schema import Recipe, parse_recipe
from macml.paths import TooLarge, read_bounded, recipes_dir


@dataclass(frozen=True)
class RowMiss:
    """Why one row of a pin table does not fit this host."""
    label: str
    shortfalls: Tuple[Shortfall, ...]

    def __str__(self) -> str:
        return f"{self.label}: {', '.join(map(str, self.shortfalls))}"


@dataclass(frozen=True)
class RecipeMatch:
    recipe: str
    ok: bool
    unmet: Tuple[Shortfall, ...] = ()  # why not (the recipe's own conditions), when not ok
    requirements: Tuple[str, ...] = ()  # the pinned set for this host, when ok
    index_url: Optional[str] = None
    pin_label: str = ""
    assumed: Tuple[Shortfall, ...] = ()  # when ok: what must hold of facts the evidence does not give
    rows_missed: Tuple[RowMiss, ...] = ()  # when no row of the pin table fits: each row's shortfalls
    no_rows_for: str = ""  # no row is even for this kind of machine (the platform)

    @property
    def reasons(self) -> Tuple[str, ...]:
        """Why not, as sentences a user reads."""
        if self.unmet:
            return tuple(map(str, self.unmet))
        if self.no_rows_for:
            return (f"no pinned set for {self.no_rows_for}",)
        if len(self.rows_missed) == 1:
            return (str(self.rows_missed[0]),)
        if self.rows_missed:
            return ("no pinned set fits this host (" + " | ".join(map(str, self.rows_missed)) + ")",)
        return ()

    @property
    def fits_if(self) -> Tuple[str, ...]:
        return tuple(map(str, self.assumed))

    def shortfalls_about(self, subject: str) -> Tuple[Shortfall, ...]:
        """The unmet shortfalls on one condition (e.g. "python"), from the recipe or any pin row."""
        every = self.unmet + tuple(s for row in self.rows_missed for s in row.shortfalls)
        return tuple(s for s in every if s.subject == subject and s.kind == UNMET)


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
    unmet = unmet_conditions(recipe.requires, facts)
    if unmet:
        return RecipeMatch(recipe.name, False, tuple(unmet))
    assumed = fits_if(recipe.requires, facts)
    misses: List[RowMiss] = []
    for pin in recipe.pins:
        pin_unmet = unmet_conditions(pin.when, facts)
        if not pin_unmet:
            return RecipeMatch(recipe.name, True, (), pin.requirements, pin.index_url, pin.label,
                               _merge_assumptions(assumed, fits_if(pin.when, facts)))
        if _same_kind(pin.when, facts):  # rows for other OSes or CPUs are noise
            misses.append(RowMiss(pin.label, tuple(pin_unmet)))
    if not misses:
        return RecipeMatch(recipe.name, False, no_rows_for=facts.platform or "this platform")
    return RecipeMatch(recipe.name, False, rows_missed=tuple(misses))


def _same_kind(when: Condition, facts: MachineFacts) -> bool:
    return ((not when.platform or facts.platform in when.platform)
            and (not when.arch or effective_arch(facts) in when.arch))


def _merge_assumptions(general: Sequence[Shortfall], specific: Sequence[Shortfall]) -> Tuple[Shortfall, ...]:
    """A pin row's "fits if" replaces the recipe's on the same condition ("macOS is 14.0 or newer" over
    "macOS is 12.3 or newer"); one per GPU stays one per GPU."""
    merged: Dict[Tuple[str, int], Shortfall] = {}
    for group in (general, specific):
        counts: Dict[str, int] = {}
        for item in group:
            index = counts.get(item.subject, 0)
            counts[item.subject] = index + 1
            merged[(item.subject, index)] = item
    return tuple(merged.values())


def match_all(facts: MachineFacts, recipes: Optional[Sequence[Recipe]] = None) -> Tuple[RecipeMatch, ...]:
    return tuple(match(r, facts) for r in (load_all() if recipes is None else recipes))
