"""A mobile Quadro named by its bare model, as laptop owners write it: 'its K2000M', 'my K1100M', 'I have a M1000M',
"it's a K3100M". NVIDIA's mobile Quadros are K/M-series numbers with an M suffix (K500M..K6000M, Kepler
and Maxwell; M500M..M5500M, Maxwell), which no other maker's GPU or CPU uses.

The name counts only after the writer's own words ('my', 'I have', 'it's', 'mine is'), not in a mention ('unlike the
K2000M', 'does the K2000M support Vulkan?', 'no K2000M', 'is my K2000M too old?').
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_MODEL = re.compile(r"(?<![\w.-])([KM]\d{3,4}M)(?![\w.+-])")
_OWNER = re.compile(r"(?:\b(?:my|our)|\bI\s+(?:have|got|own|use|am\s+using)|\bI'm\s+using|\bit'?s|\bits|\bit\s+is|\bmine\s+is"
                    r"|\b(?:card|gpu)\s+is)\s+(?:an?\s+|the\s+)?(?:(?:nvidia|quadro)\s+)*$", re.IGNORECASE)
_NOT_OURS = re.compile(r"\b(?:not|no|unlike|than|if|whether|friend'?s?)\b|n't\b|\?", re.IGNORECASE)


def bare_quadro(line: str) -> Facts:
    """'and forgor to mention, its K2000M, if vulkan won't work' -> an NVIDIA 'K2000M' the writer owns."""
    facts: Facts = []
    for found in _MODEL.finditer(line):
        before = line[max(0, found.start() - 40):found.start()]
        clause = re.split(r"[,.;!](?:\s|$)", line[found.end():])[0]
        owner = _OWNER.search(before)
        if owner and not _NOT_OURS.search(before[:owner.start()][-20:] + owner.group(0)) and "?" not in clause:
            facts.append(("gpu.owned", {"name": found.group(1), "vendor": "NVIDIA", "memory_mib": None, "index": None}))
    return facts


def line_facts(line: str) -> Facts:
    return bare_quadro(line)
