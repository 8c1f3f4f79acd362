"""Set 17's second Mac rules (about_this_mac_rules, build_triple_rules, python_build_rules, uv_tag_rules,
tf_device_answer_rules, one numbered device spelled twice in stated_gpus), fed literal lines, and what facts make
of them."""
import pytest

from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import about_this_mac_rules, build_triple_rules, import_pastes, python_build_rules
from macml.probe.paste import tf_device_answer_rules, uv_tag_rules

GB = 1024**3


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _lines(text):
    return text.splitlines()


# --- About This Mac's 'Memory 32GB' -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, index, gb", [
    ("MacOS Monterey\nVersion 12.0\nMacBook Pro (16 inch, 2021)\nChip Apple M1 Max\nMemory 32GB\n", 4, 32),
    ("Processor 2.3 GHz 8-Core Intel Core i9\nMemory 16 GB 2667 MHz DDR4\nGraphics AMD Radeon Pro 5500M 4 GB\n", 1, 16),
    ("Chip Apple M2 Pro\nMemory 32 GB\nStartup disk Macintosh HD\n", 1, 32),
    ("- Chip Apple M3 Max\n- Memory 128 GB\n", 1, 128),
], ids=["monterey-about-this-mac", "intel-ddr4", "ventura-startup-disk", "bulleted"])
def test_about_this_mac_memory(text, index, gb):
    assert about_this_mac_rules.answers(_lines(text))[index] == [("platform", "darwin"), ("cpu.memory_bytes", gb * GB)]


@pytest.mark.parametrize("text", [
    "Memory 32GB\n",  # alone: no other line of the summary
    "Chip Apple M1 Max\nMemory 32GB is not enough for this model\n",  # a sentence, not the summary's value
    "Minimum requirements:\nChip Apple M1\nMemory 16GB\n",  # a requirement list
    "Will it run on this?\nChip Apple M2\nMemory 8GB\n",  # a question
    "Memory usage 12GB\nChip Apple M1\n",
], ids=["alone", "sentence", "requirements", "question", "usage"])
def test_about_this_mac_memory_near_misses(text):
    assert about_this_mac_rules.answers(_lines(text)) == {}


def test_about_this_mac_memory_reaches_facts():
    facts = _facts("MacOS Monterey\nVersion 12.0\nMacBook Pro (16 inch, 2021)\nChip Apple M1 Max\nMemory 32GB\n")
    assert facts.cpu.memory_bytes == 32 * GB


# --- a program's own target triple ---------------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, arch", [
    ("platform", "aarch64-apple-darwin20 (64-bit)", "arm64"),  # R sessionInfo()
    ("host", "aarch64-apple-darwin", "arm64"),  # rustc -vV
    ("default host", "arm64-apple-darwin", "arm64"),  # rustup show
    ("platform", "x86_64-apple-darwin17.0 (64-bit)", "x86_64"),
])
def test_own_triple(key, value, arch):
    assert build_triple_rules.keyed_facts(key, value) == [("platform", "darwin"), ("process.arch", arch)]


@pytest.mark.parametrize("key, value", [
    ("target", "arm64-apple-darwin"),  # a (cross) compiler's target
    ("targets", "aarch64-apple-darwin, x86_64-apple-darwin"),
    ("platform", "rustup target add aarch64-apple-darwin"),
    ("platform", "aarch64-unknown-linux-gnu"),
])
def test_own_triple_near_misses(key, value):
    assert build_triple_rules.keyed_facts(key, value) == []


def test_r_session_info_is_apple_silicon():
    facts = _facts("R version 4.1.1 (2021-08-10)\nPlatform: aarch64-apple-darwin20 (64-bit)\n"
                   "Running under: macOS Big Sur 11.6\n")
    assert facts.cpu.hardware_arch == "arm64" and facts.cpu.apple_silicon is True


# --- sys.version ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, version", [
    ("version:        3.9.12 | packaged by conda-forge | (main, Mar 24 2022, 23:25:14)  [Clang 12.0.1 ]", "3.9.12"),
    ("version:        3.10.15 (main, Nov 20 2024, 16:40:35) [Clang 16.0.0 (clang-1600.0.26.4)]", "3.10.15"),
    ("Python 3.8.10 (default, Nov 22 2023, 10:22:35) ", "3.8.10"),
    ("3.11.0rc2 (tags/v3.11.0rc2:ed7b8c5, Sep 12 2022, 05:44:35) [MSC v.1933 64 bit (AMD64)]", "3.11.0"),
])
def test_python_build_string(line, version):
    assert python_build_rules.line_facts(line)[0] == ("python.version", version)


@pytest.mark.parametrize("line", [
    "It works on 3.9.12 but not on 3.10",  # no build part
    "I do not use 3.9.12 (main, Mar 24 2022, 23:25:14) any more",  # denied
    "Does 3.10.15 (main, Nov 20 2024, 16:40:35) work with it?",  # a question
    "numpy 1.26.4 (main, Nov 20 2024)",
])
def test_python_build_string_near_misses(line):
    assert python_build_rules.line_facts(line) == []


def test_reticulate_version_beats_libpython_minor():
    facts = _facts("python:         /Users/me/miniforge3/bin/python3\n"
                   "libpython:      /Users/me/miniforge3/lib/libpython3.9.dylib\n"
                   "version:        3.9.12 | packaged by conda-forge | (main, Mar 24 2022, 23:25:14)  [Clang 12.0.1 ]\n")
    assert facts.interpreter.version == "3.9.12"


# --- uv's own platform tag -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, machine", [
    ("has no wheels with a matching platform tag (e.g., `macosx_26_0_x86_64`) and you require", "x86_64"),
    ("hint: You're on macOS (`macosx_14_0_arm64`), but `torch` (v2.3.0) only has wheels for the following platforms",
     "arm64"),
])
def test_uv_own_tag(line, machine):
    assert uv_tag_rules.line_facts(line) == [("platform", "darwin"), ("python.machine", machine)]


@pytest.mark.parametrize("line", [
    "hint: Wheels are available for `torch` (v2.11.0+cpu) on the following platforms: `manylinux_2_28_aarch64`, "
    "`macosx_11_0_arm64`, `win_amd64`",
    "torch-2.3.0-cp312-none-macosx_11_0_arm64.whl",
    "has no wheels with a matching platform tag (e.g., `manylinux_2_28_x86_64`)",
])
def test_uv_own_tag_near_misses(line):
    assert uv_tag_rules.line_facts(line) == []


def test_uv_x86_python_on_m5_pro_is_rosetta():
    facts = _facts("Not able to install vLLM in my new mac machine M5 pro\n"
                   "Using Python 3.12.9 environment at: /Users/me/.venv\n"
                   "  ╰─▶ Because torch==2.11.0+cpu has no wheels with a matching platform tag (e.g., `macosx_26_0_x86_64`)"
                   " and you require torch==2.11.0+cpu, we can conclude that your requirements are unsatisfiable.\n")
    assert facts.interpreter.machine == "x86_64" and facts.rosetta is True


# --- TensorFlow's empty device list, from R or Python ----------------------------------------------------------------

@pytest.mark.parametrize("text, index", [
    ('`library(tensorflow)\ntf$config$list_physical_devices("GPU")`\n\nGive me:\n\n`list()`\n', 5),
    (">>> tf.config.list_physical_devices('GPU')\nOutput:\n[]\n", 2),
    ('tf$config$list_physical_devices("GPU")\n```\nlist()\n```\n', 2),
], ids=["r-prose-lead-in", "python-output-lead-in", "fenced"])
def test_tf_empty_device_answer(text, index):
    assert tf_device_answer_rules.answers(_lines(text)) == {index: [("tensorflow.no_gpu", True)]}


@pytest.mark.parametrize("text", [
    'tf$config$list_physical_devices("GPU")\n[[1]]\nPhysicalDevice(name=\'/physical_device:GPU:0\', device_type=\'GPU\')\n',
    'tf$config$list_physical_devices("GPU")\nThen I ran pip list and installed tensorflow-metal.\nlist()\n',
    'tf$config$list_physical_devices("CPU")\nlist()\n',
], ids=["lists-a-gpu", "prose-between", "cpu-question"])
def test_tf_empty_device_answer_near_misses(text):
    assert tf_device_answer_rules.answers(_lines(text)) == {}


# --- one numbered device spelled twice -----------------------------------------------------------------------------

def test_plaidml_metal_and_opencl_lines_are_one_gpu():
    facts = _facts("Default Config Devices:\n   metal_intel_iris_graphics.0 : Intel Iris Graphics (Metal)\n\n"
                   "Experimental Config Devices:\n   opencl_intel_iris.0 : Intel Iris (OpenCL)\n")
    assert [g.model for g in facts.gpus] == ["Intel Iris Graphics"]


def test_two_numbered_devices_stay_two():
    facts = _facts("Default Config Devices:\n   metal_amd_radeon_pro_580.0 : AMD Radeon Pro 580 (Metal)\n"
                   "   metal_intel_uhd_graphics_630.0 : Intel(R) UHD Graphics 630 (Metal)\n")
    assert len(facts.gpus) == 2
