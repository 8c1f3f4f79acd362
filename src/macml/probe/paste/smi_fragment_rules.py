"""nvidia-smi's GPU table rows pasted without the table's header (the header rows, which the nvidia-smi reader
needs, left out of an issue form's 'GPU info' answer):

    |   0  NVIDIA GeForce RTX 3050 ...  WDDM  |   00000000:01:00.0 Off |                  N/A |
    | N/A   49C    P8              5W /   38W |    2998MiB /   4096MiB |     12%      Default |

The second row of each GPU holds its memory in use and its total: the total is that GPU's memory.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.statement_rules import Facts

_NAME_ROW = re.compile(r"^\s*\|\s+(\d{1,2})\s+\S.*?\s+(?:WDDM|TCC|On|Off)\s+\|")
_MEMORY_ROW = re.compile(r"^\s*\|\s*(?:N/A|\d{1,3}%)\s+(?:N/A|\d{1,3}C)\s+(?:P\d{1,2}|N/A)\b.*?\|\s*\d+MiB\s*/\s*(\d+)MiB\s*\|")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the memory of the GPU its row belongs to: numbered by the name row just above it; when the
    text holds one such row only, the lone GPU's (index None)."""
    rows: List[int] = [i for i, line in enumerate(lines) if _MEMORY_ROW.match(line)]
    found: Dict[int, Facts] = {}
    for index in rows:
        total = int(_MEMORY_ROW.match(lines[index]).group(1))  # type: ignore[union-attr]
        named = _NAME_ROW.match(lines[index - 1]) if index else None
        number = int(named.group(1)) if named and len(rows) > 1 else None
        if number is None and len(rows) > 1:
            continue
        found[index] = [("gpu.memory_of", {"index": number, "memory_mib": total})]
    return found
