"""GPUs listed by count, by a device table, or by the board they are part of, each a pure function returning stated facts.

- A count and a model in a table or `key: value` list: 'GPU count | 8' beside 'GPU type | [NVIDIA A800-SXM4-80GB'
  (one GPU per count, numbered, on the model's line).
- xpu-smi's discovery table: '| 0         | Device Name: Intel(R) Arc(TM) A770 Graphics   |' (device 0).
- A GPU named with its memory in words: 'NVIDIA GeForce GT 750M with 2GB GDDR5 memory' (that memory, the lone GPU's).
- gpustat's rows: '[3] NVIDIA GeForce RTX 4090 | 57°C,  99 % | 21305 / 24564 MB | user1(15180M)' (device 3, the second
  number of its memory column the card's total, in MiB as NVML counts it).
- A Jetson module named in a list or a sentence ('Jetson Orin AGX 64GB Developer Kit', 'on my agx orin'): an
  aarch64 Linux board whose NVIDIA GPU is integrated, with the module's (unified) memory when it is given;
  and the board as OE4T's meta-tegra layer names its MACHINE, which its images also take as their hostname
  ('jetson-nano-devkit-emmc', 'jetson-agx-orin-devkit'; github.com/OE4T/meta-tegra, conf/machine/*.conf).
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.said_of_this_machine import compared, denied_before
from macml.probe.paste.statement_rules import Facts

_SEPARATOR = r"\s*(?:\||:|=)\s*"
_COUNT = re.compile(r"^\s*\|?\s*[-*]?\s*(?:GPU[ _]?count|GPU[ _]?num(?:ber)?|num(?:ber)?[ _]of[ _]GPUs|num[ _]gpus)"
                    + _SEPARATOR + r"(\d{1,2})\s*\|?\s*$", re.IGNORECASE)
_MODEL = re.compile(r"^\s*\|?\s*[-*]?\s*GPU[ _]?(?:type|model|name)s?" + _SEPARATOR + r"(.+?)\s*\|?\s*$", re.IGNORECASE)
_XPU_SMI_ROW = re.compile(r"^\s*\|\s*(\d{1,2})\s*\|\s*Device Name:\s*(\S.*?)\s*\|\s*$")
_GPUSTAT_ROW = re.compile(r"^\s*\[(\d{1,2})\]\s+(\S.*?)\s*\|\s*-?\d+\s*(?:°|')C,\s*(?:\d+|\?\?)\s*%\s*"
                          r"(?:,\s*\d+\s*W\s*/\s*\d+\s*W\s*)?\|\s*\d+\s*/\s*(\d+)\s*MB\s*\|")
_JETSON = re.compile(r"\b((?:NVIDIA\s+)?(?:Jetson\s+)?(?:AGX\s+(?:Orin|Xavier|Thor)|(?:Orin|Xavier)\s+(?:AGX|NX|Nano)"
                     r"|Jetson\s+(?:Orin|Xavier|Nano|TX[12]|Thor|NX)))\b(?:\s+(?:Developer Kit|Super))*(?:\s+\[?(\d{1,2})\s?GB\b\]?)?",
                     re.IGNORECASE)

_META_TEGRA_MACHINE = re.compile(r"(?<![\w-])jetson-(nano|tx1|tx2|xavier-nx|agx-xavier|agx-orin|orin-nx|orin-nano|agx-thor)"
                                 r"(?:-\w+)*?-devkit(?![\w])")


def counted_models(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> one numbered GPU per count, where a GPU count and one GPU model are listed within 3 lines."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        count = _COUNT.match(line)
        if not count or not 1 < int(count.group(1)) <= 16:
            continue
        near = [i for i in range(max(0, index - 3), min(len(lines), index + 4)) if i != index and _MODEL.match(lines[i])]
        names = [gpu_names(_MODEL.match(lines[i]).group(1).strip("[]")) for i in near]
        if len(near) != 1 or len(names[0]) != 1:
            continue
        found[near[0]] = [("gpu", dict(gpu_record(names[0][0])[1], index=i)) for i in range(int(count.group(1)))]
    return found


def xpu_smi_device(line: str) -> Facts:
    """xpu-smi discovery's 'Device Name:' row: that Intel GPU, by its device number."""
    row = _XPU_SMI_ROW.match(line)
    names = gpu_names(row.group(2)) if row else []
    return [gpu_record(names[0], index=int(row.group(1)))] if names else []


def gpustat_row(line: str) -> Facts:
    """gpustat's row for one GPU: that GPU, by its index, with its total memory."""
    row = _GPUSTAT_ROW.match(line)
    names = gpu_names(row.group(2)) if row else []
    if not names:
        return []
    name, fact = gpu_record(names[0], index=int(row.group(1)))
    return [(name, dict(fact, memory_mib=int(row.group(3))))]


_WITH_MEMORY = re.compile(r"\s+with\s+(\d{1,2})\s?GB\s+(?:of\s+)?(?:GDDR\d\w?|HBM\d?e?|VRAM|video memory|graphics memory)\b",
                          re.IGNORECASE)


def memory_in_words(line: str) -> Facts:
    """A GPU name, then 'with 2GB GDDR5 memory': that GPU's memory."""
    found = _WITH_MEMORY.search(line)
    if not found or not any(line[:found.start()].endswith(name) for name in gpu_names(line[:found.start()])):
        return []
    return [("gpu.memory_of", {"index": None, "memory_mib": int(found.group(1)) * 1024})]


def jetson_module(line: str) -> Facts:
    """A Jetson module the writer names: Linux on aarch64, an integrated NVIDIA GPU, and the module's memory (jetsonInfo's
    'NVIDIA Jetson AGX Xavier [16GB]')."""
    found = _JETSON.search(line)
    if not found or denied_before(line[:found.start()]) or compared(line[:found.start()]):
        return []
    facts: Facts = [("gpu.mention", " ".join(found.group(1).split())), ("platform", "linux"), ("cpu.hardware_arch", "aarch64")]
    return facts + ([("cpu.memory_bytes", int(found.group(2)) * 1024**3)] if found.group(2) else [])


def meta_tegra_machine(line: str) -> Facts:
    """'jetson-nano-devkit-emmc' -> a Jetson Nano (aarch64 Linux, its integrated NVIDIA GPU)."""
    found = _META_TEGRA_MACHINE.search(line)
    if not found or jetson_module(line):
        return []
    name = "Jetson " + " ".join(part.upper() if part in ("agx", "nx", "tx1", "tx2") else part.title()
                                for part in found.group(1).split("-"))
    return [("gpu.mention", name), ("platform", "linux"), ("cpu.hardware_arch", "aarch64")]


def line_facts(line: str) -> Facts:
    return xpu_smi_device(line) + gpustat_row(line) + memory_in_words(line) + jetson_module(line) + meta_tegra_machine(line)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    return counted_models(lines)
