"""Readers and knowledge of the set-35 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.probe.paste.gpu_names import gpu_names
from paste_said import check_levels, facts_of, said_by

_MICROSTACKSHOT = """Apple MacBook Pro from 2021 with MacOS 15.2
OS Version:       macOS 12.2.1 (Build 21D62)
Architecture:     arm64e
Report Version:   35
Incident Identifier: BE44D166-332A-4C30-AF7D-CBB7ED19BB67

Command:          nwjs Helper
Architecture:     x86_64 (translated)
Parent:           UNKNOWN [943]

Hardware model:   MacBookPro18,1
"""


def test_a_macos_report_is_not_lscpu_and_its_built_version_wins():
    facts = facts_of(_MICROSTACKSHOT)
    assert facts.platform == "darwin" and facts.cpu.hardware_arch == "arm64"
    assert facts.os.version == "12.2.1" and facts.os.build == "21D62"  # the report's, not the prose's 15.2
    lscpu = "Architecture:        x86_64\nCPU op-mode(s):      32-bit, 64-bit\nByte Order:          Little Endian\n"
    assert facts_of(lscpu).platform == "linux"


def test_a_chip_answered_alone_and_a_lower_case_tier():
    facts = facts_of("Operating System: Sequoia 15.5\nCPU and GPU model: M1, ARM\n")
    assert facts.cpu.chip.name == "Apple M1" and facts.cpu.hardware_arch == "arm64"
    assert facts_of("Chip: M2 pro\n").cpu.chip.name == "Apple M2 Pro"
    assert not any(f == "cpu.brand" for f, _ in said_by("CPU: M1 was not what I bought"))
    assert facts_of("MacBook Pro M4 max, 64G RAM\n").cpu.chip.name == "Apple M4 Max"


def test_ram_as_ddr_an_os_typed_with_a_zero_and_a_glued_intel_name():
    assert ("cpu.memory_bytes", 64 * 1024**3) in said_by("iMac intel, i7, AMD Radeon Pro 5700 XT 16GB/ 64 GB DDR4")
    assert not any(f == "cpu.memory_bytes" for f, _ in said_by("GeForce GT 1030 2GB DDR4"))  # a small card's memory
    assert not any(v == 8 * 1024**3 for f, v in said_by("G.SKILL 4x8Gb DDR4 3200Mhz RAM") if f == "cpu.memory_bytes")
    facts = facts_of("### What is the version of your OS?\n\n0S 26.5.2\n\n### Describe your system\n\niMac intel, i7\n")
    assert facts.os.version == "26.5.2"
    assert gpu_names("Hackintool crashes with RX550 and Intel UHD630") == ["Intel UHD 630"]


def test_pips_conflict_line_and_an_mkl_library_on_a_mac():
    said = said_by("jax-metal 0.0.5 requires jax==0.4.20, but you have jax 0.5.0 which is incompatible.")
    assert ("package", {"name": "jax", "version": "0.5.0"}) in said
    assert ("package", {"name": "jax", "version": "0.4.20"}) not in said
    said = said_by("INTEL MKL ERROR: dlopen(/opt/miniconda3/envs/ml/lib/libmkl_intel_thread.1.dylib, 0x0009): Library not loaded")
    assert ("python.machine", "x86_64") in said and ("platform", "darwin") in said


def test_wmi_adapter_names_python_in_prose_and_a_prose_vllm():
    facts = facts_of("(Get-WmiObject win32_VideoController).Name\nAMD Radeon RX 6800\nAMD Radeon 780M Graphics\n\nnext\n")
    assert facts.platform == "win32" and {g.model for g in facts.gpus} == {"AMD Radeon RX 6800", "AMD Radeon 780M Graphics"}
    assert ("python.version", "3.10") in said_by('I tested it with python 3.10 + pytorch 2.0.1 on macOS 13.4 on MacBook Pro 14" M1 Max.')
    assert not any(f == "python.version" for f, _ in said_by("Has anyone tested it with python 3.12?"))
    assert ("package", {"name": "vllm", "version": "0.20.0"}) in said_by("- vllm v0.20.0 (latest main)")


def test_tensorflows_cpu_guard_an_extension_tag_and_gentoos_driver():
    line = ("I tensorflow/core/platform/cpu_feature_guard.cc:137] Your CPU supports instructions that this TensorFlow "
            "binary was not compiled to use: SSE4.1 SSE4.2 AVX AVX2 FMA")
    assert ("cpu.hardware_arch", "x86_64") in said_by(line)
    assert check_levels(line + "\n")["cpu_features"] != "warn"
    said = said_by("detectron2 arch flags   /home/u/.conda/envs/d/lib/python3.9/site-packages/detectron2/_C.cpython-39-x86_64-linux-gnu.so")
    assert ("python.machine", "x86_64") in said and ("platform", "linux") in said
    assert ("gpu.driver", "530.41.03") in said_by("nvidia-drivers-530.41.03")


def test_a_crash_footers_two_gpus_and_driver_failures():
    footer = ("Model: MacPro6,1, BootROM 428.140.7.0.0, 8 processors, 8-Core Intel Xeon E5, 3 GHz, 16 GB, SMC 2.20f18\n"
              "Graphics: AMD FirePro D500, AMD FirePro D500, PCIe, 3 GB\nGraphics: AMD FirePro D500, AMD FirePro D500, PCIe, 3 GB\n")
    assert len(facts_of(footer).gpus) == 2
    one = "Graphics: AMD Radeon Pro 560X, AMD Radeon Pro 560X, PCIe, 4 GB\n"
    assert len(facts_of(one).gpus) == 1
    dmesg = ("[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
             "               NVRM: fallen off the bus and is not responding to commands.\n")
    assert check_levels(dmesg)["nvidia_driver"] in ("warn", "fail")
    wsl = ('**Error:** CUDA error at helper_cuda.h:779 code=35(cudaErrorInsufficientDriver) "cudaGetDeviceCount(&device_count)"\n'
           "NVIDIA Driver 461.72 on Windows (for GeForce GTX 1660 Ti), WSL2  Ubuntu 20-04\n")
    assert check_levels(wsl)["nvidia_driver"] in ("warn", "fail")
