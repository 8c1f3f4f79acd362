"""Set 14's Mac and Windows rules, fed literal lines: Mac-only Radeon Pro 5xx names, a macOS release name alone
(and what it means for the Mac's arch), an Intel-only Mac in a prompt's host name, an Apple chip's memory after a
dash, ollama 0.1's cudart discovery and AVX line, and Windows named in parentheses."""
import pytest

from macml.knowledge.macos import mac_only_gpu, sole_release
from macml.probe.named_release import named_release, older_than_silicon
from macml.probe.paste import app_log_rules, mac_clues_rules, mac_host_name_rules, mac_text_rules, spec_prose_rules
from macml.probe.paste.statements import read_statements, stated_platform

GIB = 1024 ** 3
DARWIN_X86 = [("platform", "darwin"), ("cpu.hardware_arch", "x86_64")]


def _facts(*lines):
    return [(s.fact, s.value) for s in read_statements(list(lines))]


@pytest.mark.parametrize("name, mac", [
    ("radeon pro 575", True), ("Radeon Pro 555", True), ("Radeon Pro 570X", True), ("Radeon Pro 455", True),
    ("Radeon Pro 560X", True), ("AMD Radeon RX 580", False), ("Radeon Pro 550", False), ("Radeon Pro W6800", False),
])
def test_mac_only_radeon_pro(name, mac):
    assert mac_only_gpu(name) is mac


def test_mac_only_gpu_names_the_platform():
    statements = [s.to_json("paste") for s in read_statements(["I mac 4,2 ghz intel core i7 quad-core", "radeon pro 575 4gb"])]
    assert stated_platform(statements) == "darwin"


@pytest.mark.parametrize("line, release", [
    ("Following the install guide on MacOS (Mojave) currently throws", "10.14"),
    ("MacOS Catalina Radeon Pro 560 4 GB", "10.15"),
    ("macOS High Sierra", "10.13"),
    ("upgraded from macOS Catalina to macOS Big Sur", None),
    ("MPS support on MacOS Ventura", "13"),
])
def test_release_name(line, release):
    facts = mac_clues_rules.macos_codename(line)
    assert ("platform", "darwin") in facts
    assert dict(facts).get("os.release") == release


def test_release_name_in_words():
    assert mac_text_rules.release_name("an iMac 27\" running Catalina") == [("platform", "darwin"), ("os.release", "10.15")]
    assert mac_text_rules.release_name("it worked on Mojave but not on Big Sur") == [("platform", "darwin")]
    assert sole_release("nothing here") is None


@pytest.mark.parametrize("releases, version, intel", [
    (["10.14"], "10.14", True), (["11"], "11", False), (["12"], None, False), (["14"], None, False),
    (["26"], "26", False), (["10.15", "10.14"], None, False), ([], None, False),
], ids=["mojave", "big-sur", "monterey-open", "sonoma-open", "tahoe", "disagree", "none"])
def test_named_release(releases, version, intel):
    snapshot = {"statements": [{"fact": "os.release", "value": v, "line": 1, "text": "x"} for v in releases]}
    assert named_release(snapshot)[0] == version
    assert bool(older_than_silicon(snapshot)) is intel


@pytest.mark.parametrize("line, expected", [
    ("ashvid@Alexs-iMac-Pro lib % plaidml-setup", DARWIN_X86),
    ("Alexs-iMac-Pro:lib ashvid$ python3 -c 'import plaidml'", DARWIN_X86),
    ("bob@Bobs-iMac-Pro-2.local ~ % ls", DARWIN_X86),
    ("john@Johns-MacBook-Pro ~ % ls", []),
    ("(venv) rarogcmex@iMacPro-Denis ComfyUI % python main.py", []),
    ("I want to buy an iMac-Pro", []),
], ids=["zsh", "bash", "second-local", "macbook-pro-both-kinds", "custom-name", "prose"])
def test_intel_mac_host(line, expected):
    assert mac_host_name_rules.intel_mac_host(line) == expected


@pytest.mark.parametrize("line, memory", [
    ("run Phi-2 on my local machine (Apple M1 Pro - 16 GB):", 16),
    ("M2 Max – 32GB", 32),
    ("M1 Pro - 512 GB SSD", None),
])
def test_chip_memory_after_dash(line, memory):
    facts = dict(mac_clues_rules.chip_memory(line))
    assert facts.get("cpu.memory_bytes") == (memory * GIB if memory else None)


def test_ollama_cudart_discovery():
    found = app_log_rules.app_log_lines('time=2024-04-01T08:12:19.940+08:00 level=INFO source=gpu.go:120 '
                                       'msg="Nvidia GPU detected via cudart"')
    assert found == [("gpu.present", "NVIDIA")]
    found = app_log_rules.app_log_lines('time=2024-04-01T08:12:20.082+08:00 level=INFO source=gpu.go:188 '
                                        'msg="[cudart] CUDART CUDA Compute Capability detected: 8.6"')
    assert found == [("gpu.present", "NVIDIA"), ("gpu.capability", {"name": None, "capability": "8.6"})]
    avx = app_log_rules.app_log_lines('time=2024-04-01T08:12:19.941+08:00 level=INFO source=cpu_common.go:11 msg="CPU has AVX2"')
    assert avx == [("cpu.hardware_arch", "x86_64")]
    assert app_log_rules.app_log_lines("my CPU has AVX2") == []


@pytest.mark.parametrize("line, expected", [
    ("I'm experiencing the same issue with Vulkan and an AMD Mi50 32GB (Windows 11).",
     [("platform", "win32"), ("os.name", "Windows 11")]),
    ("My laptop (Windows 10 Pro) has an RTX 3060", [("platform", "win32"), ("os.name", "Windows 10")]),
    ("It fails on the CI runner (Windows 11).", []),
    ("I never tried it (Windows 11)", []),
    ("I run it in WSL (Windows 11)", []),
], ids=["after-hardware", "edition", "not-the-writers", "negated", "wsl"])
def test_windows_in_parentheses(line, expected):
    assert spec_prose_rules.windows_named(line) == expected


def test_lines_read_whole():
    facts = _facts("Hi, got this error on my local machine (Apple M1 Pro - 16 GB):")
    assert ("cpu.memory_bytes", 16 * GIB) in facts
    assert ("os.release", "10.14") in _facts("Following the install guide on MacOS (Mojave) currently throws")


@pytest.mark.parametrize("text, version, arch", [
    ("Following the install guide on MacOS (Mojave) currently throws this exception\n", "10.14", "x86_64"),
    ("MacOS Catalina Radeon Pro 560 4 GB\n", "10.15", "x86_64"),
    ("It crashes on macOS Monterey\n", "", "unknown"),
], ids=["mojave", "catalina", "monterey-stays-open"])
def test_release_name_read_whole(tmp_path, text, version, arch):
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.inputs import load_inputs
    path = tmp_path / "paste.txt"
    path.write_text(text)
    facts = facts_from_snapshot(load_inputs([path]).snapshot)
    assert (facts.platform, facts.os.version or "", facts.cpu.hardware_arch) == ("darwin", version, arch)


def test_instinct_named_with_its_brand():
    from macml.probe.paste.gpu_names import gpu_vendor
    from macml.probe.paste.gpu_text_rules import amd_target
    owned = amd_target("I'm experiencing the same issue with Vulkan and an AMD Mi50 32GB (Windows 11).")
    assert owned[0] == ("gpu.owned", {"name": "AMD Mi50", "vendor": "AMD", "memory_mib": None, "index": None})
    assert amd_target("my Mi60 server")[0][1]["name"] == "Mi60"
    assert gpu_vendor("Mi50") == "AMD" and gpu_vendor("MI300X") == "AMD"


def test_radeon_xt_named_without_rx():
    from macml.probe.paste.gpu_names import informal_gpu_names
    assert informal_gpu_names("my Navi based GPU (Radeon 5700 XT) to work") == ["Radeon 5700 XT"]


def test_one_mi50_said_twice(tmp_path):
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.inputs import load_inputs
    path = tmp_path / "paste.txt"
    path.write_text("I'm seeing it with an AMD Mi50 32GB (Windows 11).\nDowngrading restores it with the Mi50.\n")
    facts = facts_from_snapshot(load_inputs([path]).snapshot)
    assert [g.model for g in facts.gpus] == ["AMD Mi50"]


# Review: a release named for another Mac or as a requirement is not this Mac's; key-value and first-person ones are.
@pytest.mark.parametrize("line", [
    "The old installer said macOS Catalina and later",
    "It worked on my old iMac with Catalina, fails on my new Mac",
])
def test_release_name_not_this_macs(line):
    assert "os.release" not in dict(mac_clues_rules.macos_codename(line) + mac_text_rules.release_name(line))
    assert "os.release" not in dict(_facts(line))


@pytest.mark.parametrize("line, release", [
    ("macOS Version: Ventura", "13"), ("OS: macOS Mojave", "10.14"), ("I'm on Catalina", "10.15"),
    ("my MacBook runs Mojave", "10.14"),
])
def test_release_name_this_macs(line, release):
    assert ("os.release", release) in _facts(line)


def test_release_name_elsewhere_read_whole(tmp_path):
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.inputs import load_inputs
    path = tmp_path / "paste.txt"
    path.write_text("It worked on my old iMac with Catalina, fails on my new Mac\n")
    facts = facts_from_snapshot(load_inputs([path]).snapshot)
    assert (facts.os.version or "", facts.cpu.hardware_arch) == ("", "unknown")


def test_host_name_is_the_weakest_evidence():
    text = "alex@Alexs-iMac-Pro ~ % python3 -c 'import platform; print(platform.machine())'\narm64\n"
    facts = [(s.fact, s.value) for s in read_statements(text.splitlines())]
    assert ("cpu.hardware_arch", "x86_64") not in facts and ("python.machine", "arm64") in facts
    alone = [(s.fact, s.value) for s in read_statements(["ashvid@Alexs-iMac-Pro lib % plaidml-setup"])]
    assert ("cpu.hardware_arch", "x86_64") in alone
