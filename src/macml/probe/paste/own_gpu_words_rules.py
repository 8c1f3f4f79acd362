"""GPUs the writer says are in their own machine, in words other rules miss, each a pure function of text:

- the machine named as the subject, then the GPUs it holds ('Same Node also runs MI100 and MI210 successfully',
  'this server has an MI250X', 'our box also hosts two RX 7900 XTX'): each a GPU of this machine. Not from a
  question, a negation, or another machine ('the other node runs MI100');
- an AMD chip's codename as the writer's own GPU ('my GPU (Vega 10 XT)', 'my card is a Navi 21 XTX'): that GPU, as
  written;
- a GeForce named by its number in one sentence of several ('My Nvidia 1050 is detected properly by koboltcpp btw.
  My previous 6800 XT ...'): env_report_rules reads the number only where the line names no other GPU;
- a bare Radeon number the writer owns ('I have 7600xt now') that another line spells with its series ('please
  support rx 7600xt'): that line's fuller name, as a mention, so the GPU carries it (stated_gpus prefers a
  mention that names an owned bare model whole);
- a line that opens with a bare Radeon XT number as its subject, in a report about AMD's stack ('7800 XT, tried using
  both stable and unstable versions of ROCm'): the writer's Radeon RX card;
- a GPU named as running in a Mac ('AMD RX 6900 XT on a Mac 5,1 with macOS 12', 'an RX 580 in my Mac Pro'): that GPU;
- a laptop named by its GeForce RTX number ('on a 5060 laptop', 'my 4070 Ti laptop'): NVIDIA's laptop part of that
  number, the GeForce RTX 5060 Laptop GPU (RTX 2050 to 5090 are the numbers sold in laptops; other numbers, a year
  among them, are not read);
- a machine said to lack one ('on a computer without an nvidia graphics card', 'an office computer with no discrete
  graphics'): no NVIDIA GPU there (NVIDIA's PC GPUs are all discrete), a vendor the evidence rules out.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.knowledge.amd_gfx import INSTINCT_MODEL
from macml.probe.paste.env_report_rules import gpu_in_line
from macml.probe.paste.gpu_names import gpu_names, gpu_vendor, informal_gpu_names
from macml.probe.paste.linux_words_rules import owned_gpus
from macml.probe.paste.said_of_this_machine import hypothetical, negated, someone_elses
from macml.probe.paste.statement_rules import Facts

_NEGATED = re.compile(r"\b(?:not|never|no longer|without|unlike|instead of|rather than)\b|n't\b", re.IGNORECASE)
_OWNER = re.compile(r"\b(?:I|I'm|I've|my|our|we|we're)\b", re.IGNORECASE)
_THIS_MACHINE = re.compile(r"\b(?:(?:the\s+)?same|this|our|my)\s+(?:node|machine|server|box|host|system|rig|workstation|PC|"
                           r"computer)\s+(?:also\s+|still\s+)?(?:runs|has|hosts|holds|contains|houses|is\s+running|has\s+got)\s+",
                           re.IGNORECASE)
_INSTINCT = re.compile(r"(?<![\w-])(" + INSTINCT_MODEL + r")(?![\w-])", re.IGNORECASE)
_MY_CODENAME = re.compile(r"\b(?:my|our)\s+(?:GPU|graphics card|video card|card)\s*(?:\(\s*|is\s+(?:an?\s+)?|:\s*)"
                          r"((?:Navi|Vega)\s?\d{2}(?:\s+(?:XTX|XT|XL|XLE|GL))?)(?![\w.-])", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!;])\s+(?=[A-Z])")
_RX_SPELLED = re.compile(r"^(?:amd\s+)?(?:radeon\s+)?rx\s?", re.IGNORECASE)


def _owned(name: str, vendor: str = "") -> tuple:
    return ("gpu.owned", {"name": name, "vendor": vendor or gpu_vendor(name), "memory_mib": None, "index": None})


def machine_holds(line: str) -> Facts:
    """'Same Node also runs MI100 and MI210 successfully.' -> MI100, MI210."""
    found = _THIS_MACHINE.search(line)
    if not found or negated(line[:found.end()]) or hypothetical(line):
        return []
    rest = re.split(r"[.;!?](?:\s|$)", line[found.end():])[0]
    if "?" in line[found.end():found.end() + len(rest) + 1] or re.search(r"\bother\b", line[max(0, found.start() - 12):found.start()]):
        return []
    names = list(dict.fromkeys(gpu_names(rest) + informal_gpu_names(rest) + [m.group(1) for m in _INSTINCT.finditer(rest)]))
    return [_owned(name, "AMD" if _INSTINCT.fullmatch(name) else "") for name in names
            if _INSTINCT.fullmatch(name) or gpu_vendor(name) != "unknown"]


_IN_A_MAC = re.compile(r"\s+(?:on|in|inside)\s+(?:a|an|my|our|the)\s+(?:old\s+|classic\s+)?(?:Mac(?:\s?Pro)?|iMac(?:\s+Pro)?|"
                       r"MacBook(?:\s+Pro)?|Hackintosh|cMP)\b")


def gpu_in_a_mac(line: str) -> Facts:
    """'AMD RX 6900 XT on a Mac 5,1 with macOS 12.' -> RX 6900 XT."""
    facts: Facts = []
    for sentence in re.split(r"(?<=[.!?;])\s+", line):
        named = list(dict.fromkeys(gpu_names(sentence) + informal_gpu_names(sentence)))
        named = [n for n in named if not any(n != other and n in other for other in named)]
        place = _IN_A_MAC.search(sentence)
        if len(named) != 1 or not place or negated(sentence) or hypothetical(sentence) or someone_elses(sentence):
            continue
        end = sentence.find(named[0]) + len(named[0])
        if sentence.find(named[0]) >= 0 and not sentence[end:place.start()].strip():
            facts.append(_owned(named[0]))
    return facts


def codename_gpu(line: str) -> Facts:
    """'this is the output for my GPU (Vega 10 XT) of rocm-smi' -> 'Vega 10 XT', an AMD GPU."""
    found = _MY_CODENAME.search(line)
    if not found or negated(line[:found.start()]) or hypothetical(line):
        return []
    return [_owned(" ".join(found.group(1).split()), "AMD")]


def sentence_geforce(line: str) -> Facts:
    """'My Nvidia 1050 is detected properly by koboltcpp btw. My previous 6800 XT ...' -> the 'Nvidia 1050' (6.1)."""
    sentences = _SENTENCE.split(line)
    if len(sentences) < 2:
        return []
    return [fact for sentence in sentences if _OWNER.search(sentence) and not _NEGATED.search(sentence)
            and not hypothetical(sentence) and not someone_elses(sentence) for fact in gpu_in_line(sentence)]


def fuller_spelling(lines: Sequence[str]) -> Dict[int, Facts]:
    """'I have 7600xt now' ... 'please support rx 7600xt' -> the second line mentions 'rx 7600xt' (the owned card)."""
    owned = {re.sub(r"\s", "", value["name"].lower()) for line in lines for _, value in owned_gpus(line)
             if not _RX_SPELLED.match(value["name"])}
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        spelled = [n for n in informal_gpu_names(line) if _RX_SPELLED.match(n)
                   and re.sub(r"\s", "", _RX_SPELLED.sub("", n).lower()) in owned]
        if owned and len(set(spelled)) == 1:
            found[index] = [("gpu.mention", spelled[0])]
    return found


_OPENING_XT = re.compile(r"^\s*((?:5[5-7]|6[6-9]|7[6-9])[05]0|90[67]0)\s?(XTX|XT)\s*[,:;-]\s")
_AMD_STACK = re.compile(r"\b(?:ROCm|HIP|RDNA\s?\d?|Radeon|AMD|amdgpu)\b")


def opening_xt(line: str) -> Facts:
    """'7800 XT, tried using both stable and unstable versions of ROCm (6.2 & 6.3)' -> the AMD Radeon RX 7800 XT."""
    found = _OPENING_XT.match(line)
    if not found or not _AMD_STACK.search(line) or hypothetical(line) or line.rstrip().endswith("?"):
        return []
    return [_owned(f"AMD Radeon RX {found.group(1)} {found.group(2)}", "AMD")]


_NUMBERED_LAPTOP = re.compile(r"\b(?:on|with|using|have|own)\s+(?:a|an|my|our)\s+((?:20[5-8]|30[5-8]|40[5-9]|50[5-9])0)"
                              r"\s+(?:laptop|notebook)\b", re.IGNORECASE)


def numbered_laptop(line: str) -> Facts:
    """'on Fedora 43 on a 5060 laptop (with an AMD cpu)' -> the NVIDIA GeForce RTX 5060 Laptop GPU."""
    found = _NUMBERED_LAPTOP.search(line)
    clause = re.split(r"[,;:.!?\"()]", line[:found.start()])[-1] if found else ""  # the words that lead to it
    if not found or negated(clause) or hypothetical(clause):
        return []
    number = re.sub(r"\s*ti$", " Ti", found.group(1), flags=re.IGNORECASE)
    return [_owned(f"NVIDIA GeForce RTX {number} Laptop GPU", "NVIDIA")]


_LACKS_GPU = re.compile(r"\b(?:computer|PC|laptop|machine|desktop|notebook|system|server)\s+(?:with\s+no|without\s+(?:an?\s+|any\s+)?)"
                        r"(?:nvidia|discrete|dedicated)\s+(?:graphics(?:\s+card)?|GPU|video\s+card|card)\b", re.IGNORECASE)


def lacks_gpu(line: str) -> Facts:
    """'I ran torch.cuda.is_available() on a computer without an nvidia graphics card' -> no NVIDIA GPU."""
    found = _LACKS_GPU.search(line)
    clause = re.split(r"[.;!?]\s", line[:found.start()])[-1] if found else ""
    if not found or hypothetical(clause + found.group()) or re.search(r"\b(?:if|other|another|their|your)\b", clause, re.IGNORECASE):
        return []
    return [("gpu.absent_said", "NVIDIA")]


def line_facts(line: str) -> Facts:
    return (lacks_gpu(line) + machine_holds(line) + codename_gpu(line) + sentence_geforce(line) + opening_xt(line) + gpu_in_a_mac(line)
            + numbered_laptop(line))


def answers(lines: Sequence[str]) -> Dict[int, List]:
    return fuller_spelling(lines)
