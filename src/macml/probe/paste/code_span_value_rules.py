"""A `key: value` or Markdown table row whose value is set in inline code, as people format versions in a report:
'| `torch` | `2.12.0+xpu` (PyPI / pytorch.org `whl/xpu`) |', '- lightning: `2.6.1` (no XPU accelerator)'.

The key's own reader (statement_rules.by_key) gets the value with its leading code span unwrapped, so
'`2.12.0+xpu` (PyPI ...)' reads as '2.12.0+xpu (PyPI ...)'. Only where the value as written gave that reader nothing.
"""
from __future__ import annotations

import re

from macml.probe.paste.statement_rules import Facts, by_key

_LEADING_SPAN = re.compile(r"^`([^`\n]+)`(.*)$")  # '`2.12.0+xpu` (PyPI / pytorch.org `whl/xpu`)'


def unwrapped(value: str) -> str:
    """'`2.6.1` (no XPU accelerator)' -> '2.6.1 (no XPU accelerator)'; a value without a leading span is kept."""
    found = _LEADING_SPAN.match(value.strip())
    return f"{found.group(1).strip()}{found.group(2)}" if found else value


def keyed_facts(key: str, value: str) -> Facts:
    plain = unwrapped(value)
    if plain == value or by_key(key, value):
        return []
    return by_key(key, plain)
