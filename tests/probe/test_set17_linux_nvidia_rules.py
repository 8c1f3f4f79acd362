"""Set 17's Linux/NVIDIA rules (knowledge/nvidia_branches + probe/infer_driver_cuda: a driver version fixes the CUDA
version its branch supports; ollama_gpu_id_rules: Ollama's device lines count cards by id; nvidia_renderer_arch_rules:
NVIDIA's '/PCIe/SSE2' renderer with a 64-bit-only driver is an x86_64 machine), fed literal lines."""
import dataclasses

from macml.facts import GPU
from macml.knowledge.nvidia_branches import driver_cuda_version
from macml.probe.collect import facts_from_snapshot
from macml.probe.infer_driver_cuda import cuda_from_driver_branch
from macml.probe.paste import import_pastes
from macml.probe.paste import nvidia_renderer_arch_rules as renderer
from macml.probe.paste import ollama_gpu_id_rules as ollama


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def test_driver_branch_cuda_versions():
    assert driver_cuda_version("535.161.08") == "12.2"
    assert driver_cuda_version("550.90.07") == "12.4"
    assert driver_cuda_version("570.144") == "12.8"
    assert driver_cuda_version("470.82.01") == "11.4"
    assert driver_cuda_version("430.40") is None  # R430 printed 10.1 and 10.2
    assert driver_cuda_version("537.58") is None  # a Windows number of R535: not looked up
    assert driver_cuda_version("31.0.15.5161") is None  # Windows' own scheme
    assert driver_cuda_version("5.18.2.22.40") is None  # an amdgpu DKMS version
    assert driver_cuda_version("") is None


def test_driver_branch_fills_only_unknown_nvidia():
    sources = {}
    nvidia = GPU(vendor="NVIDIA", model="NVIDIA H100 PCIe", driver_version="535.161.08")
    assert cuda_from_driver_branch((nvidia,), sources)[0].cuda_driver_version == "12.2"
    assert "535.161.08" in sources["gpus.0.cuda_driver_version"]
    printed = dataclasses.replace(nvidia, cuda_driver_version="12.3")  # nvidia-smi's header wins
    assert cuda_from_driver_branch((printed,), {})[0].cuda_driver_version == "12.3"
    amd = GPU(vendor="AMD", model="AMD Radeon RX 7900 XTX", driver_version="550.10.01")
    assert cuda_from_driver_branch((amd,), {})[0].cuda_driver_version is None
    assert cuda_from_driver_branch((GPU(vendor="NVIDIA", model="NVIDIA GeForce RTX 3090"),), {})[0].cuda_driver_version is None


def test_collect_env_driver_gives_cuda_version():
    text = "\n".join([
        "OS: Ubuntu 22.04.3 LTS (x86_64)",
        "Is CUDA available: True",
        "CUDA runtime version: 12.2.140",
        "GPU models and configuration:",
        "GPU 0: NVIDIA H100 80GB HBM3",
        "Nvidia driver version: 550.90.07",
    ])
    assert {g.cuda_driver_version for g in _facts(text).gpus} == {"12.4"}  # not the 12.2 toolkit


_LINE = ('time=2024-08-24T22:31:54.037Z level=DEBUG source=gpu.go:410 msg="updating cuda memory data" '
         'gpu={id} name="NVIDIA GeForce RTX 3060" overhead="0 B" before.total="12.0 GiB" now.total="12.0 GiB"')
_A = "GPU-d1fa0558-2f75-4c4b-0720-8d90d6b01898"
_B = "GPU-b18a7f7a-1c7f-15b3-064d-6596d1a63015"


def test_ollama_ids_count_cards():
    found = ollama.answers([_LINE.format(id=_A), _LINE.format(id=_B), _LINE.format(id=_A)])
    assert [f[0][1]["index"] for f in found.values()] == [0, 1, 0]
    assert found[0][0][1]["name"] == "NVIDIA GeForce RTX 3060"
    compute = ('time=2024-08-24T22:31:39.601Z level=INFO source=types.go:105 msg="inference compute" id=1 library=rocm '
               'compute=gfx1100 name=ROCm1 description="AMD Radeon RX 7900 XTX" total="24.0 GiB"')
    assert ollama.answers([compute, compute.replace("id=1", "id=0")])[0][0][1]["name"] == "AMD Radeon RX 7900 XTX"


def test_ollama_ids_near_misses():
    assert ollama.answers([_LINE.format(id=_A), _LINE.format(id=_A)]) == {}  # one card logged twice
    # no Go logfmt source: prose or another tool naming two ids
    assert ollama.answers([f"my gpu={_A} name=\"NVIDIA GeForce RTX 3060\"", f"and gpu={_B} name=\"NVIDIA GeForce RTX 3060\""]) == {}
    # ids without a GPU name (the CPU runner, a PCI id)
    assert ollama.answers([_LINE.format(id=_A).replace("NVIDIA GeForce RTX 3060", ""),
                           _LINE.format(id=_B).replace("NVIDIA GeForce RTX 3060", "1002:73bf")]) == {}


def test_ollama_two_cards_of_one_name():
    text = "\n".join([_LINE.format(id=_A), _LINE.format(id=_B)])
    gpus = _facts(text).gpus
    assert [g.model for g in gpus] == ["NVIDIA GeForce RTX 3060"] * 2


def test_renderer_sse2_with_64_bit_driver():
    inxi = ["Graphics:  Device-1: NVIDIA GP104 [GeForce GTX 1080] vendor: ASUSTeK driver: nvidia v: 430.40 bus ID: 01:00.0",
            "           OpenGL: renderer: GeForce GTX 1080/PCIe/SSE2 v: 4.6.0 NVIDIA 430.40 direct render: Yes"]
    assert renderer.answers(inxi) == {1: [("cpu.hardware_arch", "x86_64")]}
    glx = ["OpenGL renderer string: NVIDIA GeForce RTX 3060/PCIe/SSE2", "OpenGL version string: 4.6.0 NVIDIA 535.104.05"]
    assert renderer.answers(glx) == {0: [("cpu.hardware_arch", "x86_64")]}
    smi = ["Graphics Processor: Quadro K2200/PCIe/SSE2",
           "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |"]
    assert renderer.answers(smi) == {0: [("cpu.hardware_arch", "x86_64")]}
    assert renderer.answers(["OpenGL renderer string: NVIDIA T600/PCIe/SSE2", "driver: nvidia v: 550.54.14"]) == {
        0: [("cpu.hardware_arch", "x86_64")]}


def test_renderer_sse2_near_misses():
    # a 390 driver still had 32-bit builds: x86, but not certainly 64-bit
    assert renderer.answers(["OpenGL renderer string: GeForce GTX 750/PCIe/SSE2",
                             "OpenGL version string: 4.6.0 NVIDIA 390.144"]) == {}
    assert renderer.answers(["OpenGL renderer string: GeForce GTX 1080/PCIe/SSE2"]) == {}  # no driver stated
    # NVIDIA's Arm build prints no SSE2; Mesa's renderer none either
    assert renderer.answers(["OpenGL renderer string: NVIDIA GeForce RTX 3080/PCIe",
                             "OpenGL version string: 4.6.0 NVIDIA 535.104.05"]) == {}
    assert renderer.answers(["OpenGL renderer string: AMD Radeon RX 580 (polaris10, LLVM 15.0.7, DRM 3.49)",
                             "Driver Version: 535.104.05"]) == {}
    # a mention, not this machine
    assert renderer.answers(["unlike GeForce GTX 1080/PCIe/SSE2 this box has a Radeon", "Driver Version: 535.104.05"]) == {}
    assert renderer.answers(["my friend's PC shows GeForce GTX 1080/PCIe/SSE2", "Driver Version: 535.104.05"]) == {}
    assert renderer.answers(["Does GeForce GTX 1080/PCIe/SSE2 work here?", "Driver Version: 535.104.05"]) == {}
