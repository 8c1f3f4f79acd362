"""The inference step and the advice it enables, on real captured outputs (tests/captures) turned into
snapshots by hand: each case feeds a capture's text as the command that printed it."""

import pytest

from conftest import PROJECT
from macml.diagnose import run_checks
from macml.facts import GIB, GPU, describe_gpu
from macml.probe.collect import facts_from_snapshot
from macml.recipes import catalog
from macml.recipes import recommend

CAPTURES = PROJECT / "tests" / "captures"
BRAND = "sysctl -n machdep.cpu.brand_string"
PROFILER_TEXT = "system_profiler SPHardwareDataType SPDisplaysDataType"
RECIPES = catalog.load_all()


def summary(found) -> str:
    """A match as one line: its pin row or why not, and what it assumes."""
    return "; ".join((found.pin_label, *found.reasons, *(f"fits if {text}" for text in found.fits_if)))



def capture(name: str) -> str:
    path = CAPTURES / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"capture {path.name} is not in tests/captures")
    return path.read_text(encoding="utf-8")


def snapshot(platform="darwin", commands=None, interpreter=None, frameworks=None, cpuinfo=None):
    return {"macml_snapshot": 1, "platform": platform,
            "commands": {k: {"returncode": 0, "stdout": v, "stderr": ""} for k, v in (commands or {}).items()},
            "interpreter": interpreter or {}, "frameworks": frameworks or {}, "env": {},
            **({"cpuinfo": cpuinfo} if cpuinfo else {})}


def diagnose(snap):
    facts = facts_from_snapshot(snap)
    return facts, {f.check: f for f in run_checks(facts, RECIPES)}


def reasons(facts, recipe):
    return catalog.match(catalog.find_recipe(recipe, RECIPES), facts)


# --- Apple silicon from whatever names it -------------------------------------------------------

@pytest.mark.parametrize("commands, interpreter, chip, source", [
    ({BRAND: "Apple M3 Max\n"}, None, "Apple M3 Max", "CPU brand string"),
    ({BRAND: "Apple processor\n"}, None, None, "CPU brand string"),
    ({PROFILER_TEXT: "Hardware:\n\n    Hardware Overview:\n\n      Model Identifier: Mac14,14\n"}, None,
     "Apple M2 Ultra", "model identifier Mac14,14"),
    ({PROFILER_TEXT: "Hardware:\n\n    Hardware Overview:\n\n      Model Identifier: Mac16,9\n"}, None,
     "Apple M4 Max", "model identifier Mac16,9"),
    ({"sysctl -n hw.optional.arm64": "1\n"}, None, None, "hw.optional.arm64"),
    ({}, {"machine": "arm64", "version": "3.11.9"}, None, "arm64 interpreter"),
], ids=["brand-m3-max", "brand-apple-processor", "model-mac14-14", "model-mac16-9", "hw-optional-arm64",
        "arm64-interpreter"])
def test_apple_silicon_from_any_evidence(commands, interpreter, chip, source):
    facts, findings = diagnose(snapshot(commands=commands, interpreter=interpreter))
    assert facts.cpu.apple_silicon is True and facts.cpu.hardware_arch == "arm64"
    assert source in facts.sources["cpu.apple_silicon"]
    assert (facts.cpu.chip.name if facts.cpu.chip else None) == chip
    apple = facts.gpus_by_vendor("Apple")
    assert len(apple) == 1 and apple[0].unified_memory and apple[0].cores is None
    assert "Apple GPU" in facts.sources["gpus.0"]
    assert reasons(facts, "pytorch-mps").ok, summary(reasons(facts, "pytorch-mps"))
    assert recommend.recommendation(facts, RECIPES).recipe == "pytorch-mps"
    assert "intel_mac_torch" not in findings
    assert "no GPU" not in findings["gpu"].message


def test_apple_processor_in_a_pasted_sysctl_dump():
    facts, _ = diagnose(snapshot(commands={"sysctl -A machdep.cpu": capture("mac-archspec-38-m1-sysctl-machdep-cpu")}))
    assert facts.cpu.apple_silicon is True and facts.gpus_by_vendor("Apple")


def test_apple_gpu_entry_names_apple_silicon():
    facts, findings = diagnose(snapshot(commands={PROFILER_TEXT: capture("mac-joey-ma-m1pro-16core-spdisplays")}))
    assert (facts.cpu.apple_silicon, facts.cpu.chip.name) == (True, "Apple M1 Pro")
    assert facts.sources["cpu.apple_silicon"].startswith("Apple GPU entry")
    assert "intel_mac_torch" not in findings
    assert [g.vendor for g in facts.gpus] == ["Apple"]


def test_rosetta_from_a_collect_env_style_interpreter_section():
    """collect_env gives the machine and version, never the executable: still a Rosetta finding."""
    facts, findings = diagnose(snapshot(commands={BRAND: "Apple M2 Pro\n"},
                                        interpreter={"machine": "x86_64", "version": "3.12.8"}))
    assert facts.rosetta is True
    assert findings["rosetta_python"].level == "fail"
    found = recommend.recommendation(facts, RECIPES)
    assert (found.recipe, found.once) == ("pytorch-mps", "a native arm64 Python (not Rosetta)")
    assert findings["recommended_recipe"].message.startswith("Recommended recipe: pytorch-mps, once")
    assert "install_target" not in findings  # where the interpreter lives is unknown


# --- Intel Macs from their GPU list -------------------------------------------------------------

@pytest.mark.parametrize("name, gpu", [
    ("mac-systeminformation-348-mbp-uhd630-spdisplays-partial", "Intel UHD Graphics 630"),
    ("mac-macos-egpu-18-macpro-dual-firepro-d500-spdisplays", "AMD FirePro D500"),
    ("mac-cpu_info-17-imac-pro-vega64-spdisplays", "Radeon Pro Vega 64"),
    ("mac-createdd-egpu-rx5700xt-catalina-plaidml", "Radeon RX 5700 XT"),
    ("mac-kryptonite-45-macmini7-1-egpu-rx550-unnamed", "unknown GPU"),  # an eGPU macOS lists without a name
], ids=["uhd630", "dual-d500", "vega64", "egpu-5700xt", "unnamed-egpu-rx550"])
def test_intel_mac_from_gpu_list(name, gpu):
    facts, findings = diagnose(snapshot(commands={PROFILER_TEXT: capture(name)}))
    assert facts.cpu.apple_silicon is False and facts.cpu.hardware_arch == "x86_64"
    assert any(g.model == gpu for g in facts.gpus)
    plaidml = reasons(facts, "plaidml-amd")
    assert not any("Apple silicon" in r for r in plaidml.reasons), summary(plaidml)
    assert "unknown" not in findings["intel_mac_torch"].message


def test_egpu_is_a_fact_with_advice():
    facts, findings = diagnose(snapshot(commands={PROFILER_TEXT: capture("mac-createdd-egpu-rx5700xt-catalina-plaidml")}))
    assert facts.egpu is True and "external" in facts.sources["egpu"]
    assert "unplug" in findings["egpu"].fix.text


def test_nvidia_gpu_in_a_mac():
    facts, findings = diagnose(snapshot(commands={PROFILER_TEXT: capture("mac-pathfinder-3-mbp2014-iris-pro-gt750m-spdisplays")}))
    nvidia = facts.gpus_by_vendor("NVIDIA")[0]
    assert nvidia.compute_capability == "3.0"  # from the name table: a Kepler GT 750M
    assert findings["gpu"].level == "warn" and "no current ML framework" in findings["gpu"].message
    assert recommend.recommendation(facts, RECIPES).recipe == "pytorch-cpu"


@pytest.mark.parametrize("megabytes, text", [(384, "384 MiB"), (512, "512 MiB"), (1536, "1.5 GiB"), (2048, "2 GiB")])
def test_small_vram_is_not_zero(megabytes, text):
    assert text in describe_gpu(GPU(vendor="NVIDIA", model="GeForce GT 650M", memory_bytes=megabytes * 1024**2))


# --- Virtual machines and small memory ----------------------------------------------------------

def test_apple_vm_from_a_grep_of_sphardware():
    facts, findings = diagnose(snapshot(commands={PROFILER_TEXT: capture("mac-utm-6996-vm-m1pro-virtual-sphardware")}))
    assert facts.vm is True and facts.hypervisor == "Apple Virtual Machine"
    assert findings["virtual_machine"].level == "warn"
    assert [g.model for g in facts.gpus] == ["Apple Paravirtual device"]  # not the host's chip GPU
    assert not facts.has_metal_gpu
    assert recommend.recommendation(facts, RECIPES).recipe == "pytorch-cpu"


def test_virtualbox_evidence_is_kept():
    text = ("Hardware:\n\n    Hardware Overview:\n\n      Model Name: iMac\n      Model Identifier: iMac19,1\n"
            "      Boot ROM Version: VirtualBox\n")
    facts, findings = diagnose(snapshot(commands={PROFILER_TEXT: text}))
    assert (facts.vm, facts.hypervisor) == (True, "VirtualBox")
    assert "host macOS" in findings["virtual_machine"].fix.text


def test_eight_gb_mac():
    facts, findings = diagnose(snapshot(commands={PROFILER_TEXT: capture("mac-xcode-perf-142-mba-m1-8gb-sphardware")}))
    assert facts.cpu.memory_bytes == 8 * GIB and facts.vm is False
    assert findings["unified_memory"].level == "warn"


# --- NVIDIA and Linux ---------------------------------------------------------------------------

def test_titan_xp_on_driver_450():
    facts, findings = diagnose(snapshot("linux", {"nvidia-smi": capture("linux-nvgpu-15-titanxp-driver450-nvidia-smi")}))
    gpu = facts.gpus[0]
    assert (gpu.model, gpu.compute_capability, gpu.driver_version) == ("TITAN Xp", "6.1", "450.57")
    driver = findings["nvidia_driver"]
    # CUDA 11.x minor-version compatibility needs 450.80.02 (compat.py, NVIDIA's compatibility guide)
    assert driver.level == "fail" and "450.80.02" in driver.message and "torch 1.12.1" in driver.message
    found = recommend.recommendation(facts, RECIPES)
    assert (found.recipe, found.once) == ("pytorch-cuda", "a newer NVIDIA driver")


@pytest.mark.parametrize("name, capability, arch", [
    ("NVIDIA A100-SXM4-80GB", "8.0", "x86_64"), ("NVIDIA L40S", "8.9", "x86_64"),
    ("NVIDIA GH200 480GB", "9.0", "aarch64"),
], ids=["a100", "l40s", "gh200"])
def test_compute_capability_and_arch_from_plain_nvidia_smi(name, capability, arch):
    smi = ("| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
           f"|   0  {name:<22} On   | 00000000:17:00.0 Off |                  0 |\n"
           "| N/A   33C    P0    60W / 400W |      4MiB / 81920MiB |      0%      Default |\n")
    commands = {"nvidia-smi": smi}
    if arch == "x86_64":
        commands["uname -rm"] = "5.15.0-91-generic x86_64\n"
    facts, _ = diagnose(snapshot("linux", commands))
    assert (facts.gpus[0].compute_capability, facts.cpu.hardware_arch) == (capability, arch)
    assert "developer.nvidia.com" in facts.sources["gpus.0.compute_capability"]
    found = recommend.recommendation(facts, RECIPES)
    assert found.recipe == "pytorch-cuda", found


def test_unknown_gpus_are_not_no_gpus():
    facts, findings = diagnose(snapshot("linux", {"lscpu": capture("linux-cvxpy-3369-github-runner-azure-uname-lscpu")}))
    assert facts.gpu_list_known is False and facts.egpu is None
    assert "unknown" in findings["gpu"].message
    cuda = reasons(facts, "pytorch-cuda")
    assert cuda.ok and any("NVIDIA GPU" in f for f in cuda.fits_if)


# --- CPU features -------------------------------------------------------------------------------

def test_cpu_flags_from_sysctl_capture():
    facts, _ = diagnose(snapshot(commands={
        "sysctl machdep.cpu.features machdep.cpu.leaf7_features": capture("mac-whisper-cpp-1250-intel-uname-sysctl-features")}))
    assert {"avx", "avx2", "fma"} <= set(facts.cpu.flags)
    assert facts.cpu.apple_silicon is False  # x86 CPUID features and a RELEASE_X86_64 kernel: an Intel Mac
    assert facts.sources["cpu.flags"].startswith("sysctl")


def test_cpu_flags_replay_from_the_cpuinfo_section():
    facts, _ = diagnose(snapshot("linux", cpuinfo={"source": "py-cpuinfo 9.0.0", "flags": ["sse4_2", "avx", "avx2"]}))
    assert facts.cpu.flags == ("avx", "avx2", "sse4_2") and facts.sources["cpu.flags"] == "py-cpuinfo 9.0.0"


def test_flags_unknown_stay_unknown():
    facts, findings = diagnose(snapshot("linux", interpreter={"machine": "x86_64", "version": "3.11.4",
                                                              "packages": {"tensorflow": "2.15.0"}}))
    assert facts.cpu.flags is None and "cpu_features" not in findings


def test_tensorflow_without_avx_dies():
    interp = {"executable": "/v/bin/python", "machine": "x86_64", "version": "3.11.4", "prefix": "/v",
              "base_prefix": "/usr", "packages": {"tensorflow": "2.15.0"}}
    _, findings = diagnose(snapshot("linux", interpreter=interp, cpuinfo={"flags": ["sse4_2"]}))
    assert findings["cpu_features"].level == "fail" and "Illegal instruction" in findings["cpu_features"].message


def test_tensorflow_under_rosetta_before_sequoia():
    interp = {"executable": "/opt/anaconda3/bin/python", "machine": "x86_64", "version": "3.11.4", "translated": True,
              "prefix": "/opt/anaconda3", "base_prefix": "/opt/anaconda3", "packages": {"tensorflow": "2.13.0"}}
    _, findings = diagnose(snapshot(commands={BRAND: "Apple M1\n", "sw_vers": "ProductVersion:\t14.5\n"},
                                    interpreter=interp))
    assert findings["rosetta_avx"].level == "fail"


def test_a_live_probe_records_the_cpu_flags():
    import platform

    from macml.probe.collect import cpu_features

    recorded = cpu_features()
    assert recorded["source"].startswith("py-cpuinfo")
    if platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip("the flag names asserted below are x86 ones")
    assert "sse2" in recorded["flags"]
    facts, _ = diagnose(snapshot("linux", cpuinfo=recorded))
    assert "sse2" in facts.cpu.flags and facts.sources["cpu.flags"].startswith("py-cpuinfo")


def test_an_x86_64_python_on_an_unknown_mac_is_neither_rosetta_nor_intel():
    """pytorch#48145: an x86_64 Anaconda Python on Big Sur, from a reporter with both an M1 and an Intel Mac."""
    facts, findings = diagnose(snapshot(commands={"sw_vers": "ProductName: macOS\nProductVersion: 11.0\n"},
                                        interpreter={"machine": "x86_64", "version": "3.8.5"}))
    assert (facts.cpu.apple_silicon, facts.rosetta, facts.gpu_list_known) == (None, None, False)
    assert findings["rosetta_python"].level == "info" and "if this Mac has Apple silicon" in findings["rosetta_python"].message
    assert "intel_mac_torch" not in findings
    assert findings["gpu"].level == "info"
    plaidml = reasons(facts, "plaidml-amd")
    assert plaidml.ok and plaidml.fits_if == ("this machine has an AMD GPU",)


def test_system_profiler_timing_out_on_apple_silicon_still_has_a_gpu():
    snap = snapshot(commands={BRAND: "Apple M2 Max\n", "sysctl -n hw.memsize": "34359738368\n"})
    snap["commands"]["system_profiler -json SPHardwareDataType SPDisplaysDataType"] = {
        "returncode": None, "stdout": "", "stderr": "", "timed_out": True}
    facts, findings = diagnose(snap)
    assert [(g.model, g.memory_bytes, g.unified_memory) for g in facts.gpus] == [("Apple M2 Max", 32 * GIB, True)]
    assert findings["gpu"].level == "ok"
    assert recommend.recommendation(facts, RECIPES).recipe == "pytorch-mps"


def test_json_and_recipes_output_carry_the_new_facts(tmp_path):
    import json

    from conftest import run_macml

    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot(commands={PROFILER_TEXT: capture("mac-utm-6996-vm-m1pro-virtual-sphardware")})))
    facts = json.loads(run_macml("doctor", "--from", str(path), "--json").stdout)["facts"]
    assert (facts["vm"], facts["hypervisor"], facts["cpu"]["apple_silicon"]) == (True, "Apple Virtual Machine", True)
    assert facts["sources"]["vm"] and "egpu" in facts and facts["gpu_list_known"] is True
    rosetta = run_macml("recipes", "--from", str(PROJECT / "tests" / "machines" / "mac-m2-rosetta.json"))
    assert "Recommended: pytorch-mps, once this runs in a native arm64 Python" in rosetta.stdout
