"""Set 17's Mac rules (device_list_rules, fetch_tool_rules, form_question_rules, the macos_version check on an
Intel Mac whose GPU is unknown), fed literal lines, and what facts and checks make of them."""
import pytest

from macml.diagnose.system import check_macos_version
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import device_list_rules, fetch_tool_rules, form_question_rules, import_pastes
from macml.recipes.catalog import load_all

HASHCAT = """\
hashcat (v6.2.5-355-g781ceb1df) starting in backend information mode

Metal Info:
===========

Metal.Version.: 261.13

Backend Device ID #1
  Type...........: GPU
  Vendor.........: Apple
  Name...........: AMD Radeon RX Vega 64
  Memory.Total...: 8176 MB (limited to 3584 MB allocatable in one block)
  Phys.Location..: connected via an external interface (port 0)
  Feature.Set....: macOS GPU Family 2 v1
  GPU.Properties.: headless 0, low-power 0, removable 1

Backend Device ID #2
  Type...........: GPU
  Vendor.........: Apple
  Name...........: Intel(R) Iris(TM) Plus Graphics
  Memory.Total...: 1536 MB (limited to 1024 MB allocatable in one block)
  Phys.Location..: built-in
  Feature.Set....: macOS GPU Family 2 v1
  GPU.Properties.: headless 0, low-power 1, removable 0

OpenCL Info:
============

Backend Device ID #3 (Alias: #1)
  Name...........: AMD Radeon RX Vega 64
"""

OPENCL_M4 = """\
Number of OpenCL platforms: 1
Platform #1/1
    Platform name: Apple
    Platform vendor: Apple
Device #1/1
  device name: Apple M4
  device type: GPU
  global memory size: 10922 MB
  max compute units: 10
"""


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _lines(text):
    return text.splitlines()


def _all(answers):
    return [fact for facts in answers.values() for fact in facts]


# --- device_list_rules ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", ["Platform: Apple", "    Platform name: Apple", "Platform Name      Apple",
                                  "Metal.Version.: 261.13", "  Feature.Set....: macOS GPU Family 2 v1"])
def test_apple_opencl_platform_or_metal_is_macos(line):
    assert ("platform", "darwin") in _all(device_list_rules.answers([line]))


@pytest.mark.parametrize("line", ["Platform: Apple silicon is not supported", "Platform name: NVIDIA CUDA",
                                  "I tried the Apple platform on my friend's Mac", "Metal backend: not available"])
def test_other_platform_lines_are_not_macos(line):
    assert device_list_rules.answers([line]) == {}


def test_hashcat_metal_list_external_and_memory():
    facts = _facts(HASHCAT)
    assert facts.platform == "darwin"
    vega, iris = facts.gpus
    assert vega.external is True and vega.memory_bytes == 8176 * 1024**2
    assert iris.external is False and iris.memory_bytes == 1536 * 1024**2


def test_hashcat_opencl_section_does_not_list_the_gpus_again():
    names = [v["name"] for f, v in _all(device_list_rules.answers(_lines(HASHCAT))) if f == "gpu"]
    assert names == ["AMD Radeon RX Vega 64", "Intel(R) Iris(TM) Plus Graphics"]


def test_built_in_or_not_removable_is_not_external():
    text = "Metal.Version.: 261.13\nBackend Device ID #1\n  Name...........: AMD Radeon Pro 580\n" \
           "  Phys.Location..: built-in\n  GPU.Properties.: headless 0, low-power 0, removable 0\n"
    assert not [v for f, v in _all(device_list_rules.answers(_lines(text))) if f == "gpu.external"]


def test_hashcat_list_off_a_mac_is_not_read():
    text = "CUDA Info:\n==========\nBackend Device ID #1\n  Name...........: NVIDIA GeForce RTX 3090\n" \
           "  Memory.Total...: 24259 MB\n  Phys.Location..: connected via an external interface\n"
    assert device_list_rules.answers(_lines(text)) == {}


def test_apple_chip_compute_units_are_gpu_cores():
    facts = _facts(OPENCL_M4)
    assert facts.platform == "darwin" and facts.gpus[0].cores == 10
    assert facts.gpus[0].memory_bytes is None or facts.gpus[0].unified_memory  # 10922 MB is an allocation limit


def test_amd_compute_units_are_not_cores():
    text = "Platform: Apple\n  Device: AMD Radeon RX 6600 Compute Engine\n    Compute units   : 28\n"
    facts = _all(device_list_rules.answers(_lines(text)))
    assert ("platform", "darwin") in facts and not [v for f, v in facts if f == "gpu.cores"]


def test_amd_gpu_under_apple_opencl_is_an_intel_mac():
    facts = _facts("Platform: Apple\n  Device: AMD Radeon RX 6600 Compute Engine\n    Compute units   : 28\n")
    assert facts.platform == "darwin" and facts.cpu.hardware_arch == "x86_64" and facts.cpu.apple_silicon is False


# --- fetch_tool_rules ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, arch", [("OS: macOS 12.0.1 21A559 x86_64 ", "x86_64"),
                                        ("OS: macOS Mojave 10.14.6 18G103 x86_64", "x86_64"),
                                        ("OS: macOS Sonoma 14.5 23F79 arm64", "arm64")])
def test_neofetch_os_line_gives_the_process_arch(line, arch):
    assert ("process.arch", arch) in fetch_tool_rules.line_facts(line)


@pytest.mark.parametrize("line", ["OS: macOS 14.5 arm64", "OS: macOS 12.0.1 (I also tried an x86_64 Python)",
                                  "I run macOS 12.0.1 21A559 x86_64 on my other laptop", "OS: Ubuntu 22.04 x86_64"])
def test_other_os_lines_give_no_process_arch(line):
    assert not [v for f, v in fetch_tool_rules.line_facts(line) if f == "process.arch"]


def test_neofetch_x86_64_on_an_m1_is_rosetta():
    facts = _facts("OS: macOS 12.0.1 21A559 x86_64 \nHost: MacBookAir10,1 \nCPU: Apple M1 \n")
    assert facts.cpu.apple_silicon is True and facts.rosetta is True


def test_list_dump_items_are_read_as_lines():
    assert fetch_tool_rules.list_items("memline: ['Memory: 12112MiB / 32768MiB']") == ["Memory: 12112MiB / 32768MiB"]
    assert ("cpu.memory_bytes", 32 * 1024**3) in fetch_tool_rules.line_facts("memline: ['Memory: 12112MiB / 32768MiB']")
    facts = fetch_tool_rules.line_facts("sysosline: ['OS: macOS Mojave 10.14.6 18G103 x86_64 ', 'Host: Hackintosh']")
    assert ("process.arch", "x86_64") in facts


@pytest.mark.parametrize("line", ["themeline: ['N/A']", "amdgpurenderlist: []", "memory: [12112, 32768]",
                                  "I set memline: Memory 32768MiB"])
def test_other_lists_give_nothing(line):
    assert fetch_tool_rules.line_facts(line) == []


# --- form_question_rules -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, key", [("What OS are you using?", "os"), ("Which operating system are you on?", "os"),
                                           ("What is the version of your OS?", "os version"),
                                           ("What macOS version are you running?", "os version"),
                                           ("What is your OS version?", "os version")])
def test_worded_os_questions(question, key):
    assert form_question_rules.asked_key(question) == key


@pytest.mark.parametrize("question", ["What is the version of your GPU driver?", "What version of darktable?",
                                      "Are you using OpenCL GPU in darktable?", "Which OS did you test on before?"])
def test_other_questions_ask_no_os(question):
    assert form_question_rules.asked_key(question) is None


def test_form_os_version_answer_on_a_mac():
    text = ("### What OS are you using?\n\nMac\n\n### What is the version of your OS?\n\n26.3.1\n\n"
            "### Describe your system\n\niMac, intel 3.8 GHz 8 core i7\n")
    facts = _facts(text)
    assert facts.platform == "darwin" and facts.os.version == "26.3.1"


def test_form_version_of_something_else_is_not_the_os():
    text = "### What OS are you using?\n\nMac\n\n### What is the version of your GPU driver?\n\n12.4\n"
    assert _facts(text).os.version != "12.4"


# --- macos_version on an Intel Mac whose GPU is unknown ------------------------------------------------------------

def _macos_finding(text):
    return check_macos_version(_facts(text), load_all())


def test_old_macos_warns_when_the_gpu_is_unknown():
    finding = _macos_finding("OS: macOS Mojave 10.14.6 18G103 x86_64\nCPU: AMD Ryzen 5 3600\n")
    assert finding is not None and finding.level == "warn" and "pytorch-mps" in finding.message


def test_old_macos_with_only_an_intel_igpu_does_not_warn():
    finding = _macos_finding("MacBook Air (13-inch, Mid 2012) w. Intel HD Graphics 4000 1536 MB\n"
                             "macOS Catalina 10.15.2 (19C57)\n")
    assert finding is None or finding.level not in ("warn", "fail")


def test_new_macos_with_unknown_gpu_does_not_warn():
    finding = _macos_finding("OS: macOS 13.6 22G120 x86_64\nCPU: Intel i7-8700B (12) @ 3.20GHz\n")
    assert finding is None or finding.level not in ("warn", "fail")
