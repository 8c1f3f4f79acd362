"""Set 6's Mac rules, fed literal lines: app logs on Macs (Metal.jl, ggml_metal_init, Ollama, powermetrics),
sysctl's performance levels, uname's short answers, old platform strings, Homebrew paths, torch on 'mps:0',
chips and Intel Macs in words, and the answers a REPL gives to TensorFlow's and JAX's device questions;
plus the knowledge and inference they feed (macOS builds, Darwin 17-19, MPS on an Intel Mac)."""
import pytest

from macml.facts import GPU, CPUFacts, FrameworkFacts, MachineFacts, OSFacts
from macml.knowledge.macos_builds import macos_for_build
from macml.probe.infer_mac import arm64_only_torch, mps_gpu_on_intel
from macml.probe.paste.mac_app_rules import (answer_facts, apple_gpu_runtime, arm_sysctl, build_number, homebrew_python,
                                             jax_device_list, localized_answers, metal_jl_device, mps_tensor,
                                             old_platform_string, python_in_words, says_i386, tensorflow_gpu_count,
                                             tiered_chip, uname_short, wheel_installed, x86_mac_in_words)
from macml.probe.paste.prose_rules import rosetta_in_words
from macml.probe.paste.statements import read_statements

GIB = 1024 ** 3


def _gpu(name, vendor):
    return ("gpu", {"name": name, "vendor": vendor, "memory_mib": None, "index": None})


@pytest.mark.parametrize("line, expected", [
    (" MtlDevice(Intel(R) UHD Graphics 630)", [("platform", "darwin"), _gpu("Intel(R) UHD Graphics 630", "Intel")]),
    (" MtlDevice(AMD Radeon Pro 5500M)", [("platform", "darwin"), _gpu("AMD Radeon Pro 5500M", "AMD")]),
    ("MtlDevice(Apple M1 Pro)", [("platform", "darwin"), _gpu("Apple M1 Pro", "Apple")]),
    ("2-element Vector{MtlDevice}:", []),
    ("MtlDevice(something else)", []),
], ids=["intel-uhd", "amd-radeon-pro", "apple-chip", "vector-header", "no-gpu-name"])
def test_metal_jl_device(line, expected):
    assert metal_jl_device(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Tested on M1 Max with 32GB RAM. I set the ctx size to 2700",
     [("cpu.brand", "Apple M1 Max"), ("cpu.memory_bytes", 32 * GIB)]),
    ("I try to run falcon 180B on a M2 max 96 Gb RAM with eg.",
     [("cpu.brand", "Apple M2 Max"), ("cpu.memory_bytes", 96 * GIB)]),
    ("Check is wrong (my M1 Pro reports platform i386):", [("cpu.brand", "Apple M1 Pro")]),
    ("Checking on my own M1 Pro machine, it looks like", [("cpu.brand", "Apple M1 Pro")]),
    ("runs fine on an M3 Ultra (192 GB unified memory)",
     [("cpu.brand", "Apple M3 Ultra"), ("cpu.memory_bytes", 192 * GIB)]),
    ("My phone is a POCO M3 Pro", []),
    ("M2 SSD with 1TB", []),
    ("Apple M1 Max", []),
], ids=["max-with-ram", "lowercase-tier-gb", "pro-in-prose", "pro-machine", "ultra-unified", "phone", "m2-ssd",
        "apple-prefixed-is-another-rule"])
def test_tiered_chip(line, expected):
    assert tiered_chip(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("hw.perflevel1.physicalcpu: 2", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ("hw.perflevel1.l2cachesize: 4194304", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ("hw.nperflevels: 2", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ("hw.optional.arm.FEAT_FP16: 1", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ("hw.nperflevels: 1", []),
    ("hw.perflevel0.physicalcpu: 8", []),
], ids=["perflevel1", "perflevel1-cache", "two-levels", "arm-feature", "one-level-intel", "perflevel0-any-mac"])
def test_arm_sysctl(line, expected):
    assert arm_sysctl(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Darwin arm64", [("platform", "darwin"), ("process.arch", "arm64"), ("cpu.hardware_arch", "arm64")]),
    ("Darwin 25.2.0 arm64 arm", [("platform", "darwin"), ("process.arch", "arm64"), ("cpu.hardware_arch", "arm64")]),
    ("Darwin x86_64", [("platform", "darwin"), ("process.arch", "x86_64")]),
    ("Darwin MacBook-Pro.local 23.5.0 x86_64 i386", [("platform", "darwin"), ("process.arch", "x86_64")]),
    ("Darwin Kernel Version 23.5.0: Wed May  1 20:12:58 PDT 2024; root:xnu-10063.121.3~5/RELEASE_ARM64_T6000 arm64", []),
    ("Linux x86_64", []),
], ids=["uname-sm", "uname-srmp", "uname-sm-intel-or-rosetta", "uname-snrmp", "uname-a-is-another-rule", "linux"])
def test_uname_short(line, expected):
    assert uname_short(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("   machine: Darwin-18.6.0-x86_64-i386-64bit",
     [("platform", "darwin"), ("os.darwin", "18.6.0"), ("python.machine", "x86_64")]),
    ("Platform: Darwin-20.3.0-arm64-arm-64bit", [("platform", "darwin"), ("os.darwin", "20.3.0"), ("python.machine", "arm64")]),
    ("machine: macOS-13.4.1-arm64-arm-64bit", []),
], ids=["python36-intel", "python37-arm64", "new-form-is-another-rule"])
def test_old_platform_string(line, expected):
    assert old_platform_string(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Check is wrong due to platform check here expecting arm (my M1 Pro reports platform i386):",
     [("python.machine", "x86_64")]),
    ("platform.processor() returns 'i386' in this venv", [("python.machine", "x86_64")]),
    ("the processor is i386, so it is an Intel build", [("python.machine", "x86_64")]),
    ("built for i386 and x86_64", []),
], ids=["reports-platform", "processor-returns", "processor-is", "arch-list"])
def test_says_i386(line, expected):
    assert says_i386(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Using base prefix '/usr/local/Cellar/python/3.6.5_1/Frameworks/Python.framework/Versions/3.6'",
     [("platform", "darwin"), ("python.version", "3.6.5"), ("python.machine", "x86_64")]),
    ('  File "/opt/homebrew/Cellar/python@3.11/3.11.6_1/Frameworks/Python.framework/Versions/3.11/lib/python3.11/ssl.py"',
     [("platform", "darwin"), ("python.version", "3.11.6"), ("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")]),
    ("/usr/local/Cellar/python@3.9/3.9.1_6/bin/python3 -m venv env",
     [("platform", "darwin"), ("python.version", "3.9.1"), ("python.machine", "x86_64")]),
    ("🍺  /usr/local/Cellar/python@3.12/3.12.1: 3,241 files, 65.4MB", []),
], ids=["intel-base-prefix", "arm-traceback", "intel-bin", "brew-install-summary"])
def test_homebrew_python(line, expected):
    assert homebrew_python(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("OS version: 23E224", [("platform", "darwin"), ("os.build", "23E224")]),
    ("kern.osversion: 22G91", [("platform", "darwin"), ("os.build", "22G91")]),
    ("BuildVersion = 24C101", [("platform", "darwin"), ("os.build", "24C101")]),
    ("OS version: 14.4.1", []),
], ids=["powermetrics", "sysctl", "plist-key", "a-version-not-a-build"])
def test_build_number(line, expected):
    assert build_number(line) == expected


@pytest.mark.parametrize("build, version", [
    ("23E224", "14.4.1"), ("23E214", "14.4"), ("22G91", "13.5.2"), ("19H2", "10.15.7"), ("18F132", "10.14.5"),
    ("21H1320", "12.7.6"), ("23E999", "14.4"), ("24C101", "15.2"), ("25C56", "26.2"), ("16A323", None), ("abc", None),
], ids=["sonoma-point", "sonoma-minor", "ventura", "catalina", "mojave", "monterey-late", "unlisted-same-letter",
        "sequoia-after-table", "tahoe", "sierra-too-old", "garbage"])
def test_macos_for_build(build, version):
    assert macos_for_build(build)[0] == version


@pytest.mark.parametrize("line, expected", [
    ("MPS matmul结果设备: mps:0", True),
    ("tensor([1., 2.], device='mps:0')", True),
    ("result device: mps:0", True),
    ('x = x.to("mps:0")', False),
    ("device = torch.device('mps:0')", False),
], ids=["zh-label", "tensor-repr", "en-label", "code-to", "code-device"])
def test_mps_tensor(line, expected):
    assert (("torch.mps_available", True) in mps_tensor(line)) is expected


@pytest.mark.parametrize("line, expected", [
    ("我是用X86的mac也是学习作用", [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]),
    ("I use an x86 Mac for this", [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]),
    ("on my Intel-based MacBook Pro it works", [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]),
    ("PyTorch dropped support for Intel Macs", []),
    ("Does this run on an x86 mac?", []),
    ("my x86 machine", []),
], ids=["zh", "en-x86", "intel-based", "plural-generic", "not-first-person", "machine-not-mac"])
def test_x86_mac_in_words(line, expected):
    assert x86_mac_in_words(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("PyTorch版本: 2.6.0a0+git1eba9b3",
     [("package", {"name": "torch", "version": "2.6.0a0+git1eba9b3"}), ("torch.version", "2.6.0a0+git1eba9b3")]),
    ("MPS可用: True", [("torch.mps_available", True), ("torch.mps_built", True)]),
    ("- MPS available: False", [("torch.mps_available", False)]),
    ("CUDA可用: False", [("torch.cuda_available", False)]),
    ("MPS设备:", []),
], ids=["zh-version", "zh-mps", "en-mps-false", "zh-cuda", "zh-device-label"])
def test_localized_answers(line, expected):
    assert localized_answers(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("pip install https://github.com/x/y/releases/download/v2.15/tensorflow-2.15.0-cp311-cp311-macosx_14_0_arm64.whl",
     [("package", {"name": "tensorflow", "version": "2.15.0"})]),
    ("pip3 install --force-reinstall ./dist/jaxlib-0.4.35-cp312-cp312-macosx_11_0_arm64.whl",
     [("package", {"name": "jaxlib", "version": "0.4.35"})]),
    ("$ pip install torch_geometric-2.5.0-py3-none-any.whl", [("package", {"name": "torch-geometric", "version": "2.5.0"})]),
    ("Downloading numpy-2.2.3-cp313-cp313-macosx_14_0_arm64.whl (5.1 MB)", []),
], ids=["url", "local-path", "pure-python", "download-is-not-an-install"])
def test_wheel_installed(line, expected):
    assert wheel_installed(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("[CpuDevice(id=0)]", [("jax.platforms", "cpu")]),
    ("[METAL(id=0)]", [("jax.platforms", "metal")]),
    ("[CudaDevice(id=0), CudaDevice(id=1)]", [("jax.platforms", "cuda")]),
    ("[1, 2, 3]", []),
], ids=["cpu", "metal", "two-cuda", "a-list"])
def test_jax_device_list(line, expected):
    assert jax_device_list(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Num GPUs Available:  0", [("tensorflow.no_gpu", True)]),
    ("Num GPUs Available:  1", [("tensorflow.gpu_device", True)]),
    ("Num GPUs Available: ", []),
], ids=["none", "one", "cut"])
def test_tensorflow_gpu_count(line, expected):
    assert tensorflow_gpu_count(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("ggml_metal_init: GPU family: MTLGPUFamilyApple7  (1007)", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ('time=2024-05-01T10:00:00 level=INFO source=types.go:71 msg="inference compute" id=0 library=metal compute="" '
     'driver=0.0 name="" total="21.3 GiB" available="21.3 GiB"', [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ("ggml_metal_init: GPU family: MTLGPUFamilyMac2  (2002)", []),
    ('msg="inference compute" id=GPU-1 library=cuda compute=8.6 name="NVIDIA GeForce RTX 3090"', []),
], ids=["apple-family", "ollama-metal", "mac2-family-any-mac", "ollama-cuda"])
def test_apple_gpu_runtime(line, expected):
    assert apple_gpu_runtime(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Running on a clean venv with python 3.11.1", [("python.version", "3.11.1")]),
    ("tested using Python 3.12.4 from Homebrew", [("python.version", "3.12.4")]),
    ("it broke on Python 3.12.4.1", []),
    ("upgrade to Python 3.12.4", []),
    ("it fails on Python 3.12.1 but works on Python 3.11.5", []),
], ids=["with", "using", "four-parts", "upgrade-to-is-not-in-use", "two-pythons"])
def test_python_in_words(line, expected):
    assert python_in_words(line) == expected


@pytest.mark.parametrize("line, translated", [
    ("In an x86 Rosetta-translated Python virtualenv, I expect to be able to", True),
    ("my x86 python under Rosetta crashes", True),
    ("Rosetta translates x86 apps to arm64", False),
], ids=["rosetta-translated", "under-rosetta", "generic-sentence"])
def test_bare_x86_beside_rosetta(line, translated):
    assert (("process.translated", True) in rosetta_in_words(line)) is translated


def test_answers_pair_question_and_next_line():
    lines = [">>> import tensorflow as tf", '>>> tf.config.list_physical_devices("GPU")', "[]",
             "% pixi run python -c 'import jax; print(jax.default_backend())'", "cpu",
             ">>> tf.config.list_physical_devices('GPU')",
             "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]"]
    assert answer_facts(lines) == {2: [("tensorflow.no_gpu", True)], 4: [("jax.platforms", "cpu")],
                                   6: [("tensorflow.gpu_device", True)]}


def test_answers_need_an_answer():
    assert answer_facts(['print(tf.config.list_physical_devices("GPU"))', "", "", "", "Traceback (most recent call last):"]) == {}


def test_registered_in_the_statement_reader():
    facts = {(s.fact, str(s.value)) for s in read_statements(["% uname -m -s", "Darwin arm64"])}
    assert ("cpu.hardware_arch", "arm64") in facts and ("platform", "darwin") in facts


def _mac(apple_silicon, gpus=(), torch=None):
    frameworks = {"torch": FrameworkFacts("torch", True, torch)} if torch is not None else {}
    return MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version=""),
                        cpu=CPUFacts(brand="", hardware_arch="x86_64", apple_silicon=apple_silicon),
                        gpus=tuple(gpus), interpreter=None, frameworks=frameworks)


def test_mps_on_an_intel_mac_means_an_amd_gpu():
    sources = {}
    gpus = mps_gpu_on_intel(_mac(False, torch={"version": "2.2.2", "mps_available": True}), (), sources)
    assert [g.vendor for g in gpus] == ["AMD"] and "gpus.0" in sources


@pytest.mark.parametrize("facts", [
    _mac(None, torch={"version": "2.2.2", "mps_available": True}),
    _mac(False, torch={"version": "2.2.2", "mps_available": None}),
    _mac(False, gpus=[GPU(vendor="AMD", model="AMD Radeon Pro 5500M")], torch={"version": "2.2.2", "mps_available": True}),
], ids=["chip-unknown", "mps-unknown", "amd-already-listed"])
def test_no_gpu_added_without_the_evidence(facts):
    assert mps_gpu_on_intel(facts, facts.gpus, {}) == facts.gpus


def test_a_source_build_of_torch_says_nothing_of_the_arch():
    assert arm64_only_torch(_mac(None, torch={"version": "2.6.0a0+git1eba9b3"})) == ""
    assert arm64_only_torch(_mac(None, torch={"version": "2.6.0"}))
