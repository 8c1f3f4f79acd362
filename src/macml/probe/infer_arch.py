"""The CPU architecture of a machine that is not a Mac, from the best evidence there is: the interpreter's
machine, a kernel release that names its build, an Arm NVIDIA system, an x86 CPU brand or a GPU that only x86
machines carry, a WSL guest's Windows host, and last the one architecture family the text names in passing
(paste/arch_word_rules). Each step records its evidence in `sources`; the first that answers wins.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Dict, Mapping

from macml.facts import CPUFacts, MachineFacts, hardware_arch_name
from macml.knowledge.amd_apus import apu_target, igpu_gfx
from macml.knowledge.hardware import intel_integrated_gpu
from macml.probe.infer_mac import all_text
from macml.probe.infer_wsl import wsl_arch

# A kernel release that names its build's architecture (RHEL/Fedora: 4.18.0-348.12.2.el8_5.x86_64).
_KERNEL_ARCH = re.compile(r"\b\d+\.\d+\.\d+-[\w.]+\.(x86_64|aarch64|ppc64le|s390x)\b")
# Distributions whose only images are x86_64 (each project's download page: linuxmint.com/download.php, zorin.com/os,
# cachyos.org/download, garudalinux.org, nobaraproject.org, bazzite.gg): no Arm edition exists.
_X86_ONLY_DISTRO = re.compile(r"^(?:Linux Mint|Zorin OS|CachyOS|Garuda Linux|Nobara|Bazzite)\b", re.IGNORECASE)
_ARM_NVIDIA = re.compile(r"\b(gh200|gb200|gb300|gb10|grace|orin|xavier|jetson|thor|tegra)\b", re.IGNORECASE)


def pc_arch(facts: MachineFacts, snapshot: Mapping[str, Any], sources: Dict[str, str]) -> CPUFacts:
    """The architecture of a machine that is not a Mac (unchanged where it is already known)."""
    cpu = wsl_arch(facts, _x86_from_brand(facts, _linux_arch(facts, snapshot, sources), sources), snapshot, sources)
    return _named_arch(facts, cpu, snapshot, sources)


def _named_arch(facts: MachineFacts, cpu: CPUFacts, snapshot: Mapping[str, Any], sources: Dict[str, str]) -> CPUFacts:
    """The one architecture family the text names in passing ('NVIDIA-Linux-x86_64-570.124.04.run')."""
    if cpu.hardware_arch not in ("", "unknown"):
        return cpu
    named = [s for s in snapshot.get("statements") or () if s.get("fact") == "arch.named"]
    if not named:
        return cpu
    said = named[0]
    sources["cpu.hardware_arch"] = (f"the only architecture the text names ({said.get('source')} line {said.get('line')}: "
                                    f"{str(said.get('text'))[:120]})")
    return dataclasses.replace(cpu, hardware_arch=hardware_arch_name(said["value"], facts.platform))


def _linux_arch(facts: MachineFacts, snapshot: Mapping[str, Any], sources: Dict[str, str]) -> CPUFacts:
    cpu = facts.cpu
    if cpu.hardware_arch not in ("", "unknown"):
        return cpu
    interp = facts.interpreter
    if interp is not None and interp.machine and facts.platform in ("linux", "win32"):  # a Mac's x86_64 Python may be Rosetta's
        sources["cpu.hardware_arch"] = f"the interpreter's machine ({interp.machine})"
        return dataclasses.replace(cpu, hardware_arch=hardware_arch_name(interp.machine, facts.platform))
    kernel = _KERNEL_ARCH.search(" ".join((facts.os.kernel or "", all_text(snapshot))))
    if kernel:
        sources["cpu.hardware_arch"] = f"kernel release {kernel.group()}"
        return dataclasses.replace(cpu, hardware_arch=kernel.group(1))
    for gpu in facts.gpus:
        if _ARM_NVIDIA.search(gpu.model):
            sources["cpu.hardware_arch"] = f"{gpu.model} is an Arm (Grace/Tegra) system"
            return dataclasses.replace(cpu, hardware_arch="aarch64")
    return cpu


def _x86_from_brand(facts: MachineFacts, cpu: CPUFacts, sources: Dict[str, str]) -> CPUFacts:
    """An Intel or AMD x86 CPU brand names the architecture (Core, Xeon, Ryzen, EPYC ...), as do CUDA and an AMD
    GPU on Windows (x86_64 only: NVIDIA's Windows installation guide, AMD's HIP SDK) and an MI300A (its CPU is Zen 4)."""
    if cpu.hardware_arch not in ("", "unknown"):
        return cpu
    if facts.platform == "win32" and facts.gpus_by_vendor("NVIDIA"):
        sources["cpu.hardware_arch"] = "CUDA on Windows runs on x86_64 only"
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    # AMD's Windows GPU drivers and HIP SDK are x64 only (no Windows-on-Arm Radeon driver): HIP SDK requirements,
    # https://rocm.docs.amd.com/projects/install-on-windows/en/latest/reference/system-requirements.html
    if facts.platform == "win32" and facts.gpus_by_vendor("AMD"):
        sources["cpu.hardware_arch"] = "AMD's Windows GPU drivers run on x86_64 only"
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    igpu = next((g.model for g in facts.gpus if g.vendor == "Intel" and intel_integrated_gpu(g.model)), None)
    if igpu:
        sources["cpu.hardware_arch"] = f"{igpu}: an Intel integrated GPU, on an x86 Intel CPU's die"
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    # a GeForce or Quadro laptop part (K2000M, M1000M): NVIDIA's laptop GPUs ship in Intel or AMD laptops only
    # (nvidia.com/en-us/geforce/laptops)
    laptop = next((g.model for g in facts.gpus_by_vendor("NVIDIA")
                   if re.search(r"Max-Q|Laptop GPU|\bGeForce (?:GTX |GT )?\d{3,4}M\b|\bQuadro [KM]\d{3,4}M\b", g.model,
                             re.IGNORECASE)), None)
    if laptop:
        sources["cpu.hardware_arch"] = f"{laptop}: an NVIDIA laptop GPU, sold in x86 laptops only"
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    ryzen_igpu = next((g for g in facts.gpus_by_vendor("AMD") if apu_target(g.compute_capability or igpu_gfx(g.model))), None)
    if ryzen_igpu:
        sources["cpu.hardware_arch"] = (f"{ryzen_igpu.model} ({ryzen_igpu.compute_capability or igpu_gfx(ryzen_igpu.model)}): "
                                        "the integrated GPU of an "
                                        "AMD Ryzen APU, an x86 CPU (LLVM AMDGPU processor table)")
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    apu = next((g.model for g in facts.gpus if re.search(r"\bMI300A\b", g.model)), None)
    if apu:
        sources["cpu.hardware_arch"] = f"{apu}: an APU whose CPU cores are x86 (Zen 4)"
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    distro = _X86_ONLY_DISTRO.match(facts.os.name or "") if facts.platform == "linux" else None
    if distro:
        sources["cpu.hardware_arch"] = f"{distro.group()}: a distribution published for x86_64 only"
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    if not re.search(r"\b(Intel|AMD)\b", cpu.brand or ""):
        return cpu
    if re.search(r"\b(Core|Xeon|Celeron|Pentium|Atom|Ryzen|EPYC|Athlon|Threadripper|Opteron)\b", cpu.brand):
        sources["cpu.hardware_arch"] = f"x86 CPU brand: {cpu.brand}"
        return dataclasses.replace(cpu, hardware_arch="x86_64")
    return cpu


def windows_cuda_python(facts: MachineFacts, sources: Dict[str, str]) -> MachineFacts:
    """A CUDA build of torch on Windows: PyTorch publishes those wheels for win_amd64 only
    (download.pytorch.org/whl/cu*/torch: no win_arm64 CUDA wheel), so the Python holding it is x86_64."""
    interp, torch = facts.interpreter, facts.frameworks.get("torch")
    version = str(torch.data.get("version") or "") if torch is not None else ""
    if facts.platform != "win32" or interp is None or interp.machine or not re.search(r"\+cu\d{2,3}\b", version):
        return facts
    sources["interpreter.machine"] = f"torch {version}: PyTorch's Windows CUDA wheels are win_amd64 only"
    return dataclasses.replace(facts, interpreter=dataclasses.replace(interp, machine="x86_64"))
