"""Readers and inferences of the set-51 fix round, on literal texts: what they read, and near misses that must not
fire."""
from paste_said import facts_of, recommended_for, said_by

from macml.diagnose import multi_gpu_checks, torch_checks
from macml.facts import model_named
from macml.knowledge.compat import beyond_intel_mac_torch
from macml.knowledge.dgx_systems import dgx_system
from macml.knowledge.mac_igpus import mac_name_has_amd_gpu
from macml.probe.paste.text import clean_lines


def test_a_native_shell_session_with_arch_and_a_python_without_an_x86_slice():
    text = ("➜ softwareupdate --install-rosetta\nInstall of Rosetta 2 finished successfully\n\n"
            "➜ arch -x86_64 python examples/reader.py\narch: posix_spawnp: python: Bad CPU type in executable\n\n"
            "➜ arch\narm64\n\n➜ uname -m\narm64\n")
    facts = facts_of(text)
    assert facts.platform == "darwin" and facts.cpu.apple_silicon is True
    assert facts.interpreter.machine == "arm64" and facts.rosetta is False
    # 'arch -arm64' failing so: the Python is x86_64 only
    other = facts_of("% arch -arm64 python3 -V\narch: posix_spawnp: python3: Bad CPU type in executable\n")
    assert other.interpreter.machine == "x86_64"
    assert not [f for f, _ in said_by("Installing Rosetta 2 on this system is not supported.") if f == "cpu.hardware_arch"]


def test_an_apu_named_by_its_codename_and_its_companions_builds():
    text = ("- Python 3.10\n- torch-1.12.0+rocm5.1.1\n- torchaudio-0.12.0+rocm5.1.1\n- torchvision-0.13.0+rocm5.1.1\n"
            "- Ubuntu 22.04 LTS\n- AMD® Renoir graphics\n")
    facts = facts_of(text)
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("AMD Renoir", "gfx90c")]
    assert facts.package("torchaudio") == "0.12.0+rocm5.1.1" and facts.cpu.hardware_arch == "x86_64"
    assert recommended_for(text) == "pytorch-cpu"  # no ROCm wheel targets gfx90c
    assert not [f for f, _ in said_by("no AMD Renoir graphics here") if f == "gpu.gfx"]


def test_miopens_log_names_the_gpu_target():
    line = "MIOpen(HIP): Warning [BuildOcl] amdgcn-amd-amdhsa--gfx900:sramecc-:xnack-"
    assert ("gpu.gfx", "gfx900") in said_by(line)
    assert ("gpu.gfx", "gfx906") in said_by("MIOpen(HIP): Warning [SQLiteBase] Unable to read /opt/rocm/miopen/db/gfx906_60.kdb")
    # a wheel's bundled code objects are not the device
    assert not [f for f, _ in said_by("Bundled Code Objects: hipv4-amdgcn-amd-amdhsa--gfx1030") if f == "gpu.gfx"]


def test_a_dgx_node_and_a_topology_header_cut_after_four_rows():
    rows = "".join(f"GPU{i}    X      NV12    PXB     48-63   3   N/A\n" for i in range(4))
    header = "        " + "    ".join(f"GPU{i}" for i in range(8)) + "    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
    facts = facts_of("I am on the DGX A100 40GB node that I have access to.\n$ nvidia-smi topo -m\n" + header + rows)
    assert [g.model for g in facts.gpus] == ["A100"] * 8 and facts.cpu.hardware_arch == "x86_64"
    assert len(facts_of("$ nvidia-smi topo -m\n" + header + rows).gpus) == 8  # the header counts the cut rows
    assert dgx_system("DGX-1") is None and dgx_system("dgx-a100").gpus == 8
    assert not [f for f, _ in said_by("Is a DGX H100 worth it?") if f == "gpu"]


def test_a_rocm_wheel_in_a_version_field_and_a_lib64_site_packages():
    assert ("platform", "linux") in said_by("Torch: 2.2.0.dev20230928+rocm5.6 Autocast half")
    assert ("python.minor", "3.13") in said_by('  File "/usr/local/lib64/python3.13/site-packages/torch/__init__.py"')
    assert not [f for f, _ in said_by("torch 2.2.0+rocmsdk20251116") if f == "platform"]  # AMD's Windows wheels


def test_lshw_block_ends_at_the_next_node_and_lite_hash_rate_names():
    text = ("  *-display\n       description: VGA compatible controller\n"
            "       product: GA106 [GeForce RTX 3060 Lite Hash Rate]\n       vendor: NVIDIA Corporation\n"
            "  *-graphics\n       product: EFI VGA\n       logical name: /dev/fb0\n")
    facts = facts_of(text)
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("GeForce RTX 3060 Lite Hash Rate", "8.6")]


def test_a_launchers_node_prefix_is_not_part_of_the_lines():
    lines = ["nid005113 out: GPU  Temp   AvgPwr", "nid005113 out: 0    47.0c  91.0W", "nid005113 out: 1    46.0c  N/A"]
    assert clean_lines("\n".join(lines)) == ["GPU  Temp   AvgPwr", "0    47.0c  91.0W", "1    46.0c  N/A"]
    two = ["node01: a", "node01: b"]  # a run of two is left alone
    assert clean_lines("\n".join(two)) == two
    assert clean_lines("GPU: RTX 3090\nGPU: RTX 3090\nGPU: RTX 3090") == ["GPU: RTX 3090"] * 3  # no digit, no stream word


def test_unnamed_gpus_are_not_mixed_models():
    assert not model_named("AMD GPU 3") and not model_named("NVIDIA GPU (model not in the evidence)")
    assert model_named("Radeon RX 6800")
    text = ("=========== ROCm System Management Interface ===========\n"
            "GPU  Temp   AvgPwr  SCLK    MCLK     Fan  Perf  PwrCap  VRAM%  GPU%\n"
            "0    47.0c  91.0W   800Mhz  1600Mhz  0%   auto  560.0W    0%   0%\n"
            "1    46.0c  N/A     800Mhz  1600Mhz  0%   auto  0.0W      0%   0%\n")
    facts = facts_of(text)
    assert len(facts.gpus) == 2 and multi_gpu_checks.check_mixed_gpus(facts) is None
    mixed = facts_of("GPU 0: NVIDIA GeForce RTX 3090\nGPU 1: NVIDIA GeForce RTX 4090\n")
    assert multi_gpu_checks.check_mixed_gpus(mixed) is not None


def test_an_imac_by_apples_name_has_an_amd_gpu():
    assert mac_name_has_amd_gpu("iMac (Retina 5K, 27-inch, 2020)")
    assert mac_name_has_amd_gpu("MacBook Pro (16-inch, 2019)")
    assert not mac_name_has_amd_gpu("iMac (21.5-inch, 2017)") and not mac_name_has_amd_gpu("iMac (24-inch, M1, 2021)")
    facts = facts_of("it cannot be installed even on a recent Mac (e.g. iMac (Retina 5K, 27-inch, 2020))\n")
    assert facts.cpu.hardware_arch == "x86_64" and [g.vendor for g in facts.gpus] == ["AMD"]


def test_a_torch_an_intel_mac_cannot_have():
    assert beyond_intel_mac_torch("==2.4.1") and beyond_intel_mac_torch(">=2.4")
    assert not beyond_intel_mac_torch(">=2.1") and not beyond_intel_mac_torch("<2.3") and not beyond_intel_mac_torch("bad")
    text = "mac系统intel架构的，pip仓库没有torch==2.4.1怎么办？\n"
    facts = facts_of(text)
    assert facts.platform == "darwin" and facts.cpu.apple_silicon is False
    assert facts.packages_wanted == {"torch": ("==2.4.1",)} and facts.package("torch") is None
    finding = torch_checks.check_intel_mac_torch(facts)
    assert finding.level == "warn" and "2.2.2" in finding.message
    pip = facts_of("While running on Mac with x86_64 CPU\nERROR: No matching distribution found for torch==2.3.0\n")
    assert torch_checks.check_intel_mac_torch(pip).level == "warn"
    assert not [f for f, _ in said_by("this does not require torch>=2.4") if f == "package.wanted"]
    apple = facts_of("Apple M2, macOS 14.5\nERROR: No matching distribution found for torch==2.3.0\n")
    assert torch_checks.check_intel_mac_torch(apple) is None  # not an Intel Mac


def test_an_intel_core_tier_beside_memory_and_a_mac_model_answer():
    assert ("cpu.memory_bytes", 16 * 1024**3) in said_by("I have a MacOS 10.15.17 (i5 16GB); I've tried")
    assert not [f for f, _ in said_by("an i5 would need (i5 16GB) if you buy one") if f == "cpu.memory_bytes"]
    facts = facts_of("- macOS Version: 12.6\n- Intel chip or Apple chip: M1\n")
    assert facts.cpu.chip.name == "Apple M1" and facts.cpu.apple_silicon is True
    assert facts_of("- Intel chip or Apple chip: Intel chip\n").cpu.hardware_arch == "x86_64"


def test_core_counts_after_their_labels():
    facts = facts_of("Hardware: Apple M5 Max with CPU 18-Core and GPU 40-Core, 128 GB unified memory.\n")
    assert facts.cpu.cores == 18 and [g.cores for g in facts.gpus] == [40]


def test_rosetta_terminals_flutter_doctor_and_conda_archspec():
    facts = facts_of("- Macbook Pro, M1 Max chip\n- Terminal is set to “Open using Rosetta”\n")
    assert facts.translated_process is True and facts.rosetta is True
    assert not [f for f, _ in said_by("If needed, set Terminal to Open using Rosetta") if f == "process.translated"]
    flutter = said_by("[✓] Flutter (Channel stable, 3.35.3, on macOS 15.6.1 24G90 darwin-arm64 (Rosetta), locale")
    assert ("process.translated", True) in flutter and ("cpu.hardware_arch", "arm64") in flutter
    native = said_by("[✓] Flutter (Channel stable, 3.35.3, on macOS 15.6.1 24G90 darwin-arm64, locale en-US)")
    assert ("process.translated", True) not in native
    assert ("python.machine", "arm64") in said_by("       virtual packages : __archspec=1=arm64")


def test_torch_build_config_says_the_pythons_arch():
    block = ("PyTorch compiling details: PyTorch built with:\n  - GCC 4.2\n  - C++ Version: 201703\n  - clang 13.1.6\n"
             "  - LAPACK is enabled (usually provided by MKL)\n  - NNPACK is enabled\n  - CPU capability usage: NO AVX\n")
    facts = facts_of("sys.platform: darwin\n" + block)
    assert facts.interpreter.machine == "arm64" and facts.cpu.apple_silicon is True
    mkl = block.replace("  - clang 13.1.6\n", "  - clang 13.1.6\n  - Intel(R) Math Kernel Library Version 2020.0.1\n")
    assert facts_of("sys.platform: darwin\n" + mkl).interpreter.machine == "x86_64"
    linux = block.replace("  - clang 13.1.6\n", "")  # built by GCC alone: no word on the arch
    assert facts_of(linux).interpreter is None or facts_of(linux).interpreter.machine in ("", None)


def test_a_bare_python_line_an_amd_mobile_number_and_envinfos_memory():
    assert ("python.minor", "3.10") in said_by("Python 3.10")
    facts = facts_of("on MacOS 11.1, vulkan 1.2.162, Intel UHD 630 exception. AMD 5500M is okay.\n")
    assert sorted(g.model for g in facts.gpus) == ["AMD 5500M", "Intel UHD 630"]
    assert ("cpu.memory_bytes", 16 * 1024**3) in said_by("    Memory: 124.86 MB / 16.00 GB")
