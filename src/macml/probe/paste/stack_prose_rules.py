"""The stack a writer describes in prose, where no tool printed it:

- an NVIDIA driver named with its version ('Nvidia driver is 516.94', 'geforce, driver version 470.76'): a driver
  is installed for an NVIDIA GPU, so the machine has one (model unknown); 'my RTX': the writer's NVIDIA card;
- AMD's packaged driver ('AMDGPU-PRO 17.10 drivers'): the AMD GPU driver's version;
- AMD and NVIDIA cards counted ('a system with 6 AMD RX 580 cards', '2 nvidia 1080ti cards on ...'): that many GPUs
  of that name, as written;
- a board with a desktop chipset ('ASRock H81 BTC Pro R2.0 motherboard'): an x86_64 machine (knowledge.pc_boards);
- versions in parentheses ('python (version 3.8.10)', 'pytorch package (version 1.7.1)'), as the WSL issue form's
  'Other Software' answers write them;
- which framework sees the GPU, said plainly ('Pytorch is working perfectly in WSL with Cuda enabled. Tensorflow is
  not recognizing my GPU.'): torch's CUDA works; TensorFlow finds no GPU. Not from a question or a condition.
"""
from __future__ import annotations

import re

from macml.knowledge.pc_boards import board_chipset
from macml.probe.paste.gpu_names import gpu_record
from macml.probe.paste.said_of_this_machine import NEGATION
from macml.probe.paste.statement_rules import Facts

_NVIDIA_DRIVER = re.compile(r"\b(?:nvidia|geforce)\b[^.()]{0,30}?\bdriver(?:\s+version)?(?:\s+is|\s*[:=])?\s+v?"
                            r"(\d{3}\.\d{2,3}(?:\.\d{2})?)(?![\d.])"
                            r"|(?<![\w-])(?:x11-drivers/)?nvidia-drivers-(\d{3}\.\d{2,3}(?:\.\d{2})?)(?![\d.])",  # Gentoo's package
                            re.IGNORECASE)
_MY_RTX = re.compile(r"\bmy (?:nvidia )?(?:rtx|geforce)\b(?!\s*-?\s*[A-Za-z]?\d)", re.IGNORECASE)
_AMDGPU_PRO = re.compile(r"\bAMDGPU-PRO\s+(?:driver\s+)?v?(\d{2}\.\d{1,2}(?:\.\d+)?)\b", re.IGNORECASE)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_COUNTED_CARDS = re.compile(r"(?:^\s*|\b(?:my|have|the|with|using)\s+)(two|three|four|five|six|seven|eight|[2-9]|1[0-6])\s+"
                          r"((?:AMD\s+)?(?:Radeon\s+)?RX\s?\d{3,4}(?:\s?(?:XTX|XT|GRE))?"
                          r"|NVIDIA\s+(?:GeForce\s+)?(?:(?:RTX|GTX)\s?)?\d{3,4}\s?(?:Ti|SUPER)?)\s+(?:cards|gpus|graphics cards)\b",
                          re.IGNORECASE)  # also 'NVIDIA 1080ti cards' (the maker named: a bare number is no GPU)
# 'a laptop that have two graphics card, an AMD and an Nvidia': the two GPUs' makers, each named once
_TWO_MAKERS = re.compile(r"\b(?:have|has|with)\s+(?:two|2)\s+(?:graphics\s+cards?|gpus?|video\s+cards?)[,:]?\s+(?:an?\s+)?"
                         r"(AMD|Nvidia|Intel)(?:\s+one)?\s+and\s+(?:an?\s+)?(AMD|Nvidia|Intel)\b", re.IGNORECASE)
_PAREN_VERSION = re.compile(r"^\s*(?:[-*]\s*)?(python|pytorch|torch)(?:\s+package)?\s*\(version\s+(\d+(?:\.\d+){1,2})\)",
                            re.IGNORECASE)


_TORCH_CUDA_WORKS = re.compile(r"\b(?:Py)?Torch\s+(?:is\s+)?(?:works?|working)\b(?:\s+(?:perfectly|fine|well))?[^.;!?]{0,30}?"
                               r"\bwith\s+CUDA\b", re.IGNORECASE)
_TF_NO_GPU = re.compile(r"\b(?:TensorFlow|TF)\s+(?:is\s+not|isn't|does\s+not|doesn't|can\s*not|can't|won't)\s+"
                        r"(?:recogni[sz](?:e|ing)|detect(?:ing)?|see(?:ing)?|find(?:ing)?)\s+(?:my|the|any)\s+GPUs?\b"
                        r"|\blist_physical_devices\(\s*['\"]GPU['\"]\s*\)\s+(?:is\s+not|isn't|does\s+not|doesn't|can\s*not|can't)"
                        r"\s+(?:able\s+to\s+)?(?:return|find|list|show|detect)\s+(?:any|a|my)\s+GPU",
                        re.IGNORECASE)


# TensorFlow 1's own log ('gpu_init.cc:81] No GPU devices available on machine.'); JAX's default backend as a script
# prints it ('JAX backend: cpu', jax.default_backend()): JAX picks a GPU backend whenever it has one
_TF_LOG_NO_GPU = re.compile(r"\bgpu_init\.cc:\d+\] No GPU devices available on machine\b")
_JAX_BACKEND = re.compile(r"^\s*JAX (?:default )?backend\s*:\s*(cpu|gpu|cuda|rocm|tpu|METAL)\s*$", re.IGNORECASE)


def framework_gpu_said(line: str) -> Facts:
    backend = _JAX_BACKEND.match(line)
    if backend:
        return [("jax.platforms", backend.group(1).lower())]
    if _TF_LOG_NO_GPU.search(line):
        return [("tensorflow.no_gpu", True)]
    if line.rstrip().endswith("?") or re.search(r"\b(?:if|whether|should|why)\b", line, re.IGNORECASE):
        return []
    return ([("torch.cuda_available", True)] if _TORCH_CUDA_WORKS.search(line) else []) + \
        ([("tensorflow.no_gpu", True)] if _TF_NO_GPU.search(line) else [])


def nvidia_driver_named(line: str) -> Facts:
    found = _NVIDIA_DRIVER.search(line)
    return [("gpu.driver", found.group(1) or found.group(2)), ("gpu.present", "NVIDIA")] if found else []


def my_rtx(line: str) -> Facts:
    return [("gpu.present", "NVIDIA")] if _MY_RTX.search(line) else []


def amdgpu_pro(line: str) -> Facts:
    found = _AMDGPU_PRO.search(line)
    return [("platform", "linux"), ("gpu.driver", found.group(1))] if found else []


def two_makers(line: str) -> Facts:
    """'that have two graphics card, an AMD and an Nvidia' -> an AMD GPU and an NVIDIA GPU (models not said)."""
    found = _TWO_MAKERS.search(line)
    makers = {"amd": "AMD", "nvidia": "NVIDIA", "intel": "Intel"}
    if not found or found.group(1).lower() == found.group(2).lower() or NEGATION.search(line[:found.start()]):
        return []
    return [("gpu.maker", makers[found.group(1).lower()]), ("gpu.maker", makers[found.group(2).lower()])]


def counted_cards(line: str) -> Facts:
    found = _COUNTED_CARDS.search(line)
    if not found:
        return []
    count = _COUNTS.get(found.group(1).lower()) or int(found.group(1))
    name = " ".join(found.group(2).split())
    return [("gpu", dict(gpu_record(name)[1], index=i)) for i in range(count)]


def board(line: str) -> Facts:
    return [("cpu.hardware_arch", "x86_64")] if board_chipset(line) else []


def paren_version(line: str) -> Facts:
    found = _PAREN_VERSION.search(line)
    if not found:
        return []
    what, version = found.group(1).lower(), found.group(2)
    if what == "python":
        return [("python.version", version)] if version.count(".") == 2 else [("python.minor", version)]
    return [("package", {"name": "torch", "version": version}), ("torch.version", version)]


RULES = (nvidia_driver_named, my_rtx, amdgpu_pro, counted_cards, two_makers, board, paren_version, framework_gpu_said)


def line_facts(line: str) -> Facts:
    return [fact for rule in RULES for fact in rule(line)]
