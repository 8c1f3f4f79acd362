"""The machines of the 2026-12-02 audit, each with the exact row it must get or the exact reason it gets none."""
from __future__ import annotations

from typing import Optional

import pytest

from macml.facts import GPU, AppleChip, CPUFacts, InterpreterFacts, MachineFacts, OSFacts
from macml.recipes import catalog
from macml.recipes import recommend


def _interp(python: str, machine: str) -> InterpreterFacts:
    return InterpreterFacts(executable="/v/bin/python", version=python, implementation="cpython", machine=machine,
                            prefix="/v", base_prefix="/usr")


def nvidia(model: str, capability: str, driver: str, python: str = "3.12.4", machine: str = "x86_64",
           platform: str = "linux") -> MachineFacts:
    system = {"linux": "Linux", "win32": "Windows"}[platform]
    return MachineFacts(platform=platform, os=OSFacts(system=system, name=system, version="24.04"),
                        cpu=CPUFacts(brand="cpu", hardware_arch=machine),
                        gpus=(GPU(vendor="NVIDIA", model=model, compute_capability=capability, driver_version=driver),),
                        interpreter=_interp(python, "AMD64" if platform == "win32" else machine))


def mac(macos: str, python: str, chip: str = "Apple M2 Pro") -> MachineFacts:
    virtual = "(Virtual)" in chip
    return MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version=macos),
                        cpu=CPUFacts(brand=chip, hardware_arch="arm64", apple_silicon=True,
                                     chip=AppleChip(name=chip, family="M2", generation=2, tier="Pro", virtual=virtual)),
                        gpus=(GPU(vendor="Apple", model=chip, metal="Metal 3"),), interpreter=_interp(python, "arm64"))


def amd(gfx: Optional[str]) -> MachineFacts:
    return MachineFacts(platform="linux", os=OSFacts(system="Linux", name="Ubuntu", version="24.04"),
                        cpu=CPUFacts(brand="cpu", hardware_arch="x86_64"),
                        gpus=(GPU(vendor="AMD", model="Radeon", compute_capability=gfx),),
                        interpreter=_interp("3.12.4", "x86_64"))


V100, A100, RTX3090, RTX5090, T4, GH200, RTX4090 = (
    ("Tesla V100-SXM2-16GB", "7.0"), ("NVIDIA A100-SXM4-80GB", "8.0"), ("NVIDIA GeForce RTX 3090", "8.6"),
    ("NVIDIA GeForce RTX 5090", "12.0"), ("Tesla T4", "7.5"), ("NVIDIA GH200 480GB", "9.0"),
    ("NVIDIA GeForce RTX 4090", "8.9"))

# (id, facts, recipe, the exact row label it gets, or None and a phrase of the reason)
CASES = [
    ("v100-on-580", nvidia(*V100, "580.95.05"), "pytorch-cuda",
     "torch 2.14.1 + CUDA 12.6 (the last 12.x release: Maxwell..Hopper, drivers >= 525.60)", None),
    ("v100-on-580-python-3.9", nvidia(*V100, "580.95.05", python="3.9.18"), "pytorch-cuda",
     "torch 2.8.0 + CUDA 12.8 (Python 3.9: the last cp39 release; Volta..Blackwell)", None),
    ("v100-on-580-python-3.15", nvidia(*V100, "580.95.05", python="3.15.0"), "pytorch-cuda", None,
     "Tesla V100-SXM2-16GB (sm_70) is outside this build's compute capability >=7.5"),
    ("a100-on-535", nvidia(*A100, "535.247.01"), "pytorch-cuda",
     "torch 2.14.1 + CUDA 12.6 (the last 12.x release: Maxwell..Hopper, drivers >= 525.60)", None),
    ("rtx3090-on-470", nvidia(*RTX3090, "470.256.02"), "pytorch-cuda",
     "torch 2.7.1 + CUDA 11.8 (drivers 450.80-524, through CUDA 11 minor-version compatibility)", None),
    ("rtx3090-on-580-python-3.9", nvidia(*RTX3090, "580.95.05", python="3.9.18"), "pytorch-cuda",
     "torch 2.8.0 + CUDA 12.8 (Python 3.9: the last cp39 release; Volta..Blackwell)", None),
    ("rtx5090-on-570", nvidia(*RTX5090, "570.133.07"), "pytorch-cuda",
     "torch 2.11.0 + CUDA 12.8 (drivers 570-579: Turing..Blackwell)", None),
    ("rtx5090-on-565", nvidia(*RTX5090, "565.57.01"), "pytorch-cuda", None,
     "NVIDIA GeForce RTX 5090 (sm_120) is outside this build's compute capability"),
    ("t4-on-aarch64", nvidia(*T4, "580.95.05", machine="aarch64"), "pytorch-cuda", None,
     "Tesla T4 (sm_75) is outside this build's compute capability >=8.0"),
    ("gh200-on-580", nvidia(*GH200, "580.95.05", machine="aarch64"), "pytorch-cuda",
     "torch 2.15.0 + CUDA 13.2 (the PyPI wheel; Linux aarch64)", None),
    ("gh200-on-570", nvidia(*GH200, "570.133.20", machine="aarch64"), "pytorch-cuda",
     "torch 2.11.0 + CUDA 12.8 (Linux aarch64, drivers 570-579)", None),
    ("gh200-on-550", nvidia(*GH200, "550.163.01", machine="aarch64"), "pytorch-cuda",
     "torch 2.14.1 + CUDA 12.6 (Linux aarch64, drivers 525-569: sm_80/sm_90)", None),
    ("windows-rtx4090", nvidia(*RTX4090, "581.57", platform="win32"), "pytorch-cuda",
     "torch 2.14.1 + CUDA 13.0 (Windows)", None),
    ("windows-rtx4090-cpu", nvidia(*RTX4090, "581.57", platform="win32"), "pytorch-cpu",
     "torch 2.15.0 CPU build (Windows)", None),
    ("macos-13-python-3.13-mps", mac("13.6.7", "3.13.1"), "pytorch-mps",
     "torch 2.8.0 (macOS 13, arm64: the last release with MPS on Ventura)", None),
    ("macos-13-python-3.13-mlx", mac("13.6.7", "3.13.1"), "mlx",
     "mlx 0.29.3 (macOS 13.5+: the last release with macOS 13 wheels)", None),
    ("macos-13.4-mlx", mac("13.4", "3.12.1"), "mlx", None, "needs macOS 13.5 or newer; this is macOS 13.4"),
    ("macos-15-python-3.9-mps", mac("15.3", "3.9.6"), "pytorch-mps",
     "torch 2.8.0 (macOS 14+, arm64, Python 3.9: the last cp39 release)", None),
    ("macos-15-python-3.9-mlx", mac("15.3", "3.9.6"), "mlx", "mlx 0.29.3 (macOS 14+, Python 3.9: the last cp39 release)", None),
    ("macos-15-python-3.9-cpu", mac("15.3", "3.9.6"), "pytorch-cpu",
     "torch 2.8.0 (macOS arm64, Python 3.9: the last cp39 release)", None),
    ("macos-26-python-3.14-mps", mac("26.1", "3.14.0"), "pytorch-mps", "torch 2.15.0 (macOS 14+, arm64)", None),
    ("macos-26-python-3.15-mps", mac("26.1", "3.15.0"), "pytorch-mps", "torch 2.15.0 (macOS 14+, arm64)", None),
    ("macos-26-python-3.15-mlx", mac("26.1", "3.15.0"), "mlx", "mlx 0.32.4 (macOS 14+)", None),
    ("macos-26-jax-metal", mac("26.1", "3.12.1"), "jax-metal", None, "for macOS older than 26.0; this is macOS 26.1"),
    ("macos-15-jax-metal", mac("15.3", "3.12.1"), "jax-metal",
     "jax 0.4.34 + jaxlib 0.4.34 + jax-metal 0.1.1 (Apple's tested set)", None),
    ("macos-26-python-3.15-tensorflow", mac("26.1", "3.15.0"), "tensorflow-metal", None, "no wheel for Python 3.15"),
    ("apple-silicon-vm-mps", mac("15.3", "3.12.1", chip="Apple M4 Max (Virtual)"), "pytorch-mps", None,
     "not for virtual machines (Apple M4 Max (Virtual))"),
    ("apple-silicon-vm-mlx", mac("15.3", "3.12.1", chip="Apple M4 Max (Virtual)"), "mlx", None, "not for virtual machines"),
    ("rocm-gfx1100", amd("gfx1100"), "pytorch-rocm", "torch 2.13.0 + ROCm 7.2", None),
    ("rocm-gfx-unknown", amd(None), "pytorch-rocm", "torch 2.13.0 + ROCm 7.2", None),
    ("rocm-gfx803", amd("gfx803"), "pytorch-rocm", None, "Radeon (gfx803) is not supported by PyTorch's ROCm 7.2 wheels"),
    ("rocm-gfx900", amd("gfx900"), "pytorch-rocm", None, "Radeon (gfx900) is not supported"),
]


@pytest.mark.parametrize("facts, recipe, label, reason", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_machine_gets_exactly_this_row(facts, recipe, label, reason):
    found = catalog.match(catalog.find_recipe(recipe, catalog.load_all()), facts)
    if label is not None:
        assert found.ok, found.reasons
        assert found.pin_label == label
    else:
        assert not found.ok, found.pin_label
        assert reason in "; ".join(found.reasons)


@pytest.mark.parametrize("facts, best", [
    (nvidia(*RTX4090, "581.57", platform="win32"), "pytorch-cuda"),
    (nvidia(*T4, "580.95.05", machine="aarch64"), None),  # no aarch64 CUDA build covers sm_75
    (mac("15.3", "3.12.1", chip="Apple M4 Max (Virtual)"), "pytorch-cpu"),  # no Metal inside a VM
    # no ROCm build runs on gfx803: like a Kepler card, the Radeon is the machine's GPU and the CPU is what runs
    (amd("gfx803"), "pytorch-cpu"),
], ids=["windows-nvidia", "t4-aarch64", "apple-vm", "rocm-gfx803"])
def test_recommendation_where_the_gpu_recipe_does_not_fit(facts, best):
    """A GPU no current build of any version covers gets the CPU build (a Kepler card, a gfx803 Radeon); one that only
    this machine's setup keeps out (a T4 on aarch64, a driver) gets no recommendation: the reasons say why."""
    found = recommend.recommend(facts)
    assert (found.recipe if found else None) == best
    if best is None:
        assert catalog.match(catalog.find_recipe(recommend.preference(facts)[0], catalog.load_all()), facts).reasons


def test_vm_unknown_is_not_a_refusal():
    facts = mac("15.3", "3.12.1")
    facts = MachineFacts(platform=facts.platform, os=facts.os, cpu=CPUFacts(brand="Apple M2", hardware_arch="arm64",
                                                                           apple_silicon=True),
                         gpus=facts.gpus, interpreter=facts.interpreter)
    assert catalog.match(catalog.find_recipe("pytorch-mps", catalog.load_all()), facts).ok
