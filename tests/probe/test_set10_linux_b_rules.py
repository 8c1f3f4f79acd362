"""Set 10 (linux-b) rules, fed literal lines: host clues, stack prose, and the knowledge tables they use."""
from __future__ import annotations

from macml.knowledge.amd_gfx import radeon_target
from macml.knowledge.cloud_instances import ec2_instance
from macml.knowledge.pc_boards import board_chipset
from macml.probe.paste import host_clue_rules as host, stack_prose_rules as prose
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.statement_rules import _os_line, by_key
from macml.probe.paste.statements import read_statements


def test_ec2_instance_types():
    small = ec2_instance("t4g.2xlarge")
    assert small.virtual and not small.has_gpu
    assert ec2_instance("g5.xlarge").has_gpu and ec2_instance("p4d.24xlarge").has_gpu
    assert not ec2_instance("m5.metal").virtual
    assert ec2_instance("hello world") is None


def test_instance_type_key_gives_guest_without_gpu():
    facts = host.keyed_facts("instance-type", "t4g.2xlarge")
    assert ("hypervisor", "Amazon EC2") in facts and any(f == "gpu.none" for f, _ in facts)
    assert host.keyed_facts("instance-type", "g4dn.xlarge") == [("hypervisor", "Amazon EC2"), ("cpu.hardware_arch", "x86_64")]
    assert host.keyed_facts("instance-type", "c5.metal") == [("hypervisor.none", True), ("cpu.hardware_arch", "x86_64"),
                                                            ("gpu.none", "EC2 c5.metal has no GPU")]
    assert host.keyed_facts("type", "t4g.2xlarge") == []


def test_uname_r_answer_is_the_kernel():
    lines = ["$ cat /etc/debian_version ", "10.9", "$ uname -r", "5.10.17-v8+", "$ python3 -VV"]
    assert host.answers(lines) == {3: [("platform", "linux"), ("os.kernel", "5.10.17-v8+")]}
    assert host.answers(["% uname -r", "23.5.0"]) == {}  # Darwin's release is read elsewhere
    assert host.answers(["uname -r", "5.10.17-v8+"]) == {}  # no prompt: prose, not a session


def test_nix_store_python_and_vllm_image():
    line = "/nix/store/a1jmpf3hja9g4rx7lwxza4gwng9vscj5-python3-3.11.13-env/lib/python3.11/site-packages/torch/cuda/x.py"
    assert host.nix_python(line) == [("python.version", "3.11.13")]
    assert host.nix_python("/nix/store/a1jmpf3hja9g4rx7lwxza4gwng9vscj5-python3.11-torch-2.1.0/lib") == []
    assert host.vllm_image("docker images vllm-openai:v0.7.2") == [
        ("platform", "linux"), ("package", {"name": "vllm", "version": "0.7.2"})]


def test_triton_too_old_names_gpu_and_capability():
    line = ("RuntimeError: Found Tesla P40 which is too old to be supported by the triton GPU compiler, which is used as "
            "the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.1")
    assert host.triton_too_old(line) == [("gpu.mention", "Tesla P40"),
                                         ("gpu.capability", {"name": "Tesla P40", "capability": "6.1"})]


def test_headerless_smi_csv_row():
    row = ("NVIDIA RTX A6000, 00000000:01:00.0, 550.54.15, P8, 4, 1, 44, 0 %, 0 %, 49140 MiB, 48668 MiB, 1 MiB, No, "
           "[N/A], 8.6, [N/A], [N/A], 18.51 W, 300.00 W")
    facts = host.smi_csv_row(row)
    gpu = dict(facts)["gpu"]
    assert gpu["name"] == "NVIDIA RTX A6000" and gpu["memory_mib"] == 49140 and gpu["capability"] == "8.6"
    assert ("gpu.driver", "550.54.15") in facts
    assert host.smi_csv_row("NVIDIA RTX A6000, 550.54.15, 49140 MiB") == []  # no bus id: not this shape


def test_same_bus_id_rows_are_one_gpu():
    row = "NVIDIA RTX A6000, 00000000:01:00.0, 550.54.15, P8, 44, 49140 MiB, 48668 MiB, 1 MiB, 8.6, 18.51 W"
    gpus = [s for s in read_statements([row, row]) if s.fact == "gpu"]
    assert len({s.value["index"] for s in gpus}) == 1


def test_nvidia_driver_in_prose_means_an_nvidia_gpu():
    assert prose.nvidia_driver_named("(Nvidia driver is 516.94) But apparently") == [
        ("gpu.driver", "516.94"), ("gpu.present", "NVIDIA")]
    assert ("gpu.present", "NVIDIA") in prose.nvidia_driver_named("1. install cuda on wsl driver (geforce, driver version 470.76)")
    assert prose.nvidia_driver_named("the CUDA driver version is 12.2") == []
    assert prose.my_rtx("it seems WSL2 can't see my RTX? ") == [("gpu.present", "NVIDIA")]
    assert prose.my_rtx("my RTX 3090 is fine") == []  # a named model is read by the name rules


def test_amd_cards_counted_and_amdgpu_pro():
    line = "I'm trying to use ROC-smi on a system with 6 AMD RX 580 cards, running ubuntu 16.04 and AMDGPU-PRO 17.10 drivers."
    gpus = [v for f, v in prose.counted_cards(line) if f == "gpu"]
    assert len(gpus) == 6 and {g["name"] for g in gpus} == {"AMD RX 580"} and {g["vendor"] for g in gpus} == {"AMD"}
    assert ("gpu.driver", "17.10") in prose.amdgpu_pro(line)
    assert radeon_target("AMD RX 580") == "gfx803" and radeon_target("Radeon RX 7900 XTX") == "gfx1100"


def test_board_chipset_is_x86():
    assert board_chipset("This is on an ASRock H81 BTC Pro R2.0 motherboard.") == "H81"
    assert prose.board("MSI B450 Tomahawk motherboard") == [("cpu.hardware_arch", "x86_64")]
    assert board_chipset("a Raspberry Pi 4 board") is None


def test_versions_in_parentheses():
    assert prose.paren_version("python (version 3.8.10) ") == [("python.version", "3.8.10")]
    assert prose.paren_version("   - pytorch package (version 1.7.1)") == [
        ("package", {"name": "torch", "version": "1.7.1"}), ("torch.version", "1.7.1")]


def test_collect_env_gcn_marker_and_linux_distro_and_dist_name():
    assert gpu_names("AMD Radeon RX 7900 XTXNoGCNArchNameOnOldPyTorch") == ["AMD Radeon RX 7900 XTX"]
    assert ("os.name", "Ubuntu 20.04.2 LTS") in _os_line("Linux Ubuntu 20.04.2 LTS")
    assert ("os.name", "Linux Mint 21") in _os_line("Linux Mint 21")
    assert by_key("tensorflow version", "tensorflow-gpu 2.5.0") == [
        ("package", {"name": "tensorflow-gpu", "version": "2.5.0"})]
