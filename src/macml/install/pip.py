"""pip in the target interpreter: plan (dry-run report), freeze, install, and roll back.

Every pip run goes through macml.probe.runner.run_command with a long timeout; parsing pip's
output is done by pure functions tested on literal strings.
"""
from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from macml.errors import MacmlError
from macml.probe.runner import CommandResult, run_command

PIP_TIMEOUT = 3600.0  # torch wheels are gigabytes on slow links
QUICK_TIMEOUT = 120.0
PIP_PYTHON_OPTION = Version("22.3")  # first pip with --python TARGET
PIP_REPORT = Version("22.2")  # first pip with `install --dry-run --report`


def running_pip_version() -> Optional[str]:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return None
    try:
        return version("pip")
    except PackageNotFoundError:
        return None


def parse_pip_version(stdout: str) -> Optional[str]:
    """`pip 22.0.4 from /path (python 3.7)` -> "22.0.4"."""
    parts = stdout.split()
    return parts[1] if len(parts) > 1 and parts[0] == "pip" else None


def pip_argv(target: str, target_pip: Optional[str], runner_pip: Optional[str] = None) -> Tuple[str, ...]:
    """How to run pip for target: its own pip when it can plan (>= 22.2), else this
    interpreter's pip with --python (old venvs ship pip 18-22), else its own old pip."""
    if target_pip and Version(target_pip) >= PIP_REPORT:
        return (target, "-m", "pip")
    runner_pip = runner_pip if runner_pip is not None else running_pip_version()
    if runner_pip and Version(runner_pip) >= PIP_PYTHON_OPTION:
        return (sys.executable, "-m", "pip", "--python", target)
    if target_pip:
        return (target, "-m", "pip")
    raise MacmlError(f"{target} has no pip, and macml's own pip ({runner_pip or 'none'}) is too old to drive it.",
                     f"Run `{target} -m ensurepip --upgrade`, then try again.")


def uv_argv(target: str) -> Optional[Tuple[str, ...]]:
    uv = shutil.which("uv")
    return (uv, "pip", "--python", target) if uv else None


def index_options(index_url: Optional[str]) -> List[str]:
    return ["--index-url", index_url] if index_url else []


def plan_argv(pip: Sequence[str], requirements: Sequence[str], index_url: Optional[str],
              ignore_installed: bool = False) -> List[str]:
    argv = list(pip) + ["install", "--dry-run", "--report", "-", "--quiet"]
    if ignore_installed:  # planning for a venv that does not exist yet: assume nothing is installed
        argv.append("--ignore-installed")
    return argv + index_options(index_url) + list(requirements)


def install_argv(pip: Sequence[str], requirements: Sequence[str], index_url: Optional[str]) -> List[str]:
    return list(pip) + ["install"] + index_options(index_url) + list(requirements)


def parse_report(stdout: str) -> Tuple[Tuple[str, str], ...]:
    """pip's --report JSON -> ((name, version), ...) it would install."""
    start = stdout.find("{")
    if start < 0:
        raise ValueError("no JSON report in pip's output")
    report = json.loads(stdout[start:])
    picked = []
    for item in report.get("install") or []:
        meta = item.get("metadata") or {}
        picked.append((str(meta.get("name", "?")), str(meta.get("version", "?"))))
    return tuple(picked)


def pip_error(result: CommandResult) -> str:
    """The lines of pip's stderr worth showing (ERROR lines, else the tail)."""
    if result.timed_out:
        return f"pip timed out: {result.stderr.strip()}"
    if result.missing:
        return f"cannot run {result.argv[0]}"
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("ERROR")]
    return "\n".join(errors or lines[-8:]) or f"pip exited with status {result.returncode}"


@dataclass(frozen=True)
class Plan:
    argv: Tuple[str, ...]
    packages: Tuple[Tuple[str, str], ...] = ()
    error: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def command(self) -> str:
        return " ".join(self.argv)


def make_plan(pip: Sequence[str], requirements: Sequence[str], index_url: Optional[str],
              ignore_installed: bool = False) -> Plan:
    argv = plan_argv(pip, requirements, index_url, ignore_installed)
    result = run_command(argv, timeout=PIP_TIMEOUT)
    if not result.ok:
        return Plan(tuple(argv), error=pip_error(result))
    try:
        return Plan(tuple(argv), parse_report(result.stdout))
    except ValueError as exc:
        return Plan(tuple(argv), error=f"could not read pip's report: {exc}")


# ---------------------------------------------------------------- freeze and rollback


def parse_freeze(stdout: str) -> Dict[str, str]:
    """`pip freeze --all` -> {canonical name: line}; editable and unparsable lines are left out."""
    found = {}
    for line in stdout.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-e", "--")):
            continue
        try:
            found[canonicalize_name(Requirement(line).name)] = line
        except InvalidRequirement:
            continue
    return found


def freeze(pip: Sequence[str]) -> Dict[str, str]:
    result = run_command(list(pip) + ["freeze", "--all"], timeout=QUICK_TIMEOUT)
    if not result.ok:
        raise MacmlError(f"`pip freeze` failed in the target: {pip_error(result)}",
                         "Nothing was changed. Check that the interpreter's pip works.")
    return parse_freeze(result.stdout)


@dataclass(frozen=True)
class FreezeDiff:
    added: Tuple[str, ...] = ()  # names now present that were not
    changed: Tuple[Tuple[str, str, str], ...] = ()  # (name, before line, after line)
    removed: Tuple[str, ...] = ()  # names gone (their before lines restore them)

    @property
    def empty(self) -> bool:
        return not (self.added or self.changed or self.removed)


def diff_freeze(before: Dict[str, str], after: Dict[str, str]) -> FreezeDiff:
    return FreezeDiff(
        added=tuple(sorted(set(after) - set(before))),
        changed=tuple((n, before[n], after[n]) for n in sorted(set(before) & set(after)) if before[n] != after[n]),
        removed=tuple(sorted(set(before) - set(after))),
    )


@dataclass(frozen=True)
class Rollback:
    uninstalled: Tuple[str, ...] = ()
    reinstalled: Tuple[str, ...] = ()  # the before lines put back
    restored: bool = False  # pip freeze equals the recorded set again
    remaining: Tuple[str, ...] = ()  # differences left, as sentences
    errors: Tuple[str, ...] = ()


def roll_back(pip: Sequence[str], before: Dict[str, str]) -> Rollback:
    """Return the target to the recorded `pip freeze` set, and say how far that got."""
    try:
        diff = diff_freeze(before, freeze(pip))
    except MacmlError as exc:  # keep the install's own failure report; say the rollback could not start
        return Rollback((), (), False, (), (f"could not read the installed set to roll back: {exc.message}",))
    errors = []
    if diff.added:
        result = run_command(list(pip) + ["uninstall", "--yes"] + list(diff.added), timeout=QUICK_TIMEOUT * 5)
        if not result.ok:
            errors.append(f"uninstall failed: {pip_error(result)}")
    restore = [before_line for _, before_line, _ in diff.changed] + [before[n] for n in diff.removed]
    if restore:
        result = run_command(list(pip) + ["install", "--no-deps"] + restore, timeout=PIP_TIMEOUT)
        if not result.ok:
            errors.append(f"reinstall failed: {pip_error(result)}")
    try:
        left = diff_freeze(before, freeze(pip))
    except MacmlError as exc:
        return Rollback(diff.added, tuple(restore), False, (), tuple(errors) + (exc.message,))
    return Rollback(diff.added, tuple(restore), left.empty, describe_diff(left), tuple(errors))


def describe_diff(diff: FreezeDiff) -> Tuple[str, ...]:
    return (tuple(f"still installed: {n}" for n in diff.added)
            + tuple(f"{n}: {after} (was {before})" for n, before, after in diff.changed)
            + tuple(f"missing: {n}" for n in diff.removed))
