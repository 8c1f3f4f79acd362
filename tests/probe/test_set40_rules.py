"""Readers and knowledge of the set-40 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.amd_gfx import instinct_target
from macml.knowledge.cpu_models import igpu_vectors
from macml.knowledge.hardware import nvidia_compute_capability
from paste_said import check_levels, facts_of, said_by


def test_a_ryzen_the_writer_runs_and_its_integrated_radeon():
    facts = facts_of("I am running a Ryzen 7 5800HS with integrated graphics.\nDevice: cuda:0 AMD Radeon Graphics : native\n")
    assert facts.cpu.brand == "AMD Ryzen 7 5800HS" and facts.gpus[0].compute_capability == "gfx90c"
    assert not [f for f, _ in said_by("Is a Ryzen 7 5800HS with integrated graphics any good?") if f == "cpu.brand"]


def test_a_host_field_and_a_bold_gpu_answer():
    text = ("- GPU: **NVIDIA RTX PRO 6000 Blackwell Workstation, 96 GB** (compute cap **sm_120**)\n"
            "- Host: x86_64, Linux 6.12 (Rocky 10), driver 610.43.02 / CUDA UMD 13.3, ~50 GB host RAM\n")
    facts = facts_of(text)
    assert facts.gpus[0].compute_capability == "12.0" and facts.cpu.hardware_arch == "x86_64"
    assert facts.os.name == "Rocky" and facts.gpus[0].driver_version == "610.43.02"
    assert facts.gpus[0].cuda_driver_version == "13.3"


def test_names_cut_or_suffixed_by_their_tools():
    assert nvidia_compute_capability("NVIDIA RTX PRO 4500 Blac...") == "12.0"
    assert nvidia_compute_capability("NVIDIA GeForce GTX 105...") == "6.1"  # the digits' completion, as before
    assert instinct_target("AMD Instinct MI300X VF") == "gfx942"
    facts = facts_of("GPU 0,1,2,3,4,5,6,7: AMD Instinct MI300X VF\nROCM available: True\n")
    assert len(facts.gpus) == 8 and facts.gpus[0].model == "AMD Instinct MI300X VF"
    assert facts.frameworks["torch"].data.get("cuda_available") is True


def test_driver_not_loaded_asahi_distro_and_an_os_version_field():
    line = ('docker: Error response from daemon: ... stderr: nvidia-container-cli: initialization error: nvml error: '
            'driver not loaded\\n\\"\\"": unknown.')
    assert check_levels("Ubuntu 18.04\n" + line + "\n")["nvidia_driver"] == "fail"
    assert facts_of("  Desktop: Hyprland v: 0.44.0 Distro: Fedora Linux Asahi Remix 40 (KDE\n").os.version == "40"
    facts = facts_of("Processor Type: Apple M2 Pro\nArchitecture Type: arm64\nOperating System Version: 13.3.0\n")
    assert facts.os.version == "13.3" and check_levels(
        "Processor Type: Apple M2 Pro\nOperating System Version: 13.3.0\n")["macos_version"] in ("warn", "fail")


def test_an_intel_igpu_names_its_cpus_generation():
    assert igpu_vectors(("Intel HD Graphics 4000",)).avx2 is False
    assert igpu_vectors(("Intel GMA 950",)).avx is False
    assert igpu_vectors(("Intel HD Graphics 4600",)) is None and igpu_vectors(("NVIDIA GeForce GT 650M",)) is None
    text = "OpenGL ES 3.0 Renderer: Intel HD Graphics 4000 OpenGL Engine\nCode Type:             X86-64 (Native)\n" \
           "macOS Catalina 10.15.7\n"
    assert check_levels(text)["cpu_features"] == "warn"


def test_placeholder_wheels_debug_and_prose_versions():
    text = ("      Python Version: CPython 3.10.18\n      Operating System: Darwin 24.3.0\n"
            "      CPU Architecture: arm64\n")
    facts = facts_of(text)
    assert facts.interpreter.machine == "arm64" and facts.rosetta is False
    assert ("package", {"name": "plaidml", "version": "0.3.5"}) in said_by("PlaidML version is 0.3.5. ")
    windows = facts_of("OS : Windows (11 10.0.26100 SP0 Multiprocessor Free)\n").os
    assert (windows.name, windows.version) == ("Windows", "11")
