"""An answer written as a comment after the call that gave it, as people paste reproduction code:
'print(torch.cuda.is_available())  # Returns False', 'torch.backends.mps.is_available() # -> True',
'torch.cuda.is_available() # prints: False'. The comment is the writer's report of what this machine returned.
A print whose label asks the question ('Is CUDA available? False') is answered on the same line.
An expectation ('# should be True', '# expected True') states nothing.
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts

_CALLS = {"torch.cuda.is_available()": "torch.cuda_available", "torch.backends.mps.is_available()": "torch.mps_available"}
_ANSWER = re.compile(r"(torch\.cuda\.is_available\(\)|torch\.backends\.mps\.is_available\(\))[^#\n]*#\s*"
                     r"(?:(?:it\s+)?(?:returns?|returned|prints?|printed|outputs?|gives?|gave|says?|shows?)\s*:?\s*|->\s*|=>\s*|=\s*)?"
                     r"[`'\"]?(True|False)\b", re.IGNORECASE)


def commented_answer(line: str) -> Facts:
    found = _ANSWER.search(line)
    if not found:
        return []
    return [(_CALLS[found.group(1)], found.group(2).lower() == "true")]


# a print's own label asking the question: 'Is CUDA available? False', 'MPS available? True'
_ASKED = re.compile(r"^\s*(?:Is\s+)?(CUDA|MPS)\s+(?:is\s+)?available\s*\?\s*(True|False)`?\s*$", re.IGNORECASE)


def asked_answer(line: str) -> Facts:
    found = _ASKED.match(line)
    if not found:
        return []
    return [(f"torch.{found.group(1).lower()}_available", found.group(2).lower() == "true")]


def line_facts(line: str) -> Facts:
    return commented_answer(line) or asked_answer(line)
