"""macOS probes: pure parsers of what the commands print, and the OS/CPU/GPU facts.

Every parser takes a command's literal stdout (already decoded, possibly with U+FFFD
replacement characters) and never raises. build_mac_facts runs exactly the snapshot's
macOS commands through the function it is given, live or replayed.
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from macml import versions
from macml.facts import GIB, GPU, UNNAMED_GPU, CPUFacts, OSFacts, SystemFacts
from macml.knowledge.gpu_specs import identify_apple_chip, peak_fp32
from macml.knowledge.hardware import chip_of_profiler_item
from macml.probe.runner import CommandResult, command_key

SW_VERS = ("sw_vers",)
CPU_BRAND = ("sysctl", "-n", "machdep.cpu.brand_string")
MEMSIZE = ("sysctl", "-n", "hw.memsize")
ARM64 = ("sysctl", "-n", "hw.optional.arm64")
PROFILER_JSON = ("system_profiler", "-json", "SPHardwareDataType", "SPDisplaysDataType")
PROFILER_TEXT = ("system_profiler", "SPHardwareDataType", "SPDisplaysDataType")
# Run up front, concurrently; PROFILER_TEXT only when the JSON form fails.
COMMANDS = (SW_VERS, CPU_BRAND, MEMSIZE, ARM64, PROFILER_JSON)
# What a framework's cached answer depends on: the OS build.
FINGERPRINT = (SW_VERS,)

Hardware = Dict[str, Any]  # SPHardwareDataType keys: chip_type, machine_model, ...
RunCommand = Callable[[tuple], CommandResult]

_SIZE = re.compile(r"(\d+(?:[.,]\d+)?)\s*([KMGT])[BO]\b", re.IGNORECASE)  # "8 GB", "1,5 Go"
_UNIT = {"k": 1024, "m": 1024**2, "g": GIB, "t": 1024**4}
_VENDOR_WORDS = (
    ("apple", "Apple"), ("106b", "Apple"), ("amd", "AMD"), ("ati", "AMD"), ("1002", "AMD"),
    ("intel", "Intel"), ("8086", "Intel"), ("nvidia", "NVIDIA"), ("10de", "NVIDIA"),
)
_VENDOR_IN_MODEL = (
    (r"\bapple\b", "Apple"), (r"radeon|firepro|\bamd\b|\bati\b", "AMD"),
    (r"\bintel\b|\biris\b|\buhd graphics|\bhd graphics", "Intel"),
    (r"nvidia|geforce|quadro|\btesla\b", "NVIDIA"),
)
# Text form label -> SPHardwareDataType JSON key, so both forms share one reader.
_TEXT_HARDWARE_KEYS = {
    "chip": "chip_type", "model identifier": "machine_model", "memory": "physical_memory",
    "total number of cores": "number_processors", "processor name": "cpu_type",
    "model name": "machine_name",
}


def _text(value: Any) -> str:
    """A JSON scalar as stripped text; anything else (lists, dicts, null) as ''."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return ""
    return str(value).strip()


def _int(value: Any) -> Optional[int]:
    match = re.search(r"\d+", _text(value))
    return int(match.group()) if match else None


def parse_size(value: Any) -> Optional[int]:
    """'48 GB' / '1536 MB' / '1,5 GB' -> bytes (binary units, as macOS means them)."""
    match = _SIZE.search(_text(value))
    if not match:
        return None
    return int(float(match.group(1).replace(",", ".")) * _UNIT[match.group(2).lower()])


def parse_sw_vers(text: str) -> Tuple[str, str, Optional[str]]:
    """'ProductName:\\tmacOS' ... -> ('macOS', '14.4.1', '23E224'); ('macOS', '', None) if unreadable."""
    fields = {}
    for line in (text or "").splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip().lower()] = value.strip()
    version = fields.get("productversion", "")
    if not re.fullmatch(r"\d+(\.\d+){0,3}", version):
        version = ""
    build = fields.get("buildversion", "")
    build = build if re.fullmatch(r"[0-9A-Za-z]+", build) else None
    return fields.get("productname") or "macOS", version, build


def parse_sysctl_int(text: str) -> Optional[int]:
    words = (text or "").split()
    return versions.number(words[0]) if words else None


def parse_core_counts(value: Any) -> Tuple[Optional[int], Optional[int], Optional[int]]:
    """number_processors -> (total, performance, efficiency).

    'proc 16:12:4' on Apple silicon, 'proc 12:0:8:4' on some releases, an integer on Intel
    and in VMs, '10 (8 performance and 2 efficiency)' in the text form.
    """
    numbers = [int(n) for n in re.findall(r"\d+", _text(value))]
    if not numbers:
        return None, None, None
    total, rest = numbers[0], numbers[1:]
    for first, second in zip(rest, rest[1:]):
        if first + second == total:
            return total, first, second
    return total, None, None


def normalise_vendor(raw: Any, model: str = "") -> str:
    """'sppci_vendor_amd', 'AMD (0x1002)', 'ATI', 'Intel' ... -> 'AMD' / 'Intel' / ..."""
    words = set(re.split(r"[^a-z0-9]+", _text(raw).lower()))
    words |= {word[2:] for word in words if word.startswith("0x")}
    for word, vendor in _VENDOR_WORDS:
        if word in words:
            return vendor
    for pattern, vendor in _VENDOR_IN_MODEL:
        if re.search(pattern, model.lower()):
            return vendor
    return "unknown"


def parse_metal(raw: Any) -> Optional[str]:
    """'spdisplays_metal3' / 'Metal 3' -> 'Metal 3'; older 'Supported, ...' -> 'Metal'."""
    text = _text(raw).lower()
    if not text or "not supported" in text or "unsupported" in text:
        return None
    match = re.search(r"metal\s*(\d+)\b", text)
    if match:
        return f"Metal {match.group(1)}"
    if any(word in text for word in ("metal", "supported", "mtlgpufamily")):
        return "Metal"
    return None


def _make_gpu(model: str, vendor_raw: Any, cores_raw: Any, vram: Any, metal: Any, external: bool) -> GPU:
    vendor = normalise_vendor(vendor_raw, model)
    cores = _int(cores_raw)
    peak = peak_fp32(model, cores)
    return GPU(
        vendor=vendor, model=model or UNNAMED_GPU, cores=cores, memory_bytes=parse_size(vram),
        unified_memory=vendor == "Apple", metal=parse_metal(metal), external=external,
        driver_loaded=False if not model else None,  # listed by vendor and device ID only: no macOS driver
        integrated=True if vendor == "Apple" else None,
        peak_fp32_tflops=peak[0] if peak else None, bandwidth_gbs=peak[1] if peak else None,
    )


def _json_gpu(item: Dict[str, Any]) -> Optional[GPU]:
    name = _text(item.get("_name"))
    model = _text(item.get("sppci_model")) or (chip_of_profiler_item(name) or "" if name.startswith("kHW_") else name)
    vendor = item.get("spdisplays_vendor") or item.get("sppci_vendor")
    if not model and not _text(vendor):
        return None
    placement = " ".join(_text(item.get(k)) for k in ("sppci_device_type", "sppci_bus")).lower()
    external = "egpu" in placement or "external" in placement or "spdisplays_egpu" in item
    external = external or _text(item.get("spdisplays_gpu_removable")).lower() == "spdisplays_yes"
    vram = item.get("spdisplays_vram") or item.get("spdisplays_vram_shared") or item.get("_spdisplays_vram")
    metal = next((item[k] for k in ("spdisplays_mtlgpufamilysupport", "spdisplays_metal",
                                     "spdisplays_metalfamily") if k in item), None)
    return _make_gpu(model, vendor, item.get("sppci_cores"), vram, metal, external)


def _load_json(text: str) -> Optional[Dict[str, Any]]:
    try:
        doc = json.loads(text or "")
    except (ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def parse_system_profiler_json(text: str) -> Tuple[Optional[Hardware], List[GPU]]:
    """`system_profiler -json SPHardwareDataType SPDisplaysDataType` -> (hardware, GPUs).

    hardware is None when the section is absent or the text is not JSON. Apple GPUs come
    back without memory_bytes: the unified memory is the system's, known to the caller.
    """
    doc = _load_json(text)
    if doc is None:
        return None, []
    sections = doc.get("SPHardwareDataType")
    hardware = sections[0] if isinstance(sections, list) and sections else None
    hardware = hardware if isinstance(hardware, dict) else None
    displays = doc.get("SPDisplaysDataType")
    items = [item for item in displays if isinstance(item, dict)] if isinstance(displays, list) else []
    return hardware, [gpu for gpu in map(_json_gpu, items) if gpu is not None]


def _text_blocks(text: str) -> List[Dict[str, str]]:
    """Indented 'Key: value' text -> one dict per titled block, nested sub-blocks dropped."""
    blocks: List[Dict[str, str]] = []
    current: Optional[Dict[str, str]] = None
    field_indent: Optional[int] = None
    for raw in (text or "").splitlines():
        line = raw.strip()
        key, sep, value = line.partition(":")
        if not sep:
            continue
        indent, key, value = len(raw) - len(raw.lstrip()), key.strip(), value.strip()
        if not value and indent <= 4:  # "Graphics/Displays:", "    AMD Radeon Pro 5500M:"
            current, field_indent = {"": key}, None
            blocks.append(current)
            continue
        if current is None or (key in current or key == "Chipset Model" and len(current) > 1) and indent == field_indent:
            current, field_indent = {"": ""}, None  # untitled output, or the next GPU (its first field: Chipset Model)
            blocks.append(current)
        field_indent = indent if field_indent is None else field_indent
        if value and indent == field_indent:
            current[key] = value
    return blocks


def _text_gpu(block: Dict[str, str]) -> GPU:
    fields = {key.lower(): value for key, value in block.items()}
    model = fields.get("chipset model") or block[""]
    vram = next((v for k, v in fields.items() if k.startswith("vram")), None)
    metal = next((v for k, v in fields.items() if k.startswith("metal")), None)
    kind = " ".join((fields.get("type", ""), fields.get("bus", ""))).lower()
    removable = fields.get("gpu is removable", "").lower() == "yes"
    external = removable or "external" in kind or "egpu" in kind or "thunderbolt" in kind
    return _make_gpu(model, fields.get("vendor"), fields.get("total number of cores"), vram, metal, external)


def parse_system_profiler_text(text: str) -> Tuple[Optional[Hardware], List[GPU]]:
    """Plain `system_profiler SPHardwareDataType SPDisplaysDataType` -> (hardware, GPUs)."""
    hardware: Optional[Hardware] = None
    gpus: List[GPU] = []
    for block in _text_blocks(text):
        labels = {key.lower(): value for key, value in block.items() if key}
        # A GPU macOS has no driver for (an unsupported eGPU) is listed without a Chipset Model.
        unnamed_gpu = ("vendor" in labels and "gpu" in labels.get("type", "").lower()) or {"vendor", "device id"} <= labels.keys()
        if "chipset model" in labels or unnamed_gpu:
            gpus.append(_text_gpu(block))
        elif hardware is None and {"chip", "model identifier", "processor name"} & labels.keys():
            hardware = {key: labels[label] for label, key in _TEXT_HARDWARE_KEYS.items() if label in labels}
            if re.match(r"M\d{1,2}\b", hardware.get("chip_type", "").strip()):  # an issue form's 'Chip: M2'
                hardware["chip_type"] = "Apple " + hardware["chip_type"].strip()
    return hardware, gpus


def _failure(result: CommandResult) -> str:
    return f"`{command_key(result.argv)}` {result.why_failed()}"


def _stdout(run: RunCommand, argv: tuple, problems: List[str], expect_failure: bool = False) -> str:
    result = run(argv)
    if result.ok:
        return result.stdout
    if not (expect_failure and result.returncode not in (None, 0)):
        problems.append(_failure(result))
    return ""


def _profiler(run: RunCommand, problems: List[str]) -> Tuple[Optional[Hardware], List[GPU]]:
    result = run(PROFILER_JSON)
    if result.ok:
        hardware, gpus = parse_system_profiler_json(result.stdout)
        if hardware is not None or gpus:
            return hardware, gpus
        why = "held no hardware or display data" if _load_json(result.stdout) else "was not valid JSON"
        problems.append(f"system_profiler -json output {why}; used the text form")
    else:
        problems.append(_failure(result) + "; used the text form")
    result = run(PROFILER_TEXT)
    if not result.ok:
        problems.append(_failure(result))
        return None, []
    hardware, gpus = parse_system_profiler_text(result.stdout)
    if hardware is None and not gpus:
        problems.append("system_profiler text output could not be read; chip and GPU facts are incomplete")
    return hardware, gpus


def _hardware_arch(arm64: Optional[int], apple_chip: bool, brand: str) -> str:
    # hw.optional.arm64 is 1 on Apple silicon even when the asking process runs under Rosetta.
    if arm64 == 1 or apple_chip or brand.lower().startswith(("apple", "virtualapple")):
        return "arm64"
    if arm64 == 0 or "intel" in brand.lower():
        return "x86_64"
    return "unknown"


def build_facts(run: RunCommand) -> SystemFacts:
    """Run the macOS probe commands through `run` and assemble OS, CPU and GPU facts."""
    problems: List[str] = []
    sw_vers = _stdout(run, SW_VERS, problems)
    name, version, build = parse_sw_vers(sw_vers)
    if sw_vers and not version:
        problems.append("sw_vers printed no readable ProductVersion; the macOS version is unknown")
    brand = " ".join(_stdout(run, CPU_BRAND, problems).split())
    memsize = parse_sysctl_int(_stdout(run, MEMSIZE, problems))
    arm64 = parse_sysctl_int(_stdout(run, ARM64, problems, expect_failure=True))  # unknown oid on Intel
    hardware, gpus = _profiler(run, problems)
    hardware = hardware or {}
    chip_type = _text(hardware.get("chip_type"))
    chip = identify_apple_chip(chip_type) or identify_apple_chip(brand)
    brand = brand or chip_type or _text(hardware.get("cpu_type"))
    memory = memsize or parse_size(hardware.get("physical_memory"))
    cores, performance, efficiency = parse_core_counts(hardware.get("number_processors"))
    arch = _hardware_arch(arm64, chip is not None, brand)
    cpu = CPUFacts(
        brand=brand, hardware_arch=arch, apple_silicon={"arm64": True, "x86_64": False}.get(arch), chip=chip, cores=cores,
        performance_cores=performance, efficiency_cores=efficiency, memory_bytes=memory,
        model=_text(hardware.get("machine_model")) or None,
    )
    gpus = [dataclasses.replace(g, memory_bytes=memory) if g.unified_memory and memory else g for g in gpus]
    os_facts = OSFacts(system="Darwin", name=name, version=version, build=build)
    return SystemFacts(os_facts, cpu, tuple(gpus), tuple(problems))
