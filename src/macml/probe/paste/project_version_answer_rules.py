"""A project's version answer that names the distribution installed ('ONNX Runtime version: Currently on
ort-nightly-directml 1.13.0.dev20220823003 (...). But also tried with 1.12.1', 'TensorFlow version: tf-nightly
2.16.0.dev20231010'): the pip name that belongs to the project (its name run together, or the short name its nightly
and variant builds take), with the version right after it, is installed at that version. The key names the project in
words ('ONNX Runtime', 'Tensor Flow'); a version only 'also tried', or one named with a denial or a condition, is
not read. A bare 'Version:' answered with a distribution's name and version run together ('Version: `mtplx-2.11.2`',
as sdist and wheel files name them) is that package.
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.probe.paste.packages import canonical
from macml.probe.paste.said_of_this_machine import hypothetical, negated, someone_elses

Facts = List[Tuple[str, Any]]

# The short names projects publish builds under besides their own (pypi.org: ort-nightly, ort-nightly-gpu,
# ort-nightly-directml for ONNX Runtime; tf-nightly, tf-nightly-cpu for TensorFlow)
_SHORT_NAMES = {"onnxruntime": ("ort",), "tensorflow": ("tf",)}
_KEY = re.compile(r"^([a-z][\w .-]*?)\s+version$")
_DIST_VERSION = re.compile(r"(?<![\w./-])([a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*)\s*(?:==\s*|\s+)v?"
                           r"(\d+(?:\.\d+)+(?:[.-]?(?:dev|rc|post|a|b)\d+)?(?:\+[\w.]+)?)(?![\w.]*\d)", re.IGNORECASE)


def _belongs(dist: str, project: str) -> bool:
    """'ort-nightly-directml' belongs to 'onnxruntime'; 'onnxruntime-gpu' too; 'numpy' does not."""
    return dist == project or any(dist.startswith(p + "-") for p in (project,) + _SHORT_NAMES.get(project, ()))


# a bug template's 'Version of py-cpuinfo: 7.0.0': the package named in the key, at the version answered
_VERSION_OF = re.compile(r"^version of ([a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*)$")
_BARE_VERSION = re.compile(r"^v?(\d+(?:\.\d+)+(?:(?:a|b|rc|\.post|\.dev)\d+)?)$")


def keyed_facts(key: str, value: str) -> Facts:
    """'onnx runtime version', 'Currently on ort-nightly-directml 1.13.0.dev20220823003 ...' -> that package."""
    version_of, bare = _VERSION_OF.match(key), _BARE_VERSION.match(value.strip())
    if version_of and bare and version_of.group(1) not in ("python", "macos", "os", "cuda", "the"):
        return [("package", {"name": canonical(version_of.group(1)), "version": bare.group(1)})]
    named = _KEY.match(key)
    if not named:
        return bare_version_answer(key, value)
    project = re.sub(r"[\s_.-]+", "", named.group(1))
    for found in _DIST_VERSION.finditer(value):
        dist = found.group(1).lower().replace("_", "-")
        if not _belongs(dist, project):
            continue
        clause = value[:found.end()]
        clause = clause[clause.rfind(". ") + 1:] if ". " in clause else clause
        before = value[:found.start()]
        if negated(before) or hypothetical(clause) or someone_elses(clause) or re.search(r"\b(?:also\s+)?tried\b", before[-30:], re.IGNORECASE):
            continue
        return [("package", {"name": dist, "version": found.group(2)})]
    return []


_DIST_DASH_VERSION = re.compile(r"^`?([a-z][a-z0-9_]*(?:-[a-z][a-z0-9_]*)*)-(\d+(?:\.\d+){1,3}(?:(?:a|b|rc|\.post|\.dev)\d+)?)`?$")
_NOT_A_DIST = re.compile(r"^(?:macos|osx|ubuntu|debian|windows|win|linux|darwin|ios|android|build|release|v)$")


def bare_version_answer(key: str, value: str) -> Facts:
    """'Version: `mtplx-2.11.2`' -> mtplx 2.11.2 ('Version: macos-14.1' names an OS, not a package)."""
    found = _DIST_DASH_VERSION.match(value.strip()) if key == "version" else None
    if not found or _NOT_A_DIST.match(found.group(1)):
        return []
    return [("package", {"name": found.group(1).replace("_", "-"), "version": found.group(2)})]
