"""A framework's import failing in the pasted traceback, read from the loader's own words:

- macOS dyld refusing a package's binary ('ImportError: dlopen(.../site-packages/mlx/core.cpython-312-darwin.so,
  0x0002): Symbol not found: _cblas_cgemm$NEWLAPACK'), Linux's loader likewise ('ImportError: .../site-packages/torch/
  lib/libtorch_cpu.so: undefined symbol: ...'): that package is installed and does not import (a wrong-architecture
  binary is mac_words_rules.wrong_arch_library's); MLX's, on macOS, in a Python that can only be arm64 (MLX publishes
  macOS wheels for arm64 alone);
- jaxlib's CPU guard ('This version of jaxlib was built using AVX instructions, which your CPU and/or operating system
  do not support'): only jaxlib's x86 wheels carry that guard (jax/_src/cpu_feature_guard), so the Python is x86_64,
  and jax does not import; TensorFlow's likewise ('The TensorFlow library was compiled to use AVX instructions, but
  these aren't available on your machine.', tensorflow/core/platform/cpu_feature_guard.cc, compiled into x86 builds
  only);
- a traceback through a framework's own package at module level ('File ".../dist-packages/torch/__init__.py", line
  191, in <module>' ... 'OSError: libcufft.so.10: cannot open shared object file'): its import raised that error;
- a REPL's '>>> import tensorflow as tf' answered by the process dying ('Illegal instruction: 4', 'Segmentation
  fault'): that import killed the interpreter.
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.probe.paste.statement_rules import Facts

_LOADER_FAILED = re.compile(r"\bImportError:\s*(?:dlopen\()?\S*?/site-packages/([A-Za-z_]\w*)/\S+?"
                            r"(?:,\s*0x[0-9a-f]+\):\s*(?:Symbol not found|Library not loaded)|:\s*undefined symbol)\b")
# each framework's x86 CPU-feature guard: (its words, the framework, what the import failure says)
_AVX_GUARDS = (
    (re.compile(r"\bThis version of jaxlib was built using AVX instructions, which your CPU and/or operating system "
                r"do not support\b"), "jax", "jaxlib's x86 build"),
    (re.compile(r"\bThe TensorFlow library was compiled to use AVX\w* instructions, but these aren't available on your "
                r"machine\b"), "tensorflow", "TensorFlow's x86 build"),
)


# the same outside site-packages (a source checkout, a path the writer shortened): only a framework's own extension
_FRAMEWORK_LOADER_FAILED = re.compile(r"\bImportError:\s*dlopen\(\S*?/(mlx|torch|tensorflow|jaxlib)/[\w.-]+-darwin\.so,\s*0x[0-9a-f]+\):"
                                      r"\s*(?:Symbol not found|Library not loaded)\b")


def loader_failed(line: str) -> Facts:
    found = _LOADER_FAILED.search(line) or _FRAMEWORK_LOADER_FAILED.search(line)
    if not found or "incompatible architecture" in line:
        return []
    facts: Facts = [("framework.import_failed", {"name": found.group(1), "error": line.strip()[:200]})]
    if found.group(1) == "mlx" and "-darwin.so" in line:  # MLX's macOS wheels are arm64 only (pypi.org/project/mlx)
        facts.append(("python.machine", "arm64"))
    return facts


def avx_guard(line: str) -> Facts:
    """jaxlib's or TensorFlow's AVX guard -> an x86_64 Python where that framework does not import."""
    for words, name, build in _AVX_GUARDS:
        if words.search(line):
            return [("python.machine", "x86_64"), ("framework.used", name),
                    ("framework.import_failed", {"name": name, "error": f"{build} needs AVX, which this CPU or OS "
                                                                        "does not give it"})]
    return []


_INIT_FRAME = re.compile(r'^\s*(?:>\s*)*File "\S*?/(?:site|dist)-packages/(torch|tensorflow|jax|jaxlib|mlx)/__init__\.py", line \d+, '
                         r'in <module>')
_RAISED = re.compile(r"^(?:>\s*)*(\w+(?:Error|Exception)):\s*\S")  # also in a Markdown quote


def traceback_through_init(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index of the error a traceback ends in -> the framework whose __init__ it passed through at module level."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        frame = _INIT_FRAME.match(line)
        end = next((i for i in range(index + 1, min(len(lines), index + 40)) if _RAISED.match(lines[i])), None) if frame else None
        if frame and end is not None and end not in found:
            found[end] = [("framework.import_failed", {"name": frame.group(1), "error": lines[end].strip()[:200]})]
    return found


_REPL_IMPORT = re.compile(r"^\s*(?:>+\s*)*import\s+(torch|tensorflow|jax|jaxlib|mlx)(?:\.\w+)*(?:\s+as\s+\w+)?\s*$")
_DIED = re.compile(r"^\s*(?:>\s*)*(?:\S+:\s*)?(?:Illegal instruction|illegal hardware instruction|Segmentation fault|Bus error|Abort trap|"
                   r"Killed)\b", re.IGNORECASE)


def repl_import_died(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index of the death -> the framework whose import the REPL line before it ran."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        imported = _REPL_IMPORT.match(line)
        after = next((i for i in range(index + 1, min(len(lines), index + 3)) if lines[i].strip()), None) if imported else None
        if imported and after is not None and _DIED.match(lines[after]):
            found[after] = [("framework.import_failed", {"name": imported.group(1), "error": lines[after].strip()[:200]})]
    return found


def line_facts(line: str) -> Facts:
    return loader_failed(line) + avx_guard(line)
