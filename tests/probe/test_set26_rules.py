"""Readers and knowledge of the set-26 fix round, on literal texts: what they read, and near misses that must not
fire."""
import pytest

from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.linux import lscpu_arch
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.text import clean_lines
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_an_x86_only_distribution_names_the_architecture():
    assert facts_of("I run Linux Mint 22.1 here.\nGPU: NVIDIA GeForce RTX 3060\n").cpu.hardware_arch == "x86_64"
    assert facts_of("I run Ubuntu 24.04 here.\nGPU: NVIDIA GeForce RTX 3060\n").cpu.hardware_arch in ("", "unknown")


def test_kohya_launcher_line_of_newer_builds():
    line = "10:58:53-525428 INFO     Torch detected GPU: NVIDIA GeForce RTX 5060 Ti VRAM 15845MB Arch 12.0 Cores 36"
    gpu = next(v for f, v in said_by(line) if f == "gpu")
    assert (gpu["memory_mib"], gpu["capability"]) == (15845, "12.0")
    assert ("torch.cuda_available", True) in said_by(line)


def test_godot_gl_line_names_the_nvidia_driver():
    said = said_by("OpenGL API 3.3.0 NVIDIA 390.157 - Compatibility - Using Device: NVIDIA - GeForce GT 650M")
    assert ("gpu.driver", "390.157") in said


@pytest.mark.parametrize("name, capability", [("NVIDIA TITAN X (Pascal)", "6.1"), ("NVIDIA Tegra X2", "6.2"),
                                              ("NVIDIA Tegra X1", "5.3"), ("GeForce GTX TITAN X", "5.2")])
def test_capabilities_of_pascal_titan_and_tegra(name, capability):
    assert nvidia_compute_capability(name) == capability


def test_the_pascal_titan_keeps_its_suffix():
    assert gpu_names("GPU 1,2,3: NVIDIA TITAN X (Pascal)") == ["NVIDIA TITAN X (Pascal)"]
    assert gpu_names("NVIDIA TITAN Xp") == ["NVIDIA TITAN Xp"]


def test_torch_config_mkl_line_is_x86():
    said = said_by("  - Intel(R) oneAPI Math Kernel Library Version 2021.4-Product Build 20210904 for Intel(R) 64 archi"
                   "                                       tecture applications")
    assert ("arch.named", "x86_64") in said


@pytest.mark.parametrize("value, arch", [("x86_64", "x86_64"), ("ARM64 (aarch64)", "aarch64"), ("arm64", "aarch64"),
                                         ("amd64", "x86_64"), ("ppc64le", "ppc64le"), ("unknown thing", "")])
def test_an_architecture_answer_begins_with_its_name(value, arch):
    assert lscpu_arch(value) == arch


def test_a_driver_that_ignores_its_gpu():
    text = ("[Sun May 17 15:55:50 2026] NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU installed in this system is\n"
            "                           NVRM:  information.  The 595.71.05 NVIDIA driver will ignore\n"
            "[Sun May 17 15:55:50 2026] NVRM: No NVIDIA GPU found.\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and facts.gpus[0].driver_version == "595.71.05"
    assert check_levels(text).get("nvidia_driver") in ("warn", "fail")


def test_dmesg_dates_in_brackets_are_not_a_journal_prefix():
    assert clean_lines("[Sun May 17 15:55:50 2026] NVRM: No NVIDIA GPU found.")[0].startswith("[Sun May 17")
    assert clean_lines("May 17 15:55:50 myhost kernel: NVRM: loading")[0] == "NVRM: loading"


def test_rocminfos_generic_apu_name_takes_lscpus():
    text = ("Model name:             AMD Ryzen 7 PRO 7840U w/ Radeon 780M Graphics\n"
            "  Name:                    gfx1103                            \n"
            "  Marketing Name:          AMD Radeon Graphics       \n")
    assert [g.model for g in facts_of(text).gpus] == ["Radeon 780M Graphics"]


def test_numbered_amd_cards_take_lspcis_one_model():
    text = ("========================= ROCm System Management Interface =========================\n"
            "=================================== Concise Info ===================================\n"
            "GPU  Temp (DieEdge)  AvgPwr  SCLK  MCLK   Fan  Perf  PwrCap  VRAM%  GPU%  \n"
            "0    31.0c           5.0W    0Mhz  96Mhz  0%   auto  289.0W    0%   0%    \n"
            "1    43.0c           5.0W    0Mhz  96Mhz  0%   auto  289.0W    0%   0%    \n"
            "====================================================================================\n"
            "=============================== End of ROCm SMI Log ================================\n\n"
            "03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 21 [Radeon RX 6800/6800 XT / 6900 XT] (rev c0)\n"
            "07:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 21 [Radeon RX 6800/6800 XT / 6900 XT] (rev c0)\n")
    gpus = facts_of(text).gpus
    assert len(gpus) == 2 and {(g.model, g.compute_capability) for g in gpus} == {
        ("Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]", "gfx1030")}
    assert check_levels(text).get("mixed_gpus") in (None, "ok")


def test_a_tensor_printed_on_cuda_and_one_assigned():
    assert ("torch.cuda_available", True) in said_by("tensor([1., 2., 3.], device='cuda:0')")
    assert not any(f == "torch.cuda_available" for f, _ in said_by("x = torch.tensor([1.0], device='cuda:0')"))


def test_tf_forms_glued_mib_and_sdnext_python():
    gpu = next(v for f, v in said_by("- GPU model and memory: GeForce 940MX 982MiB") if f == "gpu")
    assert (gpu["name"], gpu["memory_mib"]) == ("GeForce 940MX", 982)
    said = said_by('01:33:21-848356 INFO     Python: version=3.10.12 platform=Linux bin="/opt/sdnext/venv/bin/python3"')
    assert ("python.version", "3.10.12") in said and ("platform", "linux") in said


def test_which_framework_sees_the_gpu_in_words():
    said = said_by("Pytorch is working perfectly in WSL with Cuda enabled. Tensorflow is not recognizing my GPU.")
    assert ("torch.cuda_available", True) in said and ("tensorflow.no_gpu", True) in said
    assert not said_by("Why is Tensorflow not recognizing my GPU?")


def test_mlx_metal_backend_path_means_a_native_python():
    said = said_by("nmlx/backend/metal/kernels/utils.h:470:10: fatal error: 'MetalPerformancePrimitives.h' file not found")
    assert ("python.machine", "arm64") in said and ("platform", "darwin") in said


def test_system_profiler_core_total_under_a_gpu_label():
    assert ("gpu.cores", 38) in said_by("- GPU:  Total Number of Cores: 38")


def test_a_bare_version_answer_names_the_package():
    assert ("package", {"name": "mtplx", "version": "2.11.2"}) in said_by("Version: `mtplx-2.11.2`")
    assert not any(f == "package" for f, _ in said_by("Version: macos-14.1"))


def test_a_gpu_named_before_its_enclosure_is_external():
    text = ("It seems like my MacBook Pro 16 inch does not recognise my RTX 2080 Ti connected via Razor Core X via HDMI.\n"
            "# on macOS Catalina\n")
    assert [g.external for g in facts_of(text).gpus] == [True]


def test_a_one_chip_identifier_outranks_a_tier_in_prose():
    text = "MacBook m1 pro. OBS 31.0.1.\nCPU Name: Apple M1\nModel Identifier: MacBookPro17,1\n"
    assert facts_of(text).cpu.chip.name == "Apple M1"


def test_log_prefix_with_level_before_component():
    assert clean_lines("2024-07-03 01:26:53.670 - INFO - separator - PyTorch Version: 2.3.0") == ["PyTorch Version: 2.3.0"]
    said = said_by("2024-07-20 18:29:58,717 - INFO - separator - ONNX Runtime CPU package installed with version: 1.18.1")
    assert ("package", {"name": "onnxruntime", "version": "1.18.1"}) in said


def test_upper_case_mac_os_and_a_version_with_its_build():
    assert ("os.version", "13.1") in said_by("I tried all the installers on my Apple M1 Pro MAC OS 13.1 (22C65).")
    assert ("os.version", "15.7.9") in said_by("15.7.9 (24G830)")
    assert not any(f == "os.version" for f, _ in said_by("17.3.1 (21D61)"))  # an iOS version: build 21D is macOS 12


def test_french_memory_units():
    assert ("cpu.memory_bytes", 96 * 1024**3) in said_by("- RAM : 96 go")


def test_a_13_inch_macbook_pro_by_its_chip_has_one_gpu_bin():
    facts = facts_of("compiled with just make on my Macbook Pro 13 M1 gives the error below.\n")
    assert [g.cores for g in facts.gpus] == [8]


def test_a_github_hosted_macos_runner_in_words_is_a_vm():
    text = ("I am encountering failures when running benchmarks using PyTorch's MPS backend inside GitHub-hosted macOS "
            "runners (macos-15, Apple Silicon).\n")
    assert facts_of(text).vm and recommended_for(text) != "pytorch-mps"
    assert not facts_of("GitHub-hosted macOS runners are VMs, but I run on my own M2 Mac.\n").vm


def test_fastfetch_json_pretty_name_and_plaidml_intel_device():
    assert ("os.name", "Windows 11 Pro") in said_by('      "prettyName": "Windows 11 Pro",')
    assert ("gpu.mention", "Intel(R) UHD Graphics 630") in said_by("   3 : metal_intel(r)_uhd_graphics_630.0")
