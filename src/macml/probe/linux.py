"""Linux probes: pure parsers of command outputs, and the facts built from them."""
from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from macml import versions
from macml.facts import CPUFacts, GPU, OSFacts, SystemFacts
from macml.knowledge.pci_ids import amd_device_name
from macml.probe.nvidia_topology import TOPOLOGY, parse_topology
from macml.probe.runner import CommandResult

MIB = 1024**2

OS_RELEASE = ("cat", "/etc/os-release")
UNAME = ("uname", "-rm")
LSCPU = ("lscpu",)
MEMINFO = ("cat", "/proc/meminfo")
NVIDIA_SMI = ("nvidia-smi",)
NVIDIA_QUERY = ("nvidia-smi", "--query-gpu=name,driver_version,memory.total,compute_cap", "--format=csv,noheader")
ROCM_SMI = ("rocm-smi",)
ROCM_PRODUCT = ("rocm-smi", "--showproductname")
COMMANDS = (OS_RELEASE, UNAME, LSCPU, MEMINFO, NVIDIA_SMI, NVIDIA_QUERY, ROCM_SMI, ROCM_PRODUCT, TOPOLOGY)
# What a framework's cached answer depends on: kernel, GPU driver and GPU list (no temperatures).
FINGERPRINT = (UNAME, NVIDIA_QUERY, ROCM_PRODUCT)


def parse_os_release(text: str) -> Dict[str, str]:
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() and not key.startswith("#"):
            values[key.strip()] = value.strip().strip('"').strip("'")
    return values


def parse_colon_table(text: str) -> Dict[str, str]:
    """'Key:   value' lines (lscpu, /proc/meminfo)."""
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            values.setdefault(key.strip(), value.strip())
    return values


def parse_meminfo_total(text: str) -> Optional[int]:
    match = re.search(r"^MemTotal:\s*(\d+)\s*kB", text, re.M)
    return int(match.group(1)) * 1024 if match else None


# R610 renamed them: "KMD Version" (the kernel-mode driver) and "CUDA UMD Version" (the user-mode one).
_SMI_DRIVER = re.compile(r"(?:Driver|KMD) Version:\s*([\d.]+)")
_SMI_CUDA = re.compile(r"CUDA (?:UMD )?Version:\s*([\d.]+)")
_SMI_GPU_ROW = re.compile(r"^\|\s+(\d+)\s+(.+?)\s+(On|Off|TCC|WDDM)\s*\|")  # TCC/WDDM: Windows
_SMI_MEMORY = re.compile(r"(\d+)\s*MiB\s*/\s*(\d+)\s*MiB|(\d+)MB\s*/\s*(\d+)MB")  # drivers before ~R340 print 'MB'


def parse_nvidia_smi(text: str) -> Tuple[Optional[str], Optional[str], List[Tuple[str, Optional[int]]]]:
    """Plain `nvidia-smi`: (driver version, newest CUDA the driver supports, [(name, memory bytes)])."""
    driver = _SMI_DRIVER.search(text)
    cuda = _SMI_CUDA.search(text)
    gpus: List[Tuple[str, Optional[int]]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "Processes" in line:
            break
        row = _SMI_GPU_ROW.match(line)
        if not row:
            continue
        memory = None
        for follow in lines[i + 1 : i + 3]:
            mem = _SMI_MEMORY.search(follow)
            if mem:
                memory = int(mem.group(2) or mem.group(4)) * MIB  # nvidia-smi's MB were MiB
                break
        gpus.append((row.group(2).strip(), memory))
    return (driver.group(1) if driver else None, cuda.group(1) if cuda else None, gpus)


def parse_nvidia_query(text: str) -> List[Dict[str, Optional[str]]]:
    """`nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader`."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) < 4 or not cells[0]:
            continue
        mem = re.match(r"(\d+)\s*MiB", cells[2])
        cap = cells[3] if re.match(r"^\d+\.\d+$", cells[3]) else None
        rows.append({"name": cells[0], "driver": cells[1] or None,
                     "memory": str(int(mem.group(1)) * MIB) if mem else None, "compute_cap": cap})
    return rows


def parse_rocm_device_ids(text: str) -> Dict[str, str]:
    """ROCm 6's concise table names each GPU's PCI device id in its IDs (DID, GUID) column: {"0": "0x75a0"}."""
    found: Dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r"^\s*(\d+)\s+\d+\s+(0x[0-9a-fA-F]{4}),", line)
        if match:
            found[match.group(1)] = match.group(2).lower()
    return found


def parse_rocm_smi(text: str) -> List[str]:
    """GPU indices from rocm-smi's concise table (it carries no model names)."""
    indices = []
    in_table = False
    for line in text.splitlines():
        if "End of ROCm SMI Log" in line:
            break
        if re.match(r"^\s*(GPU|Device)\b", line):
            in_table = True
            continue
        match = re.match(r"^\s*(\d+)\s+\S", line)
        if in_table and match:
            indices.append(match.group(1))
    return indices


def parse_rocm_product(text: str) -> Dict[str, Dict[str, str]]:
    """`rocm-smi --showproductname`: {"0": {"card series": ..., "gfx version": ...}} (keys lowercased:
    releases differ in capitals)."""
    cards: Dict[str, Dict[str, str]] = {}
    for line in text.splitlines():
        match = re.match(r"^\s*GPU\[(\d+)\]\s*:\s*([^:]+?)\s*:\s*(.*)$", line)
        if match:
            cards.setdefault(match.group(1), {})[match.group(2).strip().lower()] = match.group(3).strip()
    return cards


def nvidia_gpus(smi: CommandResult, query: CommandResult) -> Tuple[Tuple[GPU, ...], Tuple[str, ...]]:
    from macml.knowledge.gpu_specs import peak_fp32

    detail = parse_nvidia_query(query.stdout) if query.ok else []
    if smi.missing and not detail:
        return (), ()
    if not smi.ok and not smi.missing:
        return (), (f"nvidia-smi is installed but {smi.why_failed()}",)
    driver, cuda, rows = parse_nvidia_smi(smi.stdout)
    if smi.missing:  # only the query answered (imported from a pasted CSV or collect_env): its rows are the GPUs
        rows = [(row["name"], None) for row in detail]
    gpus = []
    for index, (name, memory) in enumerate(rows):
        extra = detail[index] if index < len(detail) else {}
        full_name = extra.get("name") or name
        peak = peak_fp32(full_name) or (None, None)
        gpus.append(GPU(
            vendor="NVIDIA", model=full_name,
            memory_bytes=int(extra["memory"]) if extra.get("memory") else memory,
            compute_capability=extra.get("compute_cap"),
            driver_version=extra.get("driver") or driver, cuda_driver_version=cuda,
            peak_fp32_tflops=peak[0], bandwidth_gbs=peak[1],
        ))
    problems = () if rows else ("nvidia-smi ran but no GPU rows could be read from its output",)
    return tuple(gpus), problems


def amd_gpus(smi: CommandResult, product: CommandResult) -> Tuple[GPU, ...]:
    cards = parse_rocm_product(product.stdout) if product.ok else {}
    if not smi.ok and not (smi.missing and cards):
        return ()
    # Only the product list (a snapshot imported from pasted rocminfo / --csv output): its cards are the GPUs.
    indices = parse_rocm_smi(smi.stdout) if smi.ok else sorted(cards, key=int)
    device_ids = parse_rocm_device_ids(smi.stdout) if smi.ok else {}
    gpus = []
    for index in indices:
        info = cards.get(index, {})
        did = device_ids.get(index)
        model = (info.get("card series") or info.get("device name") or info.get("card sku")
                 or (did and (amd_device_name(did) or did)) or f"AMD GPU {index}")
        gpus.append(GPU(vendor="AMD", model=model, compute_capability=info.get("gfx version")))
    return tuple(gpus)


_DEBIAN_ARCH = {"arm64": "aarch64", "amd64": "x86_64"}  # hostnamectl's Architecture (Debian's names), read as lscpu's
_ARCH_NAME = re.compile(r"^(x86_64|aarch64|arm64|amd64|i[3-6]86|armv\d\w*|ppc64le|s390x|riscv64)\b", re.IGNORECASE)


def lscpu_arch(value: str) -> str:
    """lscpu's 'x86_64', hostnamectl's 'arm64' (aarch64), a person's 'ARM64 (aarch64)' (its first word); '' for
    anything that does not begin with an architecture's name."""
    found = _ARCH_NAME.match(value.strip())
    return _DEBIAN_ARCH.get(found.group(1).lower(), found.group(1).lower()) if found else ""


def build_facts(run: Callable[[Sequence[str]], CommandResult]) -> SystemFacts:
    release = parse_os_release(run(OS_RELEASE).stdout)
    uname = run(UNAME).stdout.split()
    kernel, arch = (uname + ["", ""])[:2] if len(uname) >= 2 else ("", "")
    lscpu = parse_colon_table(run(LSCPU).stdout)
    cores = lscpu.get("CPU(s)", "")
    os_facts = OSFacts(
        system="Linux",
        name=release.get("NAME") or "Linux",
        # VERSION ('8.6 (Green Obsidian)') begins with VERSION_ID, where a paste grepped only NAME and VERSION
        version=release.get("VERSION_ID") or next(iter(re.findall(r"^\d+(?:\.\d+)*", release.get("VERSION", ""))), ""),
        kernel=kernel or None,
    )
    cpu = CPUFacts(
        brand=lscpu.get("Model name", ""),
        hardware_arch=lscpu_arch(lscpu.get("Architecture", "")) or arch or "unknown",
        cores=versions.number(cores),
        memory_bytes=parse_meminfo_total(run(MEMINFO).stdout),
    )
    nvidia, problems = nvidia_gpus(run(NVIDIA_SMI), run(NVIDIA_QUERY))
    links = gpu_links(run(TOPOLOGY)) if len(nvidia) > 1 else {}
    return SystemFacts(os_facts, cpu, nvidia + amd_gpus(run(ROCM_SMI), run(ROCM_PRODUCT)), problems, links)


def gpu_links(result: CommandResult) -> Dict[str, str]:
    """`nvidia-smi topo -m` -> {"0-1": "NV18", ...}; empty where it did not answer."""
    topology = parse_topology(result.stdout) if result.ok else None
    return {f"{i}-{j}": word for (i, j), word in sorted(topology.links.items())} if topology else {}
