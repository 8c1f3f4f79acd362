"""Framework findings that used to say the wrong thing, the probe cache under --refresh, --timeout,
and one recommendation shared by `macml doctor` and `macml recipes`."""
import pytest

from conftest import machine_files, run_macml
from macml.knowledge.compat import mps_min_macos
from macml.diagnose import run_checks
from macml.errors import MacmlError
from macml.probe import cache as probe_cache
from macml.probe import frameworks as framework_probe
from macml.probe.collect import facts_from_snapshot
from macml.probe.snapshot import load_snapshot
from macml.recipes import catalog
from macml.recipes import recommend
from macml.recipes.command import run_recipes

RECIPES = catalog.load_all()
H100_SMI = ("| NVIDIA-SMI 580.65.06   Driver Version: 580.65.06   CUDA Version: 13.0     |\n"
            "|   0  NVIDIA H100 80GB HBM3          On   | 00000000:17:00.0 Off |                  0 |\n"
            "| N/A   33C    P0    60W / 700W |      4MiB / 81559MiB |      0%      Default |\n")


def linux(packages, frameworks, smi=H100_SMI):
    interp = {"executable": "/v/bin/python", "version": "3.11.9", "implementation": "cpython", "machine": "x86_64",
              "prefix": "/v", "base_prefix": "/usr", "packages": packages}
    commands = {"nvidia-smi": {"returncode": 0, "stdout": smi, "stderr": ""}} if smi else {}
    snap = {"macml_snapshot": 1, "platform": "linux", "commands": commands, "interpreter": interp,
            "frameworks": frameworks, "env": {}}
    facts = facts_from_snapshot(snap)
    return facts, {f.check: f for f in run_checks(facts, RECIPES)}


@pytest.mark.parametrize("name, dist", [("tensorflow", "tensorflow"), ("mlx", "mlx"), ("jax", "jax")])
def test_any_framework_that_fails_to_import_is_reported(name, dist):
    _, findings = linux({dist: "1.0"}, {name: {"installed": True, "ok": False, "error": "ImportError: boom"}})
    assert findings["framework_import"].level == "fail" and name in findings["framework_import"].message


def test_plain_mlx_on_linux_is_told_to_install_a_backend():
    error = "ImportError: libmlx.so: cannot open shared object file: No such file or directory"
    _, findings = linux({"mlx": "0.29.0"}, {"mlx": {"installed": True, "ok": False, "error": error}})
    assert "mlx[cuda]" in " ".join(findings["framework_import"].fix.commands)


@pytest.mark.parametrize("name", ["torch", "tensorflow"])
def test_a_timed_out_probe_is_not_a_broken_install(name):
    error = "probe timed out after 20s"
    _, findings = linux({name: "2.5.0"}, {name: {"installed": True, "ok": False, "error": error}})
    finding = findings["torch_build" if name == "torch" else "framework_import"]
    assert finding.level == "warn" and "timed out" in finding.message
    assert any("--timeout" in c for c in finding.fix.commands)
    assert "reinstall" not in finding.fix.text.lower()


@pytest.mark.parametrize("name, packages, data, command", [
    ("tensorflow", {"tensorflow-cpu": "2.17.0"}, {"version": "2.17.0", "gpus": []}, "tensorflow[and-cuda]"),
    ("jax", {"jax": "0.4.35", "jaxlib": "0.4.35"}, {"version": "0.4.35", "platforms": ["cpu"]}, "jax[cuda12]"),
], ids=["tensorflow-cpu", "jax-without-plugin"])
def test_cpu_only_builds_on_nvidia_are_told_to_install_the_gpu_build(name, packages, data, command):
    _, findings = linux(packages, {name: {"installed": True, "ok": True, **data}})
    finding = findings["framework_gpu"]
    assert "CPU-only build" in finding.message
    assert any(command in c for c in finding.fix.commands)


def test_no_cpu_recipe_while_another_framework_uses_the_gpu():
    data = {"version": "2.17.0", "gpus": ["/physical_device:GPU:0"]}
    _, findings = linux({"tensorflow": "2.17.0", "nvidia-cudnn-cu12": "9.3"}, {"tensorflow": {"ok": True, **data}})
    assert findings["recommended_recipe"].message == "tensorflow already uses the GPU: no recipe needed"


def test_plaidml_on_the_cpu_device_is_not_green():
    data = {"devices": ["llvm_cpu.0", "metal_amd_radeon_pro_5500m.0"], "configured_devices": ["llvm_cpu.0"]}
    facts, findings = linux({"plaidml": "0.7.0"}, {"plaidml": {"ok": True, **data}}, smi=None)
    assert findings["plaidml_devices"].level == "warn" and "the CPU" in findings["plaidml_devices"].message


@pytest.mark.parametrize("torch, macos", [("1.13.1", (12, 3)), ("2.4.1", (12, 3)), ("2.5.1", (13, 0)),
                                          ("2.8.0", (13, 0)), ("2.9.0", (14, 0)), ("2.10.0.dev20251008", (14, 0))])
def test_mps_minimum_macos_follows_the_release_notes(torch, macos):
    assert mps_min_macos(torch) == macos


def test_refresh_probes_again_and_stores_the_answer(monkeypatch):
    answers = iter([{"name": "torch", "ok": True, "version": "1"}, {"name": "torch", "ok": True, "version": "2"}])
    monkeypatch.setattr(framework_probe, "probe_framework_raw", lambda python, name, timeout: next(answers))
    framework_probe.probe_framework_cached("python3", "torch", 5, "k1")
    refreshed = framework_probe.probe_framework_cached("python3", "torch", 5, "k1", read=False)
    assert refreshed["version"] == "2"
    assert probe_cache.load("k1")["version"] == "2"  # the next plain run reuses the refreshed answer


@pytest.mark.parametrize("value", ["0", "-5"])
def test_timeout_must_be_positive(value):
    from macml.diagnose.doctor import run_doctor

    with pytest.raises(MacmlError, match="--timeout must be a positive"):
        run_doctor(timeout=float(value))
    result = run_macml("doctor", "--timeout", value)
    assert result.returncode != 0 and "--timeout must be a positive" in result.stdout + result.stderr


@pytest.mark.parametrize("path", machine_files(), ids=lambda p: p.stem)
def test_doctor_and_recipes_recommend_the_same(path):
    facts = facts_from_snapshot(load_snapshot(path))
    found = recommend.recommendation(facts, RECIPES)
    report = run_recipes(snapshot_in=(path,))
    assert report.recommended == (found.recipe if found else None)
    doctor = {f.check: f for f in run_checks(facts, RECIPES)}["recommended_recipe"]
    if found is not None and "no recipe needed" not in doctor.message:
        assert found.recipe in doctor.message
