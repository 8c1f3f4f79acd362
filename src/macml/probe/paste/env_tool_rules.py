"""Set 11's Linux clues in tool output pasted into issues, each a pure function returning stated facts.

- kohya/SD.Next's 'Torch detected GPU: NAME VRAM 24150 Arch (8, 6) Cores 82' and 'Torch backend: nVidia CUDA 11.8';
  SD.Next's 'Python: version=3.10.12 platform=Linux bin="..."' (the Python it launched, and its OS); audio-separator's
  'ONNX Runtime CPU package installed with version: 1.18.1' (onnxruntime; GPU: onnxruntime-gpu).
- trtexec's 'Device 0: "NVIDIA GeForce RTX 3090" UUID: GPU-...' and the selected device's 'Compute Capability: 8.6'.
- Paddle's device_context: 'device: 0, CUDA Capability: 75, Driver API Version: 10.1, Runtime API Version: 10.0'.
- An NGC container's banner: 'built for NVIDIA Driver Release 450.51 or later, but / version 440.64.00 was detected';
  a glog line's 'GPU 0: TITAN Xp' (Triton's NVML metrics).
- MXNet's diagnose.py sections ('Version : 3.5.2' under '----------Python Info----------').
- SD.Next's 'Version Platform Description' block: 'arch: arm64', 'cpu: arm', 'system: Darwin', 'python: 3.10.9', each
  a line (platform.machine() of the Python it runs: that Python's arch).
- `pipx list`'s 'package ctranslate2 4.4.0, installed using Python 3.12.3'; Lightning's 'GPU available: True (cuda)'.
- lspci's 'NVIDIA Corporation Device 2684' (a pci.ids without the board's name; knowledge/pci_ids.py).
- The Linux loader's 'libcudnn_ops_infer.so.8: cannot open shared object file'; '(bare metal server, not virtualised)'.

env_report_rules registers these with its own (statements registers one module).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from macml.knowledge.nvidia_chips import chip_capability
from macml.knowledge.pci_ids import nvidia_device_capability
from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.statement_rules import platform_word

Facts = List[Tuple[str, Any]]


# newer launchers print 'VRAM 15845MB Arch 12.0' for 'VRAM 24150 Arch (8, 6)'
_KOHYA_GPU = re.compile(r"\bTorch detected GPU:\s*(.+?)\s+VRAM\s+(\d{3,6})(?:\s?MB)?\b(?:\s+Arch\s+(?:\((\d+),\s*(\d+)\)|(\d+)\.(\d)\b))?")
_KOHYA_BACKEND = re.compile(r"\bTorch backend:\s*nVidia CUDA\s+(\d+\.\d+)", re.IGNORECASE)


_SDNEXT_PYTHON = re.compile(r"\bPython: version=(\d\.\d{1,2}\.\d{1,2}) platform=(Linux|Windows|Darwin)\b")


_ORT_INSTALLED = re.compile(r"\bONNX Runtime (CPU|GPU|Silicon|DirectML) package installed with version:?\s+(\d+\.\d+\.\d+)\b")


def onnxruntime_installed(line: str) -> Facts:
    found = _ORT_INSTALLED.search(line)
    if not found:
        return []
    name = "onnxruntime" + {"CPU": "", "GPU": "-gpu", "Silicon": "-silicon", "DirectML": "-directml"}[found.group(1)]
    return [("package", {"name": name, "version": found.group(2)})]


def sdnext_python(line: str) -> Facts:
    found = _SDNEXT_PYTHON.search(line)
    if not found:
        return []
    return [("python.version", found.group(1)), ("platform", platform_word(found.group(2)))]


def kohya_log(line: str, following: str = "") -> Facts:
    """'Torch detected GPU: NVIDIA GeForce RTX 3090 VRAM 24150 Arch (8, 6) Cores 82' (the Arch may wrap onto the next
    line): the GPU torch found, so CUDA works; 'Torch backend: nVidia CUDA 11.8 cuDNN 8700' is torch's CUDA build."""
    backend = _KOHYA_BACKEND.search(line)
    if backend:
        return [("torch.cuda_version", backend.group(1))]
    found = _KOHYA_GPU.search(line)
    if not found:
        return []
    arch = found.groups()[2:4] if found.group(3) else found.groups()[4:6] if found.group(5) else None
    wrapped = re.match(r"^\s*Arch\s+\((\d+),\s*(\d+)\)", following)
    arch = arch or (wrapped.groups() if wrapped else None)
    record = dict(gpu_record(found.group(1))[1], memory_mib=int(found.group(2)))
    if arch:
        record["capability"] = f"{arch[0]}.{arch[1]}"
    return [("gpu", record), ("torch.cuda_available", True)]


_TRTEXEC_DEVICE = re.compile(r'\bDevice (\d{1,2}): "([^"]+)" UUID: GPU-')
_TRTEXEC_SELECTED = re.compile(r"\bSelected Device ID:\s*(\d{1,2})\s*$")
_TRTEXEC_CAPABILITY = re.compile(r"\]\s*Compute Capability:\s*(\d{1,2})\.(\d)\s*$")


def trtexec_devices(lines: Sequence[str]) -> Dict[int, Facts]:
    """trtexec's device information: each 'Device N: "NAME" UUID: GPU-...' is one GPU; 'Compute Capability: 8.6'
    is the selected device's."""
    found: Dict[int, Facts] = {}
    selected: Optional[int] = None
    for index, line in enumerate(lines):
        device = _TRTEXEC_DEVICE.search(line)
        if device:
            found[index] = [gpu_record(device.group(2), index=int(device.group(1))), ("gpu.present", "NVIDIA")]
        chosen = _TRTEXEC_SELECTED.search(line)
        selected = int(chosen.group(1)) if chosen else selected
        capability = _TRTEXEC_CAPABILITY.search(line)
        if capability and selected is not None:
            found[index] = [("gpu.capability_of", {"index": selected,
                                                   "capability": f"{capability.group(1)}.{capability.group(2)}"})]
    return found


_PADDLE_DEVICE = re.compile(r"\bdevice: (\d{1,2}), CUDA Capability: (\d)(\d), Driver API Version: (\d{1,2}\.\d)")


def paddle_device(line: str) -> Facts:
    """Paddle's device_context: 'device: 0, CUDA Capability: 75, Driver API Version: 10.1, Runtime API Version: 10.0'
    -> GPU 0 has compute capability 7.5; the driver supports CUDA 10.1."""
    found = _PADDLE_DEVICE.search(line)
    if not found:
        return []
    capability = f"{found.group(2)}.{found.group(3)}"
    return [("gpu.present", "NVIDIA"), ("gpu.capability_of", {"index": int(found.group(1)), "capability": capability}),
            ("gpu.capability", {"name": None, "capability": capability}), ("gpu.cuda_driver", found.group(4))]


_NGC_DRIVER = re.compile(r"\bbuilt for NVIDIA Driver Release [\d.]+ or later, but\s*$")
_NGC_DETECTED = re.compile(r"^\s*(?:ERROR:\s*)?version (\d{3}\.\d{2,3}(?:\.\d{2})?) was detected\b")
_GLOG_GPU = re.compile(r"^[IWE]\d{4} [\d:.]+\s+\d+ [\w.]+:\d+\]\s+GPU (\d{1,2}): (.+?)\s*$")


def ngc_banner(lines: Sequence[str]) -> Dict[int, Facts]:
    """An NGC container's banner: 'This container was built for NVIDIA Driver Release 450.51 or later, but / version
    440.64.00 was detected' -> driver 440.64.00 (NGC images are Linux); Triton's glog 'GPU 0: TITAN Xp' -> one GPU."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        same_line = re.search(r"\bbuilt for NVIDIA Driver Release [\d.]+ or later, but\s+version (\d{3}\.\d{2,3}(?:\.\d{2})?) "
                              r"was detected", line)
        if same_line:
            found[index] = [("platform", "linux"), ("gpu.driver", same_line.group(1)), ("gpu.present", "NVIDIA")]
        elif _NGC_DRIVER.search(line) and index + 1 < len(lines):
            detected = _NGC_DETECTED.match(lines[index + 1])
            if detected:
                found[index + 1] = [("platform", "linux"), ("gpu.driver", detected.group(1)), ("gpu.present", "NVIDIA")]
        glog = _GLOG_GPU.match(line)
        if glog and gpu_names(glog.group(2)):
            found.setdefault(index, []).append(gpu_record(gpu_names(glog.group(2))[0], index=int(glog.group(1))))
    return found


_SECTION = re.compile(r"^-{4,}\s*(Python|Pip|MXNet|System|Hardware|Network) Info\s*-{4,}\s*$")
_DIAGNOSE_ROW = re.compile(r"^(\w[\w ]*?)\s*:\s*(\S.*?)\s*$")


def diagnose_sections(lines: Sequence[str]) -> Dict[int, Facts]:
    """MXNet's diagnose.py: 'Version : 3.5.2' under '----------Python Info----------' is Python's; under
    '----------MXNet Info-----------' mxnet's."""
    found: Dict[int, Facts] = {}
    section = ""
    for index, line in enumerate(lines):
        heading = _SECTION.match(line.strip())
        if heading:
            section = heading.group(1).lower()
            continue
        row = _DIAGNOSE_ROW.match(line.strip())
        if not row or row.group(1).lower() != "version" or not re.fullmatch(r"\d+(?:\.\d+)+", row.group(2)):
            continue
        if section == "python":
            found[index] = [("python.version", row.group(2))]
        elif section == "mxnet":
            found[index] = [("package", {"name": "mxnet", "version": row.group(2)})]
    return found


_PIPX = re.compile(r"^\s*package ([A-Za-z][\w.-]*) (\d+(?:\.\d+)+\S*), installed using Python (\d+\.\d+\.\d+)\s*$")


def pipx_package(line: str) -> Facts:
    """`pipx list`: 'package whisperx 3.3.2, installed using Python 3.12.3'."""
    found = _PIPX.match(line)
    return [("package", {"name": found.group(1).lower(), "version": found.group(2)})] if found else []


def lightning_gpu(line: str) -> Facts:
    """PyTorch Lightning's 'GPU available: True (cuda), used: True' is torch.cuda.is_available()."""
    found = re.search(r"\bGPU available: (True|False) \(cuda\)", line)
    return [("torch.cuda_available", found.group(1) == "True")] if found else []


_PCI_DEVICE = re.compile(r"\b(?:VGA compatible controller|3D controller)(?: \[\w+\])?: (NVIDIA Corporation Device ([0-9a-f]{4}))\b")


# neofetch's GPU line shows lspci's name for it: 'GPU: NVIDIA NVIDIA Corporation Device 1ba1'
_NEOFETCH_DEVICE = re.compile(r"^\s*GPU: (?:NVIDIA )?(NVIDIA Corporation Device ([0-9a-f]{4}))\W*$")
# lspci and inxi name the chip before the board: 'NVIDIA Corporation GF108 [GeForce GT 730]', 'NVIDIA GK208B [GeForce GT 730]'
_CHIP_AND_BOARD = re.compile(r"\bNVIDIA(?: Corporation)? ([A-Z]{1,3}\d{2,3}[A-Z0-9]{0,3}) \[([^\]]+)\]")


def pci_device(line: str) -> Facts:
    """lspci without a name for the board: 'VGA compatible controller: NVIDIA Corporation Device 2684' is an RTX 4090,
    so the GPU lspci names that way has compute capability 8.9 (its chip's); neofetch's 'GPU: NVIDIA NVIDIA
    Corporation Device 1ba1' (Linux: the name is lspci's) is that board. The board's name comes later
    (tool_gpu_names.name_by_pci_id)."""
    neofetch = _NEOFETCH_DEVICE.match(line)
    if neofetch and nvidia_device_capability(neofetch.group(2)):
        return [gpu_record(neofetch.group(1)), ("platform", "linux"), ("gpu.capability", {
            "name": neofetch.group(1), "capability": nvidia_device_capability(neofetch.group(2))})]
    found = _PCI_DEVICE.search(line)
    capability = nvidia_device_capability(found.group(2)) if found else None
    return [("gpu.capability", {"name": found.group(1), "capability": capability})] if capability else []


def chip_and_board(line: str) -> Facts:
    """'NVIDIA Corporation GF108 [GeForce GT 730]': that GT 730 is the Fermi one (2.1), not the GK208 (3.5); the
    chip gives the capability the board's name leaves open."""
    found = _CHIP_AND_BOARD.search(line)
    capability = chip_capability(found.group(1)) if found else None
    names = gpu_names(found.group(2)) if capability else []
    return [("gpu.capability", {"name": names[-1], "capability": capability})] if names else []


_SHARED_OBJECT = re.compile(r"\blib[\w+-]+\.so(?:\.\d+)*: cannot open shared object file")
_NOT_VIRTUAL = re.compile(r"\b(?:not|non)[- ]virtuali[sz]ed\b|\(\s*bare[- ]metal\b|\b(?:I am|I'm|I was) running on bare[- ]metal\b"
                          r"|\bnot (?:running )?(?:in|inside) a (?:VM|virtual machine)\b", re.IGNORECASE)


# Sysinternals Coreinfo's CPUID row for the hypervisor bit, '-' where the CPU does not set it: no hypervisor runs the
# OS ('*' is no proof of a VM: Windows with Hyper-V or VBS on runs its own root partition under one)
_COREINFO_NO_HYPERVISOR = re.compile(r"^\s*HYPERVISOR\s+-\s+Hypervisor is present\s*$")


def loader_and_machine(line: str) -> Facts:
    """The Linux loader's 'libcudnn_ops_infer.so.8: cannot open shared object file'; '(bare metal server, not
    virtualised)' and Coreinfo's 'HYPERVISOR  -  Hypervisor is present' say there is no VM."""
    facts: Facts = [("platform", "linux")] if _SHARED_OBJECT.search(line) else []
    if _NOT_VIRTUAL.search(line) or _COREINFO_NO_HYPERVISOR.match(line):
        facts.append(("hypervisor.none", True))
    return facts


def line_facts(line: str, following: str = "") -> Facts:
    """Every one-line rule here (`following`: the next line, where a log wraps)."""
    return (kohya_log(line, following) + paddle_device(line) + pipx_package(line) + lightning_gpu(line)
            + pci_device(line) + chip_and_board(line) + loader_and_machine(line) + sdnext_python(line) + onnxruntime_installed(line))


_BLOCK_ARCH = re.compile(r"^\s*arch:\s*(arm64|x86_64|aarch64|AMD64)\s*$")
_BLOCK_SYSTEM = re.compile(r"^\s*system:\s*(Darwin|Linux|Windows)\s*$")
_BLOCK_PYTHON = re.compile(r"^\s*python:\s*3\.\d{1,2}\.\d{1,2}\s*$")


def platform_block(lines: Sequence[str]) -> Dict[int, Facts]:
    """'arch: arm64' with 'system: Darwin' and 'python: 3.10.9' within four lines of it: that Python's arch."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        arch = _BLOCK_ARCH.match(line)
        near = lines[max(0, index - 4):index + 5]
        if arch and any(_BLOCK_SYSTEM.match(other) for other in near) and any(_BLOCK_PYTHON.match(other) for other in near):
            machine = {"aarch64": "aarch64", "AMD64": "x86_64"}.get(arch.group(1), arch.group(1))
            found[index] = [("python.machine", machine)]
    return found


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """Line index -> the facts the multi-line readers here find there."""
    found: Dict[int, Facts] = {}
    for reader in (trtexec_devices, ngc_banner, diagnose_sections, platform_block):
        for index, facts in reader(lines).items():
            found[index] = found.get(index, []) + facts
    return found
