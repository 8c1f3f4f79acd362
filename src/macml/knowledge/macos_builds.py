"""A macOS build number ('23E224', what powermetrics, `sw_vers -buildVersion` and `kern.osversion` print)
-> the macOS release it is.

Source: the release table of odin-lang/Odin's src/bug_report.cpp (macos_release_map, macOS 10.13 to 15.1.1;
commit 76516030c4345012ded3e47b8afd4f1160f2d821, the last before da4347f7 replaced it), which lists the
build of every public release. A build's first two digits are its Darwin major and its letter Apple's
minor release; the number after the letter grows with each point release of that minor. Rapid Security
Response builds ('22F770820d') are left out. From Darwin 23 (macOS 14) on, letter A is minor 0, B is 1, ...
(14.0-14.7 are 23A-23H in the table), which places builds newer than the table (15.2's 24C, 26.2's 25C)."""
from __future__ import annotations

import re
from typing import Dict, Optional, Tuple

from macml.knowledge.macos import DARWIN_MAJORS

_TABLE = """
    17A365=10.13 17A405=10.13 17B48=10.13.1 17B1002=10.13.1 17B1003=10.13.1 17C88=10.13.2 17C89=10.13.2
    17C205=10.13.2 17C2205=10.13.2 17D47=10.13.3 17D2047=10.13.3 17D102=10.13.3 17D2102=10.13.3 17E199=10.13.4
    17E202=10.13.4 17F77=10.13.5 17G65=10.13.6 17G2208=10.13.6 17G2307=10.13.6 17G3025=10.13.6 17G4015=10.13.6
    17G5019=10.13.6 17G6029=10.13.6 17G6030=10.13.6 17G7024=10.13.6 17G8029=10.13.6 17G8030=10.13.6 17G8037=10.13.6
    17G9016=10.13.6 17G10021=10.13.6 17G11023=10.13.6 17G12034=10.13.6 17G13033=10.13.6 17G13035=10.13.6
    17G14019=10.13.6 17G14033=10.13.6 17G14042=10.13.6 18A391=10.14 18B75=10.14.1 18B2107=10.14.1 18B3094=10.14.1
    18C54=10.14.2 18D42=10.14.3 18D43=10.14.3 18D109=10.14.3 18E226=10.14.4 18E227=10.14.4 18F132=10.14.5
    18G84=10.14.6 18G87=10.14.6 18G95=10.14.6 18G103=10.14.6 18G1012=10.14.6 18G2022=10.14.6 18G3020=10.14.6
    18G4032=10.14.6 18G5033=10.14.6 18G6020=10.14.6 18G6032=10.14.6 18G6042=10.14.6 18G7016=10.14.6 18G8012=10.14.6
    18G8022=10.14.6 18G9028=10.14.6 18G9216=10.14.6 18G9323=10.14.6 19A583=10.15 19A602=10.15 19A603=10.15
    19B88=10.15.1 19C57=10.15.2 19C58=10.15.2 19D76=10.15.3 19E266=10.15.4 19E287=10.15.4 19F96=10.15.5
    19F101=10.15.5 19G73=10.15.6 19G2021=10.15.6 19H2=10.15.7 19H4=10.15.7 19H15=10.15.7 19H114=10.15.7
    19H512=10.15.7 19H524=10.15.7 19H1030=10.15.7 19H1217=10.15.7 19H1323=10.15.7 19H1417=10.15.7 19H1419=10.15.7
    19H1519=10.15.7 19H1615=10.15.7 19H1713=10.15.7 19H1715=10.15.7 19H1824=10.15.7 19H1922=10.15.7 19H2026=10.15.7
    20A2411=11.0 20B29=11.0.1 20B50=11.0.1 20C69=11.1 20D64=11.2 20D74=11.2.1 20D75=11.2.1 20D80=11.2.2 20D91=11.2.3
    20E232=11.3 20E241=11.3.1 20F71=11.4 20G71=11.5 20G80=11.5.1 20G95=11.5.2 20G165=11.6 20G224=11.6.1
    20G314=11.6.2 20G415=11.6.3 20G417=11.6.4 20G527=11.6.5 20G624=11.6.6 20G630=11.6.7 20G730=11.6.8 20G817=11.7
    20G918=11.7.1 20G1020=11.7.2 20G1116=11.7.3 20G1120=11.7.4 20G1225=11.7.5 20G1231=11.7.6 20G1345=11.7.7
    20G1351=11.7.8 20G1426=11.7.9 20G1427=11.7.10 21A344=12.0 21A559=12.0.1 21C52=12.1 21D49=12.2 21D62=12.2.1
    21E230=12.3 21E258=12.3.1 21F79=12.4 21F2081=12.4 21F2092=12.4 21G72=12.5 21G83=12.5.1 21G115=12.6 21G217=12.6.1
    21G320=12.6.2 21G419=12.6.3 21G526=12.6.4 21G531=12.6.5 21G646=12.6.6 21G651=12.6.7 21G725=12.6.8 21G726=12.6.9
    21G816=12.7 21G920=12.7.1 21G1974=12.7.2 21H1015=12.7.3 21H1123=12.7.4 21H1222=12.7.5 21H1320=12.7.6 22A380=13.0
    22A400=13.0.1 22C65=13.1 22D49=13.2 22D68=13.2.1 22E252=13.3 22E261=13.3.1 22F66=13.4 22F82=13.4.1 22G74=13.5
    22G90=13.5.1 22G91=13.5.2 22G120=13.6 22G313=13.6.1 22G320=13.6.2 22G436=13.6.3 22G513=13.6.4 22G621=13.6.5
    22G630=13.6.6 22G720=13.6.7 22G820=13.6.8 22G830=13.6.9 22H123=13.7 22H221=13.7.1 23A344=14.0 23B74=14.1
    23B81=14.1.1 23B2082=14.1.1 23B92=14.1.2 23B2091=14.1.2 23C64=14.2 23C71=14.2.1 23D56=14.3 23D60=14.3.1
    23E214=14.4 23E224=14.4.1 23F79=14.5 23G80=14.6 23G93=14.6.1 23H124=14.7 23H222=14.7.1 24A335=15.0 24A348=15.0.1
    24B83=15.1 24B91=15.1.1 24B2091=15.1.1
"""
BUILDS: Dict[str, str] = dict(item.split("=") for item in _TABLE.split())
_BUILD = re.compile(r"^(\d{2})([A-Z])(\d{1,5})[a-z]?$")


def macos_for_build(build: str) -> Tuple[Optional[str], str]:
    """'23E224' -> ('14.4.1', 'build 23E224 is macOS 14.4.1'); a build not in the table -> the lowest
    release of its letter ('23E999' -> '14.4'), or for Darwin 23+ the minor its letter counts to ('24C101'
    -> '15.2'); anything else -> (None, '')."""
    found = _BUILD.match((build or "").strip())
    if not found:
        return None, ""
    build = found.group()
    if build in BUILDS:
        return BUILDS[build], f"build {build} is macOS {BUILDS[build]}"
    major, letter = found.group(1), found.group(2)
    same = sorted((v for b, v in BUILDS.items() if b[:3] == major + letter),
                  key=lambda v: tuple(int(p) for p in v.split(".")))
    if same:
        lowest = ".".join(same[0].split(".")[:3 if same[0].startswith("10.") else 2])
        return lowest, f"build {build} is a macOS {lowest} release (its letter {letter}; the lowest is kept)"
    if int(major) >= 23 and int(major) in DARWIN_MAJORS:
        version = f"{DARWIN_MAJORS[int(major)][0]}.{ord(letter) - ord('A')}"
        return version, f"build {build} is macOS {version} (Darwin {major}, minor release {letter})"
    return None, ""
