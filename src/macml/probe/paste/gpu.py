"""GPU tool pastes: nvidia-smi (table, -L, --query-gpu CSV), rocm-smi (table, --showproductname,
--csv) and rocminfo, converted to the outputs the Linux/Windows probes read."""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence

from macml.probe.linux import NVIDIA_QUERY
from macml.probe.paste.base import Part, dedent, runs

QUERY_KEY = " ".join(NVIDIA_QUERY)
_TABLE_LINE = re.compile(r"^\s*[|+]")
_SMI_LIST = re.compile(r"^\s*GPU\s+(\d+):\s*(.+?)\s*\(UUID:\s*[^)]*\)?\s*$")
_QUERY_COLUMNS = {"name": 0, "driver_version": 1, "memory.total": 2, "compute_cap": 3}
_WINDOWS = re.compile(r"\bWDDM\b|\bTCC\b|^\s*PS [A-Z]:\\|^[A-Z]:\\.*>", re.M)


def query_row(name: str = "", driver: str = "", memory: str = "", capability: str = "") -> str:
    return f"{name}, {driver}, {memory}, {capability}"


def find_nvidia_table(lines: Sequence[str]) -> List[Part]:
    parts = []
    for index, line in enumerate(lines):
        if "NVIDIA-SMI" not in line or not _TABLE_LINE.match(line):
            continue
        start = index - 1 if index and lines[index - 1].strip().startswith("+") else index
        spans = runs(lines, lambda l: bool(_TABLE_LINE.match(l)), start=start, gap=2)
        end = spans[0][1] if spans else index
        text = "\n".join(dedent(lines[start:end + 1])) + "\n"
        windows = _WINDOWS.search("\n".join(lines[max(0, start - 3):end + 1]))
        parts.append(Part("nvidia_smi", start + 1, end + 1, platform="win32" if windows else None,
                          commands={"nvidia-smi": text}))
    return parts


def find_nvidia_list(lines: Sequence[str]) -> List[Part]:
    parts = []
    for first, last in runs(lines, lambda l: bool(_SMI_LIST.match(l))):
        names = [_SMI_LIST.match(l).group(2) for l in lines[first:last + 1]]
        rows = "\n".join(query_row(name) for name in names) + "\n"
        parts.append(Part("nvidia_smi_list", first + 1, last + 1, commands={QUERY_KEY: rows}))
    return parts


def _csv_columns(header: str) -> Optional[List[str]]:
    cells = [re.sub(r"\s*\[.*\]$", "", c.strip().lower()) for c in header.split(",")]
    return cells if "name" in cells and len(cells) >= 2 and set(cells) & {"driver_version", "memory.total",
                                                                           "compute_cap", "index", "pci.bus_id"} else None


def find_nvidia_csv(lines: Sequence[str]) -> List[Part]:
    """--query-gpu CSV, with its header row, or without it after the pasted command line."""
    parts = []
    for index, line in enumerate(lines):
        query = re.search(r"--query-gpu=(\S+)", line)
        columns = _csv_columns(line)
        first_row = index + 1
        if query and "noheader" in line:
            columns = [c.strip().lower() for c in query.group(1).split(",")]
        elif columns is None or query:
            continue
        rows = []
        for row in lines[first_row:]:
            cells = [c.strip() for c in row.split(",")]
            if len(cells) != len(columns) or not row.strip():
                break
            rows.append(dict(zip(columns, cells)))
        if not rows:
            continue
        canonical = [query_row(r.get("name", ""), r.get("driver_version", ""), r.get("memory.total", ""),
                               r.get("compute_cap", "")) for r in rows]
        parts.append(Part("nvidia_smi_csv", index + 1, first_row + len(rows),
                          commands={QUERY_KEY: "\n".join(canonical) + "\n"}))
    return parts


def find_rocm_smi(lines: Sequence[str]) -> List[Part]:
    parts = []
    for index, line in enumerate(lines):
        if "ROCm System Management Interface" not in line:
            continue
        end = index
        for follow in range(index + 1, len(lines)):
            end = follow
            if "End of ROCm SMI Log" in lines[follow] or "ROCm System Management Interface" in lines[follow]:
                end = follow if "End of" in lines[follow] else follow - 1
                break
        block = dedent(lines[index:end + 1])
        text = "\n".join(block) + "\n"
        key = "rocm-smi --showproductname" if any(re.match(r"^\s*GPU\[\d+\]", l) for l in block) else "rocm-smi"
        parts.append(Part("rocm_smi", index + 1, end + 1, platform="linux", commands={key: text}))
    return parts


_PRODUCT_ROW = re.compile(r"^\s*GPU\[\d+\]\s*:\s*[A-Za-z][^:]*?:\s*\S")


def find_rocm_product_rows(lines: Sequence[str]) -> List[Part]:
    """`rocm-smi --showproductname` rows pasted without the banner ('GPU[0]\t\t: Card Series: \t\tAMD Radeon
    Graphics'): two or more such rows together (a bannered block claims its rows first)."""
    parts = []
    for first, last in runs(lines, lambda l: bool(_PRODUCT_ROW.match(l)), gap=0):
        if last > first:
            text = "\n".join(dedent(lines[first:last + 1])) + "\n"
            parts.append(Part("rocm_smi", first + 1, last + 1, platform="linux",
                              commands={"rocm-smi --showproductname": text}))
    return parts


_CONCISE_HEADER = re.compile(r"^\s*(?:Device|GPU)\s+(?:Node\s+)?(?:IDs\s+)?Temp\b|^\s*Device\s+Node\s+IDs\b")


def find_rocm_concise(lines: Sequence[str]) -> List[Part]:
    """rocm-smi's concise table pasted without its banner (ROCm 6: 'Device  Node  IDs  Temp ...')."""
    parts = []
    for index, line in enumerate(lines):
        if not _CONCISE_HEADER.match(line) or "Power" not in line:
            continue
        rows = runs(lines, lambda l: bool(re.match(r"^\s*(?:\d+\s|\(|=+\s*$)", l) or not l.strip()), start=index + 1)
        end = rows[0][1] if rows and rows[0][0] == index + 1 else index
        if end > index:
            text = "\n".join(lines[index:end + 1]) + "\n"
            parts.append(Part("rocm_smi", index + 1, end + 1, platform="linux", commands={"rocm-smi": text}))
    return parts


def _product_lines(cards: Sequence[Dict[str, str]]) -> str:
    out = []
    for index, card in enumerate(cards):
        for label, value in card.items():
            if value:
                out.append(f"GPU[{index}]\t\t: {label}: \t\t{value}")
    return "\n".join(out) + "\n"


def find_rocm_csv(lines: Sequence[str]) -> List[Part]:
    parts = []
    for index, line in enumerate(lines):
        header = [c.strip() for c in line.split(",")]
        if header[:1] != ["device"] or not ({"Card series", "Card model", "GFX Version"} & set(header)):
            continue
        cards = []
        for row in lines[index + 1:]:
            cells = [c.strip() for c in row.split(",")]
            if not re.match(r"^card\d+$", cells[0]) or len(cells) < len(header):
                break
            # A value may itself hold commas ("Advanced Micro Devices, Inc."): keep the first columns exact.
            cards.append(dict(zip(header[1:], cells[1:len(header) - 1] + [", ".join(cells[len(header) - 1:])])))
        if cards:
            parts.append(Part("rocm_smi_csv", index + 1, index + 1 + len(cards), platform="linux",
                              commands={"rocm-smi --showproductname": _product_lines(cards)}))
    return parts


def find_rocm_driver_csv(lines: Sequence[str]) -> List[Part]:
    """`rocm-smi --showdriverversion --csv`: with the in-tree amdgpu driver its value is the kernel
    release (which on RHEL names the architecture: 4.18.0-348.12.2.el8_5.x86_64)."""
    parts = []
    for index, line in enumerate(lines[:-1]):
        row = [c.strip() for c in lines[index + 1].split(",")]
        if [c.strip() for c in line.split(",")] == ["device", "Driver version"] and len(row) == 2 and row[1]:
            parts.append(Part("rocm_smi_csv", index + 1, index + 2, platform="linux",
                              commands={"rocm-smi --showdriverversion": f"Driver version: {row[1]}\n"}))
    return parts


_ROCMINFO_FIELD = re.compile(r"^\s*(Name|Marketing Name|Device Type|Vendor Name|Uuid)\s*:\s*(.*?)\s*$")


def find_rocminfo(lines: Sequence[str]) -> List[Part]:
    """GPU agents of `rocminfo`: an agent's Name (gfx target) and Marketing Name."""
    spans = runs(lines, lambda l: bool(re.match(r"^\s*(\S[^:]*:|\*{3,}|Agent \d+|\.{5,})", l)) or not l.strip(), gap=1)
    parts = []
    for first, last in spans:
        agents: List[Dict[str, str]] = []
        for line in lines[first:last + 1]:
            match = _ROCMINFO_FIELD.match(line)
            if not match:
                continue
            if match.group(1) == "Name" and (not agents or "Name" in agents[-1]):
                agents.append({})
            if agents:
                agents[-1].setdefault(match.group(1), match.group(2))
        gpus = [a for a in agents if a.get("Device Type") == "GPU" or a.get("Name", "").startswith("gfx")]
        if not any("Marketing Name" in a for a in agents) or not gpus:
            continue
        cards = [{"Card series": a.get("Marketing Name", ""), "GFX Version": a.get("Name", "")} for a in gpus]
        parts.append(Part("rocminfo", first + 1, last + 1, platform="linux",
                          commands={"rocm-smi --showproductname": _product_lines(cards)}))
    return parts

