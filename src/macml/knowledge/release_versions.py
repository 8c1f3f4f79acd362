"""Distributions whose every release on PyPI has three parts (major.minor.patch), so a pin written with two
('tensorflow-macos==2.11') installs the .0 release ('2.11.0').

PEP 440's version matching pads the shorter version with zeros ('== 2.11' matches 2.11.0 and no 2.11.1), and these
projects never published a two-part release (pypi.org/project/<name>/#history): tensorflow and its macOS/CPU/GPU
builds (2.0.0 ... 2.20.0), tensorflow-metal (0.1.0 ... 1.2.0), keras (2.0.0 ... 3.x.y), torch (1.0.0 ... 2.x.y),
torchvision and torchaudio, jax and jaxlib (0.4.x), jax-metal (0.0.x, 0.1.x), mlx (0.x.y). A two-part version of
another distribution ('pip==23.1') is kept as written: many publish two-part releases.
"""
from __future__ import annotations

import re

THREE_PART_RELEASES = frozenset({
    "tensorflow", "tensorflow-macos", "tensorflow-metal", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel",
    "keras", "torch", "torchvision", "torchaudio", "jax", "jaxlib", "jax-metal", "mlx",
})


def pinned_release(name: str, version: str) -> str:
    """('tensorflow-macos', '2.11') -> '2.11.0'; ('pip', '23.1') -> '23.1'; ('torch', '2.1.0') -> '2.1.0'."""
    canonical = re.sub(r"[-_.]+", "-", name).lower()
    if canonical in THREE_PART_RELEASES and re.fullmatch(r"\d+\.\d+", version):
        return version + ".0"
    return version
