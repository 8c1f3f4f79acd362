"""x86_64 Python environments as people describe them or as their libraries fail:

- 'a Rosetta-based Conda Environment', 'a conda environment which runs via rosetta': a Python translated by
  Rosetta 2 (which exists only on Apple silicon);
- 'Intel MKL FATAL ERROR: This system does not meet the minimum requirements for use of the Intel(R) Math Kernel
  Library': Intel MKL's CPU check, printed by an MKL-linked numpy/scipy/torch. MKL is built for x86 only
  (intel.com oneMKL system requirements), so the Python that loaded it is x86_64; on Apple silicon that is a
  Rosetta process, whose CPU lacks AVX before macOS 15 (diagnose/cpu_checks.check_rosetta_avx).
- llvmlite's or LLVM's host CPU asked from Python ('`llvmbind.get_host_cpu_name()` ... results in `'apple-m1'`'):
  LLVM names an Apple core only to an arm64 process (under Rosetta CPUID shows an x86 CPU), so the Python is native.

Each rule is a pure function of one line.
"""
from __future__ import annotations

import re
from macml.probe.paste.said_of_this_machine import NEGATION
from typing import Any, List, Tuple

Facts = List[Tuple[str, Any]]

_ENV = r"(?:conda|miniconda|anaconda|mamba|python3?|venv|virtualenv|pyenv)(?:\s+(?:env|environment|install|interpreter))?"
_BASED_ENV = re.compile(r"\brosetta(?:[- ]2)?[- ](?:based|translated|emulated|powered|backed)\s+" + _ENV + r"\b", re.IGNORECASE)
_ENV_VIA = re.compile(r"\b" + _ENV + r"s?\s+(?:which|that)\s+(?:runs?|is running|is run|works?)\s+(?:via|through|under|in|with)\s+"
                      r"(?:the\s+)?rosetta\b", re.IGNORECASE)
# 'in a macOS rosetta environment': an article makes it the writer's own environment, not rosetta environments at large
_A_ROSETTA_ENV = re.compile(r"\b(?:an?|my|the|our)\s+(?:macOS\s+)?rosetta(?:[- ]2)?\s+(?:env|environment|shell|terminal)\b", re.IGNORECASE)
# 'an x86_64 conda installation', 'my x86 miniconda': a Python built for x86_64, wherever it runs
_X86_ENV = re.compile(r"\b(?:an?|my|the|our)\s+(?:x86[_-]64|x86|x64|amd64|intel)\s+(?:conda|miniconda|anaconda|miniforge|mambaforge|python3?)"
                      r"(?:\s+(?:installation|install|env|environment|distribution|interpreter))?\b", re.IGNORECASE)
# ... nor one the writer left, was told to try, or runs beside a native one ('I switched from the x86 conda to arm64
# miniforge', 'Using the rosetta terminal was the fix suggested, I use native arm64').
_NOT_NOW = re.compile(r"\b(?:from|switched|switching|moved|migrated|replaced|removed|uninstalled|deleted|old|previous|former|"
                      r"used\s+to|instead|suggest\w*|recommend\w*|advice|advised|fix|workaround|try|tried|could|should|"
                      r"might|maybe|native|natively|arm64|aarch64)\b", re.IGNORECASE)
_MKL_FATAL = re.compile(r"\bIntel MKL FATAL ERROR:\s*This system does not meet the minimum requirements\b", re.IGNORECASE)


def rosetta_environment(line: str) -> Facts:
    """'a Rosetta-based Conda Environment', 'an empty conda environment which runs via rosetta'."""
    if not (_BASED_ENV.search(line) or _ENV_VIA.search(line) or _A_ROSETTA_ENV.search(line)) or NEGATION.search(line) \
            or _NOT_NOW.search(line):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True),
            ("process.arch", "x86_64"), ("python.machine", "x86_64")]


def mkl_cpu_check_failed(line: str) -> Facts:
    """Intel MKL refusing the CPU: an x86_64 Python that loaded MKL, on a CPU without the instructions it needs."""
    if not _MKL_FATAL.search(line):
        return []
    return [("process.arch", "x86_64"), ("python.machine", "x86_64"), ("framework.used", "mkl")]


def x86_python_install(line: str) -> Facts:
    """'in an M1 mac machine and an x86_64 conda installation': the Python is x86_64 (translated, on Apple silicon)."""
    if not _X86_ENV.search(line) or NEGATION.search(line) or _NOT_NOW.search(line):
        return []
    return [("process.arch", "x86_64"), ("python.machine", "x86_64")]


_HOST_CPU_APPLE = re.compile(r"\bget_host_cpu_name\(\)[^'\"]{0,80}['\"]apple-m\d['\"]")


def llvm_host_cpu(line: str) -> Facts:
    """"get_host_cpu_name()` ... results in `'apple-m1'`" -> an arm64 Python on Apple silicon."""
    return [("platform", "darwin"), ("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")] \
        if _HOST_CPU_APPLE.search(line) else []


_RUN_WITHOUT_ROSETTA = re.compile(r"\b(?:I|we)\b[^.;!?]{0,20}\b(?:run|ran|execute|executed|can run|can execute|am running|'m running)\b"
                                  r"[^.;!?]{0,80}\bwithout\s+(?:using\s+|the\s+)?rosetta(?:\s?2)?\b", re.IGNORECASE)


def ran_without_rosetta(line: str) -> Facts:
    """'I can execute this code on my 14inch macbook pro which provides M1 Pro without rosetta2': a native process on
    Apple silicon (Rosetta exists nowhere else); the Python's own, where the line is about code or Python."""
    if not _RUN_WITHOUT_ROSETTA.search(line) or "?" in line or re.search(r"\b(?:could|should|would|if)\b", line, re.IGNORECASE):
        return []
    native: Facts = [("python.machine", "arm64")] if re.search(r"\b(?:code|python3?|script|torch|pip)\b", line, re.I) else []
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", False)] + native


def line_facts(line: str) -> Facts:
    return (rosetta_environment(line) + mkl_cpu_check_failed(line) + x86_python_install(line) + llvm_host_cpu(line)
            + ran_without_rosetta(line))
