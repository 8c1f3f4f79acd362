"""Messages only macOS prints, which place a pasted session on a Mac:

- softwareupdate's 'Install of Rosetta 2 finished successfully' (`softwareupdate --install-rosetta`): Rosetta 2
  installs only on Apple silicon; an Intel Mac answers that installing it is not supported there;
- 'Bad CPU type in executable' (`arch: posix_spawnp: python: Bad CPU type in executable`, zsh's
  'zsh: bad CPU type in executable: ./x'): the text of macOS's EBADARCH, the errno for a binary without a slice
  this CPU runs. It says the OS, not which slice was missing.
- Finder's 'Open using Rosetta' checkbox set for the terminal ('Terminal is set to “Open using Rosetta”'): the shell,
  and what it starts, runs translated on Apple silicon (the checkbox exists only there). Not from a question, a
  denial, or a step someone advises ('if ... set Terminal to Open using Rosetta');
- `flutter doctor`'s 'Flutter (Channel stable, 3.35.3, on macOS 15.6.1 24G90 darwin-arm64 (Rosetta), ...': the host
  platform is the hardware's (darwin-arm64: Apple silicon, darwin-x64: Intel), and '(Rosetta)' says the flutter tool
  itself ran translated (flutter_tools' OperatingSystemUtils appends it when the process is under Rosetta);
- an OpenGL version string with macOS's GL driver bundle after it ('2.1 INTEL-10.6.31', '4.1 ATI-3.9.15',
  '2.1 NVIDIA-10.4.2 310.41.35f01', '4.1 Metal - 88'): the GPU's maker on a Mac (Apple's drivers name them so);
- `arch -x86_64 python ...` answered by 'arch: posix_spawnp: python: Bad CPU type in executable': that Python
  has no x86_64 slice, so on a Mac it is an arm64-only build (and `arch -arm64` failing so: x86_64-only).

The first five are pure functions of one line; `answers` reads a command with the error under it.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.base import strip_prompt
from macml.probe.paste.said_of_this_machine import hypothetical, negated

Facts = List[Tuple[str, Any]]

_ROSETTA_INSTALLED = re.compile(r"^\s*Install of Rosetta 2 finished successfully\b")
_BAD_CPU_TYPE = re.compile(r"\bbad CPU type in executable\b", re.IGNORECASE)
_TERMINAL_ROSETTA = re.compile(r"\b(?:Terminal|iTerm2?|Warp)(?:\.app)?\s+(?:is\s+)?(?:set\s+to|opened\s+with|runs?\s+with|with)\s+"
                               r"[“\"']?Open using Rosetta\b", re.IGNORECASE)
_FLUTTER_HOST = re.compile(r"\bFlutter \(Channel [^,]*, [^,]*, on (?:macOS|Mac OS X) [^,]*?\bdarwin-(arm64|x64)\b(\s+\(Rosetta\))?")
_GL_DRIVER = re.compile(r"(?<![\w.])[1-4]\.\d\s+(INTEL|ATI|AMD|NVIDIA)-\d+\.\d+(?:\.\d+)*\b")
_GL_VENDORS = {"INTEL": "Intel", "ATI": "AMD", "AMD": "AMD", "NVIDIA": "NVIDIA"}
_ARCH_RUN = re.compile(r"^arch\s+-(x86_64|arm64)\s+(?:\S*/)?(python(?:3(?:\.\d+)?)?)\b")
_OTHER_SLICE = {"x86_64": "arm64", "arm64": "x86_64"}


def rosetta_installed(line: str) -> Facts:
    """'Install of Rosetta 2 finished successfully': an Apple silicon Mac."""
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")] if _ROSETTA_INSTALLED.match(line) else []


def bad_cpu_type(line: str) -> Facts:
    """'Bad CPU type in executable': macOS's error for a binary with no slice for this CPU."""
    return [("platform", "darwin")] if _BAD_CPU_TYPE.search(line) else []


def terminal_under_rosetta(line: str) -> Facts:
    """'Terminal is set to “Open using Rosetta”': the shell's processes run translated on an Apple-silicon Mac."""
    found = _TERMINAL_ROSETTA.search(line)
    if not found or hypothetical(line) or negated(line[:found.start()]):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True)]


def flutter_host(line: str) -> Facts:
    """'[✓] Flutter (Channel stable, 3.35.3, on macOS 15.6.1 24G90 darwin-arm64 (Rosetta), ...'."""
    found = _FLUTTER_HOST.search(line)
    if not found:
        return []
    facts: Facts = [("platform", "darwin"), ("cpu.hardware_arch", "arm64" if found.group(1) == "arm64" else "x86_64")]
    return facts + ([("process.translated", True), ("process.arch", "x86_64")] if found.group(2) else [])


def gl_driver(line: str) -> Facts:
    """"GL version:  '2.1 INTEL-10.6.31'": a Mac with an Intel GPU."""
    found = _GL_DRIVER.search(line)
    return [("platform", "darwin"), ("gpu.present", _GL_VENDORS[found.group(1)])] if found else []


def line_facts(line: str) -> Facts:
    return (rosetta_installed(line) or bad_cpu_type(line) or terminal_under_rosetta(line) or flutter_host(line)
            or gl_driver(line))


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """`arch -x86_64 python` with 'arch: posix_spawnp: python: Bad CPU type in executable' right under it (blank
    lines aside): the Python's one slice is the other arch."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        run = _ARCH_RUN.match(strip_prompt(line).strip())
        following = [i for i in range(index + 1, min(len(lines), index + 4)) if lines[i].strip()][:1]
        if run and following and _BAD_CPU_TYPE.search(lines[following[0]]) \
                and f"{run.group(2)}:" in lines[following[0]]:
            found[following[0]] = [("platform", "darwin"), ("python.machine", _OTHER_SLICE[run.group(1)])]
    return found
