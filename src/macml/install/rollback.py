"""What an environment holds (its `pip freeze` and the listing of its install directories), and
putting it back: uninstall what was added, reinstall what changed, delete what pip left behind."""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from typing import Dict, FrozenSet, Mapping, Optional, Sequence, Tuple

from macml.errors import MacmlError
from macml.install.pip import (PIP_TIMEOUT, QUICK_TIMEOUT, Installer, freeze, parse_freeze, pip_argv,
                               target_pip_version, tool_error)
from macml.probe.runner import run_command

# One run in the target: its install directories (site-packages, and in a venv its scripts directory: a
# system bin/ is shared with the OS) and its distributions as `pip freeze` writes them (`name==version`,
# `name @ url` for a direct-URL install), the first of a name winning as in pip; a tenth of pip's time.
STATE_SCRIPT = """import json, sys, sysconfig
try:
    from importlib import metadata
except ImportError:  # Python < 3.8: pip freeze answers instead
    metadata = None
p = sysconfig.get_paths()
dirs = {p['purelib'], p['platlib']} | ({p['scripts']} if sys.prefix != sys.base_prefix else set())
lines = None if metadata is None else []
for dist in metadata.distributions() if metadata else ():
    name, url = dist.metadata['Name'], None
    try:
        info = json.loads(dist.read_text('direct_url.json') or 'null')
    except ValueError:
        info = None
    if info and not info.get('dir_info', {}).get('editable'):
        url = info.get('url')
    if name:
        lines.append(f'{name} @ {url}' if url else f'{name}=={dist.version}')
print(json.dumps({'dirs': sorted(dirs), 'freeze': lines}))
"""


@dataclass(frozen=True)
class EnvState:
    packages: Mapping[str, str]  # canonical name -> `pip freeze` line
    listing: Mapping[str, FrozenSet[str]]  # install directory -> its entries


def parse_state(stdout: str) -> Tuple[Tuple[str, ...], Optional[Dict[str, str]]]:
    """STATE_SCRIPT's JSON -> (install directories, {canonical name: freeze line}); the first of a name wins."""
    data = json.loads(stdout)
    if data["freeze"] is None:
        return tuple(data["dirs"]), None
    packages: Dict[str, str] = {}
    for line in data["freeze"]:
        for name, text in parse_freeze(line).items():
            packages.setdefault(name, text)
    return tuple(data["dirs"]), packages


def read_state(python: str) -> Tuple[Tuple[str, ...], Dict[str, str]]:
    result = run_command([python, "-I", "-c", STATE_SCRIPT], timeout=QUICK_TIMEOUT, new_session=True)
    try:
        dirs, packages = parse_state(result.stdout)
        if packages is None:
            packages = freeze(pip_argv(python, target_pip_version(python)))
        return dirs, packages
    except (ValueError, KeyError, TypeError):
        raise MacmlError(f"Could not read the installed packages of {python}: {result.last_error_line}",
                         "Nothing was changed. Check that the interpreter runs.") from None


def install_dirs(python: str) -> Tuple[str, ...]:
    return read_state(python)[0]


def installed(python: str) -> Dict[str, str]:
    return read_state(python)[1]


def list_dirs(dirs: Sequence[str]) -> Dict[str, FrozenSet[str]]:
    return {d: frozenset(os.listdir(d)) if os.path.isdir(d) else frozenset() for d in dirs}


def record(python: str) -> EnvState:
    dirs, packages = read_state(python)
    return EnvState(packages, list_dirs(dirs))


@dataclass(frozen=True)
class FreezeDiff:
    added: Tuple[str, ...] = ()  # names now present that were not
    changed: Tuple[Tuple[str, str, str], ...] = ()  # (name, before line, after line)
    removed: Tuple[str, ...] = ()  # names gone (their before lines restore them)

    @property
    def empty(self) -> bool:
        return not (self.added or self.changed or self.removed)


def diff_freeze(before: Mapping[str, str], after: Mapping[str, str]) -> FreezeDiff:
    return FreezeDiff(
        added=tuple(sorted(set(after) - set(before))),
        changed=tuple((n, before[n], after[n]) for n in sorted(set(before) & set(after)) if before[n] != after[n]),
        removed=tuple(sorted(set(before) - set(after))),
    )


def debris(before: Mapping[str, FrozenSet[str]], after: Mapping[str, FrozenSet[str]]) -> Tuple[str, ...]:
    """Paths present now that were not before (a half-unpacked wheel, a broken .dist-info, `~` backups)."""
    return tuple(os.path.join(d, name) for d in sorted(before) for name in sorted(after.get(d, frozenset()) - before[d]))


def delete(path: str) -> Optional[str]:
    """Remove a file or a tree; the reason when it could not be."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except OSError as exc:
        return f"could not remove {path}: {exc.strerror}"
    return None


@dataclass(frozen=True)
class Rollback:
    uninstalled: Tuple[str, ...] = ()
    reinstalled: Tuple[str, ...] = ()  # the before lines put back
    removed: Tuple[str, ...] = ()  # leftover paths deleted
    restored: bool = False  # pip freeze and the directory listing equal the recorded ones again
    remaining: Tuple[str, ...] = ()  # differences left, as sentences
    errors: Tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """What it took: 'uninstalled x; reinstalled y==1; removed 2 leftover path(s)'."""
        done = [f"uninstalled {', '.join(self.uninstalled)}" if self.uninstalled else "",
                f"reinstalled {', '.join(self.reinstalled)}" if self.reinstalled else "",
                f"removed {len(self.removed)} leftover path(s)" if self.removed else ""]
        return "; ".join(d for d in done if d) or "nothing had changed"


def roll_back(installer: Installer, python: str, before: EnvState) -> Rollback:
    """Return the target to the recorded state, and say how far that got."""
    try:
        diff = diff_freeze(before.packages, installed(python))
    except MacmlError as exc:  # keep the install's own failure report; say the rollback could not start
        return Rollback(errors=(f"could not read the installed set to roll back: {exc.message}",))
    errors = []
    if diff.added:
        result = run_command(installer.uninstall(diff.added), timeout=QUICK_TIMEOUT * 5, env=installer.env,
                             new_session=True)
        if not result.ok:
            errors.append(f"uninstall failed: {tool_error(result, installer.name)}")
    restore = [before_line for _, before_line, _ in diff.changed] + [before.packages[n] for n in diff.removed]
    if restore:
        result = run_command(installer.reinstall(restore), timeout=PIP_TIMEOUT, env=installer.env, new_session=True)
        if not result.ok:
            errors.append(f"reinstall failed: {tool_error(result, installer.name)}")
    leftovers = debris(before.listing, list_dirs(tuple(before.listing)))
    errors += [why for why in map(delete, leftovers) if why]
    try:
        left = diff_freeze(before.packages, installed(python))
    except MacmlError as exc:
        return Rollback(diff.added, tuple(restore), leftovers, False, (), tuple(errors) + (exc.message,))
    now = list_dirs(tuple(before.listing))
    remaining = describe_diff(left) + tuple(f"left behind: {p}" for p in debris(before.listing, now)) + tuple(
        f"missing: {os.path.join(d, n)}" for d in sorted(now) for n in sorted(before.listing[d] - now[d]))
    return Rollback(diff.added, tuple(restore), leftovers, not remaining, remaining, tuple(errors))


def describe_diff(diff: FreezeDiff) -> Tuple[str, ...]:
    return (tuple(f"still installed: {n}" for n in diff.added)
            + tuple(f"{n}: {after} (was {before})" for n, before, after in diff.changed)
            + tuple(f"missing: {n}" for n in diff.removed))
