"""General rules written for the older captures' known_wrong conclusions, fed literal lines: CPU models
without AVX/AVX2, x86 flag lists in more layouts, environment variables set anywhere, GPUs and CPUs named
in sentences, systeminfo, target triples, NCCL's log, jetson_release, ZLUDA."""
import pytest

from macml.diagnose import run_checks
from macml.knowledge.compat import torch_cuda_arches
from macml.knowledge.cpu_models import normalise_brand, x86_vectors
from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import find_parts, import_pastes
from macml.probe.paste import general_rules as rules
from macml.recipes.catalog import load_all

GIB, MIB = 1024 ** 3, 1024 ** 2
RECIPES = load_all()


def _owned(name):
    return ("gpu.owned", {"name": name, "vendor": "NVIDIA", "memory_mib": None, "index": None})


def _env(name, value):
    return ("env", {"name": name, "value": value})


# --- knowledge: CPU models ----------------------------------------------------------------------------

@pytest.mark.parametrize("brand, avx, avx2", [
    ("Intel(R) Core(TM)2 Duo CPU     E7500  @ 2.93GHz", False, False),
    ("Intel(R) Core(TM)2 Quad CPU    Q6600  @ 2.40GHz", False, False),
    ("Intel(R) Celeron(R) CPU J3455 @ 1.50GHz", False, False),
    ("Intel(R) Celeron(R) N4020 CPU @ 1.10GHz", False, False),
    ("Intel(R) Pentium(R) Silver N5000 CPU @ 1.10GHz", False, False),
    ("Intel(R) Pentium(R) CPU G4560 @ 3.50GHz", False, False),
    ("Intel(R) Pentium(R) Dual  CPU  E2180  @ 2.00GHz", False, False),
    ("Intel(R) Xeon(R) CPU           X5690  @ 3.47GHz", False, False),
    ("Intel Xeon X5690", False, False),
    ("Intel(R) Xeon(R) CPU           E5620  @ 2.40GHz", False, False),
    ("Intel(R) Xeon(R) CPU W3520 @ 2.67GHz", False, False),
    ("Intel(R) Core(TM) i7 CPU         920  @ 2.67GHz", False, False),
    ("Intel(R) Core(TM) i5 CPU       M 430  @ 2.27GHz", False, False),
    ("AMD Phenom(tm) II X4 965 Processor", False, False),
    ("AMD Athlon(tm) II X4 640 Processor", False, False),
    ("Intel(R) Core(TM) i7-2600K CPU @ 3.40GHz", True, False),
    ("Intel(R) Core(TM) i5-3470 CPU @ 3.20GHz", True, False),
    ("Intel(R) Xeon(R) CPU E5-2620 v2 @ 2.10GHz", True, False),
    ("Intel(R) Xeon(R) CPU E3-1230 V2 @ 3.30GHz", True, False),
    ("AMD FX(tm)-8350 Eight-Core Processor", True, False),
], ids=["core2-duo", "core2-quad", "celeron-j3455-goldmont", "celeron-n4020", "pentium-silver", "pentium-g4560",
        "pentium-dual", "xeon-x5690-westmere", "xeon-in-words", "xeon-e5620", "xeon-w3520", "i7-920-nehalem",
        "i5-m430-westmere-mobile", "phenom-ii", "athlon-ii", "sandy-bridge", "ivy-bridge", "xeon-e5-v2", "xeon-e3-v2",
        "fx-piledriver"])
def test_cpu_models_without_avx_or_avx2(brand, avx, avx2):
    known = x86_vectors(brand)
    assert known is not None and (known.avx, known.avx2) == (avx, avx2) and known.source


@pytest.mark.parametrize("brand", [
    "Intel(R) Core(TM) i7-4770K CPU @ 3.50GHz", "Intel(R) Core(TM) i7-10750H CPU @ 2.60GHz",
    "Intel(R) Core(TM) i5-1135G7 @ 2.40GHz", "Intel(R) Xeon(R) CPU E5-2620 v3 @ 2.40GHz", "Intel(R) Xeon(R) Gold 6130 CPU",
    "Intel(R) Pentium(R) Gold 7505 @ 2.00GHz", "Intel(R) Celeron(R) 6305 @ 1.80GHz", "Intel(R) Celeron(R) G6900",
    "AMD Ryzen 7 5800X 8-Core Processor", "AMD FX-8800P Radeon R7", "Apple M1", "Cortex-A72", "", "Intel",
], ids=["haswell", "comet-lake", "tiger-lake", "xeon-e5-v3", "xeon-gold", "pentium-tiger-lake", "celeron-tiger-lake",
        "celeron-alder-lake", "ryzen", "excavator", "apple", "arm", "empty", "vendor-only"])
def test_unknown_or_newer_cpus_stay_unknown(brand):
    assert x86_vectors(brand) is None


def test_brand_normalised():
    assert normalise_brand("Intel(R) Xeon(R) CPU           X5690  @ 3.47GHz") == "intel xeon x5690 @ 3.47ghz"
    assert normalise_brand("AMD FX(tm)-8350 Eight-Core Processor") == "amd fx-8350 eight-core processor"


# --- knowledge: GPU and wheel table gaps -----------------------------------------------------------------

@pytest.mark.parametrize("name, capability", [
    ("GeForce 940MX", "5.0"), ("NVIDIA GeForce 930MX", "5.0"), ("GeForce 840M", "5.0"), ("NVIDIA GeForce GTX 960M", "5.0"),
    ("GeForce GTX 960", "5.2"), ("NVIDIA GeForce GTX 980M", "5.2"), ("GeForce MX130", "5.0"), ("GeForce MX150", "6.1"),
    ("Quadro K620", "5.0"), ("Quadro K4000", "3.0"), ("GT1030", "6.1"), ("RTX3090", "8.6"), ("A6000", "8.6"),
])
def test_capability_table_gaps(name, capability):
    assert nvidia_compute_capability(name) == capability


def test_cu129_wheels_have_no_pascal_kernels():
    arches = torch_cuda_arches("2.8.0+cu129", "cu129", "x86_64")
    assert arches and "sm_61" not in arches and "sm_60" not in arches and "sm_120" in arches


# --- x86 flag lists -------------------------------------------------------------------------------------

_X86 = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr sse sse2 ssse3 sse4_1 lm"


@pytest.mark.parametrize("line, platform", [
    (f"flags : {_X86}", "linux"),
    (f"flags\t\t: {_X86} avx avx2", "linux"),
    ("       capabilities: lm fpu fpu_exception wp vme de pse tsc msr pae mce cx8 apic sse sse2 hypervisor", "linux"),
    (f"Flags:                 {_X86}", "linux"),
    ("Flags: 3dnowprefetch, abm, adx, aes, apic, avx, avx2, fpu, sse, sse2, ssse3", None),
], ids=["cpuinfo-spaced", "cpuinfo-tabbed", "lshw-capabilities", "lscpu-grep", "py-cpuinfo-commas"])
def test_flag_lines(line, platform):
    parts = rules.find_flag_lines(["some text", line])
    assert len(parts) == 1 and parts[0].start == 2 and parts[0].platform == platform
    assert {"fpu", "sse2"} <= set(parts[0].cpu_flags)


@pytest.mark.parametrize("line", [
    "\tFlags: bus master, fast devsel, latency 0, IRQ 132",
    "       capabilities: pm msi pciexpress bus_master cap_list ethernet physical tp",
    "flags : a b",
], ids=["lspci-flags", "nic-capabilities", "too-short"])
def test_other_flag_lines_are_not_cpu_flags(line):
    assert rules.find_flag_lines([line]) == []


# --- environment variables ------------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("`export CUDA_VISIBLE_DEVICES=6,7`", [_env("CUDA_VISIBLE_DEVICES", "6,7")]),
    ("**NCCL_P2P_DISABLE=1** NCCL_DEBUG=TRACE  ./all_reduce_perf -b 8 -e 2G -g 2",
     [_env("NCCL_P2P_DISABLE", "1"), _env("NCCL_DEBUG", "TRACE")]),
    ("CUDA_VISIBLE_DEVICES: 0", [_env("CUDA_VISIBLE_DEVICES", "0")]),
    ("with CUDA_VISIBLE_DEVICES=0, it runs", [_env("CUDA_VISIBLE_DEVICES", "0")]),
    ("set CUDA_VISIBLE_DEVICES=1", [_env("CUDA_VISIBLE_DEVICES", "1")]),
    ('$env:CUDA_VISIBLE_DEVICES="0,1"', [_env("CUDA_VISIBLE_DEVICES", "0,1")]),
    ("os.environ['CUDA_VISIBLE_DEVICES'] = '2'", [_env("CUDA_VISIBLE_DEVICES", "2")]),
    ("docker run --gpus all -e NCCL_IB_DISABLE=1 image", [_env("NCCL_IB_DISABLE", "1")]),
    ('CUDA_VISIBLE_DEVICES="" python train.py', [_env("CUDA_VISIBLE_DEVICES", "")]),
    ("HSA_OVERRIDE_GFX_VERSION=10.3.0 python main.py", [_env("HSA_OVERRIDE_GFX_VERSION", "10.3.0")]),
    ("if os.environ['CUDA_VISIBLE_DEVICES'] == '0':", []),
    ("echo $CUDA_VISIBLE_DEVICES", []),
    ("CUDA_VISIBLE_DEVICES: not set", []),
    ("You can override by setting PLAIDML_DEVICE_IDS).", []),
    ("MY_CUDA_VISIBLE_DEVICES=3", []),
], ids=["export", "command-prefix-in-bold", "env-dump", "sentence-comma", "windows-set", "powershell", "python", "docker",
        "empty-hides-all", "hsa-override", "comparison", "reference", "not-set", "named-only", "other-name"])
def test_env_assignments(line, expected):
    assert rules.env_assignments(line) == expected


# --- CPUs and GPUs in words -----------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("On my Mac Pro (5,1, dual X5690), MacOS 10.15.6:", [("cpu.brand", "Intel Xeon X5690")]),
    ("Server: 2x Xeon E5-2680 v2, 128GB", [("cpu.brand", "Intel Xeon E5-2680 V2")]),
    ("a small Celeron J3455 box running debian", [("cpu.brand", "Intel Celeron J3455")]),
    ("my old Core 2 Duo E8400 desktop", [("cpu.brand", "Intel Core 2 Duo E8400")]),
    ("AMD Phenom II X4 965 with 8GB", [("cpu.brand", "AMD Phenom II X4 965")]),
    ("FX-8350 and a GTX 1060", [("cpu.brand", "AMD FX-8350")]),
    ("model name : Intel(R) Xeon(R) CPU X5690 @ 3.47GHz", []),
    ("I bought 2x 5690 shares", []),
], ids=["dual-xeon", "2x-xeon-e5", "celeron", "core2", "phenom", "fx", "formal-brand-left-to-others", "no-cpu"])
def test_cpu_in_words(line, expected):
    assert rules.cpu_in_words(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("On my rack I have two GPUs: A6000 and GT1030,  Nevertheless, I got the warning", [_owned("A6000"), _owned("GT1030")]),
    ("My GPU is an RTX 3090.", [_owned("RTX 3090")]),
    ("We use 8 A100 GPUs per node", [_owned("A100")]),
    ("I have a GTX 1080 Ti graphics card and it works", [_owned("GTX 1080 Ti")]),
    ("which runs on 15GB T4? although I have 48GB memory.", []),
    ("The A100 GPU is faster than mine", []),
    ("I have two GPUs. The cloud one was a V100", []),
], ids=["bare-models", "my-gpu", "we-use", "graphics-card", "no-gpu-word", "not-owned", "other-sentence"])
def test_gpus_in_prose(line, expected):
    assert rules.gpus_in_prose(line) == expected


# --- system and tool lines ------------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("System Type:                   x64-based PC", [("platform", "win32"), ("cpu.hardware_arch", "x86_64")]),
    ("System Type:               ARM64-based PC", [("platform", "win32"), ("cpu.hardware_arch", "arm64")]),
    ("Total Physical Memory:         32,550 MB", [("cpu.memory_bytes", 32550 * MIB)]),
    ("Total Physical Memory:     16.236 MB", [("cpu.memory_bytes", 16236 * MIB)]),
    ("Target: x86_64-unknown-linux-gnu", [("platform", "linux"), ("cpu.hardware_arch", "x86_64")]),
    ("host: aarch64-unknown-linux-gnu", [("platform", "linux"), ("cpu.hardware_arch", "aarch64")]),
    ("i-56b:9822:9822 [0] NCCL INFO cudaDriverVersion 12080",
     [("platform", "linux"), ("gpu.cuda_driver", "12.8"), ("gpu.present", "NVIDIA")]),
    ("node1:123:456 [1] NCCL INFO Using network IB", [("platform", "linux")]),
    ("CUDA version: 64_112", [("platform", "win32")]),
    ("'cuda_version': '64_118', 'cudnn_version': '64_8'", [("platform", "win32")]),
    ("Model: NVIDIA Orin Nano Developer Kit - Jetpack 5.1.4 [L4T 35.6.0]", [("platform", "linux")]),
    (" - Distribution: Ubuntu 20.04 focal", [("platform", "linux"), ("os.name", "Ubuntu 20.04 focal")]),
    (" - Release: 5.10.216-tegra", [("platform", "linux"), ("os.kernel", "5.10.216-tegra")]),
    ("- **Name:** cuda:0 Radeon RX Vega [ZLUDA] : native",
     [("gpu", {"name": "Radeon RX Vega", "vendor": "AMD", "memory_mib": None, "index": None}), ("gpu.present", "AMD"),
      ("torch.cuda_available", True)]),
    ("System Type: X86-based PC", []),
    ("Release: 22.04", []),
], ids=["systeminfo-x64", "systeminfo-arm64", "systeminfo-memory-comma", "systeminfo-memory-dot", "target-triple",
        "rustc-host", "nccl-driver", "nccl-log", "tf-windows-build-info", "tf-build-info-dict", "jetson-model",
        "jetson-distribution", "jetson-release", "zluda", "32-bit-windows", "not-a-tegra-release"])
def test_system_lines(line, expected):
    assert rules.system_lines(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Python 2.7.16", [("python.version", "2.7.16")]),
    ("debian 10.2", [("platform", "linux"), ("os.name", "debian 10.2")]),
    ("I have the same problem under Debian 10 Buster, Python v2.7, tensorflow v1.14.0:",
     [("package", {"name": "tensorflow", "version": "1.14.0"})]),
    ("tensorflow 2.1.0 from pip3 also tried build from source", [("package", {"name": "tensorflow", "version": "2.1.0"})]),
    ("i7-6700, 32GB RAM, macOS 13.3 Ventura, pyenv & python 3.10.11", [("python.version", "3.10.11")]),
    ("MacBook Pro 14 M3 Pro 14.2.1", [("platform", "darwin"), ("os.version", "14.2.1")]),
    ("I have 2 GPUs in imc2017 RAM64G, one of which is connected through eGPU.", [("cpu.memory_bytes", 64 * GIB)]),
    ("(tensorflow-metal) (base) dl@x86_64-apple-darwin13 ~ % conda list tensorflow",
     [("platform", "darwin"), ("python.machine", "x86_64")]),
    ("pytorch 2.12", []),
    ("It requires tensorflow 2.4, which ...", []),
    ("upgrading from torch 1.13, to 2.0 broke it", []),
    ("MacBook Pro M1 Max, Python 3.11.4", [("python.version", "3.11.4")]),
], ids=["python2-answer", "distro-alone-lowercase", "setup-line", "from-pip", "python-in-setup-list", "mac-header-line",
        "ram-first", "conda-host-prompt", "bare-note-left-alone", "requirement", "upgrade", "python-is-not-macos-but-python"])
def test_version_lines(line, expected):
    assert rules.version_lines(line) == expected


# --- through the importer and the checks ----------------------------------------------------------------

def _findings(text):
    facts = facts_from_snapshot(import_pastes([text]))
    return facts, {f.check: f for f in run_checks(facts, RECIPES)}


def test_a_named_cpu_without_avx_warns_without_flags():
    facts, findings = _findings("On my Mac Pro (5,1, dual X5690), MacOS 10.15.6:\n")
    assert facts.cpu.flags is None and findings["cpu_features"].level == "warn"
    assert "no AVX" in findings["cpu_features"].message and "X5690" in findings["cpu_features"].message


def test_a_named_cpu_without_avx_fails_tensorflow():
    _, findings = _findings("Model name:          Intel(R) Celeron(R) CPU J3455 @ 1.50GHz\ntensorflow 2.1.0 from pip3\n")
    assert findings["cpu_features"].level == "fail"


def test_an_unknown_cpu_model_stays_unknown():
    _, findings = _findings("Model name: Intel(R) Core(TM) i7-12700K\ntensorflow 2.15.0 from pip\n")
    assert "cpu_features" not in findings


def test_flags_win_over_the_model():
    text = ("product: Intel(R) Xeon(R) CPU E5-2620 v2 @ 2.10GHz\n"
            f"capabilities: {_X86} sse4_2 avx hypervisor\n")
    facts, findings = _findings(text)
    assert "avx" in facts.cpu.flags and facts.vm is True
    assert "cpu_features" not in findings or "AVX2" in findings["cpu_features"].message


def test_cpuinfo_with_spaced_colons_reads_the_flags():
    text = "model name : Intel(R) Core(TM)2 Duo CPU E7500 @ 2.93GHz\n" f"flags : {_X86} xsave\n"
    parts = [p.shape for p in find_parts(text)]
    facts = facts_from_snapshot(import_pastes([text]))
    assert "cpu_flags" in parts and "avx" not in facts.cpu.flags and facts.platform == "linux"


def test_visible_devices_index_beyond_the_listed_gpus():
    text = "`export CUDA_VISIBLE_DEVICES=6,7`\nGPU 0,1: NVIDIA H100 80GB HBM3\nCUDA available: True\n"
    facts, findings = _findings(text)
    assert facts.env["CUDA_VISIBLE_DEVICES"] == "6,7" and findings["hidden_gpus"].level == "warn"
    assert "at least 8" in findings["hidden_gpus"].message


def test_visible_devices_covering_every_gpu_is_fine():
    _, findings = _findings("export CUDA_VISIBLE_DEVICES=0,1\nGPU 0: NVIDIA H100 80GB HBM3\nGPU 1: NVIDIA H100 80GB HBM3\n")
    assert "hidden_gpus" not in findings


def test_nccl_variable_in_a_command_line():
    _, findings = _findings("NCCL_P2P_DISABLE=1 torchrun --nproc_per_node 2 train.py\n"
                            "#  Rank  0 Group  0 Pid 1 on host device  0 [0000:2c:00] NVIDIA GeForce RTX 4090\n")
    assert findings["nccl_env"].level == "warn"


def test_owned_gpus_in_prose_are_two_models():
    facts, findings = _findings("On my rack I have two GPUs: A6000 and GT1030, and a question.\n")
    assert sorted((g.model, g.compute_capability) for g in facts.gpus) == [("A6000", "8.6"), ("GT1030", "6.1")]
    assert findings["mixed_gpus"].level == "warn"


def test_an_owned_gpu_named_whole_elsewhere_counts_once():
    facts, _ = _findings("I have an A6000 GPU.\nUsing NVIDIA RTX A6000.\n")
    assert [g.model for g in facts.gpus] == ["NVIDIA RTX A6000"]


def test_an_unnamed_capability_is_not_every_gpus():
    facts, _ = _findings("I have two GPUs: A6000 and GT1030.\n"
                         "CUDA SETUP: Highest compute capability among GPUs detected: 6.1\n")
    assert {g.model: g.compute_capability for g in facts.gpus} == {"A6000": "8.6", "GT1030": "6.1"}


def test_systeminfo_block():
    facts = facts_from_snapshot(import_pastes(["OS Name:                   Microsoft Windows 11 Pro\n"
                                               "System Type:               x64-based PC\n"
                                               "Total Physical Memory:     32,550 MB\n"]))
    assert facts.platform == "win32" and facts.cpu.hardware_arch == "x86_64" and round(facts.cpu.memory_bytes / GIB) == 32


def test_torch_warning_naming_an_nvidia_gpu_reads_as_linux_without_os_words():
    snapshot = import_pastes(["/env/lib/python3.7/site-packages/torch/cuda/__init__.py:104: UserWarning:\n"
                              "NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible with the current "
                              "PyTorch installation.\n"])
    assert snapshot["platform"] == "linux"
