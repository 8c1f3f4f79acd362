"""Set-13 mac-a rules, fed literal lines (not the capture files)."""
from __future__ import annotations

from macml.diagnose.mac_hardware import check_egpu
from macml.knowledge.thunderbolt import has_thunderbolt3
from macml.probe.paste import egpu_setup_rules, inline_rules, mac_hint_rules, mac_text_rules, metal_log_rules, os_answer_rules
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.mac_words_rules import mac_pro_firepro
from macml.probe.paste.statements import read_statements, stated_platform

GIB = 1024**3


def _facts(lines):
    return [(s.fact, s.value) for s in read_statements(lines)]


def test_lowercase_os_in_macos():
    assert ("os.version", "15.3.1") in inline_rules.anywhere("Im running a m1 macbook air running Macos 15.3.1.")


def test_bare_os_answer_is_a_macos_release_only_when_it_could_be_one():
    assert os_answer_rules.keyed_facts("os", "13.3") == [("os.version", "13.3")]
    assert os_answer_rules.keyed_facts("os", "22.04") == []
    assert os_answer_rules.keyed_facts("os", "11") == []
    assert os_answer_rules.keyed_facts("python", "3.8") == []


def test_declared_os_outweighs_other_machines_in_prose():
    lines = ["My Mac's eGPU(RX 6600XT 8G) is as slow as the other Win10(GTX 960M 4G)",
             "- OS: [macOS] Monterey 12.6", "On the win10, GPU usage can reach 100% ,", "- win10:Intel i7-6700HQ, 16G Ram"]
    statements = [s.to_json("t") for s in read_statements(lines)]
    assert stated_platform(statements) == "darwin"


def test_my_memory_in_chinese():
    assert ("cpu.memory_bytes", 16 * GIB) in mac_hint_rules.chinese_specs("我的16G内存")
    assert mac_hint_rules.chinese_specs("需要16G内存") == []


def test_metal_working_set_gives_unified_memory():
    line = "ggml_metal_init: recommendedMaxWorkingSetSize  =  5726.63 MB"
    assert ("memory.unified", 8 * GIB) in metal_log_rules.line_facts(line)
    assert ("memory.unified", 36 * GIB) in metal_log_rules.line_facts("recommendedMaxWorkingSetSize = 28991.03 MB")
    assert metal_log_rules.line_facts("recommendedMaxWorkingSetSize = 25769.80 MB") == []  # 24 GiB: 32 or 36 GB


def test_gpu_cores_written_after_the_number():
    assert mac_text_rules.chip_gpu_cores("- **Chip:** Apple M1 Ultra (48 GPU cores, 64GB unified memory)") == [("gpu.cores", 48)]
    assert mac_text_rules.chip_gpu_cores("Mac Studio M1 Ultra (4E+16P+48GPU+64GB)") == [("gpu.cores", 48)]


def test_intel_mac_sentence_and_mobile_radeon_by_number():
    line = ("I am evaluating CIFAR10 on a MacBook Pro with an 8-core i9 CPU and an AMD Radeon 5500m (Navi) GPU. "
            "The machine is not breaking a sweat.")
    assert mac_hint_rules.intel_mac_sentence(line) == [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
    assert mac_hint_rules.intel_mac_sentence("not on a MacBook Pro with an Intel CPU") == []
    assert gpu_names(line) == ["AMD Radeon 5500m"]


def test_mac_pro_2013_setup():
    lines = ["Current setup:", "Mac Pro 6, 1", "Dual D500s", "64 GB RAM", "", "eGPU:", "Sonnet 350W", "XFX Radeon RX 580", ""]
    found = egpu_setup_rules.answers(lines)
    assert ("cpu.model", "MacPro6,1") in found[1]
    assert [v["name"] for f, v in found[2] if f == "gpu"] == ["AMD FirePro D500"] * 2
    assert ("gpu.external", "Radeon RX 580") in found[7]
    assert egpu_setup_rules.answers(["Dual D500s"]) == {}  # no Mac Pro 2013 named: D500 could be anything
    assert ("cpu.model", "MacPro6,1") in mac_hint_rules.spaced_model_identifier("Mac Pro 6, 1")


def test_firepro_with_its_memory():
    facts = mac_pro_firepro("- **System GPUs**: AMD FirePro D700 6 Go")
    assert ("gpu", {"name": "AMD FirePro D700", "vendor": "AMD", "memory_mib": 6144, "index": None}) in facts


def test_one_card_spelled_twice_is_one_gpu():
    from macml.probe.stated_gpus import _stated_gpus
    statements = [s.to_json("t") for s in read_statements(["My Mac's eGPU(RX 6600XT 8G) is slow", "- GPU: eGPU Radeon Rx 6600xt"])]
    chosen = _stated_gpus(statements)
    assert [(v["name"], v["memory_mib"]) for v, _ in chosen] == [("Radeon Rx 6600xt", 8192)]


def test_thunderbolt3_macs():
    assert has_thunderbolt3("MacPro6,1") is False
    assert has_thunderbolt3("MacBookPro16,1") is True
    assert has_thunderbolt3("iMac17,1") is False
    assert has_thunderbolt3("Mac14,2") is None


def _egpu_finding(text):
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.paste import import_pastes
    from macml.recipes.catalog import load_all
    return check_egpu(facts_from_snapshot(import_pastes([text])), load_all())


def test_egpu_on_a_mac_without_thunderbolt3_warns():
    text = "Mac Pro 6, 1\nCatalina 10.15.7\n\neGPU:\nSonnet 350W\nXFX Radeon RX 580\n"
    unsupported = _egpu_finding(text)
    assert unsupported.level == "warn" and "no Thunderbolt 3" in unsupported.message
    supported = _egpu_finding(text.replace("Mac Pro 6, 1", "MacBookPro16,1"))  # a supported eGPU still warns (set-44 round)
    assert supported.level == "warn" and "supported on Intel Macs" in supported.message
