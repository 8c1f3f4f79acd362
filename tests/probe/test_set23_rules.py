"""Readers, knowledge and recommendation changes of the set-23 fix round, on literal texts: what they read, and near
misses that must not fire."""
import pytest

from macml.knowledge.amd_gfx import radeon_target
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.statements import read_statements
from macml.probe.paste.text import clean_lines
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_a_yardstick_gpu_is_not_the_writers():
    facts = facts_of("I'm trying to get GPU processing working on my older 2Gb GeForce GT 710 - which I believe should be "
                   "about as fast as a jetson nano...\n")
    assert [g.model for g in facts.gpus] == ["GT 710"] and facts.cpu.hardware_arch != "aarch64"


def test_torch_without_kernels_for_a_kepler_gpu_is_said_beside_the_generation():
    text = ("/usr/local/lib/python3.7/dist-packages/torch/cuda/__init__.py:125: UserWarning: \n"
            "NVIDIA GeForce GT 710 with CUDA capability sm_35 is not compatible with the current PyTorch installation.\n"
            "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75.\n")
    levels = check_levels(text)
    assert levels["gpu_generation"] == "fail" and levels["cuda_arch"] == "warn"


@pytest.mark.parametrize("text, recipe", [
    ("ProductName:\tmacOS\nProductVersion:\t11.4\nChip: Apple M1\n", "pytorch-cpu"),  # no Metal recipe until 12.1
    ("ProductName:\tmacOS\nProductVersion:\t12.6\nChip: Apple M1\n", "pytorch-mps"),
])
def test_a_macos_below_every_metal_recipe_gets_the_cpu_build(text, recipe):
    assert recommended_for(text) == recipe
    assert check_levels(text)["macos_version"] in ("warn", "fail")  # still told to upgrade


def test_a_3_5_gpu_gets_the_cpu_build_and_a_k80_keeps_cuda():
    assert recommended_for("- OS: Ubuntu 22.04\n- GPU: NVIDIA GeForce GT 710\n") == "pytorch-cpu"
    assert recommended_for("- OS: Ubuntu 22.04\n- GPU: Tesla K80\n") != "pytorch-cpu"


def test_a_heading_between_dash_rules_is_answered_below_them():
    lines = ["--------------------", "macOS", "--------------------", "Big Sur", "", "--------------------",
             "Hardware Model", "--------------------", "iMac (24-inch, M1, 2021)"]
    said = [(s.fact, s.value) for s in read_statements(lines)]
    assert ("os.release", "11") in said and ("cpu.hardware_arch", "arm64") in said


def test_a_macos_guest_by_its_paravirtual_driver_and_by_words():
    assert ("hypervisor", "Apple Virtual Machine") in said_by(
        "reason: '-[AppleParavirtDevice newArgumentEncoderWithLayout:]: unrecognized selector sent to instance 0x1")
    assert ("hypervisor", "Parallels") in said_by("When running mnist on MacOS 14.1.1 VM running via Parallels 19.1.1:")
    assert not any(f == "hypervisor" for f, _ in said_by("Parallels is a good way to run Windows on a Mac."))


def test_a_github_actions_runner_header():
    facts = facts_of("Current runner version: '2.315.0'\nOperating System\n  macOS\n  14.4.1\n  23E224\nRunner Image\n"
                   "  Image: macos-14-arm64\n  Version: 20240415.6\n")
    assert facts.os.version == "14.4.1" and facts.vm and facts.cpu.hardware_arch == "arm64"
    assert recommended_for("Operating System\n  macOS\n  14.4.1\n  23E224\n") != "pytorch-cpu"  # self-hosted: no image line


def test_the_version_a_named_mac_runs():
    line = "I have an Intel Mac -- a 2009/2010 Mac Pro running 10.14.6 -- 2 x 3.46GHz 6-Core Intel Xeon"
    assert ("os.version", "10.14.6") in said_by(line)
    assert ("os.version", "10.14.6") not in said_by(line.replace("running", "no longer running"))


def test_a_new_mac_running_a_release_is_the_writers():
    assert ("os.release", "10.14") in said_by("# Unable to run on new Macbook running Mojave")


def test_a_lower_case_spec_line_of_the_writers_mac():
    facts = facts_of("I have mbp mid 2014 with i7-4870hq, intel iris + nvidia gt 750m 2gb, 16gb ram, macOS ventura "
                   "(opencore patcher).\n")
    assert facts.cpu.hardware_arch == "x86_64" and facts.cpu.brand == "Intel Core i7-4870HQ"
    assert {g.model for g in facts.gpus} == {"intel iris", "nvidia gt 750m"}
    assert ("os.release", "13") in said_by("I have mbp mid 2014 with i7-4870hq, 16gb ram, macOS ventura")
    assert recommended_for("I have mbp mid 2014 with i7-4870hq, intel iris + nvidia gt 750m 2gb, 16gb ram, macOS ventura\n") \
        == "pytorch-cpu"


@pytest.mark.parametrize("text, cores", [
    ("I tried to test with the MAC Mini M1 and the Metal back end\n", 8),
    ("# too slow on Mac mini Unified 16G Ram, Silicon\nChip: Apple M2\n", 10),
    ("Model Identifier: MacBookPro18,1\nChip: Apple M1 Pro\n", 16),
])
def test_gpu_cores_of_a_mac_sold_with_one_gpu_bin_for_its_chip(text, cores):
    assert facts_of(text).gpus[0].cores == cores


def test_a_mac_mini_compared_with_is_not_the_writers():
    assert ("cpu.model_name", "Mac mini") not in said_by("It is faster than a Mac mini M1 here")


def test_an_obs_and_comfyui_log_prefix():
    assert clean_lines("[Info] CPU Name: AMD Ryzen 7 9700X 8-Core Processor\n[INFO] pytorch version: 2.12.1")[:2] == [
        "CPU Name: AMD Ryzen 7 9700X 8-Core Processor", "pytorch version: 2.12.1"]
    assert ("platform", "win32") in said_by("Windows Version: 10.0 Build 26100 (release: 24H2; revision: 6899; 64-bit)")


def test_a_chip_and_macos_opening_a_title():
    assert ("cpu.brand", "Apple M1") in said_by("m1 macOS 12.4 GPU process has crashed")
    assert not any(f == "cpu.brand" for f, _ in said_by("macOS 12.4 m1 crashed on the M.2 drive"))


def test_gpu_names_before_a_vendor_word_or_a_plus():
    line = "Windows 10 64-bit Intel Core i3-5005U 12 GB RAM NVIDIA GeForce 920M 2GB Intel HD Graphics 5500 NVIDIA driver 425.31"
    assert gpu_names(line) == ["NVIDIA GeForce 920M 2GB", "Intel HD Graphics 5500"]
    assert gpu_names("Radeon Pro 455 + eGPU Blackmagic Radeon Pro 580") == ["Radeon Pro 455", "Radeon Pro 580"]
    assert nvidia_compute_capability("GeForce 920M") == "3.5" and nvidia_compute_capability("GeForce 920MX") == "5.0"


def test_macos_said_of_the_writers_computer():
    said = said_by("My computer is running macOS, with intel9900k cpu and amd Rx6600xt gpu.")
    assert ("platform", "darwin") in said and ("cpu.hardware_arch", "x86_64") in said
    assert ("platform", "darwin") not in said_by("My computer is not running macOS anymore.")


def test_an_lspci_intel_igpu_is_named_as_intel_names_it_and_is_x86():
    said = said_by("00:02.0 VGA compatible controller: Intel Corporation Iris Plus Graphics G7 (rev 07)")
    assert ("cpu.hardware_arch", "x86_64") in said
    assert any(f == "gpu" and v["name"] == "Intel Iris Plus Graphics G7" for f, v in said)


@pytest.mark.parametrize("name, gfx", [
    ("AMD RX 6600", "gfx1032"), ("Radeon RX 6700 XT", "gfx1031"), ("AMD Radeon RX 6900 XT", "gfx1030"),
    ("RX 7900 XTX", "gfx1100"), ("RX 7800 XT", "gfx1101"), ("RX 7600", "gfx1102"), ("RX 9070 XT", "gfx1201"),
    ("RX 5700 XT", "gfx1010"), ("RX 6500 XT", "gfx1034"), ("RX 580", "gfx803"), ("Radeon Pro 5500M", None),
])
def test_rdna_cards_by_number(name, gfx):
    assert radeon_target(name) == gfx


def test_ollamas_runner_list_is_x86():
    line = ('time=2025-01-18T01:24:54.470Z level=INFO source=routes.go:1267 msg="Dynamic LLM libraries" '
            'runners="[cpu_avx2 rocm_avx cpu cpu_avx]"')
    assert ("cpu.hardware_arch", "x86_64") in said_by(line)
    assert ("cpu.hardware_arch", "x86_64") not in said_by(line.replace("cpu_avx2 rocm_avx cpu cpu_avx", "cpu cuda_v12"))


def test_the_kernel_module_version_an_api_mismatch_names():
    lines = clean_lines("Apr 19 12:34:42 Kyrios kernel: NVRM: API mismatch: the client 'nvidia-powerd' (pid 849)\n"
                        "                               NVRM: has the version 570.133.07, but this kernel module has\n"
                        "                               NVRM: the version 575.51.02.  Please make sure that this\n")
    said = [(s.fact, s.value) for s in read_statements(lines)]
    assert ("gpu.driver", "575.51.02") in said and ("gpu.driver", "570.133.07") not in said


def test_intel_core_ultra_is_x86():
    assert ("cpu.hardware_arch", "x86_64") in said_by("Core Ultra 9 275HX")
    assert ("cpu.brand", "Intel Core Ultra 7 155H") in said_by("CPU: Intel(R) Core(TM) Ultra 7 155H")


def test_an_apple_silicon_identifier_outranks_a_wrong_model_name():
    facts = facts_of("Shows wrong model name, followed by raw device name: `MacBook Pro (Retina, 13-inch, Mid 2014) - Mac15,7`\n")
    assert facts.cpu.hardware_arch == "arm64"
