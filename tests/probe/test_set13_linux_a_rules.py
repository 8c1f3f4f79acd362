"""Set 13 (linux-a) rules fed literal lines: x86 CPUs and APU Radeons named in prose, rocminfo's ROCk line, VM
answers and inxi boards, bare Intel Arc numbers, a distribution the writer runs, another machine's GPUs, EC2
instance arches, and GPU names that stop at a conjunction."""
import pytest

from macml.knowledge.cloud_instances import ec2_instance
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import host_clue_rules, import_pastes
from macml.probe.paste import host_signs_rules as rules
from macml.probe.paste import machine_sentence_rules
from macml.probe.paste.gpu_names import gpu_names

X86 = [("cpu.hardware_arch", "x86_64")]


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


@pytest.mark.parametrize("line, want", [
    ("though in my case it's actually a minisforum HX80G (paired with a Ryzen 5800H).", X86),
    ("* Machine is an HPE server with two Epyc CPUs.", X86),
    ("a workstation with dual Xeon processors", X86),
    ("my Ryzen is fast", []),  # no model number, no 'with ...'
    ("the Epyc docs say so", []),
])
def test_x86_prose(line, want):
    assert rules.x86_prose(line) == want


@pytest.mark.parametrize("line, want", [
    ("Device: cuda:0 Radeon 8060S Graphics : native", X86),
    ("AMD Ryzen 7 8845HS w/ Radeon 780M Graphics", X86),
    ("AMD Radeon(TM) Vega 8 Graphics", X86),
    ("Radeon RX 6600M", []),  # a discrete laptop GPU: says nothing of the CPU
    ("AMD Radeon Pro 560X", []),
])
def test_radeon_igpu(line, want):
    assert rules.radeon_igpu(line) == want


def test_rock_module_is_linux():
    assert rules.rock_module("ROCk module is loaded") == [("platform", "linux")]
    assert rules.rock_module("ROCk module version 6.7.0 is loaded") == [("platform", "linux")]
    assert rules.rock_module("rock and roll") == []


@pytest.mark.parametrize("key, value, want", [
    ("running in a vm", "no", [("hypervisor.none", True)]),
    ("running in a vm", "yes", [("hypervisor", None)]),
    ("running in a vm", "maybe", []),
    ("vm", "no", []),
])
def test_vm_answer(key, value, want):
    assert rules.vm_answer(key, value) == want


def test_vm_key_value_is_not_a_vm_sentence():
    assert machine_sentence_rules.virtual_machine("Running in a VM          : no") == []
    assert machine_sentence_rules.virtual_machine("I am running in a VM on Proxmox") == [("hypervisor", None)]
    facts = _facts("Operating system         : Linux 6.1.62-1.el9.elrepo.x86_64\nRunning in a VM          : no\n")
    assert facts.vm is False


@pytest.mark.parametrize("line, want", [
    ("  Mobo: ASUSTeK model: PRIME B550-PLUS v: Rev X.0x", [("hypervisor.none", True)]),
    ("  Mobo: N/A model: N/A serial: N/A", []),
    ("  Mobo: Intel model: 440BX Desktop Reference Platform", [("hypervisor.none", True)]),
    ("  Mobo: QEMU model: Standard PC (Q35 + ICH9, 2009)", []),
])
def test_inxi_board(line, want):
    assert rules.inxi_board(line) == want


def test_arc_number():
    assert rules.arc_number("1. Run an Intel ARC card (I'm using an A770)") == [
        ("gpu.owned", {"name": "A770", "vendor": "Intel", "memory_mib": None, "index": None})]
    assert rules.arc_number("NVIDIA RTX A6000 and an A770 mention without the brand") == []
    assert rules.arc_number("GPU: Intel Arc A770 16GB") == []  # named whole: the GPU readers have it


@pytest.mark.parametrize("line, want", [
    ("In the live ISO of openSUSE Tumbleweed Xfce (my go-to for testing), koboldcpp does not find", [("platform", "linux")]),
    ("I'm running Fedora 40 on it", [("platform", "linux")]),
    ("it works on Ubuntu but not on my Mac", []),  # a comparison: the writer's OS is not said
])
def test_runs_distro(line, want):
    assert rules.runs_distro(line) == want


def test_another_machine_gpu_is_not_this_one():
    line = ("* Machine is an HPE server with two Epyc CPUs.  An identitical system contains an NVIDIA A100 with no "
            "issues (all temperatures low).")
    assert rules.elsewhere(line) == ["An identitical system contains an NVIDIA A100 with no issues (all temperatures low)"]
    assert rules.line_facts(line) == X86
    facts = _facts(line + "\n\nJust after boot, the MI100 GPU has these temperatures:\n")
    assert [(g.vendor, g.model) for g in facts.gpus] == [("AMD", "MI100")]
    assert facts.cpu.hardware_arch == "x86_64"


@pytest.mark.parametrize("name, arch", [
    ("p2.xlarge", "x86_64"), ("g4dn.12xlarge", "x86_64"), ("m5.metal", "x86_64"),
    ("t4g.2xlarge", "aarch64"), ("g5g.xlarge", "aarch64"), ("c7gn.large", "aarch64"), ("a1.large", "aarch64"),
    ("mac2.metal", None),
])
def test_ec2_arch(name, arch):
    assert ec2_instance(name).arch == arch


def test_instance_type_gives_arch():
    facts = host_clue_rules.instance_type("instance-type", "p2.xlarge is used as an example")
    assert ("cpu.hardware_arch", "x86_64") in facts and ("hypervisor", "Amazon EC2") in facts


def test_radeon_name_stops_at_a_conjunction():
    line = "koboldcpp does not find the Vulkan device of the Radeon RX 6600M nor Intel Broadwell iGPU, and"
    assert gpu_names(line) == ["Radeon RX 6600M"]
    assert gpu_names("AMD Radeon RX 7900 XTX and an RTX 4090") == ["RTX 4090", "AMD Radeon RX 7900 XTX"]
