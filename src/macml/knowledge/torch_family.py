"""Which torchvision and torchaudio release each torch release is built with.

Source: pytorch/vision's README compatibility table (torch 1.N <-> torchvision 0.(N+1) from torch 1.2 / 0.4; torch 2.N
<-> torchvision 0.(N+15)) and pytorch/audio's compatibility matrix (torch 1.N <-> torchaudio 0.N; torch 2.N <->
torchaudio 2.N). Their compiled extensions load only into the torch they were built with.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

Release = Tuple[int, int]


def _release(version: str) -> Optional[Release]:
    found = re.match(r"^\s*(\d+)\.(\d+)", version or "")
    return (int(found.group(1)), int(found.group(2))) if found else None


def companion_release(torch_version: str, name: str) -> Optional[Release]:
    """('2.7.1+xpu', 'torchaudio') -> (2, 7); ('2.7.1', 'torchvision') -> (0, 22); ('1.13.1', 'torchvision') -> (0, 14).
    None for a torch older than the tables (before 1.2) or a name they do not cover."""
    torch = _release(torch_version)
    if torch is None or torch < (1, 2) or torch[0] > 2:
        return None
    if name == "torchvision":
        return (0, torch[1] + (1 if torch[0] == 1 else 15))
    if name == "torchaudio":
        return (0, torch[1]) if torch[0] == 1 else (2, torch[1])
    return None


def _nightly_date(version: str) -> Optional[str]:
    found = re.search(r"\.dev(\d{8})\b", version or "")
    return found.group(1) if found else None


def mismatched_companion(torch_version: str, name: str, version: str) -> Optional[str]:
    """'torchaudio 2.1.0a0+cxx11.abi is the release for torch 2.1, not 2.7' where the releases disagree; else None.
    Nightlies of one day are one build whatever their numbers: torchaudio's nightly kept its last release's number
    while torch's moved on (torch 2.7.0.dev20250131 beside torchaudio 2.6.0.dev20250131, download.pytorch.org/whl/nightly)."""
    if _nightly_date(torch_version) and _nightly_date(torch_version) == _nightly_date(version):
        return None
    wanted, have = companion_release(torch_version, name), _release(version)
    if wanted is None or have is None or wanted == have:
        return None
    built_for = next((f"{major}.{minor}" for major, minor in [(2, m) for m in range(20)] + [(1, m) for m in range(2, 14)]
                      if companion_release(f"{major}.{minor}", name) == have), None)
    torch = ".".join(map(str, _release(torch_version)))
    return f"{name} {version} is the release for torch {built_for}, not {torch}" if built_for else \
        f"{name} {version} is not the release built for torch {torch}"
