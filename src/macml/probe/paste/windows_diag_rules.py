"""A Windows app's diagnostics dump of the OS and DXGI (Rainway's, and others that print Windows' own names):

- 'Version: 10.0.16299, Windows 10, VER_SUITE_SINGLEUSERTS, VER_NT_WORKSTATION': GetVersionEx's numbers and the
  product name, so Windows 10;
- a display's GDI device name ('\\\\.\\DISPLAY1', as Node's systeminformation prints it escaped): Windows; that
  tool's controller 'vram: 2048' is the GPU's memory in MB;
- DXGI's adapter description 'Dedicated Video Memory: 4,063 MB' (DXGI_ADAPTER_DESC.DedicatedVideoMemory): the GPU's
  own memory.
The device's 'DEVPKEY_Device_DriverVersion' is a Windows driver version, which app_report_rules reads.
"""
from __future__ import annotations

import re

from macml.probe.paste.gpu_names import gib
from macml.probe.paste.statement_rules import Facts

_WINDOWS_VERSION = re.compile(r"^\s*10\.0\.\d{5},\s*(Windows 1[01])\b")
_GDI_DISPLAY = re.compile(r"^\W*\\+\.\\+DISPLAY\d{1,2}\W*$")  # '\\.\DISPLAY1', printed escaped or not


def keyed_facts(key: str, value: str) -> Facts:
    found = _WINDOWS_VERSION.match(value) if key == "version" else None
    if found:
        return [("platform", "win32"), ("os.name", found.group(1))]
    size = gib(value) if key == "dedicated video memory" else None
    if size and size >= 256 * 1024**2:
        return [("gpu.memory_of", {"index": None, "memory_mib": size // 1024**2})]
    if key == "vram" and re.fullmatch(r"\s*\d{3,6},?\s*", value) and int(value.strip(" ,")) >= 256:
        return [("gpu.memory_of", {"index": None, "memory_mib": int(value.strip(" ,"))})]  # systeminformation's MB
    if key in ("devicename", "device name") and _GDI_DISPLAY.search(value):
        return [("platform", "win32")]
    return []
