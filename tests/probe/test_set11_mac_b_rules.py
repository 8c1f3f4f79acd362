"""The rules of mac_issue_rules.py, fed the lines Mac users write in issues (training set 11, slice mac-b)."""
from __future__ import annotations

import pytest

from macml.probe.paste import mac_issue_rules as rules
from macml.probe.paste.statements import read_statements, stated_platform


def _facts(line: str):
    return dict(rules.line_facts(line))


@pytest.mark.parametrize("line, arch, brand", [
    ("[BUG]: can't install Genjax on MBP M2", "arm64", None),
    ("In python 3.8.8 and using the new mac air (with the m1 chip), in jupyter", "arm64", "Apple M1"),
    ("tested on an M1 MBA and on my M2 Max MacBook", "arm64", "Apple M1"),
    ("Running on a MacBook Pro w/ M3 Pro", "arm64", "Apple M3 Pro"),
    ("my m2 ultra mac studio runs out of memory", "arm64", "Apple M2 Ultra"),
    ("Mac mini M4", "arm64", None),
], ids=["mbp-m2-title", "mac-air-with-the-m1-chip", "m1-mba", "with-slash-tier", "chip-before-mac", "mac-mini"])
def test_mac_with_chip(line, arch, brand):
    facts = _facts(line)
    assert facts.get("cpu.hardware_arch") == arch and facts.get("platform") == "darwin"
    assert facts.get("cpu.brand") == brand


@pytest.mark.parametrize("line", [
    "This is not an M1 Mac, it's an Intel one",
    "the M.2 SSD in my PC",
    "macOS M1 support",  # no Mac named
    "Firmware M2 update for the mac",
], ids=["negated", "m2-ssd", "macos-word", "unrelated-m2"])
def test_mac_with_chip_ignores(line):
    assert "cpu.hardware_arch" not in _facts(line)


@pytest.mark.parametrize("key, value, arch", [
    ("intel chip or apple chip", "Intel chip", "x86_64"),
    ("intel chip or apple chip", "Apple chip", "arm64"),
    ("intel chip or apple chip", "apple silicon", "arm64"),
    ("intel chip or apple chip", "both", None),
    ("chip", "Intel chip", None),
], ids=["intel", "apple", "apple-silicon", "unclear-answer", "other-key"])
def test_intel_or_apple_chip(key, value, arch):
    facts = dict(rules.intel_or_apple_chip(key, value))
    assert facts.get("cpu.hardware_arch") == arch


def test_docker_form_read_whole():
    statements = read_statements(["  - macOS Version: Big Sir v11.6", "  - Intel chip or Apple chip: Intel chip"])
    got = {(s.fact, s.value) for s in statements}
    assert ("os.version", "11.6") in got and ("cpu.hardware_arch", "x86_64") in got


@pytest.mark.parametrize("key, value, version", [
    ("macos version", "Big Sir v11.6", "11.6"),
    ("macos version", "12.6.1 (21G217)", "12.6.1"),
    ("mac os", "15.3", "15.3"),
    ("macos", "Monterey", None),
    ("os version", "11.6", None),  # not named macOS: a key others read
    ("macos version", "10.16", None),  # no such macOS
], ids=["misspelled-name", "with-build", "mac-os-key", "name-only", "other-key", "no-such-version"])
def test_macos_version_answer(key, value, version):
    facts = dict(rules.macos_version_answer(key, value))
    assert facts.get("os.version") == version


@pytest.mark.parametrize("line, version", [
    ("- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Mac OS, Mojave, 10.14.6", "10.14.6"),
    ("Hi! (macOS Big Sur Version 11.6, x86):", "11.6"),
    ("running El Capitan 10.11.5", "10.11.5"),
    ("Catalina (10.15.7) on a 2015 MacBook", "10.15.7"),
    ("Mojave, 10.15", None),  # the name and the number disagree
    ("Sierra Leone 10.2 million people", None),
], ids=["form-commas", "version-word", "el-capitan", "parenthesised", "mismatch", "not-macos"])
def test_macos_release_version(line, version):
    assert dict(rules.macos_release_version(line)).get("os.version") == version


@pytest.mark.parametrize("line, external", [
    ("I do have an eGPU _(enclosure is Razer Core X and GPU is AMD RX580)_. Does this app", ["AMD RX580"]),
    ("I connected through the adapter a Gigabyte Gaming Box RX 580 after running the script.", ["RX 580"]),
    ("- **eGPU**: Razer Core X Chroma with GEFORCE GTX 1660 Super", ["GEFORCE GTX 1660 Super"]),
    ("External GPU\tGeForce GTX 1660 SUPER", ["GeForce GTX 1660 SUPER"]),
    ("Sonnet eGFX Breakaway Box 650 with an AMD Radeon RX 6800 XT", ["AMD Radeon RX 6800 XT"]),
    ("I don't have an eGPU, only the Radeon Pro 560X", []),
    ("no GPU named here, just an eGPU enclosure", []),
], ids=["razer-core-x", "gaming-box", "form-field-caps", "purgewrangler-line", "sonnet", "negated", "no-name"])
def test_egpu_gpus(line, external):
    assert [v for f, v in rules.egpu_gpus(line) if f == "gpu.external"] == external


def test_egpu_well_named_gpu_is_listed():
    facts = rules.egpu_gpus("External GPU\tGeForce GTX 1660 SUPER")
    assert ("gpu", {"name": "GeForce GTX 1660 SUPER", "vendor": "NVIDIA", "memory_mib": None, "index": None}) in facts


@pytest.mark.parametrize("line, name, mib", [
    ("- **System GPUs**: IIntel Iris Plus Graphics 650 1536 MB.", "Intel Iris Plus Graphics 650", 1536),
    ("Graphics: Iris Pro Graphics 5200", "Intel Iris Pro Graphics 5200", None),
    ("internal UHD Graphics 630 1536 MB plus the eGPU", "Intel UHD Graphics 630", 1536),
    ("Intel(R) HD Graphics 630", None, None),
    ("Intel Corporation HD Graphics 620 (rev 02)", None, None),
    ("Intel Iris Plus Graphics 640 1536 MB", None, None),
], ids=["typo-intel", "no-intel", "uhd-with-memory", "trademark", "lspci", "spelled-right"])
def test_bare_intel_gpu(line, name, mib):
    facts = rules.bare_intel_gpu(line)
    assert [v["name"] for _, v in facts] == ([name] if name else [])
    if name:
        assert facts[0][1]["memory_mib"] == mib and facts[0][1]["vendor"] == "Intel"


@pytest.mark.parametrize("line, names", [
    ("My machine being a prime example has a 32GB AMD Pro Vega II, and I know there are other cards out there like "
     "the Pro Vega II Duo 64GB.", [("AMD Radeon Pro Vega II", 32768)]),
    ("I have a Radeon Pro W5700X in my Mac Pro", [("Radeon Pro W5700X", None)]),
    ("cards like the Pro Vega II Duo 64GB would help", []),
], ids=["owned-not-example", "w5700x", "example-only"])
def test_mac_pro_gpu(line, names):
    assert [(v["name"], v["memory_mib"]) for _, v in rules.mac_pro_gpu(line)] == names


def test_mac_pro_gpu_names_a_mac():
    statements = read_statements(["My machine has a 32GB AMD Pro Vega II."])
    assert stated_platform([s.to_json("paste") for s in statements]) == "darwin"


@pytest.mark.parametrize("line, name, mib", [
    ("Does this mean Intel macs cannot use (I have a AMD Radeon Pro 5500M with 8Gb) for deep learning?",
     "AMD Radeon Pro 5500M", 8192),
    ("my Radeon Pro 580 (8GB) sits idle", "Radeon Pro 580", 8192),
    ("I have an NVIDIA GeForce RTX 3090 with 24GB", "NVIDIA GeForce RTX 3090", 24576),
    ("I have a MacBook with 16GB", None, None),
    ("my link runs at 40Gb/s", None, None),
], ids=["radeon-with", "parenthesised", "nvidia", "no-gpu", "bandwidth"])
def test_owned_gpu_memory(line, name, mib):
    facts = rules.owned_gpu_memory(line)
    assert [(v["name"], v["memory_mib"]) for _, v in facts] == ([(name, mib)] if name else [])


@pytest.mark.parametrize("line, arch", [
    ("Hi! I'm sure there's some mistake (macOS Big Sur Version 11.6, x86):", "x86_64"),
    ("Environment: macOS 13.4, Intel; Python 3.11", "x86_64"),
    ("macOS 12.1, x86_64)", "x86_64"),
    ("macOS 14.2, arm64)", None),
    ("built for x86 on macOS", None),
], ids=["parenthesised-x86", "intel-item", "x86_64-item", "arm64-not-read", "no-list"])
def test_macos_with_arch(line, arch):
    assert dict(rules.macos_with_arch(line)).get("cpu.hardware_arch") == arch


@pytest.mark.parametrize("line, version", [
    ("The main issue was hooking up the correct Python version (3.8.10 is the only one that worked for me)", "3.8.10"),
    ("(conda 4.9.2, cpython 3.8.12, MacOS 12.2)", "3.8.12"),
    ("Python version: 3.11.8", "3.11.8"),
    ("python3.9.7 from Homebrew", "3.9.7"),
    ("Python version: python 3.7", None),  # no patch: left to the rules that read minors
    ("pythonic 3.8.10", None),
], ids=["prose-parenthesis", "cpython-in-list", "form-line", "glued", "minor-only", "other-word"])
def test_python_in_prose(line, version):
    assert dict(rules.python_in_prose(line)).get("python.version") == version


@pytest.mark.parametrize("line, machine", [
    ("ERROR: Could not find a version that satisfies the requirement torch==2.6.0 (from versions: 2.0.0, 2.0.1, "
     "2.1.0, 2.1.1, 2.1.2, 2.2.0, 2.2.1, 2.2.2)", "x86_64"),
    ("ERROR: Could not find a version that satisfies the requirement torch>=2.3 (from versions: 1.13.1, 2.0.0, "
     "2.2.2)", "x86_64"),
    ("ERROR: Could not find a version that satisfies the requirement torch==2.9.0 (from versions: 2.0.0, 2.5.1, "
     "2.8.0)", None),
    ("ERROR: Could not find a version that satisfies the requirement torch (from versions: none)", None),
    ("ERROR: Could not find a version that satisfies the requirement torchvision==0.21 (from versions: 0.15.1, "
     "0.17.2)", None),
], ids=["stops-at-2.2.2", "range", "goes-on", "none", "torchvision"])
def test_torch_candidates(line, machine):
    assert dict(rules.torch_candidates(line)).get("python.machine") == machine


_JAX_UNDER_ROSETTA = """CPU: Apple M1 Max
{os}
>>> import jax
  File "/Users/me/.venv/lib/python3.8/site-packages/jax/_src/lib/__init__.py", line 85, in <module>
    cpu_feature_guard.check_cpu_features()
RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU and/or operating system do not support.
"""


@pytest.mark.parametrize("os_line, level", [
    ("", "fail"),  # macOS unknown: before 15 Rosetta shows no AVX
    ("macOS Version: 13.4", "fail"),
    ("macOS Version: 15.1", None),  # Rosetta translates AVX from macOS 15 on
], ids=["macos-unknown", "ventura", "sequoia"])
def test_jaxlib_under_rosetta(tmp_path, os_line, level):
    from macml.diagnose import run_checks
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.inputs import load_inputs
    from macml.recipes.catalog import load_all

    paste = tmp_path / "paste.txt"
    paste.write_text(_JAX_UNDER_ROSETTA.format(os=os_line))
    facts = facts_from_snapshot(load_inputs([paste]).snapshot)
    found = {f.check: f.level for f in run_checks(facts, load_all())}
    assert found.get("rosetta_avx") == level
