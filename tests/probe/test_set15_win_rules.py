"""Set 15's Windows-area rules, fed literal lines: a Windows edition heading a line of specs, nvidia-smi's GPU rows
pasted without the header, ollama's 'detected OS VRAM overhead' and skipped Radeon iGPU lines, a bug template's
'Windows Version: [Win-11 Pro]' and 'GPU Device: [...]', RAM written '128G RAM'."""
import pytest

from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste.smi_fragment_rules import answers as smi_rows
from macml.probe.paste.statements import read_statements
from macml.probe.paste.windows_spec_rules import edition_line


def _facts(*lines):
    return [(s.fact, s.value) for s in read_statements(list(lines))]


def test_windows_edition_heading_a_spec_line():
    facts = edition_line("WINDOWS 10 PRO X64, RYZEN 5 7600X RX9070XT 16GB.")
    assert ("platform", "win32") in facts and ("os.name", "Windows 10 Pro") in facts
    assert ("cpu.hardware_arch", "x86_64") in facts
    assert ("cpu.brand", "AMD RYZEN 5 7600X") in facts


@pytest.mark.parametrize("line, name", [
    ("- Microsoft Windows 11 Pro", "Windows 11 Pro"),
    ("Windows 11 Home 64-bit", "Windows 11 Home"),
])
def test_windows_edition_alone(line, name):
    facts = edition_line(line)
    assert ("os.name", name) in facts and not any(f == "cpu.hardware_arch" for f, _ in facts)  # 64-bit is not x64


@pytest.mark.parametrize("line", ["Windows 11, macOS and Linux are supported", "Windows 11 is great"])
def test_windows_only_named_is_not_the_machine(line):
    assert edition_line(line) == []


def test_headerless_nvidia_smi_rows_give_the_memory():
    rows = ["|   0  NVIDIA GeForce RTX 3050 ...  WDDM  |   00000000:01:00.0 Off |                  N/A |",
            "| N/A   49C    P8              5W /   38W |    2998MiB /   4096MiB |     12%      Default |"]
    assert smi_rows(rows) == {1: [("gpu.memory_of", {"index": None, "memory_mib": 4096})]}
    gpus = facts_from_snapshot(import_pastes(["### OS\n\nWindows\n\n### GPU\n\nNvidia\n\n### GPU info\n\n" + "\n".join(rows) + "\n"])).gpus
    assert [(g.vendor, g.memory_bytes and g.memory_bytes // 2**20) for g in gpus] == [("NVIDIA", 4096)]


def test_two_headerless_rows_are_numbered_by_their_name_rows():
    rows = ["|   0  NVIDIA GeForce RTX 3090     On   | 00000000:01:00.0 Off |                  N/A |",
            "| 30%   35C    P8    21W / 350W |      5MiB / 24268MiB |      0%      Default |",
            "|   1  NVIDIA GeForce RTX 3060     On   | 00000000:02:00.0 Off |                  N/A |",
            "| 30%   35C    P8    21W / 170W |      5MiB / 12288MiB |      0%      Default |"]
    assert smi_rows(rows) == {1: [("gpu.memory_of", {"index": 0, "memory_mib": 24268})],
                              3: [("gpu.memory_of", {"index": 1, "memory_mib": 12288})]}


def test_ollama_vram_overhead_line_names_the_gpu_and_driver_cuda():
    facts = _facts('time=2025-02-17T16:52:12.068+08:00 level=INFO source=gpu.go:319 msg="detected OS VRAM overhead" '
                   'id=GPU-66fb2fe2 library=cuda compute=7.5 driver=12.8 name="NVIDIA GeForce RTX 2080 Ti" overhead="3.2 GiB"')
    assert ("gpu.cuda_driver", "12.8") in facts
    assert any(f == "gpu" and v["name"] == "NVIDIA GeForce RTX 2080 Ti" for f, v in facts)


def test_ollama_skipped_radeon_igpu_means_x86_64():
    facts = _facts('time=2025-01-16T20:58:45.451+08:00 level=INFO source=amd_linux.go:297 '
                   'msg="unsupported Radeon iGPU detected skipping" id=0 total="512.0 MiB"')
    assert ("cpu.hardware_arch", "x86_64") in facts


def test_ram_written_with_a_bare_g():
    assert ("cpu.memory_bytes", 128 * 2**30) in _facts("my compute hava 128G RAM and 22GB VRAM, but when i run 32b model")


def test_bug_template_windows_version_and_gpu_device():
    assert ("os.name", "Windows 11") in _facts(" - Windows Version: [Win-11 Pro]")
    assert ("gpu", {"name": "AMD 7900 XTX", "vendor": "AMD", "memory_mib": None, "index": None}) in _facts(
        " - GPU Device: [AMD 7900 XTX]")
    assert not any(f == "package" for f, _ in _facts(" - Amuse Version [e.g. v3.6.2]"))
