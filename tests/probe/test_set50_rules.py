"""Readers and inferences of the set-50 fix round, on literal texts: what they read, and near misses that must not
fire."""
from paste_said import facts_of, recommended_for, said_by


def test_an_instinct_named_with_a_hyphen_and_a_bare_torch_build_line():
    text = "Ubuntu Server 20.04\nAMD mi-210 (gfx90a)\nROCm 6.0\ntorch-2.3.0.dev20240309+rocm6.0\n"
    facts = facts_of(text)
    assert [g.compute_capability for g in facts.gpus] == ["gfx90a"]
    assert facts.frameworks["torch"].data["version"] == "2.3.0.dev20240309+rocm6.0"
    assert recommended_for(text) != "pytorch-cuda"
    assert not [f for f, _ in said_by("  Downloading torch-2.3.0-cp310-cp310-manylinux1_x86_64.whl") if f == "torch.version"]


def test_rocminfo_module_line_and_a_card_named_by_its_target():
    facts = facts_of("ROCk module version 6.12.12 is loaded\ncard is gfx1100 (W7900)\n")
    assert facts.platform == "linux" and [g.vendor for g in facts.gpus] == ["AMD"]
    assert facts.gpus[0].compute_capability == "gfx1100" and facts.gpus[0].driver_version == "6.12.12"
    assert not [f for f, _ in said_by("if the card is gfx1100 it should work") if f == "gpu.gfx"]


def test_doctr_and_llamafactory_env_say_whether_torch_has_cuda():
    doctr = facts_of("PyTorch version: 1.8.0 (torchvision: 0.9.0)\nIs CUDA available (PyTorch): No\n")
    assert doctr.frameworks["torch"].data["cuda_available"] is False and doctr.package("torchvision") == "0.9.0"
    factory = facts_of("- Platform: Linux-3.10.0-1160.el7.x86_64-x86_64-with-glibc2.17\n- PyTorch version: 2.4.0+cu121 (GPU)\n")
    assert factory.frameworks["torch"].data["cuda_available"] is True
    plain = facts_of("- Platform: Linux-5.15.0-x86_64-with-glibc2.35\n- PyTorch version: 2.4.0+cu121\n")
    assert plain.frameworks["torch"].data.get("cuda_available") is None  # no suffix: not said


def test_docker_compose_prefix_and_a_dual_gpu():
    text = ("tabby_1  | ggml_init_cublas: found 2 CUDA devices:\n"
            "tabby_1  |   Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6\n"
            "tabby_1  |   Device 1: NVIDIA GeForce RTX 3090, compute capability 8.6\n")
    assert len(facts_of(text).gpus) == 2
    assert len(facts_of("- GPU model and memory: dual GeForce GTX 780M with 2 GB each\n").gpus) == 2
    assert not [f for f, _ in said_by("a dual-core CPU") if f == "gpu"]


def test_hashcat_lists_an_apple_gpu_once_under_two_apis_with_its_cores():
    text = ("hashcat (v7.1.0) starting\nMETAL API (Metal 368.12)\n========================\n"
            "* Device #01: Apple M4, skipped\n"
            "OpenCL API (OpenCL 1.2 (Apr 18 2025 21:46:03)) - Platform #1 [Apple]\n"
            "====================================================================\n"
            "* Device #02: Apple M4, GPU, 5461/10922 MB (1024 MB allocatable), 8MCU\n")
    facts = facts_of(text)
    assert [(g.model, g.cores) for g in facts.gpus] == [("Apple M4", 8)]


def test_macos_words_a_processor_answer_and_homebrews_caskroom():
    assert facts_of("I'm installing `pytorch_geometric` on apple M1. I use pip\n").cpu.apple_silicon is True
    arm = facts_of("Platform: darwin\nProcessor: arm\n")
    assert arm.interpreter.machine == "arm64"
    assert facts_of("os: macos OSX(11.5.2)\n").os.version == "11.5.2"
    brew = facts_of("/opt/homebrew/Caskroom/miniconda/base/envs/x/lib/python3.8/site-packages/mmcv/__init__.py:20: UserWarning\n")
    assert brew.cpu.hardware_arch == "arm64"
    assert not [f for f, _ in said_by("Processor: armv7l") if f == "python.machine"]


def test_chip_cores_in_a_dash_list_and_torch_on_macos_has_no_cuda():
    assert ("gpu.cores", 40) in said_by("I have a M3 max 16 cpu - 40 GPU - 128 GB and want to help")
    facts = facts_of("-  YOLOv5 🚀 v7.0-203-g0897415 Python-3.11.4 torch-2.0.1 MPS\n-  macOS 13.4.1\n")
    assert facts.frameworks["torch"].data["cuda_available"] is False
    assert facts_of("torch 2.0.1+cu118\nUbuntu 22.04\n").frameworks["torch"].data.get("cuda_available") is None


def test_the_yolo_setup_line_gives_memory_unless_the_report_has_its_own_row():
    assert round(facts_of("- Setup complete ✅ (8 CPUs, 16.0 GB RAM, 156.2/926.4 GB disk)\n").cpu.memory_bytes / 1024**3) == 16
    text = ("Setup complete ✅ (6 CPUs, 14.5 GB RAM, 59.5/915.8 GB disk)\n\nOS                  Linux-5.10.192-tegra-aarch64\n"
            "RAM                 14.54 GB\n")
    assert round(facts_of(text).cpu.memory_bytes / 1024**3) == 15
