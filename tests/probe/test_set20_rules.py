"""Readers and knowledge added in the set-20 fix round, on literal texts: what they read, and near misses that
must not fire."""
import pytest

from macml.diagnose.mac_hardware import check_egpu
from macml.diagnose.system import check_macos_version
from macml.diagnose.torch_checks import check_torch_build
from macml.knowledge.amd_apus import vbios_gfx
from macml.knowledge.compat import before_mps
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.amd_tool_rules import apu_vbios
from macml.probe.paste.gpu_name_keys import same_model
from macml.probe.paste.gpu_names import gpu_names, gpu_value
from macml.probe.paste.inline_rules import anywhere
from macml.probe.paste.linux_amd_rules import gfx_gpu
from macml.probe.paste.linux_words_rules import spec_list
from macml.probe.paste.mac_issue_rules import macos_release_version, my_hackintosh, run_on_my_mac
from macml.probe.paste.package_version_rules import asked_versions
from macml.probe.paste.text import clean_lines
from macml.recipes.catalog import load_all


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def test_lshw_numeric_names_each_display_device():
    facts = _facts("  *-display\n       description: VGA compatible controller\n"
                   "       product: GM107GLM [Quadro M1000M] [10DE:13B1]\n       vendor: NVIDIA Corporation [10DE]\n"
                   "  *-display\n       product: HD Graphics 530 [8086:191B]\n")
    assert {(g.model, g.compute_capability) for g in facts.gpus_by_vendor("NVIDIA")} == {("Quadro M1000M", "5.0")}
    assert _facts("product: MacBook Pro\n").gpus == ()


@pytest.mark.parametrize("name, capability", [("Quadro M1000M", "5.0"), ("Quadro M2200", "5.2"), ("Quadro M2000", "5.2"),
                                              ("Quadro M2000M", "5.0"), ("GeForce 710", "3.5")])
def test_maxwell_quadros_and_the_geforce_710(name, capability):
    assert nvidia_compute_capability(name) == capability


def test_a_journal_line_with_a_two_word_month():
    lines = clean_lines("de des. 03 11:10:07 PC127 ollama[43993]: ggml_cuda_init: found 2 CUDA devices:\n")
    assert lines[0] == "ggml_cuda_init: found 2 CUDA devices:"


def test_ggml_x86_features_name_the_arch():
    line = "msg=system CPU.0.SSE3=1 CPU.0.SSSE3=1 CPU.0.AVX=1 CPU.0.AVX2=1 CPU.0.F16C=1 CUDA.0.ARCHS=500,520"
    assert _facts(line + "\n").cpu.hardware_arch == "x86_64"
    assert _facts("msg=system CPU.0.NEON=1 CPU.0.ARM_FMA=1\n").cpu.hardware_arch in ("", "unknown")


def test_a_gpu_detect_script_names_the_torch_build():
    facts = _facts("PyTorch build CUDA version: 10.2\nPyTorch has active GPU: True\n"
                   "Active GPU name: GeForce GTX 1650 with Max-Q Design\n")
    torch = facts.frameworks["torch"].data
    assert torch["cuda_version"] == "10.2" and torch["cuda_available"] is True
    assert facts.cpu.hardware_arch == "x86_64"  # a GeForce laptop part


@pytest.mark.parametrize("text, names", [
    ("I have a Tesla K80 and two Tesla K40c cards (also a GeForce 710 which is", ["Tesla K80", "Tesla K40c", "GeForce 710"]),
    ("650W PSU with a EVGA GeForce GTX TITAN X 12GB GAMING, Play", ["GeForce GTX TITAN X 12GB"]),
    ("4GB RAM, and INTEL HD Graphics 6000 1536 MB. But", ["INTEL HD Graphics 6000"]),
    ("GeForce RTX 3060 12GB lorem", []),
])
def test_gpu_names_end_where_the_name_ends(text, names):
    assert gpu_names(text) == names


def test_prose_in_brackets_is_not_a_parts_list():
    assert spec_list("setting K40c visible (and also the GeForce 710, of course) fails") == []
    assert spec_list("my box (i9 / 32GB / GTX 3070 laptop 8GB vram)")


@pytest.mark.parametrize("line, gfx", [("It is a gfx1032 GPU, not officially supported.", "gfx1032"),
                                       ("I have tested that on a gfx1032 GPU with pytorch mnist example.", "gfx1032"),
                                       ("It should work on a gfx1100 GPU", None), ("gfx1032 support is missing", None)])
def test_a_gpu_named_by_its_gfx_target(line, gfx):
    assert gfx_gpu(line) == ([("gpu.present", "AMD"), ("gpu.gfx", gfx)] if gfx else [])


def test_an_apus_vbios_names_its_target():
    assert vbios_gfx("102-RAPHAEL-008") == "gfx1036" and vbios_gfx("113-D1631400-X11") is None
    assert apu_vbios("GPU[0]\t\t: VBIOS version: 102-RAPHAEL-008") == [
        ("platform", "linux"), ("gpu.present", "AMD"), ("gpu.gfx", "gfx1036")]


@pytest.mark.parametrize("text, cores", [
    ("- Chip: Apple M4 Max\n- Total Number of Cores: 16 (12 performance and 4 efficiency)\n", 40),
    ("Godot v4.7.2 - integrated Apple M4 Pro (Apple9) - Apple M4 Pro (14 threads) - 48.00 GiB memory\n", 20),
    ("report for Apple M2 Pro (Mac14,12) with 10 CPU cores (4E + 6P).\n", 16),
    ("Chip: Apple M1 Max\nTotal Number of Cores: 10 (8 performance and 2 efficiency)\n", None),  # both bins
])
def test_the_cpu_bin_settles_the_gpu_bin(text, cores):
    assert [g.cores for g in _facts(text).gpus] == [cores]


def test_spdisplays_gpu_cores_are_not_cpu_cores():
    assert _facts("Chipset Model: Apple M2 Pro\nTotal Number of Cores: 19\n").cpu.cores is None


@pytest.mark.parametrize("line, mac", [
    ("I got it setup to run on my macbook 1.6 GHz intel Core i5, 4GB RAM", True),
    ("I am unable to mine with it on my iMac.", True),
    ("It works on my MacBook Pro but not on the server", True),
    ("It works on Linux but not on my MacBook", False),
    ("Does it run on my MacBook?", True),  # the writer's own machine, asked about
])
def test_the_writers_own_mac(line, mac):
    assert (run_on_my_mac(line) == [("platform", "darwin")]) is mac


def test_a_hackintosh_is_macos_on_x86():
    assert my_hackintosh("I have a hackintosh, i5 4590 and a GTX 750 Ti") == [("platform", "darwin"),
                                                                              ("cpu.hardware_arch", "x86_64")]
    assert my_hackintosh("not a hackintosh") == [] and my_hackintosh("Hackintosh guides say") == []
    assert macos_release_version("upgraded from os 10.11 to High Sierra 10.13.6.  with 10.11") == [
        ("platform", "darwin"), ("os.version", "10.13.6")]


@pytest.mark.parametrize("line, vm", [
    ("Darwin h 24.6.0 Darwin Kernel Version 24.6.0: Wed Oct 15; root:xnu-11417.140.69.703.14~1/RELEASE_ARM64_VMAPPLE arm64", True),
    ('  |   "soc-generation" = <"VMApple2">', True),
    ("Darwin h 24.6.0 Darwin Kernel Version 24.6.0; root:xnu-11417~1/RELEASE_ARM64_T6041 arm64", False),
])
def test_a_virtualization_framework_guest(line, vm):
    assert (("hypervisor", "Apple Virtual Machine") in anywhere(line)) is vm


def test_the_macos_web_driver_version():
    facts = anywhere('it says that it\'s running Nvidia Web driver "387.10.10.10.40.136", but the driver is broken')
    assert ("gpu.driver", "387.10.10.10.40.136") in facts and ("platform", "darwin") in facts


def test_an_nvidia_egpu_on_a_mac_names_no_recipe_for_a_card_it_lacks():
    facts = _facts("- **macOS Version**: 10.13.5\n- **System GPUs**: Radeon Pro Vega 64,\n"
                   "- **eGPU**: Razer Core X Aluminum External GPU Enclosure (eGPU): Compatible w/Windows & Mac "
                   "Thunderbolt 3 Laptops - NVIDIA/AMD PCIe Support - 650W PSU with a EVGA GeForce GTX TITAN X 12GB GAMING\n")
    assert {g.model for g in facts.gpus} == {"Radeon Pro Vega 64", "GeForce GTX TITAN X 12GB"}
    finding = check_egpu(facts, load_all())
    assert finding.level == "warn" and not finding.fix.commands


def test_board_partners_are_brand_words():
    assert same_model("PowerColor RX 7900 XTX", "AMD Radeon RX 7900 XTX")
    assert not same_model("EVGA GeForce RTX 3080", "GeForce RTX 3090")


def test_a_lone_quoted_key_value_line():
    assert clean_lines(">PyTorch version: 1.9.0\nIs debug build: False\n")[0] == "PyTorch version: 1.9.0"
    assert clean_lines(">>> import torch\n")[0] == ">>> import torch"


def test_mps_arrived_in_torch_1_12():
    assert before_mps("1.9.0") and not before_mps("1.12.0") and not before_mps("2.9.0.dev20250821")
    facts = _facts(">PyTorch version: 1.9.0\nOS: macOS 11.4 (arm64)\nPython platform: macOS-11.4-arm64-arm-64bit\n")
    build = check_torch_build(facts, load_all())
    assert build.level == "fail" and "predates MPS" in build.message and not build.fix.commands  # no row runs on 11.4
    macos = check_macos_version(facts, load_all())
    assert "too old for every GPU recipe" in macos.message


def test_windows_about_and_wmi_fields():
    facts = _facts("Edition\tWindows 10 Pro\nVersion\t20H2\n")
    assert facts.platform == "win32" and (facts.os.name, facts.os.version) == ("Windows", "10")
    wmi = _facts("DeviceName              : NVIDIA GeForce GTX 980 Ti\nDriverVersion           : 22.21.13.8253\n"
                 "PS C:\\Users\\g> \n")
    assert [g.driver_version for g in wmi.gpus] == ["382.53"]


@pytest.mark.parametrize("value, mib", [("Radeon Pro 560x 4096MB", 4096), ("AMD Radeon Pro 5600M 8G HBM2  394 GB/s RDNA1", 8192),
                                        ("Radeon Pro 560x 4096MB / Intel UHD Graphics 630 1536 MB", None),
                                        ("NVIDIA RTX A5000 | 24564 MiB | driver 595.71.05", 24564)])
def test_a_gpus_memory_beside_its_name(value, mib):
    assert gpu_value(value)[0][1]["memory_mib"] == mib


def test_about_this_mac_typed_with_wrapped_lines():
    facts = _facts("MacBook Pro\nProcessor 2.8 GHz Quad-Core\nIntel Core i7\nGraphics Intel HD Graphics\n630 1536 MB\n"
                   "Memory 16 GB 2133 MHz\nLPDDR3\nStartup Disk Macintosh HD\n")
    assert facts.platform == "darwin" and facts.cpu.memory_bytes == 16 * 1024**3
    assert [(g.model, g.memory_bytes) for g in facts.gpus] == [("Intel HD Graphics 630", 1536 * 1024**2)]


def test_a_unity_games_log_prefix():
    assert clean_lines("10:09:00, Frame 409, LOG \u00bb  RAM: 16384 MB\n")[0] == "RAM: 16384 MB"


def test_an_issue_templates_version_question():
    lines = [" - What does `torchaudio.__version__` print? (If applicable)", "> '0.9.0'"]
    assert asked_versions(lines) == {1: [("package", {"name": "torchaudio", "version": "0.9.0"})]}
    assert asked_versions([" - What does `torchaudio.__version__` print? (If applicable)", "",
                           "Please copy and paste the output"]) == {}
