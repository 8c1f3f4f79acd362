"""Readers and knowledge added in the set-21 fix round, on literal texts: what they read, and near misses that
must not fire."""
import pytest

from macml.knowledge.hardware import nvidia_compute_capability
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.distro_rules import line_facts as distro_line
from macml.probe.paste.gpu_names import gpu_names
from macml.probe.paste.gpu_text_rules import gpu_answer
from macml.probe.paste.inline_rules import anywhere
from macml.probe.paste.linux_words_rules import owned_gpus
from macml.probe.paste.report_rules import inline_packages
from macml.probe.paste.statement_rules import by_key
from macml.probe.paste.text import clean_lines


def _facts(text):
    return facts_from_snapshot(import_pastes([text]))


def test_a_distribution_uv_cannot_install_is_not_installed():
    line = ("error: Distribution `torch==2.9.1 @ registry+https://pypi.org/simple` can't be installed because it doesn't "
            "have a source distribution or wheel for the current platform")
    assert inline_packages(line) == []
    assert inline_packages("My environment is `torch==2.9.1`") == [("package", {"name": "torch", "version": "2.9.1"})]


def test_an_intel_mac_stays_intel_beside_a_torch_it_could_not_install():
    facts = _facts("I cant install on intel mac i9.\nUsing CPython 3.14.2\n"
                   "error: Distribution `torch==2.9.1 @ registry+https://pypi.org/simple` can't be installed because it "
                   "doesn't have a source distribution or wheel for the current platform\n"
                   "hint: You're on macOS (`macosx_14_0_x86_64`), but `torch` (v2.9.1) only has wheels for the following "
                   "platforms: `manylinux_2_28_aarch64`, `macosx_11_0_arm64`, `win_amd64`\n")
    assert facts.cpu.apple_silicon is False and facts.interpreter.machine == "x86_64" and not facts.rosetta


@pytest.mark.parametrize("line, platform", [
    ("Register platform support module: /Applications/Unity/Hub/Editor/2020.3.0f1c1/Unity.app/Contents/PlaybackEngines/"
     "MacStandaloneSupport/UnityEditor.OSXStandalone.Extensions.dll", "darwin"),
    ("Mono path[0] = '/Applications/Unity/Hub/Editor/2020.3.0f1c1/Unity.app/Contents/Managed'", "darwin"),
    ("Could not load cudnn64_8.dll", "win32"),
    ("see /usr/lib/mono/4.5/mscorlib.dll", None),
])
def test_a_dll_in_a_unix_path_is_not_windows(line, platform):
    said = {value for fact, value in anywhere(line) if fact == "platform"}
    assert said == ({platform} if platform else set())


@pytest.mark.parametrize("line, name", [
    ("Hey - I'm experiencing this issue on my Fedora Workstation desktop install.", "Fedora"),
    (" - host os: `Linux 6.8.7, NixOS, 24.05 (Uakari), 24.05.20240427.58a1abd`", "NixOS 24.05"),
])
def test_distributions_named_this_round(line, name):
    assert ("os.name", name) in distro_line(line)


def test_a_bracketed_tool_log_prefix():
    assert clean_lines("[Crystools INFO] NVIDIA Driver: 540.4.0\n")[0] == "NVIDIA Driver: 540.4.0"
    assert clean_lines("[GPU 0] NVIDIA\n")[0] == "[GPU 0] NVIDIA"


def test_opengl_renderer_and_version_strings():
    assert gpu_answer("opengl renderer", "GeForce GT 740/PCIe/SSE2") == [
        ("gpu", {"name": "GeForce GT 740", "vendor": "NVIDIA", "memory_mib": None, "index": None})]
    assert gpu_answer("version", "'4.5.0 NVIDIA 416.34'") == [("gpu.driver", "416.34"), ("gpu.present", "NVIDIA")]
    assert gpu_answer("version", "4.6 (Compatibility Profile) Mesa 23.2.1") == [("platform", "linux")]  # Mesa's: no NVIDIA driver
    assert nvidia_compute_capability("GeForce GT 740") == "3.0"


def test_a_chip_sold_with_one_gpu_configuration():
    assert [g.cores for g in _facts("hw.memsize: 25769803776\nmachdep.cpu.brand_string: Apple M5\n").gpus] == [10]


def test_a_name_ends_before_a_size_in_mb():
    assert gpu_names("NVIDIA GeForce 320M 256 MB graphics") == ["NVIDIA GeForce 320M"]
    assert gpu_names("8x NVIDIA H100 80GB HBM3 |") == ["NVIDIA H100 80GB HBM3"]


def test_the_card_that_replaced_another():
    facts = owned_gpus("I just replaced my GTX 1060 with an RTX 3080 yesterday")
    assert [value["name"] for _, value in facts] == ["RTX 3080"]


def test_a_json_memory_size():
    assert by_key("memorysize", "17179869184,") == [("cpu.memory_bytes", 17179869184)]
    assert by_key("memorysize", "512,") == []
