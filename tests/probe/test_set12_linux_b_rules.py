"""Set 12's Linux-b rules (board_rules, the torch REPL answers, HIP errors, GeForce sizes, AMD mixed GPUs), fed
literal lines, and what facts, checks and recommendations make of them."""
import pytest

from macml.diagnose.multi_gpu_checks import check_mixed_gpus
from macml.knowledge.geforce_sizes import sized_name
from macml.knowledge.hardware import raspberry_pi_has_pcie
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import board_rules as board
from macml.probe.paste import import_pastes
from macml.probe.paste.app_log_rules import app_log_lines
from macml.probe.paste.linux_app_rules import torch_answers
from macml.recipes.catalog import load_all
from macml.recipes.recommend import recommendation

RECIPES = load_all()
GIB = 1024**3


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def _value(facts, fact):
    return next((v for f, v in facts if f == fact), None)


# --- boards ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, name, pcie, memory", [
    ("Virgin install on Raspberry Pi 4.0 8gb", "Raspberry Pi 4", False, 8 * GIB),
    ("I tried to install torch-1.11.0 on RPI 5 but it failed:", "Raspberry Pi 5", True, None),
    ("running on a Raspberry Pi 3 Model B+", "Raspberry Pi 3", False, None),
    ("my RPi CM4 on an IO board", "Raspberry Pi CM4", True, None),
])
def test_raspberry_pi_named(line, name, pcie, memory):
    facts = board.raspberry_pi(line)
    assert _value(facts, "board") == {"name": name, "pcie": pcie}
    assert _value(facts, "cpu.memory_bytes") == memory


def test_raspberry_pi_not_the_machine():
    assert board.raspberry_pi("it works on my laptop, not on a Raspberry Pi 4") == []
    assert board.raspberry_pi("Raspberry Pi 4 with a 32 GB SD card")[-1][0] == "board"  # the card is not RAM


def test_pcie_boards():
    assert [raspberry_pi_has_pcie(m) for m in ("3", "4", "400", "5", "CM5")] == [False, False, False, True, True]


def test_a_pi4_has_only_its_videocore():
    facts = _facts("Virgin install on Raspberry Pi 4.0 8gb\npip3 install torch --index-url https://download.pytorch.org/whl/cpu\n"
                   "pip3 install https://download.pytorch.org/whl/torch-2.0.0-cp310-cp310-manylinux2014_aarch64.whl\n")
    assert [g.vendor for g in facts.gpus] == ["Broadcom"] and facts.gpu_list_known
    assert facts.cpu.memory_bytes == 8 * GIB
    best = recommendation(facts, RECIPES)
    assert best is None or best.recipe != "pytorch-cuda"


def test_a_pi5_keeps_a_pcie_gpu_possible():
    facts = _facts("I tried to install torch on RPI 5 but it failed:\nI followed the instruction for RPI 4 OS 64 bit\n")
    assert facts.gpus == () and not facts.gpu_list_known


# --- the OS ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, name", [
    ('OS: NAME="Fedora Linux" VERSION="40 (Workstation Edition Prerelease)"', "Fedora Linux 40 (Workstation Edition Prerelease)"),
    ("I am running Ollama which was installed on an arch linux system using pacman", "arch linux"),
    ("everything runs under Manjaro Linux machine", "Manjaro Linux"),
])
def test_os_named(line, name):
    assert _value(board.line_facts(line), "os.name") == name


def test_os_not_named():
    assert board.distro_system("it fails on Ubuntu but not on an arch linux system") == []
    assert board.os_release_line('PRETTY_NAME="Ubuntu 22.04.3 LTS"') == []


def test_os_release_name_and_version():
    facts = _facts('OS: NAME="Fedora Linux" VERSION="40 (Workstation Edition Prerelease)"\n')
    assert (facts.platform, facts.os.name, facts.os.version) == ("linux", "Fedora Linux", "40")


# --- CPUs and GPUs -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, brand", [
    ("cpu", "I5-2500", "Intel Core i5-2500"), ("processor", "Intel Core i7-8700K", "Intel Core i7-8700K"),
    ("cpu", "Ryzen 5 5600", None), ("gpu", "i5-2500", None),
])
def test_core_i_cpu(key, value, brand):
    assert _value(board.keyed_facts(key, value), "cpu.brand") == brand


def test_counted_gpus():
    facts = board.counted_gpus("I have an NVIDIA 5070 Ti and two 3090 GPU's visible with nvidia-smi.")
    assert [(v["name"], v["index"], v.get("capability")) for _, v in facts] == [("3090", 0, "8.6"), ("3090", 1, "8.6")]
    assert board.counted_gpus("with 2 RTX 4090 GPUs")[1][1]["name"] == "RTX 4090"
    assert board.counted_gpus("two 6800 cards") == []  # an RX 6800 as likely as anything NVIDIA sells
    assert board.counted_gpus("two 3090 apps") == []


def test_mixed_nvidia_from_prose():
    facts = _facts("I have an NVIDIA 5070 Ti and two 3090 GPU's visible with nvidia-smi.\n")
    assert sorted((g.model, g.compute_capability) for g in facts.gpus) == [
        ("3090", "8.6"), ("3090", "8.6"), ("NVIDIA 5070 Ti", "12.0")]
    assert check_mixed_gpus(facts).level == "warn"


def test_mixed_amd_gpus():
    facts = _facts(">>> torch.cuda.get_device_name(0)\n'AMD Radeon Graphics'\n>>> torch.cuda.get_device_name(0)\n"
                   "'AMD Radeon RX 7700S'\n")
    assert sorted(g.model for g in facts.gpus) == ["AMD Radeon Graphics", "AMD Radeon RX 7700S"]
    finding = check_mixed_gpus(facts)
    assert finding.level == "warn" and "HIP_VISIBLE_DEVICES" in " ".join(finding.fix.commands)


def test_generic_amd_gpu():
    assert board.generic_amd_gpu("AMD Radeon Graphics") and board.generic_amd_gpu("AMD Radeon(TM) Graphics")
    assert not board.generic_amd_gpu("AMD Radeon 780M Graphics")


def test_named_model_fills_a_cut_nvidia_smi():
    facts = _facts("Ollama can recorganize RTX 4090 on linux via nvidia driver 12.7\n"
                   "| NVIDIA-SMI 565.57.01              Driver Version: 565.57.01      CUDA Version: 12.7     |\n")
    assert [(g.model, g.compute_capability) for g in facts.gpus] == [("RTX 4090", "8.9")]
    assert board.named_model("Ollama can recorganize RTX 4090 on linux") == [("gpu.named", "RTX 4090")]
    assert board.named_model("it is not an RTX 4090") == []
    assert board.named_model("my RX 7900 XTX") == []  # only an NVIDIA table's GPU is named this way


@pytest.mark.parametrize("name, text, model", [
    ("RTX5080 16GB", "RTX5080 16GB", "RTX5080"),
    ("Nvidia 1060", "GPU : Nvidia 1060 3GB", "Nvidia 1060 3GB"),
    ("nvidia GTX 1060", "nvidia GTX 1060 6GB", "nvidia GTX 1060 6GB"),
    ("GTX 1060 6GB", "", "GTX 1060 6GB"),
    ("Tesla M40 24GB", "", "Tesla M40 24GB"),
    ("NVIDIA GeForce RTX 3050 6GB Laptop GPU", "", "NVIDIA GeForce RTX 3050 6GB Laptop GPU"),
    ("RTX 4090", "RTX 4090 24GB", "RTX 4090"),
])
def test_sized_name(name, text, model):
    assert sized_name(name, text) == model


# --- torch and TensorFlow answers --------------------------------------------------------------------------------

def test_torch_answers():
    assert torch_answers(["print(torch.cuda.is_available())", "", "return False"]) == {2: [("torch.cuda_available", False)]}
    found = torch_answers([">>> torch.__version__", "'2.2.0.dev20230906+rocm5.6'"])
    assert ("torch.version", "2.2.0.dev20230906+rocm5.6") in found[1]
    assert torch_answers([">>> torch.cuda.get_device_name(0)", "'AMD Radeon Graphics'"])[1][0][1]["name"] == "AMD Radeon Graphics"


def test_tensorflow_repl_version():
    assert board.answers([">>> tf.__version__", "'2.21.0'"]) == {1: [("package", {"name": "tensorflow", "version": "2.21.0"})]}
    assert board.answers([">>> tf.__version__", "Traceback (most recent call last):"]) == {}


@pytest.mark.parametrize("line, amd", [
    ("RuntimeError: HIP error: the operation cannot be performed in the present state", True),
    ("RuntimeError: HIP error: no ROCm-capable device is detected", False),
    ("RuntimeError: HIP error: invalid device ordinal", False),
])
def test_hip_error_means_an_amd_gpu(line, amd):
    assert (("gpu.present", "AMD") in app_log_lines(line)) is amd


def test_rocm_torch_with_hip_error_is_not_cuda():
    facts = _facts("Python 3.10.12 (main, Jun 11 2023, 05:26:28) [GCC 11.4.0] on linux\n>>> import torch\n"
                   ">>> torch.__version__\n'2.2.0.dev20230906+rocm5.6'\n"
                   "RuntimeError: HIP error: the operation cannot be performed in the present state\n")
    assert facts.frameworks["torch"].data["version"] == "2.2.0.dev20230906+rocm5.6"
    assert [g.vendor for g in facts.gpus] == ["AMD"]
    best = recommendation(facts, RECIPES)
    assert best is None or best.recipe != "pytorch-cuda"
