"""A name for a GPU a tool listed without one, from the text around it.

rocm-smi's plain table numbers its cards ('1    25.0c  10.0W ...') and names none, so the probe calls such a card
'AMD GPU 1'. When the writer names their one AMD GPU in the same text ('this is the output for my GPU (Vega 10 XT)
of rocm-smi'), that is the card: the only AMD GPU listed takes the only AMD GPU named as the writer's own.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Dict, List, Sequence

from macml.facts import GPU
from macml.probe.statement_source import Statement, where

_PLACEHOLDER = re.compile(r"^AMD GPU \d+$")


def name_unnamed_amd(gpus: List[GPU], statements: Sequence[Statement], sources: Dict[str, str]) -> List[GPU]:
    """[GPU('AMD GPU 1')] + the statement 'gpu.owned Vega 10 XT (AMD)' -> [GPU('Vega 10 XT')]."""
    amd = [i for i, g in enumerate(gpus) if g.vendor == "AMD"]
    owned = {str(s["value"].get("name")): s for s in statements
             if s.get("fact") == "gpu.owned" and s["value"].get("vendor") == "AMD" and s["value"].get("name")}
    if len(amd) != 1 or not _PLACEHOLDER.match(gpus[amd[0]].model) or len(owned) != 1:
        return gpus
    name, stated = next(iter(owned.items()))
    sources[f"gpus.{amd[0]}.model"] = where(stated)
    return [dataclasses.replace(g, model=name) if i == amd[0] else g for i, g in enumerate(gpus)]
