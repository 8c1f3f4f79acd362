"""A framework's import failing in the pasted traceback, read from the loader's own words:

- macOS dyld refusing a package's binary ('ImportError: dlopen(.../site-packages/mlx/core.cpython-312-darwin.so,
  0x0002): Symbol not found: _cblas_cgemm$NEWLAPACK'), Linux's loader likewise ('ImportError: .../site-packages/torch/
  lib/libtorch_cpu.so: undefined symbol: ...'): that package is installed and does not import (a wrong-architecture
  binary is mac_words_rules.wrong_arch_library's);
- jaxlib's CPU guard ('This version of jaxlib was built using AVX instructions, which your CPU and/or operating system
  do not support'): only jaxlib's x86 wheels carry that guard (jax/_src/cpu_feature_guard), so the Python is x86_64,
  and jax does not import.
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_LOADER_FAILED = re.compile(r"\bImportError:\s*(?:dlopen\()?\S*?/site-packages/([A-Za-z_]\w*)/\S+?"
                            r"(?:,\s*0x[0-9a-f]+\):\s*(?:Symbol not found|Library not loaded)|:\s*undefined symbol)\b")
_JAXLIB_AVX = re.compile(r"\bThis version of jaxlib was built using AVX instructions, which your CPU and/or operating system "
                         r"do not support\b")


def loader_failed(line: str) -> Facts:
    found = _LOADER_FAILED.search(line)
    if not found or "incompatible architecture" in line:
        return []
    return [("framework.import_failed", {"name": found.group(1), "error": line.strip()[:200]})]


def jaxlib_avx_guard(line: str) -> Facts:
    if not _JAXLIB_AVX.search(line):
        return []
    return [("python.machine", "x86_64"), ("framework.used", "jax"),
            ("framework.import_failed", {"name": "jax", "error": "jaxlib's x86 build needs AVX, which this CPU or OS "
                                                                 "does not give it"})]


def line_facts(line: str) -> Facts:
    return loader_failed(line) + jaxlib_avx_guard(line)
