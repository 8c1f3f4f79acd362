"""Whether a line names a macOS release as the writer's own Mac's, or only mentions one (another Mac's, a
requirement's): only the first may set this machine's macOS version."""
from __future__ import annotations

import re

_RELEASE_WORDS = (r"(?:mac\s?OS(?:\s?X)?,?\s+|OS\s?X\s+)?\(?(?:Tahoe|Sequoia|Sonoma|Ventura|Monterey|Big ?Sur|Catalina|Mojave|"
                  r"High Sierra|Sierra|El Capitan)\b")
# The release is this machine's: a key-value answer ('macOS Version: Ventura', 'OS: macOS Mojave'), a spec line or
# heading that starts with it ('MacOS Catalina Radeon Pro 560 4 GB'), the writer's own ('I'm on Catalina', 'my MacBook
# runs Mojave'), or where the writer's run happens ('on MacOS (Mojave) currently throws', 'an iMac running Catalina').
_RELEASE_KEYED = re.compile(r"^\s*[-*#>]*\s*[A-Za-z][\w ./()&-]{0,40}:\s*(?:[\w.]+[\s,]+){0,2}" + _RELEASE_WORDS, re.IGNORECASE)
_RELEASE_FIRST = re.compile(r"^\s*[-*#>]*\s*(?:mac\s?OS(?:\s?X)?|OS\s?X)\s+" + _RELEASE_WORDS, re.IGNORECASE)  # not 'Ventura Blvd'
_RELEASE_HERE = re.compile(r"\b(?:I'?m\s+on|I\s+am\s+on|I'?m\s+(?:running|using)|I\s+(?:run|use|have)|(?:is|am|are|runs|running|"
                           r"on|with|(?:I\s+|and\s+)installed|upgraded\s+to|updated\s+to)|we'?re\s+on)\s+(?:the\s+)?" + _RELEASE_WORDS, re.IGNORECASE)
# 'updated it succesfully to Tahoe', 'upgraded my Mac to Sonoma', 'updated to the latest version of High Sierra': the
# release after 'to' runs now, whatever came before
UPGRADED_TO = re.compile(r"\b(?:I\s+|I'?ve\s+|and\s+(?:then\s+)?)(?:\w+ly\s+)?(?:upgraded|updated)(?:\s+(?:it|my\s+\w+|the\s+\w+|\w+ly|from\s+(?:mac\s?OS\s+)?(?:Big Sur|High Sierra|\w+)(?:\s[\d.]+)?)){0,2}"
                         r"\s+to\s+(?:the\s+(?:latest|last|newest)\s+(?:version|release)\s+of\s+)?(?:mac\s?OS\s+)?"
                         r"(Tahoe|Sequoia|Sonoma|Ventura|Monterey|Big Sur|Catalina|Mojave|High Sierra)\b",
                         re.IGNORECASE)
# the writer's own Mac's parts listed with its macOS: 'I have mbp mid 2014 with i7-4870hq, ..., macOS ventura', 'on my
# MacBook Pro, macOS, Mojave, using my eGPU'
_RELEASE_IN_MY_SPECS = re.compile(r"\b(?:I\s+(?:have|own|use)|my)\b[^.?!]{0,120}?\bmac\s?OS,?\s+" + _RELEASE_WORDS, re.IGNORECASE)
# a parenthesised spec list of a Mac that ends in its macOS: '(macbook mid 2014, 2,5Ghz i7, 16GB ram, ... and macOS mojave)'
_RELEASE_IN_MAC_SPECS = re.compile(r"\((?:i?Mac\s?Book|iMac|Mac\s?mini|Mac\s?Pro)\b[^()]{0,160}?\bmac\s?OS\s+" + _RELEASE_WORDS
                                   + r"[^()]{0,40}\)", re.IGNORECASE)
# ... but not a release a text names for another Mac or as a requirement ('worked on my old iMac with Catalina',
# 'the installer said macOS Catalina and later').
_RELEASE_ELSEWHERE = re.compile(r"\bnew(?:er)?\s+(?:mac\s?OS\s+|OS\s?X\s+)?(?:release|version|Tahoe|Sequoia|Sonoma|Ventura|"
                                r"Monterey|Big Sur|Catalina|Mojave|High Sierra)\b|"  # 'a new Macbook running Mojave' is the writer's
                                r"\b(?:old|older|previous|former|other|another|earlier|later|above|before|"
                                r"worked|used\s+to|requires?|required|requirements?|installer|supports|supported|"
                                r"friend'?s?|colleague'?s?|minimum|at\s+least)\b", re.IGNORECASE)


def release_of_this_mac(line: str) -> bool:
    """Whether the line states its macOS release name about the writer's own Mac (see _RELEASE_KEYED and below)."""
    if _RELEASE_KEYED.search(line):
        return True
    if _RELEASE_ELSEWHERE.search(line):
        return False
    return bool(_RELEASE_FIRST.search(line) or _RELEASE_HERE.search(line) or _RELEASE_IN_MY_SPECS.search(line)
                or _RELEASE_IN_MAC_SPECS.search(line))


def keyed_release(line: str) -> bool:
    """A key-value answer naming a macOS release: 'macOS Version: Ventura', 'OS: macOS Mojave'."""
    return bool(_RELEASE_KEYED.search(line))
