"""lscpu output (standalone, or the CPU block of collect_env), /proc/cpuinfo, and the CPU flags they list."""
from __future__ import annotations

import re
from typing import List, Sequence

from macml.probe.paste.base import Part, dedent, is_prompt_for, runs

# Localised lscpu labels (LANG=zh_CN ...) -> the English ones the Linux parser reads.
LOCALISED = {"架构": "Architecture", "型号名称": "Model name", "标记": "Flags", "厂商 ID": "Vendor ID",
             "Architektur": "Architecture", "Modellname": "Model name", "Markierungen": "Flags"}
_LABEL = re.compile(r"^(\s*)([^:：]+?)\s*[:：](\s*)(.*)$")


def normalise_lscpu(lines: Sequence[str]) -> List[str]:
    """English labels, one 'Label: value' line each; lscpu's wrapped Flags lines joined back
    (it cuts the flag string at the terminal width and indents each piece to the value column)."""
    out: List[str] = []
    column = None
    for line in dedent(lines):
        match = _LABEL.match(line)
        if match and (column is None or line[:column].strip()):
            indent, label, gap, value = match.groups()
            label = LOCALISED.get(label.strip(), label.strip())
            out.append(f"{indent}{label}:{gap or ' '}{value.rstrip()}")
            column = len(line) - len(value) if label == "Flags" else None
        elif column is not None and out and line.strip():
            out[-1] += line[column:].rstrip()
    return out


def lscpu_flags(table: Sequence[str]) -> List[str]:
    for line in table:
        label, _, value = line.partition(":")
        if label.strip() == "Flags":
            return sorted(set(value.split()))
    return []



_CPUINFO_LINE = re.compile(r"^([a-z][a-z0-9 _]*?)\t+: ?(.*)$")  # /proc/cpuinfo pads each name with tabs


def find_proc_cpuinfo(lines: Sequence[str]) -> List[Part]:
    """/proc/cpuinfo (whole, or grep'd to its 'flags\t\t: ...' lines): Linux's own file; the flags of
    its first processor."""
    parts: List[Part] = []
    for first, last in runs(lines, lambda l: bool(_CPUINFO_LINE.match(l))):
        values = [m.groups() for m in map(_CPUINFO_LINE.match, lines[first:last + 1])]
        flags = next((value.split() for name, value in values if name == "flags"), [])
        if flags:
            start = first - 1 if first and "/proc/cpuinfo" in lines[first - 1] else first
            parts.append(Part("proc_cpuinfo", start + 1, last + 1, platform="linux", cpu_flags=sorted(set(flags))))
    return parts


_LSCPU_LABELS = {"Architecture", "CPU op-mode(s)", "Byte Order", "CPU(s)", "On-line CPU(s) list", "Vendor ID",
                 "Model name", "Model", "Thread(s) per core", "Core(s) per socket", "Core(s) per cluster",
                 "Socket(s)", "Stepping", "CPU max MHz", "CPU min MHz", "BogoMIPS", "Flags", "Address sizes",
                 "CPU family", "NUMA node(s)", "L1d cache", "L1i cache", "L2 cache", "L3 cache", "Virtualization",
                 "Hypervisor vendor", "Virtualization type", "CPU MHz", "Cluster(s)", "Caches (sum of all)",
                 "L1d", "L1i", "L2", "L3", "NUMA", "Vulnerabilities", "Frequency boost", "CPU(s) scaling MHz"}


def find(lines: Sequence[str]) -> List[Part]:
    """An lscpu table starts at its Architecture line and runs while lines look like lscpu's."""
    parts: List[Part] = []
    index = 0
    while index < len(lines):
        match = _LABEL.match(lines[index])
        # nvidia-container-cli's 'Architecture: 7.2' is a GPU's compute capability, not lscpu's
        if (match and LOCALISED.get(match.group(2).strip(), match.group(2).strip()) == "Architecture"
                and not re.fullmatch(r"[\d.]+", match.group(4).strip())):
            end = index
            for follow in range(index + 1, len(lines)):
                if _LABEL.match(lines[follow]) or (lines[follow].startswith(" ") and lines[follow].strip()):
                    end = follow
                else:
                    break
            start = index - 1 if index and is_prompt_for(lines[index - 1], "lscpu") else index
            labels = {LOCALISED.get(m.group(2).strip(), m.group(2).strip()) for m in map(_LABEL.match, lines[index + 1:end + 1]) if m}
            if end == index and start == index or not labels & _LSCPU_LABELS and start == index:
                # an app's lone 'Architecture: aarch64' (Zed's, on macOS too); a macOS report's 'Architecture: arm64e'
                # among fields lscpu never prints ('Report Version', 'Incident Identifier')
                index += 1
                continue
            table = normalise_lscpu(lines[index:end + 1])
            part = Part("lscpu", start + 1, end + 1, platform="linux", commands={"lscpu": "\n".join(table) + "\n"},
                        cpu_flags=lscpu_flags(table))
            parts.append(part)
            index = end + 1
        else:
            index += 1
    return parts
