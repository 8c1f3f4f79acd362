"""Set 6's Linux and Windows rules, fed literal lines: torch asked in a REPL or a one-liner, torch's old-GPU
warning, YOLOv5 / Ultralytics output, llama.cpp's devices, ds_report, issue templates' hinted keys, drivers
in prose, `uname -a`, platform.platform(), `free -h`, bare metal, torch wheels and pins; and what the doctor
concludes from them (a Raspberry Pi's GPU, a stated bare-metal machine, a torch whose build is not shown)."""
import pytest

from macml.diagnose import run_checks
from macml.knowledge.hardware import nvidia_compute_capability, raspberry_pi_kernel
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes, linux_app_rules as rules
from macml.probe.paste.gpu_names import gib, gpu_value
from macml.probe.paste.inline_rules import anywhere
from macml.probe.paste.statement_rules import by_key
from macml.recipes.catalog import load_all

GIB = 1024 ** 3


def _gpu(name, index=None, capability=None, memory=None, vendor="NVIDIA"):
    value = {"name": name, "vendor": vendor, "memory_mib": memory, "index": index}
    if capability:
        value["capability"] = capability
    return ("gpu", value)


def _torch(version):
    return [("package", {"name": "torch", "version": version}), ("torch.version", version)]


@pytest.mark.parametrize("line, expected", [
    ("torch.cuda.is_available() returns False", [("torch.cuda_available", False)]),
    ("but `torch.cuda.is_available()` -> True on the host", [("torch.cuda_available", True)]),
    ("print(torch.cuda.is_available()) gives False", [("torch.cuda_available", False)]),
    ("torch.version.cuda == 11.8", [("torch.cuda_version", "11.8")]),
    ("torch.__version__ is 2.1.0+cu121", _torch("2.1.0+cu121")),
    ("why does torch.cuda.is_available() return False?", []),
    ("torch.cuda.is_available() should return True", []),
], ids=["returns", "arrow-in-backticks", "print-gives", "double-equals-cuda", "version-is", "question-not-answer",
        "wish-not-answer"])
def test_torch_inline_answer(line, expected):
    assert rules.torch_inline_answer(line) == expected


@pytest.mark.parametrize("lines, expected", [
    ([">>> torch.cuda.is_available()", "True"], {1: [("torch.cuda_available", True)]}),
    ([" torch.cuda.is_available() ", "True"], {1: [("torch.cuda_available", True)]}),
    (["`torch.version.cuda`", "returns 8.0"], {1: [("torch.cuda_version", "8.0")]}),
    (['python -c "import torch; print(torch.__version__, torch.cuda.is_available())"', "2.1.0+cu121 True"],
     {1: _torch("2.1.0+cu121") + [("torch.cuda_available", True)]}),
    ([">>> torch.cuda.get_device_name(0)", "'NVIDIA GeForce RTX 4090'"], {1: [_gpu("NVIDIA GeForce RTX 4090", 0)]}),
    (["In [3]: torch.__version__", "Out[3]: '1.13.1'"], {1: _torch("1.13.1")}),
    ([">>> torch.cuda.is_available()", "Traceback (most recent call last):"], {}),
    (["I ran torch.cuda.is_available() and", "it hung"], {}),
    (["Driver Version: 515.105.01   ", "CUDA Version: 11.7 "], {1: [("gpu.cuda_driver", "11.7")]}),
    (["CUDA Version: 11.7"], {}),
], ids=["repl", "bare-expression", "backticks-returns", "one-liner-two-answers", "device-name", "ipython",
        "traceback-not-answer", "prose-not-asking", "split-nvidia-smi-header", "cuda-version-alone-is-any-cuda"])
def test_answers(lines, expected):
    assert rules.answers(lines) == expected


@pytest.mark.parametrize("line, expected", [
    ("    Found GPU0 GeForce GTX 670M which is of cuda capability 2.1.",
     [_gpu("GeForce GTX 670M", 0, "2.1"), ("torch.incompatible", "2.1")]),
    ("UserWarning: Found GPU1 NVIDIA GeForce GT 730 which is of cuda capability 3.5.",
     [_gpu("NVIDIA GeForce GT 730", 1, "3.5"), ("torch.incompatible", "3.5")]),
    ("Found GPU%d %s which is of cuda capability %d.%d.", []),
], ids=["fermi", "kepler-second-gpu", "placeholders-pasted"])
def test_torch_old_gpu(line, expected):
    assert rules.torch_old_gpu(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("YOLOv5 v4.0-14-gb75c432 torch 1.7.1 CPU", _torch("1.7.1")),
    ("YOLOv5 🚀 v6.1-25-g6f7d5c3 torch 1.10.2+cu113 CUDA:0 (NVIDIA GeForce RTX 3090, 24268MiB)",
     _torch("1.10.2+cu113") + [_gpu("NVIDIA GeForce RTX 3090", 0, memory=24268), ("torch.cuda_available", True)]),
    ("Ultralytics YOLOv8.0.20 🚀 Python-3.10.9 torch-1.13.1+cu117 CUDA:0 (Tesla T4, 15102MiB)",
     _torch("1.13.1+cu117") + [_gpu("Tesla T4", 0, memory=15102), ("python.version", "3.10.9"),
                               ("torch.cuda_available", True)]),
    ("                                                   CUDA:1 (Tesla V100-SXM2-16GB, 16160MiB)",
     [_gpu("Tesla V100-SXM2-16GB", 1, memory=16160)]),
    ("Ultralytics 8.3.40 🚀 Python-3.10.12 torch-2.5.1+cu124 CPU (Intel Core(TM) i7-10750H 2.60GHz)",
     _torch("2.5.1+cu124") + [("python.version", "3.10.12"), ("cpu.brand", "Intel Core(TM) i7-10750H 2.60GHz")]),
    ("Ultralytics YOLOv8.2.0 🚀 Python-3.11.5 torch-2.2.2 MPS (Apple M1 Pro)",
     _torch("2.2.2") + [("python.version", "3.11.5"), ("platform", "darwin"), ("metal.in_use", "mps")]),
    ("torch 1.7.1 CPU", []),
], ids=["yolov5-cpu", "yolov5-cuda", "ultralytics-cuda", "second-cuda-device", "cpu-named", "mps", "no-banner"])
def test_yolo_banner(line, expected):
    assert rules.yolo_banner(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("numpy               ✅ 1.24.2<2.0.0,>=1.23.0", [("package", {"name": "numpy", "version": "1.24.2"})]),
    ("opencv-python       ✅ 4.10.0.84>=4.6.0", [("package", {"name": "opencv-python", "version": "4.10.0.84"})]),
    ("torch               ❌ 1.7.0>=1.8.0", _torch("1.7.0")),
    ("psutil              ✅ 5.9.4", [("package", {"name": "psutil", "version": "5.9.4"})]),
    ("onnx                ❌ (not installed)", []),
], ids=["met", "four-part-version", "unmet-still-installed", "no-requirement", "not-installed"])
def test_check_row(line, expected):
    assert rules.check_row(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes", [_gpu("NVIDIA GeForce RTX 3090", 0, "8.6")]),
    ("ggml_cuda_init: Device 1: Tesla P40, compute capability 6.1, VMM: yes", [_gpu("Tesla P40", 1, "6.1")]),
    ("  Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no, Wave Size: 32",
     [_gpu("AMD Radeon RX 7900 XTX", 0, vendor="AMD"), ("gpu.gfx", "gfx1100")]),
    ('Device 0: "GeForce RTX 2070"', []),
], ids=["cuda", "prefixed", "rocm-gfx", "device-query-is-not-llama"])
def test_llama_device(line, expected):
    assert rules.llama_device(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("torch version .................... 1.7.1+cu110", _torch("1.7.1+cu110")),
    ("torch cuda version ............... 11.0", [("torch.cuda_version", "11.0")]),
    ("deepspeed info ................... 0.6.5, unknown, unknown", [("package", {"name": "deepspeed", "version": "0.6.5"})]),
    ("nvcc version ..................... 11.3", []),
    ("torch install path ............... ['/usr/lib/python3/dist-packages/torch']", []),
    ("async_io ............... [NO] ....... [OKAY]", []),
], ids=["torch", "torch-cuda", "deepspeed-info", "nvcc-is-the-toolkit", "path", "op-table"])
def test_dotted_report(line, expected):
    assert rules.dotted_report(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Windows 10", [("platform", "win32"), ("os.name", "Windows 10")]),
    ("**OS Platform and Distribution (e.g., Linux Ubuntu 16.04)**: Ubuntu 20.04",
     [("platform", "linux"), ("os.name", "Ubuntu 20.04")]),
    ("- TensorFlow version (use command below): 1.13.0rc0", [("package", {"name": "tensorflow", "version": "1.13.0rc0"})]),
    ("- TensorFlow installed from (source or binary): binary", []),
    ("- Mobile device (e.g. iPhone 8, Pixel 2, Samsung Galaxy) if the issue happens on mobile device: N/A", []),
], ids=["os-windows", "os-bold", "version-use-command", "source-or-binary", "hint-mid-key"])
def test_template_key(line, expected):
    assert rules.template_key(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Driver version 435.21，CUDA 10.1", [("gpu.driver", "435.21")]),
    ("- **GPU 0:** NVIDIA RTX A5000 | 24564 MiB | driver 595.71.05 | VBIOS 94.02.6D.00.0E", [("gpu.driver", "595.71.05")]),
    ("NVIDIA driver is 535.104.05", [("gpu.driver", "535.104.05")]),
    ("  CUDA Driver Version:                           11.2", []),
    ("driver 2.1.0 of the toolkit", []),
    ("Driver Version: 31.0.15.3623", []),
], ids=["prose", "rig-report-cell", "is", "cuda-driver-version", "not-nvidia-numbering", "windows-store-version"])
def test_driver_in_words(line, expected):
    assert rules.driver_in_words(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("On WSL 2 / 20231.10005 / Linux 4.19.128-microsoft-standard #1 SMP Tue Jun 23 12:58:10 UTC 2020 x86_64 x86_64 x86_64 GNU/Linux",
     [("platform", "linux"), ("cpu.hardware_arch", "x86_64"), ("os.kernel", "4.19.128-microsoft-standard")]),
    ("Linux jetson 5.10.120-tegra #1 SMP PREEMPT Tue Aug 1 12:32:50 PDT 2023 aarch64 aarch64 aarch64 GNU/Linux",
     [("platform", "linux"), ("cpu.hardware_arch", "aarch64"), ("os.kernel", "5.10.120-tegra")]),
    ("Linux raspberrypi 6.1.21-v8+ #1642 SMP PREEMPT Mon Apr  3 17:24:16 BST 2023 aarch64 GNU/Linux",
     [("platform", "linux"), ("cpu.hardware_arch", "aarch64"), ("os.kernel", "6.1.21-v8+")]),
    ("Linux is my OS, x86_64 too", []),
], ids=["wsl-in-prose", "jetson", "raspberry-pi-one-arch-word", "words-only"])
def test_kernel_line_uname(line, expected):
    assert rules.kernel_line(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("OS                  Linux-6.6.31+rpt-rpi-v8-aarch64-with-glibc2.36", [("platform", "linux"), ("os.kernel", "6.6.31+rpt-rpi-v8")]),
    ("Platform: Linux-5.15.0-91-generic-x86_64-with-glibc2.35", [("platform", "linux"), ("os.kernel", "5.15.0-91-generic")]),
    ("Windows-10-10.0.19045-SP0", []),
], ids=["raspberry-pi", "ubuntu", "windows"])
def test_kernel_line_platform_string(line, expected):
    assert rules.kernel_line(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Mem:           15Gi       7.1Gi       1.2Gi       512Mi       7.0Gi       7.6Gi", [("cpu.memory_bytes", 15 * GIB)]),
    ("Mem:            62G        12G        40G", [("cpu.memory_bytes", 62 * GIB)]),
    ("Mem:       16303388     5123456", []),
    ("MemTotal:       16303388 kB", [("cpu.memory_bytes", 16303388 * 1024)]),
    ("  Virtualization: kvm", [("platform", "linux"), ("hypervisor", "KVM")]),
    ("      Virtualization: oracle", [("platform", "linux"), ("hypervisor", "VirtualBox")]),
    ("Virtualization:      VT-x", []),
    ("Virtualization: wsl", []),
    ("        Architecture: x86-64", [("cpu.hardware_arch", "x86_64")]),
    ("Architecture:            aarch64", [("cpu.hardware_arch", "aarch64")]),
], ids=["free-h", "free-g", "kibibytes-without-unit", "meminfo", "hostnamectl-kvm", "hostnamectl-virtualbox",
        "lscpu-cpu-feature", "wsl-is-no-vm-here", "hostnamectl-arch", "lscpu-arch"])
def test_system_answers(line, expected):
    assert rules.system_answers(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("_CudaDeviceProperties(name='NVIDIA GeForce RTX 3090', major=8, minor=6, total_memory=24259MB, multi_processor_count=82)",
     [_gpu("NVIDIA GeForce RTX 3090", None, "8.6", 24259)]),
    ("_CudaDeviceProperties(name='NVIDIA H100 80GB HBM3', major=9, minor=0, total_memory=81008MB, multi_processor_count=132, "
     "uuid=a1b2, L2_cache_size=50MB)", [_gpu("NVIDIA H100 80GB HBM3", None, "9.0", 81008)]),
    ("_CudaDeviceProperties(name='AMD Radeon RX 7900 XTX', major=11, minor=0, gcnArchName='gfx1100', total_memory=24560MB, "
     "multi_processor_count=48)", [_gpu("AMD Radeon RX 7900 XTX", None, None, 24560, vendor="AMD"), ("gpu.gfx", "gfx1100")]),
], ids=["nvidia", "newer-torch-fields", "rocm-gcn-arch"])
def test_device_properties(line, expected):
    assert rules.device_properties(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("- **Environment:** bare metal", [("hypervisor.none", True)]),
    ("Virtualization: none", [("hypervisor.none", True)]),
    ("VM: no", [("hypervisor.none", True)]),
    ("Environment         Linux", []),
    ("Virtualization:        VT-x", []),
], ids=["rig-report", "virtualization-none", "vm-no", "environment-names-the-os", "lscpu-cpu-feature"])
def test_system_answers_bare_metal(line, expected):
    assert rules.system_answers(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("pip3 install https://download.pytorch.org/whl/cu100/torch-1.0.1.post2-cp35-cp35m-linux_x86_64.whl",
     [("torch.cuda_version", "10.0"), ("python.minor", "3.5"), ("platform", "linux"), ("python.machine", "x86_64")]),
    ("https://download.pytorch.org/whl/cu92/torch-0.4.1-cp36-cp36m-linux_x86_64.whl",
     [("torch.cuda_version", "9.2"), ("python.minor", "3.6"), ("platform", "linux"), ("python.machine", "x86_64")]),
    ("pip install https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl",
     [("torch.cuda_version", "11.8"), ("python.minor", "3.10"), ("platform", "linux"), ("python.machine", "x86_64")]),
    ("https://download.pytorch.org/whl/cpu/torch-2.1.0%2Bcpu-cp311-cp311-win_amd64.whl", [("torch.cuda_version", None)]),
    ("pip install torch --index-url https://download.pytorch.org/whl/cu121", []),
], ids=["cu100-old-tag", "cu92", "cu118-escaped-local", "cpu-index", "index-without-wheel"])
def test_torch_wheel(line, expected):
    assert rules.torch_wheel(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("My environment is `pytorch==1.7.1+cu110` and `deepspeed==0.6.5`", _torch("1.7.1+cu110")),
    ("torch==2.1.0", _torch("2.1.0")),
    ("I'm using torch==2.0.1+cu118 on Ubuntu", _torch("2.0.1+cu118")),
    ("pip install torch==2.0.1", []),
    ("# Collecting torch==2.0.1", []),
    ("ERROR: No matching distribution found for torch==2.4.1", []),
    ("The same behaviour is seen with `torch==1.13.1` as well.", []),
    ("libtorch==1.0", []),
], ids=["conda-name", "freeze-line", "using", "install-command", "collecting", "pip-error", "tried-another", "other-package"])
def test_torch_pin(line, expected):
    assert rules.torch_pin(line) == expected


# --- the small edits to the shared rules ---

@pytest.mark.parametrize("value, expected", [
    ("15Gi total, 7.6Gi available", 15 * GIB), ("512Mi", 512 * 1024 ** 2), ("16 GB", 16 * GIB),
], ids=["free-gi", "free-mi", "gb"])
def test_gib_reads_free_units(value, expected):
    assert gib(value) == expected


def test_gpu_value_reads_pipe_cells():
    assert gpu_value("NVIDIA RTX A5000 | 24564 MiB | driver 595.71.05 | VBIOS 94.02.6D.00.0E", 0) == [
        _gpu("NVIDIA RTX A5000", 0, memory=24564)]


@pytest.mark.parametrize("key, value, expected", [
    ("platform", "Windows-10-10.0.19045-SP0", [("platform", "win32")]),
    ("os", "Linux-6.6.31+rpt-rpi-v8-aarch64-with-glibc2.36", [("platform", "linux")]),
    ("swap", "4.0Gi", []), ("totalmemory", "2.00GiB", []), ("bogomips", "4799.99", []),
    ("cuda used to build pytorch", "None", [("torch.cuda_version", None)]),
], ids=["platform-string-is-no-os-name", "linux-platform-string", "size-is-no-version", "gib-is-no-version",
        "bogomips", "cuda-none-is-stated"])
def test_by_key_edits(key, value, expected):
    assert by_key(key, value) == expected


def test_cuda_driver_version_is_not_the_driver():
    assert ("gpu.driver", "11.2") not in anywhere("  CUDA Driver Version:                           11.2")
    assert ("gpu.driver", "470.129.06") in anywhere("NVIDIA-SMI 470.129.06   Driver Version: 470.129.06   CUDA Version: 11.4")


def test_tensorflow_total_memory_stays_with_its_device():
    text = ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:1405] Found device 0 with properties:\n"
            "name: GeForce 820M major: 2 minor: 1 memoryClockRate(GHz): 1.25\npciBusID: 0000:08:00.0\n"
            "totalMemory: 2.00GiB freeMemory: 1.65GiB\n")
    facts = facts_from_snapshot(import_pastes([text]))
    assert [(g.model, g.compute_capability, g.memory_bytes // 1024 ** 2) for g in facts.gpus] == [("GeForce 820M", "2.1", 2048)]


@pytest.mark.parametrize("name, capability", [
    ("Tesla K20m", "3.5"), ("Tesla K20Xm", "3.5"), ("Tesla K40m", "3.5"), ("GeForce GTX 670M", "2.1"),
    ("GeForce 820M", "2.1"), ("GeForce GTX 660M", "3.0"), ("GeForce GTX 680M", "3.0"),
], ids=["k20m", "k20xm", "k40m", "fermi-670m", "fermi-820m", "kepler-660m", "kepler-680m"])
def test_capability_table(name, capability):
    assert nvidia_compute_capability(name) == capability


@pytest.mark.parametrize("release, expected", [
    ("6.6.31+rpt-rpi-v8", True), ("6.6.51+rpt-rpi-2712", False), ("6.1.21-v8+", True), ("5.10.103-v7l+", True),
    ("5.15.0-1034-raspi", True), ("6.8.0-111-generic", False), ("5.10.120-tegra", False), (None, False),
], ids=["rpt-v8", "pi5-takes-pcie-gpus", "old-v8", "old-v7l", "ubuntu-raspi", "generic", "jetson", "unknown"])
def test_raspberry_pi_kernel(release, expected):
    assert raspberry_pi_kernel(release) is expected


# --- what the doctor concludes ---

def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def test_raspberry_pi_has_only_its_videocore():
    facts = _facts("OS                  Linux-6.6.31+rpt-rpi-v8-aarch64-with-glibc2.36\nPython              3.11.2\n"
                   "torch               ✅ 2.3.1>=1.8.0\n")
    assert facts.cpu.hardware_arch == "aarch64"
    assert [g.vendor for g in facts.gpus] == ["Broadcom"] and facts.gpu_list_known


def test_unknown_kernel_keeps_the_gpu_list_open():
    facts = _facts("OS                  Linux-5.15.0-91-generic-x86_64-with-glibc2.35\n")
    assert not facts.gpus and not facts.gpu_list_known


@pytest.mark.parametrize("text, vm", [
    ("- **OS:** Ubuntu 24.04.4 LTS\n- **Environment:** bare metal\n", False),
    ("- **OS:** Ubuntu 24.04.4 LTS\n", None),
    ("Hypervisor vendor:     KVM\nVirtualization: none\n", True),
], ids=["stated-bare-metal", "unstated", "hypervisor-outranks"])
def test_stated_bare_metal(text, vm):
    assert _facts(text).vm is vm


def _torch_build(text):
    facts = _facts(text)
    return {f.check: f for f in run_checks(facts, load_all())}["torch_build"].level


@pytest.mark.parametrize("text, level", [
    ("Tesla M40\nDriver Version: 515.105.01\ntorch: 2.1.1\n", "ok"),
    ("NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2\nPyTorch version: 2.1.1\n"
     "CUDA used to build PyTorch: None\n", "fail"),
    ("GeForce RTX 3090\nDriver Version: 535.104.05\ntorch==2.1.1+cpu\n", "fail"),
    ("GeForce RTX 3090\nThe NVIDIA driver on your system is too old (found version 10010).\nYOLOv5 v4.0 torch 1.7.1 CPU\n", "ok"),
], ids=["bare-version-names-no-build", "stated-cpu-build", "cpu-tag", "driver-check-means-cuda-build"])
def test_torch_build_only_from_stated_builds(text, level):
    assert _torch_build(text) == level
