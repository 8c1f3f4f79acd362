"""Readers and knowledge of the set-32 fix round, on literal texts: what they read, and near misses that must not
fire."""
import pytest

from macml.knowledge.amd_gfx import radeon_target
from macml.knowledge.compat import newest_cuda_build
from macml.knowledge.mac_igpus import mac_has_amd_gpu
from macml.probe.paste import mac_hint_rules
from macml.probe.paste.gpu_names import gpu_names, gpu_vendor, informal_gpu_names
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_radeon_vii_is_vega_20_and_an_old_rocm_torch_that_runs_on_it_is_kept():
    assert radeon_target("AMD Radeon VII") == "gfx906"
    text = ('    "torch_version": "2.0.1+rocm5.4.2",\n    "os": "Ubuntu 22.04.2 LTS (x86_64)",\n'
            '    "is_cuda_available": "True",\n    "nvidia_gpu_models": "AMD Radeon VII",\n')
    assert check_levels(text)["rocm_target"] == "warn"
    assert recommended_for(text) != "pytorch-rocm"


def test_a_lower_case_tesla_with_a_data_center_model():
    assert gpu_names("my environment is linux, tesla K40c, pytorch1.4") == ["Tesla K40c"]
    assert gpu_names("my tesla model 3") == []


def test_easybuild_gpu_rows_give_each_gpu_its_own_gfx():
    facts = facts_of("* GPU:\n  -> AMD\n    -> 1x Navi 48 [RX 9070/9070 XT] (device id: 0x7550, gfx: gfx1201, driver: 6.13.5-arch1-1)\n"
                     "    -> 1x Raphael (device id: 0x164e, gfx: gfx1036, driver: 6.13.5-arch1-1)\n")
    assert facts.platform == "linux"
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("Navi 48 [RX 9070/9070 XT]", "gfx1201"), ("Raphael", "gfx1036")]


def test_a_torch_release_without_a_build_for_a_blackwell_gpu():
    assert newest_cuda_build("2.5.1") == "12.4" and newest_cuda_build("2.7.0") == "12.8" and newest_cuda_build("2.11.0") is None
    text = ("RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
            "Platform: Linux-6.6.87.2-microsoft-standard-WSL2-x86_64-with-glibc2.39\n - torch                       2.5.1\n"
            'Is "NVIDIA GeForce RTX 5060 Laptop GPU" supported?\n')
    assert check_levels(text).get("cuda_arch") == "fail"
    assert ("torch.cuda_available", True) not in said_by("ggml_cuda_compute_forward: CUDA error: no kernel image is available")


def test_wsl_gpu_access_blocked_and_a_lower_case_vendor_before_a_data_center_letter():
    text = ("WSL doesn't see Nvidia L40S card.\n$ nvidia-smi\nFailed to initialize NVML: GPU access blocked by the operating system\n")
    facts = facts_of(text)
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("Nvidia L40S", "8.9")]
    assert check_levels(text)["nvidia_driver"] == "fail"
    assert gpu_names("nvidia a100") == []


def test_amdgpu_sysfs_vram():
    facts = facts_of("- **Hardware**: GMKTec M7 Ultra (Ryzen 8845HS with Radeon 780M iGPU)\n"
                     "   - `cat /sys/class/drm/card0/device/mem_info_vram_total` returns `8589934592` (8 GiB).\n")
    assert facts.gpus[0].memory_bytes == 8 * 1024**3


def test_owned_gpus_skip_a_previous_build():
    said = said_by("I just purchased the 6800XT for gaming. Your EFI worked perfectly with my previous build (5700XT)")
    assert [v["name"] for f, v in said if f == "gpu.owned"] == ["6800XT"]


def test_a_forms_bare_version_under_its_macos_answers_and_an_ampersand_ends_a_name():
    facts = facts_of("- Compute device name: Macbook w/ AMD Radeon Pro 5300M & Intel i7-9750H\n - OS: macOS\n"
                     " - Distribution: Tahoe\n - Version: 26.0\n")
    assert facts.os.version == "26.0" and facts.gpus[0].model == "AMD Radeon Pro 5300M"
    assert facts_of(" - OS: Ubuntu\n - Version: 22.04\n").os.version != "22.04"


def test_a_release_name_and_a_number_without_its_ten():
    assert ("os.version", "10.13.4") in said_by("- on Mac OS High Sierra(13.4)")
    assert not any(f == "os.version" for f, _ in said_by("on Catalina 13.4"))


def test_gt_models_and_misspelt_nvidia():
    assert informal_gpu_names("internal Nividia GT750M (Capabillities 3.0") == ["Nividia GT750M"]
    assert gpu_vendor("Nividia GT750M") == "NVIDIA" and informal_gpu_names("the GT 500 race") == []
    facts = facts_of("I compiled a wheel:\n- tensorflow version 1.8\n- internal Nividia GT750M (Capabillities 3.0, Cuda 9.1)\n"
                     "- on Mac OS High Sierra(13.4)\n")
    assert facts.gpus[0].compute_capability == "3.0" and facts.os.version == "10.13.4"


@pytest.mark.parametrize("text, version", [("Does not open on 2022 Macbook air running MacOS27\n", "27"),
                                           ("- MacBook Air, Apple M5\n- macOS 26\n", "26")])
def test_a_macos_major_with_no_floor_inside_is_the_version_and_a_future_one_does_not_crash(text, version):
    assert facts_of(text).os.version == version
    assert not facts_of("I run Ventura on my M2\n").os.version  # recipes' floors fall inside 13


def test_a_build_in_brackets_beside_a_mistyped_version():
    assert facts_of("I have M1 Pro is v4.2.1 (23C71), I can't open the app\n").os.version == "14.2.1"
    assert not said_by("iPhone 15 on iOS v17.3.1 (21D61)")


def test_core_counts_and_vscode_cpus_and_a_python_version_before_a_full_stop():
    facts = facts_of("My device is MacBook Pro 14 (10 CPU cores, 16 GPU cores) with an M1 Pro\n")
    assert facts.gpus[0].cores == 16 and facts.cpu.cores == 10
    assert facts_of("|CPUs|Apple M3 Pro (12 x 24)|\n").gpus[0].cores == 18
    assert ("python.version", "3.8.13") in said_by("with TensorFlow-metal 0.5.0. The Python version is 3.8.13. I face")


def test_rpcs3_vulkan_gpus_and_a_gpu_field_of_two():
    facts = facts_of("- RSX: Found Vulkan-compatible GPU: 'AMD Radeon PRO W7900' running on driver 2.0.302\n"
                     "- RSX: Found Vulkan-compatible GPU: 'Intel(R) UHD Graphics 770' running on driver 0.405.852\n")
    assert [g.model for g in facts.gpus] == ["AMD Radeon PRO W7900", "Intel(R) UHD Graphics 770"]
    said = said_by("GPU: Integrated Radeon Graphics + NVIDIA GeForce GTX 1650")
    assert [v["name"] for f, v in said if f == "gpu"] == ["Integrated Radeon Graphics", "NVIDIA GeForce GTX 1650"]


def test_a_line_naming_another_macs_chip_keeps_the_writers_own():
    facts = facts_of("I have bought a new MacBook Air with the M3 chip which has 8 CPUs, 10 GPUs. My apps crash. "
                     "The MWE works on all other architectures, including in MacBook Air M1 and MacMini.\n")
    assert facts.cpu.brand == "Apple M3"
    same = [("cpu.brand", "Apple M2"), ("cpu.brand", "Apple M2 Pro")]  # one chip read two ways: nothing to drop
    assert mac_hint_rules.chips_of_other_macs(" - Device: 2023 Mac mini M2 PRO", same) == same


def test_an_identifier_every_configuration_of_which_has_an_amd_gpu():
    assert mac_has_amd_gpu("MacBookPro15,1") and not mac_has_amd_gpu("MacBookPro15,2")
    facts = facts_of("MacBookPro15,1\n| MacBook Pro 15\" 2019 |    i7 2.6 GHz 6-core    |  32 | 512 |     |  12.2 | 10.15.7 |\n")
    assert [g.vendor for g in facts.gpus] == ["AMD", "Intel"]  # the CPU's UHD 630 beside it (set-37 round)
    hackintosh = facts_of("MacBook Pro (15-inch, 2018)\nGraphics Intel UHD Graphics 630 2048 MB\n")
    assert "AMD" not in [g.vendor for g in hackintosh.gpus]  # the GPUs the text lists are the machine's


def test_a_json_memory_gb_key():
    assert ("cpu.memory_bytes", 48 * 1024**3) in said_by('    "memory_gb": 48.0,')
