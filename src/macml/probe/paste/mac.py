"""macOS pastes: sw_vers, sysctl, system_profiler (text, System Information's tabbed copy,
grep'd fragments, -json), the System Software overview, tensorflow-metal's device banner and
applegpuinfo's summary."""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Sequence

from macml.facts import GIB
from macml.probe.macos import ARM64, CPU_BRAND, MEMSIZE, PROFILER_JSON, PROFILER_TEXT, SW_VERS, parse_size
from macml.probe.paste.base import Part, dedent, is_prompt_for, runs, strip_prompt

BRAND_KEY, MEMSIZE_KEY, ARM64_KEY = (" ".join(argv) for argv in (CPU_BRAND, MEMSIZE, ARM64))
JSON_KEY, TEXT_KEY, SW_VERS_KEY = " ".join(PROFILER_JSON), " ".join(PROFILER_TEXT), " ".join(SW_VERS)
SYSCTL_TO_COMMAND = {"machdep.cpu.brand_string": BRAND_KEY, "hw.memsize": MEMSIZE_KEY, "hw.optional.arm64": ARM64_KEY}
FLAG_OIDS = ("machdep.cpu.features", "machdep.cpu.leaf7_features", "machdep.cpu.extfeatures")

_SW_VERS = re.compile(r"^\s*(ProductName|ProductVersion|ProductVersionExtra|BuildVersion)\s*:\s*(\S.*?)\s*$")
_SYSCTL = re.compile(r"(?:^\s*|\(\s*)((?:hw|machdep|kern|sysctl)\.[\w.]+)\s*[:=]\s*([^()]*?)\s*(?:\)|$)")
_SYSTEM_VERSION = re.compile(r"^\s*System Version\s*:\s*(?:macOS|Mac OS X|OS X)\s+([\d.]+)\s*(?:\((\w+)\))?")
_PROFILER_LABELS = {"chipset model", "model identifier", "chip", "processor name", "hardware overview",
                    "graphics/displays", "total number of cores", "model name", "memory", "vram (total)",
                    "vram (dynamic, max)", "metal family", "metal support", "metal", "gpu is removable",
                    "model number", "system firmware version", "os loader version", "vendor", "device id",
                    "bus", "type", "pcie lane width", "displays"}
# applegpuinfo's lines (its own shape, not system_profiler's).
_APPLEGPUINFO = re.compile(r"^\s*GPU (name|vendor|core count|clock frequency|bandwidth|FLOPS|IPS|system level cache|memory|"
                           r"family):\s*(\S.*?)\s*$")
# a Java crash report's OSHI lines (Minecraft's System Details): its 'Processor Name' is not SPHardware's
_OSHI_LABELS = {"number of physical packages", "graphics card #0 name", "memory slot #0 capacity (mb)"}
_STRONG = {"chipset model", "model identifier", "chip", "processor name", "hardware overview", "graphics/displays"}


def find_sw_vers(lines: Sequence[str]) -> List[Part]:
    parts = []
    for first, last in runs(lines, lambda l: bool(_SW_VERS.match(l))):
        block = [f"{m.group(1)}:\t{m.group(2)}" for m in map(_SW_VERS.match, lines[first:last + 1])]
        parts.append(Part("sw_vers", first + 1, last + 1, platform="darwin",
                          commands={SW_VERS_KEY: "\n".join(block) + "\n"}))
    return parts


def find_system_overview(lines: Sequence[str]) -> List[Part]:
    """System Information's Software overview: 'System Version: macOS 10.15.6 (19G2021)'."""
    parts = []
    for index, line in enumerate(lines):
        match = _SYSTEM_VERSION.match(line)
        if match:
            text = f"ProductName:\tmacOS\nProductVersion:\t{match.group(1)}\n"
            text += f"BuildVersion:\t{match.group(2)}\n" if match.group(2) else ""
            parts.append(Part("system_software_overview", index + 1, index + 1, platform="darwin",
                              commands={SW_VERS_KEY: text}))
    return parts


def _flags(values: Dict[str, str]) -> List[str]:
    words = " ".join(values.get(oid, "") for oid in FLAG_OIDS).lower().split()
    return sorted({"avx" if word == "avx1.0" else word for word in words})


def find_sysctl(lines: Sequence[str]) -> List[Part]:
    """`name: value` / `name = value` lines, and `sysctl -n a b` followed by its bare values."""
    parts = []
    for first, last in runs(lines, lambda l: bool(_SYSCTL.search(l))):
        values = {m.group(1): m.group(2) for m in (_SYSCTL.search(l) for l in lines[first:last + 1])}
        parts.append(_sysctl_part(values, first, last))
    for index, line in enumerate(lines):
        words = strip_prompt(line).split()
        if words[:2] == ["sysctl", "-n"] and len(words) > 2:
            names = [w for w in words[2:] if "." in w]
            values = [l.strip() for l in lines[index + 1:index + 1 + len(names)]]
            if len(values) == len(names) and all(values):
                parts.append(_sysctl_part(dict(zip(names, values)), index, index + len(names)))
    return parts


def _sysctl_part(values: Dict[str, str], first: int, last: int) -> Part:
    part = Part("sysctl", first + 1, last + 1, platform="darwin" if any(k.startswith("machdep.") or k.startswith(
        "hw.optional.arm") for k in values) else None)
    for oid, key in SYSCTL_TO_COMMAND.items():
        if values.get(oid):
            part.commands[key] = values[oid] + "\n"
    part.cpu_flags = _flags(values)
    return part


def _label(line: str) -> Optional[str]:
    key, sep, _ = line.partition(":")
    return key.strip().lower() if sep else None


def _profiler_ids(block: Sequence[str]) -> bool:
    """system_profiler's own form of a vendor and device ID ('Vendor: AMD (0x1002)', 'Device ID: 0x67df'), not another
    tool's ('Device ID: {'device': '0x15d8', ...}' from gpu-utils on Linux)."""
    values = {_label(l): l.partition(":")[2].strip() for l in block if _label(l) in ("vendor", "device id")}
    return bool(re.fullmatch(r"0x[0-9a-fA-F]{4}", values.get("device id", ""))) and "(0x" in values.get("vendor", "")


def find_system_profiler_text(lines: Sequence[str]) -> List[Part]:
    parts = []
    accept = lambda l: not l.strip() or bool(re.match(r"^\s*[^:]{1,60}:(\s|$)", l)) and not _APPLEGPUINFO.match(l)
    for first, last in runs(lines, accept):
        block = lines[first:last + 1]
        labels = {_label(l) for l in block} - {None}
        strong = labels & _STRONG or {"vendor", "device id"} <= labels and _profiler_ids(block)  # a GPU with no driver
        if not strong or len(labels & _PROFILER_LABELS) < 2 or labels & _OSHI_LABELS:
            continue
        while first < last and not lines[first].strip():
            first += 1
        block = dedent(lines[first:last + 1])
        if any(":\t" in l for l in block):  # System Information's copy: indents are unreliable
            block = [l.strip() if l.partition(":")[2].strip() else l.strip() for l in block]
        start = first - 1 if first and is_prompt_for(lines[first - 1], "system_profiler") else first
        parts.append(Part("system_profiler_text", start + 1, last + 1, platform="darwin",
                          commands={TEXT_KEY: "\n".join(block).strip("\n") + "\n"}))
    return parts


def close_json(text: str) -> Optional[Dict[str, Any]]:
    """A JSON object, or the object a cut-off paste of one starts (closed after its last whole line)."""
    try:
        doc = json.loads(text)
        return doc if isinstance(doc, dict) else None
    except (ValueError, RecursionError):
        pass
    lines = text.splitlines()
    for cut in range(len(lines), 0, -1):
        body = "\n".join(lines[:cut]).rstrip().rstrip(",")
        stack, in_string, escaped = [], False, False
        for char in body:
            if in_string:
                in_string = not (char == '"' and not escaped)
                escaped = char == "\\" and not escaped
            elif char == '"':
                in_string = True
            elif char in "[{":
                stack.append("]" if char == "[" else "}")
            elif char in "]}" and stack:
                stack.pop()
        if in_string or body.endswith(":"):
            continue
        try:
            doc = json.loads(body + "".join(reversed(stack)))
        except (ValueError, RecursionError):
            continue
        return doc if isinstance(doc, dict) else None
    return None


_JSON_END = re.compile(r"^\}%?\s*$")  # zsh marks output without a final newline with '%'


def memory_of_profiler(doc: Dict[str, Any]) -> Optional[int]:
    """SPMemoryDataType's size: Apple silicon's one unified memory ('SPMemoryDataType': '8 GB'), or the
    sum of an Intel Mac's DIMMs ('_items': [{'dimm_size': '8 GB'}, ...])."""
    items = doc.get("SPMemoryDataType")
    item = items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else {}
    sizes = [parse_size(item.get("SPMemoryDataType"))] if item.get("SPMemoryDataType") else [
        parse_size(dimm.get("dimm_size")) for dimm in item.get("_items", []) if isinstance(dimm, dict)]
    return sum(sizes) if sizes and all(sizes) else None


def find_system_profiler_json(lines: Sequence[str]) -> List[Part]:
    parts = []
    for index, line in enumerate(lines):
        if line.strip() != "{" or not any(re.search(r"SP(Hardware|Displays|Memory)DataType", l)
                                          for l in lines[index + 1:index + 3]):
            continue
        end = next((i for i in range(index + 1, len(lines)) if _JSON_END.match(lines[i])), len(lines) - 1)
        doc = close_json("\n".join(lines[index:end]) + "\n}" if _JSON_END.match(lines[end]) else
                         "\n".join(lines[index:end + 1]))
        if doc:
            cut = "" if _JSON_END.match(lines[end]) else " (cut off; closed after its last whole line)"
            part = Part("system_profiler_json", index + 1, end + 1, platform="darwin")
            memory = memory_of_profiler(doc)
            if memory:
                part.commands[MEMSIZE_KEY] = f"{memory}\n"
            profile = {key: value for key, value in doc.items() if key != "SPMemoryDataType"}
            if profile:
                part.commands[JSON_KEY] = json.dumps(profile, indent=2) + "\n"
            part.notes.append("system_profiler -json" + cut)
            parts.append(part)
    return parts


def find_metal_banner(lines: Sequence[str]) -> List[Part]:
    """tensorflow-metal's 'Metal device set to: Apple M1 Pro' and 'systemMemory: 32.00 GB'."""
    parts = []
    for index, line in enumerate(lines):
        match = re.match(r"^\s*Metal device set to:\s*(.+?)\s*$", line)
        if not match:
            continue
        gpu = {"_name": match.group(1), "sppci_model": match.group(1)}
        part = Part("tensorflow_metal_log", index + 1, index + 1, platform="darwin",
                    commands={JSON_KEY: json.dumps({"SPDisplaysDataType": [gpu]}, indent=2) + "\n"})
        for follow in range(index + 1, min(index + 4, len(lines))):
            memory = re.match(r"^\s*systemMemory:\s*([\d.]+)\s*GB", lines[follow])
            if memory:
                part.commands[MEMSIZE_KEY] = f"{int(float(memory.group(1)) * GIB)}\n"
                part.end = follow + 1
        parts.append(part)
    return parts




def find_applegpuinfo(lines: Sequence[str]) -> List[Part]:
    """philipturner/applegpuinfo: 'GPU name' (the Metal device), 'GPU core count' and 'GPU memory'
    (hw.memsize, shown in GB) among its 'GPU ...:' lines."""
    parts = []
    for first, last in runs(lines, lambda l: bool(_APPLEGPUINFO.match(l))):
        values = {m.group(1): m.group(2) for m in map(_APPLEGPUINFO.match, lines[first:last + 1]) if m}
        if "name" not in values or "core count" not in values:
            continue
        gpu = {"_name": values["name"], "sppci_model": values["name"], "sppci_cores": values["core count"]}
        part = Part("applegpuinfo", first + 1, last + 1, platform="darwin",
                    commands={JSON_KEY: json.dumps({"SPDisplaysDataType": [gpu]}, indent=2) + "\n"})
        memory = re.match(r"^([\d.]+)\s*GB$", values.get("memory", ""))
        if memory:
            part.commands[MEMSIZE_KEY] = f"{int(float(memory.group(1)) * GIB)}\n"
        parts.append(part)
    return parts


FINDERS = (find_system_profiler_json, find_sw_vers, find_sysctl, find_system_profiler_text, find_metal_banner,
           find_applegpuinfo)
