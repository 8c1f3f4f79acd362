"""Readers and knowledge of the set-36 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.amd_gfx import radeon_target
from macml.probe.paste.gpu_names import gpu_names
from paste_said import check_levels, facts_of, said_by

_LSHW = """  *-display
       description: VGA compatible controller
       product: CoffeeLake-S GT2 [UHD Graphics 630]
       vendor: Intel Corporation
  *-display
       description: VGA compatible controller
       product: Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]
       vendor: Advanced Micro Devices, Inc. [AMD/ATI]
  *-display
       description: VGA compatible controller
       product: Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]
       vendor: Advanced Micro Devices, Inc. [AMD/ATI]
"""


def test_lshw_display_blocks_are_each_a_gpu_on_linux():
    facts = facts_of(_LSHW)
    assert facts.platform == "linux"
    amd = facts.gpus_by_vendor("AMD")
    assert len(amd) == 2 and amd[0].compute_capability == "gfx803"
    assert check_levels(_LSHW)["rocm_target"] == "warn"
    nvidia = facts_of("  *-display\n       product: GP107 [GeForce GTX 1050 Ti]\n       vendor: NVIDIA Corporation\n")
    assert [g.model for g in nvidia.gpus] == ["GeForce GTX 1050 Ti"]  # the marketing name, not the chip's


def test_apu_codenames_and_integrated_radeons_give_their_targets():
    assert radeon_target("AMD Raven Ridge [Radeon Vega Series / Radeon Vega Mobile Series]") == "gfx902"
    assert radeon_target("Advanced Micro Devices, Inc. [AMD/ATI] Phoenix1 [Radeon 780M]") == "gfx1103"
    facts = facts_of("| GPU | AMD Radeon 780M (Ryzen 7 PRO 8840HS) — device ID `0x1900` |\n| Linux distro | Ubuntu 26.04 LTS |\n")
    assert facts.gpus[0].compute_capability == "gfx1103"
    inxi = ("  Device-1: AMD Navi 22 [Radeon RX 6700/6700 XT / 6800M] driver: N/A \n"
            "  Device-2: AMD Raven Ridge [Radeon Vega Series / Radeon Vega Mobile Series] \n  driver: N/A \n")
    assert {g.compute_capability for g in facts_of(inxi).gpus} == {"gfx1031", "gfx902"}


def test_an_instinct_named_by_maker_and_number_and_a_cut_collect_env():
    assert gpu_names("# [Bug]:amd mi308x gpu, vllm 0.27.0") == ["amd mi308x"]
    assert gpu_names("AMD MI250 vs NVIDIA") == ["AMD MI250"]
    text = ("# [Bug]:amd mi308x gpu, rocm 7.2.3\nPyTorch version              : 2.11.0+gitd0c8b1f\n"
            "Is debug build               : False\nCUDA used to build PyTorch   : N/A\nROCM used to build PyTorch   : 7.2.53211\n")
    assert check_levels(text).get("torch_build") != "fail"  # a ROCm build, though the paste stops before HIP's version


def test_macos_versions_typed_with_builds_betas_and_template_hints():
    facts = facts_of(" - Hardware Specs: Apple M3\n - OS Version: [e.g. Mac OS 14.4.1, Fedora Linux 40]: Sonoma 4.6.1 (23G93)\n"
                     " - Python Version: [output of `python --version`] 3.12.4\n")
    assert facts.os.version == "14.6.1" and facts.interpreter.version == "3.12.4"
    assert facts_of("I'm on turicreate 5.2.\n10.14.2 Beta (18C52a)\n").os.version == "10.14.2"
    assert facts_of("MacOs 10.15.6 (latest update)\n").os.version == "10.15.6"
    assert facts_of("macOS BigSur 11.2.3.\n").os.version == "11.2.3"


def test_hashcats_apple_platform_and_darwin_release():
    text = ("OpenCL API (OpenCL 1.2 (Jun  8 2020 17:36:15)) - Platform #1 [Apple]\n"
            "====================================================================\n"
            "* Device #1: Intel(R) Core(TM) i9-8950HK CPU @ 2.90GHz, 32704/32768 MB (8192 MB allocatable), 12MCU\n"
            "* Device #2: Intel(R) UHD Graphics 630, skipped\n* Device #3: AMD Radeon Pro 560X Compute Engine, skipped\n")
    facts = facts_of(text)
    assert facts.platform == "darwin" and {g.vendor for g in facts.gpus} == {"Intel", "AMD"}
    darwin = facts_of("OS.Name......: Darwin\nOS.Release...: 18.7.0\nHW.Model.....: MacBookPro9,2\n")
    assert darwin.os.version.startswith("10.14")


def test_apple_silicon_words_an_old_python_and_an_enclosure_list():
    facts = facts_of("See above. I'm using `Python 3.7.10` on Mac M1.\n")
    assert facts.cpu.hardware_arch == "arm64" and facts.interpreter.machine == "x86_64" and facts.rosetta is True
    assert facts_of("# MacBook Pro（14英寸，2021年）Apple M1 Max芯片 10CPU 24GPU 32内存 1T硬盘\n").gpus[0].cores == 24
    setup = "- Mac mini M4 Pro\n- macOS 26.2\n- Razer Core X V2 on a direct rear Thunderbolt 5 connection\n- AMD Radeon RX 7900 XTX\n"
    egpu = [g for g in facts_of(setup).gpus if g.vendor == "AMD"]
    assert egpu and egpu[0].external is True
    assert gpu_names("iMac 2019 21.5, intel i7 8700, 64 GB ram, 1tb NVME, RX Vega 56.") == ["Radeon RX Vega 56"]


def test_conda_info_and_a_wrapped_dyld_error():
    text = ("'/Users/m/miniconda3/envs/a/lib/python3.9/site-packages/greenlet/_greenlet.cpython-39-darwin.so' (mach-o file, "
            "but is an incompatible architecture\n(have 'x86_64', need 'arm64')), \n"
            "       virtual packages : __osx=13.0=0\n                          __archspec=1=arm64\n")
    facts = facts_of(text)
    assert facts.os.version == "13.0" and facts.cpu.hardware_arch == "arm64" and facts.interpreter.machine == "arm64"


def test_windows_feature_update_and_onnx_runtime_in_words():
    said = said_by("Windows 11: 25H2")
    assert ("platform", "win32") in said and ("os.name", "Windows 11 25H2") in said
    assert facts_of("# It worked on Windows 11 with RTX 5070ti\nWindows 11: 25H2\n").os.version == "11"
    assert not said_by("Windows 11: yes")
    assert ("package", {"name": "onnxruntime", "version": "1.6.0"}) in said_by("- ONNX Runtime version:  v1.6.0")
    assert ("platform", "linux") in said_by("On linux for me, the rocm support works.")
