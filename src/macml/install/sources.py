"""Where a recipe row's packages come from: the row's own index (or PyPI) together with what the
user configured for pip (PIP_INDEX_URL, PIP_EXTRA_INDEX_URL, PIP_FIND_LINKS, pip.conf), read with
`pip config list` in the target, as pip itself merges them.

pip applies the configuration by itself; macml reads it so that the pre-flight asks the same places
pip will, uv (which ignores pip's configuration) is given the same places, and the plan says so.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from typing import Dict, Mapping, Optional, Tuple

from macml.probe.runner import run_command

# pip's precedence for `pip install`: environment variables, then the [install] section, then [global].
_SECTIONS = (":env:", "install", "global")
_KEYS = ("index-url", "extra-index-url", "find-links", "no-index")


@dataclass(frozen=True)
class PipConfig:
    """The package sources the user configured for pip; `origin` says where each was set."""

    index_url: Optional[str] = None
    extra_index_urls: Tuple[str, ...] = ()
    find_links: Tuple[str, ...] = ()
    no_index: bool = False
    origin: Mapping[str, str] = field(default_factory=dict)  # "index-url" -> "PIP_INDEX_URL", "pip config global.index-url"

    @property
    def configured(self) -> bool:
        return bool(self.index_url or self.extra_index_urls or self.find_links or self.no_index)


def parse_config_list(stdout: str) -> PipConfig:
    """`pip config list` -> PipConfig. Lines are `section.key='value'` (a Python literal);
    `:env:` holds the PIP_* variables; several values of one option are separated by spaces.

    >>> parse_config_list(":env:.find-links='/opt/wheels'\\nglobal.index-url='https://m/simple'\\n").index_url
    'https://m/simple'
    """
    found: Dict[Tuple[str, str], str] = {}
    for line in stdout.splitlines():
        name, sep, literal = line.partition("=")
        section, dot, key = name.strip().rpartition(".")
        if not (sep and dot) or key not in _KEYS:
            continue
        try:
            value = ast.literal_eval(literal.strip())
        except (ValueError, SyntaxError):
            continue
        found[(section, key)] = str(value)
    chosen, origin = {}, {}
    for key in _KEYS:
        section = next((s for s in _SECTIONS if (s, key) in found), None)
        if section is not None:
            chosen[key] = found[(section, key)]
            origin[key] = ("PIP_" + key.upper().replace("-", "_")) if section == ":env:" else f"pip config {section}.{key}"
    return PipConfig(index_url=chosen.get("index-url") or None,
                     extra_index_urls=tuple(chosen.get("extra-index-url", "").split()),
                     find_links=tuple(chosen.get("find-links", "").split()),
                     no_index=chosen.get("no-index", "").lower() in ("1", "true", "yes", "on"),
                     origin=origin)


def read_pip_config(python: str) -> PipConfig:
    """The pip configuration `python -m pip` sees; where the target has no pip of its own (macml then
    drives it with its own pip), the one macml's pip sees. None when pip cannot say (pip < 10)."""
    for argv in ([python, "-m", "pip", "config", "list"], [sys.executable, "-m", "pip", "config", "list"]):
        result = run_command(argv, timeout=60)
        if result.ok:
            return parse_config_list(result.stdout)
    return PipConfig()


@dataclass(frozen=True)
class Sources:
    """The places one install looks in, in pip's terms."""

    index_url: Optional[str]  # the primary index: the row's own, else the user's, else None (PyPI)
    row_index: bool  # index_url is the recipe row's own (passed to pip as --index-url)
    config: PipConfig

    @property
    def extra_index_urls(self) -> Tuple[str, ...]:
        return self.config.extra_index_urls

    @property
    def find_links(self) -> Tuple[str, ...]:
        return self.config.find_links

    def describe(self) -> Tuple[str, ...]:
        """One line per kind of place, for the plan."""
        origin = self.config.origin
        if self.row_index:
            lines = [f"index: {self.index_url} (the recipe's own)"]
            if self.config.index_url:
                lines[0] += f"; it replaces your {self.config.index_url} ({origin.get('index-url')}) for this install"
        elif self.config.index_url:
            lines = [f"index: {self.index_url} (your {origin.get('index-url')})"]
        elif self.config.no_index:
            lines = [f"index: none (your {origin.get('no-index')})"]
        else:
            lines = ["index: PyPI"]
        if self.extra_index_urls:
            lines.append(f"extra index: {' '.join(self.extra_index_urls)} (your {origin.get('extra-index-url')})")
        if self.find_links:
            lines.append(f"find-links: {' '.join(self.find_links)} (your {origin.get('find-links')})")
        return tuple(lines)


def install_sources(row_index_url: Optional[str], config: PipConfig, from_pypi: bool = False) -> Sources:
    """The row's index unless --from-pypi; without one, the user's index (a mirror) or PyPI."""
    if row_index_url and not from_pypi:
        return Sources(row_index_url, True, config)
    return Sources(config.index_url, False, config)
