"""Readers and knowledge of the set-33 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.probe.paste.gpu_names import gpu_names
from paste_said import check_levels, facts_of, said_by


def test_an_arm_mac_in_words_and_brew_configs_macos_line():
    facts = facts_of("In my ARM macos, execute 'brew config' in windterm shows \"macOS: 14.5-x86_64\" and brew install "
                     "would install x86-64 package\nbut when executed in system terminal, it shows \"macOS: 14.5-arm64\"\n")
    assert facts.platform == "darwin" and facts.cpu.hardware_arch == "arm64" and facts.os.version == "14.5"
    assert not said_by("It does not run on my Intel Mac, only on an ARM Mac")[:0]  # an Intel machine is not made arm64
    assert ("cpu.hardware_arch", "arm64") not in said_by("I do not have an ARM mac")


def test_a_trees_items_wsl_environment_and_the_os_in_a_sentence():
    facts = facts_of("Hardware\n├── iGPU: AMD Radeon 780M — 12 Compute Units, gfx1103\n└── OS: Ubuntu 26.04 LTS, kernel 7.0.0-22\n")
    assert facts.platform == "linux" and facts.gpus[0].compute_capability == "gfx1103"
    assert check_levels("Hardware\n├── iGPU: AMD Radeon 780M — 12 Compute Units, gfx1103\n└── OS: Ubuntu 26.04 LTS\n")[
        "rocm_target"] == "warn"
    assert ("os.name", "Ubuntu 22.04") in said_by("installed the wheel in my WSL environment (Ubuntu 22.04), and")
    assert ("os.name", "Arch linux") in said_by("The operating system is Arch linux.")
    assert ("os.name", "Ubuntu 22.04") in said_by("My OS is Ubuntu 22.04")
    assert not any(f == "os.name" for f, _ in said_by("my OS is not Ubuntu 22.04"))


def test_amds_driver_prefix_is_linux():
    assert ("platform", "linux") in said_by("`/opt/amdgpu/share/libdrm/amdgpu.ids: No such file or directory")


def test_a_macos_build_key_a_synology_nas_and_a_low_profile_board():
    assert ("os.build", "24C101") in said_by('      "buildID": "24C101",')
    assert not said_by('      "buildID": "abc",')
    said = said_by("On a **Synology DS1825+ (AMD Ryzen Embedded V1500B, DSM 7.3.2-86009 Update 1, kernel 5.10.55+)**")
    assert ("platform", "linux") in said and ("os.name", "DSM 7.3.2-86009 Update 1") in said
    assert gpu_names("NVIDIA RTX A2000 12 GB Low Profile (PCI 10de:2571 rev a1)") == ["NVIDIA RTX A2000 12 GB Low Profile"]


def test_cpu_core_counts_settle_the_gpu_bin():
    facts = facts_of(" - Model Name:\t        MacBook Pro (Apple M4 Pro 14 core) 48GB RAM\n")
    assert facts.cpu.cores == 14 and facts.gpus[0].cores == 20
    facts = facts_of("Model: Mac15,14, BootROM 18000.161.10, proc 28:20:8:0 processors, 256 GB, SMC\n"
                     "Graphics: Apple M3 Ultra, Apple M3 Ultra, Built-In\n")
    assert facts.gpus[0].cores == 60
    assert not any(f == "cpu.cores" for f, _ in said_by("Apple M3 Pro 18 core"))  # 18 is an M3 Pro GPU bin


def test_ram_said_beside_a_gpu_a_named_vm_and_tensorflows_short_names():
    assert ("cpu.memory_bytes", 48 * 1024**3) in said_by("Using an M4 Pro 20C GPU with 48GB of RAM.")
    assert not any(f == "cpu.memory_bytes" for f, _ in said_by("Radeon Pro 5500M with 8GB memory"))
    assert ("hypervisor", "UTM") in said_by("but it seems to crash inside a UTM VM with M1 mac.")
    said = said_by("- TensorFlow version (use command below): tf-macos: 2.9.2, tf-metal: 0.5.0")
    assert ("package", {"name": "tensorflow-macos", "version": "2.9.2"}) in said
    assert ("package", {"name": "tensorflow-metal", "version": "0.5.0"}) in said
