"""What a writer says their own CPU has of AVX: 'i do not have AVX2 but i do have AVX1', 'my CPU supports AVX2',
'My processor only has AVX, no AVX2', 'I have an old Xeon without AVX2, it does have AVX'.

Only statements in the writer's voice count: a clause with 'I'/'my'/'we'/'our' in its sentence, the AVX word right
after a verb of having ('have', 'has', 'supports', 'lacks', 'without', 'only'). Not requirements or plans ('requires
AVX2', 'I will include avx1 cuda support', 'built with AVX2'), questions, conditions ('if your CPU has AVX2'), build
names ('noavx2', 'vulkan old cpu'), another's or a past machine's CPU ('My colleague's CPU has AVX2', 'My previous
machine was an i7 with AVX2'). 'with AVX2' counts only after a CPU ('an old Xeon with AVX2'): 'the release with AVX2'
is a build, and one that crashes says, if anything, that the CPU lacks AVX2.

From them, only what they make certain: AVX2 (or AVX-512) had means AVX had; AVX had and AVX2 lacked is the flag list
{avx}. AVX lacked alone is left out (an Apple-silicon Mac under Rosetta lacks it too, and nothing else is stated).
Having any AVX names an x86 CPU. TensorFlow's cpu_feature_guard line names the instructions the CPU has. `find(lines)` is a paste finder giving those flags (none where the text holds a
real flag list); `line_facts(line)` gives the arch.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from macml.probe.paste.base import Part
from macml.probe.paste.said_of_this_machine import someone_elses
from macml.probe.paste.statement_rules import Facts

_AVX = r"(?<![\w-])AVX(?:(1|2)|-?(512)[A-Z]*)?(?![\w-])"
_HAVE = re.compile(r"\b(?:(?P<neg>(?:do|does|did)\s*(?:not|n't)\s+(?:have|support)|(?:has|have)\s+no|lacks?|lacking|without|"
                   r"no|not|missing)|(?P<pos>have|has|got|supports?|supporting|with|only))\s+(?:the\s+|any\s+|support\s+for\s+"
                   r"|instructions?\s+)?" + _AVX, re.IGNORECASE)
_WRITER = re.compile(r"\b(?:I|I'm|I've|my|mine|we|our)\b", re.IGNORECASE)
_NOT_STATED = re.compile(r"\b(?:if|whether|you|your|will|would|should|could|need|needs|require[sd]?|built|compiled|"
                         r"unlike|instead)\b|\?", re.IGNORECASE)
# the thing before an attributive 'with AVX2' / 'supporting AVX2' that makes it the CPU's, not a build's
_CPU_BEFORE = re.compile(r"\b(?:CPU|processor|chip|Xeon|Core|i[3579](?:-\w+)?|Ryzen(?:\s+\d)?|EPYC|Threadripper|Pentium|"
                         r"Celeron|Athlon|Phenom|FX(?:-\w+)?|Opteron)(?:\s+[\w-]+){0,2}\s+$", re.IGNORECASE)
_A_BUILD_AFTER = re.compile(r"^\s*(?:build|release|binary|binaries|version|variant|wheel|exe|executable|package)s?\b",
                            re.IGNORECASE)
# TensorFlow's own lines: 'Your CPU supports instructions that this TensorFlow binary was not compiled to use: SSE4.1
# SSE4.2 AVX AVX2 FMA' and (TF 2.4+) 'To enable the following instructions: AVX2 FMA, in other operations, rebuild'
_TF_GUARD = re.compile(r"(?:Your CPU supports instructions that this TensorFlow binary was not compiled to use|"
                       r"To enable the following instructions):\s*([A-Z0-9_. ]+)")
_FLAG_LIST = re.compile(r"^\s*(?:flags|Flags|capabilities|CPU flags)\s*:")


def vector_claims(line: str) -> Dict[str, bool]:
    """'i do not have AVX2 but i do have AVX1' -> {'avx2': False, 'avx': True}: each AVX level the line says the
    writer's CPU has (True) or lacks (False)."""
    claims: Dict[str, bool] = {}
    guard = _TF_GUARD.search(line)
    if guard:  # TensorFlow's cpu_feature_guard lists instructions this CPU has
        for level in re.findall(r"(?<![\w-])AVX(2|512\w*)?(?![\w-])", guard.group(1)):
            claims["avx512" if level.startswith("512") else "avx2" if level == "2" else "avx"] = True
        return claims
    for sentence in re.findall(r"[^.;!?]+(?:[.;!?]+|$)", line):
        if sentence.rstrip().endswith("?"):
            continue
        if someone_elses(sentence):
            continue
        for clause in re.split(r",|\b(?:but|and|so|since|because|while)\b", sentence):
            if not _WRITER.search(sentence) or _NOT_STATED.search(clause):
                continue
            for found in _HAVE.finditer(clause):
                if not _of_the_cpu(clause, found):
                    continue
                level = "avx512" if found.group(4) else "avx2" if found.group(3) == "2" else "avx"
                claims.setdefault(level, found.group("pos") is not None)
    return claims


def _of_the_cpu(clause: str, found: re.Match) -> bool:
    """'an old Xeon with AVX2' is the CPU's; 'the release with AVX2', 'the AVX2 build' are a build's."""
    if _A_BUILD_AFTER.match(clause[found.end():]):
        return False
    attributive = found.group("pos") and found.group("pos").lower() in ("with", "supporting")
    return not attributive or bool(_CPU_BEFORE.search(clause[:found.start()]))


def _flags(claims: Dict[str, bool]) -> Optional[List[str]]:
    """The flags the claims make certain, or None: {avx: True, avx2: False} -> ['avx']."""
    if claims.get("avx512") or claims.get("avx2"):
        return ["avx", "avx2"] + (["avx512f"] if claims.get("avx512") else [])
    if claims.get("avx") and claims.get("avx2") is False:
        return ["avx"]
    return None


def find(lines: Sequence[str]) -> List[Part]:
    """The writer's AVX statements across the text -> one Part with the flags they make certain."""
    if any(_FLAG_LIST.match(line) for line in lines):
        return []  # a real flag list says it all
    claims: Dict[str, bool] = {}
    where: List[int] = []
    for index, line in enumerate(lines):
        said = vector_claims(line)
        if said:
            where.append(index + 1)
            for level, has in said.items():
                claims.setdefault(level, has)
    flags = _flags(claims)
    return [Part("cpu_flags_stated", where[0], where[0], cpu_flags=flags,
                 notes=[f"CPU flags from the writer's words (lines {', '.join(map(str, where))}): {', '.join(flags)}"])] \
        if flags else []


def line_facts(line: str) -> Facts:
    """'my CPU supports AVX2' -> x86_64 hardware: only x86 CPUs have AVX."""
    facts: List[Tuple[str, object]] = []
    if any(vector_claims(line).values()):
        facts.append(("cpu.hardware_arch", "x86_64"))
    return facts
