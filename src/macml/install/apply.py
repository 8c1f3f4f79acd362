"""The one stage that changes anything: create the venv, install, run the post-install steps;
on any failure or signal, put everything back. Returns a frozen `Applied`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from macml import errors, progress
from macml.errors import MacmlError
from macml.install import journal, pip as install_pip, rollback as install_rollback, steps as install_steps
from macml.install.rollback import Rollback
from macml.install.sources import Sources
from macml.install.steps import After, StepResult
from macml.install.target import Target, create_venv, remove_venv
from macml.probe.runner import run_command
from macml.recipes.catalog import Recipe, RecipeMatch


@dataclass(frozen=True)
class Applied:
    command: Optional[str] = None  # the install command line
    steps: Tuple[StepResult, ...] = ()
    rollback: Optional[Rollback] = None
    after: Optional[After] = None
    failure: Optional[str] = None
    signal: Optional[str] = None  # "SIGINT", ... when a signal stopped it
    exit_code: int = 0
    venv_created: bool = False  # a venv was made (and is there, unless removed)
    venv_removed: bool = False  # what this run made of a venv was removed
    venv_folder_kept: bool = False  # the folder was there before: emptied, not removed


def apply(recipe: Recipe, found: RecipeMatch, target: Target, installer_name: str, kind: Optional[str],
          env_dir: str, sources: Sources) -> Tuple[Applied, Tuple[str, ...]]:
    """(what happened, warnings). Every way this can stop leaves the target as it was; even kill -9,
    through the journal (written before each step, removed at the end) that the next install reads."""
    doing, command, before, done, failure, stopped = "starting", None, None, (), None, None
    venv_made = False
    warnings: Tuple[str, ...] = ()
    entry = journal.start(env_dir, target, installer_name)
    with errors.signals_raised():
        try:
            if target.create_venv:
                doing = f"creating the venv {target.venv_dir}"
                entry = journal.write(entry, doing=doing)
                with progress.status(f"Creating a venv at {target.venv_dir}…"):
                    create_venv(target)  # on failure it removes what it made itself
                venv_made = True
            doing = "recording the installed packages"
            pip = install_pip.pip_installer(target.python)
            installer, warnings = choose_installer(pip, target.python, installer_name)
            with progress.status("Recording the installed packages and files for a rollback…"):
                before = install_rollback.record(target.python)
            argv = installer.install(found.requirements, sources)
            command = " ".join(argv)
            doing = f"{installer.name} install"
            entry = journal.write(entry, doing=doing, installer=installer.name, command=command,
                                  before=None if target.create_venv else before)
            with progress.status(f"Installing with {installer.name}… (this can take minutes)"):
                result = run_command(argv, timeout=install_pip.PIP_TIMEOUT, env=installer.env, new_session=True)
            if not result.ok:
                failure = f"{installer.name} install failed: {install_pip.tool_error(result, installer.name, sources.index_url)}"
            for step in recipe.post_install if result.ok else ():
                doing = f"post-install step {step.action}"
                entry = journal.write(entry, doing=doing)
                with progress.status(f"Post-install: {step.action}…"):
                    done += (install_steps.run_step(step, target.python, pip.base),)
                if not done[-1].ok:
                    failure = f"post-install step {step.action} failed: {done[-1].message}"
                    break
        except errors.Interrupted as exc:
            stopped = exc.signum
            failure = f"interrupted by {exc.name} during {doing}"
        except MacmlError as exc:
            failure = f"{doing}: {exc.message}"
        except Exception as exc:  # a bug or an OSError half-way must still roll back, and say what it was
            failure = f"{doing}: {type(exc).__name__}: {exc}"
    if failure is None:
        journal.remove(entry)
        after = install_steps.probe_after(target.python, recipe.framework, kind, bool(recipe.requires.gpu_vendor))
        return Applied(command, done, after=after, venv_created=target.create_venv), warnings
    with errors.signals_held(), progress.status("Rolling back: restoring the recorded packages and files…"):
        removed = remove_venv(target) if target.create_venv else False
        restored = (install_rollback.roll_back(installer, target.python, before)
                    if before is not None and not target.create_venv else None)
        journal.remove(entry)
    code = errors.signal_exit_code(stopped) if stopped else 1
    return Applied(command, done, restored, None, failure, errors.signal_name(stopped), code,
                   venv_made, removed, target.dir_existed), warnings


def choose_installer(pip: install_pip.Installer, python: str, name: str) -> Tuple[install_pip.Installer, Tuple[str, ...]]:
    if name != "uv":
        return pip, ()
    uv = install_pip.uv_installer(python)
    if uv is None:
        return pip, ("--uv: uv is neither on PATH nor installed beside macml; installed with pip instead",)
    return uv, ()
