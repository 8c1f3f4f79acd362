"""Set 16's Mac rules (mac-b): several GPUs in one GPU field, this Mac named by family and year (and whether it has
Thunderbolt 3 for an eGPU), memory behind an app's log prefix, a macOS version with its build in an OS field, and a
two-part pin of a three-part-release framework; fed literal lines, and what facts and checks make of them."""
from macml.diagnose.mac_hardware import check_egpu
from macml.knowledge.release_versions import pinned_release
from macml.knowledge.thunderbolt import name_has_thunderbolt3
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import gpu_list_rules, import_pastes, log_prefix_rules, mac_model_name_rules, os_build_rules
from macml.probe.paste.report_rules import inline_packages
from macml.recipes.catalog import load_all


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _names(facts):
    return [value["name"] for fact, value in facts if fact == "gpu"]


# --- several GPUs in one field ---------------------------------------------------------------------------------

def test_gpu_field_lists_each_gpu():
    assert _names(gpu_list_rules.keyed_facts("system gpus", "Intel Iris & NVIDIA GT 750M, etc.")) == ["Intel Iris", "NVIDIA GT 750M"]
    assert _names(gpu_list_rules.keyed_facts("gpus", "Intel UHD Graphics 630, AMD Radeon Pro 560X")) == [
        "Intel UHD Graphics 630", "AMD Radeon Pro 560X"]
    assert _names(gpu_list_rules.keyed_facts("graphics", "Intel HD Graphics 4000 and GT 650M")) == [
        "Intel HD Graphics 4000", "GT 650M"]
    gt = gpu_list_rules.keyed_facts("gpu(s)", "Intel Iris Pro + GeForce GT 750M")
    assert gt[-1][1]["vendor"] == "NVIDIA"


def test_gpu_field_near_misses():
    assert gpu_list_rules.keyed_facts("supported gpus", "Intel Iris & NVIDIA GT 750M") == []  # other machines
    assert gpu_list_rules.keyed_facts("gpus", "NVIDIA GT 750M") == []  # one name: statement_rules reads it
    assert gpu_list_rules.keyed_facts("gpus", "no NVIDIA GT 750M, only Intel Iris") == []
    assert gpu_list_rules.keyed_facts("car", "Mustang GT 500 and Iris") == []
    # one GPU of this machine and one tried, wished for or seen by others
    assert _names(gpu_list_rules.keyed_facts("gpu", "Apple M1 / tried on a colleague's RTX 3090 as well")) == []
    assert _names(gpu_list_rules.keyed_facts("gpu", "RTX 3060, would like to use an RTX 4090 later")) == []
    assert _names(gpu_list_rules.keyed_facts("gpu", "RTX 2080 Ti; same issue reported with RTX 3090 by others")) == []
    # two runtimes (both the writer's), not two GPUs of one machine: statement_rules reads the first
    assert _names(gpu_list_rules.keyed_facts("gpu", "NVIDIA T4 (Colab) and RTX 3060 locally")) == []


def test_gpu_field_keeps_the_writers_gpus_beside_a_dropped_one():
    assert _names(gpu_list_rules.keyed_facts("gpus", "Intel Iris, NVIDIA GT 750M, tried on a friend's RTX 3090")) == [
        "Intel Iris", "NVIDIA GT 750M"]


def test_two_gpus_and_an_egpu_in_a_form():
    facts = _facts("- **Mac**: MacBook Pro 15\" Late-2013\n- **macOS Version**: 10.14.5.\n"
                   "- **System GPUs**: Intel Iris & NVIDIA GT 750M, etc.\n- **eGPU**: Razer Core X + Sapphire Pulse RX580 8GB.\n")
    assert {g.model for g in facts.gpus} >= {"Intel Iris", "NVIDIA GT 750M", "RX580"}
    assert facts.cpu.model_name == 'MacBook Pro 15" Late-2013'
    finding = check_egpu(facts, load_all())
    assert finding is not None and finding.level == "warn" and "Thunderbolt 3" in finding.message


# --- this Mac by family and year -------------------------------------------------------------------------------

def test_mac_named_by_year_is_this_machine():
    assert mac_model_name_rules.keyed_facts("mac", 'MacBook Pro 15" Late-2013') == [("cpu.model_name", 'MacBook Pro 15" Late-2013')]
    assert mac_model_name_rules.keyed_facts("computer", "2015 iMac") == [("cpu.model_name", "2015 iMac")]
    for line, name in (("I have a 2013 MacBook Pro and an eGPU", "2013 MacBook Pro"),
                       ("my old MacBook Pro (Late 2013) fails", "MacBook Pro (Late 2013)"),
                       ("MacBook Pro (15-inch, 2018)", "MacBook Pro (15-inch, 2018)"),
                       ("I've got a 2015 MacBook Pro and it crashes on import", "2015 MacBook Pro")):
        assert mac_model_name_rules.line_facts(line) == [("cpu.model_name", name)], line


def test_mac_named_by_year_near_misses():
    for line in ("It works on MacBook Pro 2016 and later", "Unlike my 2013 MacBook Pro, this one boots",
                 "Does it work on a 2015 iMac?", "Compared to my 2015 iMac the M1 is fast",
                 "I have an M1 MacBook Pro 2020", "Apple dropped the 2013 Mac Pro",
                 # a past Mac, not this one
                 "I had a 2013 MacBook Pro that ran this fine, now I use a Windows PC",
                 "It worked on my old 2017 iMac, but fails on my new Mac Studio",
                 "I used to run this on my 2015 MacBook Pro before I switched to Linux",
                 "my 2019 MacBook Pro was stolen, so I am on a borrowed PC", "my 2019 MacBook Pro was stolen last week"):
        assert mac_model_name_rules.line_facts(line) == [], line
    assert mac_model_name_rules.keyed_facts("supported", "MacBook Pro 2016") == []
    assert mac_model_name_rules.keyed_facts("mac", "MacBook Pro 2016 and later") == []


def test_thunderbolt3_by_name():
    assert name_has_thunderbolt3('MacBook Pro 15" Late-2013') is False
    assert name_has_thunderbolt3("Mac Pro (Late 2013)") is False
    assert name_has_thunderbolt3("MacBook Pro (13-inch, 2016)") is True
    assert name_has_thunderbolt3("iMac Pro 2017") is True
    assert name_has_thunderbolt3("MacBook Air") is None


# --- memory behind a log prefix --------------------------------------------------------------------------------

def test_logged_memory():
    gib16 = [("cpu.memory_bytes", 16 * 1024**3)]
    assert log_prefix_rules.line_facts("00:00:00.008 | Application Main: Total RAM: 16384 MB```") == gib16
    assert log_prefix_rules.line_facts("00:00:00.010 |I| Application PrintSystemInfo: Total RAM: 16384 MB") == gib16
    assert log_prefix_rules.line_facts("[12:00:01.5] Core <Info>: System Memory: 16 GB") == gib16


def test_logged_memory_near_misses():
    assert log_prefix_rules.line_facts("00:00:01.000 | GPU Vulkan: GPU memory: 8192 MB") == []
    assert log_prefix_rules.line_facts("00:00:00.100 | Gpu Vulkan: Memory: 8 GB") == []  # a GPU component's
    assert log_prefix_rules.line_facts("00:00:00.100 | App: Memory: 8 GB used") == []  # used, not installed
    assert log_prefix_rules.line_facts("00:00:00.100 | App: Memory: 512 MB") == []
    assert log_prefix_rules.line_facts("Total RAM: 16384 MB") == []  # no log prefix: statement_rules' to read
    assert log_prefix_rules.line_facts("12:00:01 | Stats: Memory: 6.2 GB / 16 GB") == []  # used / total
    assert log_prefix_rules.line_facts("2024-05-01 10:00:00,123 [INFO] Model: Memory: 13.5 GB") == []  # the model's
    assert log_prefix_rules.line_facts("2024-05-01 10:00:00,123 [INFO] Container: Memory: 4 GB") == []
    assert log_prefix_rules.line_facts("2024-05-01 10:00:00,123 [INFO] SystemInfo: Memory: 32 GB") == [("cpu.memory_bytes", 32 * 1024**3)]


def test_logged_memory_in_a_text():
    facts = _facts("00:00:00.008 | Application Main: Operating System: Darwin 19.3.0 Darwin Kernel Version 19.3.0: "
                   "Thu Jan  9 20:58:23 PST 2020; root:xnu-6153.81.5~1/RELEASE_X86_64 (X64)\n"
                   "00:00:00.008 | Application Main: Total RAM: 16384 MB\n")
    assert facts.cpu.memory_bytes == 16 * 1024**3


# --- a macOS version with its build ----------------------------------------------------------------------------

def test_version_with_its_build():
    assert os_build_rules.keyed_facts("device osbuild", '14.3.1 (23D60)";') == [
        ("platform", "darwin"), ("os.version", "14.3.1"), ("os.build", "23D60")]
    assert os_build_rules.keyed_facts("os version", "13.4.1 (22F82)")[1] == ("os.version", "13.4.1")
    assert os_build_rules.keyed_facts("system version", "10.15.7 (19H2)")[1] == ("os.version", "10.15.7")


def test_version_with_its_build_near_misses():
    assert os_build_rules.keyed_facts("os version", "17.3.1 (21D61)") == []  # iOS 17.3.1: 21D is macOS 12.2
    assert os_build_rules.keyed_facts("fixed in", "14.4 (23E214)") == []  # not this machine's OS field
    assert os_build_rules.keyed_facts("version", "15.1 (15C65)") == []  # Xcode 15.1's build
    assert os_build_rules.keyed_facts("os version", "14.3.1") == []


def test_version_with_its_build_in_a_text():
    facts = _facts('Event Metadata: com.apple.dt.IDERunOperationWorkerFinished : {\n    "device_model" = "Mac15,6";\n'
                   '    "device_osBuild" = "14.3.1 (23D60)";\n')
    assert facts.is_mac and facts.os.version == "14.3.1"


# --- a two-part pin ----------------------------------------------------------------------------------------------

def test_two_part_pin_of_a_three_part_release():
    assert pinned_release("tensorflow-macos", "2.11") == "2.11.0"
    assert pinned_release("Tensorflow_Metal", "1.1") == "1.1.0"
    assert ("package", {"name": "tensorflow-macos", "version": "2.11.0"}) in inline_packages(
        "I have tested the code on Mac M1 with `tensorflow-macos==2.11 `and its working fine.")


def test_two_part_pin_near_misses():
    assert pinned_release("pip", "23.1") == "23.1"  # pip publishes two-part releases
    assert pinned_release("torch", "2.1.2") == "2.1.2"
    assert pinned_release("torch", "2.1.0.dev20230801") == "2.1.0.dev20230801"
