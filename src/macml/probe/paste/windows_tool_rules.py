"""Windows tools' GPU listings, each read by a pure function returning stated facts.

- WMI's Win32_VideoController as a table: PowerShell's `Get-WmiObject Win32_VideoController | format-table Name,
  DriverVersion` (a dashed rule under the header) or `wmic path win32_VideoController get Name,DriverVersion` (none):
  one display adapter per row, its Windows driver version. WMI and wmic exist only on Windows.
- DxDiag's 'Display Devices' section: 'Card name: AMD Radeon(TM) Graphics' with its 'Chip type', 'DAC type' and
  'Device Key: Enum\\PCI\\VEN_1002&DEV_1638...' rows, and 'Driver Version'. DxDiag is a Windows tool.

- A line that is only an NVIDIA Windows driver's version ('\t31.0.15.2698\t', msinfo32's Display rows pasted without
  their labels): the NVIDIA driver it packs (526.98); the form (third field 13-16) is NVIDIA's alone.
- Speccy's Graphics rows: '4096MB ATI AMD Radeon R9 Fury Series (ASUStek Computer Inc)	36 °C': the GPU's memory,
  then its name and the board maker (Speccy runs on Windows only, but its rows may be pasted anywhere, so no OS is read).

NVIDIA's Windows driver version '32.0.15.6094' is read as the release it packs, 560.94 (its last five digits).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.knowledge.pci_ids import pci_vendor
from macml.probe.paste.base import rows_under
from macml.probe.paste.gpu_names import gpu_names, gpu_record, gpu_vendor

Facts = List[Tuple[str, Any]]

_WMI_QUERY = re.compile(r"\b(?:Get-WmiObject|Get-CimInstance|gwmi|gcim|wmic)\b.*\bWin32_\w+", re.IGNORECASE)
# Win32_VideoController's properties (https://learn.microsoft.com/windows/win32/cimwin32prov/win32-videocontroller)
_PROPERTIES = {"name", "caption", "description", "videoprocessor", "driverversion", "driverdate", "adapterram",
               "adaptercompatibility", "status", "pnpdeviceid", "deviceid", "videomodedescription", "currentrefreshrate",
               "installeddisplaydrivers", "videoarchitecture", "videomemorytype", "availability"}
_SPECIFIC = {"videoprocessor", "driverversion", "driverdate", "adapterram", "adaptercompatibility", "pnpdeviceid",
             "videomodedescription", "installeddisplaydrivers"}
_NAME_COLUMNS = ("name", "caption", "description")
_WINDOWS_DRIVER = re.compile(r"^\d{1,2}\.\d{1,2}\.\d{1,5}\.\d{1,5}$")


def windows_driver(version: str, vendor: str) -> Optional[str]:
    """'31.0.24019.1006' (AMD) as printed; NVIDIA's '32.0.15.6094' -> '560.94' (the last five digits of its last
    two fields: NVIDIA's own reading of its Windows version)."""
    version = version.strip()
    if not _WINDOWS_DRIVER.match(version):
        return None
    if vendor != "NVIDIA":
        return version
    third, fourth = version.split(".")[2:]
    digits = (third + fourth.zfill(4))[-5:]
    return f"{digits[:3]}.{digits[3:]}"


def _columns(header: str) -> Optional[List[Tuple[str, int]]]:
    names = [(m.group().lower(), m.start()) for m in re.finditer(r"\S+", header)]
    keys = {name for name, _ in names}
    if len(names) < 2 or not keys <= _PROPERTIES or not keys & _SPECIFIC or not keys & set(_NAME_COLUMNS):
        return None
    return names


def _cells(line: str, columns: List[Tuple[str, int]]) -> Dict[str, str]:
    cells = {}
    for number, (name, start) in enumerate(columns):
        end = columns[number + 1][1] if number + 1 < len(columns) else len(line)
        cells[name] = line[start:end].strip()
    return cells


def wmi_video_controllers(lines: Sequence[str]) -> Dict[int, Facts]:
    """A Win32_VideoController table: each row's adapter as a GPU (the makers' ones: NVIDIA, AMD, Intel), its
    driver version, and Windows."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        columns = _columns(line)
        if not columns:
            continue
        found[index] = [("platform", "win32")]
        for follow in range(index + 1, min(len(lines), index + 20)):
            row = lines[follow].rstrip()
            if not row.strip() or re.match(r"^[\s-]+$", row):
                continue
            if row.lstrip().startswith(("`", "PS ", ">")) or _columns(row):
                break
            cells = _cells(row, columns)
            if "driverversion" in cells and not _WINDOWS_DRIVER.match(cells["driverversion"]):
                break  # not a row: the table has ended
            name = next((cells[c] for c in _NAME_COLUMNS if cells.get(c)), "")
            vendor = gpu_vendor(name)
            if vendor in ("unknown", "Apple"):
                continue
            facts: Facts = [("gpu", {"name": name, "vendor": vendor, "memory_mib": None, "index": None})]
            driver = windows_driver(cells.get("driverversion", ""), vendor)
            facts += [("gpu.driver", driver)] if driver and vendor in ("NVIDIA", "AMD") else []
            found[follow] = facts
    return found


def integrated_name(name: str) -> bool:
    """'AMD Radeon(TM) Graphics', 'Intel(R) UHD Graphics 620', 'AMD Radeon(TM) Vega 8 Graphics': a GPU in the CPU
    (Intel's discrete Arc cards end in 'Graphics' too)."""
    return bool(re.search(r"\bGraphics\b(?:\s+\d{3,4})?\s*$", name)) and not re.search(r"\bArc\b", name)


_CARD_NAME = re.compile(r"^\s*Card name:\s*(\S.*?)\s*$")
_DXDIAG_ROW = re.compile(r"^\s*(Chip type|DAC type|Device Key|Display Memory|Dedicated Memory):\s*(.*?)\s*$")
_DEVICE_KEY = re.compile(r"\bVEN_([0-9A-Fa-f]{4})&DEV_[0-9A-Fa-f]{4}")
_DRIVER_ROW = re.compile(r"^\s*Driver Version:\s*(\S+)")


def dxdiag_display_devices(lines: Sequence[str]) -> Dict[int, Facts]:
    """DxDiag's 'Card name: ...' with its DxDiag rows below it: that card as a GPU (its vendor from the name, else
    the device key's PCI vendor), its driver version, and Windows."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        card = _CARD_NAME.match(line)
        if not card:
            continue
        block = list(lines[index + 1:index + 40])
        block = block[:next((n for n, row in enumerate(block) if _CARD_NAME.match(row)), len(block))]
        rows = [_DXDIAG_ROW.match(row) for row in block]
        if sum(1 for row in rows if row) < 2:
            continue
        name = card.group(1)
        vendor = gpu_vendor(name)
        key = next((_DEVICE_KEY.search(row.group(2)) for row in rows if row and row.group(1) == "Device Key"), None)
        if vendor == "unknown" and key:
            vendor = pci_vendor(key.group(1)) or vendor
        facts: Facts = [("platform", "win32")]
        dedicated = next((re.match(r"(\d{2,6}) MB$", row.group(2)) for row in rows if row and row.group(1) == "Dedicated Memory"), None)
        if integrated_name(name):  # an APU's or Intel's 'Dedicated Memory' is a carve-out of the system's
            dedicated = None
        if vendor not in ("unknown", "Apple"):  # 'Dedicated Memory: 4007 MB' is the card's own (Display Memory adds shared)
            facts.append(("gpu", {"name": name, "vendor": vendor, "index": None,
                                  "memory_mib": int(dedicated.group(1)) if dedicated and int(dedicated.group(1)) >= 256 else None}))
        driver_row = next((_DRIVER_ROW.match(row) for row in block if _DRIVER_ROW.match(row)), None)
        driver = windows_driver(driver_row.group(1), vendor) if driver_row else None
        facts += [("gpu.driver", driver)] if driver and vendor in ("NVIDIA", "AMD") else []
        found[index] = facts
    return found


# Event Viewer's Application Error record: 'Faulting module name: nvcuda64.dll, version: 31.0.15.3129' (NVIDIA's CUDA
# driver library, its file version the driver's Windows form) and 'Faulting application name: python.exe, version:
# 3.10.9150.1013' (CPython's file version: micro * 1000 + release level * 10 + serial, 150 = final)
_FAULTING = re.compile(r"^\s*Faulting (?:module|application) name:\s*(nvcuda(?:64)?\.dll|python\.exe),\s*version:\s*(\S+?),")


_BARE_NVIDIA_DRIVER = re.compile(r"^\s*(\d{2}\.\d{1,2}\.1[3-6]\.\d{4})\s*$")


def bare_nvidia_driver(line: str) -> Facts:
    """'\t31.0.15.2698\t' alone on a line -> Windows, NVIDIA driver 526.98."""
    found = _BARE_NVIDIA_DRIVER.match(line)
    driver = windows_driver(found.group(1), "NVIDIA") if found else None
    return [("platform", "win32"), ("gpu.present", "NVIDIA"), ("gpu.driver", driver)] if driver else []


_SPECCY_GPU = re.compile(r"^\s*(\d{3,6})MB\s+(?!of\b)([^()\t]+?)\s*\([^()]*\)\s*(?:\d{1,3}\s*°C)?\s*$")


def speccy_gpu(line: str) -> Facts:
    """'4096MB ATI AMD Radeon R9 Fury Series (ASUStek Computer Inc)  36 °C' -> that GPU, 4096 MiB."""
    found = _SPECCY_GPU.match(line)
    names = gpu_names(found.group(2)) if found else []
    return [gpu_record(names[0], f"{found.group(1)} MB")] if len(names) == 1 else []


def line_facts(line: str) -> Facts:
    """`Get-WmiObject Win32_VideoController ...`, `wmic path win32_videocontroller get name`: a WMI query, on Windows;
    Event Viewer's faulting nvcuda64.dll (the NVIDIA driver's version) or python.exe (its version)."""
    facts: Facts = [("platform", "win32")] if _WMI_QUERY.search(line) else []
    faulting = _FAULTING.match(line)
    if faulting and faulting.group(1).startswith("nvcuda"):
        driver = windows_driver(faulting.group(2), "NVIDIA")
        facts += [("platform", "win32"), ("gpu.present", "NVIDIA")] + ([("gpu.driver", driver)] if driver else [])
    python = re.fullmatch(r"(3)\.(\d{1,2})\.(\d{1,2})150\.\d+", faulting.group(2)) if faulting else None
    if python and faulting.group(1) == "python.exe":
        facts += [("platform", "win32"), ("python.version", ".".join(python.groups()))]
    return facts + speccy_gpu(line) + bare_nvidia_driver(line)


# Win32_VideoController's properties listed per adapter: 'Video Controller 0 Name: NVIDIA GeForce GTX 1650',
# 'Video Controller 0 Driver Version: 27.21.14.6109' (a script's own listing of the WMI class)
_NUMBERED_CONTROLLER = re.compile(r"^\s*Video Controller (\d{1,2}) (Name|Driver Version):\s*(\S.*?)\s*$")


def numbered_video_controllers(lines: Sequence[str]) -> Dict[int, Facts]:
    """'Video Controller 1 Name: AMD Radeon(TM) Vega 8 Graphics' and its 'Driver Version' row: that adapter as
    GPU 1 with its driver (NVIDIA's Windows version read as NVIDIA's own number), on Windows."""
    rows = [(i, _NUMBERED_CONTROLLER.match(line)) for i, line in enumerate(lines)]
    names = {int(m.group(1)): (i, m.group(3)) for i, m in rows if m and m.group(2) == "Name"}
    found: Dict[int, Facts] = {}
    for index, (line, name) in names.items():
        vendor = gpu_vendor(name)
        if vendor in ("unknown", "Apple"):
            continue
        found[line] = [("platform", "win32"), ("gpu", {"name": name, "vendor": vendor, "memory_mib": None, "index": index})]
        raw = next((m.group(3) for _, m in rows if m and m.group(2) == "Driver Version" and int(m.group(1)) == index), "")
        driver = windows_driver(raw, vendor) if raw and vendor in ("NVIDIA", "AMD") else None
        found[line] += [("gpu.driver_of", {"name": name, "driver": driver})] if driver else []
    return found


# PowerShell's '(Get-WmiObject win32_VideoController).Name': the adapters' names, one a line, under the command
_NAME_PROPERTY = re.compile(r"^\s*(?:PS [^>]*>\s*)?\((?:Get-WmiObject|Get-CimInstance|gwmi|gcim)\s+(?:-Class\s+)?Win32_VideoController\)\.Name\s*$",
                            re.IGNORECASE)


def video_controller_names(lines: Sequence[str]) -> Dict[int, Facts]:
    """'(Get-WmiObject win32_VideoController).Name' then 'AMD Radeon RX 6800' / 'AMD Radeon 780M Graphics': each
    adapter Windows has (WMI's order is not CUDA's or HIP's, so no index), on Windows."""
    return rows_under(lines, _NAME_PROPERTY, "win32", _adapter_name)


def _adapter_name(line: str) -> Facts:
    """A line that is one adapter's name and nothing else (a blank line or the next command ends the list)."""
    names = gpu_names(line)
    return [gpu_record(names[0])] if names and names[0] == line.strip() else []


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts read from the lines around it."""
    found: Dict[int, Facts] = {}
    for reader in (wmi_video_controllers, dxdiag_display_devices, numbered_video_controllers, video_controller_names):
        for index, facts in reader(lines).items():
            found.setdefault(index, []).extend(facts)
    return found
