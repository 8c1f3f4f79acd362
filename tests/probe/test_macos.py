import json

import pytest

from conftest import lookup
from macml.diagnose import all_checks
from macml.facts import GIB, to_jsonable
from macml.probe.macos import (
    ARM64, CPU_BRAND, MEMSIZE, PROFILER_JSON, PROFILER_TEXT, SW_VERS, build_facts, normalise_vendor,
    parse_core_counts, parse_metal, parse_size, parse_sw_vers, parse_sysctl_int, parse_system_profiler_json,
    parse_system_profiler_text,
)
from macml.probe.runner import CommandResult, ReplayCommands, command_key

from conftest import MACHINES
MAC_FIXTURES = sorted(MACHINES.glob("mac-*.json"))
CHECK_NAMES = set(all_checks())

M1_JSON = """{
  "SPDisplaysDataType" : [
    {
      "_name" : "kHW_AppleM1Item",
      "spdisplays_mtlgpufamilysupport" : "spdisplays_metal3",
      "spdisplays_vendor" : "sppci_vendor_Apple",
      "sppci_bus" : "spdisplays_builtin",
      "sppci_cores" : "8",
      "sppci_device_type" : "spdisplays_gpu",
      "sppci_model" : "Apple M1"
    }
  ],
  "SPHardwareDataType" : [
    {
      "_name" : "hardware_overview",
      "chip_type" : "Apple M1",
      "machine_model" : "Macmini9,1",
      "number_processors" : "proc 8:4:4",
      "physical_memory" : "16 GB"
    }
  ]
}"""

INTEL_TEXT = """Hardware:

    Hardware Overview:

      Model Name: MacBook Pro
      Model Identifier: MacBookPro15,1
      Processor Name: 6-Core Intel Core i7
      Processor Speed: 3,29 GHz
      Total Number of Cores: 6
      Memory: 16 GB

Graphics/Displays:

    Intel UHD Graphics 630:

      Chipset Model: Intel UHD Graphics 630
      Type: GPU
      Bus: Built-In
      VRAM (Dynamic, Max): 1536 MB
      Vendor: Intel
      Metal: Supported, feature set macOS GPUFamily2 v1

    Radeon Pro 560X:

      Chipset Model: Radeon Pro 560X
      Type: GPU
      Bus: PCIe
      VRAM (Total): 4 GB
      Vendor: ATI (0x1002)
      Metal Family: Supported, Metal GPUFamily macOS 2
      Displays:
        Color LCD:
          Display Type: Built-In Retina LCD
          Resolution: 2880 x 1800 Retina

    Radeon RX 5700 XT:

      Chipset Model: Radeon RX 5700 XT
      Type: External GPU
      Bus: PCIe
      VRAM (Total): 8 GB
      Vendor: AMD (0x1002)
      Metal: Supported, feature set macOS GPUFamily2 v1
      GPU is Removable: Yes
"""

APPLE_TEXT = """Hardware:

    Hardware Overview:

      Model Name: MacBook Pro
      Model Identifier: Mac14,9
      Chip: Apple M2 Pro
      Total Number of Cores: 10 (6 performance and 4 efficiency)
      Memory: 16 GB

Graphics/Displays:

    Apple M2 Pro:

      Chipset Model: Apple M2 Pro
      Type: GPU
      Bus: Built-In
      Total Number of Cores: 16
      Vendor: Apple (0x106b)
      Metal Support: Metal 3
"""


# ---- small parsers -------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, expected",
    [
        ("ProductName:\t\tmacOS\nProductVersion:\t\t14.4.1\nBuildVersion:\t\t23E224\n", ("macOS", "14.4.1", "23E224")),
        ("ProductName:\tMac OS X\nProductVersion:\t10.15.7\nBuildVersion:\t19H2\n", ("Mac OS X", "10.15.7", "19H2")),
        ("ProductName:\t\tmacOS\nProductVersion:\t\t26.0\nBuildVersion:\t\t25A354\n", ("macOS", "26.0", "25A354")),
        ("", ("macOS", "", None)),
        ("ProductVersion:\t\t1\ufffd.4\nBuildVersion:\t\t\ufffd\ufffd\n", ("macOS", "", None)),
    ],
    ids=["sonoma", "catalina-old-name", "tahoe", "empty", "garbage"],
)
def test_parse_sw_vers(text, expected):
    assert parse_sw_vers(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [("8589934592\n", 8589934592), ("1\n", 1), ("0", 0), ("", None), ("sysctl: unknown oid 'hw.optional.arm64'", None),
     ("\ufffd\ufffd", None), ("-1", None)],
    ids=["memsize", "arm64-one", "zero", "empty", "unknown-oid", "garbage", "negative"],
)
def test_parse_sysctl_int(text, expected):
    assert parse_sysctl_int(text) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("proc 16:12:4", (16, 12, 4)),
        ("proc 8:4:4", (8, 4, 4)),
        ("proc 12:0:8:4", (12, 8, 4)),
        ("proc 24:16:8:0", (24, 16, 8)),
        (4, (4, None, None)),
        ("10 (8 performance and 2 efficiency)", (10, 8, 2)),
        ("8", (8, None, None)),
        (None, (None, None, None)),
        (["proc"], (None, None, None)),
        ("\ufffd", (None, None, None)),
    ],
    ids=["m4-max", "m1", "four-fields-leading-zero", "four-fields-trailing-zero", "vm-integer", "text-form",
         "intel-text", "absent", "wrong-type", "garbage"],
)
def test_parse_core_counts(value, expected):
    assert parse_core_counts(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("48 GB", 48 * GIB), ("1536 MB", 1536 * 1024**2), ("1,5 GB", int(1.5 * GIB)), ("8 Go", 8 * GIB),
     ("Dynamic, Max: 2 GB", 2 * GIB), ("", None), (None, None), ("lots", None), (64, None)],
    ids=["gb", "mb", "decimal-comma", "french-unit", "with-prefix", "empty", "none", "words", "bare-number"],
)
def test_parse_size(value, expected):
    assert parse_size(value) == expected


@pytest.mark.parametrize(
    "raw, model, expected",
    [
        ("sppci_vendor_Apple", "Apple M1", "Apple"),
        ("sppci_vendor_amd", "AMD Radeon Pro 5500M", "AMD"),
        ("sppci_vendor_AMD", "", "AMD"),
        ("sppci_vendor_intel", "", "Intel"),
        ("Intel", "", "Intel"),
        ("AMD (0x1002)", "", "AMD"),
        ("ATI (0x1002)", "Radeon Pro 560X", "AMD"),
        ("Apple (0x106b)", "", "Apple"),
        ("0x10de", "", "NVIDIA"),
        ("", "Radeon Pro 560X", "AMD"),
        ("", "Intel Iris Plus Graphics 655", "Intel"),
        (None, "NVIDIA GeForce GT 750M", "NVIDIA"),
        ("\ufffd", "mystery", "unknown"),
    ],
    ids=lambda v: repr(v),
)
def test_normalise_vendor(raw, model, expected):
    assert normalise_vendor(raw, model) == expected


@pytest.mark.parametrize(
    "raw, expected",
    [("spdisplays_metal3", "Metal 3"), ("spdisplays_metal4", "Metal 4"), ("Metal 3", "Metal 3"),
     ("spdisplays_metal", "Metal"), ("Supported, Metal GPUFamily Apple 7", "Metal"),
     ("Supported, feature set macOS GPUFamily2 v1", "Metal"), ("spdisplays_mtlgpufamilymac2", "Metal"),
     ("spdisplays_supported", "Metal"), ("Not Supported", None), ("", None), (None, None)],
    ids=lambda v: repr(v),
)
def test_parse_metal(raw, expected):
    assert parse_metal(raw) == expected


# ---- system_profiler -json -------------------------------------------------------------

def test_json_apple_gpu_uses_sppci_model_not_khw_name():
    hardware, gpus = parse_system_profiler_json(M1_JSON)
    assert hardware["chip_type"] == "Apple M1"
    [gpu] = gpus
    assert (gpu.vendor, gpu.model, gpu.cores, gpu.metal, gpu.unified_memory) == ("Apple", "Apple M1", 8, "Metal 3", True)
    assert gpu.memory_bytes is None  # unified: the caller fills in system memory
    assert (gpu.peak_fp32_tflops, gpu.bandwidth_gbs) == (2.6, 68.0)


@pytest.mark.parametrize(
    "text",
    [M1_JSON[: len(M1_JSON) // 2], "", "not json at all", "[1, 2, 3]", "\ufffd\ufffdbplist00\ufffd", "null",
     '{"SPHardwareDataType": "oops", "SPDisplaysDataType": {"a": 1}}', "[" * 100000],
    ids=["truncated", "empty", "words", "json-list", "binary-garbage", "null", "wrong-shapes", "deep-nesting"],
)
def test_json_hostile_input_gives_nothing_without_raising(text):
    assert parse_system_profiler_json(text) == (None, [])


def test_json_hostile_field_types_do_not_raise():
    doc = {"SPHardwareDataType": [{"chip_type": ["Apple M1"]}],
           "SPDisplaysDataType": [{"sppci_model": 42, "sppci_cores": ["8"], "spdisplays_vendor": {"x": 1},
                                   "spdisplays_vram": 7}, "not-a-dict", {}]}
    hardware, gpus = parse_system_profiler_json(json.dumps(doc))
    assert hardware == {"chip_type": ["Apple M1"]}
    [gpu] = gpus
    assert (gpu.model, gpu.cores, gpu.memory_bytes, gpu.vendor) == ("42", None, None, "unknown")


def test_json_egpu_and_replacement_characters():
    doc = {"SPDisplaysDataType": [
        {"sppci_model": "Radeon RX 580", "spdisplays_vendor": "sppci_vendor_amd", "sppci_device_type": "spdisplays_egpu",
         "spdisplays_gpu_removable": "spdisplays_yes", "spdisplays_vram": "8 GB"},
        {"_name": "Intel Iris Plus Graphics 655", "spdisplays_vendor": "sppci_vendor_intel",
         "spdisplays_vram_shared": "1536 MB", "spdisplays_ndrvs": [{"_name": "DELL \ufffd\ufffd"}]},
    ]}
    hardware, gpus = parse_system_profiler_json(json.dumps(doc))
    assert hardware is None
    assert [(g.vendor, g.model, g.external, g.memory_bytes) for g in gpus] == [
        ("AMD", "Radeon RX 580", True, 8 * GIB), ("Intel", "Intel Iris Plus Graphics 655", False, 1536 * 1024**2)]


# ---- system_profiler text form ---------------------------------------------------------

def test_text_intel_mac_with_ati_vendor_and_egpu():
    hardware, gpus = parse_system_profiler_text(INTEL_TEXT)
    assert hardware == {"machine_model": "MacBookPro15,1", "physical_memory": "16 GB", "number_processors": "6",
                        "cpu_type": "6-Core Intel Core i7", "machine_name": "MacBook Pro"}
    assert [(g.vendor, g.model, g.memory_bytes, g.metal, g.external) for g in gpus] == [
        ("Intel", "Intel UHD Graphics 630", 1536 * 1024**2, "Metal", False),
        ("AMD", "Radeon Pro 560X", 4 * GIB, "Metal", False),
        ("AMD", "Radeon RX 5700 XT", 8 * GIB, "Metal", True),
    ]
    assert gpus[1].peak_fp32_tflops == 2.0


def test_text_apple_silicon_cores_and_metal_support_line():
    hardware, gpus = parse_system_profiler_text(APPLE_TEXT)
    assert hardware["chip_type"] == "Apple M2 Pro"
    assert parse_core_counts(hardware["number_processors"]) == (10, 6, 4)
    [gpu] = gpus
    assert (gpu.vendor, gpu.cores, gpu.metal, gpu.unified_memory) == ("Apple", 16, "Metal 3", True)


def test_text_without_block_titles_still_splits_gpus():
    text = "Chipset Model: AMD Radeon Pro 5500M\nVRAM (Total): 8 GB\nChipset Model: Intel UHD Graphics 630\n"
    _, gpus = parse_system_profiler_text(text)
    assert [(g.vendor, g.memory_bytes) for g in gpus] == [("AMD", 8 * GIB), ("Intel", None)]


@pytest.mark.parametrize("text", ["", "\ufffd\ufffd\n\ufffd: \ufffd\n", "Graphics/Displays:\n"], ids=["empty", "garbage", "no-gpus"])
def test_text_hostile_input(text):
    assert parse_system_profiler_text(text) == (None, [])


# ---- build_facts -----------------------------------------------------------------------


def parts(system):
    return system.os, system.cpu, system.gpus, system.problems

class FakeCommands:
    """Answers from {argv: CommandResult-ish}; records what was asked."""

    def __init__(self, answers):
        self.answers = answers
        self.asked = []

    def run(self, argv):
        self.asked.append(tuple(argv))
        answer = self.answers.get(tuple(argv))
        if answer is None:
            return CommandResult(tuple(argv), None, missing=True)
        if answer == "timeout":
            return CommandResult(tuple(argv), None, stderr="timed out after 10s", timed_out=True)
        rc, stdout = answer
        return CommandResult(tuple(argv), rc, stdout)


def apple_answers(profiler_json=M1_JSON):
    return {SW_VERS: (0, "ProductName:\t\tmacOS\nProductVersion:\t\t15.1\nBuildVersion:\t\t24B83\n"),
            CPU_BRAND: (0, "Apple M1\n"), MEMSIZE: (0, f"{16 * GIB}\n"), ARM64: (0, "1\n"),
            PROFILER_JSON: (0, profiler_json), PROFILER_TEXT: (0, APPLE_TEXT)}


def test_runs_exactly_the_snapshot_commands_when_json_is_good():
    fake = FakeCommands(apple_answers())
    os_facts, cpu, gpus, problems = parts(build_facts(fake.run))
    assert fake.asked == [SW_VERS, CPU_BRAND, MEMSIZE, ARM64, PROFILER_JSON]
    assert [command_key(a) for a in fake.asked[-1:]] == ["system_profiler -json SPHardwareDataType SPDisplaysDataType"]
    assert (os_facts.system, os_facts.version, os_facts.build) == ("Darwin", "15.1", "24B83")
    assert (cpu.chip.name, cpu.hardware_arch, cpu.apple_silicon, cpu.memory_bytes) == ("Apple M1", "arm64", True, 16 * GIB)
    assert gpus[0].memory_bytes == 16 * GIB and problems == ()


def test_truncated_json_falls_back_to_the_text_form():
    fake = FakeCommands(apple_answers(profiler_json=M1_JSON[:200]))
    _, cpu, gpus, problems = parts(build_facts(fake.run))
    assert fake.asked[-1] == PROFILER_TEXT
    assert cpu.chip.name == "Apple M2 Pro" and gpus[0].cores == 16
    assert problems == ("system_profiler -json output was not valid JSON; used the text form",)


def test_everything_timed_out_is_problems_not_an_exception():
    fake = FakeCommands({argv: "timeout" for argv in apple_answers()})
    os_facts, cpu, gpus, problems = parts(build_facts(fake.run))
    assert (os_facts.version, cpu.brand, cpu.hardware_arch, gpus) == ("", "", "unknown", ())
    assert "`sw_vers` timed out" in problems and "`sysctl -n hw.optional.arm64` timed out" in problems
    assert any("-json" in p and "used the text form" in p for p in problems)


def test_everything_missing_is_problems_not_an_exception():
    os_facts, cpu, gpus, problems = parts(build_facts(FakeCommands({}).run))
    assert gpus == () and cpu.chip is None
    assert "`sw_vers` is not available" in problems


def test_rosetta_brand_string_with_arm64_sysctl_is_apple_silicon():
    answers = apple_answers(profiler_json='{"SPDisplaysDataType": []}')
    answers[CPU_BRAND] = (0, "VirtualApple @ 2.50GHz processor\n")
    answers[PROFILER_TEXT] = (0, "")
    _, cpu, _, problems = parts(build_facts(FakeCommands(answers).run))
    assert (cpu.hardware_arch, cpu.apple_silicon, cpu.chip) == ("arm64", True, None)
    assert any("held no hardware or display data" in p for p in problems)


def test_arm64_sysctl_alone_decides_the_hardware_arch():
    answers = apple_answers(profiler_json='{"SPHardwareDataType": [{"machine_model": "Mac14,2"}]}')
    del answers[CPU_BRAND]
    _, cpu, _, problems = parts(build_facts(FakeCommands(answers).run))
    assert (cpu.hardware_arch, cpu.apple_silicon, cpu.chip, cpu.brand) == ("arm64", True, None, "")
    assert problems == ("`sysctl -n machdep.cpu.brand_string` is not available",)


def test_intel_unknown_oid_for_arm64_is_not_a_problem():
    answers = {SW_VERS: (0, "ProductVersion:\t12.7.6\n"), CPU_BRAND: (0, "Intel(R) Core(TM) i7-8850H CPU @ 2.60GHz\n"),
               MEMSIZE: (0, "17179869184\n"), ARM64: (1, ""), PROFILER_JSON: (0, '{"SPHardwareDataType": [{}]}')}
    _, cpu, _, problems = parts(build_facts(FakeCommands(answers).run))
    assert (cpu.hardware_arch, cpu.apple_silicon) == ("x86_64", False)
    assert problems == ()


def test_vm_with_unknown_future_virtual_chip():
    doc = {"SPHardwareDataType": [{"chip_type": "Apple M7 Max (Virtual)", "number_processors": 6,
                                   "machine_model": "VirtualMac2,1", "physical_memory": "12 GB"}],
           "SPDisplaysDataType": [{"sppci_model": "Apple Paravirtual device", "spdisplays_vendor": "sppci_vendor_Apple"}]}
    answers = apple_answers(profiler_json=json.dumps(doc))
    answers[CPU_BRAND], answers[MEMSIZE] = (0, "Apple M7 Max (Virtual)\n"), "timeout"
    _, cpu, gpus, problems = parts(build_facts(FakeCommands(answers).run))
    assert (cpu.chip.generation, cpu.chip.virtual, cpu.cores, cpu.performance_cores) == (7, True, 6, None)
    assert cpu.memory_bytes == 12 * GIB and gpus[0].memory_bytes == 12 * GIB
    assert problems == ("`sysctl -n hw.memsize` timed out",)


# ---- recorded machines -----------------------------------------------------------------

def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_recorded_macs():
    assert len(MAC_FIXTURES) >= 13


@pytest.mark.parametrize("path", MAC_FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_a_version_1_snapshot_with_sane_expectations(path):
    snapshot = load(path)
    assert snapshot["macml_snapshot"] == 1 and snapshot["platform"] == "darwin"
    assert {"commands", "interpreter", "frameworks", "env", "expect"} <= snapshot.keys()
    for record in snapshot["commands"].values():
        assert {"returncode", "stdout", "stderr"} <= record.keys()
    expect = snapshot["expect"]
    assert set(expect["findings"]) <= CHECK_NAMES and set(expect["not_findings"]) <= CHECK_NAMES
    assert set(expect["findings"].values()) <= {"ok", "warn", "fail", "info"}
    assert not set(expect["findings"]) & set(expect["not_findings"])


@pytest.mark.parametrize("path", MAC_FIXTURES, ids=lambda p: p.stem)
def test_fixture_os_cpu_gpu_facts(path):
    snapshot = load(path)
    os_facts, cpu, gpus, _ = parts(build_facts(ReplayCommands(snapshot["commands"]).run))
    facts = {"os": to_jsonable(os_facts), "cpu": to_jsonable(cpu), "gpus": to_jsonable(gpus)}
    expected = {k: v for k, v in snapshot["expect"]["facts"].items() if k.split(".")[0] in facts}
    assert expected, "every recorded Mac states something about its hardware"
    assert {k: lookup(facts, k) for k in expected} == expected


# Recordings that are hostile on purpose, and what the probe must say about them.
EXPECTED_PROBLEMS = {
    "mac-intel-5500m": ["-json output was not valid JSON; used the text form"],
    "mac-garbage-output": ["`sysctl -n hw.memsize` timed out", "-json output was not valid JSON"],
}


@pytest.mark.parametrize("path", MAC_FIXTURES, ids=lambda p: p.stem)
def test_fixture_probe_problems(path):
    problems = build_facts(ReplayCommands(load(path)["commands"]).run).problems
    fragments = EXPECTED_PROBLEMS.get(path.stem, [])
    assert len(problems) == len(fragments), problems
    for fragment in fragments:
        assert any(fragment in p for p in problems), problems
