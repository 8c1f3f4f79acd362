"""Set 9's Mac rules (probe/paste/mac_text_rules.py), fed literal lines: About This Mac's 'Memory - 32 GB', screenfetch's
'RAM: used / total', an Apple chip's GPU core count and memory beside its name, brew config's Intel CPU, the jaxlib AVX
guard, uv's and conda's Python arch, MLX's Metal errors, llama.cpp's build target, NumPy 2's ABI warning, an iMac Pro,
a Vega card, macOS release names and keyed versions, the Ultralytics banner's torch, and A-series Macs."""
import pytest

from macml.facts import CPUFacts, InterpreterFacts, MachineFacts, OSFacts
from macml.knowledge.gpu_specs import identify_apple_chip
from macml.knowledge.hardware import apple_core_options
from macml.knowledge.macos import mac_only_gpu
from macml.probe.infer_mac import intel_mac_python
from macml.probe.paste import mac_clues_rules, mac_text_rules as rules

GIB = 1024 ** 3
DARWIN_X86 = [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]


@pytest.mark.parametrize("line, expected", [
    ("Memory - 32 GB 2400 MHz DDR4", [("cpu.memory_bytes", 32 * GIB)]),
    ("- Memory – 16 GB 2133 MHz LPDDR3", [("cpu.memory_bytes", 16 * GIB)]),
    ("Graphics - Radeon Pro 580X 8 GB", [("gpu", {"name": "Radeon Pro 580X", "vendor": "AMD", "memory_mib": 8192, "index": None})]),
    ("Memory - leaks after an hour", []),
    ("Memory: 32 GB", []),
], ids=["about-this-mac", "bullet-en-dash", "graphics", "not-a-size", "colon-is-not-this-rule"])
def test_about_mac_dash(line, expected):
    assert rules.about_mac_dash(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("     :ooooooooooooooooooo+.     RAM: 1610MiB / 524288MiB", [("cpu.memory_bytes", 512 * GIB)]),
    ("Memory: 8187MiB / 16384MiB", [("cpu.memory_bytes", 16 * GIB)]),
    ("Memory: 3.20GiB / 16GiB", [("cpu.memory_bytes", 16 * GIB)]),
    ("RAM: 12GB", []),
], ids=["screenfetch-after-art", "neofetch", "neofetch-gib", "one-size"])
def test_used_over_total(line, expected):
    assert rules.used_over_total(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Benchmark M1 Ultra Mac Studio (64 core 128Gb)", [("gpu.cores", 64)]),
    ("I have a M1 Max with 32 cores and 64 gb of unified memory", [("gpu.cores", 32)]),
    ("M2 Max (38 core)", [("gpu.cores", 38)]),
    ("MacBook Pro M3 Max 40-core GPU", [("gpu.cores", 40)]),
    ("M2 Pro 12-core CPU, 19 core GPU", [("gpu.cores", 19)]),
    ("M1 Ultra with 20 cores", []),
    ("M4 with 10 cores", []),
    ("my Mac has 64 cores", []),
], ids=["ultra-64", "max-32-cores", "max-38", "explicit-gpu", "cpu-and-gpu", "cpu-count", "both-sets", "no-chip"])
def test_chip_gpu_cores(line, expected):
    assert rules.chip_gpu_cores(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Benchmark M1 Ultra Mac Studio (64 core 128Gb)", [("cpu.memory_bytes", 128 * GIB)]),
    ("MacBook Pro M2 Max (32GB, 1TB SSD)", [("cpu.memory_bytes", 32 * GIB)]),
    ("M3 Max (48 GB)", [("cpu.memory_bytes", 48 * GIB)]),
    ("M1 Pro (512GB SSD)", []),
    ("M1 (7 GB free)", []),
    ("a Mac (16GB)", []),
], ids=["core-and-memory", "memory-and-ssd", "spaced", "storage", "not-a-size-apple-sells", "no-chip"])
def test_memory_in_chip_parentheses(line, expected):
    assert rules.memory_in_chip_parentheses(line) == expected


def test_jaxlib_avx():
    line = ("RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU and/or operating "
            "system do not support. This error is frequently encountered on macOS when running an x86 Python")
    assert rules.jaxlib_avx(line) == [("python.machine", "x86_64")]
    assert rules.jaxlib_avx("jaxlib 0.4.30 supports AVX512") == []


@pytest.mark.parametrize("line, expected", [
    ("warning: Failed to patch the install name of the dynamic library for /Users/t/Library/Application Support/uv/"
     "python/cpython-3.12.9-macos-x86_64-none/bin/python3.12.", [("platform", "darwin"), ("python.machine", "x86_64")]),
    ("/Users/me/.local/share/uv/python/cpython-3.13.1-macos-aarch64-none/bin/python3",
     [("platform", "darwin"), ("python.machine", "arm64")]),
    (" - cpython-3.12.9-macos-x86_64-none", []),
    ("/home/me/.local/share/uv/python/cpython-3.12.9-linux-x86_64-gnu/bin/python3", []),
], ids=["x86-64-path", "aarch64-path", "listed-not-run", "linux"])
def test_uv_python(line, expected):
    assert rules.uv_python(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("libblas                   3.9.0           22_osxarm64_openblas    conda-forge",
     [("platform", "darwin"), ("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")]),
    ("libcblas 3.9.0 20_osx64_mkl conda-forge", [("platform", "darwin"), ("python.machine", "x86_64")]),
    ("liblapack 3.9.0 22_osxarm64_openblas", [("platform", "darwin"), ("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")]),
    ("numpy 1.26.4 py312h8442bc7_0 conda-forge", []),
    ("I tried the osxarm64 build of libblas", []),
], ids=["osx-arm64", "osx-64", "no-channel", "no-subdir", "prose"])
def test_conda_build_row(line, expected):
    assert rules.conda_build_row(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("mamba create --name pytorch python=3.10 pytorch numpy --channel conda-forge", [("python.minor", "3.10")]),
    ("conda create -n tf python=3.9.16", [("python.version", "3.9.16")]),
    ("micromamba create -n x -c conda-forge python=3.12 jax", [("python.minor", "3.12")]),
    ("conda install python=3.11", []),
], ids=["mamba-minor", "conda-full", "micromamba", "install-is-not-create"])
def test_conda_create_python(line, expected):
    assert rules.conda_create_python(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command buffer execution "
     "failed: Internal Error (0000000e:Internal Error)",
     [("platform", "darwin"), ("python.machine", "arm64"), ("process.arch", "arm64"), ("framework.used", "mlx")]),
    ("zsh: abort      mlx_lm.lora --model Qwen/Qwen1.5-32B-Chat --train --data dataset/chat", [("framework.used", "mlx")]),
    ("python -m mlx_lm.generate --model mlx-community/Llama-3.2-3B-Instruct-4bit", [("framework.used", "mlx")]),
    ("ggml_metal_graph_compute: command buffer 1 failed with status 5", []),
], ids=["metal-error", "lora-cli", "module-cli", "llama-cpp-is-not-mlx"])
def test_mlx_metal(line, expected):
    assert rules.mlx_metal(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("(lilm) x@Mac-Studio Dev % /Library/Developer/CommandLineTools/Library/Frameworks/Python3.framework/Versions/3.9/"
     "lib/python3.9/multiprocessing/resource_tracker.py:216: UserWarning", [("platform", "darwin"), ("python.minor", "3.9")]),
    ('  File "/Library/Frameworks/Python.framework/Versions/3.11/lib/python3.11/site-packages/mlx_lm/convert.py"',
     [("platform", "darwin"), ("python.minor", "3.11")]),
    ("/usr/lib/python3.10/threading.py", []),
], ids=["command-line-tools", "python-org", "linux"])
def test_framework_python_path(line, expected):
    assert rules.framework_python_path(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("main: built with Apple clang version 15.0.0 (clang-1500.3.9.4) for x86_64-apple-darwin23.5.0",
     [("platform", "darwin"), ("os.darwin", "23.5.0"), ("process.arch", "x86_64")]),
    ("build: 4514 (f26c8741) with Apple clang version 16.0.0 (clang-1600.0.26.6) for arm64-apple-darwin24.2.0",
     [("platform", "darwin"), ("os.darwin", "24.2.0"), ("process.arch", "arm64"), ("cpu.hardware_arch", "arm64")]),
    ("main: built with cc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0 for x86_64-linux-gnu", []),
], ids=["main-x86-64", "build-line-arm64", "linux"])
def test_llama_build_target(line, expected):
    assert rules.llama_build_target(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("NumPy 2.3.1 as it may crash. To support both 1.x and 2.x", [("package", {"name": "numpy", "version": "2.3.1"})]),
    ("A module that was compiled using NumPy 1.x cannot be run in NumPy 2.0.1 as it may crash.",
     [("package", {"name": "numpy", "version": "2.0.1"})]),
    ("then upgrade NumPy 2.3.1", []),
], ids=["wrapped", "one-line", "prose"])
def test_numpy_abi_warning(line, expected):
    assert rules.numpy_abi_warning(line) == expected


def test_pre_big_sur_libsystem():
    line = ("ImportError: dlopen(/usr/local/lib/python3.9/site-packages/cv2/cv2.abi3.so, 2): Symbol not found: "
            "___darwin_check_fd_set_overflow")
    assert rules.pre_big_sur_libsystem(line) == DARWIN_X86
    assert rules.pre_big_sur_libsystem("Symbol not found: _objc_msgSend$foo") == []


@pytest.mark.parametrize("line, expected", [
    ("on my iMac Pro (3GHz Xeon 10 core, 64 GB of RAM)", DARWIN_X86),
    ("I use the 2017 iMac Pro", DARWIN_X86),
    ("(venv) rarogcmex@iMacPro-Denis ComfyUI % python main.py", []),
    ("an iMac Pro-like setup", []),
    ("does this run on iMac Pro hardware?", []),
], ids=["prose", "with-year", "host-name", "like", "not-the-writers"])
def test_imac_pro(line, expected):
    assert rules.imac_pro(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Vega 64X video card with 16 GB of RAM", [("gpu", {"name": "Vega 64X", "vendor": "AMD", "memory_mib": 16384, "index": None})]),
    ("Radeon Pro Vega 56 graphics with 8GB", [("gpu", {"name": "Radeon Pro Vega 56", "vendor": "AMD", "memory_mib": 8192, "index": None})]),
    ("AMD Vega 64 GPU", [("gpu", {"name": "AMD Vega 64", "vendor": "AMD", "memory_mib": None, "index": None})]),
    ("Vega is a star", []),
], ids=["video-card-memory", "graphics", "gpu", "star"])
def test_vega_card(line, expected):
    assert rules.vega_card(line) == expected


@pytest.mark.parametrize("line, expected", [
    ('I am able to get my AMD GPU to run on an iMac 27" with Big Sur tensorflow 2.5.', [("platform", "darwin"), ("os.release", "11")]),
    ("after I upgraded to Sonoma it broke", [("platform", "darwin"), ("os.release", "14")]),
    ("macOS Sequoia 15.1", [("platform", "darwin"), ("os.release", "15")]),
    ("I live in Monterey, California", []),
    ("Ventura Blvd", []),
], ids=["with-big-sur", "upgraded-to", "macos-name", "place", "street"])
def test_release_name(line, expected):
    assert rules.release_name(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("It looks like this program doesn’t work on macOS 15.5 running on Intel Macs with AMD GPUs.",
     DARWIN_X86 + [("gpu", {"name": "AMD GPU (model not in the text)", "vendor": "AMD", "memory_mib": None, "index": None})]),
    ("works on macOS 14.2 running on an Intel Mac", DARWIN_X86),
    ("It runs on Intel Macs too", []),
], ids=["with-amd-gpus", "one-mac", "no-version"])
def test_intel_macs(line, expected):
    assert rules.intel_macs(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("- YOLO: Ultralytics YOLOv8.0.128 🚀 Python-3.11.4 torch-2.1.0.dev20230705 MPS",
     [("package", {"name": "torch", "version": "2.1.0.dev20230705"}), ("torch.version", "2.1.0.dev20230705"),
      ("platform", "darwin"), ("torch.cuda_available", False)]),
    ("Ultralytics 8.3.40 🚀 Python-3.12.7 torch-2.5.1 CPU (Apple M1)",
     [("package", {"name": "torch", "version": "2.5.1"}), ("torch.version", "2.5.1")]),
    ("Ultralytics YOLOv8.0.20 🚀 Python-3.10.6 torch-1.13.1+cu117 CUDA:0 (Tesla T4, 15110MiB)", []),
], ids=["mps", "cpu", "cuda-left-to-others"])
def test_ultralytics_torch(line, expected):
    assert rules.ultralytics_torch(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("MacBook Neo Chip (A18 Pro) not being supported by https://llama.app/install.sh",
     [("platform", "darwin"), ("cpu.brand", "Apple A18 Pro"), ("cpu.hardware_arch", "arm64")]),
    ("the DTK Mac mini (A12Z Bionic)", [("platform", "darwin"), ("cpu.brand", "Apple A12Z"), ("cpu.hardware_arch", "arm64")]),
    ("iPhone 16 Pro (A18 Pro)", []),
    ("I test on my MacBook Pro and my iPhone 16 (A18)", []),
], ids=["macbook-neo", "dtk", "iphone", "iphone-beside-a-mac"])
def test_mac_a_chip(line, expected):
    assert rules.mac_a_chip(line) == expected


@pytest.mark.parametrize("key, value, expected", [
    ("mac os", "15.3", [("platform", "darwin"), ("os.version", "15.3")]),
    ("macos version", "14.4.1 (23E224)", [("platform", "darwin"), ("os.version", "14.4.1")]),
    ("os", "Mac 10.14.6", [("platform", "darwin"), ("os.version", "10.14.6")]),
    ("os", "14.0 Beta 3", [("platform", "darwin"), ("os.version", "14.0")]),
    ("python version", "3.10", [("python.minor", "3.10")]),
    ("os", "22.04", []),
    ("os", "11", []),
    ("python version", "3.10.4", []),
], ids=["mac-os", "with-build", "mac-word", "beta", "python-minor", "ubuntu-number", "bare-major", "full-left-to-others"])
def test_keyed_facts(key, value, expected):
    assert rules.keyed_facts(key, value) == expected


def test_answers_core_triple_for_the_one_chip():
    lines = ["  - Board specs (as tested): 32/80/32, 512 GB RAM, 8 TB SSD", "CPU: Apple M3 Ultra", "GPU: Apple M3 Ultra"]
    assert rules.answers(lines) == {0: [("gpu.cores", 80)]}
    assert rules.answers(["specs: 32/80/32", "CPU: Apple M3 Ultra", "and an Apple M2 Max"]) == {}  # two chips
    assert rules.answers(["on 12/10/16 I bought it", "Apple M1 Pro"]) == {}  # a date, no spec word


def test_answers_brew_config_cpu():
    intel = ["HOMEBREW_PREFIX: /usr/local", "CPU: quad-core 64-bit kabylake", "macOS: 13.6.7-x86_64"]
    assert rules.answers(intel) == {1: [("cpu.hardware_arch", "x86_64")]}
    assert rules.answers(intel + ["Rosetta 2: true"]) == {}
    assert rules.answers(["CPU: 18-core 64-bit westmere"]) == {}  # what Homebrew under Rosetta 2 reports


def test_answers_arm64_extension_in_x86_64_python():
    lines = ["dlopen(.../site-packages/mlx/core.cpython-311-darwin.so, 0x0002): tried: ... (mach-o file, but is an "
             "incompatible architecture (have 'arm64', need 'x86_64'))", "  File \"/x/site-packages/mlx_lm/convert.py\""]
    assert rules.answers(lines) == {0: [("cpu.hardware_arch", "arm64")]}
    assert rules.answers([lines[0].replace("site-packages", "lib")]) == {}  # not an extension pip installed


def test_apple_core_options_and_a_series_chips():
    assert apple_core_options("Apple M1 Ultra") == (frozenset({20}), frozenset({48, 64}))
    assert apple_core_options("M9 Ultra") is None
    chip = identify_apple_chip("Apple A18 Pro")
    assert (chip.name, chip.family, chip.tier) == ("Apple A18 Pro", "A18", "Pro")
    assert identify_apple_chip("Apple A12Z").name == "Apple A12Z"
    assert identify_apple_chip("Apple A15 Bionic").name == "Apple A15"
    assert identify_apple_chip("Apple M1x") is None
    assert mac_only_gpu("AMD Radeon Pro 5700 XT") and not mac_only_gpu("AMD Radeon RX 5700 XT")


@pytest.mark.parametrize("line, expected", [
    ("BUILD: fail to compile for x86_64 architecture in Mac M1", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ("my Mac, M2 Pro", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    ("Mac M1.5 firmware", []),
], ids=["mac-m1", "comma", "not-a-chip"])
def test_mac_then_chip(line, expected):
    assert mac_clues_rules.apple_chip_mac(line) == expected


def _intel_mac(interpreter=None, used=()):
    return MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version="", build=None),
                        cpu=CPUFacts(brand="", hardware_arch="x86_64", apple_silicon=False), gpus=(),
                        interpreter=interpreter, frameworks={}, env={}, frameworks_in_use=used)


def test_intel_mac_python_from_a_framework_in_use():
    assert intel_mac_python(_intel_mac(used=("tensorflow",)), {}).interpreter.machine == "x86_64"
    assert intel_mac_python(_intel_mac(), {}).interpreter is None  # no Python in the text: none is made up
    assert intel_mac_python(_intel_mac(used=("wget",)), {}).interpreter is None
    interp = InterpreterFacts(executable="", version="3.9", implementation="", machine="", prefix="", base_prefix="")
    assert intel_mac_python(_intel_mac(interp), {}).interpreter.machine == "x86_64"


def test_arm_feature_sysctls_outrank_x86_features():
    from macml.probe.infer_mac import _text_evidence
    text = "machdep.cpu.features: FPU VME DE PSE TSC SSE4.2 AES\nhw.optional.arm.FEAT_FlagM: 1\n"
    assert _text_evidence(text)[0][0] is True  # the arm64 kernel's FEAT_* sysctls: Apple silicon
    assert _text_evidence("machdep.cpu.features: FPU VME DE PSE TSC SSE4.2 AES\n")[0][0] is False
