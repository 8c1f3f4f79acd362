"""GPUs counted in a line: '4xH100', '8 x A100 80GB', 'running 8 NVIDIA H100s' (a count, then the model), 'Tesla V100
×8' (the count after it), and a machine named for its NVIDIA data-center GPU ('on our H100 server', 'running on
GB200'). Each is a pure function of one line; gpu_text_rules runs them with its other line readers."""
from __future__ import annotations

import re

from macml.knowledge.amd_gfx import INSTINCT_MODEL, instinct_target
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.paste.gpu_name_keys import model_key
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.said_of_this_machine import NEGATION
from macml.probe.paste.statement_rules import Facts


_COUNTED_NAME = (r"((?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX\s+(?:PRO\s+)?|GTX\s+|Tesla\s+)?[A-Z]{0,2}\d{1,4}[A-Z]?"
                 r"(?:\s?(?:Ti|SUPER|PCIe|SXM\d?|NVL))*(?:\s(?:Blackwell|Ada))?(?:\s\d{2,3}\s?GB)?)")
_TIMES = re.compile(r"(?<![\w.])(\d{1,2})\s?[x×]\s?" + _COUNTED_NAME + r"(?![\w.])", re.IGNORECASE)
# 'a Lambda Hyperplane server running 8 NVIDIA H100s', 'with 4 A100 GPUs': a count, then the model in the plural
_NUMBER_WORDS = {"dual": 2, "twin": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
# 'dual GeForce GTX 780M with 2 GB each': two of one model
_DUAL = re.compile(r"(?<![\w.$-])(dual|twin)\s+" + _COUNTED_NAME + r"(?!\w|\.\d)", re.IGNORECASE)
_PLURAL = re.compile(r"(?<![\w.$])(\d{1,2}|two|three|four|five|six|seven|eight)\s+" + _COUNTED_NAME
                     + r"(?:s|'s|\s+(?:GPUs|cards|graphics cards|accelerators))(?!\w|\.\d)", re.IGNORECASE)


def _other_models(line: str, name: str) -> bool:
    counted = model_key(" ".join(name.split()))
    return any(model_key(other) != counted for other in gpu_names(line))


def gpu_count(line: str) -> Facts:
    """'4xH100', '8 x A100 80GB', '2× RTX 4090', 'running 8 NVIDIA H100s': that many NVIDIA GPUs of a model the capability table knows;
    'a 8 x MI300X system': that many AMD Instinct accelerators."""
    found = _TIMES.search(line) or _PLURAL.search(line) or _DUAL.search(line)
    if found and found.re is not _TIMES and _other_models(line, found.group(2)):
        return []  # 'a Tesla K80 and two Tesla K40c cards': the line's other cards would be lost beside a count
    count = int(_NUMBER_WORDS.get(found.group(1).lower(), found.group(1))) if found else 0
    if not found or NEGATION.search(line[:found.start()]) or not 1 < count <= 16:
        return []
    name = " ".join(found.group(2).split())
    vendor = "NVIDIA" if nvidia_compute_capability(name) else "AMD" if re.fullmatch(INSTINCT_MODEL, name, re.IGNORECASE) else ""
    if not vendor:
        return []
    target = instinct_target(name) if vendor == "AMD" else None
    return [("gpu", {"name": name, "vendor": vendor, "memory_mib": None, "index": i}) for i in range(count)] \
        + ([("gpu.gfx", target)] if target else [])


_TIMES_AFTER = re.compile(r"(?:\s[x×*]\s?|\s?[×*]\s?)(\d{1,2})(?![\w.])")
_NVIDIA_WORD = re.compile(r"\b(?:nvidia|geforce|quadro|tesla|titan|rtx|gtx)\b", re.IGNORECASE)


def gpu_count_after(line: str) -> Facts:
    """'GPU: Nvidia Titan RTX * 4 (driver 510.06)', 'Tesla V100 ×8': that many NVIDIA GPUs of a model the capability
    table knows, where the line names no GPU otherwise."""
    found = _TIMES_AFTER.search(line)
    if not found or gpu_names(line) or NEGATION.search(line[:found.start()]) or not 1 < int(found.group(1)) <= 16:
        return []
    head = re.split(r"[:(,;|\[]", line[:found.start()])[-1]
    brand = _NVIDIA_WORD.search(head)
    name = " ".join(head[brand.start():].split()) if brand else ""
    if not name or len(name.split()) > 5 or not nvidia_compute_capability(name):
        return []
    return [("gpu", {"name": name, "vendor": "NVIDIA", "memory_mib": None, "index": i}) for i in range(int(found.group(1)))]


_NODE = re.compile(r"(?<![\w./-])((?:NVIDIA\s+)?G?[AHBL]\d{2,3}[A-Z]?)\s+(?:node|server|machine|box|instance|host|cluster)s?\b"
                   r"|\b(?:running|runs|ran|run)\s+on\s+(?:an?\s+)?(?:\*\*)?((?:NVIDIA\s+)?G[BH]\d{3}|[AHBL]\d{2,3}[A-Z]?)(?:\*\*)?"
                   r"(?![\w./-])")  # 'test fails running on **GB200**'


def node_gpu(line: str) -> Facts:
    """'(GH200 node, image ...)', 'on our H100 server', 'running on GB200': a machine named for its NVIDIA data-center
    GPU."""
    found = _NODE.search(line)
    asked = "?" in re.split(r"[.!](?:\s|$)", line[found.end():])[0] if found else False  # 'support for DGX H200 servers?'
    name = (found.group(1) or found.group(2)) if found else ""
    if not found or asked or NEGATION.search(line[:found.start()]) or not nvidia_compute_capability(name):
        return []
    return [("gpu", {"name": name, "vendor": "NVIDIA", "memory_mib": None, "index": None})]


_GPU_FIELD_KEYS = ("gpus", "gpu", "graphics cards", "gpu(s)")
_LEADING_COUNT = re.compile(r"^(\d{1,2})\s*(?:[x×]\s*)?" + _COUNTED_NAME + r"(?:\s+(?:FE|Founders Edition))?\s*$", re.IGNORECASE)


def counted_in_gpu_field(key: str, value: str) -> Facts:
    """'GPUs: 2 RTX 3090 FE': a GPU field that starts with how many of one NVIDIA model there are."""
    found = _LEADING_COUNT.match(value.strip()) if key in _GPU_FIELD_KEYS else None
    name = " ".join(found.group(2).split()) if found else ""
    if not found or not 1 < int(found.group(1)) <= 16 or not nvidia_compute_capability(name):
        return []
    return [("gpu", {"name": name, "vendor": "NVIDIA", "memory_mib": None, "index": i}) for i in range(int(found.group(1)))]
