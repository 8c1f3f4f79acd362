"""Readers and inferences of the set-49 fix round, on literal texts: what they read, and near misses that must not
fire."""
from paste_said import facts_of, recommended_for, said_by


def test_uv_says_a_wheel_is_missing_so_torch_is_not_installed():
    text = ("error: Distribution `torch==2.11.0 @ registry+https://pypi.org/simple` can't be\n"
            "       installed because it doesn't have a source distribution or wheel for the\n"
            "       current platform\n\n"
            "hint: You're on macOS (`macosx_26_0_x86_64`), but `torch` (v2.11.0) only has\n")
    facts = facts_of(text)
    assert "torch" not in facts.frameworks and not facts.package("torch")
    assert facts.rosetta is not True and facts.cpu.apple_silicon is not True  # no installed arm64-only torch to infer from
    assert ("package", {"name": "torch", "version": "2.11.0"}) in said_by("Successfully installed torch-2.11.0")


def test_gpustat_rows_count_the_gpus_with_their_memory():
    rows = "".join(f"[{i}] NVIDIA GeForce RTX 4090 | 50°C,  73 % | 12894 / 24564 MB | user1(12874M) gdm(4M)\n"
                   for i in range(8))
    facts = facts_of(rows)
    assert len(facts.gpus) == 8 and facts.gpus[0].memory_bytes == 24564 * 1024**2
    assert len(facts_of("[1] GeForce GTX 1080 Ti | 36'C,   0 % |    10 / 11178 MB |\n").gpus) == 1
    assert not [f for f, _ in said_by("[0] see the notes | 50 % done") if f == "gpu"]


def test_nvidia_smi_q_pass_through_is_a_vm_and_host_vgpu_is_not():
    text = ("Attached GPUs                       : 1\nGPU 00000000:00:07.0\n"
            "    Product Name                    : Tesla V100-PCIE-16GB\n"
            "    GPU Virtualization Mode\n        Virtualization Mode         : Pass-Through\n")
    assert facts_of(text).vm is True
    assert not [f for f, _ in said_by("        Virtualization Mode         : None") if f == "hypervisor"]
    assert not [f for f, _ in said_by("        Virtualization Mode         : Host VGPU") if f == "hypervisor"]


def test_llama_cpp_system_info_with_avx_is_an_x86_build():
    assert ("cpu.hardware_arch", "x86_64") in said_by(
        "system_info: n_threads = 8 / 16 | AVX = 1 | AVX2 = 1 | NEON = 0 | ARM_FMA = 0 |")
    assert not said_by("system_info: n_threads = 8 / 8 | AVX = 0 | AVX2 = 0 | NEON = 1 | ARM_FMA = 1 |")


def test_a_conda_subdir_is_no_os_name_and_dgx_os_is_linux():
    facts = facts_of("Platform: linux-aarch64\n")
    assert facts.platform == "linux" and not facts.os.name.startswith("linux-")
    assert facts_of("* OS: DGX OS\n").os.name == "DGX OS"
    assert facts_of("  OS: Windows (x86_64-w64-mingw32)\n").os.name == "Windows"


def test_a_cpu_wheel_has_no_cuda_and_torch_in_backticks():
    facts = facts_of("the runtime reports **PyTorch `2.9.1+cpu`**, and the web UI shows no CUDA support\n")
    assert facts.frameworks["torch"].data["version"] == "2.9.1+cpu"
    assert facts.frameworks["torch"].data["cuda_available"] is False
    assert facts_of("torch 2.9.1+cu128\n").frameworks["torch"].data.get("cuda_available") is None


def test_conda_user_agent_names_the_release_but_not_an_old_sdks_10_16():
    agent = "             user-agent : conda/4.3.11 requests/2.12.4 CPython/3.6.0 Darwin/16.4.0 OSX/10.12.3\n"
    assert facts_of(agent).os.version == "10.12.3"
    old_sdk = "             user-agent : conda/23.1.0 requests/2.28.1 CPython/3.9.13 Darwin/22.4.0 OSX/10.16\n"
    assert facts_of(old_sdk).os.version.startswith("13.")


def test_mac_with_a_darwin_number_and_chip_cores_after_a_dot():
    text = "| OS | mac 25.6.0 (arm64) |\n| CPU | Apple M4 Pro · 12 cores |\n"
    facts = facts_of(text)
    assert facts.os.version.startswith("26.6") and facts.gpus[0].cores == 16
    assert not [f for f, _ in said_by("mac 16.4.1") if f == "os.darwin"]  # macOS 26 answers 16.x to old programs
    assert not [f for f, _ in said_by("macOS 15.6.1") if f == "os.darwin"]


def test_a_thunderbolt_display_card_in_the_crash_profile_is_an_egpu():
    text = ("Graphics: kHW_IntelIrisGraphics645Item, Intel Iris Plus Graphics 645, spdisplays_builtin\n"
            "Graphics: Radeon RX 570, Radeon RX 570, 4 GB\n"
            "PCI Card: Radeon RX 570, sppci_displaycontroller, Thunderbolt@132,0,0\n")
    facts = facts_of(text)
    assert [g.external for g in facts.gpus if "570" in g.model] == [True]
    assert not said_by("PCI Card: pci8086,15b6, sppci_usbxhci, Thunderbolt@133,0,0")


def test_a_plural_of_my_gpu_and_memory_said_after_a_gpu_name():
    assert ("gpu.owned", {"name": "RTX 4090", "vendor": "NVIDIA", "memory_mib": None, "index": None}) in said_by(
        "I'm trying to understand why my RTX 4090s hang on the all_reduce NCCL test.")
    assert not said_by("In the 1990s my dad bought a PC")
    facts = facts_of("does it run on osx + NVIDIA GeForce GT 750M with 2GB GDDR5 memory?\n")
    assert facts.gpus and facts.gpus[0].memory_bytes == 2 * 1024**3
    assert not [f for f, _ in said_by("a laptop with 16GB memory") if f == "gpu.memory_of"]


def test_running_without_rosetta_is_native_and_a_cpu_only_server_has_no_gpu():
    facts = facts_of("I can execute this code on my 14inch macbook pro which provides M1 Pro without rosetta2.\n")
    assert facts.rosetta is False and facts.interpreter.machine == "arm64"
    assert not said_by("Could I run this without Rosetta 2?")
    text = ("I'm installing ultralytics module on my CPU-ONLY server\n"
            "OS                  Linux-6.8.0-44-generic-x86_64-with-glibc2.39\nPython              3.11.9\n")
    assert recommended_for(text) == "pytorch-cpu"
    assert not [f for f, _ in said_by("It should also run on a CPU-only server.") if f == "gpu.none"]


def test_ultralytics_cuda_none_row_and_pip_python_27_warning():
    text = ("Ultralytics YOLOv8.2.92 🚀 Python-3.11.9 torch-2.4.1+cu121 CPU (Intel Xeon Gold 6133 2.50GHz)\n"
            "Setup complete ✅ (2 CPUs, 1.7 GB RAM, 21.1/49.1 GB disk)\n\nCUDA                None\n")
    assert facts_of(text).frameworks["torch"].data["cuda_available"] is False
    assert ("python.minor", "2.7") in said_by("DEPRECATION: Python 2.7 will reach the end of its life on January 1st, 2020.")
    assert ("python.machine", "x86_64") in said_by(
        "Collecting tensorflow==1.14.0 from https://files.pythonhosted.org/p/tensorflow-1.14.0-cp27-cp27m-macosx_10_11_x86_64.whl")


def test_a_macos_version_said_before_its_noun():
    assert facts_of("Yes, 10.11.2 is the version of the Mac OS.\n").os.version == "10.11.2"
    assert facts_of("14.2 is my macOS version\n").os.version == "14.2"
    assert not said_by("3.10 is the version of Python I use")
