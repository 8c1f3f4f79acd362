"""Set 16's Mac rules (area mac_a), fed literal lines: a crash report's Rosetta runtime image, a doctor JSON's
observed macOS version, an Apple chip's GPU cores written as 'GPUs' and its memory after a parenthetical, a GPU
form answer naming an Apple chip with a size, and macOS versions written '(11.5)' or 'v 10.14.4'."""
import pytest

from macml.probe.paste import apple_chip_spec_rules as chip_specs
from macml.probe.paste import crash_rosetta_rules as crash
from macml.probe.paste import tool_check_json_rules as check_json
from macml.probe.paste.inline_rules import mac_system
from macml.probe.paste.statements import read_statements

GIB = 1024 ** 3


def _facts(*lines):
    return [(s.fact, s.value) for s in read_statements(list(lines))]


@pytest.mark.parametrize("line, translated", [
    ('    "path" : "\\/usr\\/libexec\\/rosetta\\/runtime",', True),
    ('    "path" : "/Library/Apple/usr/libexec/oah/libRosettaRuntime",', True),
    ("       0x7ff7ffd7c000 -        0x7ff7ffdabfff runtime (*) <d592bc4a-4a21-348f-a406-e12f9cd2f27c> /usr/libexec/rosetta/runtime", True),
    ("Code Type:             X86-64 (Translated)", True),
    ("$ ls -la /usr/libexec/rosetta/runtime", False),
    ("The file /usr/libexec/rosetta/runtime is missing after the update", False),
    ('    "path" : "\\/usr\\/lib\\/dyld",', False),
    ("Code Type:             X86-64 (Native)", False),
])
def test_rosetta_in_crash_report(line, translated):
    facts = crash.line_facts(line)
    assert (("process.translated", True) in facts) is translated
    if translated:
        assert ("cpu.hardware_arch", "arm64") in facts and ("process.arch", "x86_64") in facts


DOCTOR = """{
  "diagnostics": {
    "checks": [
      {
        "expected": "macOS >= 14.0 on Apple Silicon",
        "id": "os.macos_version",
        "observed": "27.2",
        "status": "pass"
      },
      {
        "expected": "15.0",
        "id": "python.native_arm64",
        "observed": "14.1",
        "status": "pass"
      }
    ]
  }
}""".splitlines()


def test_doctor_json_observed_macos():
    assert check_json.answers(DOCTOR) == {6: [("platform", "darwin"), ("os.version", "27.2")]}
    assert ("os.version", "27.2") in _facts(*DOCTOR)
    assert not [v for f, v in _facts(*DOCTOR) if f == "package"]  # 'observed' / 'expected' are no packages


@pytest.mark.parametrize("lines, version", [
    (['{"name": "macOS version", "status": "ok", "actual": "14.5"}'], "14.5"),
    (['  {', '    "check": "macos_version",', '    "value": "macOS 13.6.1"', '  }'], "13.6.1"),
    # the requirement is not the machine's; another check's value is not the macOS
    (['  {', '    "id": "os.macos_version",', '    "expected": "14.0"', '  }'], None),
    (['  {', '    "id": "python.version",', '    "observed": "3.12"', '  }'], None),
    (['  {', '    "id": "os.macos_version",', '    "observed": "21.0"', '  }'], None),  # no macOS 21
    # a bound, not this Mac's version; a one-line object ends where its line does
    (['{"name": "min_macos_version", "value": "13.0"}'], None),
    (['  {', '    "title": "Target macOS version",', '    "value": "11.0"', '  }'], None),
    (['{"check": "macos_version", "status": "fail", "found": ""}', '{"check": "xcode_version", "found": "15.2"}'], None),
    (['{"check": "macos_version", "status": "ok", "found": "14.4"}', '{"check": "xcode_version", "found": "15.2"}'], "14.4"),
    (['  {"id": "os.macos_version",', '   "observed": "14.2"}', '  {"id": "xcode", "observed": "15.1"}'], "14.2"),
])
def test_doctor_json_shapes(lines, version):
    found = [v for facts in check_json.answers(lines).values() for f, v in facts if f == "os.version"]
    assert found == ([version] if version else [])


@pytest.mark.parametrize("line, cores", [
    ("Mac Studio M2 Max (38 GPUs), 96 GB", 38),
    ("MacBook Pro M3 Max 40 GPU, 64GB", 40),
    ("Mac mini M4 Pro (20 GPU)", 20),
    ("Mac Studio M2 Max (4 GPUs)", None),  # not a core count an M2 Max has
    ("unlike the M2 Max (38 GPUs)", None),
    ("M2 Max with 38 GPU cores", None),  # another rule's wording
    ("Mac Pro with M2 Ultra and 2 GPUs", None),
    # asked, advised or someone else's
    ("My colleague's Mac Studio M2 Max (38 GPUs), 96 GB runs it fine", None),
    ("You need at least an M2 Max (38 GPUs), 96 GB", None),
    ("If you have an M3 Max (40 GPU), 128GB, try the bigger model", None),
    ("Does the M3 Pro (18 GPU), 36GB work?", None),
])
def test_gpu_count_as_cores(line, cores):
    assert chip_specs.gpu_count_as_cores(line) == ([("gpu.cores", cores)] if cores else [])


@pytest.mark.parametrize("line, gb", [
    ("Mac Studio M2 Max (38 GPUs), 96 GB", 96),
    ("MacBook Pro M3 Pro (12-core CPU) 36GB RAM", 36),
    ("Mac Studio M2 Max (38 GPUs), 1 TB", None),
    ("Mac Studio M2 Max (38 GPUs), 512 GB SSD", None),
    ("Mac Studio M2 Max (38 GPUs), 20 GB", None),  # no Apple-silicon Mac has 20 GB
    ("compared to the M2 Max (38 GPUs), 96 GB", None),
    ("You need at least an M2 Max (38 GPUs), 96 GB", None),
    ("If you have an M3 Max (40 GPU), 128GB, try the bigger model", None),
    ("llama 70B on M2 Max (Q4_K_M), 48 GB", None),  # the model's size
    ("Mac Studio M2 Max (fp16), 64 GB", None),
])
def test_memory_after_chip_note(line, gb):
    assert chip_specs.memory_after_chip_note(line) == ([("cpu.memory_bytes", gb * GIB)] if gb else [])


@pytest.mark.parametrize("key, value, gb", [
    ("gpu model and memory", "MacBook Pro M1 and 16 GB", 16),
    ("gpu", "Apple M2 Pro, 32GB unified", 32),
    ("gpu model and memory", "NVIDIA RTX 3090 24 GB", None),
    ("gpu model and memory", "M1 with eGPU AMD Radeon RX 580 8 GB", None),
    ("gpu model and memory", "MacBook Pro M1, 512 GB SSD", None),
    ("ram", "MacBook Pro M1 and 16 GB", None),  # not a GPU answer: another rule's
    ("gpu model and memory", "M1 (the 70B model takes 48 GB)", None),  # the model's size
    ("gpu model and memory", "M1, but my colleague's M2 Max has 96 GB", None),
])
def test_apple_gpu_memory_answer(key, value, gb):
    assert chip_specs.keyed_facts(key, value) == ([("cpu.memory_bytes", gb * GIB)] if gb else [])


def test_gpu_form_answer_line():
    assert ("cpu.memory_bytes", 16 * GIB) in _facts("- GPU model and memory: MacBook Pro M1 and 16 GB")


@pytest.mark.parametrize("line, version", [
    ("- MacBook Pro M1 (Mac OS Big Sir (11.5))", "11.5"),
    ("macOS Mojave v 10.14.4", "10.14.4"),
    ("Mac OS X El Capitan (10.11.6)", "10.11.6"),
    ("macOS Ventura v13.4", "13.4"),
    ("built for Mac OS X (10.13)", None),
    ("macOS Sonoma (20.1)", None),  # no such macOS
])
def test_macos_version_in_parentheses_or_after_v(line, version):
    found = [v for f, v in mac_system(line) if f == "os.version"]
    assert found == ([version] if version else [])


@pytest.mark.parametrize("line, version", [
    ("@savingoyal I'm using python `3.10.5`", "3.10.5"),
    ("(conda 4.9.2, cpython 3.8.12, MacOS 12.2)", "3.8.12"),
    ("You might need to install Python 3.9.2 and ensure `platform.machine()` returns `amd64`", None),
    ("try python 3.10.4 instead", None),
])
def test_python_version_said_not_advised(line, version):
    assert dict(_facts(line)).get("python.version") == version


def test_conda_subdir_override_is_not_the_running_python():
    facts = _facts("this works if you disable Rosetta for example `CONDA_SUBDIR=osx-arm64 mamba create -n pym1 python==3.9.2`")
    assert ("platform", "darwin") in facts and ("cpu.hardware_arch", "arm64") in facts
    assert not [v for f, v in facts if f == "python.machine"]
    assert ("python.machine", "arm64") in _facts("platform : osx-arm64")
