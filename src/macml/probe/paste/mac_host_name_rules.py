"""A Mac's model read from the host name in a pasted shell prompt.

macOS makes the local host name from the computer name, which it sets to '<owner>'s <model>' ("Alex's iMac Pro" ->
'Alexs-iMac-Pro', a second one 'Alexs-iMac-Pro-2', '.local' after it). The prompt names the machine the command ran
on: zsh's 'ashvid@Alexs-iMac-Pro lib % ', bash's 'Alexs-iMac-Pro:lib ashvid$ '. A model line Apple only ever made
with Intel CPUs (knowledge.hardware.MAC_LINE_YEARS) makes that machine an Intel Mac.
"""
from __future__ import annotations

import re
from typing import Any, List, Optional, Sequence, Tuple

from macml.knowledge.hardware import MAC_LINE_YEARS
from macml.probe.paste import mac_hint_rules
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


# What a text states of the machine's CPU: any of it outweighs a default host name; so does an arm64 or translated
# process (only Apple silicon runs those), where an x86_64 process says nothing against an Intel Mac.
_CHIP_FACTS = ("cpu.hardware_arch", "cpu.brand", "cpu.model", "cpu.apple_generation")


def _states_cpu(fact: str, value: Any) -> bool:
    if fact in _CHIP_FACTS:
        return True
    if fact == "process.translated":
        return bool(value)
    return fact in ("process.arch", "python.machine") and value != "x86_64"


def unless_cpu_stated(lines: Sequence[str], stated: Sequence[Tuple[str, Any]]) -> List[Tuple[int, str, Any, str]]:
    """line_facts' (line number, fact, value, text), the weakest evidence: a host name is the owner's to edit and
    Migration Assistant carries an old Mac's to a new one, so it is read only where nothing else in the text names
    the CPU or the arch."""
    if any(_states_cpu(fact, value) for fact, value in stated):
        return []
    found: List[Tuple[int, str, Any, str]] = []
    for index, line in enumerate(lines):
        text = line.rstrip()
        if not text.strip() or len(text) > 2000 or mac_hint_rules.other_machine(text):
            continue
        found += [(index + 1, fact, value, text) for fact, value in dict.fromkeys(line_facts(text))]
    return found
