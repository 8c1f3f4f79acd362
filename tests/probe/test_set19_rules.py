"""Readers and knowledge added in the set-19 fix round, on literal texts: what they read, and near misses that
must not fire."""
import pytest

from macml.diagnose.framework_checks import check_framework_gpu
from macml.diagnose.system import check_macos_version
from macml.diagnose.torch_checks import check_cuda_arch, check_nvidia_driver, check_torch_build
from macml.knowledge.compat import mps_min_macos
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.distro_rules import distro_spelling
from macml.probe.paste.gpu_name_keys import same_model
from macml.probe.paste.gpu_names import full_radeon_name, gpu_names, gpu_value
from macml.probe.paste.inline_rules import anywhere, packages_inline
from macml.probe.paste.kernel_log_rules import nvidia_module_gpu
from macml.probe.paste.mac_issue_rules import mac_with_chip, macos_version_beside_mac, torch_candidates
from macml.recipes.catalog import load_all


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def test_torch_naming_a_gpu_incompatible_is_a_cuda_build_that_cannot_run_it():
    facts = _facts("/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:326: UserWarning: \n"
                   "NVIDIA GeForce GTX 1080 Ti with CUDA capability sm_61 is not compatible with the current PyTorch "
                   "installation.\n")
    assert check_cuda_arch(facts, load_all()).level == "fail"
    build = check_torch_build(facts, load_all())
    assert build.level == "ok" and "CPU-only" not in build.message and "(version not shown)" in build.message


@pytest.mark.parametrize("row, arch", [
    ("ld_impl_linux-64          2.40                 h41732ed_0    conda-forge", "x86_64"),
    ("sysroot_linux-64          2.17                h4a8ded7_18    conda-forge", "x86_64"),
    ("ld_impl_linux-aarch64     2.40                 h9fc2d93_0    conda-forge", "aarch64"),
])
def test_a_conda_row_built_for_one_linux_subdir(row, arch):
    assert ("platform", "linux") in anywhere(row) and ("cpu.hardware_arch", arch) in anywhere(row)


@pytest.mark.parametrize("line", ["conda install sysroot_linux-64 to cross-compile", "see ld_impl_linux-64's recipe"])
def test_prose_about_a_linux_subdir_package_is_not_a_row(line):
    assert ("platform", "linux") not in anywhere(line)


def test_sycl_ls_names_iris_xe_whole():
    line = "[opencl:gpu:3] Intel(R) OpenCL Graphics, Intel(R) Iris(R) Xe Graphics OpenCL 3.0 NEO  [23.52.28202.51]"
    assert gpu_names(line) == ["Intel(R) Iris(R) Xe Graphics"]


def test_the_kernel_logs_api_mismatch_is_a_broken_driver():
    facts = _facts("[    9.424670] NVRM: API mismatch: the client 'kwin_wayland' (pid 1005)\n"
                   "               NVRM: has the version 595.84, but this kernel module has\n")
    assert facts.platform == "linux" and facts.gpus_by_vendor("NVIDIA")
    finding = check_nvidia_driver(facts, load_all())
    assert finding.level == "fail" and "kernel log" in finding.message
    assert not any(d.startswith("nvidia-smi:") for d in finding.details)  # the pasted line says where it came from


@pytest.mark.parametrize("line, said", [
    ("[   78.770504] [drm:nv_drm_register_drm_device [nvidia_drm]] *ERROR* [nvidia-drm] [GPU ID 0x00000100] "
     "Failed to register device", True),
    ("[    2.1] NVRM: GPU at PCI:0000:01:00: GPU-6c5b8b3e-0d5e-8f1c-2b7a-1f0e9d8c7b6a", True),
    ("[    2.1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023", False),
    ("nvidia-drm is the DRM driver of the NVIDIA kernel modules", False),
])
def test_the_nvidia_modules_name_a_gpu(line, said):
    assert bool(nvidia_module_gpu(line)) is said


def test_the_modules_loading_line_gives_the_driver():
    facts = anywhere("[    2.9] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.133.07  Release Build")
    assert ("gpu.driver", "570.133.07") in facts and ("cpu.hardware_arch", "x86_64") in facts


@pytest.mark.parametrize("typed, spelled", [("ubuntu", "Ubuntu"), ("opensuse", "openSUSE"), ("Pop OS", "Pop OS"),
                                            ("Garuda", "Garuda")])
def test_a_distribution_keeps_its_own_capitals_only(typed, spelled):
    assert distro_spelling(typed) == spelled


@pytest.mark.parametrize("written, card", [("7900 XTX", "Radeon RX 7900 XTX"), ("6800xt", "Radeon RX 6800 XT"),
                                          ("AMD Pro Vega 48", "AMD Radeon Pro Vega 48"), ("RX 580", "RX 580"),
                                          ("1234 XT", "1234 XT")])
def test_a_radeon_written_without_its_series_words(written, card):
    assert full_radeon_name(written) == card


def test_a_bare_rx_number_and_the_card_name_are_one_gpu():
    assert same_model("5600XT", "AMD Radeon RX 5600 XT")
    assert not same_model("RX 560X", "Radeon Pro 560X")


@pytest.mark.parametrize("text, name", [
    ("GPU 0,1,2,3: NVIDIA GB200", "NVIDIA GB200"),
    ("Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.", "NVIDIA GB10"),
    ("NVIDIA GH200 480GB", "NVIDIA GH200 480GB"),
    ("Graphics: kHW_AMDFireProD500Item, AMD FirePro D500, spdisplays_pcie_device, 3 GB", "AMD FirePro D500"),
    ("device: Apple Paravirtual device", "Apple Paravirtual device"),
])
def test_gpu_names_added_this_round(text, name):
    assert gpu_names(text) == [name]


def test_grace_blackwell_gpus_have_their_capabilities():
    assert nvidia_compute_capability("NVIDIA GB200") == "10.0" and nvidia_compute_capability("NVIDIA GB10") == "12.1"
    assert nvidia_compute_capability("GeForce GTX 680MX") == "3.0"
    assert nvidia_compute_capability("GeForce GTX 675M") == "2.1"  # the Fermi part of that name family


@pytest.mark.parametrize("line, package", [
    ("sgl_kernel: 0.3.9.post2", ("sgl-kernel", "0.3.9.post2")),
    ("flashinfer_python: 0.3.1", ("flashinfer-python", "0.3.1")),
    ("Jax-Metal - 0.1.1", ("jax-metal", "0.1.1")),
    ("Jaxlib - 0.5.1", ("jaxlib", "0.5.1")),
])
def test_package_versions_in_env_dumps(line, package):
    name, version = package
    assert ("package", {"name": name, "version": version}) in packages_inline(line)


@pytest.mark.parametrize("line", ["weight_decay: 0.01", "CUDA_HOME: /usr/local/cuda", "learning_rate: 3e-4",
                                  "Python - 3.13", "Step 1 - 2.5"])
def test_config_values_are_not_packages(line):
    assert not [f for f in packages_inline(line) if f[0] == "package"]


def test_a_crash_reports_model_line_with_its_label_cut():
    facts = _facts("odel: MacBookPro18,3, BootROM 7459.121.3, proc 10:8:2 processors, 16 GB, SMC \n"
                   "Graphics: Apple M1 Pro, Apple M1 Pro, Built-In\n")
    assert facts.cpu.memory_bytes == 16 * 1024**3


def test_each_graphics_line_of_a_crash_report_is_one_gpu():
    line = "Graphics: kHW_AMDFireProD500Item, AMD FirePro D500, spdisplays_pcie_device, 3 GB\n"
    facts = _facts("Model: MacPro6,1, BootROM 133.0.0.0.0, 6 processors, 6-Core Intel Xeon E5, 3.5 GHz, 64 GB, SMC\n"
                   + line + line)
    assert [(g.model, g.memory_bytes) for g in facts.gpus] == [("AMD FirePro D500", 3 * 1024**3)] * 2
    assert len(_facts("My GPU:\n" + "- NVIDIA GeForce RTX 4090\n").gpus) == 1


@pytest.mark.parametrize("line, x86", [
    ("ERROR: Could not find a version that satisfies the requirement torch~=2.3 (from medaka) (from versions: 2.0.0, "
     "2.1.0, 2.2.2)", True),
    ("ERROR: Could not find a version that satisfies the requirement torch==2.9 (from versions: 2.2.2, 2.3.0)", False),
])
def test_pip_candidates_past_the_requiring_package(line, x86):
    assert (torch_candidates(line) == [("python.machine", "x86_64")]) is x86


def test_memory_settles_the_gpu_bin_of_some_chips():
    m3_max = _facts("Chip: Apple M3 Max\nMemory: 36 GB\nmacOS 14.6\n")
    assert [g.cores for g in m3_max.gpus] == [30]
    m1_max = _facts("Chip: Apple M1 Max\nMemory: 32 GB\nmacOS 14.6\n")
    assert [g.cores for g in m1_max.gpus] == [None]  # both bins came with 32 GB


def test_an_opencl_device_head_names_its_device():
    facts = _facts("Platform name: Apple\nNumber of devices: 1\nDevice #1: Apple M3 Pro\n    Type: GPU\n"
                   "    Compute Units: 14\n")
    assert [(g.model, g.cores) for g in facts.gpus] == [("Apple M3 Pro", 14)]


@pytest.mark.parametrize("line, facts", [
    ("- platform: macOS(m3)", [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.apple_generation", 3)]),
    ("macOS (M1 Pro)", [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("cpu.brand", "Apple M1 Pro")]),
    ("macOS M1 support", []),  # names no Mac
    ("on macOS 14 with m2 chip", []),
])
def test_macos_beside_an_apple_chip(line, facts):
    assert mac_with_chip(line) == facts


def test_a_macos_guest_keeps_its_virtual_chip():
    facts = _facts("Platform Info:\n  OS: macOS (arm64-apple-darwin22.4.0)\n  CPU: 3 × Apple M1 (Virtual)\n")
    assert facts.cpu.chip.virtual and facts.vm is True


@pytest.mark.parametrize("line, version", [
    ("2025-09-10T15:30:46.503242 - Mac Version (14, 7, 6)", "14.7.6"),
    ("It works fine on my mac (15.1.1 M2):", "15.1.1"),
    ("Mac Version (10, 15, 7)", "10.15.7"),
    ("my mac (16.1)", None),  # no such macOS
    ("a mac (15.1.1 build)", None),  # not the writer's
])
def test_a_macos_version_beside_mac(line, version):
    assert macos_version_beside_mac(line) == ([("platform", "darwin"), ("os.version", version)] if version else [])


def test_a_nightly_torch_needs_its_releases_macos_for_mps():
    assert mps_min_macos("2.9.0.dev20250821") == (14, 0) and mps_min_macos("2.5.0rc1") == (13, 0)
    facts = _facts("Mac Version (14, 7, 6)\npytorch version: 2.9.0.dev20250821\nDevice: mps\n"
                   "Total VRAM 131072 MB, total RAM 131072 MB\n")
    finding = check_macos_version(facts, load_all())
    assert finding is None or "crashed" not in finding.message
    build = check_torch_build(facts, load_all())
    assert build is None or "without MPS" not in build.message  # unknown is not 'built without'


def test_torch_saying_cuda_is_available_means_a_gpu():
    facts = _facts("- Platform: Windows-10-10.0.19045-SP0\n- Python version: 3.9.13\n"
                   "- PyTorch version (GPU?): 2.1.0.dev20230527+cu118 (True)\n")
    assert [g.vendor for g in facts.gpus] == ["NVIDIA"] and facts.interpreter.machine == "x86_64"
    assert facts.cpu.hardware_arch == "x86_64"
    cpu_only = _facts("- Platform: Windows-10-10.0.19045-SP0\n- PyTorch version (GPU?): 2.1.0+cpu (False)\n")
    assert not cpu_only.gpus and not cpu_only.interpreter.machine


def test_a_jetson_torch_build_names_a_jetson_gpu():
    facts = _facts("PyTorch version: 2.0.0a0+ec3941ad.nv23.02\nCUDA used to build PyTorch: 11.4\n"
                   "Is CUDA available: True\nGPU models and configuration: Could not collect\n")
    assert [g.model for g in facts.gpus] == ["NVIDIA Jetson GPU (model not in the evidence)"]


def test_a_doubled_backslash_windows_path():
    assert ("platform", "win32") in anywhere(r"tempdir: 'C:\\Users\\<username>\\AppData\\Local\\Temp\\blender_a18384\\'")
    assert ("platform", "win32") not in anywhere(r"sed 's/a\\b/c/'")


def test_tensorflow_listed_on_native_windows_has_no_gpu():
    facts = _facts("### TensorFlow version\n\n2.17.0\n\n### OS platform and distribution\n\nWindows 11\n\n"
                   "GPU 0: NVIDIA GeForce RTX 4050 Laptop GPU\n")
    finding = check_framework_gpu(facts)
    assert finding is not None and finding.level == "fail" and "native Windows" in finding.message
    linux = _facts("tensorflow==2.17.0\nOS: Ubuntu 22.04\nGPU 0: NVIDIA GeForce RTX 4090\n")
    assert check_framework_gpu(linux) is None


def test_gpu_value_reads_a_firepro_with_its_memory():
    assert gpu_value("kHW_AMDFireProD500Item, AMD FirePro D500, spdisplays_pcie_device, 3 GB") == [
        ("gpu", {"name": "AMD FirePro D500", "vendor": "AMD", "memory_mib": 3072, "index": None})]
