"""AMD's Linux GPU tools and the names they print, each a pure function returning stated facts:

- rocm-smi --json's per-card keys ('"Temperature (Sensor edge) (C)": "46.0"', '"Average Graphics Package Power (W)"'):
  rocm-smi is a Linux tool (https://rocm.docs.amd.com/projects/rocm_smi_lib/en/latest/), so the machine runs Linux;
- amd-smi static's DRIVER section ('NAME: amdgpu'): the amdgpu kernel driver, Linux's own;
- a Proxmox VE kernel release ('VERSION: 7.0.14-17-pve'): Linux;
- an integrated Radeon named ('From my Radeon 780M'): its APU's gfx target (knowledge/amd_apus.py).
"""
from __future__ import annotations

import re

from macml.knowledge.amd_apus import igpu_gfx
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


def igpu_target(line: str) -> Facts:
    """'From my Radeon 780M' -> gfx1103: the integrated Radeon's target, unless the line names it to set it apart."""
    found = re.search(r"\bRadeon\s+\d{3,4}[MS]\b", line, re.IGNORECASE)
    gfx = igpu_gfx(found.group()) if found else None
    if not gfx or _NEGATED.search(line[max(0, found.start() - 30):found.start()]):
        return []
    return [("gpu.gfx", gfx)]


def line_facts(line: str) -> Facts:
    return pve_kernel(line) + igpu_target(line)


def keyed_facts(key: str, value: str) -> Facts:
    return rocm_smi_key(key, value) + driver_name(key, value)
