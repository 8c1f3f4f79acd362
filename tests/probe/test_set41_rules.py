"""Readers and knowledge of the set-41 fix round, on literal texts: what they read, and near misses that must not
fire."""
from paste_said import check_levels, facts_of, said_by


def test_a_rocm_device_known_by_its_gfx_target_and_hips_release():
    facts = facts_of("[+] HIP Runtime v5.7.31921\n    @ /opt/rocm/lib/libamdhip64.so\n"
                     "HIP Devices [1]\n    1. HIPDevice(name=\"gfx1100\", id=1)\n")
    assert facts.gpus[0].model == "gfx1100" and facts.gpus[0].compute_capability == "gfx1100"
    assert facts.cpu.hardware_arch == "x86_64"
    assert not [f for f, _ in said_by("[+] HIP Runtime v7.1.0") if f == "cpu.hardware_arch"]  # 7.x may add Arm hosts


def test_an_exported_rocr_variable_names_linux_only_when_exported():
    assert ("platform", "linux") in said_by("The fix is one environment variable: export HSA_OVERRIDE_GFX_VERSION=11.0.0")
    assert ("platform", "linux") not in said_by("set HSA_OVERRIDE_GFX_VERSION=11.0.0")


def test_cuda_runfiles_and_nvidia_laptop_quadros_name_x86():
    facts = facts_of("Device: NVIDIA GeForce GT 720\nCUDA Runfile: cuda_11.4.4_470.82.01_linux.run\n")
    assert facts.cpu.hardware_arch == "x86_64"
    assert facts_of("CUDA Runfile: cuda_12.4.0_550.54.14_linux_sbsa.run\n").cpu.hardware_arch != "x86_64"
    assert facts_of("OS: Ubuntu 16.04\nGPU: Quadro K2000M\n").cpu.hardware_arch == "x86_64"
    assert facts_of("OS: Ubuntu 16.04\nGPU: Quadro K2000\n").cpu.hardware_arch in ("", "unknown")


def test_torchs_new_capability_warning_and_opencl_platform_versions():
    line = ("/opt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:422: UserWarning: Found GPU0 Quadro P2000 "
            "which is of compute capability (CC) 6.1.")
    assert ("torch.incompatible", "6.1") in said_by(line)
    facts = facts_of("   version: OpenCL 3.0 PoCL 6.0  Linux, Release, RELOC\n   version: OpenCL 3.0 CUDA 12.6.65\n"
                     "   · NVIDIA RTX 6000 Ada Generation (fp64)\n")
    assert facts.platform == "linux" and facts.gpus[0].cuda_driver_version == "12.6"


def test_nixos_version_jetsoninfo_memory_and_a_package_list():
    assert facts_of("`nixos-version`: 26.05.20260409.4c1018d (Yarara)\n").os.name.startswith("NixOS")
    assert facts_of("NVIDIA Jetson AGX Xavier [16GB]\n L4T 32.4.3 [ JetPack 4.4 ]\n").cpu.memory_bytes == 16 * 1024**3
    facts = facts_of("**Software Environment:**\n- Miniconda3 with Python 3.11.11\n- Unsloth 2025.4.8 (git)\n")
    assert facts.package("unsloth") == "2025.4.8"
    assert facts_of("- Unsloth 2025.4.8 (git)\n").package("unsloth") is None  # no list label: not a package list


def test_mac_release_names_in_spec_lists_and_a_gpu_at_a_sentences_end():
    facts = facts_of("I have mac osx El Capitan and external GPU GTX 980ti.\n")
    assert facts.os.version == "10.11" and facts.gpus[0].model == "GTX 980ti" and facts.gpus[0].external
    text = "the performance in macOS (macbook mid 2014, 2,5Ghz i7, 16GB ram, and macOS mojave) is very bad\n"
    assert facts_of(text).os.version == "10.14"
    assert facts_of("It worked on my old Mac (macbook mid 2012 and macOS mojave) but not now\n").os.version != "10.14"


def test_tensorflows_avx_guard_on_apple_silicon_is_a_rosetta_python():
    text = ("`The TensorFlow library was compiled to use AVX instructions, but these aren't available on your machine.`\n"
            "I am on a mac m1 using python3.10 venv\n")
    facts = facts_of(text)
    assert facts.interpreter.machine == "x86_64" and facts.rosetta is True and facts.interpreter.version == "3.10"
    assert check_levels(text)["rosetta_python"] == "fail"


def test_chip_shorthands_cores_and_llvm_host_cpu():
    facts = facts_of("My machine is M1-Max 32c 64 GB, approximate Ram usage 25 GB\n")
    assert facts.gpus[0].cores == 32 and facts.cpu.memory_bytes == 64 * 1024**3
    assert facts_of("My machine is M1-Max 10c 64 GB\n").gpus[0].cores is None  # 10: the CPU's count, not the GPU's
    assert facts_of("# early 2023 14' macbook 12 core m2 max , 30gpu cores , 32GB ram\n").gpus[0].cores == 30
    facts = facts_of("system: Apple MacBook Air M2\nUsing `llvmbind.get_host_cpu_name()` results in `'apple-m1'`.\n"
                     "llvmlite.__version__: '0.44.0'\n")
    assert facts.interpreter.machine == "arm64" and facts.rosetta is False and facts.package("llvmlite") == "0.44.0"
    facts = facts_of("- **Model:** MacBook Pro M2 (Mac14,10)\n- **Chip:** Apple M2 Pro (12 cores: 8 performance, "
                     "4 efficiency)\n")
    assert facts.gpus[0].cores == 19


def test_a_forced_pip_install_is_an_externally_managed_python():
    text = "- **Python:** 3.14.0 (installed via Homebrew)\n- **Installation:** `pip install torch --break-system-packages`\n"
    assert facts_of(text).interpreter.externally_managed is True
    assert check_levels(text)["install_target"] == "warn"
    assert not [f for f, _ in said_by("Never run pip install torch --break-system-packages") if f == "python.externally_managed"]


def test_mac_hardware_lines_runner_images_and_speccy():
    assert facts_of("macOS 12.3 arm64, M1 \n").cpu.brand == "Apple M1"
    facts = facts_of("- Tested with Julia 1.12.2, macOS Tahoe 26.2 (Apple Silicon), Apple clang 17.0.0\n")
    assert facts.cpu.apple_silicon is True
    assert check_levels("MacOS Mojave Version 10.14.6\nMac Pro Mid 2010 (6 Core intel Xeon\n")["cpu_features"] == "warn"
    facts = facts_of("### Image version and build link\n\nImage: macos-14-arm64\n  Version: 20240415.6\n")
    assert facts.cpu.hardware_arch == "arm64" and facts.vm is True
    assert facts_of("Image: macos-14-arm64\n").vm is not True  # no runner heading: an image named in passing
    facts = facts_of("### Graphics\n\t4096MB ATI AMD Radeon R9 Fury Series (ASUStek Computer Inc)\t36 °C\n"
                     "**Radeon Software version:** 17.12.2  \n")
    assert facts.gpus[0].memory_bytes == 4096 * 1024**2 and facts.gpus[0].driver_version == "17.12.2"
