"""Readers and knowledge of the set-29 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.probe.paste.gpu_names import gpu_names, gpu_value
from paste_said import check_levels, facts_of, said_by


def test_counted_instinct_in_prose_and_gcc_built_python():
    facts = facts_of("hi, I have a 8 x MI300X system, could not get voltage\n")
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("MI300X", "gfx942")] * 8
    assert ("platform", "linux") in said_by("[GCC 11.2.0]")
    assert not said_by("[GCC 4.2.1 Compatible Apple LLVM 10.0.0 (clang-1000.11.45.5)]")


def test_a_pytorch_information_section():
    text = ("PyTorch Version: 1.13.0\nPyTorch CUDA: 11.7\nPyTorch CUDA Arch List: ['sm_37', 'sm_86', 'compute_37']\n"
            "PyTorch Current Device Capability: (8, 6)\nPyTorch CUDA available: True\n")
    facts = facts_of(text)
    torch = facts.frameworks["torch"].data
    assert torch["cuda_version"] == "11.7" and "sm_86" in torch["arch_list"] and not torch.get("build_unknown")
    assert [(g.vendor, g.compute_capability) for g in facts.gpus] == [("NVIDIA", "8.6")]


def test_plural_and_capitalised_gpu_names():
    assert gpu_names("I am trying to use 2x Tesla K80s, however") == ["Tesla K80"]
    assert gpu_names("recognising the TESLA M40:") == ["Tesla M40"]
    assert gpu_names("Dual Radeon HD - Firepro D700 (6GB Each)") == ["FirePro D700"]
    assert gpu_names("a Tesla model 3 car") == []


def test_lspci_boards_counted_and_a_question_is_no_server():
    line = "1b:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H200 SXM 141GB] [10de:2335] (rev a1)\n"
    facts = facts_of("Can we have support for DGX H200 servers? :) Please.\n" + line * 3)
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("H200 SXM 141GB", "9.0")] * 3
    assert check_levels(line * 2).get("mixed_gpus") in (None, "ok")


def test_nvml_failing_without_a_version_is_a_driver_problem():
    text = "### Distro Version\n\nUbuntu 22.04\n\n```\nFailed to initialize NVML: N/A\n```\n"
    assert check_levels(text).get("nvidia_driver") in ("warn", "fail")
    assert not any(f == "gpu.driver_error" for f, _ in said_by("If you see 'Failed to initialize NVML: Unknown Error', restart"))


def test_numba_detect_and_a_middle_dot_device_list():
    text = ("Found 2 CUDA devices\nid 0    b'NVIDIA Quadro RTX 8000'                              [SUPPORTED]\n"
            "id 1    b'NVIDIA Quadro RTX 8000'                              [SUPPORTED]\n")
    assert [g.model for g in facts_of(text).gpus] == ["NVIDIA Quadro RTX 8000"] * 2
    facts = facts_of(" GPUs detected:\n    [0] AMD Radeon Pro Vega II · 31 GB\n    [1] AMD Radeon PRO W6800X · 31 GB\n")
    assert [g.model for g in facts.gpus] == ["AMD Radeon Pro Vega II", "AMD Radeon PRO W6800X"]


def test_darktable_opencl_device_block_gives_apple_cores():
    text = ("[opencl_init] found 1 device\n\n   DEVICE:                   0: 'Apple M1 Max'\n"
            "   PLATFORM, VENDOR & ID:    Apple, Apple, ID=16940800\n   COMPUTE UNITS:            32\n")
    assert [(g.model, g.cores) for g in facts_of(text).gpus] == [("Apple M1 Max", 32)]


def test_plaidml_opening_the_second_d500_is_a_mac_pro_2013():
    facts = facts_of('Using plaidml.keras.backend backend.\nINFO:plaidml:Opening device "metal_amd_radeon_hd_-_firepro_d500.1"\n'
                     '  File "/Users/test/plaidml-venv/lib/python2.7/site-packages/keras/engine/base_layer.py", line 457\n')
    assert [g.model for g in facts.gpus] == ["FirePro D500"] * 2 and facts.cpu.model == "MacPro6,1"
    assert facts.interpreter.version == "2.7"


def test_github_hosted_runner_clues():
    said = said_by("Process 4164 launched: '/Users/runner/hostedtoolcache/node/22.10.0/arm64/bin/node' (arm64)")
    assert ("hypervisor", "GitHub-hosted runner") in said and ("cpu.hardware_arch", "arm64") in said
    assert ("hypervisor", "GitHub-hosted runner") in said_by("a crash which only happens on macOS 14 in the hosted runner of GitHub Actions.")
    assert not any(f == "hypervisor" for f, _ in said_by("/Users/me/actions-runner/_work/_tool/node/22.10.0/arm64/bin/node"))


def test_an_mps_out_of_memory_error_is_torch_at_work_on_a_mac():
    facts = facts_of("RuntimeError: MPS backend out of memory (MPS allocated: 6.38 GB, other allocations: 454.09 MB, max allowed: "
                     "6.80 GB). Tried to allocate 20.00 KB on private pool.\n2,6 GHz 6-Core Intel Core i7\nRadeon Pro 560X 4 GB\n")
    assert facts.interpreter.machine == "x86_64"


def test_memory_written_decimal_or_used_of_total_and_iris_plus():
    assert ("cpu.memory_bytes", 8 * 1024**3) in said_by("i5-7360U CPU @ 2.30GHz (4 threads) - 8.00 GiB memory")
    assert ("cpu.memory_bytes", 8 * 1024**3) in said_by("- Memory: 5.23 GB / 8 GB (65%)")
    assert gpu_value("AMD Radeon Pro Vega 56 (8176 MB VRAM)")[0][1]["memory_mib"] == 8176
    facts = facts_of("### System information\n\nmacOS Ventura (13.7.8) - 1 monitor - integrated Intel(R) Iris(TM) Plus Graphics "
                     "640 - Intel(R) Core(TM) i5-7360U CPU @ 2.30GHz (4 threads) - 8.00 GiB memory\n")
    assert [g.model for g in facts.gpus] == ["Intel(R) Iris(TM) Plus Graphics 640"]


def test_a_plain_chip_with_its_memory_and_a_mac_with_its_os_x_version():
    facts = facts_of("about 110 seconds per step on my M2 with 16GB).\n")
    assert facts.cpu.brand == "Apple M2" and facts.cpu.memory_bytes == 16 * 1024**3
    facts = facts_of("Mac Pro 10.13.6\nNVIDIA Geoforce GTX 1080 T1\n")
    assert facts.platform == "darwin" and facts.os.version == "10.13.6"
    assert not said_by("MacBook Pro 16")  # a size, not a version


def test_uv_names_the_current_python_and_a_target_list_is_not_the_machine():
    said = said_by("╰─▶ The built wheel `x-1.0-cp312-cp312-macosx_14_0_arm64.whl` is not compatible with the current Python "
                   "3.12 on macOS aarch64")
    assert ("python.machine", "arm64") in said and ("python.minor", "3.12") in said
    assert not any(f in ("python.machine", "platform") for f, _ in said_by('    "osx-64", "osx-arm64",'))


def test_sdnext_platform_block_and_form_driver_keys():
    facts = facts_of("Apple Mac silicon\narch: arm64\ncpu: arm\nsystem: Darwin\nrelease: 22.4.0\npython: 3.10.9\n")
    assert facts.interpreter.machine == "arm64" and facts.interpreter.version == "3.10.9"
    facts = facts_of("### GPU model\n\nAMD Radeon RX 6700xt\n\n### Adrenalin driver version\n\n26.8.1\n\n### Windows version\n\n"
                     "Windows 10 22H2\n")
    assert facts.gpus[0].driver_version == "26.8.1"
    assert ("cpu.memory_bytes", 16 * 1024**3) in said_by("Hardware: MacBookPro17,1 @ 2.40 GHz (x 8), 16384 MB RAM")
