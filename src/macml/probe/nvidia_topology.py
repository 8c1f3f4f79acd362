"""How NVIDIA GPUs are linked: `nvidia-smi topo -m` (the link between each pair) and
`nvidia-smi nvlink -s` (each NVLink's speed). Pure parsers of their text; never raise.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Tuple

TOPOLOGY = ("nvidia-smi", "topo", "-m")
NVLINK_STATUS = ("nvidia-smi", "nvlink", "-s")

# topo -m's legend, from the slowest to the fastest path between two GPUs.
LINK_WORDS = {
    "SYS": "PCIe and the SMP interconnect between NUMA nodes",
    "NODE": "PCIe and the interconnect between PCIe host bridges in a NUMA node",
    "PHB": "PCIe and a PCIe host bridge (the CPU)",
    "PXB": "several PCIe bridges",
    "PIX": "at most one PCIe bridge",
}
_GPU = re.compile(r"^GPU(\d+)$")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # recent drivers underline the header even into a pipe
_NVLINK_GPU = re.compile(r"^GPU (\d+):")
_NVLINK_LINK = re.compile(r"^\s*Link (\d+):\s*(?:([\d.]+)\s*GB/s|<inactive>)")


@dataclass(frozen=True)
class Topology:
    gpus: Tuple[int, ...]
    links: Mapping[Tuple[int, int], str]  # (i, j) with i < j -> "NV18", "PIX", "SYS", ...

    def link(self, i: int, j: int) -> Optional[str]:
        return self.links.get((min(i, j), max(i, j)))

    @property
    def nvlink_pairs(self) -> int:
        return sum(1 for word in self.links.values() if word.startswith("NV"))

    @property
    def slowest(self) -> Optional[str]:
        """The slowest GPU-to-GPU path, as topo -m names it (None with fewer than two GPUs)."""
        return slowest_link(self.links.values())


def slowest_link(words: Iterable[str]) -> Optional[str]:
    """The slowest of topo -m's link words: PCIe paths by the legend's order, then the fewest NVLinks."""
    found = set(words)
    for word in ("SYS", "NODE", "PHB", "PXB", "PIX"):
        if word in found:
            return word
    return min(found, key=lambda w: int(w[2:]) if w[2:].isdigit() else 0) if found else None


def describe_link(word: str) -> str:
    if word.startswith("NV"):
        return f"{word[2:]} bonded NVLinks" if word[2:].isdigit() else "NVLink"
    return LINK_WORDS.get(word, word)


def parse_topology(text: str) -> Optional[Topology]:
    """The GPU-by-GPU matrix of `nvidia-smi topo -m` (NIC rows and affinity columns ignored).

    '        GPU0    GPU1    CPU Affinity' / 'GPU0     X      NV6     0-9' -> links {(0, 1): 'NV6'}.
    """
    lines = [line for line in _ANSI.sub("", text).splitlines() if line.strip()]
    header = next((line for line in lines if re.match(r"^\s+GPU0\b", line)), None)
    if header is None:
        return None
    columns = [int(m.group(1)) for m in (_GPU.match(c) for c in header.split()) if m]
    links: Dict[Tuple[int, int], str] = {}
    rows: List[int] = []
    for line in lines:
        cells = line.split()
        row = _GPU.match(cells[0]) if cells else None
        if not row or line.startswith((" ", "\t")):
            continue
        i = int(row.group(1))
        rows.append(i)
        for j, word in zip(columns, cells[1:1 + len(columns)]):
            if j != i and word != "X":
                links[(min(i, j), max(i, j))] = word
    return Topology(tuple(rows), links) if rows else None


def parse_nvlink_status(text: str) -> Dict[int, List[Optional[float]]]:
    """`nvidia-smi nvlink -s` -> {gpu: [GB/s per link, None where <inactive>]}."""
    found: Dict[int, List[Optional[float]]] = {}
    current: Optional[int] = None
    for line in text.splitlines():
        gpu = _NVLINK_GPU.match(line.strip())
        if gpu:
            current = int(gpu.group(1))
            found[current] = []
            continue
        link = _NVLINK_LINK.match(line)
        if link and current is not None:
            found[current].append(float(link.group(2)) if link.group(2) else None)
    return found


def nvlink_peak_gbs(status: Mapping[int, List[Optional[float]]], gpu: int = 0) -> Optional[float]:
    """One direction's NVLink bandwidth of a GPU: the sum of its active links (None without any)."""
    speeds = [s for s in status.get(gpu, []) if s]
    return round(sum(speeds), 3) if speeds else None
