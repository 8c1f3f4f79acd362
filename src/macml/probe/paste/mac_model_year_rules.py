"""A Mac named by its model and year, or beside an AMD GPU, in prose: what that says about its hardware.

- 'iMac (Retina 5K, 27-inch, Late 2015)', 'Really old Macbook Pro (Later 2013)', 'my 2017 MacBook Pro': every Mac
  model of 2019 or earlier has an Intel CPU (Apple silicon began with the late-2020 M1 Macs; apple.com/newsroom
  2020/11 'Introducing the next generation of Mac'). 2020 itself had both, so it names neither, except for the
  iMac, whose first Apple-silicon model came in 2021. The name and year
  are the Mac's model name (knowledge/cpu_models.mac_name_vectors reads its CPU's vectors from them); some such names
  have an AMD GPU in every configuration (knowledge/mac_igpus.mac_name_has_amd_gpu: 'iMac (Retina 5K, 27-inch, 2020)').
- 'a 2009/2010 Mac Pro running 10.14.6': the macOS version the named Mac runs.
- 'Could not run on Mac Pro with AMD GPU': only Intel Macs drive an AMD GPU; Apple-silicon Macs support no AMD
  GPU, built in or external (support.apple.com/102363: eGPUs need a Mac with an Intel processor).

Each rule is a pure function of one line.
"""
from __future__ import annotations

import re
from typing import Any, List, Tuple

from macml.knowledge.mac_igpus import mac_name_has_amd_gpu

Facts = List[Tuple[str, Any]]

_FAMILY = r"(?:Mac ?Book(?: ?Pro| ?Air)?|iMac(?: ?Pro)?|Mac ?mini|Mac ?Pro|MBP|MBA)"  # 'mbp mid 2014': people's shorthand
_SEASON = r"(?:(?:early|mid|late|later|end(?: of)?)[\s-]+)?"
_YEAR = r"(20(?:0[7-9]|1\d))"  # 64-bit Intel Macs (2007 on) to the last all-Intel year
_SIZE = r"(?:\s+\d{2}(?:\"|”|-inch|\s?inch))?(?:\s+Retina(?:\s+\dK)?)?"  # 'iMac 27" Retina 5K, Late 2015'
_AFTER = re.compile(r"\b" + _FAMILY + _SIZE + r"\s*(?:\(([^()]{0,40}?[\s,])?" + _SEASON + _YEAR + r"\s*\)|,?\s+(?:model\s+)?" + _SEASON + _YEAR
                    + r"\b(?![\d.,]))", re.IGNORECASE)
_BEFORE = re.compile(r"(?<![\w.])" + _SEASON + _YEAR + r"\s+(?:\d{2}(?:\"|”|-inch|\s?inch)\s+)?" + _FAMILY + r"\b", re.IGNORECASE)
# 'Mac15,7': the 'MacN,M' identifiers began with Apple silicon (knowledge/hardware.APPLE_SILICON_FROM: Mac13,1 on)
APPLE_SILICON_IDENTIFIER = re.compile(r"\bMac(?:1[3-9]|2\d),\d+\b")
_APPLE_CHIP = re.compile(r"(?<![\w-])M[1-9](?![\w.])|\bApple silicon\b|\barm64\b|" + APPLE_SILICON_IDENTIFIER.pattern, re.IGNORECASE)
_WITH_AMD = re.compile(r"\b" + _FAMILY + r"\s+(?:with|has|having|w/)\s+(?:an?\s+|the\s+|two\s+|dual\s+)?"
                       r"(?:AMD|Radeon)\s+(?:GPU|graphics|card|video card)s?\b", re.IGNORECASE)
_NOT_THIS = re.compile(r"(?:\b(?:not|no|never)|n't)\s+(?:(?:an?|the|my|on|for|with)\s+)*$", re.IGNORECASE)  # 'not a Mac Pro with ...' 


# the iMac's Apple-silicon models began in 2021 (the 24-inch M1 iMac), so an iMac of 2020 is an Intel one
_IMAC_2020 = re.compile(r"\biMac(?:\s+(?:5K|4K|Retina(?:\s+5K)?|27(?:\"|”|-inch|\s?inch)?))*\s*\(?(?:mid[\s-]+)?2020\b"
                        r"|\biMac \(Retina 5K, 27-inch, 2020\)", re.IGNORECASE)  # Apple's own name for it


def intel_mac_by_year(line: str) -> Facts:
    """'iMac (Retina 5K, 27-inch, Late 2015)', 'Macbook Pro (Later 2013)', '2017 MacBook Pro', 'iMac 5K 2020': an
    Intel Mac."""
    found = _AFTER.search(line) or _BEFORE.search(line) or _IMAC_2020.search(line)
    if not found or _APPLE_CHIP.search(line):
        return []
    name = " ".join(found.group().split())
    return ([("platform", "darwin"), ("cpu.hardware_arch", "x86_64"), ("cpu.model_name", name)]
            + ([("gpu.present", "AMD")] if mac_name_has_amd_gpu(name) else []))


def mac_with_amd_gpu(line: str) -> Facts:
    """'Could not run on Mac Pro with AMD GPU': an Intel Mac with an AMD GPU (the model unnamed)."""
    found = _WITH_AMD.search(line)
    if not found or _NOT_THIS.search(line[:found.start()]) or _APPLE_CHIP.search(line):
        return []
    return [("platform", "darwin"), ("cpu.hardware_arch", "x86_64"), ("gpu.present", "AMD")]


# 'a 2009/2010 Mac Pro running 10.14.6', 'my MacBook Air running macOS 13.4': the version that Mac runs
_RUNNING = re.compile(r"\b" + _FAMILY + r"\b[^.;?!]{0,30}?\brunning\s+(?:(?:mac ?OS|Mac OS X|OS X)\s+)?(?:[A-Z][a-z]+\s+)?"
                      r"(10\.(?:[4-9]|1[0-5])(?:\.\d{1,2})?|1[1-5]\.\d{1,2}(?:\.\d{1,2})?|2[6-9]\.\d{1,2}(?:\.\d{1,2})?)(?![\d.])",
                      re.IGNORECASE)


# a line that is only a Mac and an OS X / macOS 10 version: 'Mac Pro 10.13.6' (10.x is no Mac's size or model number)
_MAC_AND_VERSION = re.compile(r"^\s*(?:[-*]\s+)?" + _FAMILY + r"\s+(10\.(?:[4-9]|1[0-5])(?:\.\d{1,2})?)\s*$", re.IGNORECASE)


def mac_running_version(line: str) -> Facts:
    """'a 2009/2010 Mac Pro running 10.14.6', 'Mac Pro 10.13.6': that Mac's macOS version."""
    found = _RUNNING.search(line) or _MAC_AND_VERSION.match(line)
    if not found or _NOT_THIS.search(line[:found.start()]) or re.search(r"\b(?:not|no longer)\b|n't\b", found.group(0)):
        return []
    return [("platform", "darwin"), ("os.version", found.group(1))]


def line_facts(line: str) -> Facts:
    return intel_mac_by_year(line) + mac_with_amd_gpu(line) + mac_running_version(line)
