"""Set 10's Linux clues in issue prose and tool lines, each a pure function returning stated facts.

- Debian/Ubuntu's default bash prompt: 'myname@mymachine:~/jaxerror$ uv run main.py'.
- WSL named with its distribution in one word: 'I use it in wsl2-kali linux' (the Python runs on Linux).
- NVIDIA's CUDA download page for the toolkit installed: '...cuda-downloads?target_os=Linux&target_arch=x86_64...'.
- DeepSpeed's op builder: '... does not match the version torch was compiled with 11.8' (torch's CUDA build).
- A cloud VM named as such: 'Using a GCP VM of type N1', 'on an Azure VM' (a hypervisor guest); the writer's own
  machine called the VM ('updating nvidia drivers on the VM from 510->530'), hypervisor not named.
- A GPU in a sentence that the name tables don't know ('with Tesla T1 GPU'): an NVIDIA GPU of unknown model.
- A count of GPUs in prose: 'my two Quadro p400 are running' (one GPU per count), and the driver named in
  prose ('the proprietary debian packaged driver 535.183.01').
- Small-board distributions named in a sentence: 'running Dietpi (debian 12 based)'.
- `uname -a` of an Ubuntu or NixOS kernel ('#29-Ubuntu SMP', '#1-NixOS SMP'): that distribution, release unknown.
- A Jetson or Raspberry Pi kernel ('5.15.148-tegra', '6.12.93+rpt-rpi-v8') runs on its board: no hypervisor.
- jetson_release's 'Model:' / 'Module: NVIDIA Jetson Orin NX (8GB ram)': the module, its memory.
- OS answers naming the distribution after the kernel: 'Linux : Ubuntu 20.04', 'OS: Linux (Ubuntu 22.04)'.
- ollama's 'inference compute' line for a ROCm device named only by PCI id ('name=1002:731f'): an AMD GPU.
- gdb running Python: 'Using host libthread_db library "/lib/aarch64-linux-gnu/..."' is that Python's arch.
"""
from __future__ import annotations

import re
from typing import Dict, Sequence

from macml.knowledge.hardware import raspberry_pi_kernel
from macml.probe.paste import env_report_rules, gpu_text_rules
from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.said_of_this_machine import NEGATION
from macml.probe.paste.statement_rules import Facts

_WSL_WORD = re.compile(r"\bwsl2?[-_](?:kali|ubuntu|debian|fedora|arch|alpine|opensuse|oracle)\b", re.IGNORECASE)
_CUDA_DOWNLOAD = re.compile(r"cuda-downloads\?\S*?\btarget_os=Linux\b\S*?\btarget_arch=(x86_64|aarch64|arm64-sbsa)\b")
_DEEPSPEED_TORCH_CUDA = re.compile(r"\bthe version torch was compiled with (\d+\.\d+)\b")
# a cloud provider's VM: each provider's GPU VMs are guests of its hypervisor (GCE and EC2 Nitro: KVM-based;
# Azure: Hyper-V). Bare-metal instances are not called 'VM'.
_CLOUD_VM = re.compile(r"\b(GCP|Google Cloud|GCE|Compute Engine|AWS|EC2|Azure)\s+(?:VM|virtual machine)s?\b", re.IGNORECASE)
_CLOUD_HYPERVISOR = {"gcp": "KVM", "google cloud": "KVM", "gce": "KVM", "compute engine": "KVM", "aws": "KVM",
                     "ec2": "KVM", "azure": "Hyper-V"}
_THE_VM = re.compile(r"\b(?:drivers?|driver version|CUDA|nvidia-smi|GPU)\b[^.;]{0,40}?\b(?:on|in|inside)\s+(?:the|my|our)\s+VM\b",
                     re.IGNORECASE)
_PROSE_NVIDIA = re.compile(r"\b(?:with|a|an|the|my)\s+((?:Tesla|Quadro|GeForce)\s+[A-Z]{0,3}\d{1,4}\w*)\s+GPUs?\b")
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8, "2": 2, "3": 3, "4": 4, "8": 8}
_COUNTED_GPU = re.compile(r"\b(?:my|have|the|with|using)\s+(two|three|four|five|six|eight|[2348])\s+"
                          r"((?:NVIDIA\s+)?(?:Quadro|Tesla|GeForce\s+(?:RTX|GTX)|RTX|GTX)\s+[A-Za-z]{0,3}\s?\d{2,4}[a-rt-z]?(?:\s?Ti)?"
                          r"|(?:Intel\s+)?Arc\s+[AB]\d{3}M?)s?\b")
# 'driver 535.54.03', 'drivers 535.104.5', and the number first: 'with 352.63 Nvidia drivers running'
_PROSE_DRIVER = re.compile(r"\bdrivers?(?:\s+version)?\s+(\d{3}\.\d{2,3}(?:\.\d{1,2})?)\b"
                           r"|(?<![\w.])(\d{3}\.\d{2,3}(?:\.\d{1,2})?)\s+nvidia\s+drivers?\b", re.IGNORECASE)
_BOARD_DISTRO = re.compile(r"\b(?:running|on|using|with|installed)\s+(DietPi|Raspbian|Armbian)\b", re.IGNORECASE)
_UNAME_UBUNTU = re.compile(r"^\s*Linux\s+\S+\s+\d+\.\d+\.\d+\S*\s+#\d+-Ubuntu\b")
_UNAME_NIXOS = re.compile(r"^\s*Linux\s+\S+\s+\d+\.\d+\.\d+\S*\s+#\d+-NixOS\b")  # nixpkgs stamps its kernel builds
_KERNEL = re.compile(r"^\s*(?:Linux\s+\S+\s+|[-*]?\s*Release:\s*)(\d+\.\d+\.\d+\S*)")
_OLLAMA_ROCM = re.compile(r'msg="inference compute".*\blibrary=rocm\b.*\bcompute=(gfx[0-9a-f]+)\b.*\bname=(1002:[0-9a-f]{4})\b')
# Debian/Ubuntu's default bash prompt 'user@host:~/dir$ ' (macOS's bash is 'host:dir user$', zsh 'user@host dir %',
# Git Bash 'user@HOST MINGW64 ~/dir $')
_LINUX_PROMPT = re.compile(r"^\s*(?:\([\w.-]+\)\s*)?[a-z_][\w.-]*@[\w.-]+:(?:~[\w/.-]*\$|(?:~|/)[\w/.-]*#)\s")  # root's '#' too
_LINUX_THEN_DISTRO = re.compile(r"^Linux\s*\(([^)]+)\)\s*$")


def line_facts(line: str) -> Facts:
    facts: Facts = []
    if _WSL_WORD.search(line) and not NEGATION.search(line):
        facts.append(("platform", "linux"))
    download = _CUDA_DOWNLOAD.search(line)
    if download:
        facts += [("platform", "linux"), ("cpu.hardware_arch", "aarch64" if "arm" in download.group(1) else download.group(1))]
    torch_cuda = _DEEPSPEED_TORCH_CUDA.search(line)
    if torch_cuda:
        facts.append(("torch.cuda_version", torch_cuda.group(1)))
    if _LINUX_PROMPT.match(line):
        facts.append(("platform", "linux"))
    cloud = _CLOUD_VM.search(line)
    if cloud and not NEGATION.search(line[:cloud.start()]):
        facts.append(("hypervisor", _CLOUD_HYPERVISOR[" ".join(cloud.group(1).lower().split())]))
    the_vm = _THE_VM.search(line)
    if the_vm and not cloud and not NEGATION.search(line[max(0, the_vm.start() - 20):the_vm.end()]) \
            and not line.rstrip().endswith("?"):
        facts.append(("hypervisor", "a virtual machine (hypervisor not named)"))
    return facts + _gpu_prose(line) + _os_facts(line)


def _gpu_prose(line: str) -> Facts:
    facts: Facts = []
    counted = _COUNTED_GPU.search(line)
    if counted:
        name = " ".join(counted.group(2).split())
        facts += [("gpu", dict(gpu_record(name)[1], index=i)) for i in range(_COUNTS[counted.group(1).lower()])]
    else:
        named = _PROSE_NVIDIA.search(line)
        if named and not gpu_names(line):
            facts.append(("gpu.mention", named.group(1)))
    driver = _PROSE_DRIVER.search(line)
    if driver and re.search(r"\b(?:nvidia|quadro|geforce|tesla|proprietary)\b", line, re.IGNORECASE):
        facts.append(("gpu.driver", driver.group(1) or driver.group(2)))
    rocm = _OLLAMA_ROCM.search(line)
    if rocm:
        facts.append(("gpu", {"name": f"AMD GPU ({rocm.group(1)}, device {rocm.group(2)})", "vendor": "AMD",
                              "memory_mib": None, "index": None}))
    return facts


def _os_facts(line: str) -> Facts:
    facts: Facts = []
    board = _BOARD_DISTRO.search(line)
    if board:
        facts += [("platform", "linux"), ("os.name", board.group(1))]
    if _UNAME_UBUNTU.search(line):
        facts += [("platform", "linux"), ("os.name", "Ubuntu")]
    if _UNAME_NIXOS.search(line):
        facts += [("platform", "linux"), ("os.name", "NixOS")]
    kernel = _KERNEL.search(line)
    if kernel and (kernel.group(1).endswith("-tegra") or raspberry_pi_kernel(kernel.group(1))):
        facts.append(("hypervisor.none", True))  # these kernels run only on their own boards
    return facts


def keyed_facts(key: str, value: str) -> Facts:
    if key in ("model", "module") and re.search(r"\bJetson\b", value, re.IGNORECASE):
        facts = gpu_text_rules.gpu_answer("board", re.sub(r"\((\d{1,2})\s?GB(?:\s+ram)?\)", r"\1GB", value, flags=re.IGNORECASE))
        # the module's memory is the board's RAM, not part of the GPU's name: 'Model:' and 'Module:' name one GPU
        return [(f, dict(v, name=re.sub(r"\s+\d{1,2}\s?GB$", "", v["name"], flags=re.IGNORECASE)) if f == "gpu" else v)
                for f, v in facts]
    if key == "linux":
        return env_report_rules.os_answer("os", value)
    inner = _LINUX_THEN_DISTRO.match(value.strip()) if key in ("os", "operating system") else None
    return env_report_rules.os_answer("os", inner.group(1)) if inner else []


_GDB_PYTHON = re.compile(r"^\s*Starting program: \S*/python[\d.]*(?:\s|$)")
_THREAD_DB = re.compile(r'Using host libthread_db library "/(?:usr/)?lib(?:64)?/(x86_64|aarch64|i386|arm)-linux-gnu\w*/')


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts: gdb's libthread_db line for the Python it started is that Python's architecture."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not _GDB_PYTHON.match(line):
            continue
        for follow in range(index + 1, min(len(lines), index + 6)):
            arch = _THREAD_DB.search(lines[follow])
            if arch:
                machine = {"arm": "armv7l", "i386": "i686"}.get(arch.group(1), arch.group(1))
                found.setdefault(follow, []).append(("python.machine", machine))
                break
    return found
