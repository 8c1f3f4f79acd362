"""The paste importer on literal strings: detection by content, conversion, merging, totality."""
from __future__ import annotations

import json

import pytest

from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from tests.conftest import PROJECT, run_macml

CAPTURES = PROJECT / "tests" / "captures"

SYSCTL_N = "$ sysctl -n machdep.cpu.brand_string hw.memsize\nApple M3 Max\n137438953472\n"
SW_VERS = "ProductName:\tmacOS\nProductVersion:\t15.1\nBuildVersion:\t24B83\n"
FREEZE = "numpy==2.1.0\ntorch==2.5.1\nmlx==0.20.0\n"
SMI_CSV = "name, driver_version, memory.total [MiB], compute_cap\nNVIDIA L4, 550.54.15, 23034 MiB, 8.9\n"
UNAME = "Linux gpu1 6.8.0-45-generic #45-Ubuntu SMP x86_64 x86_64 x86_64 GNU/Linux\n"


@pytest.mark.parametrize("text, shapes", [
    (SYSCTL_N, {"sysctl"}), (SW_VERS, {"sw_vers"}), (FREEZE, {"pip_freeze"}), (SMI_CSV, {"nvidia_smi_csv"}),
    (UNAME, {"uname"}), (SW_VERS + "\n" + SYSCTL_N, {"sw_vers", "sysctl"}),
], ids=["sysctl-n", "sw_vers", "pip-freeze", "smi-csv", "uname", "two-in-one"])
def test_detects_shapes_by_content(text, shapes):
    """The whole outputs a text holds; the statements its lines make come after them."""
    evidence = [e["shape"] for e in import_pastes([text])["evidence"]]
    assert set(evidence) - {"statements"} == shapes
    assert "statements" not in evidence[:len(shapes)]


def test_sysctl_values_become_the_probe_commands_and_facts():
    snapshot = import_pastes([SYSCTL_N, SW_VERS, FREEZE])
    assert snapshot["commands"]["sysctl -n machdep.cpu.brand_string"]["stdout"] == "Apple M3 Max\n"
    facts = facts_from_snapshot(snapshot)
    assert (facts.platform, facts.os.version, facts.cpu.memory_bytes) == ("darwin", "15.1", 128 * 1024**3)
    assert facts.cpu.chip.name == "Apple M3 Max"
    assert facts.interpreter.packages["mlx"] == "0.20.0" and facts.interpreter.version == ""


def test_csv_with_header_gives_gpus_with_compute_capability():
    facts = facts_from_snapshot(import_pastes([SMI_CSV, UNAME]))
    (gpu,) = facts.gpus
    assert (gpu.model, gpu.compute_capability, gpu.driver_version, gpu.memory_bytes) == \
        ("NVIDIA L4", "8.9", "550.54.15", 23034 * 1024**2)
    assert facts.os.kernel == "6.8.0-45-generic" and facts.cpu.hardware_arch == "x86_64"


def test_what_the_pastes_do_not_say_stays_absent():
    snapshot = import_pastes([SMI_CSV])
    assert set(snapshot["commands"]) == {"nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap "
                                         "--format=csv,noheader"}
    assert snapshot["interpreter"] == {} and snapshot["frameworks"] == {}


def test_conflicting_pastes_keep_the_first_and_say_so():
    other = SW_VERS.replace("15.1", "14.2")
    snapshot = import_pastes([SW_VERS, other])
    assert "15.1" in snapshot["commands"]["sw_vers"]["stdout"]
    assert any("conflict" in note for note in snapshot["import_notes"])


@pytest.mark.parametrize("text", ["", "\x00\x01", "{", "GPU 0:", "PyTorch version:", "|" * 500,
                                  "Flags:\n" + " " * 30 + "x", "{\n  \"SPDisplaysDataType\" : [ {\"_name\""],
                         ids=["empty", "binary", "brace", "gpu-colon", "bare-key", "pipes", "flags", "cut-json"])
def test_import_is_total(text):
    snapshot = import_pastes([text])
    assert snapshot["macml_snapshot"] == 1 and isinstance(snapshot["evidence"], list)


def test_lscpu_wrapped_flags_are_joined_at_the_value_column():
    snapshot = import_pastes([(CAPTURES / "linux-vamp-20-jetson-orin-aarch64-lscpu.txt").read_text(encoding="utf-8")])
    assert snapshot["cpuinfo"]["source"] == "lscpu"
    assert {"ilrcpc", "asimdhp", "paca", "pacg"} <= set(snapshot["cpuinfo"]["flags"])


def test_cli_doctor_reads_a_pasted_report_and_shows_its_evidence(tmp_path):
    paste = CAPTURES / "linux-pytorch-110153-h100-pcie-cu117-collect-env.txt"
    result = run_macml("doctor", "--from", str(paste), "--json")
    report = json.loads(result.stdout)
    assert report["evidence"][0].startswith("collect_env (")
    assert report["facts"]["gpus"][0]["model"] == "NVIDIA H100 PCIe"


def test_cli_snapshot_import_writes_a_snapshot_doctor_replays(tmp_path):
    out = tmp_path / "snap.json"
    pastes = [CAPTURES / "linux-gpu-operator-1063-host-a100-os-release-uname.txt",
              CAPTURES / "linux-nvgpu-15-titanxp-driver450-nvidia-smi.txt"]
    result = run_macml("snapshot", "import", *map(str, pastes), "-o", str(out))
    assert result.returncode == 0, result.stderr
    snapshot = json.loads(out.read_text())
    assert {e["shape"] for e in snapshot["evidence"]} - {"statements"} == {"os_release", "uname", "nvidia_smi"}
    report = json.loads(run_macml("doctor", "--from", str(out), "--json").stdout)
    assert report["facts"]["os"]["version"] == "20.04" and report["facts"]["gpus"][0]["model"] == "TITAN Xp"


def test_cli_reads_a_paste_that_names_no_os_and_says_so(tmp_path):
    """A text that states facts is never refused: a pip freeze gives packages, the OS stays unknown."""
    paste = tmp_path / "freeze.txt"
    paste.write_text(FREEZE)
    result = run_macml("doctor", "--from", str(paste), "--json")
    assert result.returncode in (0, 1), result.stderr
    data = json.loads(result.stdout)
    assert data["facts"]["platform"] == "unknown" and data["facts"]["interpreter"]["packages"]["mlx"] == "0.20.0"
    assert any("nothing in the pastes says which OS" in line for line in data["evidence"])


def test_cli_refuses_a_text_with_no_fact_and_says_what_it_looks_for(tmp_path):
    paste = tmp_path / "prose.txt"
    paste.write_text("It crashes when I start training, please help.\nThanks!\n")
    result = run_macml("doctor", "--from", str(paste))
    assert result.returncode == 2 and "reads the OS and its version" in result.stderr
