"""The rules of form_answer_rules.py, hardware_prose_rules.py and shell_output_rules.py (set 10, slice mac-b),
fed literal lines: issue-form answers on later lines, hardware written in prose, `file` and `pip list` output."""
from __future__ import annotations

import pytest

from macml.probe.paste import form_answer_rules as forms
from macml.probe.paste import hardware_prose_rules as prose
from macml.probe.paste import mac_text_rules
from macml.probe.paste import shell_output_rules as shell
from macml.probe.paste.inline_rules import anywhere
from macml.probe.paste.stack_text_rules import stack_line
from macml.probe.paste.statements import read_statements


def _stated(text: str):
    return [(s.fact, s.value) for s in read_statements(text.splitlines())]


# --- form_answer_rules ------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, arch", [("X64", "x86_64"), ("ARM64", "arm64"), ("x86_64", "x86_64")])
def test_architecture_form_answer(answer, arch):
    lines = ["### Architecture", "", answer, "", "### Execution Provider"]
    assert forms.answers(lines) == {2: [("cpu.hardware_arch", arch)]}
    assert forms.states_x86_architecture(lines) == (arch == "x86_64")


def test_architecture_answer_must_be_one_arch_word():
    assert forms.answers(["### Architecture", "", "Not sure, a MacBook"]) == {}


def test_x64_answer_overrides_the_arm64_extension_guess():
    lines = ["dlopen(/Users/r/lib/python3.9/site-packages/onnxruntime/capi/x.so, 0x0002): tried: 'x.so' ",
             "(mach-o file, but is an incompatible architecture (have (arm64), need (x86_64)))",
             "### Architecture", "", "X64"]
    assert ("cpu.hardware_arch", "arm64") not in [f for facts in mac_text_rules.answers(lines).values() for f in facts]
    assert ("cpu.hardware_arch", "x86_64") in _stated("\n".join(lines))
    without_form = lines[:2]
    assert ("cpu.hardware_arch", "arm64") in [f for facts in mac_text_rules.answers(without_form).values() for f in facts]


@pytest.mark.parametrize("key, value, facts", [
    ("os platform and distribution", "13.1 (22C65)", [("platform", "darwin"), ("os.version", "13.1"), ("os.build", "22C65")]),
    ("os", "macOS 12.6.3 (21G419)", [("platform", "darwin"), ("os.version", "12.6.3"), ("os.build", "21G419")]),
    ("os platform and distribution", "13.1 (21G419)", []),  # the build is Monterey's, not 13.1's
    ("os platform and distribution", "22.04 (jammy)", []),
    ("python version", "3.9 (22C65)", []),
])
def test_macos_with_build(key, value, facts):
    assert forms.macos_with_build(key, value) == facts


def test_form_heading_answers_macos_with_build():
    assert ("os.version", "13.1") in _stated("### OS Platform and Distribution\n\n13.1 (22C65)\n\n### Python version")


@pytest.mark.parametrize("value, vendor", [("AMD Radeon", "AMD"), ("radeon", "AMD"), ("NVIDIA", "NVIDIA"),
                                           ("AMD Radeon Pro 560X", None), ("Intel", None)])
def test_vendor_only_gpu(value, vendor):
    assert forms.vendor_only_gpu("gpu model and memory", value) == ([("gpu.present", vendor)] if vendor else [])


def test_bullet_answer_on_the_next_line():
    lines = ["- CUDA/cuDNN version:", "- GPU model and memory:", "- AMD Radeon", ""]
    assert forms.answers(lines) == {2: [("gpu.present", "AMD")]}


def test_bullet_list_of_several_answers_is_left_alone():
    lines = ["- GPU:", "    - NVIDIA GeForce RTX 4090", "    - NVIDIA GeForce RTX 4090", "- available: True"]
    assert forms.answers(lines) == {}


# --- hardware_prose_rules -----------------------------------------------------------------------------------

@pytest.mark.parametrize("line, arch", [
    ("when i install pyenv 3.8.5 i get this error my processor is intel i5", "x86_64"),
    ("My CPU is an Intel Core i7", "x86_64"),
    ("my processor is intel i5-like", None),
    ("I have an intel i5 laptop and an M1 Mac", None),  # not said of the machine's processor
])
def test_intel_core_prose(line, arch):
    assert prose.intel_core_prose(line) == ([("cpu.hardware_arch", arch)] if arch else [])


@pytest.mark.parametrize("line, cards", [
    ("Sapphire Vega 56", ["Sapphire Vega 56"]),
    ("- XFX RX 580 8GB", ["XFX RX 580"]),
    ("PowerColor Red Devil RX 6800 XT", ["PowerColor Red Devil RX 6800 XT"]),
    ("Sapphire Radeon RX Vega 56", []),  # a name as tools print it: gpu_names reads that one
    ("MSI GeForce RTX 3080", []),
])
def test_partner_cards(line, cards):
    assert prose.partner_cards(line) == cards


def test_partner_card_after_an_egpu_line_is_external():
    lines = ["Hardware:", "iMac (Late 2017)", "Razor Core X eGPU", "Sapphire Vega 56", ""]
    assert prose.answers(lines) == {3: [("gpu.external", "Sapphire Vega 56")]}
    assert prose.line_facts(lines[3]) == [("gpu", {"name": "Sapphire Vega 56", "vendor": "AMD", "memory_mib": None,
                                                   "index": None})]
    assert prose.answers(["iMac (Late 2017)", "Sapphire Vega 56"]) == {}


@pytest.mark.parametrize("line, mib", [
    ("iMacPro / Radeon Pro Vega 64X 16 Go / Ventura 13.5 / Blender LTS 3.6.1", 16384),
    ("AMD Radeon Pro 5500M 8 GB", 8192),
    ("Sapphire Vega 56 8GB", 8192),
    ("Radeon Pro 560X, 16 GB RAM", None),  # the Mac's memory, not the GPU's
    ("MacBook Pro 16 GB", None),
])
def test_memory_after_gpu(line, mib):
    expected = [("gpu.memory_of", {"index": None, "memory_mib": mib})] if mib else []
    assert prose.memory_after_gpu(line) == expected


def test_gpu_cores_on_their_own_line_for_the_one_chip():
    lines = ["I have got a Mac Studio M3 Ultra, Which model should I use", "",
             "28-core central processing unit, 60-core graphics processor, 32-core neural network engine"]
    assert prose.answers(lines) == {2: [("gpu.cores", 60)]}
    assert prose.answers(["Mac Studio M3 Ultra", "28-core CPU, 76-core GPU"]) == {}  # an M3 Ultra has 60 or 80
    assert prose.answers(["M3 Ultra or M2 Max?", "60-core GPU"]) == {}  # two chips named


# --- shell_output_rules, and the rules extended in shared modules ---------------------------------------------

@pytest.mark.parametrize("line, machine", [
    ("/Users/user/opt/anaconda3/bin/python: Mach-O 64-bit executable x86_64", "x86_64"),
    ("/opt/homebrew/bin/python3.11: Mach-O 64-bit executable arm64", "arm64"),
    ("/usr/bin/python3: Mach-O universal binary with 2 architectures: [x86_64:Mach-O 64-bit executable x86_64]", None),
    ("/usr/local/bin/node: Mach-O 64-bit executable x86_64", None),
])
def test_file_on_a_python(line, machine):
    assert shell.file_python(line) == ([("platform", "darwin"), ("python.machine", machine)] if machine else [])


def test_pip_list_row_as_long_as_its_column():
    lines = ["tensorflow                   2.11.0", "tensorflow-estimator         2.11.0",
             "tensorflow-io-gcs-filesystem 0.29.0", "```"]
    assert shell.pip_rows(lines) == {2: [("package", {"name": "tensorflow-io-gcs-filesystem", "version": "0.29.0"})]}
    assert shell.pip_rows(["Run pip 23.0", "then numpy 1.24.0"]) == {}  # nothing aligned


def test_webui_caught_exception_means_no_cuda():
    line = "Warning: caught exception 'Torch not compiled with CUDA enabled', memory monitor disabled"
    assert ("torch.cuda_available", False) in stack_line(line)


@pytest.mark.parametrize("line, present", [
    ("I originally chose `opencl_amd_amd_radeon_vega_56`, confirmed the selection", "AMD"),
    ("metal_amd_radeon_pro_560x.0 : AMD Radeon Pro 560X (Metal)", "AMD"),
    ("the metal_intel_uhd_graphics_630 device", "Intel"),
])
def test_plaidml_device_ids_without_number(line, present):
    assert ("gpu.present", present) in anywhere(line)
