"""Set 4's rules: bitsandbytes and deviceQuery reports, pip wheel tags and install logs, paths, prompts,
Macs named with their chip, issue forms, GPU names (Jetson, lower-case 'laptop GPU', Iris(TM)), and the
frameworks a user works with deciding the recommendation."""
from __future__ import annotations

import dataclasses

import pytest

from macml.facts import CPUFacts, GPU, InterpreterFacts, MachineFacts, OSFacts
from macml.probe.paste import import_pastes
from macml.probe.paste.gpu_names import gpu_names, gpu_vendor
from macml.probe.paste.report_rules import (frameworks_used, gpu_reports, inline_packages, mac_with_chip, path_facts,
                                            plaidml_device_id, system_line, torch_backend_answers, wheel_tag)
from macml.probe.paste.inline_rules import anywhere
from macml.probe.paste.statement_rules import by_key
from macml.recipes.catalog import load_all
from macml.recipes.recommend import preference, user_frameworks


@pytest.mark.parametrize("line, expected", [
    ("  Using cached numpy-2.2.3-cp313-cp313-macosx_14_0_arm64.whl (5.1 MB)",
     [("python.minor", "3.13"), ("platform", "darwin"), ("python.machine", "arm64")]),
    ("  Downloading torch-2.2.2-cp312-none-macosx_10_9_x86_64.whl.metadata (25 kB)",
     [("python.minor", "3.12"), ("platform", "darwin"), ("python.machine", "x86_64")]),
    ("Collecting jax-metal  Using cached jax_metal-0.1.1-py3-none-macosx_13_0_arm64.whl.metadata",
     [("platform", "darwin"), ("python.machine", "arm64")]),
    ("numpy-2.0.0-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
     [("python.minor", "3.11"), ("platform", "linux"), ("python.machine", "aarch64")]),
    ("Downloading wheel-0.45.1-py3-none-any.whl (72 kB)", []),
], ids=["cp313-mac-arm64", "cp312-mac-x86_64", "py3-mac-arm64", "manylinux-aarch64", "pure-python-says-nothing"])
def test_wheel_tag(line, expected):
    assert wheel_tag(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("bin /home/access/venvs/nlp_311/lib/python3.11/site-packages/bitsandbytes/libbitsandbytes_cuda118.so",
     [("python.minor", "3.11"), ("platform", "linux")]),
    ('  File "/Users/me/miniforge3/lib/python3.8/site-packages/tensorflow/__init__.py", line 449',
     [("python.minor", "3.8"), ("platform", "darwin")]),
    ("CUDA SETUP: CUDA runtime path found: /anaconda/envs/py38/lib/libcudart.so", [("platform", "linux")]),
    ("(base) me@x86_64-apple-darwin13 ~ % conda list", [("platform", "darwin")]),
    ("Thanhs-MacBook-Pro:Desktop thanh$ python test.py", [("platform", "darwin")]),
    ("(base) philipp@Mac ~ % python3 -m venv ~/jax-metal", [("platform", "darwin")]),
    ("user@server:~$ ls /usr/lib", []),
], ids=["linux-home-and-minor", "mac-users-path", "libcudart", "apple-triple", "bash-macbook-prompt",
        "zsh-prompt", "plain-linux-prompt-says-nothing"])
def test_path_facts(line, expected):
    assert path_facts(line) == expected


@pytest.mark.parametrize("line, brand, memory_gib", [
    ("- Mac Studio **M3 Ultra, 96 GB**", "Apple M3 Ultra", 96),
    ("These are the results on a MacBook Air M1 (8c/8g) with metal", "Apple M1", None),
    ("apple silicon m1", "Apple M1", None),
    ("Mac OS Big Sur Version 11.6 Apple M1 chip Memory 8G", None, 8),
    ("M1 of the list", None, None),
], ids=["mac-studio-bold", "macbook-air", "apple-silicon-lower-case", "memory-beside-apple-chip", "bare-m1-says-nothing"])
def test_mac_with_chip(line, brand, memory_gib):
    facts = dict(mac_with_chip(line))
    assert facts.get("cpu.brand") == brand
    assert facts.get("cpu.memory_bytes") == (memory_gib * 1024**3 if memory_gib else None)


@pytest.mark.parametrize("line, expected", [
    ("CUDA SETUP: Highest compute capability among GPUs detected: 3.7",
     [("platform", "linux"), ("gpu.present", "NVIDIA"), ("gpu.capability", {"name": None, "capability": "3.7"})]),
    ('Device 0: "NVIDIA Tegra X1"',
     [("gpu", {"name": "NVIDIA Tegra X1", "vendor": "NVIDIA", "memory_mib": None, "index": 0})]),
    ("Apple M2 Max GPU 38-cores", [("gpu.cores", 38)]),
], ids=["bitsandbytes-capability", "devicequery-device", "apple-gpu-cores"])
def test_gpu_reports(line, expected):
    assert gpu_reports(line) == expected


@pytest.mark.parametrize("key, value, expected", [
    ("cuda capability major/minor version number", "5.3", [("gpu.capability", {"name": None, "capability": "5.3"})]),
    ("total amount of global memory", "1980 MBytes (2076024832 bytes)",
     [("gpu.memory_of", {"index": None, "memory_mib": 1980})]),
    ("cuda driver version / runtime version", "10.2 / 10.0", [("gpu.cuda_driver", "10.2"), ("gpu.present", "NVIDIA")]),
    ("pytorch.version", "2.12.1+cu130", [("package", {"name": "torch", "version": "2.12.1+cu130"}),
                                         ("torch.version", "2.12.1+cu130")]),
    ("pytorch.cuda", "available", [("torch.cuda_available", True)]),
    ("gpu.compute capability", "12.0", [("gpu.capability", {"name": None, "capability": "12.0"})]),
    ("pytorch version (gpu?)", "2.0.1 (False)", [("package", {"name": "torch", "version": "2.0.1"}),
                                                 ("torch.version", "2.0.1"), ("torch.cuda_available", False)]),
    ("installed physical memory (gb)", "96", [("cpu.memory_bytes", 96 * 1024**3)]),
    ("available physical memory at init (gb)", "1.7671", []),
    ("ramgb", "128", [("cpu.memory_bytes", 128 * 1024**3)]),
    ("platform", "Windows 11", [("platform", "win32"), ("os.name", "Windows 11")]),
    ("os", "Kali Linux Rolling (2018.2)", [("platform", "linux"), ("os.name", "Kali Linux Rolling (2018.2)")]),
], ids=["devicequery-capability", "devicequery-memory", "devicequery-cuda-driver", "xformers-torch", "xformers-cuda",
        "xformers-capability", "transformers-env-torch", "xpuinfo-installed-memory", "free-memory-is-not-ram",
        "json-ram-gb", "platform-windows-11", "kali-rolling"])
def test_report_keys(key, value, expected):
    assert by_key(key, value) == expected


@pytest.mark.parametrize("line, expected", [
    ("Ubuntu 21.04", [("platform", "linux"), ("os.name", "Ubuntu 21.04")]),
    ("WARNING: The requested image's platform (linux/amd64) does not match the detected host platform (linux/arm64/v8)",
     [("platform", "linux"), ("cpu.hardware_arch", "aarch64")]),
    ("ggml_metal_init: found device: Apple Paravirtual device",
     [("platform", "darwin"), ("hypervisor", "Apple Virtual Machine")]),
    ("I run Ubuntu 21.04 at home", []),
], ids=["distro-alone", "docker-host", "paravirtual-gpu", "distro-in-prose-says-nothing"])
def test_system_line(line, expected):
    assert system_line(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("import tensorflow as tf", ["tensorflow"]),
    ("python -m pip install jax-metal", ["jax-metal"]),
    ("Collecting mlx", ["mlx"]),
    ('  File "/x/lib/python3.8/site-packages/tensorflow/python/framework/load_library.py"', ["tensorflow"]),
    ("2023-02-25 19:29:40: I tensorflow/core/common_runtime/pluggable_device/pluggable_device_factory.cc:306] x",
     ["tensorflow"]),
    ("Using plaidml.keras.backend backend.", ["plaidml"]),
    ("nothing here", []),
], ids=["import", "pip-install", "collecting", "traceback-path", "tensorflow-log", "plaidml-backend", "none"])
def test_frameworks_used(line, expected):
    assert [value for _, value in frameworks_used(line)] == expected


@pytest.mark.parametrize("line, expected", [
    ("Apple silicone GPU with tensorflow-metal==1.1.0  and python 3.11", [("tensorflow-metal", "1.1.0")]),
    ("- `mlx 0.32.2`, `mlx-lm 0.31.3`", [("mlx", "0.32.2"), ("mlx-lm", "0.31.3")]),
    ("Successfully installed numpy-2.2.3 wheel-0.45.1", [("numpy", "2.2.3"), ("wheel", "0.45.1")]),
    ("xFormers 0.0.35+42fc265.d20260623", [("xformers", "0.0.35+42fc265.d20260623")]),
    ("conda create -n tf python=3.9.5", []),
    ("ERROR: Could not find a version that satisfies the requirement torch==2.6.0 (from versions: 2.2.2)", []),
    ("ERROR: No matching distribution found for tensorflow==2.15.0", []),
], ids=["pin-in-prose", "backticked", "pip-installed", "xformers-banner", "conda-python-is-no-package",
        "pip-found-no-such-version", "pip-found-no-distribution"])
def test_inline_packages(line, expected):
    assert [(v["name"], v["version"]) for _, v in inline_packages(line)] == expected


@pytest.mark.parametrize("line, expected", [
    ("torch.backends.mps.is_built() == True", [("torch.mps_built", True)]),
    ("torch.backends.mps.is_available() == False", [("torch.mps_available", False)]),
], ids=["built", "not-available"])
def test_torch_backend_answers(line, expected):
    assert torch_backend_answers(line) == expected


@pytest.mark.parametrize("line, name, mac", [
    ('INFO:plaidml:Opening device "opencl_intel_intel(r)_iris(tm)_plus_graphics_655.0"',
     "Intel(R) Iris(TM) Plus Graphics 655", False),
    ("selected device metal_amd_radeon_pro_560. This was the fastest", "AMD Radeon Pro 560", True),
    ('INFO:plaidml:Opening device "metal_apple_m1.0"', "Apple M1", True),
], ids=["opencl-intel-iris", "metal-amd", "metal-apple"])
def test_plaidml_device_id(line, name, mac):
    facts = plaidml_device_id(line)
    assert ("gpu.mention", name) in facts
    assert (("platform", "darwin") in facts) == mac


@pytest.mark.parametrize("text, name, vendor", [
    ("GPU models and configuration: GPU 0: Orin (nvgpu)", "Orin (nvgpu)", "NVIDIA"),
    ("Nvidia GeForce RTX 3050 laptop GPU", "Nvidia GeForce RTX 3050 laptop GPU", "NVIDIA"),
    ("ggml_metal_init: GPU name:   Intel(R) Iris(TM) Graphics 6000", "Intel(R) Iris(TM) Graphics 6000", "Intel"),
    ("running on an AMD Radeon Pro 5700 XT GPU.", "AMD Radeon Pro 5700 XT", "AMD"),
], ids=["jetson-orin", "lower-case-vendor-and-laptop", "iris-tm", "radeon-before-gpu-word"])
def test_gpu_names(text, name, vendor):
    assert gpu_names(text)[-1] == name
    assert gpu_vendor(name) == vendor


@pytest.mark.parametrize("line, version", [
    ("MacOS 13.0.1 Ventura", "13.0.1"),
    ("- OS Platform and Distribution: Mac OS Big Sur Version 11.6 Apple M1 chip", "11.6"),
    ("  Referenced from: libmetal_plugin.dylib (which was built for Mac OS X 12.0)", None),
    ("Does this also happen under macOS 12.3.x?", None),
    ("works on macOS 13.x and 14.*", None),
], ids=["capital-m", "named-release-then-version", "built-for-is-not-the-machine", "a-range-is-no-release",
        "ranges-with-x-or-star"])
def test_macos_versions(line, version):
    assert dict(anywhere(line)).get("os.version") == version


def test_issue_form_answers_and_bold_markup():
    text = "### Python version\n\n3.11.11\n\n### TensorFlow version\n\n2.18\n\n- macOS **27.0 beta (26A5421a)**\n"
    facts = {(s["fact"], str(s["value"])) for s in import_pastes([text])["statements"]}
    assert ("python.version", "3.11.11") in facts
    assert ("package", str({"name": "tensorflow", "version": "2.18"})) in facts
    assert ("os.version", "27.0") in facts


def _mac(packages=(), used=(), version="14.5"):
    return MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version=version, build="", kernel=""),
                        cpu=CPUFacts(brand="Apple M1", hardware_arch="arm64", apple_silicon=True),
                        gpus=(GPU(vendor="Apple", model="Apple M1"),),
                        interpreter=InterpreterFacts(executable="", version="3.11.9", implementation="CPython",
                                                     machine="arm64", prefix="", base_prefix="",
                                                     packages=dict(packages)),
                        frameworks_in_use=tuple(used))


@pytest.mark.parametrize("facts, first", [
    (_mac(), "pytorch-mps"),
    (_mac(packages={"tensorflow": "2.15.0"}), "tensorflow-metal"),
    (_mac(used=("mlx",)), "mlx"),
    (_mac(packages={"tensorflow": "2.15.0", "torch": "2.5.0"}), "pytorch-mps"),
    (_mac(used=("plaidml",)), "tensorflow-metal"),
    (_mac(used=("jax-metal",)), "jax-metal"),
    (_mac(used=("jax-metal",), version=""), "pytorch-mps"),
], ids=["nobody-says", "tensorflow-user", "mlx-user", "torch-among-them", "plaidml-on-apple-silicon-is-keras",
        "jax-user-known-macos", "jax-metal-not-pushed-on-unknown-macos"])
def test_user_framework_comes_first(facts, first):
    assert preference(facts, load_all())[0] == first


def test_user_frameworks_none_when_several():
    assert user_frameworks(_mac(packages={"tensorflow": "2.15.0", "mlx": "0.20.0"})) == ()
    assert dataclasses.replace(_mac(), frameworks_in_use=("keras",)).frameworks_in_use == ("keras",)
