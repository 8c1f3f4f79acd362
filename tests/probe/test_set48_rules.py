"""Readers and inferences of the set-48 fix round, on literal texts: what they read, and near misses that must not
fire."""
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_a_conda_built_python_is_a_conda_interpreter_and_jaxs_arm_warning_names_arm64():
    text = ("OS: macOS Monterey Version 12.4 Beta\nChip: Apple M1\n"
            "Python 3.9.12 | packaged by conda-forge | (main, Mar 24 2022, 23:24:38)\n"
            ">>> tensorflow.__version__\n'2.8.0'\n")
    facts = facts_of(text)
    assert facts.interpreter.conda and facts.rosetta is not True  # conda-forge builds osx-arm64 TensorFlow of its own
    warned = facts_of(text + "UserWarning: JAX on Mac ARM machines is experimental and minimally tested.\n")
    assert warned.interpreter.machine == "arm64" and warned.rosetta is False
    assert not said_by("Python 3.9.12 (main, Mar 24 2022) [Clang 12.0.1] on darwin") or \
        ("python.conda", True) not in said_by("Python 3.9.12 (main, Mar 24 2022) [Clang 12.0.1] on darwin")


def test_a_jetson_a_tool_cannot_detect_is_still_there_and_bare_driver_rows():
    text = ("Seems nvitop could not well detect jetson orin nano platform.\nMy environment is:\n"
            "2. Driver: 540.4.0\n3. CUDA DRIVER: 12.6\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and facts.cpu.hardware_arch == "aarch64"
    assert facts.gpus and facts.gpus[0].driver_version == "540.4.0" and facts.gpus[0].cuda_driver_version == "12.6"
    assert not [f for f, _ in said_by("I do not have a Jetson Orin Nano.") if f == "gpu.mention"]
    assert not [v for f, v in said_by("Driver: amdgpu") + said_by("Driver: 6.12.12") if f == "gpu.driver"]


def test_a_vm_guest_and_its_host_and_a_macos_vm_in_proxmox():
    text = ("## Environment\n- Host: Windows 11 (build 26100), AMD R7-7735HS / Radeon 680M\n"
            "- Guest: macOS 13.7.8 Ventura\n- QEMU: self-built 8.2.2\n")
    facts = facts_of(text)
    assert facts.vm is True and facts.platform == "darwin" and facts.cpu.hardware_arch == "x86_64"
    assert not [g for g in facts.gpus if "680M" in g.model]  # the host's GPU
    assert check_levels(text)["virtual_machine"] in ("warn", "fail") and recommended_for(text) != "pytorch-mps"
    proxmox = facts_of("I have a macos sequoia 15.3.2 VM hosted in proxmox. It fails.\n")
    assert proxmox.vm is True and proxmox.cpu.hardware_arch == "x86_64"
    assert facts_of("- Host: Ubuntu 22.04, RTX 4090\n").gpus  # no guest: the host is the machine


def test_sdnexts_platform_summary():
    text = ("OS: Ubuntu 22.04.3, Platform: arch=x86_64 cpu=x86_64\nROCm agents detected: ['gfx1030']\n"
            'Torch "2.3.0.dev20240218+rocm6.0"\nDevice: None (6900xt)\n')
    facts = facts_of(text)
    assert facts.interpreter.machine == "x86_64" and facts.frameworks["torch"].data["version"].endswith("+rocm6.0")
    assert facts.gpus and facts.gpus[0].vendor == "AMD" and facts.gpus[0].compute_capability == "gfx1030"


def test_a_log_prefix_an_easy_memory_row_and_ubuntu_drivers_header():
    line = "2024-05-21 18:23:42,182 (GuiMain.py) (Line 2055) [INFO] : System memory: 8589934592 (8GB)\n"
    assert facts_of(line).cpu.memory_bytes == 8 * 1024**3
    assert said_by("== /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0 ==") == [("platform", "linux")]
    assert not said_by("System memory: lots")


def test_a_gpu_field_that_starts_with_its_count():
    assert len(facts_of("- **GPUs**: 2 RTX 3090 FE\n").gpus) == 2
    assert len(facts_of("- **GPUs**: 1 RTX 3090 FE\n").gpus) <= 1
    assert len(facts_of("- **RAM**: 2 RTX 3090\n").gpus) <= 1  # not a GPU field


def test_mesas_old_gallium_renderer_names_an_amd_chip():
    text = "           GLX Renderer: Gallium 0.4 on AMD POLARIS10 (DRM 3.9.0 / 4.10.0-35-generic, LLVM 4.0.0)\n"
    facts = facts_of(text)
    assert facts.platform == "linux" and facts.gpus and facts.gpus[0].compute_capability == "gfx803"
    assert check_levels(text)["rocm_target"] in ("warn", "fail")


def test_a_homebrew_python_2_and_keplers_mobile_780m():
    line = "Python: /usr/local/opt/python/libexec/bin/python => /usr/local/Cellar/python/2.7.13_1/Frameworks/Python.framework"
    assert ("python.version", "2.7.13") in said_by(line)
    assert facts_of("Graphics: NVIDIA GeForce GTX 780M, NVIDIA GeForce GTX 780M, PCIe, 4096 MB\n").gpus[0] \
        .compute_capability == "3.0"
