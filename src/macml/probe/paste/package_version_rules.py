"""Package versions stated away from the package's name:

- a one-line Python command that prints modules' versions, and its output: 'python -c "import torch; import
  intel_extension_for_pytorch as ipex; print(torch.__version__); print(ipex.__version__)"' then, a few lines on
  (past a fence or a 'The result is:' line), '2.1.0a0+cxx11.abi' and '2.1.10+xpu', one printed version a line;
- an issue form's heading that names a package, answered by its version: '### Jetson-Stats', then ' - Version: 4.3.2';
- a module's version as a REPL printed it beside its expression: "llvmlite.__version__: '0.44.0'".
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.python_prose_rules import past_warning
from macml.probe.paste.statement_rules import Facts, package_facts

_COMMAND = re.compile(r"\bpython[\d.]*\s+-c\s+(.+)$")
_PRINT = re.compile(r"\bprint\(")
_VERSION_PRINT = re.compile(r"\bprint\(\s*([A-Za-z_]\w*)\.__version__\s*\)")
_ALIAS = re.compile(r"\bimport\s+([A-Za-z_][\w.]*)\s+as\s+([A-Za-z_]\w*)")
_VERSION_LINE = re.compile(r"^\s*v?(\d+\.\d+[\w.+-]*)\s*$")
_BETWEEN = re.compile(r"^\s*(?:```\w*|[^`]{0,80}:)?\s*$")  # a fence, a blank line, or prose leading into the output


def _printed_modules(command: str) -> List[str]:
    """The modules whose versions the command prints first, in order ('ipex' read as the module it aliases)."""
    aliases = {alias: module for module, alias in _ALIAS.findall(command)}
    modules: List[str] = []
    for call in _PRINT.finditer(command):
        version = _VERSION_PRINT.match(command, call.start())
        if not version:
            break  # a later print's output would be mixed in with ours
        modules.append(aliases.get(version.group(1), version.group(1)))
    return modules


# one word that names a package ('Jetson-Stats', 'pyannote.audio'), not a section of the form
_HEADING = re.compile(r"^\s*#{2,4}\s+([A-Za-z][\w.-]*[-_.][\w.-]*[A-Za-z0-9])\s*$")
_VERSION_ANSWER = re.compile(r"^\s*[-*]?\s*Version\s*:\s*v?(\d+(?:\.\d+)+\S*)\s*$", re.IGNORECASE)


def heading_versions(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the package the heading above names, at the version answered on this line."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        heading = _HEADING.match(line)
        answer = next((i for i in range(index + 1, min(len(lines), index + 4)) if lines[i].strip()), None)
        version = _VERSION_ANSWER.match(lines[answer]) if heading and answer is not None else None
        if version:
            found[answer] = package_facts(heading.group(1).lower(), version.group(1))
    return found


# an issue template's question 'What does `torchaudio.__version__` print? (If applicable)', answered on the next line
_VERSION_QUESTION = re.compile(r"\bWhat does `([A-Za-z_]\w*)\.__version__` print\b", re.IGNORECASE)
_QUOTED_VERSION = re.compile(r"^\s*>?\s*['\"]?v?(\d+\.\d+(?:\.\d+)?[\w.+-]*?)['\"]?\s*$")


def asked_versions(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the module's version the line answers under its '`X.__version__` print?' question."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        asked = _VERSION_QUESTION.search(line)
        answer = next((i for i in range(index + 1, min(len(lines), index + 3)) if lines[i].strip()), None) if asked else None
        version = _QUOTED_VERSION.match(lines[answer]) if answer is not None else None
        if version:
            found[answer] = package_facts(asked.group(1).lower(), version.group(1))
    return found


_PRINTED_BESIDE = re.compile(r"^\s*[-*]?\s*`?([A-Za-z_]\w*)\.__version__`?\s*[:=]\s*['\"](\d+\.\d+[\w.+-]*)['\"]\s*$")


def printed_beside(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> "llvmlite.__version__: '0.44.0'" read as llvmlite 0.44.0."""
    found = ((index, _PRINTED_BESIDE.match(line)) for index, line in enumerate(lines))
    return {index: package_facts(m.group(1).lower(), m.group(2)) for index, m in found if m}


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the version printed on it for the module the command printed in that place, or answered
    under a heading (or a question) that names the package."""
    found: Dict[int, Facts] = {**heading_versions(lines), **asked_versions(lines), **printed_beside(lines)}
    for index, line in enumerate(lines):
        command = _COMMAND.search(line)
        modules = _printed_modules(command.group(1)) if command else []
        if not modules:
            continue
        start = past_warning(lines, index + 1)  # a warning the imports printed comes before the versions
        while start < min(len(lines), index + 7) and _BETWEEN.match(lines[start]) and not _VERSION_LINE.match(lines[start]):
            start = past_warning(lines, start + 1)
        printed = [_VERSION_LINE.match(lines[i]) if i < len(lines) else None for i in range(start, start + len(modules))]
        if not all(printed):
            continue
        for offset, (module, version) in enumerate(zip(modules, printed)):
            found.setdefault(start + offset, []).extend(package_facts(module.lower(), version.group(1)))
    return found
