"""Readers and knowledge of the set-38 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.amd_gfx import PRE_GFX9, radeon_target
from macml.knowledge.rocm import no_rocm_build
from macml.probe.paste.gpu_names import gib
from paste_said import check_levels, facts_of, said_by


def test_radeon_series_older_than_vega_have_no_rocm_build():
    for name in ("AMD Radeon R9 200 Series", "Radeon R9 290X", "AMD Radeon R7 Graphics", "Radeon 500 Series",
                 "AMD Radeon HD 7970", "ATI Radeon HD 5770"):
        assert radeon_target(name) == PRE_GFX9, name
    assert radeon_target("AMD Radeon RX 580") == "gfx803" and radeon_target("AMD Radeon Pro 560X") is None
    assert no_rocm_build(PRE_GFX9)
    text = ("Operating System Version:\n    Ubuntu 14.04.1 LTS (64 bit)\n    Kernel Name:  Linux\n"
            "Video Card:\n    Driver:  ATI Technologies Inc. AMD Radeon R9 200 Series\n"
            "[     4.671](--) fglrx(0): Video RAM: 2097152 kByte, Type: GDDR5\n")
    facts = facts_of(text)
    assert facts.gpus[0].memory_bytes == 2048 * 1024**2
    assert check_levels(text)["rocm_target"] == "warn"


def test_torch_answers_and_tensorflow_device_lines():
    text = ("In [6]: torch.cuda.get_device_name(torch.cuda.current_device())\nOut[6]: 'AMD Radeon RX 6700 XT'\n")
    assert [g.model for g in facts_of(text).gpus] == ["AMD Radeon RX 6700 XT"]
    tf = "properties:\nname: GeForce RTX 2080 with Max-Q Design major: 7 minor: 5\nmemoryClockRate(GHz): 1.095\n"
    gpu = facts_of(tf).gpus[0]
    assert gpu.model == "GeForce RTX 2080 with Max-Q Design" and gpu.compute_capability == "7.5"


def test_memory_counted_in_dimms_and_written_with_a_thousands_comma():
    assert ("cpu.memory_bytes", 512 * 1024**3) in said_by("Server: (Inspur NF5280A6) + (2 x Milan7453) + (16Dimm * 32GB-3200)")
    assert gib("16,354 MB") == 16354 * 1024**2 and gib("`16,354` MB") == 16354 * 1024**2
    assert gib("1,024.5 GB") == int(1024.5 * 1024**3)


def test_python_loggings_root_prefix_and_ollamas_rocm_device_by_pci_id():
    text = "INFO:root:GPU 0,1,2,3: Tesla P40\nINFO:root:PyTorch: 1.9.0+cu111\n"
    facts = facts_of(text)
    assert len(facts.gpus) == 4 and facts.package("torch") == "1.9.0+cu111"
    log = ('time=2025-09-16T13:51:20.712Z level=INFO source=types.go:131 msg="inference compute" id=0 library=rocm '
           'variant="" compute=gfx1103 driver=0.0 name=1002:1900 total="16.0 GiB" available="14.5 GiB"\n')
    assert facts_of(log).gpus[0].compute_capability == "gfx1103"


def test_an_unknown_os_asserts_no_hardware_or_rosetta_from_a_pythons_arch():
    facts = facts_of("the anaconda python's `platform.machine()` returns `x86_64`, so linking `arm64` libraries fails\n")
    assert facts.cpu.hardware_arch != "x86_64" and facts.rosetta is None


def test_mac_pro_2013_and_macs_named_in_a_parts_list():
    facts = facts_of("I just downloaded it to my headless Late 2013 Mac Pro running Mojave.\n")
    assert [g.vendor for g in facts.gpus] == ["AMD", "AMD"]  # its FirePro pair, models unknown
    text = ("### System information\n\nMacbook Pro, macOS Catalina 10.15.7, mid 2012, GPU Intel HD Graphics 4000 1536 MB,"
            " Memory 4 GB 1600 MHz DDR3, Processor 2.5 GHz Dual-Core Intel Core i5\n")
    assert check_levels(text)["cpu_features"] == "warn"  # a mid-2012 MacBook Pro: Ivy Bridge, no AVX2


def test_bare_uname_answers_and_fastfetch_gpu_cores():
    facts = facts_of("uname -p\narm64\nuname -r\n20.0.0\n")
    assert facts.platform == "darwin" and facts.cpu.hardware_arch == "arm64"
    assert not [f for f, _ in said_by("6.1.0") if f == "os.darwin"]  # a bare number alone is nothing
    assert ("gpu.cores", 8) in said_by("                                  GPU: Apple M1 (8) [Integrated]")
    assert ("gpu.cores", 8) not in said_by("                                  CPU: Apple M1 (8) @ 3.20 GHz")


def test_chinese_memory_after_the_chip_and_spaces_inside_its_name():
    facts = facts_of("硬件配置：\nM2  Ultra, 内存192G\n")
    assert facts.cpu.chip is not None and facts.cpu.chip.name == "Apple M2 Ultra"
    assert facts.cpu.memory_bytes == 192 * 1024**3


def test_an_egpu_named_alone_and_a_bracketed_mac_driver():
    text = "The eGPU is AROUS GTX 1070 gaming box\n   NVIDIA driver                        [387.10.10.10.40.113]\n"
    facts = facts_of("# High sierra 10.13.6 (17G4015) issue\n" + text)
    assert facts.gpus[0].external and facts.gpus[0].model == "GTX 1070"
    assert facts.gpus[0].driver_version == "387.10.10.10.40.113"


def test_a_release_name_then_its_version_and_a_cuda_samples_path():
    facts = facts_of(" - Name: Sequoia\n - Version 15.1\n")
    assert facts.os.version == "15.1"
    assert not facts_of(" - Name: Sequoia\n - Version 2.3\n").os.version.startswith("2")  # not Sequoia's number
    line = "/Developer/NVIDIA/CUDA-9.0/samples/bin/x86_64/darwin/release/deviceQuery Starting..."
    assert ("platform", "darwin") in said_by(line) and ("cpu.hardware_arch", "x86_64") in said_by(line)


def test_windows_diagnostics_dumps():
    rainway = (" * Version: 10.0.16299, Windows 10, VER_SUITE_SINGLEUSERTS, VER_NT_WORKSTATION\n"
               " * Physical Memory: `16,354` MB\n * NVIDIA GeForce GTX 670\n"
               "  * DEVPKEY_Device_DriverVersion: 23.21.13.8813\n * Dedicated Video Memory: 4,063 MB\n")
    facts = facts_of(rainway)
    assert facts.platform == "win32" and facts.cpu.memory_bytes == 16354 * 1024**2
    assert facts.gpus[0].driver_version == "388.13" and facts.gpus[0].memory_bytes == 4063 * 1024**2
    node = ("      model: 'NVIDIA GeForce GTX 1050',\n      vram: 2048,\n      deviceName: '\\\\\\\\.\\\\DISPLAY1',\n")
    assert facts_of(node).platform == "win32" and facts_of(node).gpus[0].memory_bytes == 2048 * 1024**2
