"""Issue forms that ask their questions in words ('### What OS are you using?' then 'Mac', '### What is the version
of your OS?' then '26.3.1', darktable's form): the question is read as the key it asks for ('os', 'os version'), so
the answer goes through the same readers as an 'OS:' or 'OS version:' line.

A question about something else ('What version of darktable?', 'What is the version of your GPU driver?') asks
for no OS key and is left alone.
"""
from __future__ import annotations

import re
from typing import Optional

from macml.probe.paste import os_answer_rules
from macml.probe.paste.statement_rules import Facts

_OS = r"(?:OS|operating\s+system|macOS)"
_OS_QUESTION = re.compile(r"^(?:what|which)\s+" + _OS + r"\s+(?:are|do|is)\s+you\s*(?:using|running|use|run|on)?\s*\??$",
                          re.IGNORECASE)
_VERSION_QUESTION = re.compile(r"^(?:what|which)\s+(?:is\s+)?(?:the\s+)?(?:version\s+of\s+(?:your|the)\s+" + _OS
                               + r"|(?:your\s+)?" + _OS + r"\s+version(?:\s+(?:are|do|is)\s+you\s*(?:using|running|on)?)?)\s*\??$",
                               re.IGNORECASE)


def asked_key(question: str) -> Optional[str]:
    """'What OS are you using?' -> 'os'; 'What is the version of your OS?' -> 'os version'; else None."""
    text = " ".join(question.strip().strip("*").split())
    if _VERSION_QUESTION.match(text):
        return "os version"
    return "os" if _OS_QUESTION.match(text) else None


def keyed_facts(key: str, value: str) -> Facts:
    asked = asked_key(key)
    value = re.sub(r"^\s*OS\s+(?=\d)", "", value) if asked == "os version" else value  # 'OS 26.5.2': the OS named again
    return os_answer_rules.keyed_facts(asked, value) if asked else []
