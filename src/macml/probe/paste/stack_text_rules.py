"""Set 9's Linux/Windows clues about the software stack and the OS around a GPU, each a pure function returning
stated facts (gpu_text_rules reads the GPUs themselves and includes these rules).

- CUDA's own numbers: numba -s 'CUDA driver version : 9000' (cuDriverGetVersion: 9.0), Paddle's 'GPU Compute
  Capability: 6.1, Driver API Version: 10.2', the toolkit's '/usr/local/cuda-12.1/targets/x86_64-linux/lib'.
- torch without a GPU: 'Torch not compiled with CUDA enabled', 'No HIP GPUs are available' / 'No CUDA GPUs are
  available'; a labelled print of torch.cuda.is_available() and its answer ('PyTorch detects GPU: True'); a HIP
  error beside a traceback through POSIX paths (ROCm on Linux).
- TensorRT-LLM's '[TensorRT-LLM] TensorRT-LLM version: 0.14.0'; Paddle's 'paddle version:' / 'paddle with cuda:'.
- OS answers: 'Ubuntu : 22.04', 'Operating System / Platform => Ubuntu 22.04.2 LTS', os-release's NAME= and
  VERSION= lines grepped alone, a glued 'ubuntu16.04（非虚拟机）' (not a VM), '我电脑是win11' (my computer is Win11).
- 'Python Version : 2.7.13' (numba -s: a Python 2), 'python-3.7.9', 'nvidia-驱动440.36' (driver), '自带的cuda是11.6'
  (the driver's CUDA).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.said_of_this_machine import NEGATION
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]


_TARGETS = re.compile(r"/cuda[-\d.]*/targets/(x86_64|sbsa|aarch64)-linux/")
_SAMPLES_BUILD = re.compile(r"/samples/bin/(x86_64|aarch64|sbsa)/(linux|darwin)/(?:release|debug)/")
_PADDLE = re.compile(r"GPU Compute Capability:\s*(\d{1,2}\.\d),\s*Driver API Version:\s*(\d{1,2}\.\d)")
_TRT_LLM = re.compile(r"\[TensorRT-LLM\]\s*TensorRT-LLM version:\s*(\d+\.\d+\.\d+\w*)")
_NO_GPU = re.compile(r"\b(?:RuntimeError|AssertionError):\s*(?:No (?:HIP|CUDA) GPUs are available|Torch not compiled with CUDA enabled)"
                     r"|^\W*Torch not compiled with CUDA enabled\s*$"
                     r"|\bcaught exception 'Torch not compiled with CUDA enabled'"  # webui's memory monitor
                     r"|^\W*Found no NVIDIA driver on your system\b")  # torch.cuda's _check_driver, a CUDA build


# torch's words when it reached a GPU its build has no kernels for (HIP says 'invalid device function')
_NO_KERNEL_IMAGE = re.compile(r"^\W*(?:RuntimeError|torch\.AcceleratorError):\s*(?:CUDA|HIP) error: (?:no kernel image is "
                              r"available for execution on the device|invalid device function)\b")


def stack_line(line: str) -> Facts:
    """CUDA's toolkit path (its arch), Paddle's device banner (capability, the driver's CUDA), TensorRT-LLM's
    version, torch finding no GPU ('No HIP GPUs are available'; 'Torch not compiled with CUDA enabled': no CUDA)."""
    facts: Facts = []
    target = _TARGETS.search(line)
    if target:
        facts += [("platform", "linux"), ("cpu.hardware_arch", "x86_64" if target.group(1) == "x86_64" else "aarch64")]
    umd = re.search(r"\bCUDA UMD(?: Version)?\s*:?\s*(\d{2}\.\d)(?![\d.])", line)  # R610's name for the driver's CUDA
    if umd:
        facts.append(("gpu.cuda_driver", umd.group(1)))
    samples = _SAMPLES_BUILD.search(line)
    if samples:  # the CUDA samples' build folder: bin/<arch>/<OS>/release
        facts += [("platform", "darwin" if samples.group(2) == "darwin" else "linux"),
                  ("cpu.hardware_arch", "x86_64" if samples.group(1) == "x86_64" else "aarch64")]
    paddle = _PADDLE.search(line)
    if paddle:
        facts += [("gpu.capability", {"name": None, "capability": paddle.group(1)}), ("gpu.cuda_driver", paddle.group(2)),
                  ("gpu.present", "NVIDIA")]
    trt = _TRT_LLM.search(line)
    if trt:
        facts.append(("package", {"name": "tensorrt-llm", "version": trt.group(1)}))
    if _NO_KERNEL_IMAGE.search(line):  # torch reached the GPU: CUDA is available, its kernels are not
        facts.append(("torch.cuda_available", True))
    if _NO_GPU.search(line):
        facts.append(("torch.cuda_available", False))
        facts += [("torch.cuda_version", None)] if "not compiled" in line else []
    return facts


_GLUED_DISTRO = re.compile(r"(?<![\w-])(ubuntu|centos|debian|fedora)[-\s]?(\d{1,2}(?:\.\d{1,2})?)(?=[\s,，、（(;]|$)", re.IGNORECASE)
_NOT_VM = re.compile(r"[（(]\s*(?:非虚拟机|not (?:a |in a )?(?:VM|virtual machine))\s*[)）]", re.IGNORECASE)
_DRIVER_WORDS = re.compile(r"\bn[iv]{1,2}idia[-\s]*(?:驱动|driver)[-\s:：]*(\d{3}\.\d{2,3}(?:\.\d{1,2})?)(?![\d.])", re.IGNORECASE)
_DRIVER_CUDA = re.compile(r"(?:自带的?|驱动(?:的|支持的)?|\bdriver(?:'s)?(?:\s+supports)?)\s*cuda(?:\s*version)?\s*(?:是|为|is|:)?\s*(\d{1,2}\.\d)(?![\d.])",
                          re.IGNORECASE)
_PYTHON_DASH = re.compile(r"(?<![\w/\\-])python-(\d\.\d{1,2}\.\d{1,2})(?![\w.-])", re.IGNORECASE)
_MY_WINDOWS = re.compile(r"(?:我的?(?:电脑|系统|笔记本|机器)?(?:是|用的是)|\bmy (?:pc|computer|laptop|system|os|machine) (?:is|runs))"
                         r"\s*win(?:dows)?\s?(10|11)\b", re.IGNORECASE)


def environment_words(line: str) -> Facts:
    """'ubuntu16.04（非虚拟机），cuda-10.2，nividia-驱动440.36，python-3.7.9': the distribution written glued to its
    version, 'not a VM', the NVIDIA driver, Python's version; '我电脑是win11' ('my computer is Win11')."""
    facts: Facts = []
    distro = _GLUED_DISTRO.search(line)
    if distro and not re.search(r"\s", distro.group(0)) and not NEGATION.search(line[:distro.start()]):
        facts += [("platform", "linux"), ("os.name", f"{distro.group(1).capitalize().replace('Centos', 'CentOS')} {distro.group(2)}")]
    if _NOT_VM.search(line):
        facts.append(("hypervisor.none", True))
    driver = _DRIVER_WORDS.search(line)
    if driver:
        facts += [("gpu.driver", driver.group(1)), ("gpu.present", "NVIDIA")]
    driver_cuda = _DRIVER_CUDA.search(line)
    if driver_cuda and not NEGATION.search(line[:driver_cuda.start()]):
        facts += [("gpu.cuda_driver", driver_cuda.group(1)), ("gpu.present", "NVIDIA")]
    python = _PYTHON_DASH.search(line)
    if python:
        facts.append(("python.version", python.group(1)))
    windows = _MY_WINDOWS.search(line)
    if windows:
        facts += [("platform", "win32"), ("os.name", f"Windows {windows.group(1)}")]
    return facts


_DISTRO_KEYS = {"ubuntu": "Ubuntu", "debian": "Debian", "centos": "CentOS", "fedora": "Fedora", "rhel": "RHEL",
                "rocky linux": "Rocky Linux", "almalinux": "AlmaLinux", "linux mint": "Linux Mint"}


def os_answer(key: str, value: str) -> Facts:
    """'Ubuntu : 22.04' -> Ubuntu 22.04; 'Operating System / Platform => Ubuntu 22.04.2 LTS (...)' (an '=>' answer)."""
    version = re.match(r"^(\d{1,2}(?:\.\d{1,2}){0,2})(\s+LTS)?$", value.strip())
    if key in _DISTRO_KEYS and version:
        return [("platform", "linux"), ("os.name", f"{_DISTRO_KEYS[key]} {version.group(1)}{version.group(2) or ''}")]
    if value.startswith(">") and re.search(r"\b(?:operating system|os)\b", key):
        return by_key("os", value[1:].strip())
    return []


def numbers(key: str, value: str) -> Facts:
    """numba -s: 'Python Version : 2.7.13' (a Python 2, which the general reader leaves out), 'CUDA driver version
    : 9000' (cuDriverGetVersion's 1000 * major + 10 * minor: CUDA 9.0)."""
    value = value.strip()
    if key == "python version" and re.match(r"^2\.\d+\.\d+$", value):
        return [("python.version", value)]
    if key == "cuda driver version" and re.match(r"^\d{4,5}$", value):
        number = int(value)
        return [("gpu.cuda_driver", f"{number // 1000}.{number % 1000 // 10}"), ("gpu.present", "NVIDIA")]
    return []


def line_facts(line: str) -> Facts:
    return stack_line(line) + environment_words(line)


def keyed_facts(key: str, value: str) -> Facts:
    return os_answer(key, value) + numbers(key, value)


_OS_RELEASE = re.compile(r'^\s*(NAME|VERSION)="([^"]+)"\s*$')
_CUDA_PRINT = re.compile(r"""print\(\s*f?["']([^"'{]{3,60}?)[:=]?\s*(?:["']\s*,\s*|\{)\s*torch\.cuda\.is_available\(\)""")


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """os-release's NAME= and VERSION= grepped alone -> 'Rocky Linux 8.6 (Green Obsidian)' (on the NAME line);
    a labelled print of torch.cuda.is_available() in the code and that label's answer below it."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        name = _OS_RELEASE.match(line)
        if name and name.group(1) == "NAME":
            version = next((_OS_RELEASE.match(l) for l in lines[index + 1:index + 3]
                            if _OS_RELEASE.match(l) and _OS_RELEASE.match(l).group(1) == "VERSION"), None)
            if version and re.match(r"\d", version.group(2)):
                found[index] = [("platform", "linux"), ("os.name", f"{name.group(2)} {version.group(2)}")]
        label = _CUDA_PRINT.search(line)
        if label:
            prefix = re.escape(label.group(1).strip().rstrip(":="))
            for later in range(index + 1, len(lines)):
                answer = re.match(r"^\s*" + prefix + r"\s*[:=]?\s*(True|False)\s*$", lines[later])
                if answer:
                    found.setdefault(later, []).append(("torch.cuda_available", answer.group(1) == "True"))
                    break
    found = _hip_on_posix(lines, found)
    return _paddle_version(lines, found)


_HIP = re.compile(r"\bHIP error\b|\bhipError\w+|\bNo HIP GPUs\b|\bTORCH_USE_HIP_DSA\b")
_POSIX_FRAME = re.compile(r'^\s*File "/[^"]+\.py", line \d+')


def _hip_on_posix(lines: Sequence[str], found: Dict[int, Facts]) -> Dict[int, Facts]:
    """A HIP error (ROCm's runtime) beside a traceback through a POSIX path ('File "/app/tensor.py"'): ROCm on a
    POSIX system is Linux (macOS has no ROCm; Windows' HIP SDK runs from C:\\ paths)."""
    frame = next((i for i, line in enumerate(lines) if _POSIX_FRAME.match(line)), None)
    if frame is not None and any(_HIP.search(line) for line in lines):
        found.setdefault(frame, []).append(("platform", "linux"))
    return found


_PADDLE_VERSION = re.compile(r"^\s*[-*]?\s*paddle(?:paddle)? version\s*[:：]\s*(\d+\.\d+\.\d+\w*)\s*$", re.IGNORECASE)
_PADDLE_CUDA = re.compile(r"^\s*[-*]?\s*paddle with cuda\s*[:：]\s*(\S+)\s*$", re.IGNORECASE)


def _paddle_version(lines: Sequence[str], found: Dict[int, Facts]) -> Dict[int, Facts]:
    """Paddle's template answers 'paddle version: 2.3.0' and 'paddle with cuda: 10.2' -> paddlepaddle-gpu 2.3.0
    (with 'False' / 'None' the CPU build, paddlepaddle)."""
    for index, line in enumerate(lines):
        version = _PADDLE_VERSION.match(line)
        cuda = next((_PADDLE_CUDA.match(l) for l in lines[index + 1:index + 4] if _PADDLE_CUDA.match(l)), None)
        if version and cuda:
            gpu_build = bool(re.match(r"\d", cuda.group(1)))
            found.setdefault(index, []).append(
                ("package", {"name": "paddlepaddle-gpu" if gpu_build else "paddlepaddle", "version": version.group(1)}))
    return found
