"""Set 17's Windows rules (ram_beside_parts_rules, windows_python_platform_rules, project_version_answer_rules), fed
literal lines, and what facts make of them."""
import pytest

from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes, project_version_answer_rules, ram_beside_parts_rules
from macml.probe.paste import windows_python_platform_rules

GB = 1024**3


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


# --- a bare 'N GB RAM' line in a block of this machine's parts ---------------------------------------------------

@pytest.mark.parametrize("text, index, gb", [
    ("**DeepFaceLab_DirectX12_build_05_04_2022**\nWindows 11 Pro x64\nIntel(R) Core(TM) i5-9300H CPU @ 2.40GHz\n"
     "NVIDIA GeForce GTX 1650 (Driver 516.94)\n11.84 GB RAM \n", 4, 11.84),
    ("Ryzen 7 5800X\nRTX 3080\n32GB DDR4 RAM\n", 2, 32),
    ("- Windows 10 Pro\n- 16 GB of RAM\n- AMD Radeon RX 6800 XT\n", 1, 16),
    ("Ubuntu 22.04\n64 GB memory (2x32)\n", 1, 64),
], ids=["deepfacelab-header", "ddr4-after-gpu", "bulleted-of-ram", "distro-then-memory"])
def test_ram_line_in_specs(text, index, gb):
    assert ram_beside_parts_rules.ram_line_in_specs(text.splitlines()) == {index: [("cpu.memory_bytes", round(gb * GB))]}


@pytest.mark.parametrize("text", [
    "11.84 GB RAM\n",  # alone: nothing says whose
    "Minimum requirements:\nWindows 10\n8 GB RAM\nGTX 1060\n",  # a requirement list
    "Recommended\nRTX 3080\n32 GB RAM\n",  # a recommendation
    "NVIDIA GeForce GTX 1650\n4 GB VRAM\n",  # the GPU's memory
    "My friend's PC:\nRTX 3090\n64GB RAM\n",  # someone else's
    "Windows 11\n\n16 GB RAM\n",  # a blank line sets the RAM apart
], ids=["alone", "requirements", "recommended", "vram", "friends", "apart"])
def test_ram_line_in_specs_near_misses(text):
    assert ram_beside_parts_rules.ram_line_in_specs(text.splitlines()) == {}


# --- the RAM after a GPU's VRAM ----------------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, gb", [
    ("gpu model and memory", "AMD RX 480 8g vram 16gb ram", 16),
    ("system", "RTX 3060 12GB VRAM, 32GB RAM", 32),
    ("hardware", "GeForce GTX 1080 Ti 11 GB VRAM / 64 GB system RAM", 64),
], ids=["ort-form", "comma", "system-ram"])
def test_ram_after_vram_answer(key, value, gb):
    assert ram_beside_parts_rules.keyed_facts(key, value) == [("cpu.memory_bytes", gb * GB)]


@pytest.mark.parametrize("key, value", [
    ("gpu model and memory", "AMD RX 480 8g vram"),  # no RAM
    ("gpu", "TITAN Xp 12 GB RAM"),  # the GPU's own memory, called RAM
    ("notes", "RTX 3060 12GB VRAM, 32GB RAM"),  # not an answer about the machine
    ("gpu", "If you have an RTX 3060 12GB VRAM, 32GB RAM is enough"),  # a condition
    ("system", "8GB VRAM 16GB RAM"),  # no GPU named
], ids=["no-ram", "titan-ram", "other-key", "condition", "no-gpu"])
def test_ram_after_vram_answer_near_misses(key, value):
    assert ram_beside_parts_rules.keyed_facts(key, value) == []


def test_ram_after_vram_in_own_words():
    assert ram_beside_parts_rules.line_facts("I have an RTX 3060 12GB VRAM with 32GB RAM") == [("cpu.memory_bytes", 32 * GB)]
    assert ram_beside_parts_rules.line_facts("Users with an RTX 3060 12GB VRAM, 32GB RAM report it works") == []
    assert ram_beside_parts_rules.line_facts("Works on RTX 3060 12GB VRAM, 32GB RAM") == []  # no owner


def test_ort_form_memory_in_facts():
    text = "**System information**\n- OS Platform and Distribution: Windows 10\n- GPU model and memory: AMD RX 480 8g vram 16gb ram\n"
    assert _facts(text).cpu.memory_bytes == 16 * GB


# --- Windows' platform.processor() and platform.machine() --------------------------------------------------------

@pytest.mark.parametrize("line, arch", [
    ("cpu: AMD64 Family 25 Model 80 Stepping 0, AuthenticAMD", "x86_64"),
    ("Processor: Intel64 Family 6 Model 158 Stepping 10, GenuineIntel", "x86_64"),
    ("processor='AMD64 Family 23 Model 113 Stepping 0, AuthenticAMD'", "x86_64"),
    ("cpu: ARMv8 (64-bit) Family 8 Model D4B Revision   0, Qualcomm Technologies Inc", "arm64"),
], ids=["a1111-amd", "intel", "uname-tuple", "windows-on-arm"])
def test_processor_identifier(line, arch):
    assert windows_python_platform_rules.line_facts(line) == [("platform", "win32"), ("cpu.hardware_arch", arch)]


@pytest.mark.parametrize("line", [
    "cpu: x86 Family 6 Model 158 Stepping 10, GenuineIntel",  # 32-bit Windows: the CPU may be 64-bit, or not
    "Does it work on AMD64 Family 25 Model 80 Stepping 0, AuthenticAMD?",  # a question
    "not on AMD64 Family 25 Model 80 Stepping 0, AuthenticAMD",  # denied
    "cpu: AMD64 Family 25",  # cut short
], ids=["x86-32", "question", "denied", "partial"])
def test_processor_identifier_near_misses(line):
    assert windows_python_platform_rules.line_facts(line) == []


@pytest.mark.parametrize("key, value, arch", [
    ("arch", "AMD64", "x86_64"), ("machine", "ARM64", "arm64"), ("platform.machine()", "AMD64", "x86_64"),
], ids=["a1111-arch", "machine-arm64", "call"])
def test_windows_machine(key, value, arch):
    assert windows_python_platform_rules.keyed_facts(key, value) == [("python.machine", arch)]


@pytest.mark.parametrize("key, value", [
    ("arch", "amd64"),  # Debian's / Go's spelling: not platform.machine() on Windows
    ("arch", "x86_64"),
    ("architecture", "AMD64 and ARM64"),  # a list of supported arches
    ("target", "AMD64"),  # a build target, not the Python
], ids=["lower-case", "linux-spelling", "list", "build-target"])
def test_windows_machine_near_misses(key, value):
    assert windows_python_platform_rules.keyed_facts(key, value) == []


def test_a1111_sysinfo_facts():
    text = ("arch: AMD64\ncpu: AMD64 Family 25 Model 80 Stepping 0, AuthenticAMD\nsystem: Windows\n"
            "release: Windows-10-10.0.19045-SP0\npython: 3.10.6\n")
    facts = _facts(text)
    assert facts.platform == "win32"
    assert facts.interpreter.machine == "x86_64"


# --- a version answer that names the installed distribution ------------------------------------------------------

@pytest.mark.parametrize("key, value, name, version", [
    ("onnx runtime version", "Currently on ort-nightly-directml 1.13.0.dev20220823003 (after the fix for this "
     "https://github.com/microsoft/onnxruntime/issues/12677). But also tried with 1.12.1, same error",
     "ort-nightly-directml", "1.13.0.dev20220823003"),
    ("onnx runtime version", "onnxruntime-gpu==1.16.3", "onnxruntime-gpu", "1.16.3"),
    ("tensorflow version", "tf-nightly 2.16.0.dev20231010", "tf-nightly", "2.16.0.dev20231010"),
    ("onnxruntime version", "onnxruntime 1.17.1", "onnxruntime", "1.17.1"),
], ids=["ort-nightly-directml", "pinned-gpu", "tf-nightly", "plain"])
def test_version_answer(key, value, name, version):
    assert project_version_answer_rules.keyed_facts(key, value) == [("package", {"name": name, "version": version})]


@pytest.mark.parametrize("key, value", [
    ("onnx runtime version", "1.12.1"),  # no distribution named (by_key's job where it can)
    ("onnx runtime version", "not ort-nightly-directml 1.13.0, the stable one"),  # denied
    ("onnx runtime version", "also tried ort-nightly 1.13.0.dev20220823003"),  # only tried
    ("onnx runtime version", "numpy 1.26.4 is installed"),  # another project's distribution
    ("onnx runtime version", "if ort-nightly 1.13.0 works, I will switch"),  # a condition
    ("python version", "ort-nightly 1.13.0"),  # a key about another project
], ids=["bare-version", "denied", "tried", "other-dist", "condition", "other-key"])
def test_version_answer_near_misses(key, value):
    assert project_version_answer_rules.keyed_facts(key, value) == []
