"""`macml recipes`: every recipe, ✓ with the pins it would install here, or ✗ and why.
`macml recipes --audit`: every row of every recipe against the package indexes and macml.knowledge.compat."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Tuple

from rich.console import Console
from rich.text import Text

from macml.recipes import catalog as recipes
from macml.recipes.audit import RowAudit
from macml.recipes.catalog import Recipe, RecipeMatch
from macml.recipes.recommend import Recommendation, recommendation
from macml.report import bold, marked


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
                    "audited": by_name[m.recipe].audited,
                }
                for m in self.matches
            ],
        }

    def render_text(self, console: Console, verbose: bool) -> None:
        by_name = {r.name: r for r in self.recipes}
        for m in self.matches:
            star = bold(" (recommended)") if m.recipe == self.recommended else ""
            if m.ok and m.fits_if:
                console.print(Text.assemble(Text("?", style="yellow"), " ", bold(m.recipe), star,
                                            f": {m.pin_label}, fits if {'; '.join(m.fits_if)}"), highlight=False)
            elif m.ok:
                console.print(Text.assemble(marked("ok", ""), bold(m.recipe), star, f": {m.pin_label}"),
                              highlight=False)
                console.print(f"    {' '.join(m.requirements)}" + (f"  (index {m.index_url})" if m.index_url else ""),
                              markup=False, highlight=False)
            else:
                console.print(Text.assemble(marked("fail", ""), bold(m.recipe), f": {'; '.join(m.reasons)}"),
                              highlight=False)
            if verbose:
                recipe = by_name[m.recipe]
                console.print(f"    {recipe.summary}", markup=False, highlight=False)
                console.print(f"    table last audited: {recipe.audited or 'never'}  (macml recipes --audit)",
                              markup=False, highlight=False)
        if self.recommended and self.once:
            console.print(f"\nRecommended: {self.recommended}, once this runs in {self.once}:\n"
                          f"  macml install --recipe {self.recommended} --python /path/to/native/python3 --venv .venv",
                          markup=False)
        elif self.recommended:
            console.print(f"\nInstall the recommendation: macml install --recipe {self.recommended} --venv .venv",
                          markup=False)


def run_recipes(python: Optional[str] = None, snapshot_in: Sequence[Path] = ()) -> RecipesReport:
    from macml.probe.collect import collect_facts

    facts = collect_facts(python=python, snapshot_in=snapshot_in, frameworks=False)
    loaded = recipes.load_all()
    best: Optional[Recommendation] = recommendation(facts, loaded)
    return RecipesReport(loaded, recipes.match_all(facts, loaded), best.recipe if best else None,
                         (facts.interpreter.executable or None) if facts.interpreter else python,
                         best.once if best else "")



@dataclass(frozen=True)
class AuditReport:
    recipes: Tuple[Recipe, ...]
    rows: Tuple[RowAudit, ...]

    @property
    def exit_code(self) -> int:
        return 0 if all(r.ok for r in self.rows) else 1

    def to_json(self) -> Dict[str, Any]:
        return {
            "ok": self.exit_code == 0,
            "audited": {r.name: r.audited for r in self.recipes},
            "rows": [{"recipe": r.recipe, "label": r.label, "index": r.index, "ok": r.ok, "targets": list(r.targets),
                      "problems": list(r.problems), "newer": list(r.newer), "held": list(r.held), "note": r.note or None}
                     for r in self.rows],
        }

    def render_text(self, console: Console, verbose: bool) -> None:
        audited = {r.name: r.audited for r in self.recipes}
        shown = None
        for row in self.rows:
            if row.recipe != shown:
                shown = row.recipe
                console.print(f"[bold]{row.recipe}[/] (table last audited {audited.get(row.recipe) or 'never'})")
            mark = "[green]✓[/]" if row.ok else "[red]✗[/]"
            console.print(f"  {mark} {row.label}", highlight=False)
            lines = [("! ", p) for p in row.problems] + [("newer: ", n) for n in row.newer]
            if verbose:
                lines += [("targets: ", ", ".join(row.targets))] + [("held: ", h) for h in row.held]
            if row.note:
                lines.append(("note: ", row.note))
            for prefix, text in lines:
                console.print(f"      {prefix}{text}", markup=False, highlight=False)
        wrong = sum(not r.ok for r in self.rows)
        newer = sum(bool(r.newer) for r in self.rows)
        console.print(f"\n{len(self.rows)} rows: {wrong} wrong, {newer} with a newer release that fits",
                      markup=False)


def run_audit(pypi: Optional[str] = None) -> AuditReport:
    from macml import progress
    from macml.recipes.audit import audit
    from macml.recipes.client import IndexClient

    loaded = recipes.load_all()
    with progress.status("Asking the package indexes about every recipe row…"):
        rows = audit(loaded, IndexClient(pypi))
    return AuditReport(loaded, rows)
