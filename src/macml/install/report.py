"""What `macml install` did, as data the CLI renders once (text or JSON)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from rich.console import Console

from macml.facts import to_jsonable
from macml.install.pip import Plan, Rollback
from macml.install.steps import StepResult
from macml.recipes.index import Preflight


@dataclass
class InstallReport:
    """Filled in step by step by install.run_install; read-only once returned."""

    recipe: str
    pin_label: str
    target: str
    venv: Optional[str]
    dry_run: bool
    requirements: Tuple[str, ...]
    index_url: Optional[str] = None
    preflight: Optional[Preflight] = None
    plan: Optional[Plan] = None
    guard: Tuple[str, ...] = ()
    install_command: Optional[str] = None
    venv_created: bool = False
    venv_removed: bool = False
    steps: Tuple[StepResult, ...] = ()
    rollback: Optional[Rollback] = None
    installed: bool = False
    after: Optional[Tuple[bool, str]] = None  # (accelerated, sentence)
    verify: Optional[str] = None
    failure: Optional[str] = None
    warnings: Tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def to_json(self) -> Dict[str, Any]:
        plan = self.plan
        return {
            "recipe": self.recipe,
            "pins": self.pin_label,
            "requirements": list(self.requirements),
            "index_url": self.index_url,
            "target": self.target,
            "venv": self.venv,
            "dry_run": self.dry_run,
            "ok": self.ok,
            "failure": self.failure,
            "warnings": list(self.warnings),
            "preflight": to_jsonable(self.preflight) if self.preflight else None,
            "plan": {"command": plan.command, "packages": [{"name": n, "version": v} for n, v in plan.packages],
                     "error": plan.error} if plan else None,
            "guard": list(self.guard),
            "install_command": self.install_command,
            "installed": self.installed,
            "venv_created": self.venv_created,
            "venv_removed": self.venv_removed,
            "steps": to_jsonable(self.steps),
            "rollback": to_jsonable(self.rollback) if self.rollback else None,
            "accelerated": self.after[0] if self.after else None,
            "after": self.after[1] if self.after else None,
            "verify": self.verify,
        }

    def render_text(self, console: Console, verbose: bool) -> None:
        console.print(f"[bold]{self.recipe}[/]: {self.pin_label}")
        console.print(f"  target: {self.target}" + (f" (venv {self.venv})" if self.venv else ""), markup=False)
        for warning in self.warnings:
            console.print(f"  [yellow]![/] {warning}", highlight=False)
        self._render_preflight(console, verbose)
        self._render_plan(console)
        for problem in self.guard:
            prefix = "a real install would refuse: " if self.dry_run else ""
            console.print(f"  [red]✗[/] {prefix}{problem}", highlight=False)
        for step in self.steps:
            mark = "[green]✓[/]" if step.ok else "[red]✗[/]"
            console.print(f"  {mark} {step.action}: {step.message}", highlight=False)
        self._render_outcome(console)

    def _render_preflight(self, console: Console, verbose: bool) -> None:
        if not self.preflight:
            return
        for check in self.preflight.checks:
            if check.ok and not verbose:
                continue
            mark = "[green]✓[/]" if check.ok else f"[red]✗ blocked by {check.blocker}:[/]"
            console.print(f"  {mark} {check.requirement}: {check.detail}", highlight=False)
        if self.preflight.checks and self.preflight.ok:
            console.print(f"  [green]✓[/] pre-flight: {len(self.preflight.checks)} pinned package(s) have a fitting wheel")

    def _render_plan(self, console: Console) -> None:
        if not self.plan:
            return
        console.print(f"  plan: {self.plan.command}", markup=False, highlight=False)
        if self.plan.error:
            console.print(f"  [red]✗[/] {self.plan.error}", highlight=False)
            return
        picked = ", ".join(f"{n} {v}" for n, v in self.plan.packages) or "nothing new (already satisfied)"
        console.print(f"  pip would install: {picked}", highlight=False)

    def _render_outcome(self, console: Console) -> None:
        if self.failure:
            console.print(f"[bold red]Failed:[/] {self.failure}", highlight=False)
        if self.rollback:
            rb = self.rollback
            done = [f"uninstalled {', '.join(rb.uninstalled)}" if rb.uninstalled else "",
                    f"reinstalled {', '.join(rb.reinstalled)}" if rb.reinstalled else ""]
            summary = "; ".join(d for d in done if d) or "nothing had changed"
            state = "the previous package set is restored" if rb.restored else "NOT fully restored"
            console.print(f"  rollback: {summary}; {state}", highlight=False)
            for line in rb.remaining + rb.errors:
                console.print(f"    [red]✗[/] {line}", highlight=False)
        if self.venv_removed:
            console.print(f"  the venv {self.venv} created by this run was removed", markup=False)
        if self.dry_run and self.ok:
            console.print("Dry run: nothing was changed. Run again without --dry-run to install.")
        if self.installed:
            console.print(f"[bold green]Installed[/] into {self.target}", highlight=False)
            if self.after:
                mark = "[green]✓ acceleration available:[/]" if self.after[0] else "[yellow]✗ no acceleration:[/]"
                console.print(f"  {mark} {self.after[1]}", highlight=False)
            if self.verify:
                console.print(f"  Next: macml verify --python {self.target} --framework {self.verify}", markup=False)
