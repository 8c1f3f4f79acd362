"""Set 16's Windows rules (pc_parts_rules; an Intel integrated GPU's x86_64 in probe/infer), fed literal lines, and
what facts make of them."""
import pytest

from macml.knowledge.hardware import intel_integrated_gpu
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste import pc_parts_rules as rules


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _value(facts, fact):
    return next((v for f, v in facts if f == fact), None)


# --- a parts list under a heading that says it is the writer's -------------------------------------------------

@pytest.mark.parametrize("text", [
    "Here is my system:\nAsrock Desk Mini x300\nwindows 11\nRyzen 5600g\n32gb samsung ddr4 3200mhz laptop ram\n",
    "My specs:\n- CPU: Ryzen 5 5600G\n- 32 GB DDR4 RAM\n",
    "**Hardware:**\nRyzen 7 5700G\n16GB ram\n",
], ids=["deskmini", "specs-dashes", "bold-heading"])
def test_parts_list_ryzen_apu(text):
    found = [f for facts in rules.parts_lists(text.splitlines()).values() for f in facts]
    assert ("cpu.hardware_arch", "x86_64") in found and ("gpu.present", "AMD") in found
    assert _value(found, "gpu.gfx") == "gfx90c" and _value(found, "cpu.memory_bytes") is not None


def test_parts_list_ryzen_without_graphics_is_no_apu():
    found = [f for facts in rules.parts_lists(["Here is my system:", "Ryzen 5950X"]).values() for f in facts]
    assert ("cpu.hardware_arch", "x86_64") in found and _value(found, "gpu.present") is None


@pytest.mark.parametrize("lines", [
    ["The app needs:", "Ryzen 5600g", "32gb ddr4 ram"],  # requirements, not the writer's parts
    ["Here is my system:", "", "", "", "Ryzen 5600g"],  # blank lines after the heading: no list under it (one blank opens it)
    ["Tested on these machines:", "Ryzen 5600g"],
    ["My system:", "I also tried a friend's Ryzen 5600g and 32gb samsung ddr4 3200mhz laptop ram, which did not help at all"],
    ["Recommended for the 13B model", "Specs", "- 32 GB RAM", "- 24GB VRAM"],
    ["The README lists these minimum requirements:", "Hardware:", "- 8GB VRAM"],
], ids=["requirements", "after-blank", "other-heading", "prose-line", "recommended-specs", "readme-minimum"])
def test_parts_list_near_misses(lines):
    assert rules.parts_lists(lines) == {}


def test_bare_heading_after_other_prose_is_still_the_writers():
    found = rules.parts_lists(["Thanks for looking.", "Hardware:", "- 8GB VRAM"])
    assert found == {2: [("gpu.memory_of", {"memory_mib": 8192, "index": None})]}


def test_vram_line_fills_the_one_gpu():
    text = "Hardware:\nCPU AMD Ryzen 5950X\nRAM 64GB\nGPU AMD Radeon RX6800\nVRAM 16GB\n"
    facts = _facts(text + "ROCm llama.cpp (Windows) runtime fails\n")
    assert [(g.model, g.memory_bytes // 1024**2) for g in facts.gpus] == [("AMD Radeon RX6800", 16384)]
    assert rules.part_facts("16 GB of VRAM") == [("gpu.memory_of", {"memory_mib": 16384, "index": None})]
    assert rules.part_facts("VRAM usage 16GB") == [] and rules.part_facts("needs 16GB VRAM to run") == []


# --- a GPU by its bare number in a sentence about this machine --------------------------------------------------

@pytest.mark.parametrize("line,name,vendor", [
    ("windows 11 22H2, graphics card is 3080, cpu is intel.", "3080", "NVIDIA"),
    ("My GPU is a 4090 and the CPU a 7950X", "4090", "NVIDIA"),
    ("the video card is 1080ti", "1080ti", "NVIDIA"),
    ("my graphics card is 6800, 16 GB", "6800", "AMD"),  # a bare Radeon RX number (7900 XTX: gpu_names reads it)
])
def test_card_is(line, name, vendor):
    value = _value(rules.card_is(line), "gpu.owned")
    assert value["name"] == name and value["vendor"] == vendor


@pytest.mark.parametrize("line", [
    "if the GPU is 3080 or newer, use CUDA",
    "the recommended graphics card is 3080",
    "the minimum GPU is 1060",
    "my gpu is 2024 model",  # a year, not a GeForce
    "which graphics card is 3080 compatible?",
    "In the paper, the GPU is 3090",
    "In the benchmark above the GPU is 4090",
    "the GPU is 4090 on my friend's machine, mine is a laptop",
    "Ideally the GPU is 3090 or better",
    "the GPU is 3060 or newer",
    "gpu = 1080",  # a config line
    "GPU=3090",
])
def test_card_is_near_misses(line):
    assert rules.card_is(line) == []


def test_card_is_gives_the_gpu_with_capability():
    facts = _facts("### What is the issue?\n\nwindows 11 22H2, graphics card is 3080, cpu is intel.\n\n### GPU\n\nNvidia\n")
    assert [(g.vendor, g.model, g.compute_capability) for g in facts.gpus] == [("NVIDIA", "3080", "8.6")]


# --- a vendor-led GPU answer with its series misspelt -----------------------------------------------------------

def test_misspelt_series():
    value = _value(rules.misspelt_series("gpu", "nvidia qradro p2000 (5GB GPU memory)"), "gpu")
    assert value["name"] == "nvidia qradro p2000" and value["capability"] == "6.1" and value["memory_mib"] == 5120
    assert _value(rules.misspelt_series("graphics card", "Nvidia Qaudro P4000"), "gpu")["capability"] == "6.1"


@pytest.mark.parametrize("key,value", [
    ("gpu", "nvidia driver 535"),  # not a series word
    ("gpu", "nvidia quadro p2000"),  # spelled right: the name rules read it
    ("cpu", "nvidia qradro p2000"),  # not a GPU answer
    ("gpu", "nvidia qradro x9999"),  # no such Quadro
])
def test_misspelt_series_near_misses(key, value):
    assert rules.misspelt_series(key, value) == []


# --- a machine named after its CPU ------------------------------------------------------------------------------

def test_cpu_based_machine():
    facts = rules.cpu_based("RyzenAI 370 HX (gfx1150) based PC detected but not recognized by ROCm")
    assert facts == [("cpu.hardware_arch", "x86_64"), ("gpu.present", "AMD"), ("gpu.gfx", "gfx1150")]
    facts = rules.cpu_based("I run it on a Ryzen 7 5700G based mini PC")
    assert ("cpu.brand", "AMD Ryzen 7 5700G") in facts and ("gpu.present", "AMD") in facts


@pytest.mark.parametrize("line", [
    "Please add support for Ryzen AI 370 based laptops",
    "unlike a Ryzen 5600G based PC, mine has no iGPU",
    "Does it work for Ryzen AI 370 based PC?",
    "The engine supports gfx1150, gfx1151",
    "Has anyone tried this on a Ryzen AI 370 based laptop?",
    "I am thinking of buying a Ryzen 7 8845HS based mini PC, will ROCm work?",
    "Will this work on a Ryzen 7 5700G based system?",
    "I'm considering a Ryzen 7 5700G based mini PC for this",
])
def test_cpu_based_near_misses(line):
    assert rules.cpu_based(line) == []


# --- an Intel integrated GPU: an x86 Intel CPU -----------------------------------------------------------------

def test_intel_integrated_gpu():
    assert intel_integrated_gpu("Intel HD Graphics 520") and intel_integrated_gpu("Intel(R) UHD Graphics 630")
    assert intel_integrated_gpu("Intel Iris Xe Graphics")
    assert not intel_integrated_gpu("Intel Arc A770") and not intel_integrated_gpu("NVIDIA GeForce RTX 3080")


def test_intel_igpu_gives_x86_64():
    facts = _facts("### System Info\n\n32GB RAM Intel HD 520, Win10\n")
    assert facts.cpu.hardware_arch == "x86_64"
