"""Readers and knowledge of the set-39 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.paste.gpu_name_keys import same_model
from macml.probe.paste.statements import piped_pairs, read_statements
from paste_said import check_levels, facts_of, said_by


def test_a_desktop_quadro_an_opteron_and_mint_in_prose():
    text = ("I did this on Mint 22.1 kernel 6.8 (legacy BIOS Boot), HP xw9400 with a Nvidia K5200 PCI card on\n"
            "[xw9400 is a workstation with (Two, Six-Core AMD Opteron(tm) Processor 2427 × 6 x 2) and 32 GiB RAM].\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and facts.os.name == "Mint"
    assert facts.gpus[0].compute_capability == "3.5" and facts.cpu.memory_bytes == 32 * 1024**3
    levels = check_levels(text)
    assert levels["gpu_generation"] in ("warn", "fail") and levels["cpu_features"] == "warn"
    assert nvidia_compute_capability("NVIDIA K80") == "3.7"  # a two-digit K is a Tesla, not a Quadro


def test_cpufetch_core_clusters_name_the_chip():
    text = ("[VERSION]: cpufetch v1.04-34-g2c1b (macOS ARM build)\n  CPU 1:\n    Microarchitecture: Sawtooth\n"
            "    Cores:             6 cores\n  CPU 2:\n    Microarchitecture: Everest\n    Cores:             6 cores\n")
    facts = facts_of(text)
    assert facts.platform == "darwin" and facts.cpu.chip.name == "Apple M3 Pro"
    shared = (text.replace("Sawtooth", "Blizzard").replace("Everest", "Avalanche")
              .replace("6 cores", "4 cores", 1).replace("6 cores", "8 cores"))  # 8+4: an M2 Pro or an M2 Max
    said = [(s.fact, s.value) for s in read_statements(shared.splitlines())]
    assert ("cpu.apple_generation", 2) in said and not [v for f, v in said if f == "cpu.brand"]


def test_a_maker_and_number_match_the_same_card_named_bare():
    assert same_model("1080ti", "nvidia 1080ti") and not same_model("Radeon 780M", "NVIDIA 780M")
    text = "2 nvidia 1080ti cards on fresh install of omarchy\nThe 1080ti's use compute 6.1\n"
    facts = facts_of(text)
    assert [g.model for g in facts.gpus] == ["nvidia 1080ti", "nvidia 1080ti"] and facts.gpus[0].compute_capability == "6.1"
    assert check_levels(text).get("mixed_gpus") != "warn"
    assert nvidia_compute_capability("nvidia 820m") == "2.1" and nvidia_compute_capability("GeForce 710") == "3.5"


def test_amd_smi_platform_running_on_a_named_board_and_native_linux():
    text = "| Platform: Linux Baremetal                 |\n| 0000:c3:00.0  Radeon 8060S Graphics | N/A |\n"
    facts = facts_of(text)
    assert facts.platform == "linux" and facts.vm is False and facts.gpus[0].compute_capability == "gfx1151"
    assert [g.model for g in facts_of("test fails running on **GB200** with vLLM 0.23.1rc1.dev1115+g0b54201a0.\n").gpus] == ["GB200"]
    assert ("package", {"name": "vllm", "version": "0.23.1rc1.dev1115+g0b54201a0"}) in said_by(
        "running on GB200 with vLLM 0.23.1rc1.dev1115+g0b54201a0.")
    assert facts_of("- GPU: AMD Radeon AI PRO R9700\n- OS: Ubuntu 26.04, native Linux\n").vm is False


def test_wsl_issue_form_is_the_linux_guest():
    text = ("### Windows Version\n\nMicrosoft Windows [Version 10.0.20348.2582]\n\n### Are you using WSL 1 or WSL 2?\n\n"
            "- [X] WSL 2\n- [ ] WSL 1\n\n### Distro Version\n\nUbuntu 22.04\n\n"
            "+-----------------------------------------------------------------------------------------+\n"
            "| NVIDIA-SMI 555.85                 Driver Version: 555.85         CUDA Version: 12.5     |\n"
            "|-----------------------------------------+------------------------+----------------------+\n"
            "| GPU  Name                  Driver-Model | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
            "|=========================================+========================+======================|\n"
            "|   0  NVIDIA L40S                  TCC   |   00000000:61:00.0 Off |                    0 |\n")
    assert facts_of(text).platform == "linux"
    assert facts_of(text.replace("- [X] WSL 2", "- [ ] WSL 2")).platform != "linux"  # unticked: the Windows host's report


def test_parts_lists_logs_and_piped_summaries():
    specs = ("**My Hackintosh Specs**\n\nMSI Z390 Gaming Edge Motherboard\nIntel i5-9400F\n16 GB Corsair Vengeance RGB Pro\n"
             "MSI GTX 1060 Gaming X 3GB\n")
    facts = facts_of(specs)
    assert facts.cpu.memory_bytes == 16 * 1024**3 and facts.gpus[0].compute_capability == "6.1"
    assert piped_pairs("ℹ️ Python: 3.12.11 | PyTorch: 2.10.0 | FlashAttn: ✗") == [
        ("python", "3.12.11"), ("pytorch", "2.10.0"), ("flashattn", "✗")]
    assert not piped_pairs("| GPU | RTX 3060 |")
    log = ("M5PRO with  48G   1080x1920px\n[15:57:29.160] ℹ️ OS: macOS 26.4.1 | GPU: Apple Silicon (MPS)\n"
           "[15:57:29.160] ℹ️ Python: 3.12.11 | PyTorch: 2.10.0 | FlashAttn: ✗\n")
    facts = facts_of(log)
    assert facts.cpu.memory_bytes == 48 * 1024**3 and facts.package("torch") == "2.10.0"
    cemu = "[12:45:59.035] RAM: 16304MB\n[12:45:59.035] Platform: Windows 10 Home (Build 9200)\n"
    assert facts_of(cemu).platform == "win32"
    installer = "2026-05-03 09:30:54-04 Mac-mini Installer[1259]: Hardware: Macmini7,1 @ 1.40 GHz (x 4), 4096 MB RAM\n"
    mini = facts_of(installer)
    assert mini.cpu.memory_bytes == 4 * 1024**3 and [g.vendor for g in mini.gpus] == ["Intel"]


def test_forms_and_lists_of_other_shapes():
    assert ("package", {"name": "tensorflow", "version": "2.13.0"}) in said_by("TensorFlow version: v2.13.0-rc2-7-g1cb1a030a62 2.13.0")
    assert facts_of("### RAM Size\n\n8gb\n").cpu.memory_bytes == 8 * 1024**3
    facts = facts_of("- dGPU -> AMD Radeon Pro 5500M 4GB\n- eGPU -> AMD Radeon Pro RX580 8GB\n- OS: macOS Big Sur 11.0.1\n")
    assert {g.model for g in facts.gpus} >= {"AMD Radeon Pro 5500M"} and any(g.external for g in facts.gpus)
    godot = ("### System information\n\nWindows 11 (build 26100) - Multi-window, 2 monitors - all renderers - NVIDIA "
             "GeForce RTX 5070 Ti (NVIDIA; 32.0.15.8108) - 13th Gen Intel(R) Core(TM) i7-13700K (24 threads)\n")
    assert facts_of(godot).platform == "win32"
    assert check_levels("got this error and i have windows 10 with nvidia 820m\n")["gpu_generation"] in ("warn", "fail")
