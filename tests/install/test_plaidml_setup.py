"""plaidml_setup's pure parts: device choice, the settings file, probe parsing, config repair.

Never touches the real ~/.plaidml: every path is under tmp_path.
"""
import json
import sys
from pathlib import Path

import pytest

from macml.install import plaidml as plaidml_setup
from macml.errors import MacmlError

CPU = "llvm_cpu.0"
METAL_560X = "metal_amd_radeon_pro_560x.0"
METAL_5600M = "metal_amd_radeon_pro_5600m.0"
METAL_UHD = "metal_intel(r)_uhd_graphics_630.0"
OPENCL_560X = "opencl_amd_radeon_pro_560x_compute_engine.0"
OPENCL_UHD = "opencl_intel_uhd_graphics_630.0"


@pytest.mark.parametrize(
    "ids, expected",
    [
        pytest.param([CPU], CPU, id="cpu-only-linux"),
        pytest.param([CPU, METAL_UHD, METAL_560X], METAL_560X, id="metal-amd-over-igpu-and-cpu"),
        pytest.param([OPENCL_560X, CPU, METAL_560X], METAL_560X, id="metal-over-opencl"),
        pytest.param([CPU, METAL_UHD, OPENCL_560X], OPENCL_560X, id="opencl-amd-over-metal-igpu"),
        pytest.param([CPU, METAL_UHD], METAL_UHD, id="igpu-over-cpu"),
        pytest.param([OPENCL_UHD, CPU], OPENCL_UHD, id="opencl-igpu-over-cpu"),
        pytest.param([METAL_5600M, METAL_560X], METAL_5600M, id="tie-keeps-list-order"),
        pytest.param([METAL_560X, METAL_5600M], METAL_560X, id="tie-keeps-list-order-reversed"),
    ],
)
def test_choose_device(ids, expected):
    assert plaidml_setup.choose_device(ids) == expected


def test_choose_device_with_no_device_is_a_user_error():
    with pytest.raises(MacmlError, match="no device"):
        plaidml_setup.choose_device([])


@pytest.mark.parametrize(
    "device, rank",
    [
        (CPU, plaidml_setup.RANK_CPU),
        (METAL_560X, plaidml_setup.RANK_METAL_GPU),
        (OPENCL_560X, plaidml_setup.RANK_OPENCL_GPU),
        (METAL_UHD, plaidml_setup.RANK_INTEGRATED),
        ("opencl_cpu.0", plaidml_setup.RANK_CPU),
        ("cuda_geforce.0", plaidml_setup.RANK_UNKNOWN),
    ],
)
def test_device_rank(device, rank):
    assert plaidml_setup.device_rank(device) == rank


# What plaidml-setup 0.7.0 saved on this machine (byte for byte) after "y, enter, y".
PLAIDML_SETUP_OUTPUT = '{\n    "PLAIDML_DEVICE_IDS":[\n        "llvm_cpu.0"\n    ],\n    "PLAIDML_EXPERIMENTAL":true\n}'


def test_settings_document_matches_plaidml_setup_byte_for_byte():
    assert plaidml_setup.settings_document(CPU, True) == PLAIDML_SETUP_OUTPUT


def test_settings_document_without_experimental():
    doc = json.loads(plaidml_setup.settings_document(OPENCL_560X, False))
    assert doc == {"PLAIDML_DEVICE_IDS": [OPENCL_560X], "PLAIDML_EXPERIMENTAL": False}


@pytest.mark.parametrize(
    "env, expected",
    [
        pytest.param({"PLAIDML_SETTINGS": "/x/custom.json"}, Path("/x/custom.json"), id="env-wins"),
        pytest.param({}, Path("/home/u/.plaidml"), id="home-default"),
        pytest.param({"PLAIDML_SETTINGS": ""}, Path("/home/u/.plaidml"), id="empty-env-ignored"),
    ],
)
def test_settings_path(env, expected):
    assert plaidml_setup.settings_path(env, home=Path("/home/u")) == expected


def test_write_settings_replaces_the_file_and_leaves_no_temp(tmp_path):
    target = tmp_path / "sub" / "plaidml.json"
    plaidml_setup.write_settings(target, CPU, True)
    plaidml_setup.write_settings(target, METAL_560X, True)
    assert json.loads(target.read_text())["PLAIDML_DEVICE_IDS"] == [METAL_560X]
    assert [p.name for p in target.parent.iterdir()] == ["plaidml.json"]


def test_write_settings_into_unwritable_place_is_a_user_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(MacmlError, match="Could not write"):
        plaidml_setup.write_settings(blocker / "plaidml.json", CPU, True)


@pytest.mark.parametrize(
    "stdout",
    [
        pytest.param("", id="empty"),
        pytest.param("Traceback (most recent call last):\n", id="crash"),
        pytest.param('{"name": "torch"}', id="other-probe"),
        pytest.param('{"name": "plaidml"', id="truncated"),
    ],
)
def test_parse_probe_output_rejects_garbage(stdout):
    with pytest.raises(MacmlError, match="no answer"):
        plaidml_setup.parse_probe_output(stdout)


def test_parse_probe_output_takes_the_last_line():
    data = plaidml_setup.parse_probe_output('chatter\n{"name": "plaidml", "devices": ["llvm_cpu.0"]}\n')
    assert data["devices"] == [CPU]


def facts(**extra):
    base = {"name": "plaidml", "installed": True, "ok": False, "config_present": True,
            "experimental_present": True, "config_dir": "/v/share/plaidml", "config_installed_dir": None}
    base.update(extra)
    return base


@pytest.mark.parametrize(
    "probe_facts, message, hint",
    [
        pytest.param({"installed": False}, "not installed", "pip install plaidml-keras==0.7.0", id="missing"),
        pytest.param(facts(config_present=False, experimental_present=False, config_installed_dir="/u/share/plaidml",
                           error='PlaidMLError: Could not find PlaidML configuration file: "experimental.json".'),
                     "does not import", "cp /u/share/plaidml/config.json", id="user-install-config"),
        pytest.param(facts(error="AttributeError: module 'enum' has no attribute 'IntFlag'"),
                     "IntFlag", "pip uninstall -y enum34", id="enum34"),
        pytest.param(facts(error='OutOfRange: Invalid key "bogus" in config /h/.plaidml'),
                     "Invalid key", "settings file", id="bad-settings"),
    ],
)
def test_import_failure_names_the_fix(probe_facts, message, hint):
    err = plaidml_setup.import_failure("/v/bin/python", probe_facts)
    assert message in err.message
    assert hint in err.hint


def test_candidate_devices_without_experimental_uses_the_default_config():
    found = {"devices": [CPU, METAL_560X, OPENCL_560X], "default_devices": [OPENCL_560X]}
    assert plaidml_setup.candidate_devices(found, experimental=False) == [OPENCL_560X]
    assert plaidml_setup.candidate_devices(found, experimental=True) == [CPU, METAL_560X, OPENCL_560X]


def test_config_repair_plan_when_files_are_in_place():
    assert plaidml_setup.plan_config_repair(facts()) is None


def test_config_repair_plan_for_a_user_install():
    plan = plaidml_setup.plan_config_repair(
        facts(config_present=False, experimental_present=False, config_installed_dir="/u/share/plaidml"))
    assert plan == plaidml_setup.ConfigRepair("/u/share/plaidml", "/v/share/plaidml")


def test_config_repair_without_any_copy_is_a_user_error():
    with pytest.raises(MacmlError, match="no copy"):
        plaidml_setup.plan_config_repair(facts(config_present=False))


def test_copy_config_files(tmp_path):
    source, target = tmp_path / "user" / "share" / "plaidml", tmp_path / "venv" / "share" / "plaidml"
    source.mkdir(parents=True)
    for name in plaidml_setup.CONFIG_FILES:
        (source / name).write_text('{"%s": 1}' % name)
    plaidml_setup.copy_config_files(plaidml_setup.ConfigRepair(str(source), str(target)))
    assert sorted(p.name for p in target.iterdir()) == ["config.json", "experimental.json"]
    assert (target / "config.json").read_text() == '{"config.json": 1}'


def test_copy_config_files_failure_gives_both_fixes(tmp_path):
    blocker = tmp_path / "venv"
    blocker.write_text("")
    with pytest.raises(MacmlError) as caught:
        plaidml_setup.copy_config_files(plaidml_setup.ConfigRepair(str(tmp_path / "src"), str(blocker / "share")))
    assert "PLAIDML_DEFAULT_CONFIG=" in caught.value.hint and "sudo cp" in caught.value.hint


def test_configure_without_plaidml_names_the_install_command(tmp_path, monkeypatch):
    """The real probe in an interpreter that has no plaidml (this one)."""
    monkeypatch.setenv("PLAIDML_SETTINGS", str(tmp_path / "plaidml.json"))
    with pytest.raises(MacmlError) as caught:
        plaidml_setup.configure(sys.executable)
    assert "not installed" in caught.value.message
    assert "plaidml-keras==0.7.0" in caught.value.hint
    assert not (tmp_path / "plaidml.json").exists()


def test_configure_with_a_missing_interpreter(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAIDML_SETTINGS", str(tmp_path / "plaidml.json"))
    with pytest.raises(MacmlError, match="Cannot run"):
        plaidml_setup.configure(str(tmp_path / "no-python"))
