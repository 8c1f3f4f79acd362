"""Readers and knowledge of the set-27 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.pci_ids import amd_device_name
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.mac_issue_rules import egpu_gpus
from paste_said import check_levels, facts_of, said_by


def test_a_bilingual_issue_form():
    text = ("### Operating System Mode | 操作系统类型\n\nLinux\n\n### Python version | Python 版本\n\n3.12\n\n"
            "NVIDIA Graphics Device with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n"
            "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n"
            "用5060ti显卡的电脑，cuda加速就会报这个错误\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and [(g.model, g.compute_capability) for g in facts.gpus] == [("5060ti", "12.0")]
    assert check_levels(text).get("cuda_arch") == "fail"


def test_counted_instinct_answers_and_a_bare_cpu_number():
    facts = facts_of("### CPU\n\n7402p\n\n### GPU\n\nMI50*8\n")
    assert len(facts.gpus) == 8 and {g.compute_capability for g in facts.gpus} == {"gfx906"}
    assert facts.cpu.hardware_arch == "x86_64"
    assert not any(f == "cpu.hardware_arch" for f, _ in said_by("CPU: 2024"))  # a year, not a model


def test_a_radeon_mobile_name_in_a_go_struct_and_its_memory():
    line = ('Nov 13 19:15:41 OMEN ollama[29102]: time=2025-11-13T19:15:41.635-05:00 level=TRACE source=runner.go:448 '
            'msg="runner enumerated devices" devices="[{DeviceID:{ID:0 Library:ROCm} Name:ROCm0 Description:AMD Radeon RX '
            '6650M FilterID: Integrated:false PCIID:0000:03:00.0 TotalMemory:8573157376 FreeMemory:8153726976}]"\n')
    gpus = facts_of(line).gpus
    assert [(g.model, g.memory_bytes) for g in gpus] == [("AMD Radeon RX 6650M", 8573157376)]


def test_radeon_names_with_their_variants_and_units():
    assert gpu_names("GPU: AMD ATI Radeon R7 M260/M265 / M") == ["Radeon R7 M260/M265"]
    assert gpu_names("Radeon Pro Vega 64X 16 Go / Ventura 13.5") == ["Radeon Pro Vega 64X"]
    assert gpu_names("product: Strix Halo [Radeon Graphics / Radeon 8050S Graphics / Radeon 8060S Graphics]") == [
        "Radeon 8060S Graphics"]  # the slash list of one family is not split into cards


def test_an_instinct_device_id_and_inxis_board_name():
    assert amd_device_name("0x74a1") == "AMD Instinct MI300X" and amd_device_name("0x1234") is None
    said = said_by("           Device-2: NVIDIA TU104BM [GeForce RTX 2080 Mobile] driver: nvidia v: 450.80.02 ")
    assert any(f == "gpu" and v["name"] == "GeForce RTX 2080 Mobile" for f, v in said) and ("gpu.driver", "450.80.02") in said


def test_hashcat_dotted_keys():
    facts = facts_of("Metal.Version.: 212.8\n\n  Name...........: Intel(R) Core(TM) i5-3210M CPU @ 2.50GHz\n")
    assert facts.cpu.brand.startswith("Intel(R) Core(TM) i5-3210M") and not (facts.interpreter and facts.interpreter.packages)


def test_collect_env_torch_version_with_a_note():
    text = ("PyTorch version: 2.9.1 (This should be 2.10.0 but I couldn't install it due to the error above so fallback to 2.9.1)\n"
            "Is debug build: False\nOS: macOS 26.2 (arm64)\n")
    assert facts_of(text).frameworks["torch"].data["version"] == "2.9.1"


def test_pyenv_paths_and_a_vm_in_words():
    assert ("python.version", "3.8.13") in said_by("/root/.pyenv/versions/3.8.13/lib/python3.8/site-packages/torch/cuda/__init__.py:146")
    said = said_by("Rebooting alone did not work, but updating nvidia drivers on the VM from 510->530 resolved the mismatch.")
    assert any(f == "hypervisor" for f, _ in said)
    assert not any(f == "hypervisor" for f, _ in said_by("the driver is not installed on the VM"))


def test_a_paravirtual_mps_refusing_a_request_under_its_limit():
    vm = ("RuntimeError: MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes, max allowed: 7.93 GB). "
          "Tried to allocate 156.00 MB on private pool.")
    over = ("RuntimeError: MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes, max allowed: 7.93 GB). "
            "Tried to allocate 9.00 GB on private pool.")
    assert ("hypervisor", "Apple Virtual Machine") in said_by(vm)
    assert not any(f == "hypervisor" for f, _ in said_by(over))


def test_a_board_kernel_is_bare_metal_and_autogluons_keys():
    text = ("Python Version:     3.10.16\nOperating System:   Darwin\nPlatform Machine:   arm64\n"
            "Platform Version:   Darwin Kernel Version 24.5.0: Tue Apr 22 19:54:49 PDT 2025; root:xnu-11417.121.6~2/RELEASE_ARM64_T6000\n"
            "Memory Avail:       20.19 GB / 32.00 GB (63.1%)\n")
    facts = facts_of(text)
    assert facts.vm is False and facts.interpreter.machine == "arm64" and facts.cpu.memory_bytes == 32 * 1024**3


def test_an_enclosure_named_after_its_gpu():
    line = "an i9 connected to a Radeon VII in a Razer Core X with the main branch"
    assert ("gpu.external", "Radeon VII") in egpu_gpus(line)


def test_a_chip_as_a_gpu_answer_and_a_conda_distributions_arch():
    said = said_by("- GPU model and memory: M1")
    assert ("cpu.brand", "Apple M1") in said and ("platform", "darwin") in said
    assert ("python.machine", "arm64") in said_by("- Installed using conda?: conda (Miniforge 3 ARM64), pip")


def test_mlx_installed_means_an_arm64_python():
    text = "| Chip | Apple M5 Pro |\n| GPU | 20-core |\n| mlx | 0.31.2 |\n| macOS | 26.5 |\n"
    facts = facts_of(text)
    assert facts.interpreter.machine == "arm64" and [g.cores for g in facts.gpus] == [20]


def test_unity_vram_in_mb_and_this_is_on_windows():
    assert ("gpu.memory_of", {"index": None, "memory_mib": 11132}) in said_by("    VRAM:     11132 MB")
    said = said_by("This is on Windows 10, Nvidia 1080 Ti.")
    assert ("os.name", "Windows 10") in said and any(f == "gpu.owned" and v["name"] == "Nvidia 1080 Ti" for f, v in said)


def test_the_16_inch_macbook_pros_pro_chip_has_one_gpu_bin():
    facts = facts_of(" - Device: Macbook Pro 16\" - M1 Pro\n - macOS: 13.1\n")
    assert [g.cores for g in facts.gpus] == [16]
    assert [g.cores for g in facts_of(" - Device: Macbook Pro 16\" - M1 Max\n").gpus] == [None]  # two Max bins


def test_geforce_320m_and_a_misspelt_radeon():
    from macml.knowledge.hardware import nvidia_compute_capability
    assert nvidia_compute_capability("NVIDIA GeForce 320M") == "1.2"
    assert gpu_names("the dedicated GPU (AMD Raedon Pro 5500M)") == ["AMD Radeon Pro 5500M"]


def test_gpu_cores_written_with_a_c():
    assert ("gpu.cores", 40) in said_by("When launching koboldcpp on an M5 Max (MPB, 16in, 40c GPU) running Tahoe 26.5")
