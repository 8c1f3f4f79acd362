"""faceswap's 'Output System Info' block (lib/sysinfo.py), its `key: value` rows read one at a time (the reader
hands over 'py_version' as 'py version'):

- 'py_version: 3.6.3' (platform.python_version()), 'os_machine: x86_64' (platform.machine(), the Python's arch);
- 'os_platform: Darwin-17.7.0-x86_64-i386-64bit' (platform.platform(): the Darwin kernel of macOS 10.13.6);
- 'sys_ram: Total: 16384MB, Available: ...' (the machine's memory);
- 'gpu_devices: GPU_0: Intel - Iris Pro (experimental)' (each GPU as '<vendor> - <name>', PlaidML's device words in
  brackets) and 'gpu_vram: GPU_0: 1536MB' (the memory of each, by its number).
"""
from __future__ import annotations

import re

from macml.probe.paste.system_rules import arch_word
from macml.probe.paste.statement_rules import Facts

_DEVICE = re.compile(r"GPU_(\d{1,2}):\s*([^,]+)")
_VENDOR_NAME = re.compile(r"^(NVIDIA|AMD|Intel|Apple)\s+-\s+(.+)$", re.IGNORECASE)
_VRAM = re.compile(r"GPU_(\d{1,2}):\s*(\d{2,7})\s*MB\b")
_PLATFORM = re.compile(r"^Darwin-(\d{1,2}\.\d{1,2}\.\d{1,2})-")
_TOTAL_RAM = re.compile(r"^Total:\s*(\d{3,8})\s*MB\b")


def _devices(value: str) -> Facts:
    facts: Facts = []
    for index, device in _DEVICE.findall(value):
        device = re.sub(r"\s*\((?:experimental|supported|unsupported)\)\s*$", "", device.strip())
        named = _VENDOR_NAME.match(device)
        vendor, name = (named.group(1), named.group(2)) if named else (None, device)
        name = f"{vendor} {name}" if vendor and not name.lower().startswith(vendor.lower()) else name
        facts.append(("gpu", {"name": name, "vendor": vendor, "memory_mib": None, "index": int(index)}))
    return facts


def keyed_facts(key: str, value: str) -> Facts:
    value = value.strip()
    if key == "py version" and re.fullmatch(r"3\.\d{1,2}\.\d{1,2}", value):
        return [("python.version", value)]
    if key == "os machine" and arch_word(value):
        return [("python.machine", arch_word(value))]
    if key == "os platform" and _PLATFORM.match(value):
        return [("platform", "darwin"), ("os.darwin", _PLATFORM.match(value).group(1))]
    if key == "sys ram" and _TOTAL_RAM.match(value):
        return [("cpu.memory_bytes", int(_TOTAL_RAM.match(value).group(1)) * 1024**2)]
    if key == "gpu devices":
        return _devices(value)
    if key == "gpu vram":
        return [("gpu.memory_of", {"index": int(i), "memory_mib": int(mib)}) for i, mib in _VRAM.findall(value)]
    return []
