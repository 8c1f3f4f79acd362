"""Set 12's Mac rules (mac-b): Intel Macs by model year or AMD GPU, Rosetta environments and Intel MKL's CPU check,
a tiered chip's bare memory, the M1 Mac mini, a macOS-and-chip spec line, a bracketed shell prompt before a torch
question, and pip tensorflow < 2.13 on a Mac; fed literal lines, and what facts make of them."""
from macml.knowledge.mac_families import only_plain_chip
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste import mac_memory_rules, mac_model_year_rules, rosetta_env_rules
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.mac_prose_specs_rules import answers, family_chip


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


# --- Intel Macs ------------------------------------------------------------------------------------------------

def test_mac_model_and_year_is_an_intel_mac():
    for line in ("works on my old iMac (Retina 5K, 27-inch, Late 2015) with a quad-core i5 CPU",
                 "Really old Macbook Pro (Later 2013)", "on my 2017 MacBook Pro", "Mac mini, Late 2014"):
        assert ("cpu.hardware_arch", "x86_64") in mac_model_year_rules.line_facts(line), line
    for line in ("M1 Macbook Air (2020 Edition)", "MacBook Pro (13-inch, 2020)", "MacBook Pro 2021 M1 Pro",
                 "Visual Studio 2019 on a MacBook Pro M1", "MacBook Pro 16,1"):
        assert mac_model_year_rules.intel_mac_by_year(line) == [], line


def test_mac_with_amd_gpu_is_an_intel_mac_with_that_gpu():
    facts = mac_model_year_rules.line_facts("Could not run on Mac Pro with AMD GPU")
    assert ("cpu.hardware_arch", "x86_64") in facts and ("gpu.present", "AMD") in facts
    assert mac_model_year_rules.mac_with_amd_gpu("this is not a Mac Pro with AMD GPU") == []


def test_intel_mac_by_year_in_a_text():
    facts = _facts("Really old Macbook Pro (Later 2013)\n")
    assert facts.is_mac and facts.cpu.apple_silicon is False


# --- Rosetta and MKL -------------------------------------------------------------------------------------------

def test_rosetta_environment_in_words():
    for line in ("I am currently forced to use a Rosetta-based Conda Environment",
                 "When running wandb in an empty conda environment which runs via rosetta I get"):
        facts = rosetta_env_rules.line_facts(line)
        assert ("process.translated", True) in facts and ("python.machine", "x86_64") in facts, line
    assert rosetta_env_rules.line_facts("I do not use a Rosetta-based conda env") == []


def test_mkl_fatal_error_is_an_x86_python():
    facts = rosetta_env_rules.line_facts('"Intel MKL FATAL ERROR: This system does not meet the minimum requirements '
                                         'for use of the Intel(R) Math Kernel Library.')
    assert ("python.machine", "x86_64") in facts and ("framework.used", "mkl") in facts


def test_mkl_fatal_error_on_apple_silicon_is_rosetta():
    facts = _facts("I have a MacBook Pro with an Apple M1 Pro chip.\n"
                   "Intel MKL FATAL ERROR: This system does not meet the minimum requirements for use of the Intel(R) "
                   "Math Kernel Library.\n")
    assert facts.rosetta is True and facts.interpreter.machine == "x86_64"


def test_old_pip_tensorflow_on_a_mac_is_x86_64():
    facts = _facts("my MacOS is BigSur 11.0, M1 chip\n- TensorFlow version: 2.2.0\n")
    assert facts.interpreter.machine == "x86_64" and facts.rosetta is True
    newer = _facts("my MacOS is Sonoma 14.0, M1 chip\n- TensorFlow version: 2.15.0\n")
    assert newer.interpreter is None or newer.interpreter.machine != "x86_64"


def test_intel_arc_is_not_intel_architecture():
    assert gpu_names("some of my ML Dependencies are Intel Architecture only") == []
    assert gpu_names("Intel Arc A770") == ["Intel Arc A770"]


# --- Apple chips -----------------------------------------------------------------------------------------------

def test_bare_memory_after_a_tiered_chip():
    assert mac_memory_rules.memory_after_chip("macOS 12.5 M1max 64，在使用最新版本") == [("memory.unified", 64 * 1024**3)]
    assert mac_memory_rules.memory_after_chip("M1 Max 32") == []  # also its GPU core count
    assert mac_memory_rules.memory_after_chip("M1 Ultra 64") == []  # the 64-core GPU
    assert mac_memory_rules.memory_after_chip("M1 Max 64-core") == []


def test_m1_mac_mini_has_the_plain_m1():
    assert ("cpu.brand", "Apple M1") in family_chip("getting errors on my m1 mac mini after last update")
    assert family_chip("my m2 mac mini") == []  # the M2 Pro Mac mini exists
    assert only_plain_chip("Mac mini", 1) and not only_plain_chip("Mac mini", 2) and not only_plain_chip("Mac mini")


def test_macos_and_bare_chip_line():
    found = answers(["Sonoma 14.5  M1", "Python 3.8.16"])
    assert ("cpu.brand", "Apple M1") in found[0]
    tiered = answers(["Sonoma 14.5  M1", "Chip: Apple M1 Pro"])
    assert ("cpu.brand", "Apple M1") not in tiered.get(0, [])


def test_torch_version_after_a_bracketed_prompt():
    facts = _facts("[nix-shell:~/git/tch-rs]$ python -c 'import torch; print(torch.__version__)'\n2.0.1\n")
    assert facts.frameworks["torch"].data.get("version") == "2.0.1"
