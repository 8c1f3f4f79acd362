"""A Mac's model read from the host name in a pasted shell prompt.

macOS makes the local host name from the computer name, which it sets to '<owner>'s <model>' ("Alex's iMac Pro" ->
'Alexs-iMac-Pro', a second one 'Alexs-iMac-Pro-2', '.local' after it). The prompt names the machine the command ran
on: zsh's 'ashvid@Alexs-iMac-Pro lib % ', bash's 'Alexs-iMac-Pro:lib ashvid$ '. A model line Apple only ever made
with Intel CPUs (knowledge.hardware.MAC_LINE_YEARS) makes that machine an Intel Mac.
"""
from __future__ import annotations

import re
from typing import Optional

from macml.knowledge.hardware import MAC_LINE_YEARS
from macml.probe.paste.statement_rules import Facts

_PROMPT_HOST = re.compile(r"^\s*(?:\([\w.-]+\)\s*)*(?:[\w.-]+@([\w.-]+)(?::\S*)?\s+\S*\s*[%$#]"
                          r"|([\w.-]+):\S*\s+[\w.-]+\$)(?:\s|$)")
_MODEL_WORDS = re.compile(r"(?:^|-)((?:MacBook|iMac|Mac|Macmini)(?:-(?:Pro|Air|mini|Studio))?)(?:-\d+)?(?:\.local)?$",
                          re.IGNORECASE)
# 'MacBook' alone is also what people rename any MacBook to, so only the two-word Intel-only line is read.
_READ = ("imac pro",)


def host_model(line: str) -> Optional[str]:
    """'ashvid@Alexs-iMac-Pro lib % ...' -> 'imac pro': the Mac line a default host name names, lower case."""
    prompt = _PROMPT_HOST.match(line)
    host = prompt and (prompt.group(1) or prompt.group(2))
    found = _MODEL_WORDS.search(host) if host else None
    if not found:
        return None
    words = found.group(1).lower().replace("-", " ").replace("imacpro", "imac pro")
    return {"macmini": "mac mini"}.get(words, words)


def intel_mac_host(line: str) -> Facts:
    model = host_model(line)
    if model not in _READ or MAC_LINE_YEARS[model][1] is not None:
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]


def line_facts(line: str) -> Facts:
    return intel_mac_host(line)
