"""`macml recipes`: every recipe, ✓ with the pins it would install here, or ✗ and why."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from rich.console import Console

from macml.recipes import catalog as recipes
from macml.recipes.catalog import Recipe, RecipeMatch, Recommendation


@dataclass(frozen=True)
class RecipesReport:
    recipes: Tuple[Recipe, ...]
    matches: Tuple[RecipeMatch, ...]
    recommended: Optional[str]
    python: Optional[str]
    once: str = ""  # what must change before the recommendation fits (Rosetta)

    @property
    def exit_code(self) -> int:
        return 0

    def to_json(self) -> Dict[str, Any]:
        by_name = {r.name: r for r in self.recipes}
        return {
            "python": self.python,
            "recommended": self.recommended,
            "recommended_once": self.once or None,
            "recipes": [
                {
                    "name": m.recipe,
                    "summary": by_name[m.recipe].summary,
                    "matches": m.ok,
                    "reasons": list(m.reasons),
                    "fits_if": list(m.fits_if),
                    "pins": m.pin_label or None,
                    "requirements": list(m.requirements),
                    "index_url": m.index_url,
                    "verify": by_name[m.recipe].verify,
                }
                for m in self.matches
            ],
        }

    def render_text(self, console: Console, verbose: bool) -> None:
        by_name = {r.name: r for r in self.recipes}
        for m in self.matches:
            star = " [bold](recommended)[/]" if m.recipe == self.recommended else ""
            if m.ok and m.fits_if:
                console.print(f"[yellow]?[/] [bold]{m.recipe}[/]{star}: {m.pin_label}, fits if "
                              f"{'; '.join(m.fits_if)}", highlight=False)
            elif m.ok:
                console.print(f"[green]✓[/] [bold]{m.recipe}[/]{star}: {m.pin_label}", highlight=False)
                console.print(f"    {' '.join(m.requirements)}" + (f"  (index {m.index_url})" if m.index_url else ""),
                              markup=False, highlight=False)
            else:
                console.print(f"[red]✗[/] [bold]{m.recipe}[/]: {'; '.join(m.reasons)}", highlight=False)
            if verbose:
                console.print(f"    {by_name[m.recipe].summary}", markup=False, highlight=False)
        if self.recommended and self.once:
            console.print(f"\nRecommended: {self.recommended}, once this runs in {self.once}:\n"
                          f"  macml install --recipe {self.recommended} --python /path/to/native/python3 --venv .venv",
                          markup=False)
        elif self.recommended:
            console.print(f"\nInstall the recommendation: macml install --recipe {self.recommended} --venv .venv",
                          markup=False)


def run_recipes(python: Optional[str] = None, snapshot_in: Optional[Path] = None) -> RecipesReport:
    from macml.probe.collect import collect_facts

    facts = collect_facts(python=python, snapshot_in=snapshot_in, frameworks=False)
    loaded = recipes.load_all()
    best: Optional[Recommendation] = recipes.recommendation(facts, loaded)
    return RecipesReport(loaded, recipes.match_all(facts, loaded), best.recipe if best else None,
                         (facts.interpreter.executable or None) if facts.interpreter else python,
                         best.once if best else "")
