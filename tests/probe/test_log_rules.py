"""Facts read from tools' logs, interactive sessions and listings (paste/log_rules.py and the shapes added
beside it): each rule on literal lines, then what the facts conclude."""
from __future__ import annotations

import pytest

from macml.diagnose import run_checks
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.statements import read_statements
from macml.probe.paste.text import clean_lines
from macml.recipes.catalog import load_all


def stated(text: str):
    return {(s.fact, s.value if not isinstance(s.value, dict) else s.value.get("name"))
            for s in read_statements(clean_lines(text))}


def facts_of(text: str):
    return facts_from_snapshot(import_pastes([text]))


@pytest.mark.parametrize("text, name", [
    ("GPU 0                   GeForce GTX 1650 Ti with Max-Q Design (arch=7.5)", "GeForce GTX 1650 Ti with Max-Q Design"),
    ("NVIDIA TITAN Xp", "NVIDIA TITAN Xp"),
    ("NVIDIA TITAN X (Pascal)", "NVIDIA TITAN X (Pascal)"),  # nvidia-smi's name: the suffix tells it from the Maxwell TITAN X
    ('description="Radeon 8060S Graphics"', "Radeon 8060S Graphics"),
    ("Navi 48 [Radeon AI PRO R9700]", "Radeon AI PRO R9700"),
], ids=["max-q-design", "titan-xp", "titan-x-pascal", "radeon-igpu", "radeon-ai-pro"])
def test_gpu_names_keep_the_whole_model(text, name):
    assert gpu_names(text)[0] == name


def test_with_cuda_capability_is_not_part_of_the_name():
    assert gpu_names("NVIDIA GeForce RTX 4090 with CUDA capability sm_89") == ["NVIDIA GeForce RTX 4090"]


@pytest.mark.parametrize("line, fact", [
    ("[Clang 12.0.0 ] :: Anaconda, Inc. on darwin", ("platform", "darwin")),
    ("[GCC 11.4.0] on linux", ("platform", "linux")),
    ("0a:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI] Navi 48 "
     "[Radeon AI PRO R9700] [1002:7551] (rev c0)", ("gpu", "Radeon AI PRO R9700")),
    ("01:00.0 3D controller: NVIDIA Corporation TU104GL [Tesla T4] (rev a1)", ("gpu", "Tesla T4")),
    ("        Kernel driver in use: amdgpu", ("platform", "linux")),
    ('time=2026-06-04T14:14:20.147Z level=INFO source=types.go:32 msg="inference compute" id=0 library=ROCm '
     'compute=gfx1151 name=ROCm0 description="Radeon 8060S Graphics" driver=0.0 type=iGPU', ("gpu", "Radeon 8060S Graphics")),
    ('msg="inference compute" id=0 library=ROCm compute=gfx1151 name=ROCm0 description="Radeon 8060S Graphics"',
     ("gpu.gfx", "gfx1151")),
    ("- driver 570.172.8 for 13.0", ("gpu.driver", "570.172.8")),
    ("  0: Quadro RTX 4000 (sm_75, 7.601 GiB / 8.000 GiB available)", ("gpu", "Quadro RTX 4000")),
    ("ds4: Metal device Apple M4 Max, 128.00 GiB RAM", ("cpu.memory_bytes", 128 * 1024**3)),
    ('      "_name" : "kHW_AppleM1ProItem",', ("cpu.brand", "Apple M1 Pro")),
    ("2020-06-26 12:33:16.916743: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
     "dynamic library 'libcudart.so.10.1'; dlerror: libcudart.so.10.1: cannot open shared object file",
     ("tensorflow.missing_gpu_library", "libcudart.so.10.1")),
    ("	- release:           22.4.0", ("os.darwin", "22.4.0")),
    ("macOS Version: 26.3.1", ("os.version", "26.3.1")),
    ("System Version: 26.4", ("os.version", "26.4")),
    ("Unified Memory: 16.0 GB", ("cpu.memory_bytes", 16 * 1024**3)),
    ("Python Version: `3.12.5`", ("python.version", "3.12.5")),
    ("compressed-tensors Version: `0.18.1a20260818`", ("package", "compressed-tensors")),
    ("xformers version: 0.0.20", ("package", "xformers")),
], ids=["repl-banner-darwin", "repl-banner-linux", "lspci-amd", "lspci-nvidia", "lspci-kernel-driver",
        "ollama-compute-gpu", "ollama-compute-gfx", "cudajl-driver", "cudajl-device", "chip-beside-ram",
        "profiler-khw-item", "tf-missing-cudart", "darwin-release", "macos-version-key", "system-version-bare",
        "unified-memory", "backticked-value", "name-version-key", "lowercase-name-version"])
def test_a_line_states_a_fact(line, fact):
    assert fact in stated(line)


@pytest.mark.parametrize("line", [
    "Release:\t22.04",
    "Release: 20.04.6",
    "bios version: 1.2.3",
    "  - TITAN Xp is what I have, 12 GB RAM",
    "2020-06-26 W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library "
    "'libnvinfer.so.7'",
], ids=["lsb-release", "ubuntu-point-release", "bios-version", "ram-without-apple-chip", "tf-optional-tensorrt"])
def test_a_line_does_not_state_what_it_does_not_say(line):
    facts = {fact for fact, _ in stated(line)}
    assert not facts & {"os.darwin", "package", "cpu.memory_bytes", "tensorflow.missing_gpu_library"}


def test_a_repl_answer_is_the_interpreter_machine():
    text = ("$ python3\nPython 3.9.6 (default, Jun 28 2021, 19:24:41)\n[Clang 12.0.5 (clang-1205.0.22.9)] on darwin\n"
            ">>> import platform\n>>> platform.machine()\n'arm64'\n")
    facts = facts_of(text)
    assert (facts.platform, facts.interpreter.machine, facts.interpreter.version) == ("darwin", "arm64", "3.9.6")
    assert facts.cpu.hardware_arch == "arm64" and facts.rosetta is False


def test_two_interpreters_answering_differently_leave_the_machine_unknown():
    text = (">>> platform.machine()\n'arm64'\n$ arch -x86_64 /usr/bin/python3\n>>> platform.machine()\n'x86_64'\n")
    facts = facts_of(text)
    assert facts.interpreter is None or facts.interpreter.machine == ""


def test_a_journal_line_of_a_rocm_process_is_linux():
    line = ('Jun 04 14:14:20 node-01 ollama[220462]: time=2026-06-04T14:14:20.147Z level=INFO msg="inference compute" '
            'id=0 library=ROCm compute=gfx1151 name=ROCm0 description="Radeon 8060S Graphics"\n')
    facts = facts_of(line)
    assert facts.platform == "linux" and [g.model for g in facts.gpus] == ["Radeon 8060S Graphics"]
    quoted = "> " + line + "> " + line  # a Markdown quote of the journal
    assert facts_from_snapshot(import_pastes([quoted])).platform == "linux"


def test_a_cudajl_device_line_gives_capability_and_total_memory():
    gpu, = facts_of("1 device:\n  0: Quadro RTX 4000 (sm_75, 7.601 GiB / 8.000 GiB available)\n").gpus
    assert (gpu.compute_capability, gpu.memory_bytes) == ("7.5", 8192 * 1024**2)


def test_each_numbered_plaidml_device_is_one_gpu():
    text = ("   llvm_cpu.0 : CPU (via LLVM)\n"
            "   metal_amd_radeon_pro_vega_ii_duo.1 : AMD Radeon Pro Vega II Duo (Metal)\n"
            "   metal_amd_radeon_pro_vega_ii_duo.0 : AMD Radeon Pro Vega II Duo (Metal)\n"
            "   opencl_amd_radeon_pro_vega_ii_duo_compute_engine.1 : AMD AMD Radeon Pro Vega II Duo Compute Engine (OpenCL)\n")
    assert [g.model for g in facts_of(text).gpus] == ["AMD Radeon Pro Vega II Duo"] * 2


def test_collect_env_library_lines_before_a_report_are_packages():
    text = ("[conda] torchmetrics              0.10.2                   pypi_0    pypi\n"
            "[conda] torchvision               0.14.0                 py39_cpu    pytorchCollecting environment information...\n"
            "PyTorch version: 1.13.0\nOS: Ubuntu 20.04.5 LTS (x86_64)\n")
    packages = facts_of(text).interpreter.packages
    assert (packages["torchvision"], packages["torchmetrics"], packages["torch"]) == ("0.14.0", "0.10.2", "1.13.0")


def test_proc_cpuinfo_flags_are_linux_cpu_flags():
    text = "$ grep flags /proc/cpuinfo\nflags\t\t: fpu vme de pse tsc msr pae sse sse2 lm avx ssse3 cx16\n"
    facts = facts_of(text)
    assert facts.platform == "linux" and facts.cpu.hardware_arch == "x86_64"
    assert "avx" in facts.cpu.flags and "avx2" not in facts.cpu.flags
    findings = {f.check: f for f in run_checks(facts, load_all())}
    assert findings["cpu_features"].level == "warn" and "AVX2" in findings["cpu_features"].message


def test_system_profiler_memory_json_is_the_memory_size():
    text = ('{\n  "SPMemoryDataType" : [\n    {\n      "dimm_type" : "lp_ddr4",\n      "SPMemoryDataType" : "8 GB"\n'
            '    }\n  ]\n}%\n')
    assert facts_of(text).cpu.memory_bytes == 8 * 1024**3


def test_an_untranslated_apple_gpu_item_names_the_chip_and_its_gpu():
    text = '{\n  "SPDisplaysDataType" : [\n    {\n      "_name" : "kHW_AppleM1Item",\n      "sppci_cores" : "8"\n    }\n  ]\n}\n'
    facts = facts_of(text)
    assert facts.cpu.chip.name == "Apple M1" and [g.vendor for g in facts.gpus] == ["Apple"]


def test_tensorflow_without_its_cuda_libraries_fails_framework_gpu():
    log = ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:1561] Found device 0 with properties: \n"
           "pciBusID: 0000:0b:00.0 name: TITAN Xp computeCapability: 6.1\n"
           "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library "
           "'libcudart.so.10.1'; dlerror: libcudart.so.10.1: cannot open shared object file\n")
    facts = facts_of(log)
    assert facts.frameworks["tensorflow"].data["missing_gpu_libraries"] == ["libcudart.so.10.1"]
    finding = {f.check: f for f in run_checks(facts, load_all())}["framework_gpu"]
    assert finding.level == "fail" and "libcudart.so.10.1" in finding.message


def test_a_created_gpu_device_means_tensorflow_uses_it():
    log = ("W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library 'libcudnn.so.7'\n"
           "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1241] Created TensorFlow device "
           "(/job:localhost/replica:0/task:0/device:GPU:0 with 10 MB memory)\n")
    assert "tensorflow" not in facts_of(log).frameworks
