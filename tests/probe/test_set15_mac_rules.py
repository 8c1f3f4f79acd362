"""Set 15's Mac rules, fed literal lines: RAM in 'Gb', a decimal-comma TB, a count before an AMD GPU, an untiered
Apple chip by year or by memory, a macOS form answer naming only the release, work inside a Tart VM, an x86_64 conda
installation and a Rosetta environment, and system_profiler text whose hardware and GPU share one block."""
import pathlib
import tempfile

import pytest

from macml.knowledge.mac_families import PLAIN_ONLY_YEARS
from macml.probe.collect import facts_from_snapshot
from macml.probe.inputs import load_inputs
from macml.probe.macos import parse_system_profiler_text
from macml.probe.paste import mac_spec_words_rules as rules, rosetta_env_rules
from macml.probe.paste.statements import read_statements

GIB = 1024 ** 3


def _facts(*lines):
    return [(s.fact, s.value) for s in read_statements(list(lines))]


@pytest.mark.parametrize("key, value, gb", [
    ("ram", "16Gb (DDR3)", 16), ("memory", "8Gb", 8), ("ram", "16GB", None), ("network", "10Gb", None),
    ("ram", "10Gbps", None),
])
def test_ram_in_lower_case_gb(key, value, gb):
    assert rules.ram_in_lower_case_gb(key, value) == ([("cpu.memory_bytes", gb * GIB)] if gb else [])


def test_ram_line_in_markdown_bold():
    assert ("cpu.memory_bytes", 16 * GIB) in _facts("**RAM:** 16Gb (DDR3)")


@pytest.mark.parametrize("line, gb", [("1,5 TB RAM", 1536), ("with 2,0 TB of memory", 2048), ("1,5 TB SSD", None),
                                      ("12,5 TB RAM", None)])
def test_decimal_comma_terabytes(line, gb):
    assert rules.decimal_comma_terabytes(line) == ([("cpu.memory_bytes", gb * GIB)] if gb else [])


def test_counted_amd_gpus():
    facts = rules.counted_amd_gpus("2x Radeon Pro W6900X 32 GB GDDR6 ")
    assert [f[1]["index"] for f in facts] == [0, 1]
    assert {(f[1]["name"], f[1]["vendor"], f[1]["memory_mib"]) for f in facts} == {("Radeon Pro W6900X", "AMD", 32768)}
    assert rules.counted_amd_gpus("not 2x Radeon Pro W6900X") == []
    assert rules.counted_amd_gpus("2x faster than my Radeon Pro 580") == []


@pytest.mark.parametrize("line, facts", [
    ("MacBook Pro with M1 (2020), 16GB RAM", [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.brand", "Apple M1")]),
    ("MacBook Air M2 2022", [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.brand", "Apple M2")]),
    ("MacBook Pro M1 (2021)", [("cpu.apple_generation", 1)]),
    ("Mac M4", [("cpu.apple_generation", 4)]),
    ("MacBook Pro M1 Pro 2021", []),
    ("not a Mac M1", []),
])
def test_untiered_chip(line, facts):
    assert rules.untiered_chip(line) == facts


def test_plain_only_years():
    assert 2020 in PLAIN_ONLY_YEARS[1] and 2021 not in PLAIN_ONLY_YEARS[1] and 3 not in PLAIN_ONLY_YEARS


@pytest.mark.parametrize("key, value, facts", [
    ("macos version", "Ventura", [("platform", "darwin"), ("os.release", "13")]),
    ("macos", "macOS Big Sur", [("platform", "darwin"), ("os.release", "11")]),
    ("macos version", "I use Linux", []),
    ("os", "Ventura", []),
])
def test_macos_release_answer(key, value, facts):
    assert rules.macos_release_answer(key, value) == facts


def test_form_answer_names_macos():
    assert ("platform", "darwin") in _facts("### macOS Version", "", "Ventura")


@pytest.mark.parametrize("line, vm", [
    ("I ran the example inside a Tart VM and indeed it seems not supported", True),
    ("It works inside a VirtualBuddy VM too", True),
    ("I tested it in my Ubuntu VM", False),
    ("it does not run inside a Tart VM", False),
])
def test_inside_named_vm(line, vm):
    assert (("hypervisor", "Apple Virtual Machine") in rules.inside_named_vm(line)) is vm


@pytest.mark.parametrize("line, x86", [
    ("To reproduce, in an M1 mac machine and an x86_64 conda installation, run:", True),
    ("with my x86 miniconda", True),
    ("I do not use an x86_64 conda installation", False),
    ("an arm64 conda installation", False),
])
def test_x86_python_install(line, x86):
    assert (("python.machine", "x86_64") in rosetta_env_rules.x86_python_install(line)) is x86


@pytest.mark.parametrize("line, translated", [
    ("Pytorch cannot be installed in a macOS rosetta environment emulating x64", True),
    ("allow to use it in rosetta environments", False),
])
def test_a_rosetta_environment(line, translated):
    assert (("process.translated", True) in rosetta_env_rules.rosetta_environment(line)) is translated


def test_untiered_chip_resolved_by_memory():
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "paste.txt"
        path.write_text("### GPU model\n\nMac M4\n\n### GPU VRAM\n\n16GB\n")
        facts = facts_from_snapshot(load_inputs([path]).snapshot)
    assert facts.cpu.chip and facts.cpu.chip.name == "Apple M4"
    assert facts.cpu.memory_bytes == 16 * GIB


def test_profiler_text_without_titles_splits_the_gpu():
    text = ("Model Name:\tMacBook Pro\nChip:\tApple M4 Max\nTotal Number of Cores:\t16 (12 performance and 4 efficiency)\n"
            "Memory:\t48 GB\n\nChipset Model:\tApple M4 Max\nType:\tGPU\nBus:\tBuilt-In\nTotal Number of Cores:\t40\n"
            "Vendor:\tApple (0x106b)\nMetal Support:\tMetal 3\n")
    _, gpus = parse_system_profiler_text(text)
    assert [(g.model, g.cores) for g in gpus] == [("Apple M4 Max", 40)]


# Review: an environment the writer left or was told to try is not the one they run; a year not attached to the Mac.
@pytest.mark.parametrize("line", [
    "I switched from the x86 conda to arm64 miniforge",
    "Using the rosetta terminal was the fix suggested, I use native arm64",
])
def test_rosetta_env_not_the_writers(line):
    facts = rosetta_env_rules.line_facts(line)
    assert ("python.machine", "x86_64") not in facts and ("process.translated", True) not in facts


def test_untiered_chip_year_not_the_macs():
    assert rules.untiered_chip("MacBook Pro M2 with PyCharm 2022, 32GB RAM") == [("cpu.apple_generation", 2)]
    assert rules.untiered_chip("2020 MacBook Air M1")[-1] == ("cpu.brand", "Apple M1")
