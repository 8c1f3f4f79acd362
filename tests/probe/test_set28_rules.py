"""Readers and knowledge of the set-28 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.mac_igpus import mac_integrated_gpu
from macml.probe.paste import find_parts
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_a_counted_gpu_field_a_rocm_release_and_torchs_extension_cache():
    text = ("ImportError: /home/u/.cache/torch_extensions/py310_cpu/exllama_ext/exllama_ext.so: undefined symbol\n"
            "Devices: 2x AMD Instinct MI60 gfx906\nDistro: Ubuntu 20.04.6\nROCm version 5.6.0\npytorch version 2.0.1\n")
    facts = facts_of(text)
    assert [g.model for g in facts.gpus] == ["AMD Instinct MI60"] * 2 and facts.cpu.hardware_arch == "x86_64"
    assert facts.interpreter.version == "3.10"
    assert recommended_for(text) == "pytorch-cpu"  # gfx906: no current ROCm build runs on it
    assert not any(f == "cpu.hardware_arch" for f, _ in said_by("ROCm 7.1 added packages"))  # a sentence, not a field


def test_a_radeon_no_rocm_build_runs_on_is_the_machines_gpu():
    text = "### Operating System\n\nDebian 13\n\n### GPU\n\nRX 6700 XT (gfx1031)\n\n### ROCm Version\n\nROCm 6.2\n"
    assert recommended_for(text) == "pytorch-cpu"
    assert recommended_for(text.replace("RX 6700 XT (gfx1031)", "RX 7900 XTX")) == "pytorch-rocm"


def test_oe4t_jetson_hostnamectl():
    text = ("root@jetson-nano-devkit-emmc:~# hostnamectl\n Static hostname: jetson-nano-devkit-emmc\n"
            "Operating System: OE4Tegra Demonstration Distro 4.0.12+snapshot-3272e64 (kirkstone-l4t-r32.7)\n"
            "          Kernel: Linux 4.9.337-l4t-r32.7.4+ga1cf17bc0aa0\n    Architecture: arm64\n")
    facts = facts_of(text)
    assert facts.os.name.startswith("OE4Tegra Demonstration Distro") and facts.os.version == "4.0.12"
    assert [(g.vendor, g.compute_capability, g.family) for g in facts.gpus] == [("NVIDIA", "5.3", "tegra")]
    assert "pytorch-cuda" != recommended_for(text)


def test_issue_form_driver_and_os_keys_and_a_plural_driver_word():
    facts = facts_of("### NVIDIA Open GPU Kernel Modules Version\n\n525.85.05\n\n### Operating System and Version\n\n"
                     "Debian GNU/Linux 11 (bullseye)\n\n### Hardware: GPU\n\nGPU 0: NVIDIA GeForce RTX 3060\n")
    assert facts.os.name.startswith("Debian") and facts.gpus[0].driver_version == "525.85.05"
    assert ("gpu.driver", "535.104.5") in said_by("GPU: NVIDIA GeForce RTX 3060ti (w/ prop drivers 535.104.5)")


def test_rocm_smi_product_rows_without_the_banner():
    text = "GPU[0]\t\t: Card Series: \t\tAMD Radeon Graphics\nGPU[0]\t\t: GFX Version: \t\tgfx1103\n"
    assert [p.shape for p in find_parts(text)] == ["rocm_smi"]
    facts = facts_of(text)
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("AMD Radeon Graphics", "gfx1103")]
    assert facts.cpu.hardware_arch == "x86_64"  # a Ryzen APU's iGPU
    assert not find_parts("GPU[0] : Card Series: AMD Radeon Graphics\n")  # one row is not a table


def test_wsl_a_host_line_and_counted_blackwell_cards():
    assert ("platform", "linux") in said_by("Tried to run inference on wsl")
    assert ("platform", "linux") not in said_by("I tried WSL but went back to Windows")
    facts = facts_of("Image built 2026-09-14. Host: Ubuntu, driver 615.71.09, 2x RTX PRO 6000 Blackwell (sm_120). Inside:\n")
    assert facts.os.name == "Ubuntu" and [g.model for g in facts.gpus] == ["RTX PRO 6000 Blackwell"] * 2
    assert {g.driver_version for g in facts.gpus} == {"615.71.09"}


def test_macos_by_its_major_number_and_a_gpu_in_a_mac():
    facts = facts_of("We run unsupported hardware. AMD RX 6900 XT on a Mac 5,1 with macOS 12. We got errors\n")
    assert facts.platform == "darwin" and ("os.release", "12") in said_by("on a Mac with macOS 12.")
    assert [g.model for g in facts.gpus] == ["AMD RX 6900 XT"] and facts.cpu.hardware_arch == "x86_64"
    assert not said_by("This needs macOS 14 or later")
    assert not any(f == "gpu.owned" for f, _ in said_by("Would an RX 580 in a Mac Pro work?"))


def test_faceswap_system_information():
    text = ("gpu_devices:         GPU_0: Intel - Iris Pro (experimental)\ngpu_vram:            GPU_0: 1536MB\n"
            "os_machine:          x86_64\nos_platform:         Darwin-17.7.0-x86_64-i386-64bit\npy_version:          3.6.3\n"
            "sys_ram:             Total: 16384MB, Available: 4861MB\n")
    facts = facts_of(text)
    assert [(g.vendor, g.model, g.memory_bytes) for g in facts.gpus] == [("Intel", "Intel Iris Pro", 1536 * 1024**2)]
    assert facts.interpreter.version == "3.6.3" and facts.os.version == "10.13.6"
    assert facts.cpu.memory_bytes == 16 * 1024**3
    assert "py" not in facts.interpreter.packages


def test_an_intel_macs_only_gpu_from_its_identifier():
    assert mac_integrated_gpu("MacBookPro11,4") == "Intel Iris Pro"
    assert mac_integrated_gpu("MacBookPro11,5") is None  # Iris Pro and a Radeon R9 M370X
    facts = facts_of('  "modelCode" : "MacBookPro11,4",\n  "cpuType" : "X86-64",\n')
    assert [(g.vendor, g.model) for g in facts.gpus] == [("Intel", "Intel Iris Pro")]


def test_crash_report_cores_and_mlx_c_device_info():
    facts = facts_of("Model: Mac15,6, BootROM 13822.41.1, proc 11:5:6 processors, 18 GB, SMC \n"
                     "Graphics: Apple M3 Pro, Apple M3 Pro, Built-In\n")
    assert facts.cpu.cores == 11 and facts.gpus[0].cores == 14
    facts = facts_of("  device_name: Apple M3 Max\n  max_recommended_working_set_size: 103079215104\n"
                     "  memory_size: 137438953472\n")
    assert facts.cpu.memory_bytes == 128 * 1024**3 and facts.gpus[0].cores == 40


def test_macos_own_python_is_the_install_target():
    text = ("> arch -x86_64 python\n\nWARNING: Python 2.7 is not recommended.\n"
            "This version is included in macOS for compatibility with legacy software.\n")
    facts = facts_of(text)
    assert facts.interpreter.executable == "/usr/bin/python" and facts.interpreter.kind == "system"
    assert check_levels(text).get("install_target") == "warn"


def test_old_sdk_macos_version_with_its_build_and_prusaslicers_ram():
    facts = facts_of("System Version:      macOS Version 10.16 (Build 20B29)\nTotal RAM size [MB]: 17,180MB\n"
                     "Renderer:     Apple M1\n")
    assert facts.os.version == "11.0.1" and facts.cpu.memory_bytes == 17_180_000_000
    assert not any(f == "os.version" for f, _ in said_by("System Version: macOS Version 10.16"))  # no build: unknown


def test_nvs_names_gl_version_driver_and_job_summary_entities():
    facts = facts_of("Operating System:    Windows\nGL version:   4.5.0 NVIDIA 382.05\nRenderer:     NVS 4200M/PCIe/SSE2\n")
    assert [(g.vendor, g.compute_capability, g.driver_version) for g in facts.gpus] == [("NVIDIA", "2.1", "382.05")]
    facts = facts_of("Operating System\n&ensp;&ensp;&ensp;macOS\n&ensp;&ensp;&ensp;14.6.1\n&ensp;&ensp;&ensp;23G93\n")
    assert facts.os.version == "14.6.1"


def test_rpcs3_header_lines():
    facts = facts_of("- SYS: Apple M1 (4P+4E) | 8 Threads | 16.00 GiB RAM | TSC: 0.024GHz | FMA3\n"
                     "- SYS: Operating system: macOS, Version: 15.2.0\n")
    assert facts.os.version == "15.2" and facts.cpu.memory_bytes == 16 * 1024**3


def test_wheel_file_names_listed_as_installed():
    facts = facts_of("tensorflow-2.19.0-cp39-cp39-macosx_12_0_arm64\nkeras-3.9.2-py3-none-any\ntensorflow-metal-1.2.0\n")
    packages = facts.interpreter.packages
    assert (packages["tensorflow"], packages["keras"], packages["tensorflow-metal"]) == ("2.19.0", "3.9.2", "1.2.0")
    assert facts.interpreter.machine == "arm64"
    assert not said_by("tensorflow-metal-1.2.0")  # a name-version alone, without a wheel beside it


def test_a_hinted_chip_key_a_lone_architecture_line_and_a_numbered_mac_answer():
    facts = facts_of("* UTM Version: 4.7.4\n* macOS Version: 15.7.2\n* Mac Chip (Intel, M1, ...): M1\n")
    assert facts.cpu.brand == "Apple M1" and facts.cpu.apple_silicon
    facts = facts_of("OS: macOS 13.2.1\nMemory: 8 GiB\nArchitecture: aarch64\n")
    assert facts.platform == "darwin" and facts.os.version == "13.2.1"
    assert not [p for p in find_parts("Architecture: aarch64\n") if p.shape == "lscpu"]
    assert facts_of("1. Mac: M2\n").cpu.brand == "Apple M2"
