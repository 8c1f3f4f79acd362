"""What every command returns: data that one place (the CLI) renders as text or JSON."""
from __future__ import annotations

from typing import Any, Dict, Protocol

from rich.console import Console


class Report(Protocol):
    def to_json(self) -> Dict[str, Any]: ...

    def render_text(self, console: Console, verbose: bool) -> None: ...

    @property
    def exit_code(self) -> int: ...
