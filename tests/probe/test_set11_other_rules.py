"""Set 11's 'other' rules (graphics_tool_rules, spec_prose_rules, python_prose_rules), fed literal lines; the knowledge and the
recommendation they feed (a discrete Arc written without its letter, a Radeon on Windows)."""
import pytest

from macml.knowledge.hardware import intel_discrete_gpu
from macml.probe.collect import facts_from_snapshot
from macml.probe.linux import LSCPU, build_facts
from macml.probe.paste import graphics_tool_rules as tools
from macml.probe.paste import import_pastes
from macml.probe.paste import python_prose_rules as python
from macml.probe.paste import spec_prose_rules as prose
from macml.probe.paste.gpu_names import gpu_vendor
from macml.probe.runner import CommandResult
from macml.recipes.recommend import wanted_accelerators


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


# --- graphics tools ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "Vulkan0: AMD Radeon RX 580 Series (RADV POLARIS10) (radv) | uma: 0 | fp16: 0 | warp size: 64",
    "ggml_vulkan: 0 = AMD Radeon RX 6700 XT (RADV NAVI22) (radv) | uma: 0 | fp16: 1 | warp size: 64",
    "    Device: AMD Radeon RX 5600 XT (navi10, LLVM 13.0.1, DRM 3.42, 5.15.0-56-generic) (0x731f)",
    "OpenGL renderer string: AMD Radeon Graphics (radeonsi, gfx1036, LLVM 15.0.7, DRM 3.54, 6.5.0-14-generic)",
], ids=["ggml-radv", "ggml-radv-navi22", "glxinfo-device", "glxinfo-renderer"])
def test_mesa_names_linux(line):
    assert tools.mesa_linux(line) == [("platform", "linux")]


@pytest.mark.parametrize("line", [
    "Vulkan0: AMD Radeon RX 6600 XT (AMD proprietary driver) | uma: 0 | fp16: 1 | warp size: 64",
    "Radeon driver 23.11.1 installed",
    "OpenGL renderer string: Apple M1",
], ids=["windows-amd-driver", "prose", "mac"])
def test_mesa_not_named(line):
    assert tools.mesa_linux(line) == []


@pytest.mark.parametrize("key, value, mib", [
    ("video memory", "6144MB", 6144), ("dedicated video memory", "8192 MB", 8192), ("video memory", "512 MiB", 512),
    ("video memory", "64MB", None), ("total memory", "6144MB", None),
], ids=["glx-mesa", "glx-nvx", "mib", "too-small", "other-key"])
def test_glx_video_memory(key, value, mib):
    facts = tools.glx_video_memory(key, value)
    assert (facts[0][1]["memory_mib"] if facts else None) == mib


@pytest.mark.parametrize("value, linux", [("amdgpu", True), ("i915", True), ("nouveau", True), ("nvidia", False),
                                          ("Microsoft Basic Display", False)])
def test_kernel_driver(value, linux):
    assert bool(tools.kernel_driver("driver", value)) == linux


FASTFETCH = """  {
    "type": "Memory",
    "result": {
      "total": 33247907840,
      "used": 3278094336
    },
    "stat": 0
  },""".splitlines()


def test_fastfetch_memory():
    assert tools.fastfetch_memory(FASTFETCH) == {3: [("cpu.memory_bytes", 33247907840)]}
    assert tools.fastfetch_memory([l.replace('"Memory"', '"Swap"') for l in FASTFETCH]) == {}


SHOWHW = """GPU  NODE  DID     GUID   GFX VER   GFX RAS  SDMA RAS  UMC RAS  VBIOS              BUS           PARTITION ID
0    1     0x7480  3799   gfx11002  N/A      N/A       N/A      113-APM7076OC-100  0000:03:00.0  0
1    2     0x164e  39463  gfx1036   N/A      N/A       N/A      102-RAPHAEL-008    0000:12:00.0  0
""".splitlines()


def test_rocm_smi_showhw():
    found = tools.rocm_smi_showhw(SHOWHW)
    assert found[0] == [("platform", "linux")]
    assert [found[i][0][1]["index"] for i in (1, 2)] == [0, 1]
    assert all(found[i][0][1]["vendor"] == "AMD" for i in (1, 2))
    facts = _facts("\n".join(SHOWHW))
    assert facts.platform == "linux" and [g.vendor for g in facts.gpus] == ["AMD", "AMD"]


# --- issue prose ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, fact, value", [
    ("- OS: [Ubuntu 24.04.]", "os.name", "Ubuntu 24.04"),
    ("- OS: [Ubuntu, OD]", "os.name", "Ubuntu"),
    ("- OS: [Windows11]", "os.name", "Windows 11"),
    ("- NVIDIA Driver Version [470.57.02]", "gpu.driver", "470.57.02"),
    ("- NVIDIA Driver Version [470.57.02]", "gpu.present", "NVIDIA"),
], ids=["os-version", "os-comma", "windows-joined", "driver", "driver-means-gpu"])
def test_template_answer(line, fact, value):
    assert (fact, value) in prose.template_answer(line)


@pytest.mark.parametrize("line", ["- CUDA Version [e.g. 11.4]", "- OpenVINO Version [Optional e.g. v2021.4.2]",
                                  "- OS: [e.g. Ubuntu 20.04]"], ids=["eg", "optional", "eg-os"])
def test_template_example_is_no_answer(line):
    assert prose.template_answer(line) == []


def test_semicolon_specs():
    facts = prose.semicolon_specs("CPU: Intel i9-10900; GPU: RX 7900 XTX 24GB; RAM: 128GB DDR4; ")
    assert ("cpu.memory_bytes", 128 * 1024**3) in facts
    assert prose.semicolon_specs("RAM: 16GB DDR4") == []


@pytest.mark.parametrize("line, name", [
    ("OS is win11, I notice koboldcpp 1.64.1 has vulkan", "Windows 11"),
    ("System: Win11, R5 7500F, AMD RX 9070 16GB, 32GB RAM", "Windows 11"),
    ("Windows 10 (64bit, updated)", "Windows 10"),
    ("I try to make it work on Win10 with an RX 580", "Windows 10"),
], ids=["os-is", "system-list", "alone-on-line", "on-win10"])
def test_windows_named(line, name):
    assert prose.windows_named(line) == [("platform", "win32"), ("os.name", name)]


@pytest.mark.parametrize("line", ["I moved from win10 to Ubuntu under wsl2", "not on win11 anymore",
                                  "winget install python", "Windows 10 and Ubuntu dual boot",
                                  "download llama-b1234-bin-win10-x64.zip"],
                         ids=["wsl", "negated", "winget", "not-alone", "file-name"])
def test_windows_not_named(line):
    assert prose.windows_named(line) == []


@pytest.mark.parametrize("line, name", [
    ("My device runs Ubuntu with dual AMD GPUs, both are RX 7900 XTX.", "Ubuntu"),
    ("Installed WSL 2, and used Ubuntu 20.04, I ran wsl --update", "Ubuntu 20.04"),
    ("I have tried arch and ubuntu, and this time Fedora. Nothing works.", "Fedora"),
    ("-----wsl2 ubuntu 22.04-------", "ubuntu 22.04"),
    ("=== Debian 12.5 ===", "Debian 12.5"),
], ids=["runs", "used-version", "this-time", "wsl-title", "title"])
def test_distro_named(line, name):
    assert prose.distro_named(line) == [("platform", "linux"), ("os.name", name)]


@pytest.mark.parametrize("line", ["I'm not using Ubuntu", "There was no problem when I used Vega64 on ubuntu or arch.",
                                  "switched from Ubuntu to Windows"], ids=["negated", "lowercase-either", "from"])
def test_distro_not_named(line):
    assert prose.distro_named(line) == []


@pytest.mark.parametrize("line, name, vendor", [
    ("when using the vulkan backend with rx 6600 xt on windows 11, it crashes", "rx 6600 xt", "AMD"),
    ("I try to make it work on Win11 with Inter Arc770,but the following error occurred", "Inter Arc770", "Intel"),
    ("my Radeon 6800xt runs hot", "Radeon 6800xt", "AMD"),
    ("I have an RTX 3060 and 32GB", "RTX 3060", "NVIDIA"),
], ids=["informal-rx", "arc-typo", "bare-radeon", "informal-rtx"])
def test_owned_gpu(line, name, vendor):
    owned = prose.owned_gpu(line)
    assert owned and owned[0][0] == "gpu.owned" and owned[0][1]["name"] == name and owned[0][1]["vendor"] == vendor


def test_owned_gpu_dash_and_negation():
    assert prose.owned_gpu("GPU - Radeon 6900xt")[0][1]["name"] == "Radeon 6900xt"
    assert prose.owned_gpu("I don't have an rx 6600 xt") == []
    assert prose.owned_gpu("recommended: a 4090 or rx 7900 xtx") == []


def test_same_gpus():
    facts = prose.same_gpus("My device runs Ubuntu with dual AMD GPUs, both are RX 7900 XTX.")
    assert [f[1]["name"] for f in facts] == ["RX 7900 XTX", "RX 7900 XTX"]
    assert len(prose.same_gpus("three GPUs, all RTX 3090")) == 3
    assert prose.same_gpus("dual GPUs, both are fine") == []


@pytest.mark.parametrize("line, present", [
    ("When I run nvidia-smi I can see my 3 GPUs, however when I try to run torch.cuda.is_available() I get False", True),
    ("Any thought? (they are visible in the host - nvidia-smi validated.)", True),
    ("bash: nvidia-smi: command not found", False),
    ("nvidia-smi shows no devices were found", False),
    ("Should I run nvidia-smi?", False),
], ids=["sees", "validated", "not-found", "no-devices", "question"])
def test_nvidia_smi_sees(line, present):
    assert (prose.nvidia_smi_sees(line) == [("gpu.present", "NVIDIA")]) == present


def test_cuda_of_driver():
    assert prose.smi_cuda_keyed("cuda version (from nvidia-smi)", "13.0") == [("gpu.cuda_driver", "13.0")]
    assert prose.smi_cuda_keyed("cuda version", "13.0") == []
    assert prose.driver_and_cuda("NVIDIA GeForce RTX 3050 (6 GB VRAM, Driver v591.86, CUDA 13.1)") == [("gpu.cuda_driver", "13.1")]
    assert prose.driver_and_cuda("I installed CUDA 12.1 and driver 535") == []


@pytest.mark.parametrize("line, facts", [
    ("Installed conda and then PyTorch 1.13 with CUDA 11.7", [("torch.cuda_version", "11.7")]),
    ("torch 2.1.0 for CUDA 12.1", [("torch.cuda_version", "12.1")]),
    ("when I try to run torch.cuda.is_available() I get False and a warning", [("torch.cuda_available", False)]),
    ("torch.cuda.is_available() returns True", [("torch.cuda_available", True)]),
    ("I installed CUDA 11.7", []),
], ids=["pytorch-with-cuda", "torch-for-cuda", "get-false", "returns-true", "cuda-alone"])
def test_torch_said(line, facts):
    assert python.torch_said(line) == facts


def test_available_answered():
    lines = ['(PyTorch) loong@home:~$ python -c "import torch;print(torch.cuda.is_available())"', "False"]
    assert python.available_answered(lines) == {1: [("torch.cuda_available", False)]}
    assert python.available_answered(['python3 -c "import torch; print(torch.cuda.is_available())"', "True"]) == {
        1: [("torch.cuda_available", True)]}
    assert python.available_answered(["print(torch.cuda.is_available())", "Traceback"]) == {}


@pytest.mark.parametrize("line, facts", [
    ("I am running Python 3.8.10. I installed pytorch", [("python.version", "3.8.10")]),
    ("using python 3.11.4 from conda", [("python.version", "3.11.4")]),
    ("Python 3.10 is installed", []),
    ("pip3 install torch torchvision==0.11.2 -f https://download.pytorch.org/whl/rocm4.2/torch_stable.html",
     [("platform", "linux"), ("python.machine", "x86_64"), ("cpu.hardware_arch", "x86_64")]),
], ids=["running", "using", "no-patch", "rocm-index"])
def test_python_said(line, facts):
    assert python.python_said(line) == facts


def test_ipython_versions():
    lines = ["In [3]: import torchvision", "", "In [4]: torchvision.__version__", "Out[4]: '0.17.1'"]
    assert python.ipython_versions(lines) == {3: [("package", {"name": "torchvision", "version": "0.17.1"})]}
    assert python.ipython_versions(["In [4]: np.__version__", "Out[5]: '1.26.4'"]) == {}


@pytest.mark.parametrize("line, facts", [
    ("so I make a nice try with my AMD 6800U, 32GB ram, 3GB vram", [("cpu.hardware_arch", "x86_64"), ("gpu.present", "AMD"),
                                                                    ("cpu.memory_bytes", 32 * 1024**3)]),
    ("The AMD 7840HS is a fast chip", []),
    ("  - TITAN Xp is what I have, 12 GB RAM", []),
], ids=["owned-apu", "not-owned", "gpu-memory"])
def test_machine_parts(line, facts):
    assert prose.machine_parts(line) == facts


def test_machine_parts_spec_list():
    facts = prose.machine_parts("System: Win11, R5 7500F, AMD RX 9070 16GB, 32GB RAM, 200GB free space on system disk.")
    assert ("cpu.brand", "AMD Ryzen 5 7500F") in facts and ("cpu.memory_bytes", 32 * 1024**3) in facts
    assert any(f == "gpu" and v["name"] == "AMD RX 9070" and v["memory_mib"] == 16384 for f, v in facts)


@pytest.mark.parametrize("key, value, facts", [
    ("kernel", "Linux 6.6.20+rpt-rpi-v8", [("platform", "linux"), ("os.kernel", "6.6.20+rpt-rpi-v8")]),
    ("kernel", "6.6.20", []),
    ("cpu", "Ryzen 5 5600G", [("cpu.brand", "AMD Ryzen 5 5600G"), ("cpu.hardware_arch", "x86_64")]),
    ("processor", "Intel Core i7-9700", [("cpu.brand", "Intel Core i7-9700"), ("cpu.hardware_arch", "x86_64")]),
    ("cpu", "Apple M2", []),
], ids=["hostnamectl-kernel", "bare-kernel", "ryzen", "core-i7", "apple"])
def test_keyed(key, value, facts):
    assert prose.keyed_facts(key, value) == facts


# --- what the rest makes of them -----------------------------------------------------------------------------------

def test_hostnamectl_arm64_is_aarch64():
    answers = {LSCPU: CommandResult(LSCPU, 0, "Architecture: arm64\n", "")}
    system = build_facts(lambda argv: answers.get(tuple(argv), CommandResult(tuple(argv), 127, "", "")))
    assert system.cpu.hardware_arch == "aarch64"


def test_raspberry_pi_from_hostnamectl():
    facts = _facts("Operating System: Debian GNU/Linux 12 (bookworm)\n          Kernel: Linux 6.6.20+rpt-rpi-v8\n"
                   "    Architecture: arm64\n")
    assert facts.cpu.hardware_arch == "aarch64" and "cuda" not in wanted_accelerators(facts)


@pytest.mark.parametrize("name, discrete", [("Inter Arc770", True), ("Arc A750", True), ("Intel Arc B580", True),
                                            ("Intel Arc 140V GPU", False), ("Intel Arc Graphics", False)])
def test_intel_discrete_without_letter(name, discrete):
    assert intel_discrete_gpu(name) == discrete


@pytest.mark.parametrize("name", ["RX6600XT", "rx 7900xtx", "RX 7900 GRE", "RX 580"])
def test_rx_names_are_amd(name):
    assert gpu_vendor(name) == "AMD"


def test_radeon_on_windows_wants_no_cuda():
    facts = _facts("OS: Windows 11\nGPU: AMD Radeon RX 6600 XT\n")
    assert facts.platform == "win32" and wanted_accelerators(facts) == ("cpu",)
    both = _facts("Windows 10 (64bit, updated)\nGPU - Radeon 6900xt\nGPU - GTX 1080ti\n")
    assert wanted_accelerators(both) == ("cuda",)
