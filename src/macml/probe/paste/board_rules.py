"""What a text says of the machine through the names of boards, distributions and devices, each a pure function
returning stated facts:

- a Raspberry Pi named as the machine ('Virgin install on Raspberry Pi 4.0 8gb', 'on RPI 4'): the board, whether
  it has a PCIe slot a graphics card could sit in (knowledge.hardware.RASPBERRY_PI_PCIE), and the RAM written after it;
- os-release's NAME and VERSION pasted on one line ('OS: NAME="Fedora Linux" VERSION="40 (Workstation Edition)"');
- a distribution named as the system ('installed on an arch linux system'), kept as written;
- a counted GPU model ('two 3090 GPU's', '2 RTX 4090 cards'): that many GPUs of that model; any NVIDIA model named
  in prose ('gpu.named'), which names only a GPU a tool showed without its model;
- a CPU field naming an Intel Core by its short name ('CPU : I5-2500');
- a Python REPL asking TensorFlow's version ('>>> tf.__version__' then "'2.21.0'");
- an APU's integrated GPU as ROCm and torch name it ('AMD Radeon Graphics').
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.knowledge.hardware import nvidia_compute_capability, raspberry_pi_has_pcie
from macml.probe.paste.gpu_names import gpu_record, gpu_vendor, informal_gpu_names
from macml.probe.paste.statement_rules import Facts

_NEGATED = re.compile(r"\b(?:not|never|instead of|rather than|unlike|than)\s+(?:(?:an?|the|my|on|in|with)\s+){0,2}$|n't\s+\w*\s*$",
                      re.IGNORECASE)
_PI = re.compile(r"\b(?:Raspberry\s?Pi|RPi)\s?(Zero\s?2?\s?W?|[1-5]|400|500|CM[345])(?:\.0)?(?:\s+Model\s+[AB]\+?)?"
                 r"(?:[\s,(]+(1|2|4|8|16)\s?GB\b(?!\s*(?:SD|card|swap|storage|disk|flash|eMMC)))?", re.IGNORECASE)
_OS_RELEASE = re.compile(r'\bNAME="([^"]+)"\s*,?\s*VERSION="(\d[^"]*)"')
_DISTRO = re.compile(r"\b(?:on|running|using|with|under)\s+(?:an?\s+|the\s+|my\s+)?((?:arch|manjaro|gentoo|void|nixos|endeavouros)"
                     r"(?:\s+linux)?)\s+(?:system|machine|box|install(?:ation)?|host|laptop|desktop|pc|server)\b", re.IGNORECASE)
_COUNTS = {"two": 2, "dual": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "8": 8}
_COUNTED = re.compile(r"\b(two|dual|three|four|[234568])\s+(?:x\s+)?(\S+(?:\s+\S+){0,3}?)\s+(?:GPU'?s|graphics cards|cards)\b",
                      re.IGNORECASE)
_TF_ASKED = re.compile(r"^\s*(?:>>>\s*)?(?:print\()?(?:tf|tensorflow)\.__version__\)?\s*$")
_TF_ANSWER = re.compile(r"""^\s*['"]?(\d+\.\d+\.\d+(?:[a-z.]+\d*)?)['"]?\s*$""")
_GENERIC_AMD = re.compile(r"AMD Radeon(?:\(TM\))? Graphics")


def generic_amd_gpu(name: str) -> bool:
    """'AMD Radeon Graphics': the name an APU's integrated GPU gives itself (torch, ROCm, ggml, DxDiag)."""
    return bool(_GENERIC_AMD.fullmatch(name.strip()))


def raspberry_pi(line: str) -> Facts:
    """'Raspberry Pi 4.0 8gb' -> a Raspberry Pi 4 (no PCIe slot) with 8 GiB of RAM; 'RPI 5' -> a Pi 5 (PCIe)."""
    found = _PI.search(line)
    if not found or _NEGATED.search(line[:found.start()]):
        return []
    model = " ".join(found.group(1).split()).title().replace("Cm", "CM")
    name = f"Raspberry Pi {model}"
    facts: Facts = [("platform", "linux"), ("board", {"name": name, "pcie": raspberry_pi_has_pcie(model)})]
    return facts + ([("cpu.memory_bytes", int(found.group(2)) * 1024**3)] if found.group(2) else [])


def os_release_line(line: str) -> Facts:
    """'NAME="Fedora Linux" VERSION="40 (Workstation Edition Prerelease)"' -> 'Fedora Linux 40 (...)'."""
    found = _OS_RELEASE.search(line)
    if not found or "PRETTY_NAME" in line[:found.start() + 7]:
        return []
    return [("platform", "linux"), ("os.name", f"{found.group(1)} {found.group(2)}")]


def distro_system(line: str) -> Facts:
    """'installed on an arch linux system' -> 'arch linux', as written."""
    found = _DISTRO.search(line)
    if not found or _NEGATED.search(line[:found.start()]):
        return []
    return [("platform", "linux"), ("os.name", found.group(1))]


def counted_gpus(line: str) -> Facts:
    """'I have an NVIDIA 5070 Ti and two 3090 GPU's' -> two '3090'."""
    facts: Facts = []
    for found in _COUNTED.finditer(line):
        said = found.group(2).strip()
        names = informal_gpu_names(said)
        if _NEGATED.search(line[:found.start()]):
            continue
        if len(names) == 1 and said == names[0] and gpu_vendor(names[0]) not in (None, "unknown"):
            record = gpu_record(names[0])[1]
        else:
            record = _bare_geforce(said)
            if record is None:
                continue
        facts += [("gpu.owned", dict(record, index=i)) for i in range(_COUNTS[found.group(1).lower()])]
    return facts


def _bare_geforce(said: str) -> "Dict[str, object] | None":
    """'3090' as people write a GeForce: the one RTX/GTX model of that number the capability table knows."""
    if not re.fullmatch(r"[1-9]0[5-9]0(?: Ti)?", said):
        return None
    known = {nvidia_compute_capability(f"{prefix} {said}") for prefix in ("RTX", "GTX")} - {None}
    if len(known) != 1:
        return None
    return {"name": said, "vendor": "NVIDIA", "memory_mib": None, "index": None, "capability": known.pop()}


_CORE_I = re.compile(r"^(?:Intel(?:\(R\))?\s+)?(?:Core(?:\(TM\))?\s+)?i([3579])[- ](\d{3,5}[A-Z]{0,2})\b", re.IGNORECASE)
_CPU_KEYS = ("cpu", "processor", "cpu model")


def core_i_cpu(key: str, value: str) -> Facts:
    """'CPU : I5-2500' -> Intel Core i5-2500 (Core i3/i5/i7/i9 are Intel's x86 brand names)."""
    found = _CORE_I.match(value.strip()) if key in _CPU_KEYS else None
    return [("cpu.brand", f"Intel Core i{found.group(1)}-{found.group(2).upper()}")] if found else []


def keyed_facts(key: str, value: str) -> Facts:
    return core_i_cpu(key, value)


def named_model(line: str) -> Facts:
    """An NVIDIA model named anywhere in prose ('Ollama can recognize RTX 4090 on linux'): read only to name a GPU
    that a tool showed without its model (an nvidia-smi table cut after its header)."""
    return [("gpu.named", name) for name in informal_gpu_names(line) if gpu_vendor(name) == "NVIDIA"
            and not _NEGATED.search(line[:line.find(name)])]


def line_facts(line: str) -> Facts:
    return [fact for rule in (raspberry_pi, os_release_line, distro_system, counted_gpus, named_model)
            for fact in rule(line)]


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> TensorFlow's version answered after '>>> tf.__version__'."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines[:-1]):
        if not _TF_ASKED.match(line):
            continue
        answer = _TF_ANSWER.match(lines[index + 1])
        if answer:
            found[index + 1] = [("package", {"name": "tensorflow", "version": answer.group(1)})]
    return found
