"""Readers, knowledge and one check added in the set-22 fix round, on literal texts: what they read, and near misses
that must not fire."""
import pytest

from macml.diagnose import run_checks
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.gpu_text_rules import gpu_answer
from macml.probe.paste.mac_text_rules import release_name
from macml.probe.paste.statement_rules import by_key
from macml.probe.paste.text import clean_lines
from macml.recipes.catalog import load_all
from paste_said import check_levels, facts_of, said_by


@pytest.mark.parametrize("text, level", [
    ("ProductName:\tmacOS\nProductVersion:\t13.4\nBuildVersion:\t22F66\nChip: Apple M2 Pro\n", "warn"),
    ("ProductName:\tmacOS\nProductVersion:\t12.6.3\nBuildVersion:\t21G419\nChip: Apple M1\n", "warn"),
    ("ProductName:\tmacOS\nProductVersion:\t14.4.1\nBuildVersion:\t23E224\nChip: Apple M1\n", "ok"),
])
def test_apple_silicon_below_macos_14_is_held_back_from_the_current_releases(text, level):
    assert check_levels(text)["macos_version"] == level


def test_the_held_back_warning_names_what_this_macos_still_gets():
    findings = run_checks(facts_of("ProductName:\tmacOS\nProductVersion:\t13.4\nChip: Apple M2 Pro\n"), load_all())
    finding = next(f for f in findings if f.check == "macos_version")
    assert "torch 2.15.0" in finding.message and "torch 2.8.0" in finding.fix.text


def test_mesa_opengl_strings_are_a_linux_desktops_gpu():
    said = gpu_answer("renderer", '"Mesa DRI Intel(R) Haswell Mobile "')
    assert ("platform", "linux") in said and ("cpu.hardware_arch", "x86_64") in said
    assert gpu_answer("version", "3.0 Mesa 17.0.5") == [("platform", "linux")]
    assert ("cpu.hardware_arch", "x86_64") not in gpu_answer("renderer", "Mesa DRI Intel(R) 945GME")  # beside 32-bit Atoms
    assert gpu_answer("renderer", "llvmpipe (LLVM 12.0.0, 256 bits)") == []


def test_a_cu128_torch_on_a_pascal_gpu_fails_whichever_linux_arch_it_is():
    text = ("- OS: Ubuntu 24.04.3 LTS\n- GPU: NVIDIA GeForce GTX 1050 (compute capability 6.1)\n- Driver: 550.163.01\n"
            "- PyTorch: 2.8.0+cu128\n")
    assert check_levels(text)["cuda_arch"] == "fail"
    assert check_levels(text.replace("2.8.0+cu128", "2.8.0+cu126")).get("cuda_arch") != "fail"


@pytest.mark.parametrize("name, capability", [
    ("GeForce GTX 560 Ti", "2.1"), ("GeForce GTX 560", "2.1"), ("GeForce GTX 460", "2.1"),
    ("GeForce GTX 560 Ti 448", "2.0"), ("GeForce GTX 580", "2.0"), ("GeForce GTX 465", "2.0"),
])
def test_fermi_gf1x4_and_gf1x0_boards(name, capability):
    assert nvidia_compute_capability(name) == capability


def test_a_writer_on_bare_metal_rules_out_a_vm():
    assert ("hypervisor.none", True) in said_by("I am running on bare metal (i.e. not in a VM).")
    assert ("hypervisor.none", True) not in said_by("Is it running on bare metal?")


def test_tensorflow_skipping_a_gpu_below_its_minimum_capability():
    text = ("name: GeForce GT 750M major: 3 minor: 0 memoryClockRate(GHz): 1.085\n"
            "2018-06-18 21:54:33.740368: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1406] Ignoring visible gpu "
            "device (device: 0, name: GeForce GT 750M, pci bus id: 0000:01:00.0, compute capability: 3.0) with Cuda "
            "compute capability 3.0. The minimum required Cuda capability is 3.5.\n")
    facts = facts_of(text)
    assert facts.frameworks["tensorflow"].data["ignored_gpu"] == "3.0 < 3.5"
    assert check_levels(text)["framework_gpu"] == "fail"


@pytest.mark.parametrize("text, names", [
    ("NVIDIA Corporation TU117M [GeForce GTX 1650 Mobile / Max-Q] [10de:1f91]", ["GeForce GTX 1650 Mobile / Max-Q"]),
    ("TU106M [GeForce RTX 2070 Mobile / Max-Q Refresh]", ["GeForce RTX 2070 Mobile / Max-Q Refresh"]),
    ("Intel Iris Pro 1536 MB", ["Intel Iris Pro"]),
    ("Intel UHD Graphics 630 1536 MB", ["Intel UHD Graphics 630"]),
    ("Intel Iris Pro 5200", ["Intel Iris Pro 5200"]),
])
def test_gpu_names_this_round(text, names):
    assert gpu_names(text) == names


def test_an_m1_cpu_gpu_with_its_memory():
    said = said_by("macOS Monterey 12.3.1 M1 CPU/GPU 8gb")
    assert ("cpu.brand", "Apple M1") in said and ("cpu.memory_bytes", 8 * 1024**3) in said
    assert not any(fact == "cpu.brand" for fact, _ in said_by("an M.2 SSD with its controller CPU"))


def test_an_egpu_answer_in_words_no_tool_prints():
    facts = facts_of("- **System GPUs**: Intel Iris \n- **eGPU**: Aorus GamingBox Nvidia GTX 1080\n")
    gtx = next(g for g in facts.gpus if "1080" in g.model)
    assert gtx.external and {g.model for g in facts.gpus} == {"Intel Iris", "Nvidia GTX 1080"}


def test_a_system_gpus_field_keeps_the_parts_it_can_read():
    facts = facts_of("- **System GPUs**: IRadeon Pro 460 4 GB, Intel HD Graphics 530 1536 MB\n")
    assert [g.model for g in facts.gpus] == ["Intel HD Graphics 530"]


def test_osx_written_without_its_space():
    assert ("os.version", "10.13.6") in said_by("OSX 10.13.6 |   MacBookPro11,5 | 2015 | AMD Radeon R9 M370X")


def test_obs_log_prefix_and_its_os_version_with_build():
    lines = clean_lines("16:50:34.899: OS Name: macOS\n16:50:34.899: OS Version: Version 12.6 (Build 21G115)")
    assert lines == ["OS Name: macOS", "OS Version: Version 12.6 (Build 21G115)"]
    assert ("os.version", "12.6") in said_by(lines[1])
    assert ("os.version", "17.3") not in said_by("OS Version: Version 17.3 (Build 21D61)")  # an iOS release, a macOS build
    assert clean_lines("12:00:00 done") == ["12:00:00 done"]


@pytest.mark.parametrize("line, release", [
    ("I installed Sequoia and then updated it succesfully to Tahoe. ", "26"),
    ("I updated from Catalina to Big Sur", "11"),
    ("and then upgraded from macOS Monterey 12.6 to Ventura", "13"),
])
def test_the_release_a_mac_was_updated_to(line, release):
    assert ("os.release", release) in release_name(line)


def test_mlx_device_info_gives_the_macs_memory():
    facts = facts_of("{'device_name': 'Apple Paravirtual device', 'max_recommended_working_set_size': 5010800640,\n"
                   " 'memory_size': 7516192768, 'architecture': 'air64_v26'}\n")
    assert facts.cpu.memory_bytes == 7516192768
    assert facts_of("{'memory_size': 7516192768}\n").cpu.memory_bytes is None  # not MLX's dict: some other size


def test_dxdiag_rows_are_not_packages_and_its_dedicated_memory_is_the_cards():
    text = ("Processor: Intel(R) Core(TM) i5-2500K CPU @ 3.30GHz (4 CPUs), ~3.3GHz\n"
            "DxDiag Version: 10.00.10586.0000 64bit Unicode\n---------------\nDisplay Devices\n---------------\n"
            "Card name: NVIDIA GeForce GTX 970\nManufacturer: NVIDIA\nChip type: GeForce GTX 970\n"
            "DAC type: Integrated RAMDAC\nDisplay Memory: 16279 MB\nDedicated Memory: 4007 MB\n")
    facts = facts_of(text)
    assert "dxdiag" not in (facts.interpreter.packages if facts.interpreter else {})
    assert facts.gpus[0].memory_bytes == 4007 * 1024**2
    assert check_levels(text)["cpu_features"] == "warn"  # Sandy Bridge: no AVX2, and nothing installed is known


def test_numbered_video_controllers_keep_each_adapters_driver():
    facts = facts_of("Video Controller 0 Name: NVIDIA GeForce GTX 1650\nVideo Controller 0 Driver Version: 27.21.14.6109\n\n"
                   "Video Controller 1 Name: AMD Radeon(TM) Vega 8 Graphics\n"
                   "Video Controller 1 Driver Version: 26.20.12036.7001\n")
    drivers = {g.vendor: g.driver_version for g in facts.gpus}
    assert drivers == {"NVIDIA": "461.09", "AMD": "26.20.12036.7001"} and facts.platform == "win32"


def test_r_sessioninfo_running_under_windows():
    assert ("os.name", "Windows 11 x64 (build 26100)") in by_key("running under", "Windows 11 x64 (build 26100)")
    assert by_key("running under", "macOS Sonoma 14.2.1") == []  # read where any line names macOS


@pytest.mark.parametrize("line, gib", [
    ("G.SKILL 4x8Gb DDR4 3200Mhz RAM", 32), ("RAM: 2 x 16GB DDR5 6000", 32),
])
def test_a_memory_kit_is_its_modules_together(line, gib):
    assert ("cpu.memory_bytes", gib * 1024**3) in said_by(line)
    assert not any(fact == "cpu.memory_bytes" for fact, _ in said_by("4x16GB GDDR6"))
