"""An environment list's role keys answered with a distribution and its version.

'- **Serving:** vllm-mlx 0.2.6', 'Backend: llama-cpp-python 0.3.2', 'Inference engine: mlx-lm 0.26.2': the key
names what the software does, the value names the pip distribution that does it and its version. The name must be
written as pip writes it (lower case) or be a distribution people name in words (mac_words_rules.PACKAGE_WORDS), so
'Runtime: Python 3.12' or 'Server: Ubuntu 22.04' name no distribution.
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.probe.paste.mac_words_rules import PACKAGE_WORDS
from macml.probe.paste.packages import canonical

Facts = List[Tuple[str, Any]]

_ROLE_KEYS = ("serving", "server", "inference server", "inference engine", "engine", "backend", "inference backend",
              "framework", "ml framework", "library", "runtime", "inference")
_DISTRIBUTION = re.compile(r"^`?([A-Za-z][\w.-]*?)`?\s+v?(\d+\.\d+(?:\.\d+)*(?:\.?(?:dev|rc|post|a|b)\d+)?)$")
_NOT_DISTRIBUTIONS = ("python", "cpython", "pypy", "macos", "ubuntu", "debian", "windows", "linux", "darwin", "cuda",
                      "rocm", "metal", "docker", "node", "nodejs", "java", "go", "rust")


def role_package(key: str, value: str) -> Facts:
    """'Serving: vllm-mlx 0.2.6' -> vllm-mlx 0.2.6 installed."""
    found = _DISTRIBUTION.match(value.strip()) if key in _ROLE_KEYS else None
    if not found:
        return []
    written, version = found.group(1), found.group(2)
    word = canonical(written)
    if word in _NOT_DISTRIBUTIONS:
        return []
    if word in PACKAGE_WORDS:
        return [("package", {"name": PACKAGE_WORDS[word], "version": version})]
    if written != written.lower():
        return []
    return [("package", {"name": word, "version": version})]


def keyed_facts(key: str, value: str) -> Facts:
    return role_package(key, value)
