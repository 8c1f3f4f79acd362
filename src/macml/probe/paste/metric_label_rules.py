"""A metrics exporter's sample lines (the Prometheus text format) describe GPUs in their labels:
'rocm_version_info{card="3",driver_ver="6.16.13",type="AMD Instinct MI210",vbios="113-D67301V-073"} 1.0' (omnistat),
'DCGM_FI_DEV_GPU_TEMP{gpu="0",modelName="NVIDIA A100-SXM4-40GB",DCGM_FI_DRIVER_VERSION="535.54.03"} 34' (dcgm-exporter).
A label whose value is a GPU's name names one GPU, numbered by its card/gpu label (so four cards are four GPUs, however
many metrics repeat them); a driver label gives its driver. ROCm's and DCGM's exporters run only on Linux.
"""
from __future__ import annotations

import re

from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.statement_rules import Facts

# searched, not matched: a paste can leave stray characters before a sample ('57rocm_version_info{...} 1.0')
_SAMPLE = re.compile(r"([A-Za-z_:][\w:]*)\{((?:\w+=\"(?:[^\"\\]|\\.)*\",?\s*)+)\}\s+[-+]?(?:\d|NaN|Inf)")
_LABEL = re.compile(r"(\w+)=\"((?:[^\"\\]|\\.)*)\"")
_INDEX_LABELS = ("card", "gpu", "gpu_index", "gpu_id", "index", "minor_number")
_DRIVER_LABELS = ("driver_ver", "driver_version", "dcgm_fi_driver_version")
_DRIVER = re.compile(r"^\d{1,3}\.\d{1,3}(?:\.\d{1,3})?$")
_LINUX_ONLY = re.compile(r"^(?:rocm_|rocm_smi_|amd_smi_|DCGM_)", re.IGNORECASE)


def metric_sample(line: str) -> Facts:
    found = _SAMPLE.search(line)
    if not found:
        return []
    labels = {key.lower(): value for key, value in _LABEL.findall(found.group(2))}
    named = next((gpu_names(value)[0] for value in labels.values() if gpu_names(value)), None)
    number = next((labels[key] for key in _INDEX_LABELS if labels.get(key, "").isdigit()), None)
    driver = next((labels[key] for key in _DRIVER_LABELS if _DRIVER.match(labels.get(key, ""))), None)
    facts: Facts = [gpu_record(named, index=int(number) if number is not None else None)] if named else []
    facts += [("gpu.driver", driver)] if driver and named else []
    return facts + ([("platform", "linux")] if facts and _LINUX_ONLY.match(found.group(1)) else [])
