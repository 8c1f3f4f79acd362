"""TensorFlow's empty answer to 'which GPUs do you see', asked from Python or from R's tensorflow package and
answered a few lines on, after a word of prose:

    tf$config$list_physical_devices("GPU")        >>> tf.config.list_physical_devices('GPU')
    Give me:                                       Output:
    `list()`                                       []

R's reticulate prints an empty Python list as 'list()'. The answer counts only when nothing but blank lines,
fences and a short lead-in ending in ':' stands between it and the question, so an empty list printed by some other
command later on is not read as TensorFlow's.
"""
from __future__ import annotations

import re
from typing import Dict, Optional, Sequence

from macml.probe.paste.statement_rules import Facts

_QUESTION = re.compile(r"\blist_(?:physical|logical)_devices\(\s*(?:device_type\s*=\s*)?['\"]GPU['\"]\s*\)")
_EMPTY = re.compile(r"^\s*(?:\[1\]\s*)?(?:\[\]|list\(\))\s*$")
_LEAD_IN = re.compile(r"^[A-Za-z][\w ,'’]{0,40}:\s*$")  # 'Give me:', 'Output:', 'It returns:'
_FENCE = re.compile(r"^```\w*$")
_REACH = 6


def _answer(lines: Sequence[str], index: int) -> Optional[int]:
    """The first line after the question that is not blank, a fence or a lead-in."""
    for follow in range(index + 1, min(len(lines), index + 1 + _REACH)):
        text = lines[follow].strip()
        if not text or _FENCE.match(text) or _LEAD_IN.match(text.strip("`")):
            continue
        return follow
    return None


def empty_device_answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> TensorFlow sees no GPU, where its list_physical_devices('GPU') answer is empty."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _QUESTION.search(line):
            continue
        at = _answer(lines, index)
        if at is not None and _EMPTY.match(lines[at].strip().strip("`")):
            found[at] = [("tensorflow.no_gpu", True)]
    return found


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    return empty_device_answers(lines)
