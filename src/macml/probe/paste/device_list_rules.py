"""GPU device lists as compute tools print them on a Mac: hashcat's backend information (its 'Metal Info:' and
'Backend Device ID #1' blocks) and OpenCL enumerations (clpeak's 'Platform: Apple' / 'Device: ...', clinfo-like
'Platform name: Apple' / 'device name: Apple M4').

- The OpenCL platform named 'Apple' is Apple's own OpenCL, shipped only with macOS; Metal exists only on Apple's
  OSes, and hashcat's 'Feature.Set...: macOS GPU Family 2 v1' names macOS itself: the machine runs macOS.
- In a device's block, hashcat's 'Phys.Location..: connected via an external interface' or
  'GPU.Properties.: ... removable 1' (Metal's MTLDeviceLocationExternal / isRemovable) says the GPU is an eGPU.
- hashcat's 'Memory.Total...: 1536 MB (limited to ...)' of a GPU that is not Apple's is its memory (hashcat's MB are
  MiB: an 8 GiB Vega 64 prints 8176 MB); an Apple GPU's figure is Metal's working-set limit, so it is not read.
- Apple's OpenCL and Metal report one compute unit per GPU core, so an Apple chip's 'max compute units: 10'
  (or hashcat's 'Processor(s)...: 10') is its GPU core count; an AMD GPU's compute units are not cores.

`answers` reads the whole text: line index -> facts, the GPU's facts on the line that names it.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.probe.paste.gpu_names import gpu_names, gpu_vendor

Facts = List[Tuple[str, Any]]

# darktable's '[opencl_init]' device block names the platform after the device: 'PLATFORM, VENDOR & ID:    Apple, Apple, ID=...'
_APPLE_PLATFORM = re.compile(r"^\s*(?:OpenCL\s+)?Platform(?:\s+name)?\s*(?::|\s{2,})\s*Apple\s*$"
                             r"|^\s*PLATFORM, VENDOR & ID:\s*Apple,"
                             r"|^\s*OpenCL API \(OpenCL [\d.]+ \([^)]*\)\) - Platform #\d+ \[Apple\]\s*$", re.IGNORECASE)  # hashcat's
_METAL_ONLY = re.compile(r"^\s*(?:Feature\.Set\.*\s*:\s*macOS GPU Family\b|Metal\.Version\.*\s*:\s*\d)")
_DEVICE_HEAD = re.compile(r"^\s*(?:Backend Device ID #\d+|Device\s*#\d+(?:/\d+)?\s*:?)\s*$", re.IGNORECASE)
_DEVICE_NAME = re.compile(r"^\s*(?:\*\s+)?(?:Name\.{3,}|Device(?:\s+name|\s*#\d+(?:/\d+)?)?|Device Name)\s*(?::|\s{2,})\s*"
                          r"(\S.*?)(?:,\s*(?:skipped|\d+/\d+ MB\b.*))?\s*$",
                          re.IGNORECASE)  # 'Device #1: Apple M3 Pro' names its device on the head line; hashcat's
# '* Device #2: Intel(R) UHD Graphics 630, skipped' too
_EXTERNAL = re.compile(r"^\s*Phys\.Location\.*\s*:\s*connected via an external interface\b"
                       r"|^\s*GPU\.Properties\.*\s*:.*\bremovable 1\b", re.IGNORECASE)
# hashcat's 'Memory.Total...: 1536 MB', darktable's 'GLOBAL MEM SIZE:          1536 MB'
_HASHCAT_MEMORY = re.compile(r"^\s*(?:Memory\.Total\.*|GLOBAL MEM SIZE)\s*:\s*(\d+)\s*MB\b")
_APPLE_CORES = re.compile(r"^\s*(?:max(?:imum)?\s+compute\s+units|Compute\s+units|Processor\(s\)\.*)\s*(?::|\s{2,})\s*(\d{1,3})\s*$",
                          re.IGNORECASE)
_APPLE_CHIP = re.compile(r"^Apple M\d{1,2}(?: (?:Pro|Max|Ultra))?$")
# hashcat's 'Metal Info:', 'OpenCL Info:', 'CUDA Info:' (-I), and 'METAL API (Metal 368.12)', 'OpenCL API (...)' (a run)
_SECTION = re.compile(r"^\s*\w[\w ]*Info:\s*$|^\s*(?:METAL|OpenCL|CUDA|HIP) API \(")
_REACH = 40  # lines a device's block may run (clpeak's results sit between its name and the next device)


def _device_name(line: str) -> Optional[str]:
    found = _DEVICE_NAME.match(line)
    if not found:
        return None
    value = re.sub(r"^\d{1,2}:\s*'([^']+)'$", r"\1", found.group(1))  # darktable's "DEVICE: 0: 'Apple M1 Max'"
    if _APPLE_CHIP.match(value):
        return value
    names = gpu_names(value)
    return names[0] if len(names) == 1 else None


def _block(lines: Sequence[str], start: int) -> range:
    """The lines of the device named at `start`: to the next device, a new section ('OpenCL Info:'), or _REACH."""
    end = start + 1
    while end < min(len(lines), start + _REACH):
        line = lines[end]
        if _DEVICE_HEAD.match(line) or _device_name(line) or _SECTION.match(line):
            break
        end += 1
    return range(start + 1, end)


def device_facts(lines: Sequence[str], start: int, name: str, index: int) -> Facts:
    """The facts of one listed device: itself (with memory), external, and an Apple chip's GPU cores."""
    vendor = "Apple" if _APPLE_CHIP.match(name) else gpu_vendor(name)
    memory, external, cores = None, False, None
    for follow in _block(lines, start):
        line = lines[follow]
        size = _HASHCAT_MEMORY.match(line)
        if size and vendor != "Apple":
            memory = int(size.group(1))
        external = external or bool(_EXTERNAL.match(line))
        count = _APPLE_CORES.match(line)
        if count and vendor == "Apple" and int(count.group(1)) > 1:
            cores = int(count.group(1))
    facts: Facts = [("gpu", {"name": name, "vendor": vendor, "memory_mib": memory, "index": index})]
    if external:
        facts.append(("gpu.external", name))
    if cores:
        facts.append(("gpu.cores", cores))
    return facts


_HASHCAT_DARWIN = re.compile(r"^\s*OS\.Release\.+:\s*(\d{2}\.\d{1,2}\.\d{1,2})\s*$")


def hashcat_darwin(lines: Sequence[str]) -> Dict[int, Facts]:
    """hashcat -I's 'OS.Name......: Darwin' then 'OS.Release...: 18.7.0': the Darwin kernel's release."""
    if not any(re.match(r"^\s*OS\.Name\.+:\s*Darwin\s*$", line) for line in lines):
        return {}
    return {index: [("platform", "darwin"), ("os.darwin", found.group(1))]
            for index, found in ((i, _HASHCAT_DARWIN.match(l)) for i, l in enumerate(lines)) if found}


# a hashcat run's device line: '* Device #02: Apple M4, GPU, 5461/10922 MB (1024 MB allocatable), 8MCU' (an Apple GPU's
# compute units are its cores)
_HASHCAT_APPLE_UNITS = re.compile(r"^\s*\*\s*Device #\d+: Apple M\d{1,2}(?: (?:Pro|Max|Ultra))?, GPU, .*?, (\d{1,2})MCU\s*$")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """Only a Mac's list is read (elsewhere CUDA and OpenCL list one GPU twice), and only its first section
    that lists devices: hashcat's 'OpenCL Info:' lists the 'Metal Info:' GPUs again."""
    found: Dict[int, Facts] = hashcat_darwin(lines)
    for number, units in ((n, _HASHCAT_APPLE_UNITS.match(line)) for n, line in enumerate(lines)):
        if units and int(units.group(1)) > 1:
            found.setdefault(number, []).append(("gpu.cores", int(units.group(1))))
    mac = [number for number, line in enumerate(lines) if _APPLE_PLATFORM.match(line) or _METAL_ONLY.match(line)]
    if not mac:
        return found
    for number in mac:
        found.setdefault(number, []).append(("platform", "darwin"))
    index = 0
    first = max(0, mac[0] - 3)  # darktable names the device on the lines just above its platform
    for number, line in enumerate(lines[first:], start=first):
        if index and _SECTION.match(line):
            break
        name = _device_name(line)
        if name:
            found.setdefault(number, []).extend(device_facts(lines, number, name, index))
            index += 1
    return found
