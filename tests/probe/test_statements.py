"""Facts stated on single lines, whatever tool printed them, and the text clean-up before reading."""
from __future__ import annotations

import codecs

import pytest

from macml.knowledge.macos import macos_for_darwin
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.statements import read_statements
from macml.probe.paste.text import clean_lines, decode_paste, strip_terminal_codes


def stated(line: str):
    return {(s.fact, s.value if not isinstance(s.value, dict) else s.value.get("name") or s.value.get("version"))
            for s in read_statements(clean_lines(line))}


@pytest.mark.parametrize("line, fact", [
    ("Darwin Kernel Version 23.5.0: Wed May  1 20:13:18 PDT 2024; root:xnu-10063/RELEASE_ARM64_T6000",
     ("os.darwin", "23.5.0")),
    ("Darwin Kernel Version 22.1.0: root:xnu-8792.41.9~2/RELEASE_ARM64_T8103", ("cpu.brand", "Apple M1")),
    ("OS Version:            macOS 12.1 (21C52)", ("os.version", "12.1")),
    ("OS Version:            macOS 12.1 (21C52)", ("os.build", "21C52")),
    ("Code Type:             X86-64 (Translated)", ("process.translated", True)),
    ('  "modelCode" : "Mac15,6",', ("cpu.model", "Mac15,6")),
    ("Hardware Model:        MacBookPro18,3", ("cpu.model", "MacBookPro18,3")),
    ("  CPU: 14 × Apple M4 Pro", ("cpu.brand", "Apple M4 Pro")),
    ("- **OS:** darwin", ("platform", "darwin")),
    ("sys.platform           darwin", ("platform", "darwin")),
    ("07/10 16:07:40 - mmengine - INFO - sys.platform: win32", ("platform", "win32")),
    ("Python platform: macOS-13.4-x86_64-i386-64bit", ("python.machine", "x86_64")),
    ("Python platform: macOS-10.16-x86_64-i386-64bit", ("python.machine", "x86_64")),
    ("GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090", ("gpu", "NVIDIA GeForce RTX 4090")),
    ("Graphics: NVIDIA GeForce GT 755M, NVIDIA GeForce GT 755M, PCIe, 1024 MB", ("gpu", "NVIDIA GeForce GT 755M")),
    ("Metal device set to: Apple M1 Max", ("gpu", "Apple M1 Max")),
    ("metal_amd_radeon_pro_460.0 : AMD Radeon Pro 460 (Metal)", ("gpu", "AMD Radeon Pro 460")),
    ("| NVIDIA-SMI 610.57.04   KMD Version: 610.57.04   CUDA UMD Version: 13.3 |", ("gpu.cuda_driver", "13.3")),
    ("Nvidia driver version: 535.104.05", ("gpu.driver", "535.104.05")),
    ("PyTorch version: 2.1.0+cu121", ("torch.version", "2.1.0+cu121")),
    ("- **PyTorch Version:** 2.8.0.dev20250420", ("torch.version", "2.8.0.dev20250420")),
    ("        - torch:             1.13.0", ("package", "torch")),
    ("CUDA used to build PyTorch: 12.1", ("torch.cuda_version", "12.1")),
    ("Is CUDA available: False", ("torch.cuda_available", False)),
    ("	- processor:         i386", ("python.machine", "x86_64")),
    ("uname_result(system='Darwin', node='x', release='23.5.0', version='...', machine='arm64')",
     ("python.machine", "arm64")),
    ("          platform : osx-arm64", ("python.machine", "arm64")),
    ("Python 3.10.4 (main, Mar 31 2022, 03:38:35) [Clang 12.0.0 ]", ("python.version", "3.10.4")),
    ("Memory: 16 GB", ("cpu.memory_bytes", 16 * 1024**3)),
    ("Hypervisor vendor:     KVM", ("hypervisor", "KVM")),
    ("amdgpu version: 6.10.5 | amd_hsmp version: N/A", ("gpu.driver", "6.10.5")),
    ("(base) PS D:\\mmdeploy>  python .\\tools\\check_env.py", ("platform", "win32")),
], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_a_line_states_a_fact(line, fact):
    assert fact in stated(line)


@pytest.mark.parametrize("line", [
    "Python platform: macOS-10.16-x86_64-i386-64bit",  # an old-SDK Python's compatibility answer, not macOS 10.16
    "I think my vbox-host is slow",  # a host name is not VirtualBox
    "version: 1.2.3",  # no package is called "version"
    "It crashed after I upgraded to the RTX driver yesterday",
], ids=["compat-10.16", "vbox-hostname", "version-key", "prose"])
def test_a_line_does_not_state_what_it_does_not_say(line):
    facts = {fact for fact, _ in stated(line)}
    assert "os.version" not in facts and "hypervisor" not in facts and "package" not in facts and "gpu" not in facts


def test_sysctl_n_answers_follow_their_command():
    lines = ["$ sysctl -n machdep.cpu.brand_string hw.memsize", "Apple M2 Pro", "34359738368", "$ uname -m", "x86_64"]
    facts = {(s.fact, s.value) for s in read_statements(lines)}
    assert {("cpu.brand", "Apple M2 Pro"), ("cpu.memory_bytes", 32 * 1024**3)} <= facts
    assert ("process.arch", "x86_64") in facts


@pytest.mark.parametrize("release, version", [
    ("20.4.0", "11.3"), ("21.2.0", "12.1"), ("22.1.0", "13.0"), ("22.6.0", "13.5"), ("23.5.0", "14.5"),
    ("24.3.0", "15.3"), ("25.1.0", "26.1"), ("19.6.0", "10.15.6"), ("18.6.0", "10.14.5"), ("18.2.0", "10.14.1"),
    ("17.7.0", "10.13.6"), ("18.0.0", "10.14"), ("9.8.0", None),
])
def test_darwin_release_to_macos(release, version):
    assert macos_for_darwin(release)[0] == version


def test_the_x6_darwin_releases_say_they_are_a_range():
    assert "13.5-13.7" in macos_for_darwin("22.6.0")[1]


@pytest.mark.parametrize("data, text", [
    (codecs.BOM_UTF16_LE + "OS: macOS\r\n".encode("utf-16-le"), "OS: macOS\r\n"),
    ("OS: macOS\n".encode("utf-16-le"), "OS: macOS\n"),
    (codecs.BOM_UTF8 + b"OS: macOS\n", "OS: macOS\n"),
    (b"caf\xe9\n", "caf\xe9\n"),
], ids=["utf16-bom", "utf16-no-bom", "utf8-bom", "latin1"])
def test_decode_paste(data, text):
    assert decode_paste(data) == text


def test_clean_lines_unquotes_uncolours_and_keeps_numbering():
    text = "> ```\n> \x1b[32mOS: darwin\x1b[0m\n> ```\n"
    assert clean_lines(text) == ["", "OS: darwin", "", ""]
    assert strip_terminal_codes("\x1b]0;title\x07ok[0m") == "ok"


def test_a_statement_names_its_line_in_the_facts_sources():
    snapshot = import_pastes([("issue.txt", "some words\nOS Version: macOS 13.4 (22F66)\nModel: Mac14,2, 8 GB,\n")])
    facts = facts_from_snapshot(snapshot)
    assert facts.platform == "darwin" and facts.os.version == "13.4"
    assert facts.sources["os.version"].startswith("issue.txt line 2: OS Version: macOS 13.4")
    assert facts.cpu.apple_silicon is True and facts.cpu.chip.name == "Apple M2"
