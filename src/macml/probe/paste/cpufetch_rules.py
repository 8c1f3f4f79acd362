"""cpufetch on an Apple-silicon Mac that it cannot name ('[VERSION]: cpufetch v1.04 (macOS ARM build)', 'SoC: Unknown'):
its build line says macOS on arm64, and its per-cluster lines name each cluster's core design and count
('Microarchitecture: Everest' ... 'Cores: 6 cores'). Apple's core designs give the generation (Icestorm/Firestorm
M1, Blizzard/Avalanche M2, Sawtooth/Everest M3: the names Apple's and LLVM's CPU tables use), and the performance and
efficiency counts the chip where only one chip of that generation has them (Apple's technical specifications: M3 4+4,
M3 Pro 5+6 or 6+6, M3 Max 10+4 or 12+4; M1 Pro / M1 Max share 8+2 and 6+2, M2 Pro / M2 Max share 8+4, so those stay
a generation only).
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.probe.paste.statement_rules import Facts

_BUILD = re.compile(r"\bcpufetch v[\d.]+\S* \(macOS ARM build\)")
_DESIGN = re.compile(r"^\s*Microarchitecture:\s*(\w+)\s*$")
_CORES = re.compile(r"^\s*Cores:\s*(\d{1,2}) cores\s*$")
# core design -> (generation, performance cluster?)
_DESIGNS = {"icestorm": (1, False), "firestorm": (1, True), "blizzard": (2, False), "avalanche": (2, True),
            "sawtooth": (3, False), "everest": (3, True)}
# (generation, performance cores, efficiency cores) -> the one chip with that layout
_CHIPS = {(1, 4, 4): "M1", (1, 16, 4): "M1 Ultra", (2, 4, 4): "M2", (2, 6, 4): "M2 Pro", (2, 16, 8): "M2 Ultra",
          (3, 4, 4): "M3", (3, 5, 6): "M3 Pro", (3, 6, 6): "M3 Pro", (3, 10, 4): "M3 Max", (3, 12, 4): "M3 Max"}


def build_line(line: str) -> Facts:
    return [("platform", "darwin"), ("cpu.hardware_arch", "arm64")] if _BUILD.search(line) else []


def clusters(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the Apple chip (or generation) cpufetch's core clusters give, at the last cluster's count."""
    designs: List[tuple] = []
    for index, line in enumerate(lines):
        design = _DESIGN.match(line)
        if design and design.group(1).lower() in _DESIGNS:
            designs.append((_DESIGNS[design.group(1).lower()], None, index))
            continue
        cores = _CORES.match(line)
        if cores and designs and designs[-1][1] is None:
            designs[-1] = (designs[-1][0], int(cores.group(1)), index)
    generations = {gen for (gen, _), _, _ in designs}
    if len(generations) != 1 or not designs:
        return {}
    generation = generations.pop()
    big = sum(n or 0 for (_, performance), n, _ in designs if performance)
    little = sum(n or 0 for (_, performance), n, _ in designs if not performance)
    chip = _CHIPS.get((generation, big, little)) if all(n for _, n, _ in designs) else None
    fact = ("cpu.brand", f"Apple {chip}") if chip else ("cpu.apple_generation", generation)
    return {designs[-1][2]: [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), fact]
            + ([("cpu.cores", big + little)] if chip else [])}
