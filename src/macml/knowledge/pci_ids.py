"""NVIDIA (and AMD Instinct) PCI device IDs -> the board's marketing name and its chip, for a tool that prints no
name for it.

An lspci whose pci.ids database predates the board prints 'NVIDIA Corporation Device 2684' (vendor 10de, device
2684) instead of 'AD102 [GeForce RTX 4090]'. Source: the PCI ID Repository (pci-ids.ucw.cz, the pci.ids file that
pciutils and hwdata ship). `nvidia_pci_ids.tsv` holds its NVIDIA display devices (version 2023.04.10, Debian's
pci.ids 0.0~2023.04.11-1), written by `python -m macml.knowledge.pci_ids /usr/share/misc/pci.ids`: the ID, the
chip and the board, the board left empty where one ID stands for several ('GeForce GT 220/315': that names none
of them, while its chip still gives the capability). NVIDIA_DEVICE_IDS adds the boards named as nvidia-smi names
them, and IDs newer than that file.
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

from macml.knowledge.hardware import nvidia_compute_capability
from macml.knowledge.nvidia_chips import chip_capability

NVIDIA_DEVICE_IDS = {
    "1b06": "NVIDIA GeForce GTX 1080 Ti",  # GP102
    "1b80": "NVIDIA GeForce GTX 1080",  # GP104
    "1ba1": "NVIDIA GeForce GTX 1070 Mobile",  # GP104M [GeForce GTX 1070 Mobile]
    "1db4": "Tesla V100-PCIE-16GB",  # GV100GL [Tesla V100 PCIe 16GB]
    "1e07": "NVIDIA GeForce RTX 2080 Ti",  # TU102 [GeForce RTX 2080 Ti Rev. A]
    "1eb8": "Tesla T4",  # TU104GL
    "20b0": "NVIDIA A100-SXM4-40GB",  # GA100 [A100 SXM4 40GB]
    "2204": "NVIDIA GeForce RTX 3090",  # GA102
    "2206": "NVIDIA GeForce RTX 3080",  # GA102
    "2330": "NVIDIA H100 80GB HBM3",  # GH100 [H100 SXM5 80GB]
    "2331": "NVIDIA H100 PCIe",  # GH100 [H100 PCIe]
    "2684": "NVIDIA GeForce RTX 4090",  # AD102
    "2704": "NVIDIA GeForce RTX 4080",  # AD103
    "26b9": "NVIDIA L40S",  # AD102GL [L40S]
    "27b8": "NVIDIA L4",  # AD104GL [L4]
}


_DEVICE_LINE = re.compile(r"^\t([0-9a-f]{4})\s+(\S+)(?:\s+[^[]*?)?\s*\[(.+)\]\s*(?:\([^)]*\))?\s*$")
_NOT_A_GPU = re.compile(r"audio|usb|smbus|nforce|bridge|controller|ethernet|sata|\bide\b|memory|\blpc\b|\bpci\b|"
                        r"coprocessor|switch|\bdma\b", re.IGNORECASE)
_SEVERAL_BOARDS = re.compile(r"/|\bor\b")


def parse_pci_ids(text: str, vendor: str = "10de") -> Iterator[Tuple[str, str, str]]:
    """pci.ids -> (device ID, chip, board) for each of the vendor's devices whose name brackets a board after its
    chip ('\t1db6  GV100GL [Tesla V100 PCIe 32GB]'); board '' where the bracket names several ('GeForce GT 220/315');
    devices that are not GPUs (audio, USB, bridges) are left out."""
    current = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith("\t"):
            current = line.split()[0].lower() if line.split() else None
            continue
        if current != vendor or line.startswith("\t\t"):
            continue
        found = _DEVICE_LINE.match(line)
        if not found or _NOT_A_GPU.search(line) or not chip_capability(found.group(2)):
            continue
        board = found.group(3).strip()
        several = _SEVERAL_BOARDS.search(board.replace(" Mobile / Max-Q", " Mobile"))
        yield found.group(1), found.group(2), "" if several else board


@lru_cache(maxsize=1)
def _nvidia_table() -> Dict[str, Tuple[str, str]]:
    path = Path(__file__).with_name("nvidia_pci_ids.tsv")
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#"))
    return {row[0]: (row[1], row[2]) for row in rows if len(row) == 3}


def nvidia_device_name(device_id: str) -> Optional[str]:
    """'2684' -> 'NVIDIA GeForce RTX 4090'; '1db6' -> 'Tesla V100 PCIe 32GB'; None for an ID no table holds or
    one that several boards share."""
    key = device_id.strip().lower()
    return NVIDIA_DEVICE_IDS.get(key) or _nvidia_table().get(key, ("", ""))[1] or None


def nvidia_device_capability(device_id: str) -> Optional[str]:
    """'0f02' (GF108) -> '2.1': the compute capability of the device's chip; None for an ID the table does not hold."""
    chip = _nvidia_table().get(device_id.strip().lower(), ("", ""))[0]
    if chip:
        return chip_capability(chip)
    name = NVIDIA_DEVICE_IDS.get(device_id.strip().lower())
    return nvidia_compute_capability(name) if name else None


# AMD Instinct accelerators by device ID (vendor 1002 in the same repository), as rocm-smi's concise table prints
# them in its 'IDs (DID, GUID)' column ('0x74a1,'): one product each.
AMD_DEVICE_IDS = {
    "738c": "AMD Instinct MI100",  # Arcturus GL-XL [Instinct MI100]
    "740f": "AMD Instinct MI210",  # Aldebaran [Instinct MI210]
    "74a1": "AMD Instinct MI300X",  # Aqua Vanjaram [Instinct MI300X]
    "74a5": "AMD Instinct MI325X",  # Aqua Vanjaram [Instinct MI325X]
}


def amd_device_name(device_id: str) -> Optional[str]:
    """'0x74a1' or '74a1' -> 'AMD Instinct MI300X'; None for an ID the table does not hold."""
    return AMD_DEVICE_IDS.get(device_id.strip().lower().removeprefix("0x"))


# PCI vendor IDs of the GPU makers, as Windows' device keys print them ('Enum\PCI\VEN_1002&DEV_1638');
# source: the PCI ID Repository (https://pci-ids.ucw.cz/read/PC/10de, /1002, /8086, /106b)
PCI_VENDOR_IDS = {"10de": "NVIDIA", "1002": "AMD", "8086": "Intel", "106b": "Apple"}


def pci_vendor(vendor_id: str) -> Optional[str]:
    """'1002' -> 'AMD'; None for a vendor not listed."""
    return PCI_VENDOR_IDS.get(vendor_id.lower())


if __name__ == "__main__":  # python -m macml.knowledge.pci_ids PCI_IDS_FILE > nvidia_pci_ids.tsv
    source = Path(sys.argv[1]).read_text(encoding="utf-8", errors="replace")
    version = re.search(r"^#\s*Version:\s*(\S+)", source, re.MULTILINE)
    print(f"# NVIDIA display devices from pci.ids {version.group(1) if version else '(no version)'} "
          "(pci-ids.ucw.cz): ID, chip, board ('' where the ID names several)")
    for row in parse_pci_ids(source):
        print("\t".join(row))
