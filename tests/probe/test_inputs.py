"""Inputs validated where they enter: snapshots, probe-cache entries, interpreter and framework
probe output. Malformed means a MacmlError naming what was wrong, or an ignored cache entry."""
import json
import math
import time

import pytest

from macml.errors import MacmlError
from macml.probe import cache
from macml.probe.frameworks import parse_probe_output
from macml.probe.interpreter import parse_interpreter_output
from macml.probe.snapshot import load_snapshot, validate_snapshot

from conftest import MACHINES, load_json


def no_gpu_with(**changes):
    snapshot = load_json(MACHINES / "linux-no-gpu.json")
    snapshot.update(changes)
    return snapshot


def interpreter_with(**changes):
    interpreter = dict(load_json(MACHINES / "linux-no-gpu.json")["interpreter"])
    interpreter.update(changes)
    return interpreter


@pytest.mark.parametrize("snapshot, message", [
    (no_gpu_with(macml_snapshot=True), "format version True"),
    (no_gpu_with(commands="nvidia-smi"), "'commands' must be a JSON object"),
    (no_gpu_with(commands={"lscpu": "x86_64"}), "'commands' entry 'lscpu' must be an object"),
    (no_gpu_with(commands={"lscpu": {"returncode": "0", "stdout": ""}}), "'returncode' must be an integer or null"),
    (no_gpu_with(commands={"lscpu": {"returncode": True, "stdout": ""}}), "'returncode' must be an integer or null"),
    (no_gpu_with(commands={"lscpu": {"returncode": 0, "stdout": ["a"]}}), "'stdout' must be a string"),
    (no_gpu_with(commands={"lscpu": {"returncode": None, "timed_out": "yes"}}), "'timed_out' must be true or false"),
    (no_gpu_with(interpreter=[]), "'interpreter' must be a JSON object"),
    (no_gpu_with(interpreter=interpreter_with(conda="false")), "'conda' must be true, false or null"),
    (no_gpu_with(interpreter={"prefix": "/usr"}), "names no executable, version, machine or packages"),
    (no_gpu_with(interpreter=interpreter_with(executable=7)), "'executable' must be a string"),
    (no_gpu_with(interpreter=interpreter_with(version=3.11)), "'version' must be a string"),
    (no_gpu_with(frameworks={"torch": "2.1"}), "'frameworks' entry 'torch' must be an object"),
    (no_gpu_with(frameworks={"torch": {"ok": "yes"}}), "'ok' must be true or false"),
    (no_gpu_with(frameworks={"torch": {"ok": True, "device_names": True}}), "'device_names' must be a list"),
    (no_gpu_with(env={"CUDA_VISIBLE_DEVICES": 0}), "'env' value of 'CUDA_VISIBLE_DEVICES' must be a string"),
], ids=["version-true", "commands-string", "command-record-string", "returncode-text", "returncode-bool",
        "stdout-list", "timed-out-text", "interpreter-list", "conda-text", "nothing-identifying", "executable-number", "version-number",
        "framework-string", "framework-ok-text", "device-names-bool", "env-number"])
def test_malformed_snapshots_are_refused_naming_the_part(snapshot, message):
    with pytest.raises(MacmlError) as err:
        validate_snapshot(snapshot, "snap.json")
    assert err.value.message.startswith("snap.json") and message in err.value.message


@pytest.mark.parametrize("machine", sorted(p.stem for p in MACHINES.glob("*.json")))
def test_every_recorded_machine_is_a_valid_snapshot(machine):
    assert load_snapshot(MACHINES / f"{machine}.json")["macml_snapshot"] == 1


@pytest.mark.parametrize("content", [b"[" * 100000, b"\xff\xfe{}", b""], ids=["deep-nesting", "utf16-bom", "empty"])
def test_unreadable_snapshot_bytes_are_a_clear_error(tmp_path, content):
    path = tmp_path / "snap.json"
    path.write_bytes(content)
    with pytest.raises(MacmlError, match="snap.json"):
        load_snapshot(path)


NOW = 1_800_000_000.0


@pytest.mark.parametrize("record", [
    [], "a string", None, {"stored_at": NOW},
    {"stored_at": "yesterday", "result": {"ok": True}},
    {"stored_at": None, "result": {"ok": True}},
    {"stored_at": 1e20, "result": {"ok": True}},
    {"stored_at": -1e300, "result": {"ok": True}},
    {"stored_at": True, "result": {"ok": True}},
    {"stored_at": math.nan, "result": {"ok": True}},
    {"stored_at": NOW - 2 * cache.MAX_AGE_SECONDS, "result": {"ok": True}},
    {"stored_at": NOW, "result": []},
    {"stored_at": NOW, "result": {"ok": False, "error": "boom"}},
], ids=["list", "string", "null", "no-result", "stored-at-text", "stored-at-null", "stored-at-far-future",
        "stored-at-far-past", "stored-at-bool", "stored-at-nan", "too-old", "result-list", "failure"])
def test_probe_cache_entries_of_the_wrong_shape_are_ignored(record):
    assert cache.read_record(record, NOW) is None


def test_probe_cache_file_of_the_wrong_shape_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("MACML_CACHE_DIR", str(tmp_path))
    (tmp_path / "probes").mkdir()
    (tmp_path / "probes" / "k.json").write_text(json.dumps({"stored_at": "now", "result": {"ok": True}}))
    assert cache.load("k") is None
    cache.store("k", {"name": "torch", "ok": True})
    assert cache.load("k", now=time.time())["cached_at"].endswith("Z")


@pytest.mark.parametrize("stdout, message", [
    ("[1, 2]", "expected a JSON object, got list"),
    ("Python 2.7.18", "not JSON"),
    ('{"executable": "/usr/bin/python3"}', "'version' must be a string"),
    ('{"executable": "/p", "version": "3.12.1", "packages": ["torch"]}', "'packages' must be an object of strings"),
], ids=["list", "not-json", "no-version", "packages-list"])
def test_interpreter_output_that_is_not_facts_is_a_clear_error(stdout, message):
    with pytest.raises(MacmlError) as err:
        parse_interpreter_output("/opt/py", stdout)
    assert "/opt/py" in err.value.message and message in err.value.message


@pytest.mark.parametrize("stdout, error", [
    ("[1, 2]", "not its answer"),
    ('"ok"', "not its answer"),
    ('{"ok": "yes"}', "'ok' must be true or false"),
    ('{"ok": true, "device_names": true}', "'device_names' must be a list of strings"),
    ('{"ok": true, "cuda_available": "False"}', "'cuda_available' must be true, false or null"),
    ("", "probe crashed"),
], ids=["list", "string", "ok-not-bool", "device-names-bool", "cuda-available-text", "nothing"])
def test_framework_probe_output_that_is_not_an_answer_is_a_failed_probe(stdout, error):
    answer = parse_probe_output("torch", stdout)
    assert answer["ok"] is False and error in answer["error"]
