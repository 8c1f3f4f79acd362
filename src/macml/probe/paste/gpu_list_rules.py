"""Several GPUs answered in one GPU field: '**System GPUs**: Intel Iris & NVIDIA GT 750M', 'GPUs: Intel UHD Graphics 630,
AMD Radeon Pro 560X', 'Graphics: Intel HD Graphics 4000 and NVIDIA GeForce GT 650M'.

A field for the machine's GPUs (statement_rules reads only its first name) names each of them; a dual-GPU
MacBook Pro lists the integrated and the discrete one. In such a field NVIDIA's low-end 'GT' models are named
without 'GeForce' ('NVIDIA GT 750M', 'GT 650M'), a name no other vendor uses for a GPU (NVIDIA's GeForce GT 600/700
series: nvidia.com/en-us/geforce/graphics-cards, 'GeForce GT 750M').

Only a field whose key names the machine's own GPUs counts ('Supported GPUs', 'Tested on' are other machines').
Each rule is a pure function of one `key: value` pair.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.amd_gfx import INSTINCT_MODEL, instinct_target
from macml.probe.paste.gpu_names import gpu_names, gpu_record, gpu_value
from macml.probe.paste.said_of_this_machine import hypothetical, someone_elses

Facts = List[Tuple[str, Any]]

# 'gpu', 'gpus', 'gpu(s)', 'system gpus', 'graphics', 'graphics cards', 'video card', 'display adapters'
_GPU_KEY = re.compile(r"^(?:(?:system|installed|my|internal|built-in)\s+)?(?:gpu(?:\(s\)|s)?|graphics(?:\s+cards?)?|video\s+cards?"
                      r"|display\s+adapters?|graphics\s+processors?)$")
# ... and About This Mac's 'Graphics: Radeon Pro 555X 4 GB Intel UHD Graphics 630 1536 MB' (a size, then the next GPU)
_SPLIT = re.compile(r"\s*(?:&|\+|;|,|/|\band\b|\bplus\b(?!\s+Graphics)|\bwith\b)\s*|(?<=[GM]B)\s+(?=(?:Intel|AMD|ATI|Radeon|NVIDIA|GeForce)\b)",
                    re.IGNORECASE)
_NEGATED = re.compile(r"(?:\b(?:no|not|without|never)\b|n't)", re.IGNORECASE)
# 'NVIDIA T4 (Colab) and RTX 3060 locally': each GPU on its own runtime, not two GPUs of one machine
_PLACED = re.compile(r"\b(?:locally|local|Colab|Kaggle|cloud|remote|on\s+(?:the|my|a)\s+(?:server|cluster|VM|desktop|laptop))\b",
                     re.IGNORECASE)
# a part naming a GPU only tried ('tried on an RTX 3090 as well'): another machine's
_TRIED_ON = re.compile(r"\b(?:tried|tested)\s+(?:it\s+)?(?:on|with)\b", re.IGNORECASE)
_GT = re.compile(r"^((?:nvidia\s+)?(?:geforce\s+)?GT\s?\d{3,4}M?)$", re.IGNORECASE)


def _gt_name(part: str) -> Facts:
    """'NVIDIA GT 750M', 'GT 650M': an NVIDIA GeForce GT model written without 'GeForce'."""
    found = _GT.match(part.strip().rstrip("."))
    if not found:
        return []
    return [("gpu", {"name": found.group(1), "vendor": "NVIDIA", "memory_mib": None, "index": None})]


def listed_gpus(key: str, value: str) -> Facts:
    """'System GPUs: Intel Iris & NVIDIA GT 750M, etc.' -> Intel Iris and NVIDIA GT 750M, each a GPU of this machine
    (only where the field names two or more; one name is statement_rules' to read)."""
    if not _GPU_KEY.match(key.strip().lower()) or _NEGATED.search(value):
        return []
    parts = [part for part in _SPLIT.split(value.strip().rstrip(".")) if part.strip()]
    if any(_PLACED.search(part) for part in parts):
        return []
    facts: Facts = []
    for part in parts:
        if hypothetical(part) or someone_elses(part) or _TRIED_ON.search(part):
            continue
        named = gpu_value(part) or _gt_name(part)
        facts += [fact for fact in named if fact[1]["name"] not in {f[1]["name"] for f in facts}]
    # one name: statement_rules reads a 'GPU:' or 'Graphics:' field; the other keys ('System GPUs:') only here
    # (and where a part is unreadable, 'IRadeon Pro 460 4 GB', the parts read are still this machine's GPUs)
    only = re.fullmatch(r"(?:system|installed|internal|built-in)\s+gpus", key.strip().lower())
    return facts if len(facts) >= 2 or (facts and only) else []


# a field for the whole machine that lists its parts ('### System information' then '14.4.1  2.9 GHz Quad-Core Intel
# Core i7 Radeon Pro 460 4 GB Intel HD Graphics 530 1536 MB'): the GPUs named in it, as tools print their names
_MACHINE_KEY = re.compile(r"^(?:system\s+(?:information|info|specs?)|specs|hardware|my\s+(?:system|setup|machine))$")


def machine_field_gpus(key: str, value: str) -> Facts:
    if not _MACHINE_KEY.match(key.strip().lower()) or _NEGATED.search(value) or hypothetical(value):
        return []
    facts: Facts = []
    for part in _SPLIT.split(value.strip()):
        named = gpu_names(part)
        facts += [fact for fact in (gpu_value(named[0]) if len(named) == 1 and part.strip() else [])
                  if fact[0] == "gpu"]
        size = re.search(r"(?<![\w.])(\d{1,5})\s?(GB|MB)\s*$", part.strip()) if len(named) == 1 else None
        if size and facts and facts[-1][0] == "gpu" and facts[-1][1].get("memory_mib") is None:
            mib = int(size.group(1)) * (1024 if size.group(2) == "GB" else 1)
            facts[-1] = ("gpu", dict(facts[-1][1], memory_mib=mib))
    return facts


_COUNTED_INSTINCT = re.compile(r"^(?:(\d{1,2})\s*[x×*]\s*)?(" + INSTINCT_MODEL + r")(?:\s*[x×*]\s*(\d{1,2}))?$", re.IGNORECASE)
_COUNT_KEYS = ("gpu", "gpus", "gpu model", "accelerator", "accelerators", "devices", "gpu devices", "gpu and vram")
# 'Devices: 2x AMD Instinct MI60 gfx906', 'GPUs: 4 x RTX 3090', 'Dual Radeon HD - Firepro D700 (6GB Each)': that many
_COUNTED_NAME = re.compile(r"^(?:([2-9]|1[0-6])\s*[x×]|(dual|two|three|four))\s+(\S.*)$", re.IGNORECASE)
_COUNT_WORDS = {"dual": 2, "two": 2, "three": 3, "four": 4}


def counted_instinct(key: str, value: str) -> Facts:
    """'### GPU' answered 'MI50*8' or '8x MI300X': that many AMD Instinct accelerators, named as written."""
    found = _COUNTED_INSTINCT.match(value.strip()) if key in _COUNT_KEYS else None
    if not found:
        return []
    count = int(found.group(1) or found.group(3) or 1)
    target = instinct_target(found.group(2))
    return [("gpu", {"name": found.group(2), "vendor": "AMD", "memory_mib": None, "index": i}) for i in range(count)] \
        + ([("gpu.gfx", target)] if target else [])


def counted_gpus(key: str, value: str) -> Facts:
    """'Devices: 2x AMD Instinct MI60 gfx906' -> two 'AMD Instinct MI60' (one model, counted in the machine's GPU field)."""
    found = _COUNTED_NAME.match(value.strip()) if key.strip().lower() in _COUNT_KEYS else None
    if not found or _NEGATED.search(value) or hypothetical(value):
        return []
    named = gpu_names(found.group(3))
    records = [fact[1] for fact in gpu_value(named[0]) if fact[0] == "gpu"] if len(named) == 1 else []
    if not records:
        return []
    record = records[0]
    count = int(found.group(1)) if found.group(1) else _COUNT_WORDS[found.group(2).lower()]
    each = re.search(r"\((\d{1,3})\s?GB\s+each\)", value, re.IGNORECASE)  # 'Firepro D700 (6GB Each)'
    record = dict(record, memory_mib=int(each.group(1)) * 1024) if each and record.get("memory_mib") is None else record
    return [("gpu", dict(record, index=i)) for i in range(count)]


def keyed_facts(key: str, value: str) -> Facts:
    return listed_gpus(key, value) + machine_field_gpus(key, value) + counted_gpus(key, value)


def form_keyed_facts(key: str, value: str) -> Facts:
    """An issue form's answer: a whole-machine field, and a count of Instinct accelerators (other '### GPU' answers
    are statement_rules' to read)."""
    return machine_field_gpus(key, value) + (counted_instinct(key, value) or counted_gpus(key, value))


# a macOS crash report's footer: one 'Graphics:' line per GPU, its name twice, then its bus ('Graphics: AMD FirePro D500,
# AMD FirePro D500, PCIe, 3 GB'); a Mac Pro 6,1's two identical lines are its two GPUs
_FOOTER_GRAPHICS = re.compile(r"^\s*Graphics:\s*([^,]+?),\s*\1,\s*(?:PCIe|PCI|Built-In|Thunderbolt)\b")


def crash_footer_gpus(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the GPU of each 'Graphics:' line of a crash report's footer, numbered, where there are several."""
    footer = [(index, found.group(1)) for index, found in ((i, _FOOTER_GRAPHICS.match(l)) for i, l in enumerate(lines)) if found]
    if len(footer) < 2:
        return {}
    return {index: [("gpu", dict(gpu_record(name)[1], index=number))] for number, (index, name) in enumerate(footer)
            if gpu_names(name)}
