"""checks/probe_plaidml.py run for real in this interpreter (which has no plaidml).

The facts it gathers without importing plaidml (settings file, config files, where a
`pip install --user` put them) are checked against fake site directories in tmp_path.
"""
import json
import os
import subprocess
import sys

import pytest

from conftest import PROJECT

PROBE = PROJECT / "checks" / "probes" / "probe_plaidml.py"


def run_probe(tmp_path, extra_env=None, pythonpath=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLAIDML_") and k != "PYTHONPATH"}
    env["HOME"] = str(tmp_path / "home")  # never read the real ~/.plaidml
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)
    env.update(extra_env or {})
    proc = subprocess.run([sys.executable, str(PROBE), "--timeout", "20"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env, timeout=60, universal_newlines=True)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr
    assert len(lines) == 1, proc.stdout  # nothing but the one JSON line on stdout
    return json.loads(lines[0])


def test_not_installed(tmp_path):
    data = run_probe(tmp_path)
    assert data["name"] == "plaidml"
    assert data["installed"] is False and data["ok"] is False
    assert data["devices"] == [] and data["configured_devices"] == []
    assert data["settings_file"] is None and data["settings"] is None


def test_settings_file_from_env_is_read(tmp_path):
    settings = tmp_path / "plaidml.json"
    settings.write_text('{"PLAIDML_DEVICE_IDS": ["metal_amd_radeon_pro_560x.0"], "PLAIDML_EXPERIMENTAL": true}')
    data = run_probe(tmp_path, {"PLAIDML_SETTINGS": str(settings), "PLAIDML_DEVICE_IDS": "llvm_cpu.0"})
    assert data["settings_file"] == str(settings)
    assert data["settings"]["PLAIDML_DEVICE_IDS"] == ["metal_amd_radeon_pro_560x.0"]
    assert data["device_ids_env"] == "llvm_cpu.0"


def test_home_settings_file_is_found_when_env_path_is_missing(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".plaidml").write_text('{"PLAIDML_EXPERIMENTAL": false}')
    data = run_probe(tmp_path, {"PLAIDML_SETTINGS": str(tmp_path / "absent.json")})
    assert data["settings_file"] == str(home / ".plaidml")
    assert data["settings"] == {"PLAIDML_EXPERIMENTAL": False}


def test_broken_settings_file_is_reported_not_fatal(tmp_path):
    settings = tmp_path / "plaidml.json"
    settings.write_bytes(b'{"PLAIDML_DEVICE_IDS": [\xff')
    data = run_probe(tmp_path, {"PLAIDML_SETTINGS": str(settings)})
    assert data["settings"] is None
    assert str(settings) in data["settings_error"]


def fake_user_site(tmp_path):
    """A site dir as `pip install --user plaidml` leaves it: the dist-info, the package
    missing (so the import fails here), config files under USER_BASE/share/plaidml."""
    base = tmp_path / "userbase"
    site = base / "lib" / "site-packages"
    info = site / "plaidml-0.7.0.dist-info"
    info.mkdir(parents=True)
    share = base / "share" / "plaidml"
    share.mkdir(parents=True)
    for name in ("config.json", "experimental.json"):
        (share / name).write_text("{}")
    (info / "RECORD").write_text(
        "plaidml/__init__.py,sha256=x,1\n../../share/plaidml/config.json,sha256=y,2\n"
        "../../share/plaidml/experimental.json,sha256=z,3\n")
    (site / "enum34-1.1.10.dist-info").mkdir()
    (site / "Keras-2.2.4.dist-info").mkdir()
    return site, share


def test_user_install_config_files_are_located(tmp_path):
    site, share = fake_user_site(tmp_path)
    data = run_probe(tmp_path, pythonpath=site)
    assert data["installed"] is True and data["ok"] is False
    assert "plaidml" in data["error"]  # the import itself failed, and says so
    assert data["version"] == "0.7.0" and data["keras_version"] == "2.2.4" and data["enum34"] is True
    assert data["config_present"] is False
    assert data["config_dir"] == os.path.join(sys.prefix, "share", "plaidml")
    assert data["config_installed_dir"] == str(share)


def test_enum34_ahead_of_the_stdlib_does_not_kill_the_probe(tmp_path):
    """PYTHONPATH=site-packages with enum34 breaks `import re` (no enum.IntFlag)."""
    site = tmp_path / "site"
    (site / "enum").mkdir(parents=True)
    (site / "enum" / "__init__.py").write_text("# enum34 stand-in: no IntFlag\n")
    data = run_probe(tmp_path, pythonpath=site)
    assert data["enum34_shadows_stdlib"] is True
    assert data["installed"] is False


@pytest.mark.parametrize("timeout", ["20", "bogus"])
def test_timeout_argument_is_tolerated(tmp_path, timeout):
    proc = subprocess.run([sys.executable, str(PROBE), "--timeout", timeout], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60, universal_newlines=True,
                          env=dict(os.environ, HOME=str(tmp_path)))
    assert json.loads(proc.stdout)["name"] == "plaidml"
