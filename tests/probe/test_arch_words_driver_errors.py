"""Generic readers added after set 18: the one architecture a text names in passing, nvidia-smi's words that the
driver is broken, and an Apple chip generation written without a tier."""
import pytest

from macml.diagnose.torch_checks import check_nvidia_driver
from macml.knowledge.pc_boards import keyed_chipset
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import arch_word_rules, import_pastes
from macml.probe.paste import nvidia_driver_error_rules as driver_rules
from macml.recipes.catalog import load_all


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


@pytest.mark.parametrize("line, family", [
    ("bash ./NVIDIA-Linux-x86_64-570.124.04.run --no-kernel-modules", "x86_64"),
    ("   intel-i915-dkms/1.23.9.11.231003.15, 5.19.0-50-generic, x86_64: installed", "x86_64"),
    ("I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:1049] ARM64 does not support NUMA - returning NUMA node zero",
     "arm64"),
    ("[ctranslate2] [thread 10272] [info] CPU: GenuineIntel (SSE4.1=true, AVX=true, AVX2=true, AVX512=false)", "x86_64"),
    ("                Processor: Intel Compatible Processor (8 CPUs), ~3.8GHz", "x86_64"),
    ("- **Motherboard**: X870E", "x86_64"),
    ("Processor(s): 1 Processor(s) Installed. [01]: AMD64 Family 25 Model 33 Stepping 0 AuthenticAMD ~3701 Mhz", "x86_64"),
])
def test_one_architecture_named(line, family):
    assert arch_word_rules.answers(["some words", line]) == {1: [("arch.named", family)]}


@pytest.mark.parametrize("lines", [
    ["Wheels are available for `torch` on the following platforms: `manylinux_2_28_aarch64`"],  # the package's, not ours
    ["see https://download.pytorch.org/whl/cu121/torch-2.2.0-cp311-cp311-linux_x86_64.whl"],  # a link
    ["system_info: AVX2 = 1 | AARCH64_REPACK = 1 |"],  # llama.cpp's feature flag
    ["docker build --platform linux/arm64 ."],
    ["Linux 6.8.0 x86_64", "Python built for aarch64"],  # two families: neither is settled
    ["Motherboard: NVIDIA HGX H100"],
])
def test_no_single_architecture(lines):
    assert arch_word_rules.answers(lines) == {}


def test_board_chipsets():
    assert [keyed_chipset(v) for v in ("ASUS ROG STRIX B550-XE", "H100", "Raspberry Pi 5", "Z790 AORUS")] == \
        ["B550", None, None, "Z790"]


def test_named_architecture_fills_only_an_unknown_one_and_never_on_a_mac():
    linux = _facts("Distributor ID: Ubuntu\nbash ./NVIDIA-Linux-x86_64-570.124.04.run\n")
    assert linux.cpu.hardware_arch == "x86_64"
    assert "only architecture the text names" in linux.sources["cpu.hardware_arch"]
    mac = _facts("ProductName: macOS\nProductVersion: 14.4\nI am on an M2 Max MacBook\n"
                 "Miniconda3-latest-MacOSX-x86_64.sh\n")
    assert mac.cpu.hardware_arch == "arm64"


@pytest.mark.parametrize("line", [
    "Failed to initialize NVML: Driver/library version mismatch",
    "$ nvidia-smi -> NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
    "latest NVIDIA driver is installed and running.",
])
def test_driver_error_read(line):
    assert ("gpu.driver_error", driver_rules.driver_error(line).pattern.search(line).group()) in driver_rules.line_facts(line)


@pytest.mark.parametrize("line", [
    "How do I fix 'Failed to initialize NVML: Driver/library version mismatch'?",
    "After a reboot I no longer get Failed to initialize NVML: Driver/library version mismatch",
    "If you see Failed to initialize NVML: Driver/library version mismatch, reboot",
    "nvidia-smi works fine on the host",
])
def test_driver_error_only_mentioned(line):
    assert not [f for f in driver_rules.line_facts(line) if f[0] == "gpu.driver_error"]


def test_broken_driver_is_a_failure_with_a_fix_even_without_a_gpu_name():
    facts = _facts("nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 570.124\n")
    assert facts.platform == "linux" and facts.gpu_driver_errors
    finding = check_nvidia_driver(facts, load_all())
    assert finding.level == "fail" and "Reboot" in finding.fix.text


def test_live_nvidia_smi_failure_is_read():
    snapshot = import_pastes(["Distributor ID: Ubuntu\n"])
    snapshot.setdefault("commands", {})["nvidia-smi"] = {
        "returncode": 18, "stdout": "Failed to initialize NVML: Driver/library version mismatch\n", "stderr": ""}
    facts = facts_from_snapshot(snapshot)
    assert facts.gpu_driver_errors == ("Failed to initialize NVML: Driver/library version mismatch",)
    assert "exit 18" in facts.sources["gpu_driver_errors"]


@pytest.mark.parametrize("text, chip", [
    ("i got this error on an M1 mac with a fresh install of python", "Apple M1"),
    ("Processor: ARM M1", "Apple M1"),
    ("Processor: ARM M2 Pro", "Apple M2 Pro"),
    ("I'm on an M2 Max MacBook", "Apple M2 Max"),
])
def test_untiered_generation_reads_as_the_base_chip(text, chip):
    facts = _facts(text + "\n")
    assert facts.cpu.chip is not None and facts.cpu.chip.name == chip


def test_two_generations_name_no_chip():
    facts = _facts("I tested it on an M1 mac and on an M2 mac\n")
    assert facts.cpu.chip is None


def test_an_arm64_only_text_on_a_mac_is_apple_silicon():
    facts = _facts("#>  os       macOS Ventura 13.2.1\n#>  system   aarch64, darwin20\n")
    assert facts.cpu.apple_silicon is True and facts.cpu.hardware_arch == "arm64"
    intel = _facts("ProductName: macOS\nProductVersion: 12.6\nMiniconda3-latest-MacOSX-x86_64.sh\n")
    assert intel.cpu.apple_silicon is None  # x86_64 words on a Mac may be a Rosetta Python's: they settle nothing
