"""Inference: facts that follow from the evidence, derived once, between parsing and the checks.

The OS modules read each command's output on its own; a real report often holds only part of it
(a collect_env paste, a sysctl line, half a System Information copy). This step looks at all of
it together: Apple silicon from any of seven signs, the Apple GPU every such Mac has, an NVIDIA
GPU's compute capability from its name, the architecture, a virtual machine, an eGPU, the CPU's
features. Every derived fact records its evidence in MachineFacts.sources (shown by `doctor -v`
and in the JSON). What no evidence gives stays None: unknown is not no.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, List, Mapping, Optional, Tuple

from macml.facts import GPU, CPUFacts, MachineFacts
from macml.knowledge.hardware import (CHIP_CPU_GPU_CORES, CHIP_MEMORY_GPU_CORES, MAC_MINI_GPU_CORES,
                                     MACBOOK_PRO_13_GPU_CORES, MACBOOK_PRO_16_GPU_CORES,
                                     MAC_MODEL_CHIP_GPU_CORES, MAC_MODEL_GPU_CORES, apple_core_options,
                                     nvidia_compute_capability)
from macml.knowledge.mac_igpus import (AMD_SOURCE as MAC_AMD_SOURCE, BESIDE_AMD_SOURCE as MAC_BESIDE_AMD_SOURCE,
                                       SOURCE as MAC_IGPU_SOURCE, mac_amd_gpu_count,
                                       mac_has_amd_gpu, mac_igpu_beside_amd, mac_integrated_gpu, mac_intel_only,
                                       INTEL_ONLY_SOURCE as MAC_INTEL_ONLY_SOURCE)
from macml.probe.infer_arch import pc_arch, windows_cuda_python
from macml.probe.infer_boards import raspberry_pi_gpu
from macml.probe.infer_driver_cuda import cuda_from_driver_branch, driver_errors
from macml.probe.infer_gfx import stated_gfx
from macml.probe.infer_silicon import apple_chip_on_linux, gpus_not_apple_silicon, x86_is_not_apple_silicon
from macml.probe.stated_gpus import ruled_out_vendors
from macml.probe.infer_mac import (all_text as _all_text, apple_chip_gpu, infer_mac_cpu, infer_macos_version,
                                   infer_native_python, infer_translation, intel_mac_python, is_apple_gpu, mps_gpu_on_intel,
                                   stdout as _stdout)


# Hardware a hypervisor presents. Never a host name: "my-vbox" in `uname -a` is not VirtualBox, so
# uname's output is not searched and the words must stand alone.
_VM_MARKERS = (
    (r"\bvirtualbox\b|\b0x80ee\b", "VirtualBox"), (r"\bvmware(?:\d+,\d+| svga| virtual| \(0x15ad\))|\b0x15ad\b", "VMware"),
    (r"\bparallels (?:display|virtual)|\b0x1ab8\b", "Parallels"), (r"\bqemu (?:virtual|standard)|\b0x1af4\b", "QEMU"),
    (r"apple virtual machine|virtualmac\d|\(virtual\)|apple paravirtual", "Apple Virtual Machine"),
)
# sysctl machdep.cpu.features / leaf7_features and lscpu/cpuinfo spellings -> one name.
_FLAG_ALIASES = {"avx1.0": "avx", "avx512f": "avx512f", "fma": "fma", "asimd": "neon", "amx_tile": "amx",
                 "amx-tile": "amx"}


def detect_vm(facts: MachineFacts, snapshot: Mapping[str, Any]) -> Tuple[Optional[bool], Optional[str], str]:
    """(is a VM, hypervisor, evidence). False only where a hardware section was read and shows none."""
    if facts.cpu.chip and facts.cpu.chip.virtual:
        return True, "Apple Virtual Machine", f"chip: {facts.cpu.chip.name} (Virtual)"
    hypervisor = re.search(r"^Hypervisor vendor:\s*(\S.*)$", _stdout(snapshot, "lscpu"), re.MULTILINE)
    if hypervisor:
        return True, hypervisor.group(1).strip(), f"lscpu Hypervisor vendor: {hypervisor.group(1).strip()}"
    text = _all_text(snapshot, leave_out=("uname -a", "uname -rm"))
    for pattern, name in _VM_MARKERS:
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            return True, name, f"'{match.group()}' in the system output"
    stated = next((s for s in snapshot.get("statements") or () if s.get("fact") == "hypervisor"), None)
    if stated is not None:
        return True, stated.get("value"), f"{stated.get('source')} line {stated.get('line')}: {stated.get('text')}"
    vgpu = next((g.model for g in facts.gpus if re.search(r"\bGRID [A-Z]\d+\w*-\d+[A-Z]\b", g.model)), None)
    if vgpu:
        return True, None, f"{vgpu} is an NVIDIA vGPU profile, which only virtual machines are given"
    bare = next((s for s in snapshot.get("statements") or () if s.get("fact") == "hypervisor.none"), None)
    if bare is not None:  # the report itself says so ('Environment: bare metal')
        return False, None, f"{bare.get('source')} line {bare.get('line')}: {bare.get('text')}"
    metal = next((s for s in snapshot.get("statements") or () if s.get("fact") == "metal.in_use"), None)
    if facts.is_mac and metal is not None:
        return False, None, (f"a Metal device is in use ({metal.get('source')} line {metal.get('line')}): "
                             "macOS guests get no Metal compute")
    flags = facts.cpu.flags
    if flags and facts.cpu.hardware_arch == "x86_64" and sources_flags_are_x86(flags):
        if "vmm" in flags or "hypervisor" in flags:  # CPUID's hypervisor-present bit
            return True, None, "the CPU features include the hypervisor bit (VMM / hypervisor)"
        return False, None, "the CPU features lack the hypervisor bit (VMM / hypervisor) every x86 guest shows"
    if facts.is_mac and facts.cpu.model:
        return False, None, f"model identifier {facts.cpu.model}"
    if facts.is_mac and facts.cpu.chip is not None and not facts.cpu.chip.virtual:
        return False, None, f"chip {facts.cpu.chip.name}: a macOS guest's chip reads '(Virtual)'"
    physical = [g for g in facts.gpus if g.vendor in ("AMD", "Intel", "NVIDIA") or apple_chip_gpu(g)]
    if facts.is_mac and physical:
        return False, None, f"a physical GPU is listed: {physical[0].model}"
    if not facts.is_mac and _stdout(snapshot, "lscpu"):
        return False, None, "lscpu names no hypervisor"
    return None, None, ""


def sources_flags_are_x86(flags: Tuple[str, ...]) -> bool:
    """A full x86 feature list (not the one-word arm64 default)."""
    return len(flags) >= 5 and bool({"sse2", "sse4.2", "sse4_2", "avx"} & set(flags))


def gpu_list_known(facts: MachineFacts, snapshot: Mapping[str, Any]) -> bool:
    """Could the probes have listed every GPU? A Mac always has one, so an empty list there means
    system_profiler said nothing; elsewhere a live probe leaves out only tools that are missing."""
    if facts.is_mac:
        return bool(facts.gpus)
    commands = snapshot.get("commands") or {}
    if any(key.startswith(("nvidia-smi", "rocm-smi")) for key in commands):
        return True
    interp = facts.interpreter
    return bool(interp is not None and interp.known and commands)


def parse_flags(snapshot: Mapping[str, Any]) -> Tuple[Optional[Tuple[str, ...]], str]:
    """CPU features: the snapshot's py-cpuinfo section, else lscpu's Flags, else sysctl machdep.cpu."""
    section = snapshot.get("cpuinfo")
    if isinstance(section, Mapping) and isinstance(section.get("flags"), list) and section["flags"]:
        return _normalise_flags(section["flags"]), str(section.get("source") or "py-cpuinfo")
    lscpu = re.search(r"^Flags:\s*(.+)$", _stdout(snapshot, "lscpu"), re.MULTILINE)
    if lscpu:
        return _normalise_flags(lscpu.group(1).split()), "lscpu Flags"
    words: List[str] = []
    for key in (snapshot.get("commands") or {}):
        if not key.startswith("sysctl") or "machdep.cpu" not in key:
            continue
        for line in _stdout(snapshot, key).splitlines():
            labelled = re.match(r"\s*machdep\.cpu\.\w*features:\s*(.*)", line)
            if labelled:
                words.extend(labelled.group(1).split())
            elif key.startswith("sysctl -n machdep.cpu.") and key.endswith("features"):
                words.extend(line.split())
    if words:
        return _normalise_flags(words), "sysctl machdep.cpu features"
    return None, ""


def _normalise_flags(words: Any) -> Tuple[str, ...]:
    names = {str(w).strip().lower() for w in words if str(w).strip()}
    return tuple(sorted({_FLAG_ALIASES.get(n, n) for n in names}))


def _apple_gpu(cpu: CPUFacts, snapshot: Mapping[str, Any]) -> GPU:
    name = cpu.chip.name if cpu.chip else "Apple GPU"
    cores = next((s.get("value") for s in snapshot.get("statements") or () if s.get("fact") == "gpu.cores"), None)
    return GPU(vendor="Apple", model=name, cores=cores, memory_bytes=cpu.memory_bytes, unified_memory=True,
               integrated=True)


def _model_gpu_cores(gpus: Tuple[GPU, ...], cpu: CPUFacts, sources: Dict[str, str]) -> Tuple[GPU, ...]:
    """An Apple GPU's core count from a Mac model sold with one GPU configuration only (Mac14,15: 10 cores), or
    with that chip (the 16-inch MacBookPro18,1's M1 Pro: 16), or a Mac mini by its chip (the M2 Mac mini: 10)."""
    model, chip = cpu.model or "", cpu.brand or (cpu.chip.name if cpu.chip else "")  # the chip the identifier names
    cores = MAC_MODEL_GPU_CORES.get(model) or MAC_MODEL_CHIP_GPU_CORES.get((model, chip))
    size = re.search(r"\bMacBook Pro (1[36])-inch\b|\bMacBook Pro \((1[36])-inch,", cpu.model_name or "")
    if cores is None and size:
        table = MACBOOK_PRO_13_GPU_CORES if (size.group(1) or size.group(2)) == "13" else MACBOOK_PRO_16_GPU_CORES
        cores = table.get(chip)
        return _apple_cores(gpus, cores, f"the {size.group(1) or size.group(2)}-inch MacBook Pro with the {chip} was sold "
                                         f"with a {cores}-core GPU only (Apple tech specs)", sources)
    if cores is None and re.search(r"\bmac ?mini\b", cpu.model_name or "", re.IGNORECASE):
        cores = MAC_MINI_GPU_CORES.get(chip)
        return _apple_cores(gpus, cores, f"the Mac mini with the {chip} was sold with a {cores}-core GPU only "
                                         "(Apple tech specs)", sources)
    return _apple_cores(gpus, cores, f"model {model} with the {chip} was sold with a {cores}-core GPU only "
                                     "(Apple tech specs)", sources)


def _memory_gpu_cores(gpus: Tuple[GPU, ...], cpu: CPUFacts, sources: Dict[str, str]) -> Tuple[GPU, ...]:
    """An Apple GPU's core count from its chip and memory where each memory size came with one GPU bin only
    (an M3 Max with 36 GB has the 30-core GPU)."""
    chip = cpu.chip.name if cpu.chip else cpu.brand  # the tiered chip where a line named only its generation
    memory_gb = round(cpu.memory_bytes / 1024**3) if cpu.memory_bytes else None
    cores = CHIP_MEMORY_GPU_CORES.get((chip, memory_gb)) if memory_gb else None
    why = f"the {chip} with {memory_gb} GB was sold with a {cores}-core GPU only (Apple tech specs)"
    if cores is None and cpu.cores:  # or its CPU bin: each came with one GPU bin
        cores = CHIP_CPU_GPU_CORES.get((chip, cpu.cores))
        why = f"the {chip} with a {cpu.cores}-core CPU was sold with a {cores}-core GPU only (Apple tech specs)"
    options = apple_core_options(chip) if cores is None and chip else None
    if options and len(options[1]) == 1:  # a chip sold in one GPU configuration (the M5)
        cores = next(iter(options[1]))
        why = f"every {chip} has a {cores}-core GPU (Apple tech specs)"
    return _apple_cores(gpus, cores, why, sources)


def _apple_cores(gpus: Tuple[GPU, ...], cores: Optional[int], why: str, sources: Dict[str, str]) -> Tuple[GPU, ...]:
    if cores is None:
        return gpus
    out = []
    for index, gpu in enumerate(gpus):
        if is_apple_gpu(gpu) and gpu.cores is None:
            gpu = dataclasses.replace(gpu, cores=cores)
            sources[f"gpus.{index}.cores"] = why
        out.append(gpu)
    return tuple(out)


def _nvidia_capabilities(gpus: Tuple[GPU, ...], sources: Dict[str, str]) -> Tuple[GPU, ...]:
    out = []
    for index, gpu in enumerate(gpus):
        if gpu.vendor == "NVIDIA" and not gpu.compute_capability:
            capability = nvidia_compute_capability(gpu.model)
            if capability:
                gpu = dataclasses.replace(gpu, compute_capability=capability)
                sources[f"gpus.{index}.compute_capability"] = \
                    f"GPU-name table for {gpu.model} (developer.nvidia.com/cuda-gpus)"
        out.append(gpu)
    return tuple(out)


TEGRA_GPU = "NVIDIA Tegra integrated GPU"
TEGRA, _TEGRA_NAME = "tegra", re.compile(r"\b(orin|xavier|thor|tegra|jetson)\b", re.IGNORECASE)
# A Jetson's CPU cores name its generation, and so its GPU's compute capability.
_TEGRA_CPUS = {"cortex-a78ae": ("8.7", "Orin"), "carmel": ("7.2", "Xavier")}


def _tegra_gpu(facts: MachineFacts, sources: Dict[str, str]) -> Tuple[GPU, ...]:
    """An L4T kernel ('-tegra', or OE4T's '-l4t-r32.7.4') runs only on a Jetson, whose NVIDIA GPU is integrated:
    nvidia-smi and collect_env do not list it."""
    kernel = facts.os.kernel or ""
    l4t = kernel.endswith("-tegra") or re.search(r"-l4t-r\d{2}\.\d", kernel)
    if facts.platform != "linux" or not l4t or facts.gpus_by_vendor("NVIDIA"):
        return tuple(dataclasses.replace(g, family=TEGRA, integrated=True)
                     if g.vendor == "NVIDIA" and g.family is None and _TEGRA_NAME.search(g.model) else g
                     for g in facts.gpus)
    capability, generation = _TEGRA_CPUS.get(facts.cpu.brand.strip().lower(), (None, ""))
    gpu = GPU(vendor="NVIDIA", model=f"{TEGRA_GPU} ({generation})" if generation else TEGRA_GPU,
              unified_memory=True, compute_capability=capability, integrated=True, family=TEGRA)
    index = len(facts.gpus)
    sources[f"gpus.{index}"] = f"L4T kernel {kernel}: a Jetson, whose NVIDIA GPU is integrated"
    if capability:
        sources[f"gpus.{index}.compute_capability"] = f"{facts.cpu.brand} CPU: Jetson {generation}"
    return facts.gpus + (gpu,)


def infer(facts: MachineFacts, snapshot: Mapping[str, Any]) -> MachineFacts:
    """The facts the evidence implies, each new one with its source; nothing is asserted from absence."""
    sources: Dict[str, str] = dict(facts.sources)
    cpu = infer_mac_cpu(facts, snapshot, sources) if facts.is_mac else pc_arch(facts, snapshot, sources)
    flags, flag_source = parse_flags(snapshot)
    if flags is None and cpu.hardware_arch in ("arm64", "aarch64"):
        flags, flag_source = ("neon",), "every arm64 CPU has NEON (Advanced SIMD)"
    if flags is not None and cpu.flags is None:
        cpu = dataclasses.replace(cpu, flags=flags)
        sources["cpu.flags"] = flag_source
    if not facts.is_mac and cpu.hardware_arch in ("", "unknown") and cpu.flags and sources_flags_are_x86(cpu.flags) \
            and "lm" in cpu.flags:
        cpu = dataclasses.replace(cpu, hardware_arch="x86_64")
        sources["cpu.hardware_arch"] = "x86 CPU flags with lm (64-bit long mode)"
    cpu = x86_is_not_apple_silicon(facts, cpu, sources, snapshot.get("statements") or ())
    facts = dataclasses.replace(facts, cpu=cpu)
    facts = windows_cuda_python(facts, sources)
    if facts.is_mac:
        facts = infer_native_python(infer_macos_version(facts, snapshot, sources), sources)
        facts = infer_translation(intel_mac_python(facts, sources), snapshot, snapshot.get("statements"), sources)
    vm, hypervisor, vm_source = detect_vm(facts, snapshot)
    known = gpu_list_known(facts, snapshot)
    gpus = stated_gfx(mps_gpu_on_intel(facts, cuda_from_driver_branch(_nvidia_capabilities(_tegra_gpu(facts, sources), sources),
                                                                       sources), sources),
                       snapshot, sources, cpu.brand or "")
    if not gpus:
        gpus = raspberry_pi_gpu(facts, snapshot, sources)
        known = known or bool(gpus)
    none = next((s for s in snapshot.get("statements") or () if s.get("fact") == "gpu.none"), None)
    if not gpus and none is not None:  # a machine the text names has none ('instance-type: t4g.2xlarge')
        known = True
        sources["gpus"] = f"{none.get('value')} (line {none.get('line')}: {str(none.get('text'))[:120]})"
    if facts.is_mac and cpu.apple_silicon and hypervisor == "Apple Virtual Machine" and not gpus:
        gpus = (GPU(vendor="Apple", model="Apple Paravirtual device"),)
        sources["gpus.0"] = "an Apple Virtualization guest's GPU is the Apple Paravirtual device"
        known = True
    elif facts.is_mac and not gpus and mac_integrated_gpu(cpu.model):
        gpus = (GPU(vendor="Intel", model=mac_integrated_gpu(cpu.model), integrated=True),)
        sources["gpus.0"] = f"model identifier {cpu.model}: " + MAC_IGPU_SOURCE
        known = True  # the identifier names the Mac's built-in GPUs
    elif facts.is_mac and not gpus and mac_intel_only(cpu.model or ""):
        gpus = (GPU(vendor="Intel", model="Intel GPU (model not in the evidence)", integrated=True),)
        sources["gpus.0"] = f"model identifier {cpu.model}: " + MAC_INTEL_ONLY_SOURCE
        known = True
    elif facts.is_mac and not gpus and mac_has_amd_gpu(cpu.model or ""):  # (a GPU list given is the machine's own)
        gpus = (GPU(vendor="AMD", model="AMD GPU (model not in the evidence)"),) * mac_amd_gpu_count(cpu.model or "")
        sources["gpus.0"] = f"model identifier {cpu.model}: " + MAC_AMD_SOURCE
        known = True
        beside = mac_igpu_beside_amd(cpu.model or "")
        if beside:
            gpus += (GPU(vendor="Intel", model=beside, integrated=True),)
            sources[f"gpus.{len(gpus) - 1}"] = f"model identifier {cpu.model}: " + MAC_BESIDE_AMD_SOURCE
    elif facts.is_mac and cpu.apple_silicon and not vm and not any(is_apple_gpu(g) for g in gpus):
        gpus = gpus + (_apple_gpu(cpu, snapshot),)
        sources[f"gpus.{len(gpus) - 1}"] = ("every Apple-silicon Mac has an Apple GPU with unified memory ("
                                            + sources.get("cpu.apple_silicon", "Apple silicon") + ")")
        known = True
    gpus = _memory_gpu_cores(_model_gpu_cores(gpus, cpu, sources), cpu, sources) if facts.is_mac else gpus
    if vm_source:
        sources["vm"] = vm_source
    egpu = True if any(g.external for g in gpus) else (False if known else None)
    if egpu and "egpu" not in sources:
        sources["egpu"] = "system_profiler marks " + ", ".join(g.model for g in gpus if g.external) + " external"
    ruled_out = ruled_out_vendors(snapshot.get("statements") or (), gpus, sources)
    facts = dataclasses.replace(facts, gpus=gpus, gpu_list_known=known, gpus_ruled_out=ruled_out, vm=vm,
                                hypervisor=hypervisor, egpu=egpu, gpu_driver_errors=driver_errors(snapshot, sources),
                                sources=sources)
    return apple_chip_on_linux(gpus_not_apple_silicon(facts, sources), sources)
