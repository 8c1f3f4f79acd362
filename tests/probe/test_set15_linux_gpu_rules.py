"""Set 15's Linux GPU readers: rocm-smi --json and amd-smi static name Linux; a Proxmox kernel; an integrated
Radeon's gfx target by its name; a pci.ids family name kept whole; a Jetson named bare is NVIDIA's; torch's
CUDA answer in prose or a heading; an NVIDIA/AMD/Intel GPU on Linux or Windows is not Apple silicon."""
from __future__ import annotations

from macml.facts import GPU, CPUFacts, MachineFacts, OSFacts
from macml.knowledge.amd_apus import igpu_gfx
from macml.probe.infer_silicon import gpus_not_apple_silicon
from macml.probe.paste import amd_tool_rules, python_prose_rules
from macml.probe.paste.gpu_names import gpu_value, gpu_vendor
from macml.probe.paste.statements import read_statements


def _facts(*lines: str):
    return [(s.fact, s.value) for s in read_statements(list(lines))]


def test_rocm_smi_json_keys_name_linux():
    assert ("platform", "linux") in _facts('    "Temperature (Sensor edge) (C)": "46.0",')
    assert ("platform", "linux") in _facts('    "Current Socket Graphics Package Power (W)": "7.222",')
    assert amd_tool_rules.rocm_smi_key("temperature (c)", "46.0") == []


def test_amd_smi_driver_name_and_proxmox_kernel_name_linux():
    assert ("platform", "linux") in _facts("        NAME: amdgpu")
    assert amd_tool_rules.driver_name("name", "Alice") == []
    assert ("platform", "linux") in _facts("        VERSION: 7.0.14-17-pve")
    assert amd_tool_rules.pve_kernel("version 7.0.14") == []


def test_integrated_radeon_named_gives_its_gfx_target():
    assert igpu_gfx("Radeon 780M") == "gfx1103"
    assert igpu_gfx("AMD Radeon 890M") == "gfx1150"
    assert igpu_gfx("Radeon RX 7800 XT") is None
    assert ("gpu.gfx", "gfx1103") in _facts("From my Radeon 780M")
    assert amd_tool_rules.igpu_target("faster than the Radeon 780M") == []


def test_integrated_radeon_only_mentioned_gives_no_gfx_target():
    assert amd_tool_rules.igpu_target("The Radeon 780M is not supported by ROCm, but my 7900 XTX should be") == []
    assert ("gpu.gfx", "gfx1103") not in _facts("OS: Ubuntu 22.04", "GPU: AMD Radeon RX 7900 XTX",
                                                "The Radeon 780M is not supported by ROCm, but my 7900 XTX should be")
    assert amd_tool_rules.igpu_target("Is the Radeon 780M supported?") == []
    assert amd_tool_rules.igpu_target("My laptop has a Radeon 680M but I use the RTX 3060") == []
    assert amd_tool_rules.igpu_target("AMD Radeon 780M is unsupported") == []
    assert igpu_gfx("Radeon 610M") is None  # gfx1036 in Raphael, gfx1037 in Mendocino (Ryzen 7520U)
    assert amd_tool_rules.igpu_target("- GPU: Radeon 890M (gfx1150)") == [("gpu.gfx", "gfx1150")]
    assert amd_tool_rules.igpu_target("AMD RYZEN AI MAX+ 395 w/ Radeon 8060S") == [("gpu.gfx", "gfx1151")]


def test_family_name_is_kept_whole_not_its_first_card():
    facts = gpu_value("Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]")
    assert facts[0][1]["name"] == "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]"
    assert facts[0][1]["vendor"] == "AMD"
    assert gpu_value("AMD Radeon RX 7900 XTX")[0][1]["name"] == "AMD Radeon RX 7900 XTX"


def test_a_jetson_is_nvidia():
    assert gpu_vendor("jetson nano") == "NVIDIA"


def test_cuda_available_answer_in_prose_and_heading():
    assert ("torch.cuda_available", False) in python_prose_rules.torch_said(
        "I installed torch on my board, but cuda.is_available() returns false")
    assert ("torch.cuda_available", False) in _facts("# Cuda available: False, in my board")
    assert ("torch.cuda_available", True) in python_prose_rules.torch_said("CUDA available: True")
    assert python_prose_rules.torch_said("check whether cuda is available") == []


def _machine(platform: str, gpus, apple_silicon=None) -> MachineFacts:
    return MachineFacts(platform=platform, os=OSFacts(system="", name="", version=""),
                        cpu=CPUFacts(brand="", hardware_arch="unknown", apple_silicon=apple_silicon), gpus=tuple(gpus))


def test_a_pc_gpu_on_linux_is_not_apple_silicon():
    nvidia = GPU(vendor="NVIDIA", model="NVIDIA RTX A4000")
    assert gpus_not_apple_silicon(_machine("linux", [nvidia]), {}).cpu.apple_silicon is False
    assert gpus_not_apple_silicon(_machine("linux", []), {}).cpu.apple_silicon is None
    assert gpus_not_apple_silicon(_machine("darwin", [nvidia]), {}).cpu.apple_silicon is None
