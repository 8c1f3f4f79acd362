"""Rules added for set 12's Mac captures (mac-a): each fed literal lines, not the capture files."""
from __future__ import annotations

from macml.probe.paste import mac_hint_rules as hints
from macml.probe.paste.statements import read_statements


def _facts(lines):
    return [(s.fact, s.value) for s in read_statements(lines)]


def test_about_this_mac_processor_is_an_intel_mac():
    facts = hints.about_mac_processor("3.1 GHz Quad-Core Intel Core i7")
    assert ("platform", "darwin") in facts and ("cpu.hardware_arch", "x86_64") in facts
    assert hints.about_mac_processor("Processor 2,3 GHz 8-Core Intel Core i9")
    assert not hints.about_mac_processor("Intel(R) Core(TM) i7-7920HQ CPU @ 3.10GHz")


def test_model_identifier_written_with_spaces():
    assert hints.spaced_model_identifier("System: macOS 14.1.2 (Sonoma) · MacPro Server 5,1") == [("cpu.model", "MacPro5,1")]
    assert hints.spaced_model_identifier("Would this work on mac pro 7,1 AMDGPUs?") == [("cpu.model", "MacPro7,1")]
    assert not hints.spaced_model_identifier("MacBook Pro 13, 2017")
    assert not hints.spaced_model_identifier("a MacBook Pro 16,1.5 kg")
    assert not hints.spaced_model_identifier("MacBook Pro 2,3 GHz Quad-Core Intel Core i5")  # a decimal comma
    assert not hints.spaced_model_identifier("iMac 27,5K display")


def test_mac_pro_mpx_module_without_brand():
    facts = hints.mpx_module("I have dual w6800x duos and would love to use them")
    assert ("gpu", {"name": "AMD Radeon Pro W6800X Duo", "vendor": "AMD", "memory_mib": None, "index": None}) in facts
    assert ("cpu.hardware_arch", "x86_64") in facts
    assert not hints.mpx_module("AMD Radeon Pro W6800X Duo")  # the brand-named form is the GPU readers'


def test_arm_chip_and_mkl_sse42_warning():
    assert ("cpu.hardware_arch", "arm64") in hints.arm_chip("Intel MKL Warning on ARM M1 (2021)- MacOs Ventura 13.5")
    assert hints.mkl_sse42_warning("Intel MKL WARNING: Support of Intel(R) Streaming SIMD Extensions 4.2 (Intel(R) SSE4.2) "
                                   "enabled only processors has been deprecated.") == [("python.machine", "x86_64")]
    assert not hints.arm_chip("an ARM Mali GPU")


def test_egpu_after_the_name():
    assert hints.gpu_called_egpu("works perfectly fine with an AMD Radeon RX6900XT eGPU with DiffusionBee") == [
        ("gpu.external", "AMD Radeon RX6900XT")]
    assert not hints.gpu_called_egpu("an AMD Radeon RX6900XT in a PC")


def test_rosetta_error_after_a_message_and_its_cache_path():
    for line in ("Backend quit unexpectedly. rosetta error: unable to mmap __TEXT: 1 ",
                 "/var/db/oah/f64a632c/373be89c/libffi.8.dylib.aot"):
        facts = hints.rosetta_traces(line)
        assert ("process.translated", True) in facts and ("cpu.hardware_arch", "arm64") in facts
    assert not hints.rosetta_traces("I read about the rosetta error: nothing here")


def test_chinese_spec_words():
    facts = hints.chinese_specs("128GB 统一内存")
    assert ("cpu.memory_bytes", 128 * 1024**3) in facts
    assert hints.chinese_specs("Apple M4 Max 芯片 (16 核中央处理器、40 核图形处理器和 16 核神经网络引擎)") == [("gpu.cores", 40)]
    assert ("gpu.cores", 40) in hints.chinese_specs("支持Macbook Pro M4 Max,128G内存. 有40核GPU及NPU")
    assert ("cpu.memory_bytes", 128 * 1024**3) in hints.chinese_specs("支持Macbook Pro M4 Max,128G内存.")
    assert not hints.chinese_specs("100GB 统一内存")


def test_bracketed_form_answer_and_cpu_arch_key():
    assert ("cpu.hardware_arch", "x86_64") in hints.keyed_facts("cpu arch", "[x86]")
    assert ("cpu.hardware_arch", "arm64") in hints.keyed_facts("cpu arch", "arm64")
    assert not hints.keyed_facts("cpu arch", "[unknown]")


def test_platform_machine_answered_on_a_later_line():
    lines = ["Python from Anaconda returns the incorrect value for `platform.machine()`", "",
             "Returned value: `'x86_64'`", "Expected value: `'arm64'`"]
    assert hints.answers(lines) == {2: [("python.machine", "x86_64")]}
    assert not hints.answers(["Returned value: `'x86_64'`"])  # nothing asked


def test_fastfetch_gpu_core_count():
    lines = ['  {', '    "type": "GPU",', '    "result": [', '      {', '        "coreCount": 16,', '        "type": "Integrated",']
    assert hints.answers(lines) == {4: [("gpu.cores", 16)]}
    assert not hints.answers(['    "type": "CPU",', '        "coreCount": 10,'])


def test_machine_named_to_compare_with_is_not_this_one():
    assert hints.other_machine("I wanted to compare the performance to 24G Macbook Air M2, but I was surprised")
    assert not hints.other_machine("I have a Macbook Air M2 with 24G")
    facts = _facts(["I have a Macbook Pro 2016 which works fine", "I wanted to compare the performance to 24G Macbook Air M2."])
    assert ("cpu.hardware_arch", "arm64") not in facts and ("cpu.hardware_arch", "x86_64") in facts


def test_statements_read_the_new_rules():
    facts = _facts(["mac: ", "3.1 GHz Quad-Core Intel Core i7", "16 GB 2133 MHz LPDDR3"])
    assert ("platform", "darwin") in facts
