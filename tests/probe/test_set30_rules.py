"""Readers and knowledge of the set-30 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.probe.paste.gpu_names import gpu_names
from paste_said import check_levels, facts_of, said_by


def test_a_virtualbuddy_guest_is_never_refused():
    facts = facts_of("Testing with https://github.com/insidegui/VirtualBuddy.\n\nCustom kernels seem to always result in zeros.\n")
    assert facts.platform == "darwin" and facts.vm and facts.cpu.hardware_arch == "arm64"
    assert check_levels("Testing with https://github.com/insidegui/VirtualBuddy.\n").get("virtual_machine") in ("warn", "fail")
    assert not any(f == "hypervisor" for f, _ in said_by("Does this work in VirtualBuddy?"))


def test_mlx_benchmarks_config_line():
    facts = facts_of(" M2 (4E+4P+10GPU+24GB) - mlx: 0.16.0 torch: 2.4.0\n")
    assert facts.cpu.brand == "Apple M2" and facts.cpu.memory_bytes == 24 * 1024**3 and facts.gpus[0].cores == 10
    assert facts.interpreter.machine == "arm64" and facts.interpreter.packages["mlx"] == "0.16.0"


def test_blackwell_and_ada_board_names():
    assert gpu_names("NVIDIA RTX PRO 6000 Blackwell Workstation Edition with CUDA capability sm_120 is not compatible") == [
        "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"]
    assert gpu_names("NVIDIA RTX 6000 Ada Generation") == ["NVIDIA RTX 6000 Ada Generation"]


def test_a_video_row_with_its_windows_driver_and_spaced_trademarks():
    facts = facts_of("Video: NVIDIA GeForce GTX 1050 Ti / 27.21.14.5671 / 20200930\n"
                     "Video: Intel (R) UHD Graphics 630 / 29.20.100.8881 / 20201007\nOS Name: Windows 10 Pro 2004 / 10/26/2020\n")
    assert [(g.model, g.driver_version) for g in facts.gpus] == [("NVIDIA GeForce GTX 1050 Ti", "456.71"),
                                                                 ("Intel(R) UHD Graphics 630", None)]
    assert ("gpu.driver", "352.63") in said_by("running with 352.63 Nvidia drivers for my card")


def test_os_lines_of_obs_minecraft_and_prose():
    assert ("os.version", "11.0.1") in said_by("OS Version: Version 10.16 (Build 20B29)")
    said = said_by("Operating System: Mac OS X (x86_64) version 15.0.1")
    assert ("os.version", "15.0.1") in said and ("process.arch", "x86_64") in said
    said = said_by("Tested on mac 13.2.1 (intel chip), with pytorch 1.12 and 1.13.")
    assert ("os.version", "13.2.1") in said and ("cpu.hardware_arch", "x86_64") in said


def test_apple_chip_tier_gpu_cores_and_a_split_cpu_count():
    facts = facts_of("Adding better support for Apple Silicon (M1) CPU and GPU prints\nCPU: Apple M1 Max (10)\n"
                     "GPU: Apple M1 Max (24)\n")
    assert facts.cpu.brand == "Apple M1 Max" and facts.gpus[0].cores == 24
    facts = facts_of("Incorrectly showing 8 P cores on a binned base model 14 inch M1 Pro\n"
                     " - Device: MacBook Pro 2021 14 inch M1 8 core (6 performance and 2 efficiency)\n")
    assert facts.cpu.cores == 8 and facts.gpus[0].cores == 14
    assert not said_by("an 8 core (6 performance and 3 efficiency) chip")  # the parts must add up
