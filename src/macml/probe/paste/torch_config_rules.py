"""torch's build configuration (`torch.__config__.show()`, which collect_env-like reports print as 'PyTorch compiling
details: PyTorch built with:' followed by '  - ' items): what the build says of the Python running it.

- an 'Intel(R) Math Kernel Library' or 'Intel(R) oneMKL' item: Intel builds MKL for x86 only, so the torch, and the
  Python that loaded it, are x86_64;
- a block compiled by clang (macOS wheels list '- clang 13.1.6'; Linux's are built by GCC, Windows' by MSVC) with no
  MKL item and 'CPU capability usage: NO AVX': PyTorch's macOS x86_64 wheels carry MKL and report AVX2 on any Mac
  that has it, its arm64 wheels carry neither, so the torch is an arm64 macOS build and its Python arm64.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.statement_rules import Facts

_HEADER = re.compile(r"\bPyTorch built with:\s*$")
_ITEM = re.compile(r"^\s*-\s+(\S.*?)\s*$")
_MKL = re.compile(r"\bIntel\(R\) (?:Math Kernel Library|oneMKL)\b|\bMKL-DNN\b|\bIntel\(R\) MKL\b")


def _items(lines: Sequence[str], header: int) -> List[int]:
    found = []
    for index in range(header + 1, min(len(lines), header + 40)):
        if not _ITEM.match(lines[index]):
            break
        found.append(index)
    return found


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    found: Dict[int, Facts] = {}
    for header in (i for i, line in enumerate(lines) if _HEADER.search(line)):
        items = _items(lines, header)
        texts = [_ITEM.match(lines[i]).group(1) for i in items]
        mkl = next((i for i, text in zip(items, texts) if _MKL.search(text)), None)
        if mkl is not None:
            found[mkl] = [("python.machine", "x86_64")]
            continue
        no_avx = next((i for i, text in zip(items, texts) if re.fullmatch(r"CPU capability usage: NO AVX", text)), None)
        if no_avx is not None and any(re.match(r"(?:Apple )?clang\b", text) for text in texts):
            found[no_avx] = [("platform", "darwin"), ("python.machine", "arm64")]
    return found
