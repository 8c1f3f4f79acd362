"""Readers and inferences of the set-42 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.hardware import nvidia_compute_capability
from paste_said import facts_of, recommended_for, said_by


def test_a_macs_identifier_outranks_one_processs_code_type():
    text = "Hardware Model:      MacBookPro18,3\nCode Type:           X86-64 (Native)\nOS Version:          macOS 12.3.1 (21E258)\n"
    facts = facts_of(text)
    assert facts.cpu.apple_silicon is True and facts.cpu.hardware_arch == "arm64"
    assert facts_of("Hardware Model:      MacBookPro14,3\nCode Type:           X86-64 (Native)\n").cpu.hardware_arch == "x86_64"


def test_a_fetch_tools_logo_column_and_an_asahi_mac():
    text = ('Apple M2 MacBook Air 13"\n'
            "               ...,/#,,,..                    OS: Fedora Linux Asahi Remix 43 (KDE Plasma Desktop Edition)4\n"
            "          /*,,,,,,,,*,........,,              Host: Mac14,2\n"
            "        ,((((((//*,,,,,,,,,......             Kernel: Linux 6.18.15-400.asahi.fc43.aarch64+16k\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and (facts.os.name, facts.os.version) == ("Fedora Linux Asahi Remix", "43")
    assert recommended_for(text) != "pytorch-mps"


def test_a_spec_lines_distro_an_issue_titles_and_a_jax_device():
    facts = facts_of("CPU: AMD Ryzen 5 2600X, 3.6 GHz; GPU: RX590 8GB; RAM: 2x8GB, darktable 4.6.1 on Arch linux.\n")
    assert facts.platform == "linux" and facts.os.name.startswith("Arch")
    assert facts_of("It does not run on Arch Linux, says my CPU: Ryzen; GPU: RX590\n").platform != "linux"
    title = facts_of("# [Issue]: Ubuntu 24.04.4 crashing every other day (Radeon 780m)\n").os
    assert (title.name, title.version) == ("Ubuntu", "24.04.4")
    facts = facts_of("device info: AMD Radeon RX 9070 XT-1, 1 local devices\"\n")
    assert [g.model for g in facts.gpus] == ["AMD Radeon RX 9070 XT"]


def test_apu_vegas_and_numbered_cards_a_writer_names_once():
    facts = facts_of("CPU: AMD Ryzen 5 2500u\niGPU: vega 8 1Gb\ndGPU: AMD Radeon RX560x (gfx803)\n")
    vega = next(g for g in facts.gpus if "vega" in g.model.lower())
    assert vega.vendor == "AMD" and vega.compute_capability == "gfx902"
    assert not [g for g in facts_of("GPU: Vega 10 XT\n").gpus if g.compute_capability == "gfx902"]
    text = ("This system has an Radeon Instinct MI25 and it is reported by rocm-smi:\n\nROCm System Management Interface\n"
            "GPU  Temp   AvgPwr  SCLK     MCLK    Fan   Perf  PwrCap  VRAM%  GPU%  \n"
            "1    28.0c  7.0W    1269Mhz  167Mhz  0.0%  auto  220.0W    0%   0%    \n"
            "2    38.0c  10.0W   1269Mhz  945Mhz  0.0%  auto  220.0W    0%   0%    \n")
    # 'an MI25' over two numbered cards: which card it is stays unknown (as in set 16's 'my GPU (Vega 10 XT)')
    assert [g.model for g in facts_of(text).gpus] == ["AMD GPU 1", "AMD GPU 2"]


def test_an_unnamed_board_in_torchs_warning_and_bare_geforce_numbers():
    line = "NVIDIA Graphics Device with CUDA capability sm_120 is not compatible with the current PyTorch installation."
    assert ("gpu.named", "NVIDIA Graphics Device") in said_by(line)
    assert [g.model for g in facts_of(line + "\n").gpus] == ["NVIDIA Graphics Device"]
    assert nvidia_compute_capability("Nvidia geforce 960") == "5.2"
    assert nvidia_compute_capability("geforce 9600") == "1.1"  # a GeForce 9600 GT, not a GTX 960
    facts = facts_of("Also I have a MacBookPro14,2\nUsing Razer Core X with a Nvidia geforce 960\n")
    egpu = next(g for g in facts.gpus if g.vendor == "NVIDIA")
    assert egpu.external is True and egpu.compute_capability == "5.2"


def test_windows_summaries_used_of_total_ram_and_bare_driver_versions():
    facts = facts_of("OS: Microsoft Windows 11 PRO\nGPU NVIDIA GeForce GTX 1050 Ti\nRAM: 14551MB / 32660 MB (45%)\n\n"
                     "NVIDIA GeForce GTX 1050 Ti\t\n\t31.0.15.2698\t\n")
    assert round(facts.cpu.memory_bytes / 1024**3) == 32 and facts.gpus[0].driver_version == "526.98"
    assert not [f for f, _ in said_by("\t31.0.101.4502\t") if f == "gpu.driver"]  # Intel's form
    facts = facts_of("OS: Windows 10\nGPU: Nvidia Quadro M5000, GTX 1070 (driver v. 576.80) [studio]\n")
    assert {g.driver_version for g in facts.gpus} == {"576.80"}


def test_a_chip_that_labels_others_results_is_not_the_writers():
    text = ("Adds the base-M3 datapoint to the table — the table had M5 Max 128 GB rows but no base M3 (16 GB unified).\n"
            "| Apple M3 (base, 4P+4E) · macOS · **16 GB unified** |\n")
    facts = facts_of(text)
    assert facts.cpu.chip.name == "Apple M3" and round(facts.cpu.memory_bytes / 1024**3) == 16
    assert facts_of("Tested on M1 Max with 32GB RAM\n").cpu.chip.name == "Apple M1 Max"
    assert not [v for f, v in said_by("My understanding is that version 2.2.2 is last version for Intel Mac")
                if f == "package"]
