"""NVIDIA (and AMD Instinct) PCI device IDs -> the board's marketing name, for a tool that prints no name for it.

An lspci whose pci.ids database predates the board prints 'NVIDIA Corporation Device 2684' (vendor 10de, device
2684) instead of 'AD102 [GeForce RTX 4090]'. Source: the PCI ID Repository (pci-ids.ucw.cz, the pci.ids file that
pciutils and hwdata ship), vendor 10de; only IDs of one board each are listed (an ID several boards share names
none of them).
"""
from __future__ import annotations

from typing import Optional

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


def nvidia_device_name(device_id: str) -> Optional[str]:
    """'2684' -> 'NVIDIA GeForce RTX 4090'; None for an ID the table does not hold."""
    return NVIDIA_DEVICE_IDS.get(device_id.strip().lower())


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
