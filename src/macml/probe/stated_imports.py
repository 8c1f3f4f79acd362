"""A framework that the pasted text shows failing to import (dyld refusing its wrong-architecture binary):
the framework is installed, and it does not import. Like every stated fact it only fills what the parsed
outputs left unknown: a framework a report already describes keeps that description."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from macml.facts import IMPORT_FAILED, FrameworkFacts, MachineFacts

Statement = Mapping[str, Any]  # {"fact", "value", "source", "line", "text"}
_FRAMEWORK_OF = {"jaxlib": "jax"}  # the import a package's failure breaks


def fill_import_failures(facts: MachineFacts, statements: Sequence[Statement]) -> MachineFacts:
    """'framework.import_failed' statements -> FrameworkFacts(ok=False) for frameworks not yet known."""
    frameworks, sources = dict(facts.frameworks), dict(facts.sources)
    for stated in statements:
        if stated.get("fact") != "framework.import_failed":
            continue
        name = _FRAMEWORK_OF.get(stated["value"]["name"], stated["value"]["name"])
        if name in frameworks:
            continue
        frameworks[name] = FrameworkFacts(name, False, {"installed": True}, error=stated["value"]["error"],
                                          problem=IMPORT_FAILED)
        sources[f"frameworks.{name}"] = (f"{stated.get('source', 'paste')} line {stated.get('line', '?')}: "
                                         f"{str(stated.get('text', ''))[:160]}")
    if frameworks == dict(facts.frameworks):
        return facts
    return dataclasses.replace(facts, frameworks=frameworks, sources=sources)
