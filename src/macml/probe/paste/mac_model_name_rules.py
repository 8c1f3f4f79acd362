"""This machine's Mac named by its family and year, as people write it: a 'Mac: MacBook Pro 15" Late-2013' field,
About This Mac's own line 'MacBook Pro (15-inch, 2018)', or 'my 2013 MacBook Pro' / 'I have an iMac (Late 2015)'.

The name is kept as written (cpu.model_name); knowledge/thunderbolt reads from it whether that Mac has Thunderbolt 3,
which macOS needs to drive an eGPU. A Mac named to compare with, recommended or ruled out ('unlike the 2013 MacBook
Pro', 'not my 2015 iMac', 'MacBook Pro 2016 and later') is not this machine, nor is a past one ('I had a 2013
MacBook Pro', 'It worked on my old 2017 iMac, but fails on my new Mac Studio', '... was stolen'). The family-and-year patterns are
mac_model_year_rules'.

Each rule is a pure function of one line (or one `key: value` pair).
"""
from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

from macml.probe.paste.mac_model_year_rules import _AFTER, _APPLE_CHIP, _BEFORE
from macml.probe.paste.said_of_this_machine import mentioned_only

Facts = List[Tuple[str, Any]]

# the fields a report's writer fills with their own Mac
_MAC_KEYS = frozenset({"mac", "my mac", "computer", "machine", "model", "model name", "mac model", "hardware", "device",
                       "laptop", "system", "host", "mac hardware", "hardware model", "system information", "system info"})
_OWNED = re.compile(r"(?:\b(?:my|our)|\bI(?:'ve| have| got|'ve got| have got| own| bought| use| am using|'m using"
                    r"| am on|'m on| am running|'m running)"
                    r"(?:\s+(?:an?|the|this))?|\b(?:on|using|with)\s+(?:my|our))\s+(?:(?:old|new|trusty|\w+-inch|\d{2}\")\s+)*"
                    r"(?:(?!(?:previous|former|last|other|friend|work)\b)[a-z]{3,12}\s+)?$",
                    re.IGNORECASE)
_ELSEWHERE = re.compile(r"\b(?:not|never|unlike|instead of|other than|than|compared? (?:to|with)|vs\.?|friend'?s?|colleague'?s?)\b|n't\b",
                        re.IGNORECASE)
_RANGE_AFTER = re.compile(r"^\s*(?:\)\s*)?(?:and|or)\s+(?:later|newer|above|up)\b|^\s*(?:\+|-\s*20\d\d|to\s+20\d\d)", re.IGNORECASE)
_ABOUT_LINE = re.compile(r"^\s*(?:Mac ?Book(?: ?Pro| ?Air)?|iMac(?: ?Pro)?|Mac ?mini|Mac ?Pro)\s*\([^()]{0,40}\b20[01]\d\)\s*$",
                         re.IGNORECASE)


def _named(text: str) -> Optional[re.Match]:
    return _AFTER.search(text) or _BEFORE.search(text)


def _clean(name: str) -> str:
    return " ".join(name.split()).strip(" ,.")


_LISTED_FAMILY = re.compile(r"^(Mac ?Book(?: ?Pro| ?Air)?|iMac|Mac ?mini|Mac ?Pro)$", re.IGNORECASE)
_LISTED_YEAR = re.compile(r"^(?:(?:early|mid|late)[ -])?20[01]\d$", re.IGNORECASE)


def keyed_mac(key: str, value: str) -> Facts:
    """'**Mac**: MacBook Pro 15" Late-2013', 'Computer: 2015 iMac': the writer's own Mac; a list of its parts that
    names the family and the year apart ('System information: Macbook Pro, macOS Catalina 10.15.7, mid 2012, ...')."""
    if key.strip().lower() not in _MAC_KEYS or _APPLE_CHIP.search(value) or _ELSEWHERE.search(value):
        return []
    found = _named(value)
    if found and not _RANGE_AFTER.match(value[found.end():]):
        return [("cpu.model_name", _clean(found.group()))]
    items = [item.strip() for item in value.split(",")]
    year = next((item for item in items[1:] if _LISTED_YEAR.match(item)), None)
    return [("cpu.model_name", f"{items[0]} ({year})")] if year and _LISTED_FAMILY.match(items[0]) else []


def owned_mac(line: str) -> Facts:
    """'my 2013 MacBook Pro', 'I have an iMac (Late 2015)', About This Mac's 'MacBook Pro (15-inch, 2018)' line."""
    if _ABOUT_LINE.match(line):
        return [("cpu.model_name", _clean(line))]
    found = _named(line)
    if not found or _APPLE_CHIP.search(line) or _RANGE_AFTER.match(line[found.end():]):
        return []
    before = line[:found.start()]
    if not _OWNED.search(before) or _ELSEWHERE.search(before[-40:]) or mentioned_only(line, found.start(), found.end()):
        return []
    return [("cpu.model_name", _clean(found.group()))]


_PRO_SIZE = re.compile(r"\bMac ?Book ?Pro\s*\(?(1[36])(?:[-\s]?inch|\"|'')?(?=[\s,)]|$)|\b(1[36])(?:[-\s]?inch|\"|'')\s*Mac ?Book ?Pro\b",
                       re.IGNORECASE)
_DEVICE_KEYS = ("device", "mac", "machine", "computer", "hardware", "laptop", "model")


def pro_size(line: str) -> Facts:
    """'my Macbook Pro 13 M1', 'my 13" MacBook Pro', ' - Device: Macbook Pro 16" - M1 Pro': the writer's 13- or 16-inch
    MacBook Pro (the size, not the year)."""
    device = re.match(r"^\s*[-*]?\s*(\w+)\s*:\s*", line)
    for found in _PRO_SIZE.finditer(line):
        mine = _OWNED.search(line[:found.start()]) or (device and device.group(1).lower() in _DEVICE_KEYS
                                                       and device.end() == found.start())
        if mine and not _ELSEWHERE.search(line[max(0, found.start() - 40):found.start()]):
            return [("cpu.model_name", f"MacBook Pro {found.group(1) or found.group(2)}-inch")]
    return []


def keyed_facts(key: str, value: str) -> Facts:
    return keyed_mac(key, value)


_MAC_MINI = re.compile(r"\bmac ?mini\b", re.IGNORECASE)
_OTHER_FAMILY = re.compile(r"\b(?:Mac ?Book|iMac|Mac ?Studio|Mac ?Pro)\b", re.IGNORECASE)


def mac_mini(line: str) -> Facts:
    """'test with the MAC Mini M1', '# too slow on Mac mini Unified 16G Ram': the writer's Mac is a Mac mini (only the
    family: its chip may be on another line). A line naming another Mac family too is left alone."""
    found = _MAC_MINI.search(line)
    if not found or _OTHER_FAMILY.search(line) or mentioned_only(line, found.start(), found.end()) \
            or _ELSEWHERE.search(line[max(0, found.start() - 40):found.start()]):
        return []
    return [("cpu.model_name", "Mac mini")]


def line_facts(line: str) -> Facts:
    return owned_mac(line) or mac_mini(line) or pro_size(line)
