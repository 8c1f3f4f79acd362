"""Set 9's Linux and Windows rules (gpu_text_rules, stack_text_rules), fed literal lines; the knowledge tables they
use; and what infer and the recommendation make of them (a stated gfx target, an external GPU, a discrete Arc)."""
import pytest

from macml.knowledge.amd_gfx import codename_target, instinct_target
from macml.knowledge.hardware import intel_discrete_gpu, nvidia_compute_capability
from macml.probe.collect import facts_from_snapshot
from macml.probe.linux import OS_RELEASE, build_facts
from macml.probe.paste import gpu_count_rules as counts
from macml.probe.paste import gpu_text_rules as gpus
from macml.probe.paste import import_pastes
from macml.probe.paste import stack_text_rules as stack
from macml.probe.paste.linux_words_rules import os_in_words
from macml.probe.runner import CommandResult
from macml.recipes.catalog import load_all
from macml.recipes.recommend import recommendation, wanted_accelerators

RECIPES = load_all()


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _gpu(name, index=None, vendor=None):
    return ("gpu", {"name": name, "vendor": vendor, "memory_mib": None, "index": index})


# --- GPU listings ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, name", [
    ("04:00.0 VGA compatible controller: Intel Corporation DG2 [Arc A770] (rev 08) (prog-if 00 [VGA controller])",
     "Intel Arc A770"),
    ("dg2@host:~$ 03:00.0 VGA compatible controller: Intel Corporation DG2 [Arc A380] (rev 05)", "Intel Arc A380"),
    ("01:00.0 3D controller [0302]: NVIDIA Corporation Device 2330 [10de:2330] (rev a1)", "NVIDIA Corporation Device 2330"),
], ids=["arc-a770", "arc-a380-prompt", "unnamed-nvidia-with-ids"])
def test_lspci_device(line, name):
    assert gpus.lspci_device(line)[0][1]["name"] == name


@pytest.mark.parametrize("line", [
    "01:00.0 VGA compatible controller: NVIDIA Corporation GA102 [GeForce RTX 3090] (rev a1)",  # log_rules reads it
    "00:02.0 VGA compatible controller: Matrox Electronics Systems Ltd. MGA G200e [Pilot]",
    "04:00.0 Ethernet controller: Intel Corporation I210 Gigabit Network Connection (rev 03)",
], ids=["named-geforce", "server-bmc", "not-a-display"])
def test_lspci_device_leaves(line):
    assert gpus.lspci_device(line) == []


@pytest.mark.parametrize("line, fact", [
    ("  Device-1: Intel DG2 [Arc A770] driver: i915 v: kernel", _gpu("Intel DG2 [Arc A770]", 0, "Intel")),
    # an NVIDIA chip with its one board in brackets is that board (set-27 round)
    ("  Device-2: NVIDIA AD102 [GeForce RTX 4090] driver: nvidia v: 550.54.14", _gpu("GeForce RTX 4090", 1, "NVIDIA")),
    ("  Device-1: Advanced Micro Devices [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX] vendor: Sapphire driver: amdgpu",
     _gpu("Advanced Micro Devices [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX]", 0, "AMD")),
], ids=["intel-arc", "nvidia", "amd-vendor-field"])
def test_inxi_device(line, fact):
    found = gpus.inxi_device(line)
    assert found[0][0] == "gpu" and found[0][1]["name"] == fact[1]["name"] and found[0][1]["index"] == fact[1]["index"]
    assert ("platform", "linux") in found


def test_inxi_device_leaves_a_camera():
    assert gpus.inxi_device("  Device-3: Chicony USB2.0 Camera driver: uvcvideo type: USB") == []


@pytest.mark.parametrize("key, value, facts", [
    ("graphics processor", "NVIDIA GeForce RTX 4060 Ti/PCIe/SSE2", [_gpu("NVIDIA GeForce RTX 4060 Ti", vendor="NVIDIA")]),
    ("graphics processor", "AMD Radeon RX 6800 XT/PCIe/SSE2", [_gpu("AMD Radeon RX 6800 XT", vendor="AMD")]),
    ("vram", "16GiB", [("gpu.memory_of", {"index": None, "memory_mib": 16384})]),
    ("vram", "8 GB", [("gpu.memory_of", {"index": None, "memory_mib": 8192})]),
    ("gpu", "[Intel Arc A730M 12G]", [("gpu.memory_of", {"index": None, "memory_mib": 12288})]),
    ("graphics card", "RTX 3060 12GB", [("gpu.memory_of", {"index": None, "memory_mib": 12288})]),
    ("gpu", "NVIDIA GeForce RTX 4090", []),
    ("graphics processor", "llvmpipe", []),
], ids=["kde-nvidia", "kde-amd", "kde-vram", "vram-spaced", "bracketed-answer", "graphics-card-memory", "no-memory", "software"])
def test_gpu_answer(key, value, facts):
    assert gpus.gpu_answer(key, value) == facts


@pytest.mark.parametrize("key, value, name, memory", [
    ("mobile device", "NVIDIA Jetson AGX Orin", "NVIDIA Jetson AGX Orin", None),
    ("gpu model and memory", "Jetson Nano 4GB", "Jetson Nano 4GB", 4 * 1024**3),
    ("hardware", "Jetson Orin Nano 8GB developer kit", "Jetson Orin Nano 8GB", 8 * 1024**3),
    ("device", "jetson xavier nx", "jetson xavier nx", None),
], ids=["agx-orin", "nano-4gb", "orin-nano", "xavier-nx-lower"])
def test_jetson_answer(key, value, name, memory):
    found = dict(gpus.gpu_answer(key, value))
    assert found["gpu"]["name"] == name and found["gpu"]["vendor"] == "NVIDIA"
    assert found["cpu.hardware_arch"] == "aarch64" and found.get("cpu.memory_bytes") == memory


def test_jetson_in_prose_is_not_an_answer():
    assert gpus.gpu_answer("describe the bug", "failed to install on Jetson Nano device") == []


@pytest.mark.parametrize("line, facts", [
    ("Graphics card - GTX 1070 8gb", [("gpu", "GTX 1070"), ("gpu.memory_of", 8192)]),
    ("- GPU - RTX 3060", [("gpu", "RTX 3060")]),
    ("Processor - Xeon E5 - 2689", [("cpu.brand", "Intel Xeon E5-2689"), ("cpu.hardware_arch", "x86_64")]),
    ("CPU - Ryzen 7 5800X", [("cpu.brand", "AMD Ryzen 7 5800X"), ("cpu.hardware_arch", "x86_64")]),
    ("Processor - 3.9 GHz 6-Core Intel Core i9", [("cpu.brand", "3.9 GHz 6-Core Intel Core i9"), ("cpu.hardware_arch", "x86_64")]),
    ("RAM - 16GB", [("cpu.memory_bytes", 16 * 1024**3)]),
    ("OS - Windows 10", [("platform", "win32"), ("os.name", "Windows 10")]),
    ("Processor - Snapdragon X Elite", []),
    ("The GPU - as far as I know - is fine", []),
], ids=["gpu-memory", "gpu-item", "xeon", "ryzen", "mac-about", "ram", "os", "arm-cpu", "prose"])
def test_dash_item(line, facts):
    found = [(f, v["name"] if f == "gpu" else v["memory_mib"] if f == "gpu.memory_of" else v) for f, v in gpus.dash_item(line)]
    assert found == facts


@pytest.mark.parametrize("line, count, name", [
    ("4xH100", 4, "H100"),
    ("Hardware: 8 x A100 80GB", 8, "A100 80GB"),
    ("I have 2× RTX 4090 in one box", 2, "RTX 4090"),
    ("running on 2x NVIDIA L40S", 2, "NVIDIA L40S"),
], ids=["glued", "spaced-memory", "times-sign", "nvidia-brand"])
def test_gpu_count(line, count, name):
    found = counts.gpu_count(line)
    assert len(found) == count and {f[1]["name"] for f in found} == {name}
    assert [f[1]["index"] for f in found] == list(range(count))


@pytest.mark.parametrize("line", ["resolution 2x1080", "a 4x4 grid", "not on 4xH100", "1x A100"],
                         ids=["resolution", "grid", "negated", "one"])
def test_gpu_count_leaves(line):
    assert counts.gpu_count(line) == []


@pytest.mark.parametrize("line, name", [
    ("Full collect_env output from the serving container (GH200 node, image v0.27.1-aarch64-cu129)", "GH200"),
    ("on our H100 servers the run is fine", "H100"),
    ("a single A100 machine", "A100"),
], ids=["gh200-node", "h100-servers", "a100-machine"])
def test_node_gpu(line, name):
    assert counts.node_gpu(line) == [_gpu(name, vendor="NVIDIA")]


@pytest.mark.parametrize("line", ["it is not an H100 node", "the A1 server", "Apple M2 machine"], ids=["negated", "not-nvidia", "mac"])
def test_node_gpu_leaves(line):
    assert counts.node_gpu(line) == []


@pytest.mark.parametrize("line, name", [
    ("你好，我的是NVIDIA GeForce RTX 3050 Laptop GPU，是因为30系列显卡和cuda版本不兼容导致的吗？", "NVIDIA GeForce RTX 3050 Laptop GPU"),
    ("我的显卡是 NVIDIA GeForce RTX 3060", "NVIDIA GeForce RTX 3060"),
], ids=["mine-is", "my-gpu-is"])
def test_chinese_owned_gpu(line, name):
    assert gpus.chinese_owned_gpu(line)[0][1]["name"] == name


@pytest.mark.parametrize("line, name", [
    ("run this on my machine which has an external NVIDIA GeForce RTX 4070 I get the following results:", "NVIDIA GeForce RTX 4070"),
    ("I use an eGPU (RTX 3080) over Thunderbolt", "RTX 3080"),
    ("external GPU: AMD Radeon RX 6800 XT", "AMD Radeon RX 6800 XT"),
], ids=["external-geforce", "egpu-parenthesis", "external-radeon"])
def test_external_gpu(line, name):
    assert gpus.external_gpu(line) == [("gpu.external", name)]


@pytest.mark.parametrize("line", ["this is not an external RTX 3080", "an external monitor on my RTX 3080"], ids=["negated", "monitor"])
def test_external_gpu_leaves(line):
    assert gpus.external_gpu(line) == []


@pytest.mark.parametrize("line, facts", [
    ("        Navi 22 [Radeon RX 6", [("gpu.present", "AMD"), ("gpu.gfx", "gfx1031")]),
    ("Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 [Radeon RX 7900 XTX]", [("gpu.present", "AMD"), ("gpu.gfx", "gfx1100")]),
    ("AMD Vega20 card", [("gpu.present", "AMD"), ("gpu.gfx", "gfx906")]),
    ("this same issue happens with my Mi60 server",
     [("gpu.owned", {"name": "Mi60", "vendor": "AMD", "memory_mib": None, "index": None}), ("gpu.gfx", "gfx906")]),
    ("on 8x MI300X", [("gpu.owned", {"name": "MI300X", "vendor": "AMD", "memory_mib": None, "index": None}), ("gpu.gfx", "gfx942")]),
    ("Navi 99 and the MI5 agent", []),
], ids=["navi22-cut", "navi31-lspci", "vega20", "my-mi60", "mi300x-count", "unknown"])
def test_amd_target(line, facts):
    assert gpus.amd_target(line) == facts


# --- the stack and the OS ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, facts", [
    ("CUDA SETUP: CUDA runtime path found: /usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so",
     [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]),
    ("-L/usr/local/cuda/targets/sbsa-linux/lib", [("platform", "linux"), ("cpu.hardware_arch", "aarch64")]),
    ("W0705 11:57:56.118161  1936 device_context.cc:404] Please NOTE: device: 0, GPU Compute Capability: 6.1, "
     "Driver API Version: 10.2, Runtime API Version: 10.2",
     [("gpu.capability", {"name": None, "capability": "6.1"}), ("gpu.cuda_driver", "10.2"), ("gpu.present", "NVIDIA")]),
    ("[TensorRT-LLM] TensorRT-LLM version: 0.14.0", [("package", {"name": "tensorrt-llm", "version": "0.14.0"})]),
    ("[TensorRT-LLM] TensorRT-LLM version: 0.21.0rc1", [("package", {"name": "tensorrt-llm", "version": "0.21.0rc1"})]),
    ("RuntimeError: No HIP GPUs are available", [("torch.cuda_available", False)]),
    ("RuntimeError: No CUDA GPUs are available", [("torch.cuda_available", False)]),
    ("AssertionError: Torch not compiled with CUDA enabled", [("torch.cuda_available", False), ("torch.cuda_version", None)]),
    ("-- Torch not compiled with CUDA enabled", [("torch.cuda_available", False), ("torch.cuda_version", None)]),
    ("if you see 'Torch not compiled with CUDA enabled', reinstall", []),
], ids=["cuda-targets-x86", "cuda-targets-sbsa", "paddle-banner", "trtllm", "trtllm-rc", "no-hip", "no-cuda",
        "not-compiled", "not-compiled-alone", "quoted-advice"])
def test_stack_line(line, facts):
    assert stack.stack_line(line) == facts


@pytest.mark.parametrize("line, facts", [
    ("        ubuntu16.04（非虚拟机），cuda-10.2，cudnn-7.6.5，nividia-驱动440.36，gcc-8.2.0，python-3.7.9，pip-21.2.3",
     [("platform", "linux"), ("os.name", "Ubuntu 16.04"), ("hypervisor.none", True), ("gpu.driver", "440.36"),
      ("gpu.present", "NVIDIA"), ("python.version", "3.7.9")]),
    ("centos7 (not a VM), nvidia driver 535.104.05", [("platform", "linux"), ("os.name", "CentOS 7"), ("hypervisor.none", True),
                                                      ("gpu.driver", "535.104.05"), ("gpu.present", "NVIDIA")]),
    ("我电脑是win11，自带的cuda是11.6，我安装了cuda10.2", [("gpu.cuda_driver", "11.6"), ("gpu.present", "NVIDIA"),
                                                          ("platform", "win32"), ("os.name", "Windows 11")]),
    ("my laptop runs windows 10 and the driver supports CUDA 12.4", [("gpu.cuda_driver", "12.4"), ("gpu.present", "NVIDIA"),
                                                                     ("platform", "win32"), ("os.name", "Windows 10")]),
    ("NVIDIA driver 520.61.5", [("gpu.driver", "520.61.5"), ("gpu.present", "NVIDIA")]),
    ("I did not try ubuntu20.04", []),
    ("download python-3.12.1-amd64.exe", []),
], ids=["paddle-zh", "centos-glued", "win11-zh", "my-laptop-windows", "cudajl-driver", "negated", "installer-name"])
def test_environment_words(line, facts):
    assert stack.environment_words(line) == facts


@pytest.mark.parametrize("key, value, facts", [
    ("ubuntu", "22.04", [("platform", "linux"), ("os.name", "Ubuntu 22.04")]),
    ("debian", "12", [("platform", "linux"), ("os.name", "Debian 12")]),
    ("operating system / platform", "> Ubuntu 22.04.2 LTS (yes, not officially supported), kernel  5.17.0-1020-oem",
     [("platform", "linux"), ("os.name", "Ubuntu 22.04.2 LTS")]),  # the kernel left out since the set-43 round
    ("ubuntu", "yes", []),
], ids=["ubuntu-key", "debian-key", "arrow-answer", "no-version"])
def test_os_answer(key, value, facts):
    assert stack.os_answer(key, value) == facts


@pytest.mark.parametrize("key, value, facts", [
    ("python version", "2.7.13", [("python.version", "2.7.13")]),
    ("cuda driver version", "9000", [("gpu.cuda_driver", "9.0"), ("gpu.present", "NVIDIA")]),
    ("cuda driver version", "12020", [("gpu.cuda_driver", "12.2"), ("gpu.present", "NVIDIA")]),
    ("python version", "3.11.4", []),  # statement_rules reads Python 3
    ("cuda driver version", "12.2", []),
], ids=["python2", "numba-9000", "numba-12020", "python3-elsewhere", "dotted-elsewhere"])
def test_numbers(key, value, facts):
    assert stack.numbers(key, value) == facts


@pytest.mark.parametrize("lines, facts", [
    (['NAME="Rocky Linux"', 'VERSION="8.6 (Green Obsidian)"'],
     {0: [("platform", "linux"), ("os.name", "Rocky Linux 8.6 (Green Obsidian)")]}),
    (['NAME="Ubuntu"', 'VERSION="22.04.3 LTS (Jammy Jellyfish)"'],
     {0: [("platform", "linux"), ("os.name", "Ubuntu 22.04.3 LTS (Jammy Jellyfish)")]}),
    (['NAME="Arch Linux"', 'PRETTY_NAME="Arch Linux"'], {}),
    (['print("PyTorch detects GPU:", torch.cuda.is_available())', "", "PyTorch detects GPU: True"],
     {2: [("torch.cuda_available", True)]}),
    (["print(f'CUDA available: {torch.cuda.is_available()}')", "CUDA available: False"], {1: [("torch.cuda_available", False)]}),
    (['  File "/app/tensor.py", line 10, in <module>', "torch.AcceleratorError: HIP error: invalid device function"],
     {0: [("platform", "linux")]}),
    (['  File "C:\\app\\t.py", line 10, in <module>', "HIP error: invalid device function"], {}),
    (["paddle version: 2.3.0", "paddle with cuda: 10.2"], {0: [("package", {"name": "paddlepaddle-gpu", "version": "2.3.0"})]}),
    (["paddle version: 2.5.1", "paddle with cuda: False"], {0: [("package", {"name": "paddlepaddle", "version": "2.5.1"})]}),
], ids=["os-release-rocky", "os-release-ubuntu", "os-release-rolling", "labelled-print", "fstring-print", "hip-posix",
        "hip-windows", "paddle-gpu", "paddle-cpu"])
def test_answers(lines, facts):
    assert gpus.answers(lines) == facts


# --- knowledge --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, gfx", [("Navi 22", "gfx1031"), ("navi21", "gfx1030"), ("Vega 20", "gfx906"), ("Navi 5", None)],
                         ids=["navi22", "glued", "vega20", "unknown"])
def test_codename_target(name, gfx):
    assert codename_target(name) == gfx


@pytest.mark.parametrize("name, gfx", [("MI60", "gfx906"), ("Instinct MI250X", "gfx90a"), ("AMD Instinct MI300X", "gfx942"),
                                       ("MI5", None)], ids=["mi60", "mi250x", "mi300x", "unknown"])
def test_instinct_target(name, gfx):
    assert instinct_target(name) == gfx


@pytest.mark.parametrize("name, discrete", [
    ("Intel Arc A770", True), ("Intel Corporation DG2 [Arc A770]", True), ("Intel Arc A730M", True), ("Intel Arc B580", True),
    ("Intel Data Center GPU Max 1550", True), ("Intel Arc Graphics", False), ("Intel Arc 140V GPU", False),
    ("Intel UHD Graphics 630", False)], ids=["a770", "dg2", "a730m", "b580", "max", "core-ultra", "lunar-lake", "uhd"])
def test_intel_discrete_gpu(name, discrete):
    assert intel_discrete_gpu(name) is discrete


@pytest.mark.parametrize("name, capability", [("GeForce GTX 1070Ti", "6.1"), ("RTX 3060Ti", "8.6"), ("RTX 4070SUPER", "8.9")],
                         ids=["1070ti", "3060ti", "4070super"])
def test_capability_of_glued_suffix(name, capability):
    assert nvidia_compute_capability(name) == capability


@pytest.mark.parametrize("line, name", [("I am running ubuntu 22.04 on WSL2", "Ubuntu 22.04"),
                                        ("on linux mint 21.3", "Linux Mint 21.3"), ("running Debian 12", "Debian 12")],
                         ids=["ubuntu-lower", "mint-lower", "debian"])
def test_distro_spelled_as_itself(line, name):
    assert ("os.name", name) in os_in_words(line)


# --- what infer and the recommendation make of them -------------------------------------------------------------

def test_os_release_version_without_version_id():
    def run(argv):
        if tuple(argv) == OS_RELEASE:
            return CommandResult(tuple(argv), 0, 'NAME="Rocky Linux"\nVERSION="8.6 (Green Obsidian)"\n', "")
        return CommandResult(tuple(argv), 127, "", "not found")
    assert build_facts(run).os.version == "8.6"


def test_gfx_stated_once_fills_rocm_smi_gpu():
    text = """```
================================================= Concise Info =================================================
Device  [Model : Revision]    Temp    Power  Partitions      SCLK    MCLK     Fan  Perf    PwrCap  VRAM%  GPU%
        Name (20 chars)       (Edge)  (Avg)  (Mem, Compute)
================================================================================================================
0       [Speedster QICK 319   53.0°C  30.0W  N/A, N/A        500Mhz  1000Mhz  0%   manual  213.0W   26%   12%
        Navi 22 [Radeon RX 6
================================================================================================================
============================================= End of ROCm SMI Log ==============================================
```"""
    facts = _facts(text)
    assert [g.compute_capability for g in facts.gpus if g.vendor == "AMD"] == ["gfx1031"]


def test_external_gpu_is_marked():
    text = ("my machine has an external NVIDIA GeForce RTX 4070\n"
            "ggml_cuda_init: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 4070, compute capability 8.9, VMM: yes\n")
    facts = _facts(text)
    assert [g.external for g in facts.gpus] == [True] and facts.egpu is True


@pytest.mark.parametrize("text", [
    "inxi -G\nGraphics:\n  Device-1: Intel DG2 [Arc A770] driver: i915 v: kernel\n",
    "- OS: [Windows11]\n- GPU: [Intel Arc A730M 12G]\n- CPU: [i7-12700H]\n",
], ids=["inxi-linux", "form-windows"])
def test_discrete_arc_is_not_offered_cuda(text):
    facts = _facts(text)
    assert "cuda" not in wanted_accelerators(facts)
    best = recommendation(facts, RECIPES)
    assert best is None or best.recipe != "pytorch-cuda"


def test_integrated_intel_keeps_cuda_open():
    facts = _facts("- OS: Ubuntu 22.04\n- GPU: Intel UHD Graphics 630\n")
    assert "cuda" in wanted_accelerators(facts)


def test_arc_beside_geforce_keeps_cuda():
    facts = _facts("inxi -G\nGraphics:\n  Device-1: Intel DG2 [Arc A770] driver: i915 v: kernel\n"
                   "  Device-2: NVIDIA AD102 [GeForce RTX 4090] driver: nvidia v: 550.54.14\n")
    assert wanted_accelerators(facts) == ("cuda",)
