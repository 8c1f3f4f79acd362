"""MLX's `mx.metal.device_info()` (`mx.device_info()` in newer releases) as people paste it: a dict, printed on
one line or spread over several, or its JSON.

    {'architecture': 'applegpu_g13s', 'device_name': 'Apple M1 Max', 'max_buffer_length': 51539607552,
     'max_recommended_working_set_size': 51539607552, 'memory_size': 68719476736, 'resource_limit': 499000}

'memory_size' is the Mac's memory (a VM's own, in a macOS guest: 'Apple Paravirtual device' beside ~7 GB), in
bytes. Its keys are MLX's own (ml-explore/mlx, mlx/backend/metal/device.cpp: device_info), so a text holding
'max_recommended_working_set_size' is this dict; only then is a 'memory_size' read. mlx-c's example prints the same
keys unquoted, one per line ('  memory_size: 137438953472').

mlx-benchmark's get_cpu_gpu_config.py prints the Mac as ' M2 (4E+4P+10GPU+24GB) - mlx: 0.16.0 torch: 2.4.0': the chip,
its efficiency and performance cores, GPU cores and memory, and the versions it imported (so a native arm64 Python:
MLX's macOS wheels are arm64 only, pypi.org/project/mlx).

The reader is a pure function of the lines.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.mac_families import metal_architecture_chip

Facts = List[Tuple[str, Any]]

_MLX_KEY = re.compile(r"""(?:['"]|^\s*)max_recommended_working_set_size['"]?\s*:\s*\d""")
_MEMORY_SIZE = re.compile(r"""(?:['"]|^\s*)memory_size['"]?\s*:\s*(\d{9,14})\b""")


_BENCHMARK_CONFIG = re.compile(r"\b(M[1-5])(?: (Pro|Max|Ultra))? \((\d{1,2})E\+(\d{1,2})P\+(\d{1,2})GPU\+(\d{1,3})GB\)")
_IMPORTED = re.compile(r"\b(mlx|torch): (\d+\.\d+(?:\.\d+)?)\b")


def benchmark_config(line: str) -> Facts:
    """' M2 (4E+4P+10GPU+24GB) - mlx: 0.16.0 torch: 2.4.0' -> Apple M2, 8 CPU and 10 GPU cores, 24 GB, its packages."""
    found = _BENCHMARK_CONFIG.search(line)
    if not found:
        return []
    chip = " ".join(part for part in ("Apple", found.group(1), found.group(2)) if part)
    facts: Facts = [("platform", "darwin"), ("cpu.brand", chip), ("cpu.hardware_arch", "arm64"),
                    ("cpu.cores", int(found.group(3)) + int(found.group(4))), ("gpu.cores", int(found.group(5))),
                    ("cpu.memory_bytes", int(found.group(6)) * 1024**3)]
    packages = [("package", {"name": name, "version": version}) for name, version in _IMPORTED.findall(line[found.end():])]
    machine = [("python.machine", "arm64")] if any(v["name"] == "mlx" for _, v in packages) else []
    return facts + packages + machine


def metal_architecture(line: str) -> Facts:
    """'architecture': 'applegpu_g14d' -> an Apple silicon Mac, the Apple M2 Ultra (the tier only where the letter
    gives it)."""
    found = metal_architecture_chip(line)
    if found is None:
        return []
    _, chip = found
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")] + ([("cpu.brand", chip)] if chip else [])


def line_facts(line: str) -> Facts:
    return benchmark_config(line) + metal_architecture(line)


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
