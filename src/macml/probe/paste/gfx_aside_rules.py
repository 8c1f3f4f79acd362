"""An AMD GPU the writer names with its LLVM target in brackets ('I had a Vega 64 (gfx900) lying around', 'The 7900
GRE (gfx1100) is on a PCIE 5.0 X16 slot', 'my MI50 (gfx906)'): that GPU, of that target, in the writer's machine.
People write the target only of a card they run ROCm on, so the short name ('Vega 64', '7900 GRE') is enough to
call it a Radeon; nothing from a card named as a condition or someone else's.
"""
from __future__ import annotations

import re

from macml.probe.paste.gpu_names import gpu_record
from macml.probe.paste.said_of_this_machine import hypothetical, negated, someone_elses
from macml.probe.paste.statement_rules import Facts

_RADEON = (r"(?:AMD\s+)?(?:Radeon\s+)?(?:RX\s*)?(?P<radeon>Vega\s?(?:56|64)|VII|[5-9]\d{3}(?:\s?(?:XTX|XT|GRE))?"
           r"|[45][4-9]0X?)")
_INSTINCT = r"(?:AMD\s+)?(?:Instinct\s+)?(?P<instinct>MI\d{2,3}[AX]?)"
_NAMED_WITH_TARGET = re.compile(r"(?<![\w-])(?:" + _RADEON + "|" + _INSTINCT + r")\s*\(\s*(?P<gfx>gfx[0-9a-f]{3,4})\s*\)",
                                re.IGNORECASE)


def _full_name(found: "re.Match[str]") -> str:
    if found.group("instinct"):
        return "AMD Instinct " + found.group("instinct").upper()
    card = " ".join(found.group("radeon").split())
    return "AMD Radeon VII" if card.upper() == "VII" else f"AMD Radeon RX {card}"


def line_facts(line: str) -> Facts:
    facts: Facts = []
    for found in _NAMED_WITH_TARGET.finditer(line):
        if negated(line[:found.start()]) or hypothetical(line[:found.start()]) or someone_elses(line[:found.end()]):
            continue
        fact, value = gpu_record(_full_name(found))
        facts += [(fact, dict(value, gfx=found.group("gfx").lower())), ("gpu.gfx", found.group("gfx").lower())]
    return facts
