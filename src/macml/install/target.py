"""Which interpreter an install goes into, the venv it may create, and the guard rails."""
from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Tuple

from macml.errors import MacmlError
from macml.diagnose.python_env import check_install_target
from macml.recipes.catalog import load_all
from macml.facts import InterpreterFacts, MachineFacts
from macml.probe.runner import run_command

VENV_TIMEOUT = 300.0


@dataclass(frozen=True)
class Target:
    python: str  # the interpreter pip installs into (may not exist yet when create_venv)
    base_python: str  # the interpreter that creates the venv, or the target itself
    venv_dir: Optional[Path] = None
    create_venv: bool = False
    dir_existed: bool = False  # create_venv into an empty directory that was already there (kept on failure)

    @property
    def probe_python(self) -> str:
        """The interpreter whose facts stand for the target before it exists."""
        return self.base_python if self.create_venv else self.python


def venv_python(venv_dir: Path) -> Path:
    if os.name == "nt":
        return venv_dir / "Scripts" / "python.exe"
    return venv_dir / "bin" / "python"


def venv_path(venv: Path) -> Path:
    """--venv as the absolute path macml uses (and keys the install lock by)."""
    return Path(venv).expanduser().absolute()


def resolve_target(python: Optional[str], venv: Optional[Path]) -> Target:
    base = python or sys.executable
    if venv is None:
        return Target(python=base, base_python=base)
    venv = venv_path(venv)
    in_the_way = next((p for p in (venv, *venv.parents) if p.exists() and not p.is_dir()), None)
    if in_the_way is not None:
        raise MacmlError(f"--venv {venv}: {in_the_way} is a file, not a folder.",
                         "Pass --venv a new folder, or an existing venv.")
    existing = venv_python(venv)
    if existing.exists():
        return Target(python=str(existing), base_python=str(existing), venv_dir=venv)
    if venv.exists() and any(venv.iterdir()):
        raise MacmlError(f"{venv} exists and is not a virtual environment (no {existing.relative_to(venv)}).",
                         "Pass --venv with a new directory, or an existing venv.")
    return Target(python=str(existing), base_python=base, venv_dir=venv, create_venv=True, dir_existed=venv.exists())


def env_dir(target: Target, interp: Optional[InterpreterFacts]) -> str:
    """The directory that stands for the target environment (what the install lock is keyed by)."""
    if target.venv_dir is not None:
        return str(target.venv_dir)
    return interp.prefix if interp is not None else str(Path(target.python).resolve().parent.parent)


def create_venv(target: Target) -> None:
    assert target.venv_dir is not None
    result = run_command([target.base_python, "-m", "venv", str(target.venv_dir)], timeout=VENV_TIMEOUT)
    if not result.ok:
        remove_venv(target)
        raise MacmlError(f"Could not create a venv at {target.venv_dir}: {result.last_error_line}",
                         "On Debian/Ubuntu install the pythonX.Y-venv package; or pass --python with another interpreter.")


def remove_venv(target: Target) -> bool:
    """Remove what create_venv made, and only that: a directory that was there before stays, emptied.
    True when there was something to remove."""
    assert target.venv_dir is not None
    children = list(target.venv_dir.iterdir()) if target.venv_dir.is_dir() else []
    if not target.dir_existed:
        existed = target.venv_dir.exists()
        shutil.rmtree(target.venv_dir, ignore_errors=True)
        return existed
    for child in children:
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink()
    return bool(children)


def guard_problems(facts: MachineFacts, target: Target, allow_system: bool) -> Tuple[str, ...]:
    """Why installing into this interpreter would be refused (empty: go ahead): the doctor's own
    install-target check, refused on a warning, as `brew install` runs `brew doctor`'s checks."""
    # An x86_64 (Rosetta) Python for an arm64-only recipe never gets here: recipes.match refuses it.
    if target.create_venv or allow_system:
        return ()
    finding = check_install_target(facts, load_all())
    if finding is None or finding.level not in ("warn", "fail"):
        return ()
    fix = finding.fix.text.rstrip(":") + "." if finding.fix else ""
    return (f"{finding.message}. {fix} Add --venv DIR, or pass --allow-system-python if you really mean it.",)


def confirm(question: str, yes: bool) -> None:
    if yes:
        return
    if not sys.stdin or not sys.stdin.isatty():
        raise MacmlError("Not installing without confirmation, and there is no terminal to ask on.",
                         "Re-run with --yes to install without asking (or --dry-run to only see the plan).")
    from rich.prompt import Confirm

    if not Confirm.ask(question, default=False):
        raise MacmlError("Cancelled; nothing was changed.", exit_code=1)
