"""Readers and inferences of the set-43 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.mac_families import only_tier
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_gpu_fields_listing_several_cards_and_an_os_line_with_its_kernel():
    facts = facts_of("- OS: Arch Linux, kernel 4.15.2\n- GPU models and configuration: Quadro K620, Tesla K80\n")
    assert [g.model for g in facts.gpus] == ["Quadro K620", "Tesla K80"] and facts.os.name == "Arch Linux"
    assert len(facts_of("GPU: Radeon Pro 560X, 4 GB\n").gpus) == 1  # a size, not a second card


def test_gnome_about_details_trademark_signs_and_an_apus_codename():
    text = ("- **Processor:**        AMD Ryzen\u2122 7 8700G w/ Radeon\u2122 780M Graphics \u00d7 16\n"
            "- **Graphics:**         NVIDIA GeForce RTX\u2122 4060\n"
            "- **Graphics 1:**       Advanced Micro Devices, Inc. [AMD\u00ae/ATI] Phoenix1\n"
            "- **OS Name:**          Ubuntu 24.04.2 LTS\n")
    facts = facts_of(text)
    assert sorted(g.model for g in facts.gpus) == ["NVIDIA GeForce RTX 4060", "Radeon 780M Graphics"]
    assert facts.platform == "linux" and facts.os.name.startswith("Ubuntu")
    assert recommended_for(text) == "pytorch-cuda"


def test_a_jetsons_own_driver_numbering_and_a_driver_too_old_elsewhere():
    jetson = ("PyTorch version              : 2.10.0+cu130\nCUDA used to build PyTorch   : 13.0\n"
              "OS                           : Ubuntu 24.04.4 LTS (aarch64)\nIs CUDA available            : True\n"
              "GPU models and configuration : GPU 0: NVIDIA Thor\nNvidia driver version        : 580.00\n")
    assert check_levels(jetson)["nvidia_driver"] == "ok"
    tesla = jetson.replace("NVIDIA Thor", "Tesla P100-PCIE-16GB").replace("(aarch64)", "")
    assert check_levels(tesla)["nvidia_driver"] == "fail"  # a forward-compatible CUDA is not the driver's own


def test_glued_chip_tiers_plural_sizes_and_one_tier_studios():
    assert facts_of("tried to run on m4pro 48gb using the ghibli example\n").cpu.memory_bytes == 48 * 1024**3
    assert facts_of("### Specs\nos: Monterey (12.5)\nApple M1 Max\nMemory: 32 GBS\n").cpu.memory_bytes == 32 * 1024**3
    assert facts_of("Downloaded and installed vMLX on M3 Studio internal drive.  MacOS 15.7.3\n").cpu.chip.name == "Apple M3 Ultra"
    assert only_tier("Mac Studio", 2) is None and only_tier("MacBook Air", 2) == ""


def test_an_enclosures_gpu_named_past_the_reach_is_read_whole():
    line = ("I have an AMD Radeon eGPU in a Sonnet Breakaway Box connected via a Thunderbolt 3 cable that I can't seem to "
            "make available to Macs Fan Control. The \"eGPU connected via Thunderbolt\" option in preferences is grayed "
            "out. In the logs, there's a \"Removable device AMD Radeon RX 6600 XT will not be added\"")
    assert not [v for f, v in said_by(line) if f == "gpu" and v["name"] == "AMD Radeon RX 6"]


def test_loaders_that_name_mlx_macos_x_glued_and_plaidmls_oldest_macos():
    line = ("ImportError: dlopen(/path/to/mlx/core.cpython-311-darwin.so, 0x0002): Library not loaded: "
            "@rpath/libmlx.dylib")
    assert ("python.machine", "arm64") in said_by(line) and any(f == "framework.import_failed" for f, _ in said_by(line))
    text = "# ColorKeeper crashes on macpro / macosx 10.9.5 (2 AMD cards)\nModel: MacPro6,1, BootROM MP61.0116.B04, 6 " \
           "processors, 6-Core Intel Xeon E5, 3.5 GHz, 32 GB, SMC 2.20f18\n"
    facts = facts_of(text)
    assert facts.os.version == "10.9.5" and recommended_for(text) not in ("plaidml-amd", "pytorch-mps")


def test_windows_spec_items_intel_celerons_as_typed_and_moltenvk():
    facts = facts_of("Tested on a GTX 1070 8 GB (sm_61), Windows 11, Python 3.13.7, torch 2.10.0+cu126.\n")
    assert facts.platform == "win32"
    assert facts_of("Works on Windows 11, macOS and Linux with any RTX card.\n").platform != "win32"
    assert check_levels("OS: Windows 10 Home 64bit\nCPU: Intel Celeron n4000 1.10\n")["cpu_features"] == "warn"
    facts = facts_of("[mvk-info] MoltenVK version 1.0.0. Vulkan version 1.0.69.\n[mvk-info] GPU device Intel HD Graphics "
                     "5000 (vendorID: 0x8086, deviceID: 0x0a26, pipelineCacheUUID: 55DB2269)\n")
    assert facts.platform == "darwin" and facts.gpus[0].model == "Intel HD Graphics 5000"


def test_amd_smi_static_names_a_generic_apu_gpu_and_an_imac_of_2020():
    text = ("GPU: 0\n    ASIC:\n        MARKET_NAME: AMD Radeon Graphics\n        TARGET_GRAPHICS_VERSION: gfx1151\n"
            "    DRIVER:\n        NAME: amdgpu\n        VERSION: 6.16.6\n")
    facts = facts_of(text)
    assert facts.gpus[0].compute_capability == "gfx1151" and facts.cpu.hardware_arch == "x86_64"
    assert facts_of("MacOS 12.3.1 Monterey\niMac 5K 2020\n").cpu.apple_silicon is False
    assert facts_of("MacOS 12.3.1 Monterey\nMacBook Air 2020\n").cpu.apple_silicon is None  # sold with both
