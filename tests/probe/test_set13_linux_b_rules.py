"""Set 13's Linux-b rules (app_report_rules: Warp's banner, LM Studio's survey and runtime names, Windows driver keys;
board partners and 'Radeon 8060S' in GPU names, '<Name> Linux' distributions, Intel Arc's bare model numbers, AVX2
for llama.cpp apps, torch.cuda on an AMD GPU), fed literal lines."""
from macml.diagnose import run_checks
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import app_report_rules as app
from macml.probe.paste import import_pastes
from macml.probe.paste.gpu_names import gpu_names, gpu_value
from macml.probe.paste.spec_prose_rules import owned_gpu
from macml.probe.paste.statement_rules import platform_word
from macml.recipes.catalog import load_all

RECIPES = load_all()
GIB = 1024**3

WARP = ["Warp 1.10.0 initialized:",
        "   CUDA Toolkit 12.8, Driver 13.0",
        "   Devices:",
        '     "cpu"      : "x86_64"',
        '     "cuda:0"   : "NVIDIA GeForce RTX 5090" (32 GiB, sm_120, mempool enabled)',
        "   Kernel cache:"]


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _checks(facts):
    return {f.check: f.level for f in run_checks(facts, RECIPES)}


def test_warp_banner():
    found = app.warp_banner(WARP)
    assert found[1] == [("gpu.cuda_driver", "13.0")]
    assert found[3] == [("cpu.hardware_arch", "x86_64")]
    assert found[4] == [("gpu", {"name": "NVIDIA GeForce RTX 5090", "vendor": "NVIDIA", "memory_mib": 32768,
                                 "index": 0, "capability": "12.0"})]
    assert app.warp_banner(WARP[2:]) == {}  # device lines without the banner: another tool's


def test_warp_banner_names_one_gpu_beside_prose():
    facts = _facts("I'm on WSL, RTX 5090, my nvcc --version says:\n" + "\n".join(WARP) + "\n")
    assert [(g.model, g.compute_capability, g.cuda_driver_version) for g in facts.gpus] == [
        ("NVIDIA GeForce RTX 5090", "12.0", "13.0")]
    assert facts.cpu.hardware_arch == "x86_64"


def test_lm_studio_survey():
    lines = ['        "cpuSurveyResult": {', '          "cpuInfo": {', '            "architecture": "x86_64",',
             '        "memoryInfo": {', '          "ramCapacity": 8504426496,']
    assert app.lm_studio_survey(lines) == {2: [("cpu.hardware_arch", "x86_64")], 4: [("cpu.memory_bytes", 8504426496)]}
    assert app.lm_studio_survey(['"architecture": "x86_64",']) == {}  # not in a survey


def test_lm_studio_runtime_names_the_os():
    assert app.runtime_platform("but CUDA llama.app for windows shows incompatible") == [("platform", "win32")]
    assert app.runtime_platform("Vulkan llama.cpp (Linux) v1.2.0") == [("platform", "linux")]
    assert app.runtime_platform("llama.cpp for windows is slow") == []


def test_windows_driver_keys():
    assert app.windows_driver_vendor("32.0.13031.3015") == "AMD"
    assert app.windows_driver_vendor("32.0.15.6094") == "NVIDIA"
    assert app.windows_driver_vendor("31.0.101.5333") == "Intel"
    assert app.keyed_facts("gpu driver", "32.0.13031.3015") == [("platform", "win32"), ("gpu.driver", "32.0.13031.3015")]
    assert app.keyed_facts("gpu driver", "32.0.15.6094") == [("platform", "win32"), ("gpu.driver", "560.94")]
    assert app.keyed_facts("gpu driver", "31.0.101.5333") == []  # Intel's: not an NVIDIA/AMD driver version
    assert app.keyed_facts("kernel", "32.0.13031.3015") == []


def test_driver_in_brackets_after_a_gpu():
    assert app.bracket_driver("GPU: AMD Radeon RX 6650 XT (Driver Version 23.10.2)") == [("gpu.driver", "23.10.2")]
    assert app.bracket_driver("Tool (Driver Version 23.10.2)") == []


def test_board_partner_kept_in_a_gpu_field():
    facts = _facts("GPU: GIGABYTE AMD Radeon RX 6650 XT (Driver Version 23.10.2)\nRAM: 64GB\n")
    assert [(g.model, g.driver_version) for g in facts.gpus] == [("GIGABYTE AMD Radeon RX 6650 XT", "23.10.2")]
    assert facts.gpus[0].display_name == "GIGABYTE AMD Radeon RX 6650 XT"
    assert gpu_value("AMD Radeon RX 6650 XT")[0][1]["name"] == "AMD Radeon RX 6650 XT"


def test_radeon_s_igpu_named_without_graphics():
    assert gpu_names("- **GPU**: AMD Radeon 8060S (gfx1151)") == ["AMD Radeon 8060S"]
    assert gpu_names("AMD Ryzen 7 7840U w/ Radeon 780M Graphics") == ["Radeon 780M Graphics"]


def test_named_linux_distributions():
    assert platform_word("Nobara Linux 43 (Fedora-based)") == "linux"
    assert platform_word("Oracle Linux Server 9.3") == "linux"
    assert platform_word("EndeavourOS") == "linux"
    assert platform_word("Windows Subsystem for Linux") == "win32"
    facts = _facts("- **OS**: Nobara Linux 43 (Fedora-based)\n")
    assert (facts.platform, facts.os.name, facts.os.version) == ("linux", "Nobara Linux", "43")


def test_bare_arc_model_owned():
    assert owned_gpu("I have an A770 16GB, with the driver 5333 (latest)") == [
        ("gpu.owned", {"name": "A770", "vendor": "Intel", "memory_mib": 16384, "index": None})]
    assert owned_gpu("the a770 is a phone") == []


def test_no_avx2_warns_for_a_llama_cpp_app():
    facts = _facts("CPU：Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz   2.80 GHz\nGPU：NVIDIA GeForce GTX 1060 5G\n"
                   "### OS\n\nWindows\n\n### Ollama version\n\n0.1.32\n")
    assert _checks(facts).get("cpu_features") == "warn"
    haswell = _facts("CPU: Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz\n### OS\n\nWindows\n\n### Ollama version\n\n0.1.32\n")
    assert _checks(haswell).get("cpu_features") != "warn"


def test_torch_cuda_on_an_amd_gpu_is_a_rocm_build():
    facts = _facts("import torch\nCUDA available: True\n- **GPU**: AMD Radeon 8060S (gfx1151)\n"
                   "- **OS**: Nobara Linux 43 (Fedora-based)\n")
    assert _checks(facts).get("torch_build") != "fail"
