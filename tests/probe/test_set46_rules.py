"""Readers and inferences of the set-46 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.hardware import nvidia_compute_capability
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_a_mac_pro_written_with_a_dot_atis_own_brand_and_the_last_high_sierra():
    text = ("I bought a Mac Pro 5.1 (Mid 2010) with an ATI HD 5770 Apple Edition (non-metal) graphics card.\n"
            "I recently updated to the latest version of High Sierra.\n")
    facts = facts_of(text)
    assert facts.cpu.model == "MacPro5,1" and [g.model for g in facts.gpus] == ["ATI HD 5770"]
    assert facts.os.version == "10.13.6" and facts.gpus[0].vendor == "AMD"
    assert facts_of("I updated to the latest version of Sonoma.\n").os.version != "14.0.0"  # no final release for it
    assert ("cpu.model", "iMac21,5") not in said_by("an iMac 21.5 inch")  # a screen size, not an identifier


def test_a_chinese_hackintosh_post_and_its_memory():
    facts = facts_of("黑苹果首先需要找到适合自己电脑的EFI文件。我试着自己配置了一下\n看着64G的内存，心里真爽！\n")
    assert facts.platform == "darwin" and facts.cpu.hardware_arch == "x86_64" and facts.cpu.memory_bytes == 64 * 1024**3
    assert facts_of("黑苹果能支持的显卡是有限制的。\n").platform != "darwin"  # about Hackintoshes in general


def test_another_tools_card_list_is_no_system_profiler_and_names_the_apu():
    text = ("Card Number: 0\n   Vendor: AMD\n   Readable: False\n"
            "   Device ID: {'device': '0x15d8', 'subsystem_device': '0x15d8', 'vendor': '0x1002'}\n"
            "   Card Model: Advanced Micro Devices, Inc. [AMD/ATI] Picasso (rev c8)\n   Driver: amdgpu\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and [g.model for g in facts.gpus] == ["AMD Picasso"]
    assert check_levels(text)["rocm_target"] == "warn" and recommended_for(text) == "pytorch-cpu"


def test_a_ryzen_apu_by_its_number_in_a_parts_list():
    facts = facts_of("I just picked up a small computer with 5700G+64G RAM+1T drive.\n1. For the OS, I use Ubuntu 22.04\n")
    assert facts.cpu.hardware_arch == "x86_64" and facts.gpus and facts.gpus[0].vendor == "AMD"
    assert facts_of("It costs 5700G yen\n").cpu.hardware_arch == "unknown"  # no machine words


def test_a_build_directory_names_the_python_and_a_supported_torch_is_not_installed():
    text = ("I am running into installation issues on my M2 (macOS 13.2.1 (22D68)) using python 3.7.16\n"
            "given that torch 1.8.1 supposedly [supports](https://pypi.org/project/torch/1.8.1/) python >= 3.6.2\n"
            "clang: build/src.macosx-13.2-arm64-3.7/numpy/core/src/npymath/ieee754.c\n")
    facts = facts_of(text)
    assert facts.interpreter.machine == "arm64" and facts.cpu.chip.name == "Apple M2"
    assert "torch" not in facts.frameworks
    assert check_levels(text).get("rosetta_python") in (None, "ok")


def test_fermi_quadros_by_number_and_a_gpu_vram_answer():
    assert nvidia_compute_capability("Quadro 4000") == "2.0" and nvidia_compute_capability("Quadro RTX 4000") == "7.5"
    text = " - OS version: Ubuntu 20.04.5 LTS\n - GPU/VRAM: Quadro 4000 2Gb\n"
    assert check_levels(text)["gpu_generation"] in ("warn", "fail") and recommended_for(text) == "pytorch-cpu"
    assert facts_of(text).gpus[0].memory_bytes == 2 * 1024**3


def test_a_tiered_chip_in_a_year_only_the_plain_chip_was_sold():
    assert ("cpu.brand", "Apple M1") in said_by("M1 Pro 2020, 16GB Ram.")
    assert ("cpu.brand", "Apple M1 Pro") in said_by("M1 Pro 2021, 16GB Ram.")


def test_a_macos_guest_a_hypervisor_named_by_the_writer_and_a_mac_in_brackets():
    facts = facts_of("hi, I'm using VMWare with sequoia OS on a ryzen 2600 with a 5700 xt.\n")
    assert facts.platform == "darwin" and facts.vm is True and facts.hypervisor == "VMware"
    assert facts_of("I'm not using VMware with macOS anymore.\n").vm is not True
    mbp = facts_of("# [BUG] MBP(intel CPU)+eGPU(RX6800 16G) crashes on MPS\n")
    assert mbp.platform == "darwin" and mbp.cpu.hardware_arch == "x86_64" and mbp.gpus[0].external is True
    assert facts_of("I am running a Macbook Pro with 100GB of HD storage available.\n").platform == "darwin"
