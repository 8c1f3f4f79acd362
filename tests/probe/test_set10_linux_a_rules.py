"""Set 10's Linux rules (linux_sentence_rules, nvidia_cli_rules, the Ubuntu backport-kernel tag), fed literal lines,
and what facts make of them."""
import pytest

from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import env_report_rules, import_pastes
from macml.probe.paste import linux_sentence_rules as rules
from macml.probe.paste import nvidia_cli_rules
from macml.probe.paste.statements import read_statements


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _value(facts, fact):
    return next((v for f, v in facts if f == fact), None)


# --- prose -----------------------------------------------------------------------------------------------------

def test_wsl_distro_word_is_linux():
    assert _value(rules.line_facts("I use it in wsl2-kali linux."), "platform") == "linux"
    assert rules.line_facts("I do not use wsl2-ubuntu here") == []


def test_cuda_download_url_names_os_and_arch():
    facts = rules.line_facts("https://developer.nvidia.com/cuda-downloads?target_os=Linux&target_arch=x86_64"
                             "&Distribution=WSL-Ubuntu&target_version=2.0&target_type=deb_local")
    assert ("platform", "linux") in facts and ("cpu.hardware_arch", "x86_64") in facts


def test_deepspeed_names_torch_cuda_build():
    line = ("Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was "
            "compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.")
    assert _value(rules.line_facts(line), "torch.cuda_version") == "11.8"
    torch = _facts(line + "\nI use it in wsl2-kali linux.\n").frameworks["torch"]
    assert torch.data["cuda_version"] == "11.8"


@pytest.mark.parametrize("line, hypervisor", [
    ("Using a GCP VM of type N1 with Tesla T1 GPU.", "KVM"),
    ("Running on an Azure VM with an A100", "Hyper-V"),
])
def test_cloud_vm(line, hypervisor):
    assert _value(rules.line_facts(line), "hypervisor") == hypervisor


def test_cloud_vm_negated_or_bare_metal_says_nothing():
    assert _value(rules.line_facts("This is not a GCP VM, it is my desktop"), "hypervisor") is None
    assert _value(rules.line_facts("an AWS bare metal instance"), "hypervisor") is None


def test_unknown_nvidia_name_in_sentence_is_a_gpu_mention():
    # the name reader ends a name before ' GPU' too (set-20 round), so the mention comes from it, not this rule
    statements = read_statements(["Using a GCP VM of type N1 with Tesla T1 GPU."])
    assert [s.value for s in statements if s.fact == "gpu.mention"] == ["Tesla T1"]


def test_linux_bash_prompt():
    assert _value(rules.line_facts("myname@mymachine:~/jaxerror$ uv run main.py "), "platform") == "linux"
    assert rules.line_facts("MacBook:~ user$ python3 main.py") == []


def test_counted_gpus_and_prose_driver():
    line = ("I am running on debian 12 \"Bookworm\" I have the proprietary debian packaged driver 535.183.01. "
            "Incus/LXD is reporting that my two Quadro p400 are indeed running with 535 driver.")
    gpus = [v for f, v in rules.line_facts(line) if f == "gpu"]
    assert [(g["name"], g["index"]) for g in gpus] == [("Quadro p400", 0), ("Quadro p400", 1)]
    assert _value(rules.line_facts(line), "gpu.driver") == "535.183.01"
    facts = _facts(line)
    assert [g.model for g in facts.gpus] == ["Quadro p400", "Quadro p400"]
    assert {g.driver_version for g in facts.gpus} == {"535.183.01"}
    assert {g.compute_capability for g in facts.gpus} == {"6.1"}


def test_board_distro_and_kernels():
    assert _value(rules.line_facts("On a raspberry pi zero 2 w running Dietpi (debian 12 based)."), "os.name") == "Dietpi"
    uname = "Linux audiopi 6.12.93+rpt-rpi-v8 #1 SMP PREEMPT Debian 1:6.12.93-1+rpt1 (2026-06-12) aarch64 GNU/Linux"
    assert _value(rules.line_facts(uname), "hypervisor.none") is True
    assert _value(rules.line_facts(" - Release: 5.15.148-tegra"), "hypervisor.none") is True
    assert _value(rules.line_facts("Linux box 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux"), "hypervisor.none") is None


def test_uname_of_ubuntu_kernel_names_ubuntu():
    line = "Linux ai2 6.14.0-29-generic #29-Ubuntu SMP PREEMPT_DYNAMIC Thu Aug  7 18:32:38 UTC 2025 x86_64 x86_64 x86_64 GNU/Linux"
    assert _value(rules.line_facts(line), "os.name") == "Ubuntu"


@pytest.mark.parametrize("line, name", [
    ("Linux inspiron 4.15.0-43-generic #46~16.04.1-Ubuntu SMP Fri Dec 7 13:31:08 UTC 2018 x86_64 GNU/Linux", "Ubuntu 16.04"),
    ("系统=16.04.1-Ubuntu", "Ubuntu 16.04.1"),
], ids=["backport-kernel", "release"])
def test_ubuntu_kernel_tag(line, name):
    assert _value(env_report_rules.os_strings(line), "os.name") == name


@pytest.mark.parametrize("key, value, name", [
    ("linux", "Ubuntu 20.04", "Ubuntu 20.04"),
    ("os", "Linux (Ubuntu 22.04)", "Ubuntu 22.04"),
])
def test_os_answers_naming_the_distribution(key, value, name):
    assert _value(rules.keyed_facts(key, value), "os.name") == name


def test_jetson_release_module():
    facts = rules.keyed_facts("module", "NVIDIA Jetson Orin NX (8GB ram)")
    assert _value(facts, "gpu")["name"] == "NVIDIA Jetson Orin NX"
    assert _value(facts, "cpu.memory_bytes") == 8 * 1024**3 and _value(facts, "cpu.hardware_arch") == "aarch64"


def test_ollama_rocm_device_by_pci_id():
    line = ('time=2025-01-31T19:32:23.233-05:00 level=INFO source=types.go:130 msg="inference compute" id=0 library=rocm '
            'variant="" compute=gfx1010 driver=0.0 name=1002:731f total="6.0 GiB" available="6.0 GiB"')
    assert _value(rules.line_facts(line), "gpu")["vendor"] == "AMD"


def test_gdb_thread_db_names_the_python_arch():
    lines = ["(gdb) r example.py", "Starting program: /home/u/venv/bin/python3 example.py",
             "[Thread debugging using libthread_db enabled]",
             'Using host libthread_db library "/lib/aarch64-linux-gnu/libthread_db.so.1".']
    assert rules.answers(lines) == {3: [("python.machine", "aarch64")]}


# --- nvidia-container-cli info -----------------------------------------------------------------------------------

_CLI = """I1228 13:13:39.104680 6357 nvc_info.c:519] listing device /dev/nvidia0 (GPU-4712 at 00000000:08:00.0)
NVRM version:   {driver}
CUDA version:   {cuda}

Device Index:   0
Device Minor:   0
Model:          {model}
Brand:          GeForce
GPU UUID:       GPU-4712226b
Bus Location:   00000000:08:00.0
Architecture:   {arch}
I1228 13:13:39.104755 6357 nvc.c:318] shutting down library context
"""


def test_container_cli_info_block():
    text = _CLI.format(driver="384.130", cuda="9.0", model="GeForce 920M", arch="3.5")
    found = nvidia_cli_rules.answers(text.splitlines())
    flat = [fact for facts in found.values() for fact in facts]
    assert ("gpu.driver", "384.130") in flat and ("gpu.cuda_driver", "9.0") in flat
    assert _value(flat, "gpu")["capability"] == "3.5"
    facts = _facts(text)
    assert facts.cpu.hardware_arch != "3.5"  # the GPU's architecture, not lscpu's
    (gpu,) = facts.gpus
    assert (gpu.model, gpu.compute_capability, gpu.driver_version, gpu.cuda_driver_version) == ("GeForce 920M", "3.5", "384.130", "9.0")


def test_container_cli_info_null_driver_on_jetson():
    facts = _facts(_CLI.format(driver="(null)", cuda="10.2", model="Xavier", arch="7.2"))
    (gpu,) = facts.gpus
    assert gpu.driver_version is None and gpu.cuda_driver_version == "10.2" and gpu.compute_capability == "7.2"
    assert facts.cpu.hardware_arch == "aarch64"
