"""Set 7's Linux and Windows rules, fed literal lines: GPUs named informally ('GTX 3070 laptop', '4080 RTX', 'AMD
7900XTX', 'NVIDIA L4'), vGPU profiles, Windows and distributions in words, parts lists, AMD APUs and their Radeon,
Windows' NVIDIA driver numbers, torch in words, Unsloth's banner, ComfyUI's stamped log, ollama's GPU discovery,
ggml's Vulkan devices, llama.cpp's build target, detectron2's table, `pip show`, TensorFlow's device list, collect_env's
'No CUDA'; and what the doctor concludes from them (no NVIDIA GPU, an APU's Radeon no ROCm build runs on,
TensorFlow on native Windows)."""
import dataclasses

import pytest

from macml.diagnose import run_checks
from macml.diagnose.framework_checks import check_framework_gpu
from macml.facts import GPU, CPUFacts, FrameworkFacts, MachineFacts, OSFacts
from macml.knowledge.amd_apus import apu_gfx, apu_target
from macml.knowledge.rocm import no_rocm_build
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import app_log_rules as logs, import_pastes, linux_words_rules as rules
from macml.probe.paste.devices import device_facts
from macml.probe.paste.gpu_names import gpu_names, gpu_value, informal_gpu_names
from macml.probe.paste.linux_app_rules import torch_inline_answer
from macml.recipes.catalog import load_all
from macml.recipes.conditions import UNMET, shortfalls
from macml.recipes.recommend import recommendation, wanted_accelerators

GIB = 1024 ** 3
RECIPES = load_all()


def _gpu(name, vendor="NVIDIA", memory=None, index=None):
    return ("gpu", {"name": name, "vendor": vendor, "memory_mib": memory, "index": index})


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


# --- GPU names --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("cuda:0 NVIDIA L4 : cudaMallocAsync", ["NVIDIA L4"]),
    ("GPU 0: NVIDIA T4", ["NVIDIA T4"]),
    ("NVIDIA A100-SXM4-80GB", ["NVIDIA A100-SXM4-80GB"]),
    ("Gpu: Nvidia GeForce GTX 1650 mobile (4gb vram)", ["Nvidia GeForce GTX 1650 mobile"]),
    ("NVIDIA GeForce RTX 3070 Laptop GPU", ["NVIDIA GeForce RTX 3070 Laptop GPU"]),
    ("NVIDIA H100 80GB HBM3", ["NVIDIA H100 80GB HBM3"]),
], ids=["l4-bare", "t4-bare", "a100-sxm", "mobile", "laptop-gpu", "h100-hbm3"])
def test_gpu_names_formal(text, expected):
    assert gpu_names(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("GTX 3070 laptop 8GB vram", ["GTX 3070 laptop"]),
    ("4080 RTX", ["4080 RTX"]),
    ("AMD 7900XTX", ["AMD 7900XTX"]),
    ("RX 6800 XT", ["RX 6800 XT"]),
    ("rtx3090", ["rtx3090"]),
    ("RTX 4070 Ti Super", ["RTX 4070 Ti Super"]),
    ("AMD 7900", []),  # as likely the Ryzen 9 7900
    ("GTX", []),
], ids=["gtx-laptop", "reversed", "amd-xtx", "rx-xt", "joined", "ti-super", "bare-amd-number-no", "no-number"])
def test_informal_gpu_names(text, expected):
    assert informal_gpu_names(text) == expected


@pytest.mark.parametrize("value, expected", [
    ("Nvidia GeForce GTX 1650 mobile (4gb vram)", [_gpu("Nvidia GeForce GTX 1650 mobile", memory=4096)]),
    ("4080 RTX", [_gpu("4080 RTX")]),
    ("AMD 7900XTX", [_gpu("AMD 7900XTX", "AMD")]),
    ("RTX 3060 (12 GB)", [_gpu("RTX 3060", memory=12288)]),
    ("N/A", []),
], ids=["mobile-vram-in-parens", "informal-field", "informal-amd", "parens-size", "none"])
def test_gpu_value(value, expected):
    assert gpu_value(value) == expected


@pytest.mark.parametrize("name, capability", [
    ("GRID A100D-20C", "8.0"), ("GRID V100DX-32C", "7.0"), ("GRID T4-16Q", "7.5"), ("NVIDIA GRID A100X-40C", "8.0"),
    ("4080 RTX", "8.9"), ("GTX 3070 laptop", "8.6"), ("GTX 1070", "6.1"), ("3090 Ti RTX", "8.6"),
    ("Nvidia GeForce GTX 1650 mobile", "7.5"), ("NVIDIA L4", "8.9"),
], ids=["grid-a100d", "grid-v100dx", "grid-t4", "grid-a100x", "reversed-rtx", "gtx-typo-ampere", "real-gtx",
        "reversed-ti", "mobile", "l4"])
def test_informal_and_vgpu_capability(name, capability):
    assert nvidia_compute_capability(name) == capability


# --- the OS, the parts, the machine in words ----------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("- Windows 10 Home Single Language v 1809", [("platform", "win32"), ("os.name", "Windows 10 Home Single Language v 1809")]),
    ("Windows 11 Pro", [("platform", "win32"), ("os.name", "Windows 11 Pro")]),
    ("I am on a windows machine (i9 / 32GB / GTX 3070 laptop 8GB vram).", [("platform", "win32")]),
    ("My laptop runs Windows 11 and has an RTX 4060", [("platform", "win32")]),
    ("It works on my Linux box but not on Windows 10", []),
    ("I'm using Windows Subsystem for Linux", []),
    ("People on Windows report the same", []),  # nobody's machine
    ('Please support "AMD Ryzen 7 PRO 7840U" on Linux (Ubuntu 22.04).', [("platform", "linux"), ("os.name", "Ubuntu 22.04")]),
    ("I'm running Debian 12 with a 3090", [("platform", "linux"), ("os.name", "Debian 12")]),
    ("tested on Arch Linux, same error", [("platform", "linux")]),
    ("It works on Ubuntu 20.04 LTS", [("platform", "linux"), ("os.name", "Ubuntu 20.04 LTS")]),
    ("Upgrading to Ubuntu 24.04 did not help", []),
    ("I gave my pc 40gb of zram (similar to swap)", [("platform", "linux")]),
], ids=["windows-list-item", "windows-alone", "windows-machine", "laptop-runs-windows", "negated", "wsl",
        "not-first-person", "linux-paren-distro", "running-debian", "arch-no-version", "lts", "to-is-no-preposition",
        "zram"])
def test_os_in_words(line, expected):
    assert rules.os_in_words(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("I am on a windows machine (i9 / 32GB / GTX 3070 laptop 8GB vram).",
     [("cpu.brand", "Intel Core i9"), _gpu("GTX 3070 laptop", memory=8192), ("cpu.memory_bytes", 32 * GIB)]),
    ("Framework Desktop AI Max+ 395 (gfx1151 / 64GB)", [("gpu.gfx", "gfx1151"), ("cpu.memory_bytes", 64 * GIB)]),
    ("my rig (Ryzen 9 5900X, 64 GB RAM, RX 6800 XT)",
     [("cpu.brand", "AMD Ryzen 9 5900X"), _gpu("RX 6800 XT", "AMD"), ("cpu.memory_bytes", 64 * GIB)]),
    ("on my Strix Halo (Ryzen AI Max+ 395, 128GB)", [("cpu.brand", "AMD Ryzen AI Max+ 395"),
                                                    ("cpu.memory_bytes", 128 * GIB)]),
    ("a model (7B, 16GB) runs slowly", []),  # sizes without any part are no machine
    ("(see 32GB / 64GB configs)", []),
    ("Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 22 MB memory) -> physical GPU "
     "(device: 0, name: Tesla M40 24GB, pci bus id: 0000:04:00.0, compute capability: 5.2)", []),
], ids=["slash-list", "gfx-and-memory", "comma-list", "ryzen-ai", "model-sizes-no", "sizes-only-no", "tool-fields-no"])
def test_spec_list(line, expected):
    assert rules.spec_list(line) == expected


@pytest.mark.parametrize("line, expected", [
    ('Please support GPU acceleration using "AMD Ryzen 7 PRO 7840U w/ Radeon 780M Graphics" on Linux',
     [("cpu.brand", "AMD Ryzen 7 PRO 7840U"), ("gpu.mention", "Radeon 780M Graphics"), ("gpu.gfx", "gfx1103")]),
    ("Model name:                         AMD Ryzen 5 6600H with Radeon Graphics",
     [("cpu.brand", "AMD Ryzen 5 6600H"), ("gpu.mention", "AMD Radeon Graphics"), ("gpu.gfx", "gfx1035")]),
    ("AMD Ryzen 5 2500U with Radeon Vega Mobile Gfx",
     [("cpu.brand", "AMD Ryzen 5 2500U"), ("gpu.mention", "Radeon Vega Mobile Gfx"), ("gpu.gfx", "gfx902")]),
    ("**Hardware:** Framework Desktop AI Max+ 395 (gfx1151 / 64GB)",
     [("cpu.brand", "AMD Ryzen AI Max+ 395"), ("gpu.gfx", "gfx1151")]),
    ("Model name: AMD Ryzen 9 7950X 16-Core Processor", [("cpu.brand", "AMD Ryzen 9 7950X 16-Core Processor")]),
    ("llama.cpp on my Strix Halo box is slow", [("cpu.hardware_arch", "x86_64"), ("gpu.present", "AMD"),
                                                 ("gpu.gfx", "gfx1151")]),
], ids=["phoenix-780m", "rembrandt", "raven-vega", "strix-halo", "desktop-no-graphics", "codename"])
def test_amd_cpu(line, expected):
    assert rules.amd_cpu(line) == expected


@pytest.mark.parametrize("brand, gfx", [
    ("AMD Ryzen 7 PRO 7840U", "gfx1103"), ("AMD Ryzen 7 8845HS", "gfx1103"), ("AMD Ryzen 7 8700G", "gfx1103"),
    ("AMD Ryzen 5 6600H", "gfx1035"), ("AMD Ryzen 7 7735HS", "gfx1035"), ("AMD Ryzen 5 7520U", "gfx1037"),
    ("AMD Ryzen 7 5800H", "gfx90c"), ("AMD Ryzen 5 5625U", "gfx90c"), ("AMD Ryzen 5 3400G", "gfx902"),
    ("AMD Ryzen AI Max+ 395", "gfx1151"), ("AMD Ryzen AI 9 HX 370", "gfx1150"), ("AMD Ryzen 9 7945HX", "gfx1036"),
    ("AMD Ryzen 9 5950X", None), ("AMD EPYC 7763", None),
])
def test_apu_gfx(brand, gfx):
    assert apu_gfx(brand) == gfx


def test_apu_targets_are_not_cards():
    assert apu_target("gfx1103") and apu_target("gfx1035") and not apu_target("gfx803") and not apu_target("gfx1100")
    assert no_rocm_build("gfx1103") and no_rocm_build("gfx803") and not no_rocm_build("gfx1100") and not no_rocm_build(None)


@pytest.mark.parametrize("line, expected", [
    ("I have an AMD 7900XTX and it crashes", [("gpu.owned", {"name": "AMD 7900XTX", "vendor": "AMD", "memory_mib": None,
                                                             "index": None})]),
    ("my 4080 RTX is not detected", [("gpu.owned", {"name": "4080 RTX", "vendor": "NVIDIA", "memory_mib": None,
                                                    "index": None})]),
    ("I have two GPUs: RTX 3090 and RTX 4090", []),  # general_rules.gpus_in_prose reads these
    ("it works on RX 6800 for others", []),
    ("my card is not an RX 580", []),
], ids=["have-amd", "my-reversed", "left-to-general-rules", "not-owned", "negated"])
def test_owned_gpus(line, expected):
    assert rules.owned_gpus(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("I recently put together an (old) physical machine with an Nvidia K80", [("hypervisor.none", True)]),
    ("Our bare-metal server has 8 GPUs", [("hypervisor.none", True)]),
    ("it is a VM, not a physical machine", []),
    ("- GeForce GTX 1060, Driver version 25.21.14.1891 (In the GeForce Experience it shows as 418.91)",
     [("platform", "win32"), ("gpu.driver", "418.91")]),
    ("NVIDIA GeForce RTX 4070 driver 31.0.15.3623", [("platform", "win32"), ("gpu.driver", "536.23")]),
    ("Intel(R) UHD Graphics driver 31.0.101.4502", []),
    ("    sudo dpkg -i cuda-repo-ubuntu1804_10.0.130-1_amd64.deb", [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]),
    ("sudo dpkg -i libcudnn8_8.9.7.29-1+cuda12.2_arm64.deb", [("platform", "linux"), ("cpu.hardware_arch", "aarch64")]),
], ids=["physical", "bare-metal", "negated", "windows-driver-number", "windows-driver-31", "intel-driver-no",
        "amd64-deb", "arm64-deb"])
def test_machine_words(line, expected):
    assert rules.machine_words(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("**Pytorch 2.0.1** (with the same cuda 11.8)",
     [("package", {"name": "torch", "version": "2.0.1"}), ("torch.version", "2.0.1"), ("torch.cuda_version", "11.8")]),
    ("I have torch 2.1.0+cu121 and transformers 4.36",
     [("package", {"name": "torch", "version": "2.1.0+cu121"}), ("torch.version", "2.1.0+cu121")]),
    ("using PyTorch 2.3.1 with CUDA 12.1",
     [("package", {"name": "torch", "version": "2.3.1"}), ("torch.version", "2.3.1"), ("torch.cuda_version", "12.1")]),
    ("pip install torch 2.1.0 fails", []),
    ("requires torch 2.4.0 or newer", []),
], ids=["bold-same-cuda", "cu-tag", "with-cuda", "install-no", "requirement-no"])
def test_torch_in_words(line, expected):
    assert rules.torch_in_words(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("pytorch                   2.1.0           py3.10_cuda12.1_cudnn8.9.2_0    pytorch", [("torch.cuda_version", "12.1")]),
    ("pytorch                   2.1.2           cuda118_py310h5ee7c96_300    conda-forge", [("torch.cuda_version", "11.8")]),
    ("pytorch                   2.0.1           py3.9_cpu_0    pytorch", [("torch.cuda_version", None)]),
    ("pytorch   1.13.1  cpu_py310hd11e9c7_1  conda-forge", [("torch.cuda_version", None)]),
    ("pytorch-cuda              12.1                 ha16c6d3_5    pytorch", [("torch.cuda_version", "12.1")]),
    ("pytorch=2.1.0=py3.10_cuda12.1_cudnn8.9.2_0", [("torch.cuda_version", "12.1")]),
    ("[conda] pytorch                   1.3.0           py3.7_cuda10.1.243_cudnn7.6.3_0    pytorch",
     [("torch.cuda_version", "10.1")]),
    ("[conda] pytorch                   1.0.0           py3.7_cuda90_cudnn7_1    pytorch", [("torch.cuda_version", "9.0")]),
    ("pytorch 2.1 is great on this box", []),
], ids=["pytorch-channel", "conda-forge-cuda", "pytorch-cpu", "conda-forge-cpu", "pytorch-cuda-meta", "export", "collect-env-conda-line", "old-channel", "prose"])
def test_conda_torch_build(line, expected):
    assert logs.conda_torch_build(line) == expected


def test_torch_answer_after_an_equals_sign():
    assert torch_inline_answer("torch.cuda.is_available()   = True") == [("torch.cuda_available", True)]
    assert torch_inline_answer("ok = torch.cuda.is_available()") == []


# --- app logs ----------------------------------------------------------------------------------------------

_TORCH_251 = [("package", {"name": "torch", "version": "2.5.1+cu124"}), ("torch.version", "2.5.1+cu124"),
              ("torch.cuda_version", "12.4"), ("torch.cuda_available", True),
              ("gpu.capability", {"name": None, "capability": "6.1"})]


@pytest.mark.parametrize("line, expected", [
    ("==((====))==  Unsloth 2025.3.9: Fast Qwen2 patching. Transformers: 4.49.0. vLLM: 0.7.3.",
     [("package", {"name": "unsloth", "version": "2025.3.9"}), ("package", {"name": "transformers", "version": "4.49.0"}),
      ("package", {"name": "vllm", "version": "0.7.3"})]),
    ("   \\\\   /|    NVIDIA GeForce GTX 1070. Num GPUs = 1. Max memory: 7.909 GB. Platform: Linux.",
     [_gpu("NVIDIA GeForce GTX 1070"), ("platform", "linux")]),
    ("   \\\\   /|    GPU: NVIDIA GeForce RTX 3090. Max memory: 23.691 GB. Platform = Linux.",
     [_gpu("NVIDIA GeForce RTX 3090"), ("platform", "linux")]),
    ("   \\\\   /|    Tesla T4. Num GPUs = 1. Max memory: 14.741 GB. Platform: Windows.", [_gpu("Tesla T4"), ("platform", "win32")]),
    ("O^O/ \\_/ \\    Torch: 2.5.1+cu124. CUDA: 6.1. CUDA Toolkit: 12.4. Triton: 3.1.0",
     _TORCH_251 + [("package", {"name": "triton", "version": "3.1.0"})]),
    ("O^O/ \\_/ \\    Pytorch: 2.2.0+cu121. CUDA = 8.6. CUDA Toolkit = 12.1.",
     [("package", {"name": "torch", "version": "2.2.0+cu121"}), ("torch.version", "2.2.0+cu121"),
      ("torch.cuda_version", "12.1"), ("torch.cuda_available", True), ("gpu.capability", {"name": None, "capability": "8.6"})]),
    ("\\        /    Bfloat16 = FALSE. FA [Xformers = 0.0.28.post3. FA2 = False]",
     [("package", {"name": "xformers", "version": "0.0.28.post3"})]),
    ("==((====))==  Unsloth: Fast Llama patching release 2024.4", [("package", {"name": "unsloth", "version": "2024.4"})]),
    ("Transformers: 4.49.0 is what I have", []),  # outside the banner
], ids=["version-line", "gpu-line", "old-gpu-line", "windows", "torch-line", "old-torch-line", "xformers", "old-release",
        "not-banner"])
def test_unsloth_banner(line, expected):
    assert logs.unsloth_banner(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("** Platform:2025-10-07T08:08:15.445829 -  2025-10-07T08:08:15.445866 - Linux2025-10-07T08:08:15.445902 - ",
     [("platform", "linux")]),
    ("** Platform: Windows", [("platform", "win32"), ("os.name", "Windows")]),
    ("** Python version:2025-08-06T19:41:12.899897 -  3.12.11 | packaged by Anaconda, Inc. | (main) [GCC 11.2.0]",
     [("python.version", "3.12.11")]),
    ("ollama: amdgpu [0] gfx1103 is not supported", [("gpu.present", "AMD"), ("gpu.gfx", "gfx1103")]),
    ('level=WARN source=amd_linux.go:378 msg="amdgpu is not supported (supported types:[gfx1030 gfx1100])" gpu=0 '
     'gpu_type=gfx1035', [("gpu.present", "AMD"), ("gpu.gfx", "gfx1035")]),
    ('level=DEBUG source=gpu.go:127 msg="detected GPUs" count=1 library=/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1',
     [("platform", "linux"), _gpu("NVIDIA Tegra integrated GPU", index=0)]),
    ('msg="detected GPUs" count=2 library=/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15', [("gpu.present", "NVIDIA")]),
    ("ggml_vulkan: 0 = AMD Radeon Graphics (RADV GFX1151) (radv) | uma: 1 | fp16: 1 | warp size: 64",
     [("gpu", {"name": "AMD Radeon Graphics", "vendor": None, "memory_mib": None, "index": 0}), ("gpu.gfx", "gfx1151")]),
    ("ggml_vulkan: 1 = NVIDIA GeForce RTX 3090 (NVIDIA) | uma: 0 | fp16: 1 | warp size: 32",
     [("gpu", {"name": "NVIDIA GeForce RTX 3090", "vendor": None, "memory_mib": None, "index": 1})]),
    ("built with GNU 11.4.0 for Linux x86_64", [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]),
    ("built with cc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0 for x86_64-linux-gnu",
     [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]),
    ("built with Apple clang version 15.0.0 (clang-1500.3.9.4) for x86_64-apple-darwin23.4.0", [("platform", "darwin")]),
    ("built with MSVC 19.39.33523.0 for x64", [("platform", "win32")]),
    ("rocBLAS error: Cannot read /home/u/env/lib/python3.9/site-packages/torch/lib/rocblas/library/TensileLibrary.dat",
     [("gpu.present", "AMD")]),
    ("RuntimeError: HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
     [("gpu.present", "AMD")]),
], ids=["comfy-stamped", "comfy-plain", "comfy-python", "ollama-old-gfx", "ollama-gpu-type", "ollama-tegra",
        "ollama-detected", "vulkan-apu", "vulkan-nvidia", "llama-build", "llama-triple", "llama-mac-x86-no-arch",
        "llama-msvc", "rocblas", "hip-error"])
def test_app_log_lines(line, expected):
    assert logs.app_log_lines(line) == expected


# --- keys and forms -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, expected", [
    ("system", "Debian 13 (with kernel 6.18.12 from backports)", [("platform", "linux"), ("os.name", "Debian 13")]),
    ("operating systems", "Linux", [("platform", "linux")]),
    ("operating systems", "Linux, Windows", []),  # a multi-select answer
    ("hardware", "Framework Desktop AI Max+ 395 (gfx1151 / 64GB)",
     [("gpu.gfx", "gfx1151"), ("cpu.memory_bytes", 64 * GIB), ("cpu.brand", "AMD Ryzen AI Max+ 395"), ("gpu.gfx", "gfx1151")]),
    ("specs", "i9-13900K / 64GB / RTX 4090",
     [("cpu.brand", "Intel Core i9"), _gpu("RTX 4090"), ("cpu.memory_bytes", 64 * GIB)]),
    ("nvidia driver version", "No CUDA", [("gpu.absent", "NVIDIA")]),
    ("nvidia driver version", "535.104.05", []),
], ids=["system-distro", "form-os", "form-several-os", "hardware-parens", "specs-list", "no-cuda", "driver"])
def test_keyed_facts(key, value, expected):
    assert rules.keyed_facts(key, value) == expected


@pytest.mark.parametrize("lines, expected", [
    (["sys.platform linux", "Numpy 1.17.4", "PyTorch 1.3.1", "torchvision 0.4.2", "CUDA available True", "Pillow 6.2.2"],
     {0: [("platform", "linux")], 1: [("package", {"name": "numpy", "version": "1.17.4"})],
      2: [("package", {"name": "torch", "version": "1.3.1"}), ("torch.version", "1.3.1")],
      3: [("package", {"name": "torchvision", "version": "0.4.2"})], 4: [("torch.cuda_available", True)],
      5: [("package", {"name": "pillow", "version": "6.2.2"})]}),
    (["PyTorch 1.3.1 is what I run", "numpy 1.17.4"], {}),  # no detectron2 table
    (["**pip show bitsandbytes**", "Name: bitsandbytes", "Version: 0.39.0", "Summary: k-bit optimizers"],
     {2: [("package", {"name": "bitsandbytes", "version": "0.39.0"})]}),
    (['msg="Searching for GPU management library libnvidia-ml.so"', 'msg="Discovered GPU libraries: []"'],
     {1: [("gpu.absent", "NVIDIA")]}),
    (['msg="Searching for GPU library" name=libcuda.so*', 'msg="discovered GPU libraries" paths=[]'],
     {1: [("gpu.absent", "NVIDIA")]}),
    (['msg="Searching for GPU library" name=libcudart.so*', 'msg="discovered GPU libraries" paths=[]'], {}),
    (["physical_devices = tf.config.list_physical_devices()", "",
      "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"], {2: [("tensorflow.no_gpu", True)]}),
    (["tf.config.list_physical_devices()", "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU'), "
      "PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]"], {}),
], ids=["detectron2-run-together", "no-table", "pip-show", "ollama-nvml-none", "ollama-libcuda-none",
        "ollama-cudart-is-bundled", "tf-cpu-only", "tf-with-gpu"])
def test_answers(lines, expected):
    assert rules.answers(lines) == expected


def test_detectron2_gpu_lists_count_each_index():
    found = device_facts(["GPU 0,1,2,3,4,5,6,7 GeForce RTX 2080 Ti", "GPU 0,1 NVIDIA A100-SXM4-40GB (arch=8.0)"])
    assert [v["index"] for _, v in found[0]] == list(range(8))
    assert found[1][1] == ("gpu", {"name": "NVIDIA A100-SXM4-40GB", "vendor": "NVIDIA", "memory_mib": None, "index": 1,
                                   "capability": "8.0"})


def test_ollama_uuid_block_capability():
    found = device_facts(["[GPU-d1bf94b9-edc1] CUDA totalMem 6857 mb", "[GPU-d1bf94b9-edc1] Compute Capability 7.2"])
    assert found[1] == [("gpu.capability_of", {"index": 0, "capability": "7.2"})]


# --- what the doctor concludes --------------------------------------------------------------------------------

_NO_CUDA_ENV = """PyTorch version: 2.1.2+cu121
Is debug build: False
CUDA used to build PyTorch: 12.1
OS: Ubuntu 22.04.4 LTS (x86_64)
Is CUDA available: False
GPU models and configuration: No CUDA
Nvidia driver version: No CUDA
"""


def test_no_cuda_rules_out_nvidia_but_not_amd():
    facts = _facts(_NO_CUDA_ENV)
    assert facts.gpus_ruled_out == ("NVIDIA",)
    assert wanted_accelerators(facts) == ("rocm", "cpu")  # an AMD GPU may still be there


def test_a_ruled_out_vendor_is_unmet_not_fits_if():
    facts = _facts(_NO_CUDA_ENV)
    cuda = next(r for r in RECIPES if r.name == "pytorch-cuda")
    assert [s.kind for s in shortfalls(cuda.requires, facts) if s.subject == "gpu_vendor"] == [UNMET]
    assert "gpus_ruled_out" in facts.sources


def test_no_cuda_beside_an_apu_leaves_the_cpu():
    facts = _facts(_NO_CUDA_ENV + "Model name: AMD Ryzen 5 6600H with Radeon Graphics\n")
    assert [(g.vendor, g.compute_capability) for g in facts.gpus] == [("AMD", "gfx1035")]
    assert recommendation(facts, RECIPES).recipe == "pytorch-cpu"
    levels = {f.check: f.level for f in run_checks(facts, RECIPES)}
    assert levels["rocm_target"] == "warn" and levels.get("torch_build") == "ok"  # no 'install a ROCm build'


def test_an_nvidia_gpu_in_the_text_is_not_ruled_out():
    facts = _facts(_NO_CUDA_ENV + "\nMy GPU:\n- NVIDIA GeForce RTX 3060\n")
    assert facts.gpus_ruled_out == () and wanted_accelerators(facts) == ("cuda",)


def test_a_card_no_rocm_build_runs_on_leaves_the_cpu():
    facts = _facts("OS: Ubuntu 22.04\nGPU: AMD Radeon RX 580\namdgpu [0] gfx803 is not supported\n")
    assert wanted_accelerators(facts) == ("cpu",)  # the named Radeon is the machine's GPU, as a Kepler card is
    facts = _facts("OS: Ubuntu 22.04\nGPU: AMD Radeon RX 7900 XTX\n")
    assert wanted_accelerators(facts) == ("rocm",)


def test_tensorflow_on_native_windows_names_wsl():
    facts = MachineFacts(platform="win32", os=OSFacts(system="Windows", name="Windows", version="11"), cpu=CPUFacts(brand="", hardware_arch="x86_64"),
                         gpus=(GPU(vendor="NVIDIA", model="NVIDIA GeForce RTX 4080"),),
                         frameworks={"tensorflow": FrameworkFacts("tensorflow", True, {"version": "2.18.0", "gpus": []})})
    finding = check_framework_gpu(facts)
    assert finding.level == "fail" and "native Windows" in finding.message and "wsl --install" in finding.fix.commands
    old = dataclasses.replace(facts, frameworks={"tensorflow": FrameworkFacts("tensorflow", True,
                                                                             {"version": "2.10.1", "gpus": []})})
    assert "native Windows" not in check_framework_gpu(old).message
