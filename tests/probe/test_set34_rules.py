"""Readers and knowledge of the set-34 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.probe.paste.pc_parts_rules import part_facts
from paste_said import check_levels, facts_of, said_by


def test_amdgpus_kernel_lines_and_a_build_for_one_target():
    said = said_by("[ 2742.462662] amdgpu 0000:2b:00.0: amdgpu: GPU reset begin!")
    assert ("platform", "linux") in said and ("gpu.present", "AMD") in said
    assert ("gpu.present", "AMD") in said_by("[ 2742.462312] [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring page1 timeout")
    assert ("gpu.gfx", "gfx900") in said_by("builds and installs without error for gfx900 (used docker image), but crashes")
    assert not any(f == "gpu.gfx" for f, _ in said_by("we build for gfx900, gfx906 and gfx908"))  # a list of targets
    text = "builds and installs without error for gfx900 (used docker image)\n[ 1.0] amdgpu 0000:2b:00.0: amdgpu: BACO reset\n"
    assert check_levels(text)["rocm_target"] == "warn"


def test_a_versioned_soname_and_darktables_memory_line():
    assert ("platform", "linux") in said_by("[opencl_init] opencl library 'libOpenCL.so.1' found on your system and loaded")
    assert ("platform", "linux") not in said_by("loaded OpenCL.framework")
    assert facts_of("     0.0465   total mem:       15162MB\n").cpu.memory_bytes == 15162 * 1024**2


def test_a_debug_dumps_inner_fields():
    facts = facts_of("sysosline: OS: Manjaro Linux x86_64\ngpuinfo: GPU: AMD Radeon R7 Graphics GPU: Radeon 500 Series\n")
    assert facts.platform == "linux"
    assert [g.model for g in facts.gpus] == ["AMD Radeon R7 Graphics", "Radeon 500 Series"]
    assert not any(f == "platform" for f, _ in said_by("Error: OS: something went wrong"))  # 'Error' is no tool's field


def test_a_ryzen_apu_with_its_radeon_in_brackets():
    said = said_by("I wanted to try to run the ROCm backend on my ryzen 5 8600G (760M I think).")
    assert ("cpu.brand", "AMD Ryzen 5 8600G") in said and ("gpu.gfx", "gfx1103") in said
    assert ("gpu.mention", "AMD Radeon 760M") in said


def test_nouveau_bound_and_two_makers_gpus():
    text = ("I have an ASUS laptop that have two graphics card, an AMD and an Nvidia.\n"
            "Running lspci I can see that it is using the opensource driver:\n"
            "01:00.0 VGA compatible controller: NVIDIA Corporation GA107M [GeForce RTX 3050 Mobile] (rev a1)\n")
    facts = facts_of(text)
    assert {g.vendor for g in facts.gpus} == {"NVIDIA", "AMD"}
    assert check_levels(text)["nvidia_driver"] in ("warn", "fail")
    assert ("gpu.present", "NVIDIA") not in said_by("it is using the opensource driver")  # amdgpu is open source too
    assert not said_by("I don't have two graphics cards, an AMD and an Nvidia")
    assert ("platform", "linux") in said_by("\tKernel driver in use: nouveau")


def test_the_tier_in_lower_case_and_markdowns_escaped_underscore():
    assert facts_of("on my Apple M1 pro (Ventura 13.3 with Python 3.10) with 16GB RAM\n").cpu.chip.name == "Apple M1 Pro"
    facts = facts_of('INFO:plaidml:Opening device "metal_intel(r)\\_hd_graphics_530.0"\n')
    assert [g.vendor for g in facts.gpus] == ["Intel"]


def test_parts_list_items_and_headings():
    assert part_facts("- i3 3110-M") == [("cpu.brand", "Intel Core i3-3110M"), ("cpu.hardware_arch", "x86_64")]
    assert part_facts("- 24GB DDR4") == [("cpu.memory_bytes", 24 * 1024**3)]
    assert part_facts("- Vega 8")[0][1]["vendor"] == "AMD"
    assert part_facts("- RTX 3090 24GB") == [("gpu", {"name": "RTX 3090 24GB", "vendor": "NVIDIA", "memory_mib": 24576,
                                                      "index": None})]  # with its memory (set-39 round)
    facts = facts_of("Currently I have laptop with these specs:\n- Lenovo G400s\n- 8GB Ram\n- i3 3110-M\n- nVidia GT 720M\n")
    assert facts.cpu.brand == "Intel Core i3-3110M" and facts.gpus[0].model == "nVidia GT 720M"
    assert facts_of("heres my specs\n- ryzen 5 3500u\n- Vega 8\n- 24GB DDR4\n").cpu.memory_bytes == 24 * 1024**3
    assert ("package", {"name": "tensorflow", "version": "2.11.0"}) in said_by("Tensor Flow Version: 2.11.0")


def test_dxdiags_joined_field_names_and_a_header_and_row_table():
    facts = facts_of("**OperatingSystem**: Windows 10 Pro 64-bit (10.0, Build 19044)\n**Memory**: 32768MB RAM\n")
    assert facts.platform == "win32"
    assert ("package", {"name": "torch", "version": "2.3.0"}) in said_by("PyTorch: 2.3.0")  # not split as 'Py Torch'
    table = ("Device | CPU | RAM | SSD | HDD | Xcode | macOS | Time(sec) | Comments\n-- | -- | -- | -- | -- | -- | -- | -- | --\n"
             'MacBook Pro 13" 2020 | Apple M1 8-core | 8 | 256GB |   | 12.2 | 11.0.1 | 121\n')
    facts = facts_of(table)
    assert facts.os.version == "11.0.1" and facts.cpu.memory_bytes == 8 * 1024**3 and facts.cpu.chip.name == "Apple M1"
    two_rows = table + 'Mac mini 2018 | Intel i7 6-core | 32 | 512GB |   | 12.2 | 10.15.7 | 150\n'
    assert not facts_of(two_rows).os.version  # a benchmark's list of machines: none of them is known to be this one


def test_prose_versions_that_are_not_installed():
    assert not said_by("# Why no mac-intel-x86 version tensorflow after tensorflow 2.16.2?")
    assert not said_by("I can't install tensorflow 2.17 2.18 version because there is no relase version for my sytem.")
    assert ("package", {"name": "numba", "version": "0.57.0"}) in said_by("with numba 0.57.0 and cuda-python 12.1.0")


def test_a_mac_said_in_short_words():
    facts = facts_of("### OS platform and distribution\n\nmac 15.0.1\n\nmac intel chip anaconda found 2.17 version tensroflow.\n")
    assert facts.platform == "darwin" and facts.os.version == "15.0.1" and facts.cpu.hardware_arch == "x86_64"
    assert not said_by("does no support mac intel chip anymore after 2.16.2 version?")


def test_apples_opengl_strings_and_a_pre_metal_radeon():
    said = said_by("GL_RENDERER = Intel HD Graphics OpenGL Engine")
    assert ("platform", "darwin") in said and any(f == "gpu" for f, _ in said)
    assert ("platform", "darwin") in said_by("GL_VERSION = 2.1 INTEL-10.4.14")
    assert ("platform", "darwin") not in said_by("OpenGL renderer string: Mesa Intel(R) UHD Graphics 620 (KBL GT2)")
    text = "version=2.1 ATI-1.38.3\nrenderer=AMD Radeon HD 6750M OpenGL Engine\n"
    assert facts_of(text).platform == "darwin" and not facts_of(text).has_metal_gpu


def test_event_viewers_faulting_modules():
    text = ("Faulting application name: python.exe, version: 3.10.9150.1013, time stamp: 0x638fa05d\n"
            "Faulting module name: nvcuda64.dll, version: 31.0.15.3129, time stamp: 0x640826be\n")
    facts = facts_of(text)
    assert facts.platform == "win32" and facts.interpreter.version == "3.10.9"
    assert facts.gpus[0].vendor == "NVIDIA" and facts.gpus[0].driver_version == "531.29"


def test_an_apple_chips_core_shorthand_and_a_desktop_card_on_a_laptop_mac():
    facts = facts_of(" - Device: MacBook Pro 14-inch M4 Max 14c/32c\n")
    assert facts.cpu.cores == 14 and facts.gpus[0].cores == 32
    assert not facts_of(" - Device: MacBook Pro 14-inch M4 Max 15c/33c\n").gpus[0].cores  # not an M4 Max's bin
    facts = facts_of("I'm using MBP 2015 13 inch i7 model with RX 6800 XT and Kryptonite.\n")
    assert facts.gpus[0].external is True
    assert check_levels("I'm using MBP 2015 13 inch i7 model with RX 6800 XT and Kryptonite.\n")["egpu"] == "warn"
    assert ("gpu.external", "RX 580") not in said_by("Mac Pro 5,1 with an RX 580")  # a Mac Pro has slots
