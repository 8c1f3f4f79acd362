"""Set 7's Mac rules, fed literal lines: Macs named with their model year, memory beside a Mac, the Mac Pro
2013's FirePro GPUs, 'macos 15.6.1 intel', Intel Macs after a preposition, a crash report's native Code Type,
dyld's wrong-architecture error, Homebrew's prefixes, an 'Architecture' section, package versions in prose,
template keys; plus the knowledge and inference they feed (model years, an Intel Mac's Python, a failed
import, PlaidML's device-id casing, git-describe versions)."""
import pytest

from macml.diagnose.doctor import header_line
from macml.facts import CPUFacts, InterpreterFacts, MachineFacts, OSFacts
from macml.knowledge.hardware import mac_year_silicon
from macml.knowledge.macos import mac_only_gpu
from macml.probe.collect import facts_from_snapshot
from macml.probe.infer_mac import intel_mac_python
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.mac_words_rules import (answers, homebrew_prefix, intel_beside_macos, keyed_facts, mac_model_year,
                                               mac_pro_firepro, memory_beside_mac, mps_answer, native_code_type,
                                               packages_in_words, plaidml_setup_run, python_installed,
                                               template_hash_line, ultralytics_version, wrong_arch_library,
                                               x86_mac_after_preposition)
from macml.probe.paste.report_rules import plaidml_device_id
from macml.probe.paste.statement_rules import by_key
from macml.probe.paste.statements import read_statements
from macml.probe.stated_imports import fill_import_failures

GIB = 1024 ** 3
INTEL = [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]
SILICON = [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]


def _package(name, version):
    return ("package", {"name": name, "version": version})


@pytest.mark.parametrize("line, expected", [
    ("codellama model on a Mac Pro 2013 trashcan with 128GB of RAM", INTEL),
    ('I should add that I am using a metal_amd_radeon_pro_5500m.0 on a 2019 16" Macbook Pro.', INTEL),
    ("Install to my 2020 Intel MacBook Pro, then run the command:", INTEL),
    ("Hardware: MacBook Pro (16-inch, 2019)", INTEL),
    ("my early 2015 MacBook Pro (13-inch Retina) with an Intel Iris", INTEL),
    ("MacBook Pro (Retina, 15-inch, Mid 2015)", INTEL),
    ("Mac mini (2018) with 64 GB", INTEL),
    ("My environment: MacBook Pro 14-inch, 2021, M1 Pro, 16 GB", SILICON),
    ("Mac Studio 2023 with M2 Ultra", SILICON),
    ("iMac 2021 24-inch", SILICON),
    ("MacBook Air 2020", []),  # both Intel and M1 models were sold that year
    ("MacBook Pro 13-inch 2020", []),
    ("Mac Pro 2021", []),  # no Mac Pro model of that year
    ("tested on macOS 13 in 2019", []),
], ids=["mac-pro-2013", "year-size-before", "year-intel-before", "profiler-name", "early-year-before", "retina-mid-year",
        "mini-parenthesised", "mbp-2021", "studio", "imac-2021", "air-2020-both", "mbp-2020-both", "no-such-model",
        "year-without-mac"])
def test_mac_model_year(line, expected):
    assert mac_model_year(line) == expected


@pytest.mark.parametrize("line, year, silicon", [
    ("Mac Pro", 2013, False), ("Mac Pro", 2019, False), ("Mac Pro", 2023, True), ("MacBookPro", 2019, False),
    ("MacBook Pro", 2020, None), ("Mac mini", 2018, False), ("Mac mini", 2020, True), ("iMac", 2020, False),
    ("iMac", 2021, True), ("iMac Pro", 2017, False), ("Mac Studio", 2022, True), ("Mac Studio", 2019, None),
    ("Toaster", 2013, None), ("Mac Pro", 1999, None),
])
def test_mac_year_silicon(line, year, silicon):
    assert mac_year_silicon(line, year) is silicon


@pytest.mark.parametrize("line, gib", [
    ("Getting this issue on the SDXL tutorial (16GB MacBook Pro M1).", 16),
    ("  - Device 1: Mac Studio M3 Ultra 512 RAM", 512),
    ("on a 32 GB RAM Mac mini", 32),
    ("M2 Max, 96 unified memory", 96),
    ("M1 Pro 14 GB RAM", None),  # not a size Apple sells
    ("a 256GB MacBook Air", 256),  # (storage and memory read alike; 256 GB is also sold as memory)
    ("M3 Pro 512 GB SSD", None),
], ids=["size-before-mac", "bare-number-ram", "ram-before-mac", "unified-no-unit", "odd-size", "size-before-air",
        "ssd"])
def test_memory_beside_mac(line, gib):
    assert memory_beside_mac(line) == ([("cpu.memory_bytes", gib * GIB)] if gib else [])


def _firepro(name, index=None):
    return ("gpu", {"name": name, "vendor": "AMD", "memory_mib": None, "index": index})


@pytest.mark.parametrize("line, expected", [
    ("This model has the dual AMD D500 GPU which should not be relevant..",
     [("platform", "darwin"), _firepro("AMD FirePro D500", 0), _firepro("AMD FirePro D500", 1)]),
    ("Chipset Model: AMD FirePro D700", [("platform", "darwin"), _firepro("AMD FirePro D700")]),
    ("two FirePro D300 GPUs", [("platform", "darwin"), _firepro("AMD FirePro D300", 0), _firepro("AMD FirePro D300", 1)]),
    ("shot with a Nikon D500.", []),
], ids=["dual-d500", "profiler-d700", "two-d300", "a-camera"])
def test_mac_pro_firepro(line, expected):
    assert mac_pro_firepro(line) == expected


def test_firepro_is_a_mac_only_gpu():
    assert mac_only_gpu("AMD FirePro D500") and not mac_only_gpu("AMD FirePro W7100")


@pytest.mark.parametrize("line, expected", [
    ("macos 15.6.1  intel ", INTEL),
    ("OS: macOS 13.4 (Intel)", INTEL),
    ("macOS Sonoma 14.2, Intel i7", INTEL),
    ("macOS 14.5 with Intel UHD Graphics 630", []),
    ("Intel Macs are not supported on macOS 15", []),
    ("macOS 14.2 on M1, works on Intel too", []),
    ("intel", []),
], ids=["bare-word", "parenthesised", "with-cpu", "intel-gpu", "intel-macs", "names-apple-silicon", "no-macos"])
def test_intel_beside_macos(line, expected):
    assert intel_beside_macos(line) == expected


@pytest.mark.parametrize("line, expected", [
    ('When using the **"mps"** device on **x86 mac** with **AMD** gpu, it fails.', INTEL),
    ("I am running it on an Intel MacBook, in case it's relevant.", INTEL),
    ("Same crash using an Intel-based MacBook Pro", INTEL),
    ("It works on Intel mac but not on M1", []),
    ("This does not happen on an Intel Mac", []),
    ("wheels for Intel Macs are no longer built", []),
], ids=["bold-x86-mac", "intel-macbook", "intel-based", "names-m1", "negated", "macs-in-general"])
def test_x86_mac_after_preposition(line, expected):
    assert x86_mac_after_preposition(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("> Code Type:             X86-64 (Native)", INTEL + [("process.translated", False)]),
    ("Code Type: ARM-64 (Native)", SILICON + [("process.translated", False)]),
    ("Code Type:             X86-64 (Translated)", []),
    ("Code Type: X86-64", []),
], ids=["x86-native-quoted", "arm-native", "translated-is-another-rule", "no-mode"])
def test_native_code_type(line, expected):
    assert native_code_type(line) == expected


_DYLD = ("OSError: dlopen(/Users/m/app/.venv/lib/python3.10/site-packages/torch/lib/libtorch_global_deps.dylib, 0x000A): "
         "tried: '/Users/m/app/.venv/lib/python3.10/site-packages/torch/lib/libtorch_global_deps.dylib' (mach-o file, "
         "but is an incompatible architecture (have 'x86_64', need 'arm64'))")


def test_wrong_arch_library_in_an_arm64_python():
    facts = wrong_arch_library(_DYLD)
    assert facts[:3] == [("platform", "darwin"), ("python.machine", "arm64"), ("cpu.hardware_arch", "arm64")]
    assert facts[3][0] == "framework.import_failed" and facts[3][1]["name"] == "torch"


@pytest.mark.parametrize("line, expected", [
    ("ImportError: dlopen(/opt/x/site-packages/numpy/core/_multiarray_umath.cpython-39-darwin.so, 2): ... (mach-o "
     "file, but is an incompatible architecture (have (arm64), need (x86_64)))",
     [("platform", "darwin"), ("python.machine", "x86_64"), ("framework.import_failed", {"name": "numpy", "error":
      "its arm64 binary cannot load in an x86_64 Python: ImportError: dlopen(/opt/x/site-packages/numpy/core/"
      "_multiarray_umath.cpython-39-darwin.so, 2): ... (mach-o file, but is an incompatible architecture (have (arm64), "
      "need (x86_64)))"})]),
    ("(mach-o file, but is an incompatible architecture (have 'arm64', need 'arm64e'))", []),
    ("have 'x86_64', need 'arm64'", []),
], ids=["x86-python-arm-wheel-any-package", "same-family", "no-dyld-wording"])
def test_wrong_arch_library_variants(line, expected):
    assert wrong_arch_library(line) == expected


def test_a_stated_import_failure_fails_only_an_unknown_framework():
    facts = MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version=""),
                         cpu=CPUFacts(brand="", hardware_arch="arm64"))
    stated = [{"fact": "framework.import_failed", "value": {"name": "torch", "error": "x86_64 binary"}, "line": 3,
               "text": "OSError: dlopen(...)", "source": "paste"}]
    failed = fill_import_failures(facts, stated)
    assert failed.frameworks["torch"].ok is False and failed.frameworks["torch"].problem == "import_failed"
    assert "frameworks.torch" in failed.sources
    assert fill_import_failures(failed, stated) is failed


@pytest.mark.parametrize("line, expected", [
    ("/usr/local/bin/brew", [("platform", "darwin")]),
    ("/usr/local/bin/brew: Bourne-Again shell script text executable, ASCII text", [("platform", "darwin")]),
    ("$ /opt/homebrew/bin/brew config", SILICON),
    ("HOMEBREW_PREFIX=/opt/homebrew/Homebrew/Library", SILICON),
    ("/home/linuxbrew/.linuxbrew/bin/brew", []),
    ("/usr/local/bin/python3", []),
], ids=["intel-prefix", "file-output", "arm-prefix", "arm-repository", "linuxbrew", "not-brew"])
def test_homebrew_prefix(line, expected):
    assert homebrew_prefix(line) == expected


def test_an_architecture_section_answers():
    lines = ["=== Architecture ===", "arm64", "arm64", "=== Homebrew ===", "/usr/local/bin/brew"]
    assert answers(lines) == {1: [("process.arch", "arm64")], 2: [("process.arch", "arm64")]}
    assert answers(["$ arch", "i386"]) == {1: [("process.arch", "x86_64")]}
    assert answers(["**Architecture**:", "x86_64"]) == {1: [("process.arch", "x86_64")]}
    assert answers(["Architecture", "The arm64 build needs macOS 11"]) == {}


@pytest.mark.parametrize("line, expected", [
    ("Already installed: Python 3.10.9 & pip 22.3.1.", [("python.version", "3.10.9")]),
    ("I have Python 3.11.4 from python.org", [("python.version", "3.11.4")]),
    ("I have Python 3.11.4 and Python 3.12.1", []),
    ("installed Python 3.12", []),
], ids=["already-installed", "i-have", "two-pythons", "no-patch"])
def test_python_installed(line, expected):
    assert python_installed(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Ultralytics YOLOv8.0.99 🚀 Python-3.11.3 torch-2.0.1 CPU", [_package("ultralytics", "8.0.99")]),
    ("Ultralytics 8.3.0 🚀 Python-3.11.2 torch-2.3.1 CPU (Cortex-A72)", [_package("ultralytics", "8.3.0")]),
    ("YOLOv5 🚀 v6.1 torch 1.10.2+cu113 CUDA:0 (NVIDIA GeForce RTX 3090, 24268MiB)", []),
], ids=["yolov8-banner", "ultralytics-banner", "yolov5-is-a-repo"])
def test_ultralytics_version(line, expected):
    assert ultralytics_version(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("I am using Python 3.10, sentence-transformers 3.0.1, accelerate 0.31 and torch 2.3.1.",
     [_package("sentence-transformers", "3.0.1"), _package("torch", "2.3.1"), ("torch.version", "2.3.1"),
      ("python.minor", "3.10")]),  # the Python beside the packages (set-45 round)
    ("WARNING:root:Pytorch pre-release version 1.13.0.dev20220922 - assuming intent to test it",
     [_package("torch", "1.13.0.dev20220922"), ("torch.version", "1.13.0.dev20220922")]),
    ("spaCy version 3.0.0 on macOS", [_package("spacy", "3.0.0")]),
    ("with PyTorch Lightning 2.5.1 and numpy 1.26.4", [_package("pytorch-lightning", "2.5.1"), _package("numpy", "1.26.4")]),
    ("I use torch 2.1.0+cu118", [_package("torch", "2.1.0+cu118"), ("torch.version", "2.1.0+cu118")]),
    ("works on torch 2.1.0 but fails on torch 2.3.1", []),
    ("after upgrading to torch 2.3.1 it broke", []),
    ("this requires tensorflow 2.13.0 or newer", []),
    ("CUDA used to build PyTorch: 10.1.243", []),
    ("pytorch 2.12", []),
    ("pip install torch-2.1.0-cp311-none-macosx_11_0_arm64.whl", []),
], ids=["sentence", "pre-release", "spacy-version", "lightning-words", "local-tag", "two-versions", "upgrade",
        "requirement", "key-value-is-not-prose", "no-patch-level", "wheel-name"])
def test_packages_in_words(line, expected):
    assert packages_in_words(line) == expected


@pytest.mark.parametrize("key, value, expected", [
    ("python architecture", "arm64", [("python.machine", "arm64")]),
    ("python version used", "3.9.4", [("python.version", "3.9.4")]),
    ("spacy version used", "3.0.0", [_package("spacy", "3.0.0")]),
    ("pytorch lightning version", "2.5.1", [_package("pytorch-lightning", "2.5.1")]),
    ("sentence transformers version", "v2.7.0", [_package("sentence-transformers", "2.7.0")]),
    ("screen resolution version", "1.2", []),
    ("python architecture", "64bit", []),
], ids=["python-arch", "python-used", "package-used", "lightning", "words-with-v", "unknown-words", "not-an-arch"])
def test_keyed_facts(key, value, expected):
    assert keyed_facts(key, value) == expected


@pytest.mark.parametrize("line, expected", [
    ("#- PyTorch Lightning Version (e.g., 2.5.0): 2.5.1", [_package("pytorch-lightning", "2.5.1")]),
    ("#- PyTorch Version (e.g., 2.5): 2.6.0", [_package("torch", "2.6.0"), ("torch.version", "2.6.0")]),
    ("#- Python version (e.g., 3.12): 3.12.9", [("python.version", "3.12.9")]),
    ("#- CUDA/cuDNN version:", []),
    ("# just a comment: nothing", []),
], ids=["lightning", "torch", "python", "empty-answer", "plain-comment"])
def test_template_hash_line(line, expected):
    assert template_hash_line(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("MPS available: True", [("platform", "darwin")]),
    ("- MPS built: True", [("platform", "darwin")]),
    ("MPS available: False", []),  # torch on Linux answers False too
], ids=["available", "built", "false-says-nothing"])
def test_mps_answer(line, expected):
    assert mps_answer(line) == expected


def test_plaidml_setup_runs_in_an_x86_64_python():
    assert plaidml_setup_run("I just reran plaidml-setup.") == [("python.machine", "x86_64")]
    assert plaidml_setup_run("plaidml setup guide") == []


@pytest.mark.parametrize("line, name", [
    ('INFO:plaidml:Opening device "opencl_amd_amd_radeon_pro_560x_compute_engine.0"', "AMD Radeon Pro 560X"),
    ("I am using a metal_amd_radeon_pro_5500m.0 on a Macbook Pro.", "AMD Radeon Pro 5500M"),
], ids=["560x", "5500m"])
def test_plaidml_ids_keep_the_marketing_case(line, name):
    assert ("gpu.mention", name) in plaidml_device_id(line)


@pytest.mark.parametrize("value, version", [
    ("v2.16.1-0-g5bc9d26649c 2.16.1", "2.16.1"),
    ("v2.15.0-rc1-8-g6887368d6d4 2.15.0", "2.15.0"),  # GIT_VERSION then VERSION: the release is the second
    ("2.16.1", "2.16.1"),
], ids=["git-describe", "rc-describe", "plain"])
def test_git_describe_versions(value, version):
    assert by_key("tensorflow version", value)[0] == _package("tensorflow", version)


def _intel_mac(interp, apple_silicon=False):
    return MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version=""),
                        cpu=CPUFacts(brand="", hardware_arch="x86_64", apple_silicon=apple_silicon), interpreter=interp)


def _interp(machine=""):
    return InterpreterFacts(executable="", version="", implementation="", machine=machine, prefix="", base_prefix="")


def test_an_intel_macs_python_is_x86_64():
    sources = {}
    assert intel_mac_python(_intel_mac(_interp()), sources).interpreter.machine == "x86_64"
    assert "interpreter.machine" in sources


@pytest.mark.parametrize("facts", [_intel_mac(None), _intel_mac(_interp(), apple_silicon=None),
                                   _intel_mac(_interp(), apple_silicon=True), _intel_mac(_interp("arm64"))],
                         ids=["no-python", "arch-unknown", "apple-silicon", "already-known"])
def test_no_python_arch_without_the_evidence(facts):
    assert intel_mac_python(facts, {}) is facts


def test_registered_in_the_statement_reader():
    facts = {(s.fact, str(s.value)) for s in read_statements(["=== Architecture ===", "arm64",
                                                              "#- PyTorch Lightning Version (e.g., 2.5.0): 2.5.1",
                                                              "* spaCy Version Used: 3.0.0"])}
    assert ("process.arch", "arm64") in facts
    assert ("package", str({"name": "pytorch-lightning", "version": "2.5.1"})) in facts
    assert ("package", str({"name": "spacy", "version": "3.0.0"})) in facts


def test_an_unknown_platform_names_no_os():
    """The Linux module reads a platform nobody named; its default 'Linux' is no evidence (a Mac paste that
    never names its OS must not read as Linux)."""
    facts = facts_from_snapshot({"platform": None, "commands": {}, "statements": [], "evidence": []})
    assert facts.os.name == "" and header_line(facts).startswith("OS unknown")


@pytest.mark.parametrize("text, name", [
    ("Graphics: AMD Radeon Pro 5500M 4 GB", "AMD Radeon Pro 5500M"),
    ("Radeon Pro Vega 20 4 GB", "Radeon Pro Vega 20"),
    ("AMD Radeon RX 580 8GB", "AMD Radeon RX 580"),
    ("Radeon Pro 555X 4096 MB", "Radeon Pro 555X"),
    ("AMD Radeon RX 6800 XT", "AMD Radeon RX 6800 XT"),
], ids=["about-this-mac", "vega-20", "rx-580-size", "size-in-mb", "no-size"])
def test_a_radeon_name_ends_before_its_memory(text, name):
    assert gpu_names(text) == [name]
