"""pip and uv as installers: which one and how to run it, their plans, freeze, and their errors.

Every run goes through macml.probe.runner.run_command in its own process group (a Ctrl-C reaches
macml, which stops the installer and rolls back); parsing their output is done by pure functions
tested on literal strings.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import signal
import sys
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple
from urllib.parse import urlparse

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from macml.errors import MacmlError
from macml.install.downloads import Download, parse_report, with_sizes
from macml.install.sources import Sources
from macml.probe.runner import CommandResult, run_command

PIP_TIMEOUT = 3600.0  # torch wheels are gigabytes on slow links
QUICK_TIMEOUT = 120.0
PIP_PYTHON_OPTION = Version("22.3")  # first pip with --python TARGET
PIP_REPORT = Version("22.2")  # first pip with `install --dry-run --report`
# An unreachable index fails in seconds, not after pip's default 5 retries with backoff (~80 s).
NET_RETRIES = 1
NET_TIMEOUT = 15  # seconds per connection attempt
DEFAULT_INDEX = "https://pypi.org/simple"


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


@functools.lru_cache(maxsize=None)  # plan and apply ask about the same interpreter
def target_pip_version(python: str) -> Optional[str]:
    result = run_command([python, "-m", "pip", "--version"], timeout=QUICK_TIMEOUT)
    return parse_pip_version(result.stdout) if result.ok else None


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


def find_uv() -> Optional[str]:
    """uv on PATH, else the binary of the `uv` wheel installed beside macml (`pip install uv`)."""
    found = shutil.which("uv")
    if found:
        return found
    try:
        from uv import find_uv_bin
    except ImportError:
        return None
    try:
        return find_uv_bin()
    except FileNotFoundError:
        return None


@dataclass(frozen=True)
class Installer:
    """pip (`python -m pip ...`) or uv (`uv pip ... --python TARGET`), with bounded network retries."""

    name: str  # "pip" or "uv"
    base: Tuple[str, ...]  # the command up to the subcommand

    def _run(self, sub: str, *args: str) -> List[str]:
        if self.name == "uv":  # uv pip SUB ... --python TARGET
            return [self.base[0], "pip", sub, *self.base[1:], *args]
        return [*self.base, sub, "--retries", str(NET_RETRIES), "--timeout", str(NET_TIMEOUT), *args]

    @property
    def env(self) -> Mapping[str, str]:
        if self.name == "uv":
            return dict(os.environ, UV_HTTP_TIMEOUT=str(NET_TIMEOUT), UV_HTTP_RETRIES=str(NET_RETRIES))
        return dict(os.environ)

    def install(self, requirements: Sequence[str], sources: Sources) -> List[str]:
        return self._run("install", *self.source_options(sources), *requirements)

    def uninstall(self, names: Sequence[str]) -> List[str]:
        return self._run("uninstall", *(() if self.name == "uv" else ("--yes",)), *names)

    def reinstall(self, lines: Sequence[str]) -> List[str]:
        return self._run("install", "--no-deps", *lines)

    def plan(self, requirements: Sequence[str], sources: Sources, ignore_installed: bool = False) -> List[str]:
        where = self.source_options(sources)
        if self.name == "uv":  # a new venv: the whole resolution; else what would change in the target
            if ignore_installed:
                return self._run("compile", "--quiet", *where, "-")
            return self._run("install", "--dry-run", *where, *requirements)
        extra = ("--ignore-installed",) if ignore_installed else ()  # for a venv that does not exist yet
        return self._run("install", "--dry-run", "--report", "-", "--quiet", *extra, *where, *requirements)

    def source_options(self, sources: Sources) -> List[str]:
        """pip reads the user's configuration itself: it is told only the row's own index. uv reads
        none of it, so it is given every place pip would look."""
        if self.name != "uv":
            return ["--index-url", sources.index_url] if sources.row_index else []
        options = ["--index-url", sources.index_url] if sources.index_url else []
        for url in sources.extra_index_urls:
            options += ["--extra-index-url", url]
        for place in sources.find_links:
            options += ["--find-links", place]
        return options


def pip_installer(python: str, pip_version: Optional[str] = None) -> Installer:
    """pip for `python`; pip_version: its pip's version where the probe said it (saves asking pip)."""
    return Installer("pip", pip_argv(python, pip_version or target_pip_version(python)))


def uv_installer(python: str) -> Optional[Installer]:
    uv = find_uv()
    return Installer("uv", (uv, "--python", python)) if uv else None


_PINNED_LINE = re.compile(r"^\s*(?:\+\s*)?([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")


def parse_uv_plan(output: str) -> Tuple[Tuple[str, str], ...]:
    """uv's ` + six==1.17.0` (install --dry-run) or `six==1.17.0` (compile) lines -> ((name, version), ...).
    `- six==1.16.0` (what would be replaced) and `#` comments are skipped."""
    picked = []
    for line in output.splitlines():
        found = _PINNED_LINE.match(line)
        if found:
            picked.append((found.group(1), found.group(2)))
    return tuple(picked)


_HOST = re.compile(r"host='([^']+)'|https?://([^/\s:'\"]+)")
_NETWORK = ("NewConnectionError", "Failed to establish a new connection", "ConnectTimeout", "ConnectionError",
            "Temporary failure in name resolution", "Name or service not known", "Network is unreachable",
            "Max retries exceeded", "Connection refused", "error sending request", "dns error", "tcp connect error")


def unreachable_host(stderr: str, index_url: Optional[str]) -> Optional[str]:
    """The host a failed pip/uv run could not reach, or None when the failure was not the network.
    pip's retry warnings name the path but not always the host: then it is the index's."""
    if not any(marker in stderr for marker in _NETWORK):
        return None
    for line in stderr.splitlines():
        if any(marker in line for marker in _NETWORK):
            found = _HOST.search(line)
            if found:
                return found.group(1) or found.group(2)
    return urlparse(index_url or os.environ.get("PIP_INDEX_URL") or DEFAULT_INDEX).netloc or None


def tool_error(result: CommandResult, tool: str = "pip", index_url: Optional[str] = None,
               suggest_offline: bool = False) -> str:
    """Why pip or uv failed, in one sentence or a few of its ERROR lines. suggest_offline: name
    --offline for an unreachable host (the plan, where it was not given)."""
    if result.timed_out:
        return f"{tool} timed out: {result.stderr.strip()}"
    if result.missing:
        return f"cannot run {result.argv[0]}"
    if result.returncode is not None and result.returncode < 0:
        return f"{tool} was killed by {signal.Signals(-result.returncode).name}"
    host = unreachable_host(result.stderr, index_url)
    if host:
        hint = "; --offline skips macml's own PyPI check" if suggest_offline else ""
        return f"cannot reach {host} (no network, a proxy, or the index is down). Check the connection{hint}"
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith(("ERROR", "error:", "  ×", "  ╰"))]
    return "\n".join(errors or lines[-8:]) or f"{tool} exited with status {result.returncode}"



@dataclass(frozen=True)
class Plan:
    argv: Tuple[str, ...]
    downloads: Tuple[Download, ...] = ()  # what it would install (uv's plan names no files)
    error: Optional[str] = None
    tool: str = "pip"
    unreachable: Optional[str] = None  # the host pip or uv could not reach

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def command(self) -> str:
        return " ".join(self.argv)

    @property
    def packages(self) -> Tuple[Tuple[str, str], ...]:
        return tuple((d.name, d.version) for d in self.downloads)


def make_plan(installer: Installer, requirements: Sequence[str], sources: Sources, ignore_installed: bool = False,
              offline: bool = False) -> Plan:
    argv = installer.plan(requirements, sources, ignore_installed)
    stdin = "\n".join(requirements) + "\n" if argv[-1] == "-" and installer.name == "uv" else None
    result = run_command(argv, timeout=PIP_TIMEOUT, env=installer.env, input_text=stdin, new_session=True)
    shown = tuple(argv) if stdin is None else tuple(argv) + ("<<", *requirements)
    if not result.ok:
        return Plan(shown, error=tool_error(result, installer.name, sources.index_url, not offline), tool=installer.name,
                    unreachable=unreachable_host(result.stderr, sources.index_url))
    if installer.name == "uv":
        picked = parse_uv_plan(result.stdout + "\n" + result.stderr)
        return Plan(shown, tuple(Download(n, v) for n, v in picked), tool="uv")
    try:
        return Plan(shown, with_sizes(parse_report(result.stdout), network=not offline))
    except ValueError as exc:
        return Plan(shown, error=f"could not read pip's report: {exc}")


# ---------------------------------------------------------------- freeze


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
    result = run_command(list(pip) + ["freeze", "--all"], timeout=QUICK_TIMEOUT, new_session=True)
    if not result.ok:
        raise MacmlError(f"`pip freeze` failed in the target: {tool_error(result)}",
                         "Nothing was changed. Check that the interpreter's pip works.")
    return parse_freeze(result.stdout)
