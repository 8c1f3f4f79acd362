"""Python's own build string (sys.version), wherever a tool prints it: reticulate's py_config() 'version:
3.9.12 | packaged by conda-forge | (main, Mar 24 2022, 23:25:14)  [Clang 12.0.1 ]', a startup banner, a log's
'Python: 3.10.15 (main, Nov 20 2024, 16:40:35) [Clang 16.0.0 ...]'. The version, the build tag and its date in
parentheses are printed only by the interpreter about itself, so the line states the Python the text runs.

A conda distribution named with its architecture ('conda (Miniforge 3 ARM64)', 'Miniforge3-MacOSX-arm64.sh') installs
a Python of that architecture.

The compiler tag that closes it says the OS where it is plain GCC ('[GCC 11.2.0]', '[GCC 8.5.0 20210514 (Red Hat
8.5.0-4)]'), on the build string's line or alone on the next: CPython on Linux is built with GCC; macOS's builds say
Clang or 'GCC 4.2.1 Compatible Apple LLVM', Windows' MSC, MSYS2's 'GCC 13.2.0 64 bit (AMD64)'.

A pip command the writer ran with '--break-system-packages' installs into an externally managed (PEP 668) Python:
pip adds that flag's override only for such an interpreter, and the writer typed it because pip refused.

A version typed without that build part ('works on 3.9.12') is not read here; nor a line that denies it or puts
it as a question or condition (said_of_this_machine).
"""
from __future__ import annotations

import re

from macml.probe.paste.said_of_this_machine import hypothetical, mentioned_only, negated
from macml.probe.paste.statement_rules import Facts

_BUILD_STRING = re.compile(
    r"(?<![\w.])(3\.\d{1,2}\.\d{1,2})(?:(?:a|b|rc)\d+)?\+?\s*(?:\|[^|\n]{1,80}\|\s*)?"
    r"\((?:main|default|tags/[\w.:/+-]+|heads/[\w.:/+-]+|[\w.:/+-]{1,40}),\s*[A-Z][a-z]{2}\s+\d{1,2}\s+\d{4},\s*\d{1,2}:\d{2}(?::\d{2})?\)")


def build_string_version(line: str) -> Facts:
    """'3.10.15 (main, Nov 20 2024, 16:40:35) [Clang 16.0.0]' -> Python 3.10.15."""
    found = _BUILD_STRING.search(line)
    if not found or mentioned_only(line, found.start(), found.end()):
        return []
    return [("python.version", found.group(1))]


_LINUX_GCC = re.compile(r"(?:^|\)\s*)\[GCC \d{1,2}\.\d{1,2}\.\d{1,2}(?: \d{8}(?: \((?:Red Hat|Debian|Ubuntu|Alpine)[^)]*\))?)?\]\s*$")


def gcc_build(line: str) -> Facts:
    """'3.8.18 (default, Sep 11 2023, 13:40:15) [GCC 11.2.0]' or '[GCC 11.2.0]' alone -> Linux."""
    found = _LINUX_GCC.search(line)
    if not found or (found.start() and not _BUILD_STRING.search(line)):
        return []
    return [("platform", "linux")]


_CONDA_ARCH = re.compile(r"\b(?:Mini(?:forge|conda|mamba)|Mambaforge|Anaconda)\s?3?(?:[\s-]+(?:latest|MacOSX|Linux))*[\s-]+"
                         r"(arm64|aarch64|x86_64)\b", re.IGNORECASE)


def conda_distribution_arch(line: str) -> Facts:
    found = _CONDA_ARCH.search(line)
    if not found or negated(line[:found.start()]) or hypothetical(line):
        return []
    return [("python.machine", found.group(1).lower())]


_FORCED_PIP = re.compile(r"\bpip3?(?:\.\d+)?\s+install\b[^`\n]*?\s--break-system-packages\b")


def forced_pip(line: str) -> Facts:
    """'`pip install torch --break-system-packages`' -> an externally managed Python."""
    found = _FORCED_PIP.search(line)
    if not found or negated(line[:found.start()]) or hypothetical(line) or mentioned_only(line, found.start(), found.end()):
        return []
    return [("python.externally_managed", True)]


# sys.version of a conda-built CPython: '3.9.12 | packaged by conda-forge | (main, ...)', '3.6.8 |Anaconda, Inc.| (...)'
_CONDA_BUILT = re.compile(r"\b3\.\d{1,2}\.\d{1,2}\s*\|\s*(?:packaged by (?:conda-forge|Anaconda, Inc\.)|Anaconda(?:, Inc\.)?|"
                          r"Continuum Analytics, Inc\.)\s*\|")


def conda_python(line: str) -> Facts:
    """A Python banner or sys.version naming conda's build: a conda environment's interpreter (conda-forge builds
    its own packages for osx-arm64, whatever PyPI had)."""
    return [("python.conda", True)] if _CONDA_BUILT.search(line) else []


def jax_mac_arm_warning(line: str) -> Facts:
    """jax 0.2-0.3 warned 'JAX on Mac ARM machines is experimental' only where platform.system() is Darwin and
    platform.machine() is arm64 (jax/_src/lib/__init__.py): the Python that imported it is a native arm64 one."""
    return [("platform", "darwin"), ("python.machine", "arm64")] if "JAX on Mac ARM machines is experimental" in line else []


def line_facts(line: str) -> Facts:
    return (build_string_version(line) + conda_distribution_arch(line) + gcc_build(line) + forced_pip(line)
            + conda_python(line) + jax_mac_arm_warning(line))
