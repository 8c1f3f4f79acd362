"""Set 14 (linux_wsl) rules, fed literal lines: WSL and its distribution, a WSL guest's GPU host, a count after a
GPU's name, Chinese RAM answers, a torch wheel's CUDA tag, and a REPL answer past torch's warning."""
from __future__ import annotations

from macml.knowledge.geforce_sizes import sized_name
from macml.knowledge.wsl import wsl_gpu_host
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes, wsl_rules
from macml.probe.paste.env_report_rules import chinese_answer
from macml.probe.paste.gpu_count_rules import gpu_count_after
from macml.probe.paste.linux_app_rules import torch_answers
from macml.probe.paste.python_prose_rules import answer_after, torch_said


def _facts(text: str):
    return facts_from_snapshot(import_pastes([text]))


def test_wsl_with_its_distribution():
    linux = ("platform", "linux")
    assert wsl_rules.line_facts("WSL Ubuntu22.04") == [linux, ("os.name", "Ubuntu 22.04"), ("os.wsl", True)]
    assert wsl_rules.line_facts("Ubuntu 24.04 WSL2") == [linux, ("os.name", "Ubuntu 24.04"), ("os.wsl", True)]
    assert wsl_rules.line_facts("WSL 2.6.3 + Ubuntu 24.04")[1] == ("os.name", "Ubuntu 24.04")
    assert wsl_rules.line_facts("- ROCm 7.2.4 installed in WSL (Ubuntu 22.04), including librocdxg")[1] == (
        "os.name", "Ubuntu 22.04")
    assert wsl_rules.line_facts("Debian 12 (WSL)")[1] == ("os.name", "Debian 12")
    assert wsl_rules.line_facts("WSL2 ubuntu2204")[1] == ("os.name", "Ubuntu 22.04")  # Ubuntu's YYMM
    assert wsl_rules.line_facts("系统:Windows11 Home 21H2 WSL2 Ubuntu2202")[1] == ("os.name", "Ubuntu")  # no such release
    assert wsl_rules.line_facts("it works when not in WSL Ubuntu 22.04") == []


def test_wsl_marks():
    assert wsl_rules.line_facts("- [x] WSL 2") == [("os.wsl", True)]
    assert wsl_rules.line_facts("- [ ] WSL 1") == []  # an unticked box
    assert wsl_rules.line_facts("[    1.519442] misc dxg: dxgk: dxgkio_query_adapter_info: Ioctl failed: -22") == [
        ("platform", "linux"), ("os.wsl", True)]
    assert wsl_rules.line_facts("[    0.328612] hv_vmbus: registering driver dxgkrnl")[0] == ("platform", "linux")
    assert wsl_rules.line_facts("I ran it on native Linux, without WSL") == []
    assert wsl_rules.line_facts("Does this work in WSL?") == []
    assert wsl_rules.line_facts("I tried WSL2 but went back to native Ubuntu 22.04") == []
    assert wsl_rules.line_facts("If you use WSL2 you may want to restart it") == []
    assert wsl_rules.line_facts("I'm on WSL, RTX 5090, my nvcc --version says:") == [("os.wsl", True), ("platform", "linux")]


def test_wsl_gpu_host_table():
    assert wsl_gpu_host("NVIDIA").arch == "x86_64" and wsl_gpu_host("AMD").arch == "x86_64"
    assert wsl_gpu_host("Intel") is None


def test_wsl_guest_with_a_discrete_gpu_is_x86_64():
    facts = _facts("### Operating System\n\nUbuntu 24.04 WSL2\n\n### GPU\n\nAMD RX 7800 XT\n")
    assert facts.platform == "linux" and facts.cpu.hardware_arch == "x86_64"
    plain = _facts("### Operating System\n\nUbuntu 24.04\n\n### GPU\n\nAMD RX 7800 XT\n")
    assert plain.cpu.hardware_arch == "unknown"  # no WSL: an AMD GPU alone does not give the architecture
    jetson = _facts("Ubuntu 20.04 WSL2\nGPU: NVIDIA Jetson AGX Orin\n")
    assert jetson.cpu.hardware_arch != "x86_64"


def test_a_linux_os_name_skips_the_windows_host():
    text = "### Windows Version\n\n Windows 11 10.0.26200.8037\n\n### Distro Version\n\n\tUbuntu 24.04.4 LTS\n\n- [x] WSL 2\n"
    facts = _facts(text)
    assert facts.platform == "linux" and (facts.os.name, facts.os.version) == ("Ubuntu", "24.04.4")


def test_dmesg_of_the_wsl_guest_outvotes_a_windows_driver_version():
    text = ("- GPU: AMD Radeon RX 7600\n- GPU driver: 32.0.31041.1004 (2026-08-17)\n"
            "- ROCm 7.2.4 installed in WSL (Ubuntu 22.04), including librocdxg\n"
            "[    1.514588] misc dxg: dxgk: dxgkio_is_feature_enabled: Ioctl failed: -22\n")
    facts = _facts(text)
    assert facts.platform == "linux" and facts.os.name == "Ubuntu" and facts.os.version == "22.04"


def test_gpu_count_after_the_name():
    four = gpu_count_after("GPU: Nvidia Titan RTX * 4 (driver 510.06)")
    assert [v["index"] for _, v in four] == [0, 1, 2, 3] and {v["name"] for _, v in four} == {"Nvidia Titan RTX"}
    assert len(gpu_count_after("Tesla V100 ×8")) == 8
    assert gpu_count_after("a 4 * 4 matrix") == [] and gpu_count_after("batch 32 x 4") == []
    facts = _facts("GPU: Nvidia Titan RTX * 4 (driver 510.06)\n")
    assert len(facts.gpus) == 4 and {g.driver_version for g in facts.gpus} == {"510.06"}
    assert {g.compute_capability for g in facts.gpus} == {"7.5"}


def test_chinese_ram_answer():
    assert chinese_answer("内存:24G") == [("cpu.memory_bytes", 24 * 1024**3)]
    assert chinese_answer("内存：16GB") == [("cpu.memory_bytes", 16 * 1024**3)]
    assert chinese_answer("显卡内存:8G") == []  # the graphics card's memory


def test_torch_wheel_cuda_tag_in_prose():
    assert torch_said("CUDAToolkit版本11.8，torch三件套在windows下和wsl2中都是匹配cu118的相同版本。") == [
        ("torch.cuda_version", "11.8")]
    assert torch_said("pip install torch --index-url https://download.pytorch.org/whl/cu118") == []
    assert torch_said("torch cu118 and cu121 both fail") == []  # which one is installed is unclear
    assert torch_said("should I try torch cu121?") == []


def test_repl_answer_past_torchs_warning():
    lines = [">>> torch.cuda.is_available()",
             "/home/u/lib/python3.12/site-packages/torch/cuda/__init__.py:129: UserWarning: CUDA initialization: "
             "Unexpected error from cudaGetDeviceCount(). Error 2: out of memory",
             "  return torch._C._cuda_getDeviceCount() > 0", "False"]
    assert answer_after(lines, 0) == 3
    assert torch_answers(lines) == {3: [("torch.cuda_available", False)]}
    assert answer_after(["x", "", "", "True"], 0) is None  # past the two lines it looks at


def test_geforce_with_a_chinese_size_is_its_memory():
    assert sized_name("RTX3060 6G", "显卡:RTX3060 6G") == "RTX3060"
    assert sized_name("GTX 1060 3G", "") == "GTX 1060 3G"  # a 1060 3GB is its own model
