"""What every command returns: data that one place (the CLI) renders as text or JSON.

Text that came from outside (paths, command output, recipe files, probe answers) is never read as
Rich markup: renderers build `rich.text.Text` from it, and only the marks below are markup. Nor does
it reach a terminal with its control characters: every console macml prints through is a
`SafeConsole`, which strips them from whatever it renders (JSON escapes them instead).
"""
from __future__ import annotations

import re
from typing import Any, Dict, Iterable, Optional, Protocol

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Text

# ESC sequences (CSI, OSC/DCS/SOS/PM/APC up to BEL, ST or the line's end, two-character escapes, a lone
# ESC), then every other C0 control but tab and newline, DEL, and the C1 controls (0x9b is an 8-bit CSI).
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)


def printable(text: str) -> str:
    """text without anything a terminal would act on (title, clear screen, cursor moves, colours)."""
    return _CONTROL.sub("", text)


class SafeConsole(Console):
    """A Rich console that strips control characters from every piece of text it renders; the
    escapes Rich itself writes for styles and spinners are not text, and pass."""

    def render(self, renderable: RenderableType, options: Optional[ConsoleOptions] = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control or not _CONTROL.search(segment.text):
                yield segment
            else:
                yield Segment(printable(segment.text), segment.style)


def console(stderr: bool = False) -> Console:
    """The console every command's text goes through (stdout, or stderr for errors and progress)."""
    return SafeConsole(stderr=stderr, highlight=False, soft_wrap=True)


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
