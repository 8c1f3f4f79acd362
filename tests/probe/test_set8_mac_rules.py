"""Set 8's Mac rules (probe/paste/mac_clues_rules.py), fed literal lines: Rosetta named in words, an x86_64 app on
Apple silicon, what a Python reports as its arch, unified memory, AMD GPUs in prose, macOS codenames, issue-form
answers written loosely, and torch's MPS questions."""
import pytest

from macml.probe.paste import mac_clues_rules as rules

GIB = 1024 ** 3
ROSETTA = [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("process.translated", True), ("process.arch", "x86_64")]


@pytest.mark.parametrize("line, expected", [
    ("# 1.) notice that I am using Rosetta brew and not my default arm brew", ROSETTA),
    ("# 3.) switch to your Rosetta python env (I use python 3.8.5 installed with rosetta-brew's pyenv)",
     ROSETTA + [("python.machine", "x86_64"), ("python.version", "3.8.5")]),
    ("I opened a Rosetta 2 terminal and ran pip there", ROSETTA),
    ("my Rosetta-Homebrew lives in /usr/local", ROSETTA),
    ("I do not use a Rosetta terminal", []),
    ("Rosetta is installed", []),
], ids=["rosetta-brew", "rosetta-python-with-version", "rosetta-2-terminal", "rosetta-homebrew", "negated", "no-tool"])
def test_rosetta_tool(line, expected):
    assert rules.rosetta_tool(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Noticed when using Apple Silicon running an x86_64 version of Julia (1.6.0, 1.8.0-DEV.599)", ROSETTA),
    ("I run the Intel build of Blender on my M1 Max", ROSETTA),
    ("an x86-64 build of python on an M2 mac", ROSETTA + [("python.machine", "x86_64")]),
    ("the x86_64 version of Julia works on my Intel iMac", []),
    ("I am not using an x86_64 build of Julia on my M1", []),
], ids=["julia-apple-silicon", "blender-intel-build-m1-max", "python-build", "no-apple-chip", "negated"])
def test_x86_build_on_apple_silicon(line, expected):
    assert rules.x86_build_on_apple_silicon(line) == expected


def test_rosetta_runtime_error():
    line = "rosetta error: unexpectedly need to EmulateForward on a synchronous exception x86_rip=0x10b1fd840"
    assert rules.rosetta_runtime_error(line) == ROSETTA
    assert rules.rosetta_runtime_error("a rosetta error: somewhere in prose") == []


@pytest.mark.parametrize("line, expected", [
    ("- `platform.machine()` is `arm64` (Apple Silicon).", [("python.machine", "arm64"), ("process.arch", "arm64")]),
    ("Check is wrong due to platform check here expecting `arm` (my M1 Max reports platform `arm64`):",
     [("python.machine", "arm64"), ("process.arch", "arm64")]),
    ('        "processor": "arm",', [("python.machine", "arm64"), ("process.arch", "arm64"), ("platform", "darwin")]),
    ('    "processor": "i386"', [("python.machine", "x86_64")]),
    ("platform.processor() returns 'i386' under this Python", [("python.machine", "x86_64")]),
    ("platform.machine() is not arm64", []),
    ('    "processor": "x86_64",', []),
], ids=["machine-is-arm64", "reports-platform-arm64", "json-processor-arm", "json-processor-i386",
        "processor-returns-i386", "negated", "linux-json-processor"])
def test_python_reports_machine(line, expected):
    assert rules.python_reports_machine(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("- GPU model and memory: Apple Metal 32gb (unified)",
     [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.memory_bytes", 32 * GIB),
      ("gpu", {"name": "Apple GPU", "vendor": "Apple", "memory_mib": None, "index": None})]),
    ("I have a M1 Max with 32 cores and 64 gb of unified memory.",
     [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.memory_bytes", 64 * GIB)]),
    ("Mac Studio, 128GB unified memory", [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.memory_bytes", 128 * GIB)]),
    ("unified memory is great", []),
    ("uses 3 GB of unified memory at peak", []),
], ids=["tf-form-apple-metal", "of-unified-memory", "unified-memory", "no-size", "not-a-ram-size"])
def test_unified_memory(line, expected):
    assert rules.unified_memory(line) == expected


@pytest.mark.parametrize("line, name, mib", [
    ("I tried running some experiments on the RX5300M 4GB GPU and everything works", "RX5300M", 4096),
    ("MPS support on MacOS Ventura with an AMD Radeon Pro 5700 XT GPU", "AMD Radeon Pro 5700 XT", None),
    ("AMD Radeon PRO W6800X 32 GB", "AMD Radeon PRO W6800X", 32768),
    ("- GPU model and memory: AMD RX6600 8G", "AMD RX6600", 8192),
    ("eGPU: Radeon RX 580 8GB in a Razer Core", "Radeon RX 580", 8192),
], ids=["rx5300m-prose", "radeon-pro-5700xt", "about-this-mac-line", "tf-form-8g", "egpu"])
def test_radeon_in_words(line, name, mib):
    facts = rules.radeon_in_words(line)
    assert facts[0] == ("gpu", {"name": name, "vendor": "AMD", "memory_mib": mib, "index": None})
    assert facts[1:] == ([("gpu.memory_of", {"index": None, "memory_mib": mib})] if mib else [])


@pytest.mark.parametrize("line", [
    '["AMD Radeon Pro 560", "Intel(R) HD Graphics 630"]',
    "the RX 580 is not a GPU I have",
    "Radeon Pro 560 and RX 580 GPUs",
    "I bought an RX 6600",
], ids=["device-list-with-intel", "negated", "two-gpus", "no-gpu-word"])
def test_radeon_in_words_leaves(line):
    assert rules.radeon_in_words(line) == []


@pytest.mark.parametrize("line, expected", [
    ("MPS support on MacOS Ventura with an AMD GPU", [("platform", "darwin"), ("os.release", "13")]),
    ("- MacOS Mojave: 10.14.6", [("platform", "darwin"), ("os.release", "10.14"), ("os.version", "10.14.6")]),
    ("running macOS Sonoma (14.2)", [("platform", "darwin"), ("os.release", "14"), ("os.version", "14.2")]),
    ("mac os x High Sierra", [("platform", "darwin"), ("os.release", "10.13")]),
    ("the Ventura highway", []),
], ids=["codename", "codename-colon-version", "codename-parenthesised", "mac-os-x", "no-macos"])
def test_macos_codename(line, expected):
    assert rules.macos_codename(line) == expected


def test_missing_arm64_sysctl():
    assert rules.missing_arm64_sysctl("sysctl: unknown oid 'hw.optional.arm64'") == [
        ("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    assert rules.missing_arm64_sysctl("hw.optional.arm64: 1") == []


@pytest.mark.parametrize("line, expected", [
    ("## Bug Report: macmon triggers `SIGABRT` in `libmlx.dylib` during inference", [("platform", "darwin"), ("process.arch", "arm64")]),
    ("mlx::core::gpu::check_error(MTLCommandBuffer)", [("platform", "darwin"), ("process.arch", "arm64")]),
    ("pip install mlx", []),
], ids=["libmlx", "mlx-core-frame", "install"])
def test_mlx_library(line, expected):
    assert rules.mlx_library(line) == expected


@pytest.mark.parametrize("line, arch", [
    ("I using MacOS 13.4.1 in M1 Macbook Pro 32GB.", "arm64"),
    ("on a MacBook Air (M2)", "arm64"),
    ("M3 Max MacBook Pro", "arm64"),
    ("an M1 running Linux", None),
], ids=["m1-macbook-pro", "macbook-air-m2", "m3-max-mbp", "no-mac"])
def test_apple_chip_mac(line, arch):
    assert rules.apple_chip_mac(line) == ([("platform", "darwin"), ("cpu.hardware_arch", arch)] if arch else [])


@pytest.mark.parametrize("line, arch", [
    ("Have MacbookPro Intel X64, OS Version(14.1), Python(3.10).", "x86_64"),
    ("iMac (Intel) 2019", "x86_64"),
    ("MacBook Pro x86_64", "x86_64"),
    ("MacBook Pro Intel vs M1 Pro", None),
    ("MacBook Pro with Intel Iris graphics? not mine", None),
], ids=["macbookpro-intel-x64", "imac-parenthesised", "x86-64", "compares-apple-silicon", "negated"])
def test_intel_mac_product(line, arch):
    assert rules.intel_mac_product(line) == ([("platform", "darwin"), ("cpu.hardware_arch", arch)] if arch else [])


@pytest.mark.parametrize("line, expected", [
    ("Have MacbookPro Intel X64, OS Version(14.1), Python(3.10).", [("os.version", "14.1"), ("python.version", "3.10")]),
    ("macOS(13.5) and Python(3.11.4)", [("os.version", "13.5"), ("python.version", "3.11.4")]),
    ("OS Version(22.04), Python(3.10)", [("python.version", "3.10")]),
    ("Python(2.7)", []),
], ids=["mac-form-line", "macos-and-python", "os-version-not-a-mac", "python-2"])
def test_versions_in_parentheses(line, expected):
    assert sorted(rules.versions_in_parentheses(line)) == sorted(expected)


@pytest.mark.parametrize("line, expected", [
    ("- [x] Python version: 3.11.4", [("python.version", "3.11.4")]),
    ("* [ ] OS: macOS 13.4", None),
    ("- [x] I searched the issues", []),
], ids=["ticked-python", "unticked-os", "no-answer"])
def test_checkbox_answer(line, expected):
    facts = rules.checkbox_answer(line)
    if expected is None:
        assert ("platform", "darwin") in facts
    else:
        assert facts == expected


@pytest.mark.parametrize("line, version", [
    ("## 🐍  python version = `Python 3.12.7`", "3.12.7"),
    ("- Python version:3.8", "3.8"),
    ("Hello, same issue on macOS 12.0.1, arm64, python 3.8.12 when installing via pip", "3.8.12"),
    ("My python version is 3.11", "3.11"),
    ("python 3.8.12 on Ubuntu, arm64", None),
    ("- Python version: 2.7", None),
], ids=["heading-equals", "no-space", "comma-list-beside-macos", "version-is", "not-a-mac-list", "python-2"])
def test_python_version_said(line, version):
    assert rules.python_version_said(line) == ([("python.version", version)] if version else [])


@pytest.mark.parametrize("line, gb, chip", [
    ("I have had success getting this to work with my M1 Max 32GB.", 32, ("cpu.brand", "Apple M1 Max")),
    ("M2 Pro with 16GB", 16, ("cpu.brand", "Apple M2 Pro")),
    ("MacBook M3, 24 GB", 24, ("cpu.apple_generation", 3)),  # a plain 'M3': stated.py reads the base chip
    ("M1 with 512GB SSD", None, None),
    ("M2 Max 30GB", None, None),
], ids=["m1-max-32gb", "with", "comma", "storage", "not-a-ram-size"])
def test_chip_memory(line, gb, chip):
    expected = [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.memory_bytes", gb * GIB), chip] if gb else []
    assert rules.chip_memory(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("My tensorflow-metal version is `0.3.0`.", [("package", {"name": "tensorflow-metal", "version": "0.3.0"})]),
    ('I got "XlaRuntimeError" when using jax.numpy, where jax-metal=0.1.1, the problems look like:',
     [("package", {"name": "jax-metal", "version": "0.1.1"})]),
    ("pip install jax-metal==0.1.1", []),
    ("conda install numpy=1.26", []),
    ("x=1.5 and foo-bar=2.0", []),
], ids=["version-is", "single-equals", "pip-install", "conda-install", "unknown-names"])
def test_package_said(line, expected):
    assert rules.package_said(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Is MPS (Metal Performance Shader) built? True", [("platform", "darwin"), ("torch.mps_built", True)]),
    ("Is MPS available? True", [("platform", "darwin"), ("torch.mps_available", True), ("torch.mps_built", True)]),
    ("Is MPS available? False", [("torch.mps_available", False)]),
    ("Is MPS available? I think so", []),
], ids=["built", "available", "not-available", "prose"])
def test_mps_question(line, expected):
    assert rules.mps_question(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("For some reason, the home brew config reports this my machine is base on x86_64.",
     [("platform", "darwin"), ("process.arch", "x86_64")]),
    ("brew config reports arm64", []),
    ("brew config no longer reports x86_64", []),
], ids=["home-brew-config", "arm64", "negated"])
def test_brew_reports_x86(line, expected):
    assert rules.brew_reports_x86(line) == expected
