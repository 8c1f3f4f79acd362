"""Hostile and careless input, through the real CLI: a clear error (exit 2) or an honest finding,
never a traceback, and outside text printed literally."""
import glob
import json
import sys

import pytest

from conftest import MACHINES, run_cli, run_macml, run_macml_measured

NO_GPU = MACHINES / "linux-no-gpu.json"


def no_traceback(result):
    return "Traceback" not in result.stderr + result.stdout


def test_a_path_with_brackets_is_printed_as_written(tmp_path):
    missing = tmp_path / "reports" / "[/x]snap.json"
    result = run_macml("doctor", "--from", str(missing))
    assert result.returncode == 2 and no_traceback(result)
    assert f"Cannot read snapshot or paste {missing}" in " ".join(result.stderr.split())


def test_a_venv_under_a_bracketed_folder_keeps_its_name(tmp_path):
    import subprocess

    venv = tmp_path / "[old]" / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    result = run_macml("doctor", "install_target", "--python", str(venv / "bin" / "python"))
    assert result.returncode == 0 and no_traceback(result)
    assert str(venv) in result.stdout


def test_a_lone_surrogate_in_a_snapshot_prints_a_replacement(tmp_path):
    snapshot = json.loads(NO_GPU.read_text())
    snapshot["commands"]["lscpu"]["stdout"] = "Architecture: x86_64\nModel name: EPYC \ud800 [bold]x[/]\nCPU(s): 2\n"
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot))  # JSON escapes the surrogate as \ud800
    result = run_macml("doctor", "--from", str(path), "-v")
    assert result.returncode == 0 and no_traceback(result)
    assert "EPYC ? [bold]x[/]" in result.stdout
    as_json = json.loads(run_macml("doctor", "--from", str(path), "--json").stdout)
    assert as_json["facts"]["cpu"]["brand"] == "EPYC \ud800 [bold]x[/]"


@pytest.fixture
def json_printer(tmp_path):
    """An executable that is not Python: it prints [1,2] whatever it is asked."""
    script = tmp_path / "not-python.sh"
    script.write_text("#!/bin/sh\necho '[1,2]'\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("command", [
    ["doctor"], ["recipes"], ["install", "--recipe", "pytorch-cpu", "--dry-run", "--offline"],
], ids=["doctor", "recipes", "install"])
def test_a_python_that_prints_a_list_is_a_clear_error(json_printer, command):
    result = run_macml(*command, "--python", json_printer)
    assert result.returncode == 2 and no_traceback(result)
    assert "did not report interpreter facts: expected a JSON object, got list" in " ".join(result.stderr.split())


def test_verify_with_a_target_that_is_not_python_says_so(json_printer):
    result = run_macml("verify", "--python", json_printer, "--synthetic")
    assert result.returncode == 2 and no_traceback(result)
    assert "did not run as a Python 3 interpreter" in result.stderr
    assert "No supported ML framework" not in result.stderr


def test_a_relative_python_path_is_not_looked_up_on_path(json_printer, tmp_path):
    result = run_macml("doctor", "--python", "./not-python.sh", cwd=tmp_path)
    assert result.returncode == 2 and "did not report interpreter facts" in " ".join(result.stderr.split())


PYTHON2 = sorted(glob.glob("/root/.pyenv/versions/2.7*/bin/python"))


@pytest.mark.skipif(not PYTHON2, reason="no Python 2.7 under pyenv")
def test_a_python2_target_is_told_it_is_too_old():
    result = run_macml("doctor", "--python", PYTHON2[-1])
    assert result.returncode == 2 and no_traceback(result)
    assert "macml needs Python 3.6 or newer in the target; this is Python 2.7" in " ".join(result.stderr.split())


@pytest.mark.parametrize("args, error", [
    (["doctor", "--frm", "x"], "No such option: --frm"),
    (["doctor", "--timeout", "soon"], "Invalid value for '--timeout'"),
    (["nonsense"], "No such command 'nonsense'"),
], ids=["unknown-option", "bad-number", "unknown-command"])
def test_command_line_mistakes_with_json_answer_in_json(args, error):
    result = run_macml(*args, "--json")
    assert result.returncode == 2
    document = json.loads(result.stdout)
    assert error in document["error"] and document["hint"].startswith("See: macml")


# ---------------------------------------------------------------- numeric options: finite and above 0

MISSING_PYTHON = "/nonexistent/macml-test/python"
NUMBER_CASES = [
    (["doctor", "--from", str(NO_GPU)], "--timeout", ["inf", "nan", "-inf", "0", "-1", "1e300"]),
    (["verify", "--python", MISSING_PYTHON], "--cpu-seconds", ["inf", "nan", "0", "-3", "1e300"]),
    (["verify", "--python", MISSING_PYTHON], "--steps", ["0", "-1"]),
    (["verify", "--python", MISSING_PYTHON], "--epochs", ["0", "-2"]),
    (["verify", "--python", MISSING_PYTHON, "--nproc", "1"], "--steps", ["0", "-4"]),
    (["verify", "--python", MISSING_PYTHON], "--nproc", ["0", "-1", "two", "²", "1.5"]),
    (["verify", "--python", MISSING_PYTHON, "--nproc", "1"], "--nnodes", ["0", "-1"]),
    (["verify", "--python", MISSING_PYTHON, "--nproc", "1", "--nnodes", "2", "--rdzv-endpoint", "h:1"],
     "--node-rank", ["-1", "2"]),
]


@pytest.mark.parametrize("command, option, value", [
    pytest.param(command, option, value, id=f"{command[0]}{' --nproc' if '--nproc' in command else ''} {option} {value}")
    for command, option, values in NUMBER_CASES for value in values])
def test_numeric_options_must_be_finite_and_positive(command, option, value):
    result = run_cli(*command, option, value)
    assert result.returncode == 2 and no_traceback(result), result.stdout + result.stderr
    assert option in result.stderr, result.stderr


# ---------------------------------------------------------------- paths and the cache that are not what they should be

def test_a_venv_path_naming_a_file_is_a_clear_error(tmp_path):
    existing = tmp_path / "notes.txt"
    existing.write_text("mine")
    for venv in (existing, existing / "venv"):
        result = run_cli("install", "--recipe", "pytorch-cpu", "--venv", venv, "--dry-run", "--offline")
        assert result.returncode == 2 and no_traceback(result), result.stderr
        assert f"{existing} is a file" in " ".join(result.stderr.split())
    assert existing.read_text() == "mine"


@pytest.fixture
def cache_is_a_file(tmp_path):
    path = tmp_path / "cache-file"
    path.write_text("not a folder")
    return {"MACML_CACHE_DIR": str(path)}


def test_verify_with_the_cache_dir_a_file_names_it(cache_is_a_file):
    result = run_cli("verify", "--steps", "1", env=cache_is_a_file)
    assert result.returncode == 2 and no_traceback(result), result.stderr
    text = " ".join(result.stderr.split())
    assert "MACML_CACHE_DIR" in text and "--data-dir" in text


def test_the_doctor_runs_without_its_cache_and_says_so(cache_is_a_file):
    result = run_cli("doctor", "-v", "--python", sys.executable, env=cache_is_a_file)
    assert result.returncode in (0, 1) and no_traceback(result), result.stderr
    assert "probe cache not used" in result.stdout
    assert cache_is_a_file["MACML_CACHE_DIR"] in " ".join(result.stdout.split())


@pytest.mark.parametrize("command", [["snapshot", "import", str(MACHINES.parent / "captures" /
                                                                   "linux-nvgpu-15-titanxp-driver450-nvidia-smi.txt")],
                                     ["doctor", "--from", str(NO_GPU)]], ids=["snapshot-import", "doctor"])
def test_a_snapshot_into_a_missing_folder_is_refused(tmp_path, command):
    out = tmp_path / "no" / "such" / "snap.json"
    option = "-o" if command[0] == "snapshot" else "--save-snapshot"
    result = run_cli(*command, option, out)
    assert result.returncode == 2 and no_traceback(result), result.stdout + result.stderr
    assert f"{out.parent} does not exist" in " ".join(result.stderr.split())
    assert not (tmp_path / "no").exists()


# ---------------------------------------------------------------- bounded reads

def test_from_dev_zero_stops_at_the_size_limit():
    run = run_macml_measured("doctor", "--from", "/dev/zero")
    assert run["returncode"] == 2 and "Traceback" not in run["stderr"], run["stderr"][-2000:]
    assert "larger than 16 MiB" in " ".join(run["stderr"].split())
    assert run["peak_mb"] < 250 and run["seconds"] < 30, run


def test_a_paste_over_the_size_limit_is_refused(tmp_path):
    from macml.paths import MAX_INPUT_BYTES

    paste = tmp_path / "huge.txt"
    line = b"GPU 0: NVIDIA H100 PCIe\n"
    paste.write_bytes(line * (MAX_INPUT_BYTES // len(line) + 1))
    for command in (["doctor", "--from", paste], ["recipes", "--from", paste], ["snapshot", "import", paste]):
        result = run_cli(*command)
        assert result.returncode == 2 and "larger than 16 MiB" in " ".join(result.stderr.split()), result.stderr


def test_a_snapshot_into_a_device_or_fifo_is_written_not_renamed_over_it(tmp_path):
    """`-o /dev/stdout` writes through; renaming a temporary file over the path (as root) would replace
    the device itself. A FIFO here stands for /dev/null, which a test must not risk."""
    import os
    import stat
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    capture = MACHINES.parent / "captures" / "linux-nvgpu-15-titanxp-driver450-nvidia-smi.txt"
    result = run_cli("snapshot", "import", capture, "-o", fifo)
    reader.join(timeout=30)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(received[0])["macml_snapshot"] == 1
