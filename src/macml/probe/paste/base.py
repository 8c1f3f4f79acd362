"""What every paste shape shares: the Part a detector finds, and small pure text helpers.

A detector takes the pasted text's lines and returns the Parts it recognises. A Part carries
its 1-based line range and what it adds to a snapshot: command outputs keyed by the argv the
live probe would have run, interpreter fields, framework data, packages and CPU flags.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Pattern, Sequence, Tuple

# Shell prompts people paste with their commands: "$ ", "% ", "> ", "# ", "user@host:~$ ", "PS C:\> ",
# bash's bracketed "[user@host dir]$ " and nix-shell's "[nix-shell:~/src]$ ".
PROMPT = re.compile(r"^\s*(?:\([^)]*\)\s*)?(?:[\w.@~:/-]*[$%#>]|[➜❯]|\[[\w.@~:/ -]+\][$#]|PS [A-Z]:\\[^>]*>|>>)\s+")


@dataclass
class Part:
    shape: str  # "collect_env", "nvidia_smi", ...
    start: int  # 1-based first line
    end: int  # 1-based last line
    platform: Optional[str] = None  # "darwin" / "linux" / "win32" when the shape says so
    commands: Dict[str, str] = field(default_factory=dict)  # command key -> stdout
    interpreter: Dict[str, object] = field(default_factory=dict)
    frameworks: Dict[str, Dict[str, object]] = field(default_factory=dict)
    packages: Dict[str, str] = field(default_factory=dict)
    cpu_flags: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)


def strip_prompt(line: str) -> str:
    return PROMPT.sub("", line, count=1)


def is_prompt_for(line: str, command: str) -> bool:
    """A pasted shell line that ran `command` (with or without a prompt)."""
    text = strip_prompt(line).strip()
    return text == command or text.startswith(command + " ")


def runs(lines: Sequence[str], accept, start: int = 0, gap: int = 0) -> List[Tuple[int, int]]:
    """(first, last) 0-based index ranges of consecutive lines `accept` says yes to,
    allowing up to `gap` unaccepted lines inside a run."""
    found: List[Tuple[int, int]] = []
    first = last = None
    misses = 0
    for index in range(start, len(lines)):
        if accept(lines[index]):
            first = index if first is None else first
            last, misses = index, 0
        elif first is not None:
            misses += 1
            if misses > gap:
                found.append((first, last))
                first = last = None
                misses = 0
    if first is not None:
        found.append((first, last))
    return found


def dedent(lines: Sequence[str]) -> List[str]:
    """Remove the indent every non-blank line shares (a markdown code block's 4 spaces, a tab)."""
    indents = [line[:len(line) - len(line.lstrip(" \t"))] for line in lines if line.strip()]
    common = indents[0] if indents else ""
    for indent in indents[1:]:
        while not indent.startswith(common):
            common = common[:-1]
    return [line[len(common):] if line.startswith(common) else line.lstrip(" \t") for line in lines]


def rows_under(lines: Sequence[str], header: Pattern[str], platform: str,
               row: Callable[[str], Optional[List[Tuple[str, Any]]]], most: int = 16) -> Dict[int, List[Tuple[str, Any]]]:
    """line index -> facts of a listing printed under its header line (rocm-smi's column heads, PowerShell's
    '(Get-WmiObject win32_VideoController).Name'): the header states the platform, then each of up to `most` rows the
    facts `row` gives it; the first line `row` gives none (a blank line, the next command) ends the listing."""
    found: Dict[int, List[Tuple[str, Any]]] = {}
    for index, line in enumerate(lines):
        if not header.match(line):
            continue
        found[index] = [("platform", platform)]
        for follow in range(index + 1, min(len(lines), index + 1 + most)):
            facts = row(lines[follow])
            if not facts:
                break
            found[follow] = facts
    return found
