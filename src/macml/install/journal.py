"""The install journal: what an install is about to change, written atomically beside the lock before
anything changes, updated as it goes, and removed once the environment is installed or restored.

A journal that the next install into the same environment finds, under the lock, was left by a run that
nothing of could finish (kill -9, a power cut): the lock is held by macml and every child it started, so
none of them lives. That install says so, restores the environment (or removes the venv the killed run
was creating), removes the journal, and only then goes on.
"""
from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Tuple

from macml import progress
from macml.errors import MacmlError
from macml.install import lock
from macml.install.pip import pip_installer, uv_installer
from macml.install.rollback import EnvState, roll_back
from macml.install.target import Target, remove_venv
from macml.paths import TooLarge, read_bounded, user_cache_dir, write_atomically

FORMAT = 1
_TYPES = {"pid": int, "env_dir": str, "python": str, "installer": str, "doing": str, "command": (str, type(None)),
          "venv_dir": (str, type(None)), "venv_created": bool, "dir_existed": bool}
_HINT = ("If no macml install into that environment is running, check it (`pip list`), then delete the "
         "journal to go on.")


@dataclass(frozen=True)
class Journal:
    pid: int
    env_dir: str  # what the lock is keyed by
    python: str
    installer: str = "pip"  # or "uv"
    doing: str = "starting"
    command: Optional[str] = None  # the install command line, once planned
    venv_dir: Optional[str] = None
    venv_created: bool = False  # the run creates the venv: restoring removes it
    dir_existed: bool = False  # ... in a folder that was there before (emptied, kept)
    before: Optional[EnvState] = None  # the recorded state of an existing environment


def path_for(env_dir: str) -> Path:
    return lock.lock_path(env_dir, user_cache_dir("locks")).with_suffix(".journal.json")


def start(env_dir: str, target: Target, installer: str) -> Journal:
    return Journal(os.getpid(), env_dir, target.python, installer,
                   venv_dir=str(target.venv_dir) if target.venv_dir else None,
                   venv_created=target.create_venv, dir_existed=target.dir_existed)


def write(journal: Journal, **changes: Any) -> Journal:
    """The journal with changes, on disk before the step it announces begins."""
    journal = dataclasses.replace(journal, **changes)
    data = dataclasses.asdict(journal)
    if journal.before is not None:
        data["before"] = {"packages": dict(journal.before.packages),
                          "listing": {d: sorted(names) for d, names in journal.before.listing.items()}}
    write_atomically(path_for(journal.env_dir), json.dumps({"macml_install_journal": FORMAT, **data}, indent=1))
    return journal


def remove(journal: Journal) -> None:
    path_for(journal.env_dir).unlink(missing_ok=True)


def read(path: Path) -> Optional[Journal]:
    """The journal at path, None when there is none; one macml did not write is a MacmlError."""
    try:
        data = json.loads(read_bounded(path).decode("utf-8"))
        if not isinstance(data, dict) or data.pop("macml_install_journal", None) != FORMAT:
            raise ValueError("not a version-1 install journal")
        before = data.pop("before", None)
        journal = Journal(**data, before=None if before is None else EnvState(
            {str(k): str(v) for k, v in before["packages"].items()},
            {str(d): frozenset(map(str, names)) for d, names in before["listing"].items()}))
        wrong = [name for name, kind in _TYPES.items() if not isinstance(getattr(journal, name), kind)]
        if wrong:
            raise ValueError(f"wrong type of {', '.join(wrong)}")
        return journal
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, TooLarge, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise MacmlError(f"The install journal {path} cannot be read ({exc}).", _HINT) from None


def pending(env_dir: str) -> Optional[Journal]:
    """A journal left by a killed install, read without the lock (for a dry run, which takes none):
    None when there is none or its writer still runs."""
    import psutil

    found = read(path_for(env_dir))
    return found if found is not None and not psutil.pid_exists(found.pid) else None


def recover(env_dir: str) -> Tuple[str, ...]:
    """Under the lock: restore what a killed install left, if one did; what was done, as sentences."""
    journal = read(path_for(env_dir))
    if journal is None:
        return ()
    with progress.status(f"A previous macml install (pid {journal.pid}) was killed: restoring the environment…"):
        done = restore(journal)
    remove(journal)
    return (f"a previous macml install (pid {journal.pid}) into {journal.env_dir} was killed during "
            f"{journal.doing}; restoring the environment to what it was before: {done}",)


def restore(journal: Journal) -> str:
    """Put the environment back as the journal recorded it; what that took, or a MacmlError."""
    if journal.venv_created and journal.venv_dir:
        target = Target(journal.python, journal.python, Path(journal.venv_dir), True, journal.dir_existed)
        if not remove_venv(target):
            return "the venv it was creating had not been made"
        kept = "; the folder is kept (it was there before)" if journal.dir_existed else ""
        return f"removed the venv {journal.venv_dir} it was creating{kept}"
    if journal.before is None:
        return "nothing had been changed yet"
    if not os.path.exists(journal.python):
        return f"{journal.python} is gone, so there is nothing to restore"
    installer = (uv_installer(journal.python) if journal.installer == "uv" else None) or pip_installer(journal.python)
    rollback = roll_back(installer, journal.python, journal.before)
    if not rollback.restored:
        raise MacmlError(f"A previous macml install (pid {journal.pid}) into {journal.env_dir} was killed during "
                         f"{journal.doing}, and the environment could not be restored: "
                         + "; ".join(rollback.remaining + rollback.errors), _HINT + f" The journal: {path_for(journal.env_dir)}")
    return rollback.summary
