"""Readers and inferences of the set-44 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.compat import newest_cuda_build
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_a_count_before_a_plural_model_and_metric_labels_count_the_cards():
    facts = facts_of("It is a Lambda Hyperplane server running 8 NVIDIA H100s. Ubuntu 22.04\n")
    assert [g.model for g in facts.gpus] == ["NVIDIA H100"] * 8
    assert len(facts_of("we have two RTX 4090s\n").gpus) == 2
    assert len(facts_of("I upgraded from 2 RTX 3090 to an RTX 4090\n").gpus) != 2  # no plural: not a count
    mixed = facts_of("a system where I have a Tesla K80 and two Tesla K40c cards (also a GeForce 710 which is just for display purposes)\n")
    assert {g.model for g in mixed.gpus} == {"Tesla K80", "Tesla K40c", "GeForce 710"}  # a count keeps the others
    samples = "".join(f'rocm_version_info{{card="{i}",driver_ver="6.16.13",type="AMD Instinct MI210"}} 1.0\n'
                      for i in range(4))
    facts = facts_of(samples)
    assert [g.model for g in facts.gpus] == ["AMD Instinct MI210"] * 4 and facts.platform == "linux"
    assert facts.gpus[0].driver_version == "6.16.13"
    assert not facts_of('http_requests_total{method="post",code="200"} 1027\n').gpus


def test_a_bare_geforce_number_in_a_gpu_field_and_a_bare_os_line():
    facts = facts_of("### Hardware: GPU\n\n3090\n\nGPU: 3090\n")
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("3090", "8.6")]
    assert not facts_of("GPU: 3000\n").gpus  # not a GeForce number
    assert facts_of("My setup is\nCUDA 11.4\ntesla k40\nUBUNTU OS\n").os.name == "Ubuntu"
    assert facts_of("Ubuntu\n").platform == "unknown"  # a bare name may be a heading


def test_old_torch_releases_have_their_own_newest_cuda():
    assert newest_cuda_build("1.2.0") == "10.0" and newest_cuda_build("1.6.0") == "10.2"
    assert newest_cuda_build("1.9.0") == "11.1"
    text = "- Ubuntu 20.04\n- laptop GeForce RTX 3070\n- Driver Version: 510.73.05\n- `torch=1.2.0` in virtualenv\n" \
           "tensor([1.], device='cuda:0')\n"
    assert check_levels(text)["cuda_arch"] == "fail"  # torch 1.2.0's builds stop at CUDA 10.0; sm_86 needs 11.1


def test_yolo_checks_with_a_jetpack_torch_and_its_cuda_row():
    text = ("Ultralytics 8.3.69 \U0001F680 Python-3.8.10 torch-2.1.0a0+41361538.nv23.06 CUDA:0 (Xavier, 14886MiB)\n"
            "Setup complete \u2705 (6 CPUs, 14.5 GB RAM, 59.5/915.8 GB disk)\n\nCUDA                11.4\n\n"
            "torch               \u2705 2.1.0a0+41361538.nv23.6>=1.8.0\n")
    facts = facts_of(text)
    torch = facts.frameworks["torch"].data
    assert torch["version"] == "2.1.0a0+41361538.nv23.06" and torch["cuda_version"] == "11.4"
    assert facts.interpreter.packages["torch"] == "2.1.0a0+41361538.nv23.6"
    assert "torch" not in facts_of("Setup done\nCUDA                11.4\n").frameworks  # not the yolo report


def test_a_container_image_names_the_torch_it_runs():
    text = ("docker run -it --device=/dev/kfd \\\n--ipc=host \\\nrocm/pytorch:rocm5.7_ubuntu22.04_py3.10_pytorch_2.0.1\n")
    assert facts_of(text).frameworks["torch"].data["version"] == "2.0.1"
    cuda = facts_of("FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime\n").frameworks["torch"].data
    assert (cuda["version"], cuda["cuda_version"]) == ("2.1.0", "12.1")
    assert "torch" not in facts_of("others say rocm/pytorch:rocm5.7_ubuntu22.04_py3.10_pytorch_2.0.1 works\n").frameworks


def test_memory_in_a_json_section_and_in_a_possessive_sentence():
    text = '{\n  "ram": {\n    "total_gb": 192.0,\n    "available_gb": 135.49\n  },\n  "cpu": {\n    "total": 24\n  }\n}\n'
    assert facts_of(text).cpu.memory_bytes == 192 * 1024**3
    assert facts_of('{\n  "disk": {\n    "total_gb": 512.0\n  }\n}\n').cpu.memory_bytes is None
    assert facts_of("guess it's the swap problem.(My RAM is only 32G)\n").cpu.memory_bytes == 32 * 1024**3
    assert facts_of("My friend's RAM is 64GB\n").cpu.memory_bytes is None


def test_a_vm_the_writer_blames_macos_after_a_comma_and_an_egpus_contents():
    text = ("So I finally managed to install and run macOS Sonoma 14.5 correctly.\n"
            "I'm assuming these problems are VM specific, but if you have suggestions...\n")
    assert facts_of(text).vm is True and check_levels(text)["virtual_machine"] in ("warn", "fail")
    assert facts_of("Is this problem VM specific or not?\nmacOS Sonoma 14.5\n").vm is not True
    line = "on my MacBook Pro, macOS, Mojave, using my Blackmagic eGPU pro (AMD RAdeon RX Vega 56)."
    assert ("os.release", "10.14") in said_by(line)
    egpu = facts_of("via the eGPU that contains a Gigabyte Radeon RX 5700 XT 8 GB in Sonnet Breakaway Box 550.\n"
                    "- OSX version: macOS 10.15.6 (19G73)\n- NUC model: NUC8i7HVK\n")
    assert [g.external for g in egpu.gpus] == [True] and check_levels(
        "on my MacBook Pro, macOS, Mojave, using my Blackmagic eGPU pro (AMD Radeon RX Vega 56).\n")["egpu"] == "warn"


def test_an_apps_linked_mlx_is_no_package_and_windows_forward_slash_paths():
    assert not [v for f, v in said_by("mlx-serve 26.6.6 (MLX 0.31.2)") if f == "package"]
    assert ("package", {"name": "mlx", "version": "0.31.2"}) in said_by("I have MLX 0.31.2 installed")
    assert ("platform", "win32") in said_by("Mono path[0] = 'F:/Program Files/Unity/Hub/Editor/Data/Managed'")
    assert ("platform", "win32") not in said_by("see https://example.com/F:/Program Files/")


def test_a_mac_older_than_every_recipe_is_told_to_upgrade():
    text = "# Crash on OSX 10.8.5, Xcode 5.1\nModel: iMac12,2, BootROM IM121.0047.B1F, 4 processors, Intel Core i5, " \
           "2.7 GHz, 16 GB, SMC 1.72f2\nGraphics: AMD Radeon HD 6770M, AMD Radeon HD 6770M, PCIe, 512 MB\n"
    assert check_levels(text)["macos_version"] == "warn" and recommended_for(text) is None
    intel_only = text.replace("AMD Radeon HD 6770M, AMD Radeon HD 6770M, PCIe, 512 MB", "Intel GMA 950, Intel GMA 950, Built-In")
    assert "macos_version" not in check_levels(intel_only)  # no Mac GPU recipe uses it at any macOS
    assert "macos_version" not in check_levels(text.replace("10.8.5", "10.13.6"))  # PlaidML's 10.10 is met
