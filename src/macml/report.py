"""What every command returns: data that one place (the CLI) renders as text or JSON.

Text that came from outside (paths, command output, recipe files, probe answers) is never read as
Rich markup: renderers build `rich.text.Text` from it, and only the marks below are markup.
"""
from __future__ import annotations

from typing import Any, Dict, Protocol

from rich.console import Console
from rich.text import Text

# The one set of status marks: a finding's level, a recipe that fits (ok) or not (fail).
MARKS = {"ok": "[green]✓[/]", "info": "[blue]•[/]", "warn": "[yellow]![/]", "fail": "[red]✗[/]", "skip": "[dim]-[/]"}
# A verify check's status -> its mark.
CHECK_MARK = {"pass": "ok", "warn": "warn", "fail": "fail", "skip": "skip"}


def marked(level: str, text: str, indent: str = "") -> Text:
    """indent + the level's mark + text, the text taken literally ('[old]' stays '[old]')."""
    return Text.assemble(indent, Text.from_markup(MARKS[level]), " ", text)


def bold(text: str) -> Text:
    return Text(text, style="bold")


class Report(Protocol):
    def to_json(self) -> Dict[str, Any]: ...

    def render_text(self, console: Console, verbose: bool) -> None: ...

    @property
    def exit_code(self) -> int: ...
