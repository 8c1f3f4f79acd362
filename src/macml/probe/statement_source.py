"""A fact stated on one line of pasted text: where it was read, and the first statement of a fact."""
from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

Statement = Mapping[str, Any]  # {"fact", "value", "source", "line", "text"}


def where(statement: Statement) -> str:
    return f"{statement.get('source', 'paste')} line {statement.get('line', '?')}: {str(statement.get('text', ''))[:160]}"


def first_stated(statements: Sequence[Statement], fact: str) -> Optional[Statement]:
    return next((s for s in statements if s.get("fact") == fact), None)
