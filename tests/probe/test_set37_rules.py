"""Readers and knowledge of the set-37 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.amd_apus import apu_gfx
from macml.probe.paste.gpu_names import gpu_names, informal_gpu_names
from paste_said import check_levels, facts_of, said_by

_OSHI_WINDOWS = """-- System Details --
Details:
\tMinecraft Version: 1.17.1
\tOperating System: Windows 10 (amd64) version 10.0
\tMemory: 3391303848 bytes (3234 MiB) / 3825205248 bytes (3648 MiB) up to 3825205248 bytes (3648 MiB)
\tProcessor Name: Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz
\tNumber of physical packages: 1
\tGraphics card #0 name: Intel(R) Iris(R) Plus Graphics
\tGraphics card #1 name: NVIDIA GeForce MX230
\tMemory slot #0 capacity (MB): 8192,00
\tMemory slot #1 capacity (MB): 8192,00
\tVirtual memory max (MB): 20503,47
"""
_OSHI_MAC = """\tOperating System: Mac OS X (aarch64) version 13.0.1
\tMemory: 1364998096 bytes (1301 MiB) / 1839202304 bytes (1754 MiB) up to 4294967296 bytes (4096 MiB)
\tProcessor Name: Apple M1
\tNumber of physical packages: 1
\tGraphics card #0 name: Apple M1
\tMemory slot #0 capacity (MB): 0.00
\tVirtual memory max (MB): 23552.00
\tSwap memory total (MB): 7168.00
"""


def test_a_java_crash_reports_oshi_section_is_not_system_profiler():
    facts = facts_of(_OSHI_WINDOWS)
    assert facts.platform == "win32"
    assert facts.cpu.memory_bytes == 16384 * 1024**2  # the slots' sum, decimal commas read; not the Java heap
    assert [g.model for g in facts.gpus] == ["Intel(R) Iris(R) Plus Graphics", "NVIDIA GeForce MX230"]
    mac = facts_of(_OSHI_MAC)
    assert mac.platform == "darwin" and mac.cpu.memory_bytes == 16 * 1024**3  # virtual max less swap, on macOS only
    assert not [f for f, _ in said_by("\tMemory: 807884976 bytes (770 MiB) / 1543503872 bytes (1472 MiB)") if f == "cpu.memory_bytes"]


def test_an_app_version_in_a_package_list_is_not_an_ml_framework():
    text = _OSHI_WINDOWS.replace("i7-1065G7 CPU @ 1.30GHz", "i7-2600 CPU @ 3.40GHz")
    assert check_levels(text)["cpu_features"] == "warn"  # 'minecraft 1.17.1' installs no ML framework


def test_distribution_names_from_redhat_release_and_an_os_answer():
    assert ("os.name", "Rocky Linux 9.7") in said_by("Rocky Linux release 9.7 (Blue Onyx) & AMD EPYC 9654 96-Core Processor")
    assert ("os.name", "CentOS Linux 7.9.2009") in said_by("CentOS Linux release 7.9.2009 (Core)")
    assert not [f for f, _ in said_by("Ubuntu release 22.04 broke the driver") if f == "os.name"]  # no codename bracket
    facts = facts_of("### Operating System\n\nTalos (v1.9.6)\n")
    assert facts.platform == "linux" and "Talos" in facts.os.name


def test_raphael_desktop_ryzens_and_their_radeon_in_brackets():
    assert apu_gfx("AMD Ryzen 9 Pro 7945") == "gfx1036" and apu_gfx("AMD Ryzen 7 7800X3D") == "gfx1036"
    assert apu_gfx("AMD Ryzen 5 7500F") is None  # the F parts have no graphics
    assert apu_gfx("AMD Ryzen 9 7940HS") == "gfx1103"  # Phoenix, not Raphael
    text = ("### Operating System\n\nUbuntu 24.04\n\n### CPU\n\nAMD Ryzen 9 Pro 7945\n\n### GPU\n\nAMD Ryzen 9 Pro 7945 (AMD Radeon Graphics Raphael)\n\n"
            "RuntimeError: HIP error: invalid device function\n")
    facts = facts_of(text)
    assert facts.gpus[0].compute_capability == "gfx1036"
    assert facts.frameworks["torch"].data.get("cuda_available") is True  # torch reached the GPU, its kernels did not
    assert check_levels(text)["rocm_target"] in ("warn", "fail")


def test_an_amd_chip_lspci_names_alone_and_gpus_named_with_their_target():
    renoir = facts_of("0a:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Renoir (rev d9)\n")
    assert renoir.gpus[0].compute_capability == "gfx90c" and renoir.cpu.hardware_arch == "x86_64"
    navi = facts_of("03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 22\n")
    assert navi.gpus[0].compute_capability == "gfx1031" and navi.cpu.hardware_arch != "x86_64"  # a card may sit in an Arm box
    text = "I had a Vega 64 (gfx900) lying around. The 7900 GRE (gfx1100) is on a PCIE 5.0 X16 slot."
    assert {(g.model, g.compute_capability) for g in facts_of(text).gpus} == {
        ("AMD Radeon RX Vega 64", "gfx900"), ("AMD Radeon RX 7900 GRE", "gfx1100")}
    assert not [f for f, _ in said_by("if you had a Vega 64 (gfx900) it would work") if f == "gpu"]


def test_nouveau_kernel_lines_and_an_arm64_oops():
    text = ("# Test GPU (EVGA GeForce GTX 750 Ti)\n[    8.449195] nouveau 0000:01:00.0: DRM: VRAM: 2048 MiB\n"
            "[    8.466327] Mem abort info:\n[    8.472883]   EC = 0x25: DABT (current EL), IL = 32 bits\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and facts.cpu.hardware_arch == "aarch64"
    assert facts.gpus[0].model.endswith("GeForce GTX 750 Ti") and facts.gpus[0].memory_bytes == 2048 * 1024**2
    assert check_levels(text)["nvidia_driver"] == "fail"  # bound to nouveau: no CUDA
    assert not [f for f, _ in said_by("blacklist nouveau before installing the driver") if f == "gpu.driver_error"]


def test_frameworks_that_find_no_gpu_in_their_own_words():
    assert ("tensorflow.no_gpu", True) in said_by(
        "I tensorflow/core/common_runtime/gpu/gpu_init.cc:81] No GPU devices available on machine.")
    assert ("tensorflow.no_gpu", True) in said_by(
        "But tf.config.list_physical_devices('GPU') isn't able to return any GPU device. thanks.")
    assert ("jax.platforms", "cpu") in said_by("JAX backend: cpu")
    assert not said_by("JAX backend selection is confusing")
    text = ("  Name:                    gfx803\n  Marketing Name:          Radeon RX 580 Series\n"
            "  Device Type:             GPU\n"
            "tf.config.list_physical_devices('GPU') isn't able to return any GPU device.\n")
    assert check_levels(text).get("framework_gpu") == "fail"  # finds none; rocm_target says why


def test_import_failures_in_the_loaders_words():
    line = ("ImportError: dlopen(/Users/me/.venv/lib/python3.12/site-packages/mlx/core.cpython-312-darwin.so, 0x0002): "
            "Symbol not found: _cblas_cgemm$NEWLAPACK")
    assert [v["name"] for f, v in said_by(line) if f == "framework.import_failed"] == ["mlx"]
    text = ("`This version of jaxlib was built using AVX instructions, which your CPU and/or operating system do not "
            "support.`\n\nI am using macOS 14.4 with an apple m3 pro chip.\n")
    facts = facts_of(text)
    assert facts.rosetta is True and facts.frameworks["jax"].ok is False
    assert check_levels(text)["rosetta_avx"] == "fail"


def test_macs_named_loosely():
    facts = facts_of("Crashing mid-game (MacBook Pro 2022 [M2] 8 gig of ram)\n\nCrash Notes: (macOS 13.5.2)\n")
    assert facts.cpu.chip is not None and facts.cpu.memory_bytes == 8 * 1024**3
    assert facts_of("# macos x 10.7.5 crashes on making calls\n").os.version == "10.7.5"
    assert gpu_names("Graphics: Intel GMA 950, GMA 950, Built-In") == ["Intel GMA 950"]
    assert "Intel HD Graphics CFL" in gpu_names("GPU: Intel HD Graphics CFL, Radeon Pro Vega 48")
    assert informal_gpu_names("AMD 5300M GPU") == ["AMD 5300M"] and not informal_gpu_names("AMD 7520U")
    both = facts_of("Host: MacBookPro15,3\nOS: macOS 11.6.7 x86_64\n")
    assert {g.vendor for g in both.gpus} == {"AMD", "Intel"}  # the 2018-19 15-inch has both
