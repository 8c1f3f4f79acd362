"""Set 5's rules, fed literal lines: a machine described in words (spec lists, prose, Intel Mac parts,
Rosetta written out, Mac-only build lines)."""
import pytest

from macml.probe.paste.prose_rules import (intel_mac_parts, mac_build_lines, mac_in_prose, rosetta_in_words,
                                           spec_list_line)
from macml.probe.paste.report_rules import frameworks_used

GIB = 1024 ** 3


@pytest.mark.parametrize("line, expected", [
    ("Chip: M2 ", [("platform", "darwin"), ("cpu.brand", "Apple M2")]),
    ("- Chip: Apple M3 max", [("platform", "darwin"), ("cpu.brand", "Apple M3 Max")]),
    ("Memory: 16GB", [("cpu.memory_bytes", 16 * GIB)]),
    ("- System RAM: 48.00 GB", [("cpu.memory_bytes", 48 * GIB)]),
    ("MacOS: 14.4.1", [("platform", "darwin"), ("os.version", "14.4.1")]),
    ("MacOS: 10.16", []),
    ("I metal_plugin[...metal_device.cc:296] systemMemory: 64.00 GB", [("cpu.memory_bytes", 64 * GIB)]),
    ("Chip: Intel", []),
    ("Memory: plenty", []),
], ids=["chip-without-apple", "chip-tier-lowercase", "memory", "accelerate-system-ram", "macos-key",
        "macos-never-shipped", "metal-plugin-system-memory", "intel-chip-not-apple", "memory-not-a-size"])
def test_spec_list_line(line, expected):
    assert spec_list_line(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Macbook air M1 2020 with 8GB memory running Sonoma 14.0",
     [("platform", "darwin"), ("cpu.brand", "Apple M1"), ("gpu.mention", "Apple M1"), ("cpu.memory_bytes", 8 * GIB),
      ("platform", "darwin"), ("os.version", "14.0")]),
    ("- MacBook Pro 13 inch M1 from 2020", [("platform", "darwin"), ("cpu.brand", "Apple M1"), ("gpu.mention", "Apple M1")]),
    ("mac book pro m4 48G", [("platform", "darwin"), ("cpu.brand", "Apple M4"), ("gpu.mention", "Apple M4"),
                             ("cpu.memory_bytes", 48 * GIB)]),
    ("I run it on 2020 MacBook Pro 13” 4-core hyper-thread 32 GiB macOS 13.5", [("cpu.memory_bytes", 32 * GIB)]),
    ("MacBook Pro with a 512 GB SSD", []),
    ("32 GB 2667 MHz DDR4", [("cpu.memory_bytes", 32 * GIB)]),
    ("MacOs 13.5.2 (22G91)", [("platform", "darwin"), ("os.version", "13.5.2")]),
    ("running Sonoma 13.1", []),
    ("24 GB GDDR6X", []),
], ids=["air-memory-and-named-macos", "inch-size-between", "lowercase-memory-beside-chip", "intel-mac-memory",
        "storage-is-not-memory", "about-this-mac-ddr", "macos-alone-with-build", "name-and-version-disagree",
        "gpu-memory-is-not-ram"])
def test_mac_in_prose(line, expected):
    assert mac_in_prose(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("The machine is an i7-6700, 32GB RAM, AMD 5700XT 8go VRAM (RDNA1)",
     [("cpu.brand", "Intel Core i7-6700"),
      ("gpu", {"name": "AMD 5700XT", "vendor": "AMD", "memory_mib": 8192, "index": None})]),
    ("Hardware: Intel system with AMD 6900XT GPU",
     [("cpu.brand", "Intel"), ("gpu", {"name": "AMD 6900XT", "vendor": "AMD", "memory_mib": None, "index": None})]),
    ("Running on a 2019 Macbook Pro (Intel chip):", [("cpu.brand", "Intel")]),
    ("Intel UHD Graphics 630 1536 MB",
     [("gpu", {"name": "Intel UHD Graphics 630", "vendor": "Intel", "memory_mib": 1536, "index": None})]),
    ("AMD Radeon RX 6800 XT", []),
], ids=["desktop-cpu-and-amd-card", "intel-system", "intel-chip-in-prose", "intel-gpu-with-memory",
        "radeon-names-left-to-gpu-rules"])
def test_intel_mac_parts(line, expected):
    assert intel_mac_parts(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("- Python version: 3.8.7 (x86_64 through Rosetta)",
     [("platform", "darwin"), ("process.translated", True), ("process.arch", "x86_64"), ("python.machine", "x86_64")]),
    ("I am using a fish shell via Rosetta (`uname -m` gives me x86_64)",
     [("platform", "darwin"), ("process.translated", True), ("process.arch", "x86_64")]),
    ("It's i386 for me that means it's aM series machine and a non-native python.",
     [("platform", "darwin"), ("process.translated", True), ("python.machine", "x86_64")]),
    ("my terminal does not run under Rosetta, uname -m says x86_64", []),
    ("- python 3.12.5, installed via homebrew", [("python.version", "3.12.5")]),
    ("- TensorFlow version (use command below): 2.4.1", [("package", {"name": "tensorflow", "version": "2.4.1"})]),
    ("/opt/homebrew/bin/python3.9 -m venv .venv",
     [("platform", "darwin"), ("cpu.hardware_arch", "arm64"), ("python.machine", "arm64")]),
    ("arch -x86_64 /opt/homebrew/bin/python3 -m venv .venv", []),
], ids=["python-through-rosetta", "shell-via-rosetta", "non-native-python", "negated", "setup-list-python",
        "tensorflow-template-version", "arm-homebrew-python", "arm-homebrew-python-forced-x86"])
def test_rosetta_in_words(line, expected):
    assert rosetta_in_words(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("Makefile:21: Your arch is announced as x86_64, but it seems to actually be ARM64. Not fixing that",
     [("platform", "darwin"), ("process.arch", "x86_64"), ("cpu.hardware_arch", "arm64"), ("process.translated", True)]),
    ("g++ -O3 main.cpp ggml.o -o main -framework Accelerate", [("platform", "darwin")]),
    (" system   aarch64, darwin20", [("platform", "darwin"), ("cpu.hardware_arch", "arm64")]),
    (" system   x86_64, darwin17.0", [("platform", "darwin")]),
    ("g++ -O3 main.cpp -o main -lopenblas", []),
], ids=["whisper-makefile-arch-check", "framework-link", "r-session-arm", "r-session-intel", "linux-link"])
def test_mac_build_lines(line, expected):
    assert mac_build_lines(line) == expected


@pytest.mark.parametrize("line, expected", [
    ("ERROR: Could not find a version that satisfies the requirement mlx (from versions: none)",
     [("framework.used", "mlx")]),
    ("I tensorflow[/core/common_runtime/pluggable_device/pluggable_device_factory.cc:305](http://x)] Could not",
     [("framework.used", "tensorflow")]),
], ids=["pip-no-matching-distribution", "markdown-mangled-tf-log"])
def test_frameworks_used(line, expected):
    assert frameworks_used(line) == expected


@pytest.mark.parametrize("text, chip", [
    ("Platform: MacBook Pro\nChip: M2 \nMemory: 16GB\nMacOS: 14.4.1\n", "Apple M2"),
    ("Hardware Overview:\n\n  Model Name: MacBook Pro\n  Chip: Apple M1 Pro\n  Memory: 16 GB\n", "Apple M1 Pro"),
], ids=["issue-form-chip-without-apple", "profiler-chip"])
def test_profiler_text_chip_named_without_apple(text, chip):
    from macml.probe.macos import parse_system_profiler_text
    hardware, _ = parse_system_profiler_text(text)
    assert hardware["chip_type"] == chip
