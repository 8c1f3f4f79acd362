"""Set 11's Linux rules (env_report_rules, env_tool_rules), fed literal lines; the PCI ID table they use; and what
facts and checks make of them (torch's own 'not compatible' warning without an arch list)."""
import pytest

from macml.diagnose.torch_checks import check_cuda_arch
from macml.knowledge.pci_ids import nvidia_device_name
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import env_report_rules as words
from macml.probe.paste import env_tool_rules as tools
from macml.probe.paste import import_pastes
from macml.recipes.catalog import load_all

RECIPES = load_all()


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _value(facts, fact):
    return next((v for f, v in facts if f == fact), None)


# --- the OS ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, name", [
    ("I'm using 3090 on Pop OS 22.04:", "Pop OS 22.04"),
    ("I've spend days trying to get whisperx running on Unbuntu 24.04 using an NVIDIA T4", "Ubuntu 24.04"),
    ("Ubuntu 16.4 Python 3.5.2 CUDA-8.0 nvidia 950m", "Ubuntu 16.04"),
    ("I am current using Ubuntu 18.4", "Ubuntu 18.04"),
    ("tested under kubuntu 24.10 with a 4070", "Kubuntu 24.10"),
    ("I am running ubuntu 22.04 on WSL2", "Ubuntu 22.04"),
    ("Running on Ubuntu 20.04 LTS with CUDA 11.8", "Ubuntu 20.04 LTS"),
], ids=["pop-os-prose", "misspelt-ubuntu", "short-month-line-start", "short-month-prose", "kubuntu", "lower-case",
        "lts"])
def test_distro_in_sentence(line, name):
    assert _value(words.distro_in_sentence(line), "os.name") == name


@pytest.mark.parametrize("line", [
    "It works on Ubuntu but not on Fedora 39",
    "ubuntu 20.04",  # a list entry the older rules read as written
    "Upgrade from Ubuntu22.04 to 24.04 failed",
    "I also tried in Ubuntu 22.04 on a different machine and it works fine",
    "I can reproduce in Fedora 40 on our CI runners, my laptop is a Mac",
], ids=["negated", "plain-entry-left-to-others", "no-lead-word", "different-machine", "ci-runners-writer-on-mac"])
def test_distro_in_sentence_says_nothing(line):
    assert _value(words.distro_in_sentence(line), "os.name") is None


def test_distro_with_its_architecture():
    facts = words.distro_in_sentence("I'm using Python 3.11.3 on Ubuntu 22.04.2 amd64 with numba 0.57.0")
    assert _value(facts, "os.name") == "Ubuntu 22.04.2" and _value(facts, "cpu.hardware_arch") == "x86_64"
    assert _value(words.distro_in_sentence("on Debian 12 arm64"), "cpu.hardware_arch") == "aarch64"


@pytest.mark.parametrize("line, name", [
    ("version      : #42~16.04.1-Ubuntu SMP Wed Mar 7 16:03:28 UTC 2018", "Ubuntu 16.04"),  # '~16.04.1': the
    # 16.04 backport kernel's build counter, not a point release
    ("3）系统环境：系统=16.04.1-Ubuntu、Python版本=Python3.5.5", "Ubuntu 16.04.1"),
    ("Platform     : Linux-4.13.0-37-generic-x86_64-with-Ubuntu-16.04-xenial", "Ubuntu 16.04"),
    ("Platform: Linux-3.10.0-957.el7.x86_64-x86_64-with-centos-7.6.1810-Core", "CentOS 7.6.1810"),
    ('PRETTY_NAME="Ubuntu 22.04.5 LTS"', "Ubuntu 22.04.5 LTS"),
    ("PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"", "Debian GNU/Linux 12 (bookworm)"),
], ids=["uname-v", "chinese-form", "old-platform-string", "old-platform-centos", "os-release", "os-release-debian"])
def test_os_strings(line, name):
    assert _value(words.os_strings(line), "os.name") == name


def test_os_strings_leave_glibc_platforms():
    assert words.os_strings("Platform: Linux-5.15.0-91-generic-x86_64-with-glibc2.35") == []


@pytest.mark.parametrize("key, value, name", [
    ("os", "[Ubuntu 22.04 server]", "Ubuntu 22.04"),
    ("operating system", "Kubuntu 25.04", "Kubuntu 25.04"),
    ("operating system", "ubuntu", "ubuntu"),
    ("os", "Pop!_OS 22.04 LTS", "Pop!_OS 22.04 LTS"),
], ids=["bracketed-server", "kubuntu", "no-version-as-written", "pop-os"])
def test_os_answer(key, value, name):
    assert _value(words.os_answer(key, value), "os.name") == name


def test_os_answer_other_keys_and_values():
    assert words.os_answer("gpu", "Ubuntu 22.04") == [] and words.os_answer("os", "Windows 11") == []


# --- memory, GPUs and packages written by people -----------------------------------------------------------------

@pytest.mark.parametrize("key, value, gib", [
    ("memory", "30,1 GiB of RAM", 30.1), ("ram", "15,5 GB", 15.5), ("memory", "62,7 GiB", 62.7),
], ids=["kde-german", "ram-gb", "two-digit"])
def test_comma_memory(key, value, gib):
    assert _value(words.comma_memory(key, value), "cpu.memory_bytes") == int(gib * 1024**3)


def test_comma_memory_leaves_thousands_and_points():
    assert words.comma_memory("memory", "16,384 MB") == [] and words.comma_memory("memory", "30.1 GiB") == []


@pytest.mark.parametrize("text, name, capability", [
    ("2080Ti", "2080Ti", "7.5"), ("1050ti", "1050ti", "6.1"), ("nvidia 950m", "nvidia 950m", "5.0"),
    ("Nvidia T600", "Nvidia T600", None), ("rtx2080super", "rtx2080super", None),
    ("NVIDIA GeForce GTX 1650 Ti GPU", "NVIDIA GeForce GTX 1650 Ti", None), ("3090 super", "3090 super", "8.6"),
], ids=["2080ti", "1050ti", "950m", "t600", "rtx-glued", "trailing-gpu-word", "space-suffix"])
def test_spoken_gpu(text, name, capability):
    value = _value(words.spoken_gpu(text), "gpu")
    assert value["name"] == name and value["vendor"] == "NVIDIA" and value.get("capability") == capability


@pytest.mark.parametrize("text", ["nvidia 470", "2080", "nvidia 535 driver", "port 8080"],
                         ids=["driver-branch", "bare-number", "driver-word", "port"])
def test_spoken_gpu_says_nothing(text):
    assert words.spoken_gpu(text) == []


@pytest.mark.parametrize("line, name", [
    ("rtx2080super 8G", "rtx2080super"), ("- 1050ti", "1050ti"), ("2080Ti 11GB", "2080Ti"),
], ids=["glued-with-memory", "list-item", "with-gb"])
def test_lone_gpu(line, name):
    assert _value(words.lone_gpu(line), "gpu")["name"] == name


def test_lone_gpu_leaves_whole_names_and_words():
    assert words.lone_gpu("NVIDIA GeForce RTX 3090") == [] and words.lone_gpu("torch 1.13.1") == []


@pytest.mark.parametrize("line, fact, value", [
    ("显卡是1050ti", "gpu", "1050ti"),
    ("2）GPU：CUDA版本=9，CUDNN版本=7。GPU设备为2080Ti", "gpu", "2080Ti"),
    ("python是3.6.9", "python.version", "3.6.9"),
    ("系统环境：系统=16.04.1-Ubuntu、Python版本=Python3.5.5", "python.version", "3.5.5"),
], ids=["graphics-card-is", "gpu-device-is", "python-is", "python-version-equals"])
def test_chinese_answer(line, fact, value):
    found = _value(words.chinese_answer(line), fact)
    assert (found["name"] if fact == "gpu" else found) == value


def test_gpu_in_line_is_owned_and_yields_to_whole_names():
    owned = _value(words.gpu_in_line("Ubuntu 16.4 Python 3.5.2 CUDA-8.0 nvidia 950m"), "gpu.owned")
    assert owned["name"] == "nvidia 950m" and owned["capability"] == "5.0"
    assert words.gpu_in_line("my RTX 2080 Ti and a 1080ti") == []
    assert words.gpu_in_line("I installed nvidia 470 driver") == []


@pytest.mark.parametrize("line, packages", [
    ("I'm using Python 3.11.3 on Ubuntu 22.04.2 amd64 with numba 0.57.0 and cuda-python 12.1.0. Cuda scripts",
     {"numba": "0.57.0", "cuda-python": "12.1.0"}),
    ("after pinning ctranslate2==4.4.0 it worked", {"ctranslate2": "4.4.0"}),
    ("transformers       4.43.0.dev0", {}),
    ("tinycudann 1.7", {"tinycudann": "1.7"}),
], ids=["prose", "pin", "pip-list-row-left", "env-list"])
def test_prose_packages(line, packages):
    assert {v["name"]: v["version"] for _, v in words.prose_packages(line)} == packages


def test_qualified_version_key():
    assert ("torch.version", "1.9.0") in words.keyed("pytorch version in docker container", "1.9.0")
    assert ("package", {"name": "onnx", "version": "1.9.0"}) in words.keyed("onnx version inside the container", "1.9.0")


def test_installed_project():
    lines = ["1）PaddlePaddle版本：PaddlePaddle版本1.4.1", "1）pip安装：pip3 install paddlepaddle-gpu"]
    assert words.installed_project(lines) == {0: [("package", {"name": "paddlepaddle-gpu", "version": "1.4.1"})]}
    assert words.installed_project(["Paddle version: 2.5.1", "no pip here"]) == {}


# --- tool output -------------------------------------------------------------------------------------------------

def test_kohya_gpu_wrapped_and_whole():
    wrapped = tools.kohya_log("10:13:08-505220 INFO     Torch detected GPU: NVIDIA GeForce RTX 3090 VRAM 24150 ",
                              "                         Arch (8, 6) Cores 82")
    gpu = _value(wrapped, "gpu")
    assert gpu["name"] == "NVIDIA GeForce RTX 3090" and gpu["memory_mib"] == 24150 and gpu["capability"] == "8.6"
    assert _value(wrapped, "torch.cuda_available") is True
    whole = _value(tools.kohya_log("INFO Torch detected GPU: NVIDIA GeForce RTX 4090 VRAM 24564 Arch (8, 9) Cores 128"), "gpu")
    assert whole["capability"] == "8.9"
    assert tools.kohya_log("10:13:08-483516 INFO     Torch backend: nVidia CUDA 11.8 cuDNN 8700") == [
        ("torch.cuda_version", "11.8")]


def test_trtexec_devices():
    lines = ['[11/07/2025-06:59:06] [I]   Device 0: "NVIDIA GeForce RTX 3090" UUID: GPU-9196782c',
             '[11/07/2025-06:59:06] [I]   Device 1: "NVIDIA GeForce RTX 3090" UUID: GPU-fa724978',
             "[11/07/2025-06:59:06] [I] Selected Device ID: 1",
             "[11/07/2025-06:59:06] [I] Compute Capability: 8.6"]
    found = tools.trtexec_devices(lines)
    assert [_value(found[i], "gpu")["index"] for i in (0, 1)] == [0, 1]
    assert found[3] == [("gpu.capability_of", {"index": 1, "capability": "8.6"})]


@pytest.mark.parametrize("line, capability, cuda", [
    ("W0819 16:56:44.087344 19839 device_context.cc:259] Please NOTE: device: 0, CUDA Capability: 75, "
     "Driver API Version: 10.1, Runtime API Version: 10.0", "7.5", "10.1"),
    ("W0520 device_context.cc:261] Please NOTE: device: 0, CUDA Capability: 61, Driver API Version: 9.2, Runtime "
     "API Version: 9.0", "6.1", "9.2"),
    ("W1201 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: 86, Driver API Version: 12.0,", None, None),
], ids=["paddle-1.5", "paddle-pascal", "paddle-2-wording"])
def test_paddle_device(line, capability, cuda):
    facts = tools.paddle_device(line)
    assert _value(facts, "gpu.cuda_driver") == cuda
    assert (_value(facts, "gpu.capability_of") or {}).get("capability") == capability


def test_ngc_banner_and_glog_gpu():
    lines = ["ERROR: This container was built for NVIDIA Driver Release 450.51 or later, but",
             "       version 440.64.00 was detected and compatibility mode is UNAVAILABLE.",
             "I1105 01:26:08.078690 1 metrics.cc:193]   GPU 0: TITAN Xp"]
    found = tools.ngc_banner(lines)
    assert ("gpu.driver", "440.64.00") in found[1] and ("platform", "linux") in found[1]
    assert found[2] == [("gpu", {"name": "TITAN Xp", "vendor": "NVIDIA", "memory_mib": None, "index": 0})]
    one_line = tools.ngc_banner(["built for NVIDIA Driver Release 525.85 or later, but version 470.82.01 was detected"])
    assert ("gpu.driver", "470.82.01") in one_line[0]


def test_diagnose_sections():
    lines = ["----------Python Info----------", "Version      : 3.5.2", "----------MXNet Info-----------",
             "Version      : 1.1.0", "----------Pip Info-----------", "Version      : 8.1.1"]
    assert tools.diagnose_sections(lines) == {1: [("python.version", "3.5.2")],
                                              3: [("package", {"name": "mxnet", "version": "1.1.0"})]}


@pytest.mark.parametrize("line, facts", [
    ("   package ctranslate2 4.4.0, installed using Python 3.12.3", [("package", {"name": "ctranslate2", "version": "4.4.0"})]),
    ("resnet152.0 >! GPU available: True (cuda), used: True", [("torch.cuda_available", True)]),
    ("GPU available: False, used: False", []),
    ("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file",
     [("platform", "linux")]),
    ("using an NVIDIA T4 (bare metal server, not virtualised).", [("hypervisor.none", True)]),
    ("00:07.0 VGA compatible controller: NVIDIA Corporation Device 2684 (rev a1)",
     [("gpu.capability", {"name": "NVIDIA Corporation Device 2684", "capability": "8.9"})]),
    ("01:00.0 3D controller: NVIDIA Corporation Device 9999 (rev a1)", []),
], ids=["pipx", "lightning", "lightning-cpu", "loader", "bare-metal", "pci-id", "pci-id-unknown"])
def test_tool_line_facts(line, facts):
    assert tools.line_facts(line) == facts


def test_pci_ids():
    assert nvidia_device_name("2684") == "NVIDIA GeForce RTX 4090" and nvidia_device_name("2204") == "NVIDIA GeForce RTX 3090"
    assert nvidia_device_name("0000") is None


# --- what facts and checks make of them --------------------------------------------------------------------------

def test_torch_warning_alone_fails_cuda_arch():
    text = ("x >! GPU available: True (cuda), used: True\n"
            "x >! /home/u/venv/lib/python3.8/site-packages/torch/cuda/__init__.py:155: UserWarning:\n"
            "NVIDIA H100 PCIe with CUDA capability sm_90 is not compatible with the current PyTorch installation.\n")
    finding = check_cuda_arch(_facts(text), RECIPES)
    assert finding is not None and finding.level == "fail" and "the installed torch" in finding.message


def test_paddle_capability_without_a_name():
    facts = _facts("W0819 device_context.cc:259] Please NOTE: device: 0, CUDA Capability: 75, Driver API Version: "
                   "10.1, Runtime API Version: 10.0\n  File \"/home/u/anaconda3/lib/python3.6/site-packages/x.py\"\n")
    assert [(g.vendor, g.compute_capability, g.cuda_driver_version) for g in facts.gpus] == [("NVIDIA", "7.5", "10.1")]


def test_kde_memory_with_a_comma():
    facts = _facts("Operating System: Kubuntu 25.04\nMemory: 30,1 GiB of RAM\nGraphics Processor: AMD Radeon Graphics\n")
    assert facts.os.name == "Kubuntu" and round(facts.cpu.memory_bytes / 1024**3) == 30
