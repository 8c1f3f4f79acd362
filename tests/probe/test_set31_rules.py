"""Readers and knowledge of the set-31 fix round, on literal texts: what they read, and near misses that must not
fire."""
import pytest

from macml.knowledge.amd_gfx import radeon_target
from macml.knowledge.mac_families import metal_architecture_chip
from macml.knowledge.nvidia_branches import nvidia_version
from macml.knowledge.nvidia_chips import chip_capability
from macml.knowledge.pci_ids import nvidia_device_capability, nvidia_device_name, parse_pci_ids
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.statements import repr_pairs
from macml.probe.paste.text import clean_lines
from paste_said import check_levels, facts_of, recommended_for, said_by


@pytest.mark.parametrize("name, expected", [("applegpu_g14d", (2, "Apple M2 Ultra")), ("applegpu_g13g", (1, "Apple M1")),
                                            ("applegpu_g16s", (4, None)), ("applegpu_g15p", None), ("applegpu", None)])
def test_metal_architecture_names(name, expected):
    assert metal_architecture_chip(f"'architecture': '{name}'") == expected


def test_mlx_device_info_with_only_its_architecture_is_read():
    facts = facts_of("{'max_recommended_working_set_size': 188743680000, 'max_buffer_length': 115964116992, "
                     "'architecture': 'applegpu_g14d'}\n")
    assert facts.platform == "darwin" and facts.cpu.brand == "Apple M2 Ultra" and facts.gpus[0].model == "Apple M2 Ultra"
    facts = facts_of("{'architecture': 'applegpu_g16s', 'max_recommended_working_set_size': 40200896512}\n")
    assert facts.cpu.hardware_arch == "arm64" and not facts.cpu.brand  # a Pro or a Max: the letter does not say


@pytest.mark.parametrize("code, capability", [("GF108", "2.1"), ("GK208B", "3.5"), ("GK208BM", "3.5"), ("GA102GL", "8.6"),
                                              ("GV100GL", "7.0"), ("GK110BGL", "3.5"), ("G96CM", "1.1"), ("GB202", "12.0"),
                                              ("NV43", None), ("XYZ", None)])
def test_nvidia_chip_capabilities(code, capability):
    assert chip_capability(code) == capability


def test_pci_ids_parser_keeps_gpus_and_sets_shared_ids_apart():
    text = ("# Version: 2023.04.10\n10de  NVIDIA Corporation\n\t0f02  GF108 [GeForce GT 730]\n\t\t1458 3a31  subsystem\n"
            "\t0cac  GT215 [GeForce GT 220/315]\n\t0e1b  GK107 HDMI Audio Controller\n\t10f0  GP104 High Definition Audio "
            "Controller [GTX 1080]\n\t24dd  GA104M [GeForce RTX 3070 Mobile / Max-Q]\n1002  Advanced Micro Devices\n"
            "\t73bf  Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]\n")
    assert list(parse_pci_ids(text)) == [("0f02", "GF108", "GeForce GT 730"), ("0cac", "GT215", ""),
                                         ("24dd", "GA104M", "GeForce RTX 3070 Mobile / Max-Q")]


def test_pci_ids_table_names_boards_and_chips():
    assert nvidia_device_name("1db6") == "Tesla V100 PCIe 32GB" and nvidia_device_capability("1db6") == "7.0"
    assert nvidia_device_name("2684") == "NVIDIA GeForce RTX 4090"  # nvidia-smi's spelling, from the hand table
    assert nvidia_device_name("0cac") is None and nvidia_device_capability("0cac") == "1.2"  # GT 220/315: the chip only
    assert nvidia_device_name("ffff") is None and nvidia_device_capability("ffff") is None


def test_an_lspci_placeholder_is_named_by_its_pci_id():
    facts = facts_of("# lspci | grep -i nvidia\n0000:5a:00.0 3D controller: NVIDIA Corporation Device 1db6 (rev a1)\n")
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("Tesla V100 PCIe 32GB", "7.0")]
    assert "10de:1db6" in facts.sources["gpus.0.model"]


def test_the_chip_settles_an_ambiguous_board():
    facts = facts_of("Graphics:  Device-1: NVIDIA GF108 [GeForce GT 730] vendor: Gigabyte driver: nouveau v: kernel\n")
    assert facts.gpus[0].compute_capability == "2.1"
    facts = facts_of("01:00.0 VGA compatible controller: NVIDIA Corporation GK208B [GeForce GT 730] (rev a1)\n")
    assert facts.gpus[0].compute_capability == "3.5"


def test_a_loaded_hyperv_guest_driver_is_a_vm_and_dxgkrnl_as_a_module_is_not_wsl():
    text = ("dxgkrnl               208896  0\n"
            "hv_vmbus              176128  10 hv_balloon,hv_utils,hv_netvsc,hid_hyperv,dxgkrnl,hv_storvsc\n")
    said = said_by(text.splitlines()[1])
    assert ("hypervisor", "Microsoft Hyper-V") in said and ("os.wsl", True) not in said
    assert ("os.wsl", True) not in said_by(text.splitlines()[0])
    assert ("os.wsl", True) in said_by("[    2.1] hv_vmbus: registering driver dxgkrnl")
    assert not said_by("hv_vmbus              176128  0")  # loaded, no device bound to it


def test_keys_with_a_describing_word_an_example_or_a_full_width_colon():
    facts = facts_of("relevant environment\uff1aubuntu 20.04\n")
    assert (facts.os.name, facts.os.version) == ("Ubuntu", "20.04")
    assert ("os.name", "Windows 11") in said_by("my os: Windows 11")
    assert ("torch.version", "1.6.0a0+93432cf") in said_by(" - PyTorch Version (e.g., 1.0): '1.6.0a0+93432cf'")
    assert not any(f == "os.name" for f, _ in said_by("host OS: Windows 11"))  # the host of a guest is another machine


def test_a_framework_written_alone_in_an_environment_list():
    facts = facts_of("relevant environment: ubuntu 20.04\n      GPU:NVIDIA RTX3060 12G\n      tensorflow-gpu-2.4.0\n      cuda:11.0\n")
    assert facts.interpreter.packages["tensorflow-gpu"] == "2.4.0"
    assert facts_of("OS: Ubuntu 22.04\n- torch 1.13.1\n").interpreter.packages["torch"] == "1.13.1"
    assert not facts_of("tensorflow-gpu-2.4.0\n").interpreter  # alone, no list beside it: maybe a file's name
    assert not facts_of("OS: Ubuntu 22.04\ntorch-2.1\n").interpreter or "torch" not in facts_of("OS: Ubuntu 22.04\ntorch-2.1\n").interpreter.packages


def test_a_printed_ordered_dict_of_pairs():
    line = ("OrderedDict([('sys.platform', 'linux'), ('CUDA available', True), ('GPU 0', 'NVIDIA GeForce RTX 4060 Ti'), "
            "('PyTorch', '2.3.0+cu121'), ('PyTorch compiling details', 'PyTorch built with:\\n  - GCC 9.3')])")
    assert repr_pairs(line)[:2] == [("sys.platform", "linux"), ("cuda available", "True")]
    said = said_by(line)
    assert ("torch.version", "2.3.0+cu121") in said and ("torch.cuda_available", True) in said
    assert repr_pairs("print(('a', 1))") == []


def test_a_gpu_laptop_by_its_number():
    said = said_by("`nvidia-smi` fails with: \"couldn't communicate with the NVIDIA driver\" on Fedora 43 on a 5060 laptop")
    assert any(f == "gpu.owned" and v["name"] == "NVIDIA GeForce RTX 5060 Laptop GPU" for f, v in said)
    for line in ("I bought a 2020 laptop", "I don't have a 4090 laptop", "If you have a 3060 laptop, try it"):
        assert not any(f == "gpu.owned" for f, _ in said_by(line)), line
    assert ("gpu.driver", "580.105.08") in said_by("- NVIDIA driver (module version): 580.105.08")


def test_lspci_chip_names_give_the_gfx_target_and_a_source_built_rocm_torch_on_it_is_not_cpu_only():
    assert radeon_target("Ellesmere [Radeon RX 470/480/570/570X/580/580X]") == "gfx803"
    assert radeon_target("Advanced Micro Devices, Inc. [AMD/ATI] Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]") == "gfx1030"
    text = ("    Found GPU0 Ellesmere [Radeon RX 470/480/570/570X/580/580X] which is of cuda capability 3.0.\n"
            "tensor([9], device='cuda:0')\n - PyTorch Version (e.g., 1.0): '1.6.0a0+93432cf'\n - OS (e.g., Linux): Ubuntu 18.04.4\n")
    assert check_levels(text)["rocm_target"] == "warn"
    assert recommended_for(text) != "pytorch-rocm"


def test_amd_smi_static_block():
    text = ("GPU: 0\n    ASIC:\n        MARKET_NAME: AMD Instinct MI350X\n        TARGET_GRAPHICS_VERSION: gfx950\n"
            "    DRIVER:\n        NAME: amdgpu\n        VERSION: 6.18.3\n    BOARD:\n        PRODUCT_NAME: AMD Instinct MI350 OAM\n")
    facts = facts_of(text)
    assert [(g.model, g.compute_capability, g.driver_version) for g in facts.gpus] == [("AMD Instinct MI350X", "gfx950", "6.18.3")]
    apu = facts_of("GPU: 0\n    ASIC:\n        MARKET_NAME: Phoenix3\n        VENDOR_ID: 0x1002\n")
    assert not any(g.model == "Phoenix3" for g in apu.gpus)  # an APU's code name is no model


def test_a_model_identifier_gives_the_gpu_cores_without_a_chip_line():
    facts = facts_of('  "modelCode" : "MacBookPro18,1",\n  "osVersion" : {\n    "train" : "macOS 13.3",\n')
    assert facts.gpus[0].model == "Apple M1 Pro" and facts.gpus[0].cores == 16


def test_latin_words_run_into_cjk_text_are_read():
    assert clean_lines("MAC MINI M4运行comfyUI") == ["MAC MINI M4 运行 comfyUI"]
    assert facts_of("MAC MINI M4运行comfyUI，使用sd3.5_large模型\n").cpu.brand == "Apple M4"
    assert clean_lines("plain text") == ["plain text"]


def test_a_trees_drawing_is_not_part_of_its_items():
    assert clean_lines("Hardware\n├── OS: Ubuntu 26.04 LTS, kernel 7.0.0-22\n│   └── RAM: 32 GB\n") == [
        "Hardware", "OS: Ubuntu 26.04 LTS, kernel 7.0.0-22", "RAM: 32 GB", ""]
    assert facts_of("Hardware\n├── iGPU: AMD Radeon 780M — 12 Compute Units, gfx1103\n└── OS: Ubuntu 26.04 LTS\n").platform == "linux"


@pytest.mark.parametrize("limit, memory_gb", [("9.07", 8), ("18.13", 16), ("7.93", None)])
def test_mps_max_allowed_gives_the_memory(limit, memory_gb):
    said = said_by(f"RuntimeError: MPS backend out of memory (MPS allocated: 1.00 GB, other allocations: 2.77 MB, "
                   f"max allowed: {limit} GB). Tried to allocate 6.25 MB on private pool.")
    memory = [v for f, v in said if f == "memory.unified"]
    assert memory == ([memory_gb * 1024**3] if memory_gb else [])


def test_a_cut_repl_prompt_and_a_denied_intel_mac():
    facts = facts_of(">> platform.machine()\narm64\n>> cpuinfo.get_cpu_info().get('brand_raw')\nApple M1 Pro\n"
                     "I'm not able to test this on an Intel Mac unfortunately.\n")
    assert facts.interpreter.machine == "arm64" and facts.cpu.brand == "Apple M1 Pro" and facts.cpu.hardware_arch == "arm64"
    assert ("cpu.hardware_arch", "x86_64") in said_by("I have an Intel Mac")


def test_a_runner_label_names_a_hosted_vm():
    said = said_by("Test `test_mps_batched_mask_to_box` fails on our `macos-14` CI.")
    assert ("hypervisor", "GitHub-hosted runner") in said and ("cpu.hardware_arch", "arm64") in said
    assert ("cpu.hardware_arch", "x86_64") in said_by("only the macos-13 runner fails")
    assert not said_by("we do not use the macos-14 runner")


def test_opencl_connected_device_geforce_750m_and_torchs_no_driver():
    assert ("gpu", {"name": "Intel(R) UHD Graphics 630", "vendor": "Intel", "memory_mib": None, "index": None}) in said_by(
        "OpenCL: Connected to vendor='Intel Inc.' / device='Intel(R) UHD Graphics 630' (GPU implementation).")
    assert facts_of("I am using a MacBook Pro with NVIDIA GeForce 750M\n").gpus[0].compute_capability == "3.0"
    assert ("torch.cuda_available", False) in said_by("Found no NVIDIA driver on your system. Please check that you")


def test_radeo_is_a_radeon_and_ran_is_not():
    assert gpu_names("Radeo Pro Vega 64") == ["Radeon Pro Vega 64"] and gpu_names("Ran Pro 5") == []


def test_install_commands_in_advice_are_not_what_is_installed():
    line = ("In Macbook Pro M2 chip, OS 14.5 (23F79), python3.9,  if use `conda install -c conda-forge tensorflow=2.9.1`, "
            "the specified TensorFlow version 2.9.1 may be too old. Instead we recommend `pip install tensorflow==2.15.0`.")
    said = said_by(line)
    assert not any(f == "package" for f, _ in said)
    assert ("os.version", "14.5") in said and ("os.build", "23F79") in said
    assert ("package", {"name": "numpy", "version": "2.3.1"}) in said_by("cannot be run in NumPy 2.3.1 as it may crash.")


def test_intel_graphics_in_brackets_and_a_machine_without_an_nvidia_card():
    text = ("I ran `torch.cuda.is_available()` on a computer without an nvidia graphics card\npytorch 2.0.1+cu118\n"
            "Windows10\nPython 3.10.11\nA Lenovo office computer with no discrete graphics, only Intel core graphics (UHD 630)\n")
    facts = facts_of(text)
    assert [g.model for g in facts.gpus] == ["Intel UHD Graphics 630"] and facts.gpus_ruled_out == ("NVIDIA",)
    assert recommended_for(text) == "pytorch-cpu"
    assert not any(f == "gpu.absent_said" for f, _ in said_by("If your computer without an nvidia graphics card fails, ..."))


def test_vulkan_on_windows_and_its_driver_version():
    assert ("platform", "win32") in said_by("VK_KHR_win32_surface")
    assert ("platform", "win32") in said_by("Loading scene: C:/msys64/home/user/bin_x64/Release/scene.gltf")
    assert nvidia_version("551.92.0") == "551.92" and nvidia_version("535.104.05") == "535.104.05"
