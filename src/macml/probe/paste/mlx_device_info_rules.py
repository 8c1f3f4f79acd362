"""MLX's `mx.metal.device_info()` (`mx.device_info()` in newer releases) as people paste it: a dict, printed on
one line or spread over several, or its JSON.

    {'architecture': 'applegpu_g13s', 'device_name': 'Apple M1 Max', 'max_buffer_length': 51539607552,
     'max_recommended_working_set_size': 51539607552, 'memory_size': 68719476736, 'resource_limit': 499000}

'memory_size' is the Mac's memory (a VM's own, in a macOS guest: 'Apple Paravirtual device' beside ~7 GB), in
bytes. Its keys are MLX's own (ml-explore/mlx, mlx/backend/metal/device.cpp: device_info), so a text holding
'max_recommended_working_set_size' is this dict; only then is a 'memory_size' read. mlx-c's example prints the same
keys unquoted, one per line ('  memory_size: 137438953472').

The reader is a pure function of the lines.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

Facts = List[Tuple[str, Any]]

_MLX_KEY = re.compile(r"""(?:['"]|^\s*)max_recommended_working_set_size['"]?\s*:\s*\d""")
_MEMORY_SIZE = re.compile(r"""(?:['"]|^\s*)memory_size['"]?\s*:\s*(\d{9,14})\b""")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the machine's memory, on each 'memory_size' line of a text holding MLX's device_info dict."""
    if not any(_MLX_KEY.search(line) for line in lines):
        return {}
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        size = _MEMORY_SIZE.search(line)
        if size and 1 << 30 <= int(size.group(1)) <= 1 << 44:
            found[index] = [("platform", "darwin"), ("cpu.memory_bytes", int(size.group(1)))]
    return found
