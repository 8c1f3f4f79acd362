"""What a text says of the host through the names of the things it runs on:

- a cloud instance type ('instance-type: t4g.2xlarge'): a hypervisor guest (bare metal for '.metal' sizes), and,
  for a family without GPUs, a machine with none, and its CPU's arch (knowledge.cloud_instances);
- `uname -r` pasted with its answer on the next line ('$ uname -r' / '5.10.17-v8+'): the Linux kernel release;
- a Nix store interpreter ('/nix/store/<hash>-python3-3.11.13-env/lib/python3.11/...'): that Python's version;
- vLLM's OpenAI server image ('vllm-openai:v0.7.2'), its API server's 'vLLM API server version 0.8.5.post1': vLLM at
  that version (on Linux), and its 'Detected different devices in the system: NVIDIA GeForce RTX 3090, NVIDIA GeForce
  RTX 3090, NVIDIA GeForce GTX 1080 Ti, ...': one GPU per name listed;
- Triton's refusal ('Found Tesla P40 which is too old to be supported by the triton GPU compiler, ... your device
  is of CUDA capability 6.1'): that GPU and its compute capability;
- nvidia-smi --query-gpu CSV rows pasted without their header ('NVIDIA RTX A6000, 00000000:01:00.0, 550.54.15,
  ..., 49140 MiB, 48668 MiB, 1 MiB, ..., 8.6, ...'): the GPU, its driver, its memory (the largest MiB column:
  total is never below used or free) and its capability; rows of one PCI bus id are one GPU sampled again.
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.knowledge.cloud_instances import ec2_instance
from macml.probe.paste.base import strip_prompt
from macml.probe.paste.gpu_names import gpu_names, gpu_vendor
from macml.probe.paste.statement_rules import Facts

_INSTANCE_KEYS = ("instance-type", "instance type", "instancetype", "ec2 instance type", "aws instance type")
_EC2_IN_LINE = re.compile(r"\b(?:EC2|AWS)\b[^.]{0,60}?\b([a-z]{1,3}\d[a-z-]*\.(?:\d*x?large|medium|small|micro|nano|metal))\b",
                          re.IGNORECASE)
_KERNEL_RELEASE = re.compile(r"^\d+\.\d+(?:\.\d+)?[-+][\w.+-]+$")  # '5.10.17-v8+', '6.8.0-45-generic'
_NIX_PYTHON = re.compile(r"/nix/store/[0-9a-z]{32}-python3-(3\.\d{1,2}\.\d{1,2})(?:-env)?/")
_VLLM_IMAGE = re.compile(r"\bvllm-openai:v?(\d+\.\d+\.\d+)\b")
_VLLM_SERVER = re.compile(r"\bvLLM API server version (\d+\.\d+\.\d+(?:\.post\d+|rc\d+)?)\b")
_VLLM_DEVICES = re.compile(r"\bDetected different devices in the system: (.+?)\. Please make sure\b")
_TRITON_TOO_OLD = re.compile(r"\bFound (.+?) which is too old to be supported by the triton GPU compiler\b.*?"
                             r"\byour device is of CUDA capability (\d{1,2}\.\d)\b")
_BUS_ID = re.compile(r"^[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d$")
_DRIVER = re.compile(r"^\d{3}\.\d{2,3}(?:\.\d{2})?$")


def _instance_facts(text: str) -> Facts:
    instance = ec2_instance(text)
    if instance is None:
        return []
    facts: Facts = [("hypervisor", "Amazon EC2")] if instance.virtual else [("hypervisor.none", True)]
    facts += [("cpu.hardware_arch", instance.arch)] if instance.arch else []
    return facts + ([] if instance.has_gpu else [("gpu.none", f"EC2 {instance.name} has no GPU")])


def instance_type(key: str, value: str) -> Facts:
    return _instance_facts(value) if key in _INSTANCE_KEYS else []


def ec2_in_line(line: str) -> Facts:
    found = _EC2_IN_LINE.search(line)
    return _instance_facts(found.group(1)) if found else []


def nix_python(line: str) -> Facts:
    found = _NIX_PYTHON.search(line)
    return [("python.version", found.group(1))] if found else []


def vllm_devices(line: str) -> Facts:
    found = _VLLM_DEVICES.search(line)
    names = [name.strip() for name in found.group(1).split(",")] if found else []
    if not names or not all(gpu_names(name) == [name] for name in names):
        return []
    return [("gpu", {"name": name, "vendor": gpu_vendor(name), "memory_mib": None, "index": index})
            for index, name in enumerate(names)]


def vllm_image(line: str) -> Facts:
    found = _VLLM_IMAGE.search(line) or _VLLM_SERVER.search(line)
    return [("platform", "linux"), ("package", {"name": "vllm", "version": found.group(1)})] if found else []


def triton_too_old(line: str) -> Facts:
    found = _TRITON_TOO_OLD.search(line)
    if not found or gpu_vendor(found.group(1)) != "NVIDIA":
        return []
    name = found.group(1).strip()
    return [("gpu.mention", name), ("gpu.capability", {"name": name, "capability": found.group(2)})]


def smi_csv_row(line: str) -> Facts:
    cells = [c.strip() for c in line.split(",")]
    if len(cells) < 4 or not gpu_names(cells[0] + ",") or gpu_vendor(cells[0]) != "NVIDIA":
        return []
    bus = next((c for c in cells[1:] if _BUS_ID.match(c)), None)
    drivers = [c for c in cells[1:] if _DRIVER.match(c)]
    memories = [int(m.group(1)) for m in (re.fullmatch(r"(\d+) MiB", c) for c in cells[1:]) if m]
    capabilities = [c for c in cells[1:] if re.fullmatch(r"\d{1,2}\.\d", c)]
    if bus is None or len(drivers) > 1 or len(capabilities) > 1:
        return []
    index = int(re.sub(r"[^0-9A-Fa-f]", "", bus), 16)  # one number per PCI address: a second sample is the same GPU
    value = {"name": cells[0], "vendor": "NVIDIA", "memory_mib": max(memories) if memories else None, "index": index}
    if capabilities:
        value["capability"] = capabilities[0]
    return [("gpu", value)] + [("gpu.driver", d) for d in drivers]


def line_facts(line: str) -> Facts:
    rules = (ec2_in_line, nix_python, vllm_image, vllm_devices, triton_too_old, smi_csv_row)
    return [fact for rule in rules for fact in rule(line)]


def keyed_facts(key: str, value: str) -> Facts:
    return instance_type(key, value)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> the kernel release a pasted `uname -r` answered on it."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        if strip_prompt(line) == line or strip_prompt(line).strip() != "uname -r":
            continue
        answer = lines[index + 1].strip()
        if _KERNEL_RELEASE.match(answer):
            found[index + 1] = [("platform", "linux"), ("os.kernel", answer)]
    return found
