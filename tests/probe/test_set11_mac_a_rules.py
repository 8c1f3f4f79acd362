"""Rules of mac_prose_specs_rules (set 11, mac-a): each fed literal lines, with readable ids."""
from __future__ import annotations

import pytest

from macml.diagnose import run_checks
from macml.knowledge.mac_families import family_tiers, only_plain_chip
from macml.probe.collect import facts_from_snapshot
from macml.probe.paste import import_pastes
from macml.probe.paste import mac_prose_specs_rules as rules
from macml.recipes.catalog import load_all

GIB = 1024**3


def _brand(facts):
    return next((v for f, v in facts if f == "cpu.brand"), None)


def _arch(facts):
    return next((v for f, v in facts if f == "cpu.hardware_arch"), None)


@pytest.mark.parametrize("line, brand", [
    ("I am having Mac Pro with apple M1 Max chipset.", "Apple M1 Max"),
    ("I am using a regular M1, and have followed the instructions", "Apple M1"),
    ("on a plain M2 with 8GB", "Apple M2"),
    ("I am trying to speed up training with Mac mini m2 pro but", "Apple M2 Pro"),
    ("running on MacOS 15.2 (_M4 Chip_)", None),  # plain 'M4 Chip' is read with the whole text (answers)
    ("a regular M1 Pro", None),
], ids=["apple-lowercase-chipset", "regular", "plain", "lowercase-tier", "plain-chip-word-elsewhere", "regular-but-tiered"])
def test_chip_said(line, brand):
    assert _brand(rules.chip_said(line)) == brand


@pytest.mark.parametrize("line, brand", [
    ("I have an iMac 24 with M1 and Big Sur 11.6.", "Apple M1"),
    ("my device is the m2 macbook air. i can use pytorch on mps", "Apple M2"),
    ("MacBook Air (M3, 2024)", "Apple M3"),
    ('iMac 24" M4 with 16GB', "Apple M4"),
    ("MacBook Pro M3 with 36GB", None),  # the MacBook Pro came with M3, M3 Pro or M3 Max
    ("Mac mini M2", None),  # plain or Pro
    ("iMac Pro with Xeon W", None),
    ("M2 MacBook Air 16GB", "Apple M2"),
], ids=["imac-with", "chip-then-air", "air-parenthesis", "imac-inch", "mbp-any-tier", "mini-two-tiers", "imac-pro-intel",
        "chip-first-air"])
def test_family_chip(line, brand):
    assert _brand(rules.family_chip(line)) == brand


def test_mac_families_table():
    assert family_tiers("Macbook Air") == ("",) and only_plain_chip("iMac")
    assert not only_plain_chip("Mac mini") and family_tiers("iMac Pro") is None


@pytest.mark.parametrize("line, arm", [
    ("# MacOS14.2 M1 can't install mediapipe 0.10.8", True),
    ("# Trying to get Metal working M1 getting error.", True),
    ("my MBP M2 is slow", True),
    ("Intel Mac, not M1", False),
    ("M1 Garand rifle dataset", False),
    ("Built on macOS with M.2 SSD", False),
], ids=["glued-macos", "metal", "mbp", "intel-named", "no-mac-word", "m-dot-2"])
def test_bare_chip_beside_mac(line, arm):
    assert (_arch(rules.bare_chip_beside_mac(line)) == "arm64") is arm


@pytest.mark.parametrize("line, arm", [
    ("# mac: Sentence Transformers does not use the MPS/GPU on Apple Silicon", True),
    ("Works great running on Apple Silicon", True),
    ("Does this run on Apple Silicon?", False),
    ("I moved from Intel to running on Apple silicon", False),
], ids=["title", "running", "question", "intel-too"])
def test_on_apple_silicon(line, arm):
    assert (_arch(rules.on_apple_silicon(line)) == "arm64") is arm


@pytest.mark.parametrize("line, version", [
    ("# MacOS14.2 M1 can't install mediapipe 0.10.8", "14.2"),
    ("MacOS14.2", "14.2"),
    ("I am using Macbook Pro (macOS Monterey, version 12.2, M1 chip).", "12.2"),
    ("macOS Sonoma 14.4.1", "14.4.1"),
    ("macOS Monterey, version 13.1", None),  # the name and the number disagree
    ("MacOS 15.2", None),  # spaced: the shared vocabulary reads it
], ids=["title", "bare", "name-comma-version", "name-version", "mismatch", "spaced"])
def test_macos_written(line, version):
    found = dict(rules.macos_written(line))
    assert found.get("os.version") == version


@pytest.mark.parametrize("line, fact", [
    ("I am using Macbook Pro. My Python is 3.10.2.", ("python.version", "3.10.2")),
    ("my python version is 3.11", ("python.minor", "3.11")),
    ("My Python is the system one", None),
], ids=["patch", "minor", "none"])
def test_my_python(line, fact):
    found = rules.my_python(line)
    assert (found[0] if found else None) == fact


@pytest.mark.parametrize("line, gb", [
    ("Additionally, my device has 16gb ram and also active cooling", 16),
    ("with 32 GB of memory", 32),
    ("a GPU with 8gb memory", None),
    ("13gb ram", None),
], ids=["has-ram", "of-memory", "gpu-line", "not-a-size"])
def test_ram_said(line, gb):
    found = dict(rules.ram_said(line))
    assert found.get("cpu.memory_bytes") == (gb * GIB if gb else None)


@pytest.mark.parametrize("line, name, mib", [
    ("The graphics is Intel HD Graphics 40001536MB.", "Intel HD Graphics 4000", 1536),
    ("Graphics: Intel Iris Plus Graphics 6401536 MB", "Intel Iris Plus Graphics 640", 1536),
    ("Intel UHD Graphics 630 1536 MB", None, None),  # spaced: the shared vocabulary reads it
], ids=["hd4000", "iris-plus", "spaced"])
def test_intel_glued_vram(line, name, mib):
    found = rules.intel_glued_vram(line)
    gpu = found[0][1] if found else {}
    assert (gpu.get("name"), gpu.get("memory_mib")) == (name, mib)


@pytest.mark.parametrize("line, name", [
    ("# Intel Mac (i9 - 5500M) (macOS 15.3.2) - ValueError", "AMD Radeon Pro 5500M"),
    ("2019 MBP i7 with the 555X", "AMD Radeon Pro 555X"),
    ("iMac 2017 with a 580", None),
    ("5500M on my ThinkPad", None),
    ("MacBook Pro with AMD Radeon Pro 5500M", None),  # named in full: the shared vocabulary reads it
], ids=["intel-mac", "mbp-555x", "not-listed", "not-a-mac", "full-name"])
def test_radeon_by_number(line, name):
    gpus = [v["name"] for f, v in rules.radeon_by_number(line) if f == "gpu"]
    assert (gpus[0] if gpus else None) == name


def _packages(facts):
    return {v["name"]: v["version"] for f, v in facts if f == "package"}


@pytest.mark.parametrize("line, packages", [
    ('System reported "Successfully installed spacy-3.1.3"', {"spacy": "3.1.3"}),
    ("then pip said Successfully installed numpy-1.26.4 torch-2.2.2 and", {"numpy": "1.26.4", "torch": "2.2.2"}),
    ("pip 21.3.1 from /Users/me/miniforge3/envs/p/lib/python3.9/site-packages/pip (python 3.9)", {"pip": "21.3.1"}),
    ("I'm using MacOS Sequoia 15.2 with pipx installed open-webui 0.5.3 and", {"open-webui": "0.5.3"}),
    ("I'm experiencing an issue with **MediaPipe version 0.10.20** on", {"mediapipe": "0.10.20"}),
    ("Python version 3.10.4 and Xcode version 15.0.1", {}),
    ("Successfully installed spacy-3.1.3", {}),  # pip's own line: the shared vocabulary reads it
], ids=["quoted-pip", "mid-line-pip", "pip-version", "pipx", "name-version", "not-packages", "own-line"])
def test_packages_said(line, packages):
    assert _packages(rules.packages_said(line)) == packages


def test_pip_version_gives_python_minor():
    assert ("python.minor", "3.9") in rules.packages_said("pip 23.0 from /opt/x/pip (python 3.9)")


@pytest.mark.parametrize("line, machine, arch", [
    ("tensorflow-deps           2.10.0                        0    apple", "arm64", "arm64"),
    ("certifi                   2022.12.7       py310hecd8cb5_0  ", "x86_64", None),
    ("ca-certificates           2023.01.10           hca03da5_0", "arm64", "arm64"),
    ("intel-openmp              2021.4.0          hecd8cb5_3538  ", "x86_64", None),
    ("blas                      1.0                         mkl  ", "x86_64", None),
    ("blas                      1.0                    openblas", None, None),
    ("numpy                     1.26.4          py310h06a4308_0", None, None),
], ids=["apple-channel", "osx64-hash", "osxarm64-hash", "intel-openmp", "blas-mkl", "blas-openblas", "linux-hash"])
def test_conda_rows(line, machine, arch):
    found = rules.conda_rows(line)
    assert next((v for f, v in found if f == "python.machine"), None) == machine
    assert _arch(found) == arch


def test_conda_long_name_row():
    line = "tensorflow-io-gcs-filesystem 0.34.0                   pypi_0    pypi"
    assert _packages(rules.conda_rows(line)) == {"tensorflow-io-gcs-filesystem": "0.34.0"}
    assert _packages(rules.conda_rows("short 1.0 pypi_0 pypi")) == {}


@pytest.mark.parametrize("line, absent", [
    ("macos m2  docker", True),
    ("Running in Docker Desktop on my Mac", True),
    ("docker on an M1", True),
    ("I run it in docker on Ubuntu", False),
], ids=["form-answer", "desktop-on-mac", "on-m1", "linux-host"])
def test_docker_on_mac(line, absent):
    assert bool(rules.docker_on_mac(line)) is absent


@pytest.mark.parametrize("line, used", [
    ("import paddle", True), (">>> import paddle", True), ("      >>> import paddle", True),
    ("import paddleocr", False), ("# import paddle later", False),
], ids=["import", "repl", "indented-repl", "other-package", "comment"])
def test_paddle_imported(line, used):
    assert bool(rules.paddle_imported(line)) is used


@pytest.mark.parametrize("key, value, fact", [
    ("python-version", "py3.10.8", ("python.version", "3.10.8")),
    ("pytorch-version", "1.13.1", ("torch.version", "1.13.1")),
    ("accelerate-version", "0.15.0", ("package", {"name": "accelerate", "version": "0.15.0"})),
    ("os", "macOS-13.1-arm64-arm-64bit", None),
], ids=["python-py", "pytorch", "package", "other-key"])
def test_keyed_facts(key, value, fact):
    found = rules.keyed_facts(key, value)
    assert (fact in found) if fact else not found


@pytest.mark.parametrize("text, facts", [
    ('# python3 -c "import platform;print(platform.architecture()[0]);print(platform.machine())"\n64bit\naarch64',
     {2: [("platform", "linux"), ("python.machine", "aarch64")]}),
    ('>> python -c "import platform;print(platform.architecture()[0]);print(platform.machine())"\n64bit\narm64\n',
     {2: [("platform", "darwin"), ("python.machine", "arm64")]}),
    ('  python3 -c "import platform;print(platform.architecture()[0]);print(platform.machine())": \n      64bit\n      x86_64',
     {2: [("python.machine", "x86_64")]}),
    ('python -c "import platform;print(platform.machine())"\nAMD64', {1: [("platform", "win32"), ("python.machine", "x86_64")]}),
    ('python -c "import platform;print(platform.machine())"\nTraceback (most recent call last):', {}),
], ids=["linux-aarch64", "mac-arm64", "indented-x86", "windows", "no-answer"])
def test_machine_check_answers(text, facts):
    assert rules.answers(text.split("\n")) == facts


@pytest.mark.parametrize("text, brand", [
    ("I am using Macbook Pro (macOS Monterey, version 12.2, M1 chip).", "Apple M1"),
    ("MacOS 15.2 (_M4 Chip_)", "Apple M4"),
    ("on a newer mac with M3 chip.\nMac Chip: Apple M3 Max", None),
], ids=["m1-chip", "markdown-m4", "tier-named-elsewhere"])
def test_plain_chip_word(text, brand):
    found = rules.answers(text.split("\n"))
    assert _brand(found.get(0, [])) == brand
    assert _arch(found.get(0, [])) == "arm64"


_PADDLE_ON_ROSETTA = """MacBook Pro (13-inch, M1, 2020) Apple M1
python3 -c "import platform;print(platform.architecture()[0]);print(platform.machine())":
        64bit
        x86_64
>>> import paddle
zsh: illegal hardware instruction  python3
os version: {macos}
"""


@pytest.mark.parametrize("macos, level", [("11.6", "fail"), ("15.1", None)], ids=["big-sur", "sequoia-translates-avx"])
def test_paddle_under_rosetta(macos, level):
    facts = facts_from_snapshot(import_pastes([_PADDLE_ON_ROSETTA.format(macos=macos)]))
    assert facts.rosetta is True and facts.interpreter.machine == "x86_64"
    levels = {f.check: f.level for f in run_checks(facts, load_all())}
    assert (levels.get("rosetta_avx") if levels.get("rosetta_avx") in ("warn", "fail") else None) == level
