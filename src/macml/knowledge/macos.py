"""What a Darwin kernel release says about the macOS around it, and which GPUs only Macs have.

Darwin releases: Apple's open-source release pages (opensource.apple.com/releases, one xnu per
macOS release) and the table in Wikipedia's "Darwin (operating system)" article, cross-checked
with `uname -r` outputs quoted in public bug reports. Darwin 20-24 map to macOS 11-15 and Darwin 25
to macOS 26 (Apple renumbered by year); within one major, minor N is macOS minor N-1 (11-13: Darwin
x.1 was the .0 release) except where the table lists it; the last minor of a major covers the
late point releases too (22.6.0 = macOS 13.5, 13.6 and 13.7), so it gives the lowest of them. Darwin 17-19
(macOS 10.13-10.15) follow the Darwin releases of the build table in macos_builds: 17.N and 18.N are
10.13.N-1 and 10.14.N-1 (18.2.0 covers 10.14.1-10.14.3), 19.N is 10.15.N.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

# Darwin major -> (macOS major, minor offset: macOS minor = Darwin minor - offset, last Darwin minor,
# the macOS versions its last minor covers).
DARWIN_MAJORS = {
    # Darwin 10-16 are OS X 10.6-10.12, their minors not one per point release (13.4.0 was both 10.9.4 and 10.9.5):
    # only the release is kept
    10: ("10.6", None, None, ""), 11: ("10.7", None, None, ""), 12: ("10.8", None, None, ""),
    13: ("10.9", None, None, ""), 14: ("10.10", None, None, ""), 15: ("10.11", None, None, ""),
    16: ("10.12", None, None, ""),
    17: ("10.13", 1, None, ""),
    18: ("10.14", 1, None, ""),
    19: ("10.15", 0, 6, "10.15.6-10.15.7"),
    20: ("11", 1, 6, "11.5-11.7"),
    21: ("12", 1, 6, "12.5-12.7"),
    22: ("13", 1, 6, "13.5-13.7"),
    23: ("14", 0, 6, "14.6-14.7"),
    24: ("15", 0, 6, "15.6-15.7"),
    25: ("26", 0, None, ""),
}
# Darwin 21.0.1 shipped as macOS 12.0 and 21.1.0 as 12.0.1: both are 12.0 for every purpose here.
_SPECIAL = {(21, 0): "12.0", (20, 0): "11.0", (22, 0): "13.0", (17, 0): "10.13", (18, 0): "10.14", (19, 0): "10.15"}
# OS X 10.10's point releases each had a Darwin minor of its own (Apple's kernel versions: 10.10.2 is Darwin 14.1.0,
# 10.10.3 14.3.0, 10.10.4 14.4.0, 10.10.5 14.5.0; 14.0.0 was both 10.10 and 10.10.1, so it keeps the release only)
_SPECIAL.update({(14, 1): "10.10.2", (14, 3): "10.10.3", (14, 4): "10.10.4", (14, 5): "10.10.5"})


def macos_for_darwin(release: str) -> Tuple[Optional[str], str]:
    """'23.5.0' -> ('14.5', 'Darwin 23.5.0 = macOS 14.5'); '22.6.0' -> ('13.5', '... macOS 13.5-13.7 (the
    lowest kept)'); a major with no minor map -> ('10.15', ...); unknown -> (None, '')."""
    match = re.match(r"^\s*(\d+)\.(\d+)", release or "")
    if not match:
        return None, ""
    major, minor = int(match.group(1)), int(match.group(2))
    if major not in DARWIN_MAJORS:
        return None, ""
    macos, offset, last, late = DARWIN_MAJORS[major]
    if offset is None and (major, minor) in _SPECIAL:
        return _SPECIAL[(major, minor)], f"Darwin {release} is macOS {_SPECIAL[(major, minor)]}"
    if offset is None:
        return macos, f"Darwin {release} is macOS {macos}"
    version = _SPECIAL.get((major, minor)) or f"{macos}.{max(minor - offset, 0)}"
    if last is not None and minor >= last:
        return version, f"Darwin {release} is macOS {late} (the lowest is kept)"
    return version, f"Darwin {release} is macOS {version}"


# GPUs Apple had AMD build for Macs only (Apple's Tech Specs pages for the MacBook Pro 2016-2020 (Radeon Pro 450/455/460,
# 555/560, 555X/560X), the 2017 iMacs (Radeon Pro 555/560/570/575/580) and 2019 iMacs (555X-580X),
# iMac 2017-2020 (the 2020 27-inch iMac's Radeon Pro 5300-5700 XT), iMac Pro and Mac Pro 2019, and the FirePro
# D300/D500/D700 of the Mac Pro 2013): their names say the machine is a Mac.
MAC_ONLY_GPU = re.compile(r"\bRadeon Pro (?:45[05]|460|5(?:55|60|70|75|80)X?|5[3-6]00[MX]?|5700(?: XT)?|Vega (?:16|20|48|56|64X?)|"
                          r"W5[57]00X|W6[89]00X(?: Duo)?)\b|\bFirePro D[357]00\b"
                          r"|\b(?:Radeon )?Pro (?:Vega II(?: Duo)?|W6600X)\b", re.IGNORECASE)  # Mac Pro 2019 MPX modules
# (support.apple.com/kb/SP797): people write 'AMD Pro Vega II' without 'Radeon'


def mac_only_gpu(name: str) -> bool:
    """'AMD Radeon Pro 580' -> True (iMac 2017); 'AMD Radeon RX 580' -> False."""
    return bool(MAC_ONLY_GPU.search(name or ""))

# Memory sizes (GB) Apple sells in Apple-silicon Macs, M1 to M4 generations: apple.com/mac/compare and each
# model's tech-specs page. A number beside a chip name that is not one of these is not the Mac's memory.
APPLE_SILICON_MEMORY_GB = frozenset({8, 16, 18, 24, 32, 36, 48, 64, 96, 128, 192, 256, 512})
# Beside a Mac's product name the Mac may be an Intel one, which also came with 12 GB (e.g. iMac 2019).
MAC_MEMORY_GB = APPLE_SILICON_MEMORY_GB | {12}


# macOS release names and the version each names (Apple's "macOS version history", support.apple.com/HT201260).
MACOS_RELEASE_NAMES = {"tahoe": "26", "sequoia": "15", "sonoma": "14", "ventura": "13", "monterey": "12",
                       "big sur": "11", "catalina": "10.15", "mojave": "10.14", "high sierra": "10.13",
                       "sierra": "10.12", "el capitan": "10.11", "yosemite": "10.10", "mavericks": "10.9"}

# The last update of each release Apple no longer updates (support.apple.com/100100, 'Apple security releases'):
# 'the latest version of High Sierra' is 10.13.6
FINAL_RELEASES = {"el capitan": "10.11.6", "sierra": "10.12.6", "high sierra": "10.13.6", "mojave": "10.14.6",
                  "catalina": "10.15.7", "big sur": "11.7.10", "monterey": "12.7.6"}

_RELEASE_WORD = re.compile(r"\b(" + "|".join(sorted(MACOS_RELEASE_NAMES, key=len, reverse=True)).replace(" ", r"\s*")
                           + r")\b", re.IGNORECASE)  # 'BigSur' as people type it


_SPACED = {name.replace(" ", ""): name for name in MACOS_RELEASE_NAMES}


def sole_release(line: str) -> Optional[str]:
    """The version a line's one macOS release name stands for ('on Catalina' -> '10.15'); None when it names two
    ('upgraded from Catalina to Big Sur': which one runs now is not for a name to say) or none."""
    names = {_SPACED.get(m.group(1).lower().replace(" ", ""), " ".join(m.group(1).lower().split()))
             for m in _RELEASE_WORD.finditer(line)}
    return MACOS_RELEASE_NAMES[names.pop()] if len(names) == 1 else None
