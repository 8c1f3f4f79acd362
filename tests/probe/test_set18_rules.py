"""Readers and knowledge added in the set-18 fix round, on literal lines: what they read, and near misses that
must not fire."""
import pytest

from macml.diagnose.framework_checks import check_python_wheels
from macml.diagnose.system import check_gpu
from macml.diagnose.torch_checks import check_cuda_arch, check_nvidia_driver
from macml.knowledge.amd_gfx import linux_only_gpu
from macml.knowledge.cuda_capabilities import cuda_too_old
from macml.knowledge.hardware import chip_of_kernel, nvidia_compute_capability
from macml.knowledge.nvidia_branches import nvidia_version
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import (asahi_rules, code_comment_answer_rules, import_pastes, package_list_item_rules,
                               windows_shell_rules)
from macml.probe.paste.machine_sentence_rules import virtual_machine
from macml.probe.paste.statement_rules import by_key
from macml.recipes.catalog import load_all


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


@pytest.mark.parametrize("line, said", [
    ("Okay I ran it in Command Prompt and got this error:", True),
    ("I ran the script from an administrator command prompt", True),
    ("I tried it in Windows PowerShell too", True),
    ("Run it in Command Prompt instead", False),  # advice
    ("Did you run it in Command Prompt?", False),
    ("I did not run it in cmd.exe", False),
    ("I ran it in PowerShell on my Mac", False),  # pwsh runs everywhere
    ("If I run it from cmd.exe it works", False),
])
def test_windows_shell(line, said):
    assert (windows_shell_rules.line_facts(line) == [("platform", "win32")]) is said


def test_asahi_gpu_name_is_linux_on_apple_silicon():
    line = "gpu.vulkan | WARNING Device [Apple M1 Max (G13C C0)] does not meet minimum requirements."
    assert asahi_rules.line_facts(line) == [("platform", "linux"), ("cpu.hardware_arch", "aarch64")]
    assert asahi_rules.line_facts("Metal device: Apple M1 Max") == []
    facts = _facts(line + "\n")
    assert facts.platform == "linux" and facts.cpu.apple_silicon and facts.cpu.chip.name == "Apple M1 Max"
    finding = check_gpu(facts, load_all())
    assert finding.level == "warn" and "outside macOS" in finding.message


@pytest.mark.parametrize("line, fact", [
    ('print(f"CUDA Available: {torch.cuda.is_available()}")  # Returns False', ("torch.cuda_available", False)),
    ("x = torch.backends.mps.is_available()  # -> True", ("torch.mps_available", True)),
])
def test_commented_answers(line, fact):
    assert code_comment_answer_rules.line_facts(line) == [fact]


@pytest.mark.parametrize("line", ["torch.cuda.is_available() # should be True", "torch.cuda.is_available()  # expected: True",
                                  "torch.cuda.is_available()"])
def test_commented_expectations_are_not_answers(line):
    assert code_comment_answer_rules.line_facts(line) == []


def test_package_list_items_under_a_package_label():
    lines = ["Package versions tested:", "- parakeet-mlx 0.5.1", "- mlx / mlx-metal:", "  - 0.31.1 / 0.31.1",
             "- torch==2.3.1", "", "## Reproduction", "- numpy 1.26.4"]
    found = package_list_item_rules.answers(lines)
    assert found == {1: [("package", {"name": "parakeet-mlx", "version": "0.5.1"})],
                     4: [("package", {"name": "torch", "version": "2.3.1"})]}
    assert package_list_item_rules.answers(["Steps:", "- run 2 times"]) == {}


def test_a_label_answered_by_one_list_item():
    facts = _facts("## Environment\n\nPython:\n- 3.12.11\n\nSteps:\n- 3.11.2\n- 3.10.1\n")
    assert facts.interpreter.version == "3.12.11"


def test_instinct_accelerators_run_linux_only():
    assert linux_only_gpu("AMD Instinct MI250X/MI250") and linux_only_gpu("Instinct MI300X OAM")
    assert not linux_only_gpu("AMD Radeon Instinct MI25") and not linux_only_gpu("Radeon RX 7900 XTX")
    facts = _facts("  Marketing Name:          AMD Instinct MI250X/MI250\n  Vendor Name:             AMD\n")
    assert facts.platform == "linux"


def test_vendor_only_gpu_takes_the_one_model_named():
    text = "inxi -G\nGraphics:\n  Device-1: AMD driver: amdgpu v: kernel\n" \
           "  API: OpenGL v: 4.6 vendor: amd mesa\n    v: 25.2.8 renderer: AMD Radeon 890M Graphics (radeonsi\n"
    assert [g.model for g in _facts(text).gpus] == ["AMD Radeon 890M Graphics"]


def test_nvs_cards_and_windows_driver_numbers():
    assert [nvidia_compute_capability(n) for n in ("NVIDIA NVS 315", "NVS 510", "NVS 810")] == ["2.1", "3.0", "5.0"]
    assert [nvidia_version(v) for v in ("32.0.15.8180", "31.0.15.3623", "535.54.03")] == ["581.80", "536.23", "535.54.03"]


def test_windows_driver_version_is_not_read_as_too_old():
    text = ("Card name: NVIDIA GeForce RTX 5070\nDriver Version: 32.0.15.8180\n"
            "Operating System: Windows 11 Pro 64-bit (10.0, Build 26100)\n")
    facts = _facts(text)
    assert facts.gpus[0].driver_version == "581.80"
    finding = check_nvidia_driver(facts, load_all())
    assert finding is None or finding.level == "ok"


def test_apple_kernels_name_their_chip():
    assert chip_of_kernel("root:xnu-12377.121.6~2/RELEASE_ARM64_T6030") == "Apple M3 Pro"
    assert chip_of_kernel("RELEASE_ARM64_T8132 arm64") == "Apple M4"
    assert chip_of_kernel("RELEASE_ARM64_T6041") is None  # M4 Pro and M4 Max share it
    assert chip_of_kernel("RELEASE_ARM64_T6000") is None


def test_a_model_sold_with_one_gpu_gives_its_cores():
    facts = _facts("Model: Mac14,15, BootROM 10151.41.12, proc 8:4:4 processors, 8 GB, SMC\n"
                   "Graphics: Apple M2, Apple M2, Built-In\n")
    assert [g.cores for g in facts.gpus] == [10]
    two_bins = _facts("Model: Mac14,2, BootROM 10151.41.12, proc 8:4:4 processors, 8 GB, SMC\n"
                      "Graphics: Apple M2, Apple M2, Built-In\n")
    assert [g.cores for g in two_bins.gpus] == [None]  # the 13-inch M2 Air came with 8 or 10


def test_a_build_older_than_the_gpu_cannot_run_it():
    assert cuda_too_old("12.0", "12.1") == "12.8" and cuda_too_old("12.0", "12.8") is None
    assert cuda_too_old("8.6", "11.0") == "11.1" and cuda_too_old("7.5", "10.2") is None and cuda_too_old("5.0", "9.0") is None
    facts = _facts("- **PyTorch Version**: 2.2.0+cu121\n- **GPU**: NVIDIA GeForce RTX 5090 (32GB GDDR7)\n- **OS**: Ubuntu (Linux)\n")
    finding = check_cuda_arch(facts, load_all())
    assert finding.level == "fail" and "predates compute capability 12.0" in finding.details[0]


def test_a_wrong_architecture_binary_is_a_wheel_problem():
    line = ("ImportError: dlopen(/Users/c/.local/lib/python3.10/site-packages/cv2/cv2.abi3.so, 0x0002): tried: "
            "'/Users/c/.local/lib/python3.10/site-packages/cv2/cv2.abi3.so' (mach-o file, but is an incompatible "
            "architecture (have 'x86_64', need 'arm64'))")
    finding = check_python_wheels(_facts(line + "\n"), load_all())
    assert finding.level == "fail" and "opencv-python" in finding.fix.commands[0]


def test_sw_vers_keys_are_macos_not_packages():
    assert by_key("productversion", "15.5") == [("platform", "darwin"), ("os.version", "15.5")]
    assert by_key("productversion", "10.0.19045") == []  # Windows' ProductVersion
    assert by_key("buildversion", "24F74") == [("platform", "darwin"), ("os.build", "24F74")]


def test_a_distribution_named_without_its_release():
    assert by_key("os", "Ubuntu (Linux)") == [("platform", "linux"), ("os.name", "Ubuntu")]
    assert by_key("os", "Linux") == [("platform", "linux")]
    facts = _facts("Distributor ID:\tDebian\nDescription:\tDebian GNU/Linux 11 (bullseye)\n")
    assert (facts.os.name, facts.os.version) == ("Debian GNU/Linux", "11")


@pytest.mark.parametrize("line, said", [
    ("now i use ubuntu22.04 vm with kernel 5.19. i tried", True),
    ("I am running my VM on Proxmox", True),
    ("I use the VM: 4 cores", False),
    ("I do not use a VM", False),
])
def test_working_in_a_vm(line, said):
    assert bool(virtual_machine(line)) is said
