"""Readers and inferences of the set-45 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.amd_gfx import radeon_target
from macml.knowledge.hardware import nvidia_compute_capability
from macml.knowledge.torch_family import mismatched_companion
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_a_fermi_notebook_part_and_the_rx_vega_cards():
    assert nvidia_compute_capability("GeForce 410M") == "2.1"
    text = '<driver_version>390.157</driver_version>\n<product_name>GeForce 410M</product_name>\n'
    assert check_levels(text)["gpu_generation"] in ("warn", "fail") and recommended_for(text) != "pytorch-cuda"
    assert radeon_target("Vega 64") == radeon_target("Radeon RX Vega 56") == "gfx900"
    vega = facts_of("I am running a Vega 64 on a Threadripper 1950X with ROCm 4.3.1:\n")
    assert [g.model for g in vega.gpus] == ["Vega 64"]
    assert check_levels("I am running a Vega 64 on Ubuntu 20.04\n")["rocm_target"] == "warn"


def test_a_parts_list_joined_with_plus_signs_and_a_ryzen_by_its_number():
    facts = facts_of("My hardware is: RTX3090+AMD 3900X+128G RAM\n")
    assert [g.model for g in facts.gpus] == ["RTX3090"] and facts.cpu.memory_bytes == 128 * 1024**3
    assert facts.cpu.brand == "AMD Ryzen 9 3900X" and facts.cpu.hardware_arch == "x86_64"
    assert not [v for f, v in said_by("AMD 5700XT 8go VRAM") if f == "cpu.brand"]  # a Radeon, not a Ryzen
    assert ("python.minor", "3.8") in said_by("The software is: driver 455.23.05, pytorch 1.7 , python 3.8 on debian 10.")
    assert not [f for f, _ in said_by("python 3.8 is required") if f.startswith("python.")]


def test_docker_desktops_vm_gets_no_gpu():
    text = ">>> platform.platform()\n'Linux-5.15.49-linuxkit-aarch64-with-glibc2.29'\n"
    facts = facts_of(text)
    assert facts.vm is True and set(facts.gpus_ruled_out) == {"NVIDIA", "AMD"}
    assert check_levels(text)["virtual_machine"] == "warn" and recommended_for(text) != "pytorch-cuda"
    assert facts_of("Linux-5.15.49-generic-x86_64-with-glibc2.35\n").vm is not True


def test_lscpu_vulnerability_rows_and_full_width_colons():
    assert facts_of("Vulnerability Srbds:                Not affected\n").platform == "linux"
    assert facts_of("Name：                          Intel(R) Xeon(R) Silver 4214R CPU @ 2.40GHz\n").cpu.brand.startswith("Intel")
    chinese = facts_of("机型：MacBook Pro\n芯片：m1 pro\n内存：16g\n")
    assert chinese.cpu.memory_bytes == 16 * 1024**3 and chinese.cpu.chip.name == "Apple M1 Pro"


def test_an_import_that_dies_or_raises_through_the_package():
    crash = ">>> import tensorflow as tf\nIllegal instruction: 4\n"
    assert ("framework.import_failed" in [f for f, _ in _said_text(crash)])
    assert "framework.import_failed" not in [f for f, _ in _said_text(">>> import os\nIllegal instruction: 4\n")]
    raised = ('Traceback (most recent call last):\n  File "/usr/local/lib/python3.8/dist-packages/torch/__init__.py", '
              'line 191, in <module>\n    _load_global_deps()\nOSError: libcufft.so.10: cannot open shared object file\n')
    assert check_levels(raised)["torch_build"] == "fail"


def _said_text(text):
    from macml.probe.paste.statements import read_statements
    return [(s.fact, s.value) for s in read_statements(text.splitlines())]


def test_same_day_nightlies_agree_and_other_releases_do_not():
    assert mismatched_companion("2.7.0.dev20250131", "torchaudio", "2.6.0.dev20250131") is None
    assert mismatched_companion("2.7.0", "torchaudio", "2.6.0") is not None


def test_memory_a_program_takes_is_not_the_macs_and_a_bare_size_beside_a_chip_is():
    line = ("When trying this out on a Macbook Pro M3 Max with 48GB and 40 cores the application allocates 70GB of RAM "
            "(around 38GB of this is SWAP).")
    assert {v for f, v in said_by(line) if f == "cpu.memory_bytes"} == {48 * 1024**3}
    assert facts_of("llama-cpp-python         0.1.67\nM2 Pro\n16 GB\nMacosx\n").cpu.memory_bytes == 16 * 1024**3
    assert facts_of("M2 Pro\n12 GB\n").cpu.memory_bytes is None  # no M2 Pro was sold with 12 GB
    assert facts_of("# [Apple M2 mps with 16G RAM] error\nOS: Mac os 14.4\n").os.version == "14.4"


def test_a_forms_floor_is_not_the_machine_and_a_model_identifier_decides():
    facts = facts_of("### Processor\n\nM1 Max (or later)\n\n### Memory\n\n64GB (or higher)\n"
                     '"modelCode" : "Mac14,5",\n')
    assert facts.cpu.chip.name == "Apple M2 Max"


def test_vms_named_by_the_writer_and_by_the_guests_gpu():
    assert facts_of("If i run plaidml-setup inside a Mac OS 10.11.5 (el capitan) VM with AMD kernel\n").vm is True
    assert facts_of("The docs say to test inside a VM first.\n").vm is not True
    assert facts_of("- macOS 26.3 ARM64 (Apple paravirtual GPU)\n- Python 3.10\n").vm is True
    assert facts_of("amd phenom ii x6 1055t Processor\n").cpu.brand == "AMD Phenom II X6 1055T"


def test_struct_fields_env_paths_wheels_cuda_dylibs_and_a_wrapped_msc_banner():
    bevy = facts_of('INFO SystemInfo { os: "MacOS 12.7 ", kernel: "21.6.0", cpu: "Intel(R) Core(TM) i7-4770HQ CPU @ '
                    '2.20GHz", core_count: "4", memory: "16.0 GiB" }\n')
    assert bevy.cpu.memory_bytes == 16 * 1024**3 and bevy.os.version == "12.7"
    assert ("python.minor", "3.13") in said_by("/opt/homebrew/Caskroom/miniconda/base/envs/comfyui/lib/python3.13/"
                                               "multiprocessing/resource_tracker.py:277: UserWarning")
    assert not [f for f, _ in said_by("/usr/lib/python3.8/ctypes/__init__.py") if f.startswith("python.")]
    wheel = said_by("I tried using this build tensorflow-1.12.0-cp36-cp36m-macosx_10_12_x86_64.whl and it failed")
    assert ("package", {"name": "tensorflow", "version": "1.12.0"}) in wheel
    assert ("platform", "darwin") in said_by("Successfully opened dynamic library libcudart.10.0.dylib")
    banner = facts_of("INFO Python version is 3.10.11 (tags/v3.10.11:7d4cc5a) [MSC v.1929 64 bit\n"
                      "                         (AMD64)]\n")
    assert banner.platform == "win32" and banner.interpreter.machine == "x86_64"
    assert ("package", {"name": "py-cpuinfo", "version": "7.0.0"}) in said_by("* Version of py-cpuinfo: 7.0.0")
    assert ("torch.cuda_available", True) in said_by("device         : 1 gpu (['GeForce RTX 3090'])")
