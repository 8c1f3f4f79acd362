"""Shell outputs the `key: value` reader misses:

- `file $(which python)`: '/Users/u/venv/bin/python: Mach-O 64-bit executable x86_64' is that Python's arch
  (a universal binary names several and says nothing of the process);
- a `pip list` row whose name is as long as the name column ('tensorflow-io-gcs-filesystem 0.29.0'): one space
  only, its version in the column the rows around it align;
- `pip list` before pip 10 ('legacy' format): 'tensorflow (1.1.0)' rows, read where two or more stand together;
- macOS's `arch` command and its answer on the next line ('arch' then 'i386' or '> i386'): 'i386' is what `arch`
  prints in a shell translated by Rosetta 2 or on an Intel Mac (Linux's `arch` prints 'x86_64'), so the shell runs
  x86_64 code, and so does a `python` it starts on the lines below;
- systemd's `hostnamectl` ('Static hostname:' ... 'Operating System: OE4Tegra Demonstration Distro 4.0.12+snapshot-...
  (kirkstone-l4t-r32.7)' ... 'Kernel: Linux 4.9.337-...'): a Linux machine, and its distribution as os-release's
  PRETTY_NAME gives it, whatever the name (a build suffix after '+' and a parenthesised codename dropped);
- installed wheels listed by their file names, '.whl' left off or not ('tensorflow-2.19.0-cp39-cp39-macosx_12_0_arm64',
  'keras-3.9.2-py3-none-any'), with a plain 'name-version' among them ('tensorflow-metal-1.2.0'): each a package,
  and a wheel's tags what report_rules.wheel_tag reads from them;
- NVIDIA's placeholder wheels' debug block ('Python Version: CPython 3.10.18', 'CPU Architecture: arm64'): the
  building Python's architecture.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.base import runs
from macml.probe.paste.report_rules import wheel_tag
from macml.probe.paste.statement_rules import Facts, package_facts
from macml.probe.paste.system_rules import arch_word

_FILE_PYTHON = re.compile(r"^\s*\S*/python(?:3(?:\.\d{1,2})?)?:\s+Mach-O 64-bit executable (x86_64|arm64)\s*$")
_PIP_ROW = re.compile(r"^(\s*)([A-Za-z][\w.-]*)(\s+)(\d[\w.+!-]*)\s*$")


def file_python(line: str) -> Facts:
    found = _FILE_PYTHON.match(line)
    return [("platform", "darwin"), ("python.machine", found.group(1))] if found else []


def line_facts(line: str) -> Facts:
    return file_python(line)


def pip_rows(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the package of a one-space `pip list` row aligned with a neighbouring row."""
    rows = {i: _PIP_ROW.match(line) for i, line in enumerate(lines)}
    found: Dict[int, Facts] = {}
    for index, row in rows.items():
        if not row or len(row.group(3)) != 1:
            continue
        column = row.start(4)
        aligned = [rows.get(other) for other in (index - 2, index - 1, index + 1, index + 2)]
        if any(other and len(other.group(3)) >= 2 and other.start(4) == column for other in aligned):
            facts = package_facts(row.group(2).lower(), row.group(4))
            if facts:
                found[index] = facts
    return found


_ARCH_COMMAND = re.compile(r"^\s*(?:[$%❯>]\s*)?arch\s*$")
_ARCH_ANSWER = re.compile(r"^\s*(?:>\s*)?(i386|arm64)\s*$")
_RUNS_PYTHON = re.compile(r"^\s*(?:[$%❯]\s*)?python[\d.]*\s")


def arch_answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the shell's arch that `arch` printed, and the arch of a python run below it in the same block."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        answer = _ARCH_ANSWER.match(lines[index + 1]) if _ARCH_COMMAND.match(line) else None
        if not answer:
            continue
        machine = "x86_64" if answer.group(1) == "i386" else "arm64"
        found[index + 1] = [("platform", "darwin"), ("process.arch", machine)]
        for follow in range(index + 2, min(len(lines), index + 8)):
            if lines[follow].strip().startswith("```"):
                break
            if _RUNS_PYTHON.match(lines[follow]):
                found.setdefault(follow, []).append(("python.machine", machine))
                break
    return found


_LEGACY_PIP_ROW = re.compile(r"^\s*([A-Za-z][\w.-]*) \((\d+(?:\.\d+)+[\w.+-]*)\)\s*$")


def legacy_pip_rows(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the package of an old `pip list` row that has another such row next to it."""
    rows = {i: _LEGACY_PIP_ROW.match(line) for i, line in enumerate(lines)}
    found: Dict[int, Facts] = {}
    for index, row in rows.items():
        if row and (rows.get(index - 1) or rows.get(index + 1)):
            facts = package_facts(row.group(1).lower(), row.group(2))
            if facts:
                found[index] = facts
    return found


_STATIC_HOSTNAME = re.compile(r"^\s*Static hostname:\s*\S+\s*$")
_HOSTNAMECTL_OS = re.compile(r"^\s*Operating System:\s*(\S.*?)\s*$")
_HOSTNAMECTL_KERNEL = re.compile(r"^\s*Kernel:\s*Linux\s+\d")


def hostnamectl_os(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the Linux distribution of `hostnamectl`'s 'Operating System:' row (a 'Static hostname:' row above
    it and a 'Kernel: Linux' row below, within its 12 lines)."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        named = _HOSTNAMECTL_OS.match(line)
        if not named or not any(_STATIC_HOSTNAME.match(above) for above in lines[max(0, index - 8):index]) \
                or not any(_HOSTNAMECTL_KERNEL.match(below) for below in lines[index + 1:index + 4]):
            continue
        name = re.sub(r"\s*\([^)]*\)\s*$", "", named.group(1))
        name = re.sub(r"(\d)\+[\w.-]+", r"\1", name).strip()
        found[index] = [("platform", "linux")] + ([("os.name", name)] if name else [])
    return found


_WHEEL_NAME = re.compile(r"^\s*(?:[-*]\s+)?([A-Za-z][\w.]*?)-(\d[\w.+!]*)-(?:py2\.py3|py3|cp3\d{1,2})-[\w.]+-[\w.]+?(?:\.whl)?\s*$")
_DIST_NAME = re.compile(r"^\s*(?:[-*]\s+)?([A-Za-z][\w.-]*?)-(\d+(?:\.\d+)+)\s*$")


def listed_wheels(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the package (and wheel tags) of each line in a block that lists installed wheels."""
    found: Dict[int, Facts] = {}
    for first, last in runs(lines, lambda l: bool(_WHEEL_NAME.match(l) or _DIST_NAME.match(l))):
        if not any(_WHEEL_NAME.match(line) for line in lines[first:last + 1]):
            continue
        for index in range(first, last + 1):
            named = _WHEEL_NAME.match(lines[index]) or _DIST_NAME.match(lines[index])
            tags = wheel_tag(lines[index].rstrip() + ("" if lines[index].rstrip().endswith(".whl") else ".whl"))
            found[index] = package_facts(named.group(1).replace("_", "-").lower(), named.group(2)) + tags
    return found


_PLACEHOLDER_PYTHON = re.compile(r"^\s*Python Version:\s*CPython \d+\.\d+\.\d+\s*$")
_PLACEHOLDER_ARCH = re.compile(r"^\s*CPU Architecture:\s*(arm64|aarch64|x86_64|AMD64)\s*$")


def placeholder_debug(lines: Sequence[str]) -> Dict[int, Facts]:
    """NVIDIA's placeholder wheels' debug block ('Python Version: CPython 3.10.18' ... 'CPU Architecture: arm64'): the
    build ran in that Python, so the architecture is its platform.machine()."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _PLACEHOLDER_PYTHON.match(line):
            continue
        for near in range(index + 1, min(len(lines), index + 4)):
            arch = _PLACEHOLDER_ARCH.match(lines[near])
            if arch:
                found[near] = [("python.machine", arch_word(arch.group(1)))]
    return found


def answers(lines: Sequence[str]) -> Dict[int, List]:
    return {**legacy_pip_rows(lines), **pip_rows(lines), **arch_answers(lines), **hostnamectl_os(lines),
            **listed_wheels(lines), **placeholder_debug(lines)}
