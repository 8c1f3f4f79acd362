"""Readers and inferences of the set-52 fix round, on literal texts: what they read, and near misses that must not
fire."""
from paste_said import facts_of, said_by

from macml.knowledge.macos import macos_for_darwin
from macml.knowledge.nvidia_branches import driver_cuda_version
from macml.probe.linux import parse_nvidia_smi
from macml.probe.paste.gpu_names import gpu_names, gpu_record


def test_a_macos_guest_named_by_its_hypervisor():
    facts = facts_of("* Python: 3.11.2\n* OS: mac OS 13 (VMware Workstation 17 Pro)\n")
    assert facts.vm is True and facts.hypervisor == "VMware Workstation" and facts.cpu.hardware_arch == "x86_64"
    kvm = facts_of("macOS 10.15.7\narchitecture x86_64\nNote: it is running inside a KVM, but every native mac program works\n")
    assert kvm.vm is True
    assert not [f for f, _ in said_by("Would it work if it is running inside a KVM?") if f == "hypervisor"]


def test_a_task_done_on_an_apple_chip():
    facts = facts_of("I attach my instructions for installing `keras` and `tensorflow` on M1, along with a transcript.\n")
    assert facts.cpu.chip.name == "Apple M1"
    # 'both the github and cran versions' is not two Macs
    assert facts_of("I tried both the github and cran versions. Running it on M1.\n").cpu.apple_silicon is True
    assert not facts_of("I tried both my macbooks, running it on M1.\n").cpu.chip


def test_unified_memory_said_as_vram_on_an_arm_mac():
    facts = facts_of("- GPU: mps\n- VRAM: unified 128G\n- CPU arch: arm\n- OS: macOS VENTURA\n")
    assert facts.cpu.memory_bytes == 128 * 1024**3


def test_radeon_names_around_slashes_and_workstation_cards():
    assert gpu_names("on my Intel iMac / AMD Radeon Pro 570X / macOS 15.7.4.") == ["AMD Radeon Pro 570X"]
    assert gpu_names("AMD Radeon W6800X Duo 32GB") == ["AMD Radeon W6800X Duo"]
    assert gpu_names("AMD Radeon W7900 48GB") == ["AMD Radeon W7900"]
    lspci = "product: Strix Halo [Radeon Graphics / Radeon 8050S Graphics / Radeon 8060S Graphics]"
    assert "Radeon 8060S" in " ".join(gpu_names(lspci))  # lspci's list of names stays one
    assert gpu_record("AMD Radeon R9 M370X Compute Engine")[1]["name"] == "AMD Radeon R9 M370X"


def test_tensorflow_1_device_memory_and_llama_cpp_vram():
    text = ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:989] Found device 0 with properties:\n"
            "name: AMD Radeon R9 M370X Compute Engine\nmajor: -1 minor: -1 memoryClockRate (GHz) 800\n"
            "Total memory: 2.00GiB\nFree memory: 512.00MiB\n")
    assert [(g.model, g.memory_bytes) for g in facts_of(text).gpus] == [("AMD Radeon R9 M370X", 2 * 1024**3)]
    llama = facts_of("  Device 0: NVIDIA GeForce GTX 1080 Ti, compute capability 6.1, VMM: yes, VRAM: 11172 MiB\n")
    assert llama.gpus[0].memory_bytes == 11172 * 1024**2


def test_old_nvidia_smi_prints_mb():
    row = "|   0  GeForce GTX TITAN   Off  | 0000:03:00.0     N/A |                  N/A |\n"
    usage = "| 31%   44C  N/A     N/A /  N/A |       14MB /  6143MB |     N/A      Default |\n"
    _, _, gpus = parse_nvidia_smi("| NVIDIA-SMI 5.325.15   Driver Version: 325.15         |\n" + row + usage)
    assert gpus == [("GeForce GTX TITAN", 6143 * 1024**2)]


def test_darwin_14_minors_and_old_driver_branches():
    assert macos_for_darwin("14.4.0")[0] == "10.10.4" and macos_for_darwin("14.0.0")[0] == "10.10"
    assert macos_for_darwin("13.4.0")[0] == "10.9"  # 13.4.0 was both 10.9.4 and 10.9.5
    assert driver_cuda_version("384.111") == "9.0" and driver_cuda_version("390.42") is None


def test_macos_gl_driver_strings_name_the_gpu_maker():
    assert ("gpu.present", "Intel") in said_by("GL version:  '2.1 INTEL-10.6.31'")
    assert ("gpu.present", "AMD") in said_by("OpenGL version: 4.1 ATI-3.9.15")
    assert not [f for f, _ in said_by("OpenGL version string: 4.6 (Compatibility Profile) Mesa 22.2.1") if f == "gpu.present"
                and _ == "Intel"]


def test_easybuild_nvidia_report_and_a_system_sentence():
    line = ("jrc0901.jureca - Linux Rocky Linux 9.6, AArch64, ARM UNKNOWN (neoverse_v2), 1 x NVIDIA NVIDIA GH200 480GB, "
            "580.95.05, Python 3.9.21\n")
    facts = facts_of(line)
    assert facts.cpu.hardware_arch == "aarch64" and [g.model for g in facts.gpus] == ["NVIDIA GH200 480GB"]
    assert facts.gpus[0].driver_version == "580.95.05" and facts.gpus[0].cuda_driver_version == "13.0"
    ubuntu = facts_of("My system is Ubuntu 16.04 ,NVIDIA driver 384.111 cuda9.1 and GTX 1080 ti.\n").os
    assert (ubuntu.name, ubuntu.version) == ("Ubuntu", "16.04")
    assert not [f for f, _ in said_by("my system is slow") if f.startswith("os")]


def test_torch_in_a_remarked_table_cell_and_in_chinese():
    row = "| PyTorch (for the dispatch check only) | `2.10.0+rocm7.2.4` |"
    facts = facts_of("| | |\n|---|---|\n" + row + "\n")
    assert facts.package("torch") == "2.10.0+rocm7.2.4" and facts.cpu.hardware_arch == "x86_64"
    chinese = facts_of("问题看起来是由于docker镜像内的torch版本为2.6.0，需要升级到2.7才能支持Blackwell\n")  # (CJK spaced apart)
    assert chinese.package("torch") == "2.6.0"


def test_arch_kernels_rocm_images_and_coreinfo():
    assert ("cpu.hardware_arch", "x86_64") in said_by("OpenGL renderer string: NAVI22 (navi22, LLVM 14.0.6, DRM 3.48, 6.0.1-arch2-1)")
    assert not [f for f, _ in said_by("uname -r: 5.15.0-1-ARCH") if f == "cpu.hardware_arch"]  # Arch Linux ARM's
    image = facts_of("docker run --rm -i rocm/pytorch:rocm5.1.1_ubuntu20.04_py3.7_pytorch_1.10.0 python\n")
    assert image.cpu.hardware_arch == "x86_64"
    assert ("hypervisor.none", True) in said_by("HYPERVISOR      -       Hypervisor is present")
    assert ("hypervisor.none", True) not in said_by("HYPERVISOR      *       Hypervisor is present")


def test_ultralytics_banner_cut_after_a_cpu_torch_and_memory_as_g_ram():
    facts = facts_of("Ultralytics YOLOv8.2.54 🚀 Python-3.9.13 torch-2.2.0+cpu \n")
    assert facts.package("torch") == "2.2.0+cpu" and facts.frameworks["torch"].data["cuda_available"] is False
    assert facts_of("Ran the bench mark on my M3 Ultra 60 core GPU chip, 96G ram.\n").cpu.memory_bytes == 96 * 1024**3
