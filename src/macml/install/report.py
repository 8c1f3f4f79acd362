"""What `macml install` did, as data the CLI renders once (text or JSON); built once per exit."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from rich.console import Console
from rich.text import Text

from macml.report import bold, marked
from macml.facts import to_jsonable
from macml.install.alternative import Alternative
from macml.install.apply import Applied
from macml.install.downloads import format_size, summary, total
from macml.install.pip import Plan
from macml.recipes.index import Preflight


@dataclass(frozen=True)
class InstallReport:
    recipe: str
    pin_label: str
    target: str
    venv: Optional[str]
    dry_run: bool
    requirements: Tuple[str, ...]
    index_url: Optional[str] = None
    warnings: Tuple[str, ...] = ()
    guard: Tuple[str, ...] = ()
    preflight: Optional[Preflight] = None
    plan: Optional[Plan] = None
    applied: Optional[Applied] = None
    failure: Optional[str] = None  # why it stopped before applying (pre-flight, plan)
    verify_workload: Optional[str] = None  # the recipe's
    recovered: Tuple[str, ...] = ()  # what was restored first, after a killed install
    sources: Tuple[str, ...] = ()  # where pip looks, one line per kind of place (install.sources)
    alternative: Optional[Alternative] = None  # offered where the row's own index cannot be reached

    @property
    def reason(self) -> Optional[str]:
        return self.failure or (self.applied.failure if self.applied else None)

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def installed(self) -> bool:
        return self.applied is not None and self.applied.failure is None

    @property
    def exit_code(self) -> int:
        if self.applied is not None:
            return self.applied.exit_code
        return 0 if self.ok else 1

    def to_json(self) -> Dict[str, Any]:
        plan, applied = self.plan, self.applied or Applied()
        return {
            "recipe": self.recipe,
            "pins": self.pin_label,
            "requirements": list(self.requirements),
            "index_url": self.index_url,
            "target": self.target,
            "venv": self.venv,
            "dry_run": self.dry_run,
            "ok": self.ok,
            "failure": self.reason,
            "signal": applied.signal,
            "recovered": list(self.recovered),
            "warnings": list(self.warnings),
            "preflight": to_jsonable(self.preflight) if self.preflight else None,
            "sources": list(self.sources),
            "plan": {"command": plan.command, "tool": plan.tool, "error": plan.error,
                     "packages": [{"name": d.name, "version": d.version, "url": d.url or None, "size": d.size}
                                  for d in plan.downloads],
                     "download_bytes": total(plan.downloads)[0], "download": summary(plan.downloads)} if plan else None,
            "alternative": self.alternative.to_json() if self.alternative else None,
            "guard": list(self.guard),
            "install_command": applied.command,
            "installed": self.installed,
            "venv_created": applied.venv_created,
            "venv_removed": applied.venv_removed,
            "steps": to_jsonable(applied.steps),
            "rollback": to_jsonable(applied.rollback) if applied.rollback else None,
            "after": to_jsonable(applied.after) if applied.after else None,
            "verify": self.verify,
        }

    @property
    def verify(self) -> Optional[str]:
        """The `macml verify` workload to suggest next, once installed."""
        return self.verify_workload if self.installed else None

    def render_text(self, console: Console, verbose: bool) -> None:
        console.print(Text.assemble(bold(self.recipe), f": {self.pin_label}"))
        console.print(f"  target: {self.target}" + (f" (venv {self.venv})" if self.venv else ""), markup=False)
        for line in self.recovered:
            console.print(marked("warn", line, "  "))
        for line in self.sources:
            console.print(f"  {line}", markup=False, highlight=False)
        for warning in self.warnings:
            console.print(marked("warn", warning, "  "))
        self._render_preflight(console, verbose)
        self._render_plan(console)
        for problem in self.guard:
            prefix = "a real install would refuse: " if self.dry_run else ""
            console.print(marked("fail", prefix + problem, "  "))
        for step in self.applied.steps if self.applied else ():
            console.print(marked("ok" if step.ok else "fail", f"{step.action}: {step.message}", "  "))
        self._render_outcome(console)

    def _render_preflight(self, console: Console, verbose: bool) -> None:
        if not self.preflight:
            return
        for check in self.preflight.checked:
            if check.ok and not verbose:
                continue
            blocked = "" if check.ok else f"blocked by {check.blocker}: "
            console.print(marked("ok" if check.ok else "fail", f"{blocked}{check.requirement}: {check.detail}", "  "))
        if self.preflight.checked and self.preflight.ok:
            console.print(marked("ok", f"pre-flight: {len(self.preflight.checked)} pinned package(s) have a "
                                       "fitting wheel", "  "))
        for check in self.preflight.unchecked:
            if check.blocker != "unreachable":  # the warning about the unreachable index says it
                console.print(marked("warn", f"pre-flight did not check {check.requirement}: {check.detail}", "  "))

    def _render_plan(self, console: Console) -> None:
        if not self.plan:
            return
        console.print(f"  plan: {self.plan.command}", markup=False, highlight=False)
        if self.plan.error:
            console.print(marked("fail", self.plan.error, "  "))
            return
        picked = ", ".join(f"{d.name} {d.version}" + (f" ({format_size(d.size)})" if d.size else "")
                           for d in self.plan.downloads) or "nothing new (already satisfied)"
        console.print(f"  {self.plan.tool} would install: {picked}", markup=False, highlight=False)
        if summary(self.plan.downloads):
            console.print(f"  download: {summary(self.plan.downloads)}", markup=False, highlight=False)

    def _render_outcome(self, console: Console) -> None:
        applied = self.applied or Applied()
        if self.reason:
            console.print(Text.assemble(Text("Failed:", style="bold red"), f" {self.reason}"))
        if self.alternative:
            console.print(f"  {self.alternative.sentence}", markup=False, highlight=False)
        if applied.rollback:
            rb = applied.rollback
            state = ("the previous package set and files are restored" if rb.restored else "NOT fully restored")
            console.print(f"  rollback: {rb.summary}; {state}", markup=False, highlight=False)
            for line in rb.remaining + rb.errors:
                console.print(marked("fail", line, "    "))
        if applied.venv_removed and applied.venv_folder_kept:
            console.print(f"  rollback: the venv files this run put in {self.venv} were removed; the folder is kept "
                          "(it was there before)", markup=False)
        elif applied.venv_removed:
            console.print(f"  rollback: the venv {self.venv} created by this run was removed", markup=False)
        if self.dry_run and self.ok:
            console.print("Dry run: nothing was changed. Run again without --dry-run to install.")
        if self.installed:
            console.print(Text.assemble(Text("Installed", style="bold green"), f" into {self.target}"))
            after = applied.after
            if after:
                label = "acceleration available" if after.accelerated else ("works" if after.ok else "no acceleration")
                console.print(marked("ok" if after.ok else "warn", f"{label}: {after.sentence}", "  "))
            if self.verify:
                console.print(f"  Next: macml verify --python {self.target} --framework {self.verify}", markup=False)
