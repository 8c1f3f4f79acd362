"""Facts the inference step derives from partial pastes, each with its source: Windows' AMD64, a kernel
release naming its architecture, a Jetson's integrated GPU, no Rosetta on an Intel Mac, applegpuinfo's
core count, an eGPU macOS has no driver for, and a recommendation that fits once the Python is newer."""
import pytest

from macml.diagnose import run_checks
from macml.facts import UNNAMED_GPU
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.recipes import catalog
from macml.recipes import recommend

RECIPES = catalog.load_all()


def snapshot(platform, commands=None, interpreter=None):
    return {"macml_snapshot": 1, "platform": platform,
            "commands": {k: {"returncode": 0, "stdout": v, "stderr": ""} for k, v in (commands or {}).items()},
            "interpreter": interpreter or {}, "frameworks": {}, "env": {}}


@pytest.mark.parametrize("machine, arch", [("AMD64", "x86_64"), ("ARM64", "arm64"), ("x86_64", "x86_64")],
                         ids=["amd64", "arm64", "x86_64"])
def test_windows_machine_names_are_the_hardware_arch(machine, arch):
    facts = facts_from_snapshot(snapshot("win32", interpreter={"machine": machine, "version": "3.11.4"}))
    assert facts.cpu.hardware_arch == arch and machine in facts.sources["cpu.hardware_arch"]


def test_rocm_smi_driver_row_gives_the_kernel_arch():
    text = "device,Driver version\ncardsystem,4.18.0-348.12.2.el8_5.x86_64\n"
    facts = facts_from_snapshot(import_pastes([text]) | {"platform": "linux"})
    assert facts.cpu.hardware_arch == "x86_64"
    assert facts.sources["cpu.hardware_arch"] == "kernel release 4.18.0-348.12.2.el8_5.x86_64"


@pytest.mark.parametrize("brand, capability", [("Cortex-A78AE", "8.7"), ("ARMv8 Processor rev 1 (v8l)", None)],
                         ids=["orin", "unknown-generation"])
def test_l4t_kernel_means_a_jetson_gpu_and_no_generic_recipe(brand, capability):
    facts = facts_from_snapshot(snapshot("linux", {"uname -rm": "5.10.120-tegra aarch64\n",
                                                   "lscpu": f"Architecture: aarch64\nModel name: {brand}\n"}))
    [gpu] = facts.gpus
    assert gpu.vendor == "NVIDIA" and gpu.compute_capability == capability
    assert "5.10.120-tegra" in facts.sources["gpus.0"]
    assert recommend.recommendation(facts, RECIPES) is None


def test_no_tegra_gpu_without_an_l4t_kernel():
    facts = facts_from_snapshot(snapshot("linux", {"uname -rm": "6.8.0-45-generic aarch64\n",
                                                   "lscpu": "Architecture: aarch64\nModel name: Cortex-A78AE\n"}))
    assert facts.gpus == ()


def test_an_intel_mac_runs_no_rosetta():
    facts = facts_from_snapshot(import_pastes(["Darwin mbp 19.6.0 Darwin Kernel Version 19.6.0: "
                                               "root:xnu-6153.141.1~9/RELEASE_X86_64 x86_64\n"]))
    assert facts.cpu.apple_silicon is False and facts.rosetta is False


def test_applegpuinfo_gives_cores_and_memory():
    text = "GPU name: Apple M2 Pro\nGPU core count: 19\nGPU memory: 16 GB\nGPU family: Apple 8\n"
    snap = import_pastes([text])
    assert [e["shape"] for e in snap["evidence"]][0] == "applegpuinfo"
    facts = facts_from_snapshot(snap)
    assert [(g.model, g.cores) for g in facts.gpus] == [("Apple M2 Pro", 19)]
    assert facts.cpu.memory_bytes == 16 * 1024**3


def test_an_unnamed_egpu_has_no_driver():
    text = "  Type:\tExternal GPU\n  Bus:\tPCIe\n  Vendor:\tAMD (0x1002)\n  Device ID:\t0x699f\n"
    facts = facts_from_snapshot(import_pastes([text]))
    assert [(g.model, g.external) for g in facts.gpus] == [(UNNAMED_GPU, True)]
    assert not facts.has_metal_gpu
    best = recommend.recommendation(facts, RECIPES)
    assert best is None or best.recipe not in ("pytorch-mps", "plaidml-amd", "tensorflow-metal")
    egpu = {f.check: f for f in run_checks(facts, RECIPES)}["egpu"]
    assert egpu.level == "warn" and "no driver" in egpu.message


def test_an_old_python_gets_the_gpu_recipe_once_it_is_supported():
    facts = facts_from_snapshot(snapshot("linux", {
        "uname -rm": "5.15.0-107-generic x86_64\n",
        "nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader":
            "NVIDIA GeForce RTX 3090, 580.82.07, 24576 MiB, 8.6\n"},
        interpreter={"machine": "x86_64", "version": "3.7.9"}))
    best = recommend.recommendation(facts, RECIPES)
    assert best.recipe == "pytorch-cuda" and best.once.startswith("a supported Python (cp3")
    assert "driver" not in best.once
