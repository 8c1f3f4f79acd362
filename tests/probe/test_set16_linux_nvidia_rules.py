"""Set 16's Linux/NVIDIA rules (distro_sentence_rules, avx_prose_rules, quadro_model_rules, the 'D' models and
mobile Kepler Quadros in the name tables, the CPU recommendation for pre-Maxwell-only GPUs), fed literal lines."""
import pytest

from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import avx_prose_rules, distro_sentence_rules, import_pastes, quadro_model_rules
from macml.probe.paste.gpu_names import informal_gpu_names
from macml.recipes.catalog import load_all
from macml.recipes.recommend import recommendation


def _os(facts):
    return next((v for f, v in facts if f == "os.name"), None)


# --- distro_sentence_rules ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, name", [
    ("I encountered problems when running PyTorch on an RTX 5090D in Ubuntu.", "Ubuntu"),
    ("I'm running it in Fedora 40 with a 4090", "Fedora 40"),
    ("i use dell m4700 and i am on the newest version of linux mint, i do have proprietary nvidia drivers", "Linux Mint"),
    ("I run the latest release of Debian", "Debian"),
    ("I have 2 GTX 1070 GPUs. Linuxmint 18.3.", "Linux Mint 18.3"),
    ("My box has a 3090. Ubuntu 22.04 LTS", "Ubuntu 22.04 LTS"),
], ids=["in-ubuntu", "in-fedora-version", "newest-version-of", "latest-release-of", "bare-sentence-linuxmint",
        "bare-sentence-lts"])
def test_distro_in_writer_sentence(line, name):
    assert _os(distro_sentence_rules.line_facts(line)) == name


def test_distro_in_wsl_on_windows_counts():
    assert _os(distro_sentence_rules.line_facts("I run it in Ubuntu 22.04 under WSL2, I am on Windows 11")) == "Ubuntu 22.04"


@pytest.mark.parametrize("line", [
    "I think the package in Ubuntu's repo is too old",
    "I found it in the Ubuntu 22.04 docker image",
    "I tried it in Ubuntu 22.04 repositories",
    "Does it work in Debian?",
    "I wonder if it works in Fedora 40",
    "It does not run in Ubuntu, I am not on it",
    "The wheels are built in Ubuntu 20.04.",
    "Supported systems. Ubuntu 22.04.",
    "Ubuntu 22.04",
    "Is it fixed in the latest version of Ubuntu?",
    "I also tried in Ubuntu 22.04 on a different machine and it works fine",
    "I can reproduce in Fedora 40 on our CI runners, my laptop is a Mac",
    "I fixed it in Ubuntu by reinstalling, my question is about macOS",
], ids=["possessive-repo", "docker-image", "repositories", "question", "if", "negated", "no-writer",
        "list-no-writer", "bare-line", "question-newest", "different-machine", "ci-runners", "writer-on-macos"])
def test_distro_mentions_do_not_count(line):
    assert distro_sentence_rules.line_facts(line) == []


# --- avx_prose_rules ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, claims", [
    ("since i do not have AVX2 but i do have AVX1 i select vulkan old cpu", {"avx2": False, "avx": True}),
    ("My CPU supports AVX2", {"avx2": True}),
    ("my processor only has AVX, not AVX2", {"avx": True, "avx2": False}),
    ("I have an old Xeon without AVX2, it does have AVX", {"avx2": False, "avx": True}),
    ("I have an old Xeon with AVX2", {"avx2": True}),
    ("my CPU is an i7-4770 with AVX2", {"avx2": True}),
], ids=["kobold-wording", "supports-avx2", "only-has-not", "without-does-have", "xeon-with", "i7-with"])
def test_avx_claims(line, claims):
    assert avx_prose_rules.vector_claims(line) == claims


@pytest.mark.parametrize("line", [
    "Next version I will include avx1 cuda support.",
    "If your CPU has AVX2 you can use the fast build",
    "Do you have AVX2?",
    "llama.cpp requires AVX2 on x86",
    "I use the noavx2 build",
    "I compiled it with AVX2 disabled",
    "I downloaded the release with AVX2 and it crashes on my PC",
    "The build with AVX2 crashes on my machine, the one with AVX1 works",
    "My previous machine was an i7 with AVX2, now I have an M2 Max",
    "I use the llama.cpp binary with AVX2 support on my Mac via Rosetta",
    "My colleague's CPU has AVX2 and it works for him",
    "I have the AVX2 build",
], ids=["plan", "conditional", "question", "requirement", "build-name", "compiled-with", "release-with-crashes",
        "build-with", "previous-machine", "binary-with", "colleague", "the-avx2-build"])
def test_avx_mentions_do_not_count(line):
    assert avx_prose_rules.vector_claims(line) == {}


def test_avx_flags_only_what_is_certain():
    assert avx_prose_rules.find(["i do not have AVX2 but i do have AVX1"])[0].cpu_flags == ["avx"]
    assert avx_prose_rules.find(["my cpu supports AVX2"])[0].cpu_flags == ["avx", "avx2"]
    assert avx_prose_rules.find(["my cpu has no AVX2"]) == []  # AVX itself unknown
    assert avx_prose_rules.find(["my M1 doesn't support AVX"]) == []  # lacking AVX names no x86 CPU
    assert avx_prose_rules.find(["i do not have AVX2 but i do have AVX1", "flags : fpu vme sse2 avx avx2"]) == []
    assert avx_prose_rules.line_facts("i do have AVX1") == [("cpu.hardware_arch", "x86_64")]
    assert avx_prose_rules.line_facts("my M1 doesn't support AVX") == []
    assert avx_prose_rules.find(["I downloaded the release with AVX2 and it crashes on my PC"]) == []
    assert avx_prose_rules.line_facts("My previous machine was an i7 with AVX2, now I have an M2 Max") == []


# --- quadro_model_rules ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, name", [
    ("and forgor to mention, its K2000M, if vulkan won't work, could you help out in making clblast work?", "K2000M"),
    ("my K1100M is detected", "K1100M"),
    ("I have a M1000M in this ZBook", "M1000M"),
    ("the card is a nvidia K3100M", "K3100M"),
], ids=["its", "my", "i-have-a", "card-is"])
def test_bare_quadro_owned(line, name):
    facts = quadro_model_rules.line_facts(line)
    assert facts and facts[0][1]["name"] == name and facts[0][1]["vendor"] == "NVIDIA"


@pytest.mark.parametrize("line", [
    "unlike the K2000M, the K5000M has more memory",
    "Does the K2000M support Vulkan?",
    "is my K2000M too old?",
    "It's not a K2000M",
    "my friend's K2000M works",
], ids=["unlike", "question-no-owner", "question-owner", "negated", "friends"])
def test_bare_quadro_mentions_do_not_count(line):
    assert quadro_model_rules.line_facts(line) == []


# --- name tables -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, capability", [
    ("RTX 5090D", "12.0"), ("RTX 4090D", "8.9"), ("K2000M", "3.0"), ("Quadro K2000M", "3.0"),
    ("Quadro K610M", "3.5"), ("K2200M", "5.0"), ("Quadro K5200", "3.5"), ("K20m", "3.5"),
])
def test_capabilities_of_written_names(name, capability):
    assert nvidia_compute_capability(name) == capability


def test_d_models_read_informally():
    assert informal_gpu_names("on an RTX 5090D in Ubuntu") == ["RTX 5090D"]
    assert informal_gpu_names("RTX 3060 drivers") == ["RTX 3060"]


# --- the recommendation for a GPU no PyTorch 1.x ever ran on ----------------------------------------------------

def test_kepler_30_only_machine_gets_the_cpu_recipe():
    facts = facts_from_snapshot(import_pastes(["i am on the newest version of linux mint. its K2000M, ok.\n"
                                               "i do not have AVX2 but i do have AVX1"]))
    best = recommendation(facts, load_all())
    assert best is not None and best.recipe == "pytorch-cpu"


def test_k80_machine_keeps_no_cpu_recommendation():
    facts = facts_from_snapshot(import_pastes(["I run the latest release of Debian. I have a Tesla K80 GPU."]))
    best = recommendation(facts, load_all())
    assert best is None or best.recipe != "pytorch-cpu"
