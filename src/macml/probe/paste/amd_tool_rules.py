"""AMD's Linux GPU tools and the names they print, each a pure function returning stated facts:

- rocm-smi --json's per-card keys ('"Temperature (Sensor edge) (C)": "46.0"', '"Average Graphics Package Power (W)"'):
  rocm-smi is a Linux tool (https://rocm.docs.amd.com/projects/rocm_smi_lib/en/latest/), so the machine runs Linux;
- amd-smi static's DRIVER section ('NAME: amdgpu'): the amdgpu kernel driver, Linux's own; and its whole per-GPU
  block ('GPU: 0', then 'ASIC:' ... 'MARKET_NAME: AMD Instinct MI350X', 'TARGET_GRAPHICS_VERSION: gfx950', 'DRIVER:'
  ... 'VERSION: 6.18.3'): each GPU by its market name (BOARD's PRODUCT_NAME, 'AMD Instinct MI350 OAM', names the
  module it sits on), its gfx target and the driver's version;
- a Proxmox VE kernel release ('VERSION: 7.0.14-17-pve'): Linux;
- EasyBuild's `eb --show-system-info` GPU rows ('-> 1x Navi 48 [RX 9070/9070 XT] (device id: 0x7550, gfx: gfx1201,
  driver: 6.13.5-arch1-1)'): that many AMD GPUs of that name and gfx target, on Linux (the driver is amdgpu, the
  kernel's, and its version the kernel release);
- an integrated Radeon the writer says is theirs ('From my Radeon 780M'), a GPU/CPU answer naming it ('GPU: Radeon 890M'),
  or a CPU brand string ('AMD Ryzen 7 8845HS w/ Radeon 780M Graphics'): its APU's gfx target (knowledge/amd_apus.py).
  Not one merely mentioned ('Is the Radeon 780M supported?'), nor one beside another GPU the line names.
"""
from __future__ import annotations

import re
from typing import Dict, List, Sequence

from macml.knowledge.amd_apus import igpu_gfx, vbios_gfx
from macml.probe.paste.board_rules import generic_amd_gpu
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.statement_rules import Facts

# Keys only rocm-smi prints (its sensor and power readings as `rocm-smi --json` and `rocm-smi -a` name them)
_ROCM_SMI_KEYS = re.compile(r"temperature \(sensor (?:edge|junction|memory|hotspot|hbm \d)\) \(c\)"
                            r"|(?:average|current socket|max) graphics package power \(w\)|mec firmware version")
_KERNEL_DRIVERS = ("amdgpu", "i915", "nouveau")  # Linux kernel modules' names: no other OS's driver is called so
_PVE_KERNEL = re.compile(r"(?<![\w.])\d+\.\d+\.\d+-\d+-pve\b")  # Proxmox VE's kernels: '6.8.12-4-pve'
_NEGATED = re.compile(r"\b(?:not|never|no|without|unlike|instead of|rather than|than)\b|n't\b", re.IGNORECASE)


def rocm_smi_key(key: str, value: str) -> Facts:
    return [("platform", "linux")] if _ROCM_SMI_KEYS.fullmatch(key) and value.strip() else []


def driver_name(key: str, value: str) -> Facts:
    """amd-smi static's 'NAME: amdgpu' (under DRIVER:), modinfo's 'name: amdgpu': a Linux kernel driver."""
    return [("platform", "linux")] if key in ("name", "driver name") and value.strip().lower() in _KERNEL_DRIVERS else []


def pve_kernel(line: str) -> Facts:
    return [("platform", "linux")] if _PVE_KERNEL.search(line) else []


_FIRST_PERSON = re.compile(r"\b(?:my|I(?:'m|\s+am)\s+(?:using|testing|running|on)|I\s+(?:have|use|run|own|bought|got|tested))\b",
                           re.IGNORECASE)
_OWN_ANSWER = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?:\*\*)?(?:GPU|iGPU|Graphics|Device|Name|Marketing Name|CPU|Processor|APU|GPU models and configuration)"
                         r"(?:\*\*)?\s*:|(?:\bw/|\bwith)\s+$|\bdescription=\"$|^\s*[-*\u2022]\s*(?:Integrated\s+)?(?:AMD\s+)?$", re.IGNORECASE)
_TOOL_ROW = re.compile(r"\s*(?:Graphics\b)?(?:\s+[\d.:-]+)*\s*$", re.IGNORECASE)  # wmic's 'AMD Radeon 780M Graphics 1073741824 ...' 
_OTHER_GPU = re.compile(r"\b(?:RTX|GTX|Quadro|Tesla|Arc|RX\s*\d|Radeon\s+(?:RX|Pro|VII)|\d{4}\s*XTX?|Instinct|MI\d{2,3})\b",
                        re.IGNORECASE)


def igpu_target(line: str) -> Facts:
    """'From my Radeon 780M' -> gfx1103: the integrated Radeon's target, when the line states it is this machine's
    (first person, a GPU/CPU answer, a 'w/ Radeon 780M' brand string) and names no other GPU."""
    found = re.search(r"\bRadeon\s+\d{3,4}[MS]\b", line, re.IGNORECASE)
    gfx = igpu_gfx(found.group()) if found else None
    before = line[:found.start()] if found else ""
    if not gfx or _NEGATED.search(before[-30:]) or "?" in line[found.end():].split(".")[0]:
        return []
    sentence = re.split(r"[.;!?](?:\s|$)", before)[-1]
    tool_row = re.fullmatch(r"\s*(?:AMD\s+)?", before) and _TOOL_ROW.match(line[found.end():])
    if not (_FIRST_PERSON.search(sentence) or _OWN_ANSWER.search(before) or tool_row):
        return []
    if _OTHER_GPU.search(line[:found.start()] + " " + line[found.end():]):
        return []
    return [("gpu.gfx", gfx)]


_EASYBUILD_GPU = re.compile(r"^\s*(?:->\s*)?(\d{1,2})x\s+(.+?)\s+\(device id: 0x[0-9a-f]{4}, gfx: (gfx[0-9a-f]{3,4})"
                            r"(?:, driver: (\d+\.\d+\.\d+[^)\s]*))?\)\s*$")


def easybuild_gpu(line: str) -> Facts:
    """'-> 1x Raphael (device id: 0x164e, gfx: gfx1036, driver: 6.13.5-arch1-1)' -> one AMD GPU, gfx1036, Linux."""
    found = _EASYBUILD_GPU.match(line)
    if not found:
        return []
    gpus = [("gpu", {"name": found.group(2), "vendor": "AMD", "memory_mib": None, "index": None})] * int(found.group(1))
    return [("platform", "linux")] + gpus + [("gpu.gfx", found.group(3))] + (
        [("gpu.driver", found.group(4))] if found.group(4) else [])


# amd-smi's header box: '| Platform: Linux Baremetal |' (its own word for a machine that is no VM guest)
_AMD_SMI_PLATFORM = re.compile(r"^\s*\|\s*Platform:\s*(Linux|Windows)\s+(Baremetal|Guest|Host)\b")


def amd_smi_platform(line: str) -> Facts:
    """'| Platform: Linux Baremetal |' -> Linux, not a VM."""
    found = _AMD_SMI_PLATFORM.match(line)
    if not found:
        return []
    facts: Facts = [("platform", "linux" if found.group(1) == "Linux" else "win32"), ("gpu.present", "AMD")]
    return facts + ([("hypervisor.none", True)] if found.group(2) in ("Baremetal", "Host") else [])


def line_facts(line: str) -> Facts:
    return pve_kernel(line) + igpu_target(line) + apu_vbios(line) + easybuild_gpu(line) + amd_smi_platform(line)


def apu_vbios(line: str) -> Facts:
    """rocm-smi's 'GPU[0]		: VBIOS version: 102-RAPHAEL-008': an APU's integrated Radeon, and its gfx target."""
    found = re.search(r"\bVBIOS version\s*:\s*(\S+)", line, re.IGNORECASE)
    gfx = vbios_gfx(found.group(1)) if found else None
    return [("platform", "linux"), ("gpu.present", "AMD"), ("gpu.gfx", gfx)] if gfx else []


def keyed_facts(key: str, value: str) -> Facts:
    return rocm_smi_key(key, value) + driver_name(key, value)


_SMI_GPU = re.compile(r"^GPU: (\d+)\s*$")
_SMI_SECTION = re.compile(r"^(\s+)([A-Z][A-Z_]+):\s*$")
_SMI_FIELD = re.compile(r"^\s+([A-Z][A-Z_]+):\s*(\S.*?)\s*$")


def amd_smi_static(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the GPU, gfx target and driver version an `amd-smi static` block states on that line."""
    found: Dict[int, Facts] = {}
    gpu, section = None, ""
    for index, line in enumerate(lines):
        header, opened, field = _SMI_GPU.match(line), _SMI_SECTION.match(line), _SMI_FIELD.match(line)
        if header:
            gpu, section = int(header.group(1)), ""
        elif opened and gpu is not None:
            section = opened.group(2)
        elif field and gpu is not None:
            facts = _smi_field(section, field.group(1), field.group(2), gpu)
            if facts:
                found[index] = facts
        elif line.strip() and not line.startswith((" ", "\t")):
            gpu = None
    return found


def _smi_field(section: str, key: str, value: str, gpu: int) -> List:
    # an APU's is a code name ('Phoenix3') or the generic 'AMD Radeon Graphics' (Strix Halo's), which is still a GPU
    if section == "ASIC" and key == "MARKET_NAME" and (gpu_names(value) or generic_amd_gpu(value)):
        return [("platform", "linux"), ("gpu", {"name": value, "vendor": "AMD", "memory_mib": None, "index": gpu})]
    if section == "ASIC" and key == "TARGET_GRAPHICS_VERSION" and re.fullmatch(r"gfx[0-9a-f]{3,4}", value):
        return [("gpu.gfx", value)]
    if section == "DRIVER" and key == "VERSION" and re.fullmatch(r"\d+\.\d+(?:\.\d+)*", value):
        return [("gpu.driver", value)]
    return []
