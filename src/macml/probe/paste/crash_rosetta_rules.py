"""A macOS crash report whose crashed process ran translated by Rosetta 2 (only Apple silicon has it):

- its binary images list Rosetta's runtime, loaded into every translated process: an .ips report's
  '"path" : "\\/usr\\/libexec\\/rosetta\\/runtime"', a text report's
  '0x7ff7ffd7c000 - 0x7ff7ffdabfff runtime (*) <uuid> /usr/libexec/rosetta/runtime', or on newer macOS
  '/Library/Apple/usr/libexec/oah/libRosettaRuntime';
- its header's 'Code Type: X86-64 (Translated)' (a spindump's or microstackshot's 'Architecture: x86_64 (translated)').

Only those report lines fire: a path typed in a command or a sentence ('ls /usr/libexec/rosetta/runtime') is not
a loaded image. Each rule is a pure function of one line.
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

Facts = List[Tuple[str, Any]]

_RUNTIME = r"(?:/usr/libexec/rosetta/runtime|/Library/Apple/usr/libexec/oah/libRosettaRuntime)"
# .ips JSON: the image's "path" key holds the runtime alone
_IPS_IMAGE = re.compile(r'^\s*"path"\s*:\s*"' + _RUNTIME + r'"\s*,?\s*$')
# a text report's image line: an address range first, the runtime's path last
_TEXT_IMAGE = re.compile(r"^\s*0x[0-9a-f]+\s*-\s*0x[0-9a-f]+\s+.*\s" + _RUNTIME + r"\s*$", re.IGNORECASE)
_CODE_TYPE = re.compile(r"^[\s>]*(?:Code Type|Architecture):\s*X86[-_]64\s*\(Translated\)", re.IGNORECASE)
TRANSLATED: Facts = [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True),
                     ("process.arch", "x86_64")]


def rosetta_image(line: str) -> Facts:
    """'"path" : "\\/usr\\/libexec\\/rosetta\\/runtime",' in a crash report's images: the process was translated."""
    text = line.replace("\\/", "/")
    return list(TRANSLATED) if _IPS_IMAGE.match(text) or _TEXT_IMAGE.match(text) else []


def translated_code_type(line: str) -> Facts:
    """'Code Type: X86-64 (Translated)': a crash report's x86_64 process run by Rosetta 2."""
    return list(TRANSLATED) if _CODE_TYPE.match(line) else []


def line_facts(line: str) -> Facts:
    return rosetta_image(line) or translated_code_type(line)
