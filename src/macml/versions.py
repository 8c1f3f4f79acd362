"""Version numbers read from outside, answered one way.

Only ASCII digits count: str.isdigit() is also true for '¹' or '²', which int() refuses.
"""
from __future__ import annotations

import re
from typing import Any, Optional, Tuple

from packaging.version import InvalidVersion, Version

_NUMBER = re.compile(r"[0-9]+")


def number(text: Any) -> Optional[int]:
    """'16' -> 16; anything that is not only ASCII digits (' 16', '¹', '', None) -> None."""
    return int(text) if isinstance(text, str) and _NUMBER.fullmatch(text) else None


def release(text: Any) -> Tuple[int, ...]:
    """The leading dotted numbers: '14.4.1' -> (14, 4, 1), '3.13.0rc1' -> (3, 13), '550.54.15' ->
    (550, 54, 15), 'unknown' -> ()."""
    parts = []
    for piece in str(text or "").split("."):
        value = number(piece)
        if value is None:
            break
        parts.append(value)
    return tuple(parts)


def is_release(text: Any) -> bool:
    """'14.0' and '535' are; '14.x', '', '¹' are not."""
    return isinstance(text, str) and bool(re.fullmatch(r"[0-9]+(\.[0-9]+)*", text))


def package(text: Optional[str]) -> Optional[Version]:
    """A distribution's version as packaging reads it, '+local' dropped ('2.5.1+cu121' -> 2.5.1);
    None when it is not one."""
    if not text:
        return None
    try:
        return Version(str(text).split("+")[0])
    except InvalidVersion:
        return None
