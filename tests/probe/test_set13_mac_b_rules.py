"""Set 13 (mac-b): specs typed by hand, CJK prose glued to Latin words, GPU memory beside a name."""
from __future__ import annotations

from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.mac_model_year_rules import intel_mac_by_year
from macml.probe.paste.prose_rules import mac_in_prose
from macml.probe.paste.statements import read_statements
from macml.probe.paste.text import clean_lines
from macml.probe.paste.typed_specs_rules import answers, line_facts


def facts_of(text: str):
    return [(s.fact, s.value) for s in read_statements(clean_lines(text))]


def test_cjk_glued_chip_memory_and_release():
    facts = facts_of("如题，本机是M1 8G Mac ，系统是最新的Sonoma 14.4 \n")
    assert ("cpu.brand", "Apple M1") in facts
    assert ("cpu.memory_bytes", 8 * 1024**3) in facts
    assert ("os.version", "14.4") in facts


def test_release_name_one_letter_off_must_match_its_number():
    assert ("os.version", "12.0.1") in line_facts("- Monterrey 12.0.1")
    assert ("os.version", "14.4") in line_facts("Sonoma 14.4")
    assert not [f for f in line_facts("Monterrey 13.1") if f[0] == "os.version"]  # 13 is Ventura's
    assert not [f for f in line_facts("Version 12.0.1") if f[0] == "os.version"]


def test_version_with_its_build_alone_on_a_line():
    assert ("os.version", "10.14.5") in line_facts("10.14.5 (18F203)")
    assert not [f for f in line_facts("10.15.5 (18F203)") if f[0] == "os.version"]  # 18F is 10.14.5


def test_ddr_memory_is_ram_and_gpu_memory_is_not():
    assert ("cpu.memory_bytes", 40 * 1024**3) in line_facts("Graphics card, 40GB 2133 MHz DDR4 memory")
    assert mac_in_prose('27" Imac, 3.8GHz 8-Core Intel Core I7, with AMD Radeon Pro 5500 XT 8 GB') == []


def test_gpu_memory_written_after_its_name():
    facts = line_facts("- **System GPUs**: IRadeon Pro 460 4 GB, Intel HD Graphics 530 1536 MB")
    assert ("gpu.mention", "Intel HD Graphics 530") in facts
    assert ("gpu.memory_of", {"index": None, "memory_mib": 1536}) in facts
    facts = line_facts("Intel i7, 64GB Ram and Radeon RX580 with 8G Ram.")
    assert ("gpu.mention", "Radeon RX580") in facts and ("gpu.memory_of", {"index": None, "memory_mib": 8192}) in facts


def test_mac_table_row_old_macos_cell():
    row = '|     iMac 27" 2019    |    i9 3.6 GHz 8-core   |  64 | 2TB |  11.6 | 10.15.6 |    252    |'
    assert ("os.version", "10.15.6") in line_facts(row)
    assert not [f for f in line_facts("| Ubuntu | 10.15.6 |") if f[0] == "os.version"]


def test_mac_model_with_size_and_retina_before_its_year():
    assert ("cpu.hardware_arch", "x86_64") in intel_mac_by_year('- iMac 27" Retina 5K, Late 2015')


def test_gddr_is_not_part_of_a_gpu_name():
    assert gpu_names("- PowerColor AMD Radeon RX 6600 XT Fighter GDDR6") == ["AMD Radeon RX 6600 XT Fighter"]


def test_vendor_egpu_is_the_one_desktop_card():
    lines = ["- AMD Radeon R9 M380 2 GB", "- PowerColor AMD Radeon RX 6600 XT Fighter GDDR6",
             "My SI shows an AMD eGPU is present"]
    assert answers(lines) == {1: [("gpu.external", "PowerColor AMD Radeon RX 6600 XT Fighter")]}
    assert answers(lines[:2]) == {}
