"""Set 8's Linux and Windows rules, fed literal lines; and what the doctor says where the evidence only rules a
GPU vendor out (collect_env's 'No CUDA'): the reason and its source, never "no GPU here"."""
import pytest

from macml.diagnose import run_checks
from macml.diagnose.gpu_support import check_torch_builds_agree
from macml.knowledge.hardware import nvidia_compute_capability
from macml.knowledge.llvm_cpus import llvm_cpu_arch
from macml.knowledge.torch_family import companion_release, mismatched_companion
from macml.probe.paste import linux_clues_rules as clues
from macml.probe.paste.statement_rules import by_key
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.recipes.catalog import load_all

RECIPES = load_all()


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


# --- the doctor where only NVIDIA is ruled out ------------------------------------------------------------------

_WIN_CPU_TORCH = """PyTorch version: 2.8.0.dev20250528+cpu
CUDA used to build PyTorch: None
OS: Microsoft Windows 11 Enterprise (10.0.22631 64-bit)
Python version: 3.10.17 | packaged by conda-forge | (main, Apr 10 2025, 22:06:35) [MSC v.1943 64 bit (AMD64)] (64-bit runtime)
Python platform: Windows-10-10.0.22631-SP0
Is CUDA available: False
CUDA runtime version: No CUDA
GPU models and configuration: No CUDA
Nvidia driver version: No CUDA
"""


@pytest.mark.parametrize("text", [
    _WIN_CPU_TORCH,
    _WIN_CPU_TORCH.replace("2.8.0.dev20250528+cpu", "2.3.1+cpu").replace("Windows 11 Enterprise", "Windows 10 Pro"),
], ids=["win11-nightly-cpu", "win10-stable-cpu"])
def test_no_cuda_names_its_reason_not_no_gpu(text):
    findings = {f.check: f for f in run_checks(_facts(text), RECIPES)}
    gpu = findings["gpu"]
    assert gpu.message.startswith("No NVIDIA driver answered") and "No CUDA" in gpu.message
    assert "other GPUs unknown" in gpu.message and "install its driver" in gpu.fix.text
    recipe = findings["recommended_recipe"]
    assert "pytorch-cpu" in recipe.message and "a CPU build because no NVIDIA driver answered" in recipe.message
    assert "pytorch-cuda" in recipe.fix.text
    assert not any("no GPU here" in f.message for f in findings.values())


def test_a_known_empty_listing_still_says_no_gpu():
    text = _WIN_CPU_TORCH.replace("Nvidia driver version: No CUDA\n", "").replace("GPU models and configuration: No CUDA\n", "")
    findings = {f.check: f for f in run_checks(_facts(text), RECIPES)}
    assert "driver answered" not in findings["gpu"].message
    assert "CPU build because" not in findings["recommended_recipe"].message


# --- the rules of linux_clues_rules, on literal lines ----------------------------------------------------------

GIB = 1024 ** 3


@pytest.mark.parametrize("line, expected", [
    ("Ubuntu Server 22.04 LTS with Python 3.11 and Tesla K40. PyTorch Version is 2.3.0", "Ubuntu Server 22.04 LTS"),
    ("ubuntu 22.04 with kernel 5.19,   dkms installed", "Ubuntu 22.04"),
    ("- Debian 12, kernel 6.1", "Debian 12"),
    ("Fedora 40 on a Framework laptop", "Fedora 40"),
    ("Ubuntu 20.04 is not supported any more", None),
    ("Ubuntu users have reported this", None),
    ("Ubuntu 22.04.3.1x", None),
], ids=["server-lts-sentence", "lower-case", "list-item", "fedora", "negated", "no-version", "not-a-version"])
def test_distro_opening(line, expected):
    facts = dict(clues.distro_opening(line))
    assert facts.get("os.name") == expected


@pytest.mark.parametrize("key, value, expected", [
    ("host", "ubuntu 22.04 with kernel 5.19", "Ubuntu 22.04"),
    ("docker", "Debian 11 slim image", "Debian 11"),
    ("host", "compute-main", None),
    ("gpu", "Ubuntu 22.04", None),
], ids=["host", "docker", "hostname", "other-key"])
def test_host_keys(key, value, expected):
    assert dict(clues.keyed_facts(key, value)).get("os.name") == expected


@pytest.mark.parametrize("key, value, expected", [
    ("target", "x86_64-unknown-linux-gnu", "x86_64"),
    ("host", "aarch64-unknown-linux-gnu", "aarch64"),
    ("target", "x86_64-linux-gnu", "x86_64"),
    ("target", "x86_64-pc-windows-msvc", None),
    ("target", "arm64-apple-darwin23.0.0", None),
    ("compiler", "x86_64-unknown-linux-gnu", None),
], ids=["tgi-launcher", "rustc-host", "gcc-v", "windows-triple", "darwin-triple", "other-key"])
def test_target_triple(key, value, expected):
    facts = dict(clues.target_triple(key, value))
    assert facts.get("cpu.hardware_arch") == expected
    assert facts.get("platform") == ("linux" if expected else None)


@pytest.mark.parametrize("line, expected", [
    ("ii  cudnn-local-repo-ubuntu2204-8.9.7.29              1.0-1     amd64        cudnn-local repository", "x86_64"),
    ("ii  libcudnn8   8.9.7.29-1+cuda12.2   arm64   cuDNN runtime libraries", "aarch64"),
    ("ii  python3-pip   22.0.2+dfsg-1ubuntu0.4   all   Python package installer", None),
    ("Name: torch  Version: 2.2.1  amd64", None),
], ids=["amd64", "arm64", "all", "not-dpkg"])
def test_dpkg_row(line, expected):
    facts = dict(clues.dpkg_row(line))
    assert facts.get("cpu.hardware_arch") == expected


@pytest.mark.parametrize("name, expected", [
    ("skylake", "x86_64"), ("znver3", "x86_64"), ("alderlake", "x86_64"), ("skylake-avx512", "x86_64"),
    ("apple-m1", "arm64"), ("cyclone", "arm64"), ("neoverse-v2", "aarch64"), ("generic", None), ("i686", None),
])
def test_llvm_cpu_arch(name, expected):
    assert llvm_cpu_arch(name) == expected


@pytest.mark.parametrize("key, value, expected", [
    ("cpu name", "skylake", [("cpu.hardware_arch", "x86_64")]),
    ("host cpu", "znver4", [("cpu.hardware_arch", "x86_64")]),
    ("cpu name", "generic", []),
    ("python compiler", "MSC v.1915 64 bit (AMD64)", [("platform", "win32"), ("python.machine", "x86_64")]),
    ("python compiler", "MSC v.1937 64 bit (ARM64)", [("platform", "win32"), ("python.machine", "arm64")]),
    ("python compiler", "GCC 11.2.0", []),
], ids=["numba-skylake", "llc-znver4", "generic", "msc-amd64", "msc-arm64", "gcc"])
def test_numba_keys(key, value, expected):
    assert clues.llvm_cpu(key, value) + clues.python_compiler(key, value) == expected


def test_julia_orcjit_names_the_cpu():
    assert ("cpu.hardware_arch", "x86_64") in clues.line_facts("  LLVM: libLLVM-15.0.7 (ORCJIT, alderlake)")


@pytest.mark.parametrize("line, gib", [
    ('level=DEBUG source=gpu.go:359 msg="updating system memory data" before.total="61.4 GiB" before.free="51.8 GiB"', 61.4),
    ('time=2025-01-01T00:00:00 level=INFO source=server.go:105 msg="system memory" total="31.1 GiB" free="24.0 GiB"', 31.1),
    ("- 128GB RAM", 128),
    ("* 64 GB DDR5 memory", 64),
    ("- 16GB VRAM", None),
    ("I have 128GB RAM and it still fails", None),
], ids=["ollama-updating", "ollama-system-memory", "list-ram", "list-ddr5", "vram", "sentence"])
def test_memory_line(line, gib):
    facts = clues.memory_line(line)
    assert (facts[0][1] / GIB if facts else None) == (pytest.approx(gib, abs=0.01) if gib else None)


@pytest.mark.parametrize("key, value, expected", [
    ("gpu type", "NVIDIA Graphics Device", "NVIDIA Graphics Device"),
    ("gpu models and configuration", "GPU 0: NVIDIA Graphics Device", "NVIDIA Graphics Device"),
    ("device name", "NVIDIA Graphics Device", "NVIDIA Graphics Device"),
    ("os", "NVIDIA Graphics Device", None),
], ids=["accelerate", "collect-env", "device-query", "other-key"])
def test_unnamed_nvidia(key, value, expected):
    facts = clues.unnamed_nvidia(key, value)
    assert (facts[0][1]["name"] if facts else None) == expected and (not facts or facts[0][1]["vendor"] == "NVIDIA")


_NVTOP = [
    " Device 0 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x RX: 50.00 KiB/s TX: 0.000 KiB/s Device 1 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x RX: 50.00 KiB/s",
    " GPU 210MHz  MEM 405MHz  TEMP  31°C FAN  30% POW  13 / 450 W      GPU 210MHz  MEM 405MHz  TEMP  31°C",
    " GPU[          0%] MEM[        0.349Gi/23.988Gi] GPU[          0%] MEM[||||||      4.185Gi/23.988Gi]",
]


def test_nvtop_two_devices_a_line():
    facts = clues.nvtop_devices(_NVTOP)[0]
    gpus = [v for f, v in facts if f == "gpu"]
    assert [(g["index"], g["name"], g["memory_mib"]) for g in gpus] == [(0, "NVIDIA GeForce RTX 4090", 24564)] * 1 + [
        (1, "NVIDIA GeForce RTX 4090", 24564)]


def test_nvtop_one_device_without_memory_row():
    facts = clues.nvtop_devices([" Device 0 [NVIDIA RTX A6000] PCIe GEN 4@16x RX: 0.000 KiB/s TX: 0.000 KiB/s", "", ""])[0]
    assert [v["memory_mib"] for f, v in facts if f == "gpu"] == [None]


@pytest.mark.parametrize("line, expected", [
    ("My graphics card is an RTX 4090, and the operating system is Linux.", "linux"),
    ("My OS is Windows 11 Pro", "win32"),
    ("The OS: macOS Sonoma", "darwin"),
    ("The operating system is not Windows", None),
], ids=["linux", "windows", "macos", "negated"])
def test_os_sentence(line, expected):
    assert dict(clues.os_sentence(line)).get("platform") == expected


@pytest.mark.parametrize("line, expected", [
    ("time=2025-10-11T00:03:36.242+02:00 level=INFO source=cpu_windows.go:139 msg=packages count=1", "win32"),
    ('level=WARN source=amd_linux.go:61 msg="ollama recommends running the https://www.amd.com/en/support"', "linux"),
    ("level=INFO source=gpu_darwin.go:12 msg=x", "darwin"),
    ('level=INFO source=types.go:112 msg="inference compute"', None),
], ids=["windows", "linux", "darwin", "no-os-suffix"])
def test_go_source_platform(line, expected):
    assert dict(clues.go_source_platform(line)).get("platform") == expected


@pytest.mark.parametrize("value, expected", [
    ("Windows version: 10.0.19045.6466 WSL2 Ubuntu 24.04.4 LTS (Noble Numbat)", "Ubuntu 24.04.4 LTS (Noble Numbat)"),
    ("Windows 11 + WSL2 with Debian 12", "Debian 12"),
    ("Windows 11 Pro", ""),
    ("Windows 11, not WSL Ubuntu 22.04", ""),
], ids=["form-answer", "with", "windows-only", "negated"])
def test_wsl_distro(value, expected):
    assert clues.wsl_distro(value) == expected


def test_wsl_answer_reads_as_the_linux_inside():
    facts = dict(by_key("operating system", "Windows version: 10.0.19045.6466 WSL2 Ubuntu 24.04.4 LTS (Noble Numbat)"))
    assert facts["platform"] == "linux" and facts["os.name"].startswith("Ubuntu 24.04.4")


_OLLAMA = [
    'time=2025-10-11T00:03:32.773+02:00 level=INFO source=runner.go:80 msg="discovering available GPUs..."',
    'time=2025-10-11T00:03:35.623+02:00 level=INFO source=types.go:112 msg="inference compute" id=0 library=ROCm '
    'compute=gfx1100 name=ROCm1 description="AMD Radeon RX 7900 XTX" type=discrete total="24.0 GiB"',
    '[GIN] 2025/10/11 - 00:03:35 | 200 |            0s |       127.0.0.1 | HEAD     "/"',
]


def test_ollama_discovery_without_cuda_rules_out_nvidia():
    assert clues.ollama_no_cuda(_OLLAMA) == {1: [("gpu.absent", "NVIDIA")]}


@pytest.mark.parametrize("lines", [
    _OLLAMA[:2],  # cut off right after the device: more may follow
    _OLLAMA[1:],  # no discovery start
    [_OLLAMA[0], _OLLAMA[1].replace("library=ROCm", "library=cuda"), _OLLAMA[2]],
    ["CUDA_VISIBLE_DEVICES=-1 ollama serve"] + _OLLAMA,
], ids=["cut-off", "no-discovery", "cuda-found", "cuda-hidden"])
def test_ollama_discovery_says_nothing(lines):
    assert clues.ollama_no_cuda(lines) == {}


def test_gtx_965m_is_maxwell_gm204():
    assert nvidia_compute_capability("GeForce GTX 965M") == "5.2"
    assert nvidia_compute_capability("GeForce GTX 960M") == "5.0"


@pytest.mark.parametrize("torch, name, expected", [
    ("2.7.1+xpu", "torchaudio", (2, 7)), ("2.7.1", "torchvision", (0, 22)), ("1.13.1", "torchvision", (0, 14)),
    ("1.8.1", "torchaudio", (0, 8)), ("2.0.1", "torchvision", (0, 15)), ("0.4.1", "torchvision", None),
])
def test_companion_release(torch, name, expected):
    assert companion_release(torch, name) == expected


def test_mismatched_companion():
    assert mismatched_companion("2.7.1+xpu", "torchaudio", "2.1.0a0+cxx11.abi") == \
        "torchaudio 2.1.0a0+cxx11.abi is the release for torch 2.1, not 2.7"
    assert mismatched_companion("2.7.1", "torchvision", "0.22.1") is None
    assert mismatched_companion("2.8.0.dev20250528", "torchvision", "0.23.0.dev20250528") is None


def test_torch_builds_agree_flags_another_release():
    text = _WIN_CPU_TORCH + "[pip3] torch==2.7.1+xpu\n[pip3] torchaudio==2.1.0a0+cxx11.abi\n[pip3] torchvision==0.22.1+xpu\n"
    text = text.replace("PyTorch version: 2.8.0.dev20250528+cpu", "PyTorch version: 2.7.1+xpu")
    finding = check_torch_builds_agree(_facts(text))
    assert finding is not None and finding.level == "fail" and "torchaudio 2.1.0a0" in finding.message
