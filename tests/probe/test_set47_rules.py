"""Readers and inferences of the set-47 fix round, on literal texts: what they read, and near misses that must not
fire."""
from paste_said import check_levels, facts_of, said_by


def test_an_easybuild_test_report_line_gives_os_cpu_gpus_and_python():
    text = ('jrc0850.jureca - Linux Rocky Linux 9.5 (Blue Onyx), x86_64, AMD EPYC 7443 24-Core Processor, 8 x AMD AMD '
            'Instinct MI250X / MI250 (model: 0x740c, driver:  "6.12.12"), Python 3.9.21\n')
    facts = facts_of(text)
    assert facts.platform == "linux" and (facts.os.name, facts.os.version) == ("Rocky Linux", "9.5")
    assert facts.cpu.hardware_arch == "x86_64"
    assert len(facts.gpus) == 8 and {g.vendor for g in facts.gpus} == {"AMD"} and facts.interpreter.version == "3.9.21"
    assert not [f for f, _ in said_by("node1 - Linux is what we run, mostly, Python 3.9.21") if f == "gpu"]


def test_nvidia_smi_topo_counts_unnamed_gpus_and_leaves_named_ones_alone():
    matrix = ("\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\n"
              "GPU0\t X \tPXB\tSYS\t0-27\t0\nGPU1\tPXB\t X \tSYS\t0-27\t0\nGPU2\tSYS\tSYS\t X \t28-55\t1\n")
    facts = facts_of(matrix)
    assert facts.platform == "linux" and len(facts.gpus) == 3 and {g.vendor for g in facts.gpus} == {"NVIDIA"}
    named = facts_of("GPU 0: NVIDIA A100-SXM4-80GB\nGPU 1: NVIDIA A100-SXM4-80GB\nGPU 2: NVIDIA A100-SXM4-80GB\n" + matrix)
    assert [g.model for g in named.gpus] == ["NVIDIA A100-SXM4-80GB"] * 3


def test_fastai_show_install_rows():
    text = ("torch         : 1.0.0\ntorch cuda    : 9.0.176 / is available\nnvidia gpus   : 1\n"
            "  - gpu0      : 11177MB | GeForce GTX 1080 Ti\n")
    facts = facts_of(text)
    assert facts.frameworks["torch"].data.get("cuda_available") is True
    assert facts.gpus[0].model.endswith("GeForce GTX 1080 Ti") and facts.gpus[0].memory_bytes == 11177 * 1024**2
    assert ("torch.cuda_available", False) in said_by("torch cuda    : 10.1 / is **Not available**")
    assert not [f for f, _ in said_by("gpu0 : is busy") if f == "gpu"]


def test_scooby_reports_fields_written_value_first_and_its_gpu_lines():
    text = ("             Linux : OS\n            x86_64 : Machine\n            7.7 GB : RAM\n"
            "        GPU Vendor : NVIDIA Corporation\n      GPU Renderer : GeForce GTX 960M/PCIe/SSE2\n"
            "       GPU Version : 4.5.0 NVIDIA 430.64\n")
    facts = facts_of(text)
    assert facts.platform == "linux" and round(facts.cpu.memory_bytes / 1024**3) == 8
    assert facts.gpus[0].model.endswith("GeForce GTX 960M") and facts.gpus[0].driver_version == "430.64"
    assert not said_by("this is not : OS")  # only scooby's own field names, value first


def test_nvtop_words_nvmls_version_mismatch_its_own_way():
    text = "Impossible to initialize nvidia nvml : Driver/library version mismatch\nI use a GTX 1650 on Linux Mint.\n"
    assert check_levels(text)["nvidia_driver"] in ("warn", "fail")


def test_strix_halos_radeon_keeps_its_s_and_a_plural_still_loses_its_s():
    assert [g.model for g in facts_of("### GPU\nAMD Radeon 8060s\n").gpus] == ["AMD Radeon 8060S"]
    assert [g.model for g in facts_of("I have two RTX 3090s in Linux.\n").gpus][0].endswith("RTX 3090")


def test_monai_print_config_names_the_distro():
    assert ("os.name", "Linux Mint 21.2") in said_by("Linux version: Linux Mint 21.2")


def test_a_release_name_with_os_and_version_and_an_installed_release():
    assert ("os.version", "10.15.4") in said_by("running Catalina OS 10.15.4")
    assert ("os.release", "10.13") in said_by("So. I updated the firmware and installed High Sierra, but now it hangs.")
    assert ("os.release", "10.13") not in said_by("Apple says High Sierra installed on few Macs.")


def test_a_nightly_torch_in_words_and_in_a_code_span():
    assert ("torch.version", "2.15.0.dev20260913") in said_by("(torch nightly `2.15.0.dev20260913`, Apple M1 8 GB)")
    facts = facts_of("Apple M1 8 GB, macOS 26.5.1, torch nightly `2.15.0.dev20260913`\n")
    assert facts.interpreter.machine == "arm64"  # no x86_64 macOS torch wheel after 2.2.2


def test_about_this_macs_version_line_beside_its_chip():
    assert facts_of("## System info\nApple M2 max\nVersion 13.5.2\n").os.version == "13.5.2"
    assert facts_of("## App\nVersion 13.5.2\nIt crashes on start.\n").os.version != "13.5.2"  # an app's version alone


def test_taichi_starting_on_cuda_means_an_nvidia_gpu():
    assert ("gpu.present", "NVIDIA") in said_by("[Taichi] Starting on arch=cuda")
    assert ("gpu.present", "NVIDIA") not in said_by("[Taichi] Starting on arch=x64")


def test_a_typed_tier_slip_a_year_inside_a_spec_list_and_a_fuller_package_version():
    facts = facts_of("Mac Studio M2 Ultral 192G, llama2\n")
    assert facts.cpu.chip.name == "Apple M2 Ultra" and facts.cpu.memory_bytes == 192 * 1024**3
    assert ("cpu.memory_bytes", 16 * 1024**3) in said_by('MacBook 13", M1, 2020, 16GB with Apple Silicon')
    facts = facts_of("- [Tensorflow=2.14](https://www.tensorflow.org)\nmacOS 14.7\nTensor Flow Version: 2.14.0\n")
    assert facts.interpreter.packages.get("tensorflow") == "2.14.0"


def test_darwins_x86_feature_sysctls_name_macos_only():
    assert said_by("hw.optional.avx512f: 1") == [("platform", "darwin")]
    assert not said_by("hw.optional.avx512f: maybe")


def test_a_gpu_name_in_brackets():
    assert [g.model for g in facts_of("On g7e instances (RTX PRO 6000 Blackwell) the GPU does not work\n").gpus] == [
        "RTX PRO 6000 Blackwell"]
