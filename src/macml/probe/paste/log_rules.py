"""Facts stated by tools' log lines and interactive sessions rather than by `key: value` dumps.

Each rule reads one kind of line: a Python REPL's banner and its answers, lspci's device lines, the
process of a syslog/journal line, Ollama's 'inference compute' line, CUDA.jl's versioninfo(), a Mac's
unified memory printed beside its chip, TensorFlow's GPU set-up log, and system_profiler's untranslated
'kHW_AppleM1ProItem' names.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.hardware import chip_of_profiler_item
from macml.probe.paste.base import strip_prompt
from macml.probe.paste.gpu_names import CHIP, gib, gpu_names, gpu_record

Facts = List[Tuple[str, Any]]

_REPL_BANNER = re.compile(r"^\s*\[(?:Clang|GCC|MSC)\b[^\]]*\](?:\s*::[^\]]*?)?\s+on (darwin|linux|win32)\s*$")
_REPL_INPUT = re.compile(r"^\s*(?:>{2,3}\s*)?((?:platform\.)?machine\(\)|os\.uname\(\)\.machine|sys\.platform)\s*$")
# the answer as the REPL prints it ('arm64' quoted), or as print() or a hand-copied session leaves it (bare)
_REPL_STRING = re.compile(r"""^\s*['"]([^'"]+)['"]\s*$|^\s*(arm64|x86_64|aarch64|AMD64|darwin|linux|win32)\s*$""")
_MACHINES = {"arm64": "arm64", "aarch64": "aarch64", "x86_64": "x86_64", "amd64": "x86_64"}
_LSPCI = re.compile(r"^\s*(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.\d\s+(?:VGA compatible controller|3D controller|"
                    r"Display controller)(?: \[\w+\])?:\s*(.+)$", re.IGNORECASE)
# 'inference compute', and 'detected OS VRAM overhead' (Windows) with the same id/library/compute/driver/name fields
_OLLAMA_COMPUTE = re.compile(r'msg="(?:inference compute|detected OS VRAM overhead)"(.*)$')
_JULIA_DRIVER = re.compile(r"^\s*-\s*driver (\d{3}\.\d+(?:\.\d+)?)(?: for \d+(?:\.\d+)*)?\s*$")  # CUDA.jl >= 5.8
# TensorFlow's loader: the CUDA libraries its GPU support needs (TensorRT's libnvinfer is optional)
_TF_MISSING = re.compile(r"tensorflow/\S*dso_loader\S*\].*Could not load dynamic library '((?:lib)?(?:cudart|cublas|cublasLt|cufft|"
                         r"curand|cusolver|cusparse|cudnn)[\w.]*)'")
_TF_IGNORED_GPU = re.compile(r"Ignoring visible gpu device \(.*\) with Cuda compute capability (\d+\.\d+)\. "
                             r"The minimum required Cuda capability is (\d+\.\d+)")
_TF_GPU_DEVICE = re.compile(r"Created TensorFlow device .*(?:GPU|gpu):\d|Adding visible gpu devices: \d")
_CHIP_MEMORY = re.compile(r"\b(\d+(?:\.\d+)?\s*(?:GiB|GB))\s+(?:of\s+)?(?:unified\s+)?(?:RAM|memory)\b", re.IGNORECASE)


def repl_facts(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what a Python REPL's answer states: '>>> platform.machine()' then "'arm64'" is the
    interpreter's own arch, '>>> sys.platform' then "'darwin'" its OS (the '>>>' may be lost to quoting or cut to
    '>>', the quotes to print())."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        asked = _REPL_INPUT.match(line)
        answer = _REPL_STRING.match(lines[index + 1])
        if not asked or not answer:
            continue
        expression, value = asked.group(1), answer.group(1) or answer.group(2)
        if expression != "sys.platform" and value.lower() in _MACHINES:
            found[index + 1] = [("python.machine", _MACHINES[value.lower()])]
        elif expression == "sys.platform" and value in ("darwin", "linux", "win32"):
            found[index + 1] = [("platform", value)]
    return found


def _lspci_gpu(line: str) -> Facts:
    """'0a:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Navi 48
    [Radeon AI PRO R9700] [1002:7551]': the bracketed marketing name is the GPU."""
    device = _LSPCI.match(line)
    if not device:
        return []
    names = [n for bracket in re.findall(r"\[([^\]]+)\]", device.group(1)) for n in gpu_names(bracket)]
    return [gpu_record(names[-1])] if names else []


def _ollama_compute(line: str) -> Facts:
    """Ollama's 'inference compute' line: the GPU it runs on, named by description= or name=, and its total= memory."""
    found = _OLLAMA_COMPUTE.search(line)
    if not found:
        return []
    fields = {key: quoted or bare for key, quoted, bare in re.findall(r'(\w+)=(?:"([^"]*)"|(\S+))', found.group(1))}
    named = [n for key in ("description", "name") for n in gpu_names(fields.get(key, ""))]
    facts: Facts = [gpu_record(named[0], fields.get("total"))] if named else []  # total="24.0 GiB": its memory
    gfx = re.fullmatch(r"gfx[0-9a-f]+", fields.get("compute", ""))
    if gfx and named:
        facts.append(("gpu.gfx", gfx.group()))
    elif gfx and fields.get("library", "").lower() == "rocm":  # name=1002:1900, a PCI id: an AMD GPU of that target
        facts += [("gpu.present", "AMD"), ("gpu.gfx", gfx.group())]
    driver = re.fullmatch(r"\d{2}\.\d", fields.get("driver", ""))
    if driver and named and fields.get("library", "").lower() == "cuda":  # the CUDA version the driver supports
        facts.append(("gpu.cuda_driver", driver.group()))
    return facts


def journal_line_facts(line: str) -> Facts:
    """A syslog/journal line (its prefix already dropped) of a process that drives ROCm or CUDA: macOS
    has neither, and Windows keeps no syslog."""
    return [("platform", "linux")] if re.search(r"\b(?:ROCm|rocm|CUDA|cuda)(?:\b|_v?\d)", line) else []


def _chip_memory(line: str) -> Facts:
    """'Metal device Apple M4 Max, 128.00 GiB RAM': the memory beside an Apple chip is its unified memory."""
    memory = _CHIP_MEMORY.search(line) if CHIP.search(line) else None
    size = gib(memory.group(1)) if memory else None
    return [("cpu.memory_bytes", size)] if size else []


def _apple_item(line: str) -> Facts:
    """system_profiler's untranslated GPU name 'kHW_AppleM1ProItem' names the chip (Apple M1 Pro)."""
    chip = chip_of_profiler_item(line)
    return [("platform", "darwin"), ("cpu.brand", chip)] if chip else []


def _tensorflow_gpu(line: str) -> Facts:
    """TensorFlow's log: a CUDA library it could not load (it then skips registering the GPUs), or a GPU
    device it created."""
    missing = _TF_MISSING.search(line)
    if missing:
        return [("tensorflow.missing_gpu_library", missing.group(1))]
    ignored = _TF_IGNORED_GPU.search(line)
    if ignored:  # a GPU below TensorFlow's minimum compute capability: it runs on the CPU
        return [("tensorflow.ignored_gpu", f"{ignored.group(1)} < {ignored.group(2)}")]
    return [("tensorflow.gpu_device", True)] if _TF_GPU_DEVICE.search(line) else []


def log_line_facts(line: str) -> Facts:
    facts: Facts = []
    banner = _REPL_BANNER.match(line)
    if banner:
        facts.append(("platform", banner.group(1)))
    julia_driver = _JULIA_DRIVER.match(line)
    if julia_driver:
        facts += [("gpu.driver", julia_driver.group(1)), ("gpu.present", "NVIDIA")]
    if re.match(r"^\s*Kernel driver in use:\s*\S", strip_prompt(line)):  # lspci -k: Linux's kernel modules
        facts.append(("platform", "linux"))
    for rule in (_lspci_gpu, _ollama_compute, _chip_memory, _apple_item, _tensorflow_gpu):
        facts += rule(line)
    return facts
