"""An x86_64 Linux or Windows machine is not Apple silicon; on a Mac, x86_64 may be a Rosetta process."""
from __future__ import annotations

import pytest

from macml.facts import CPUFacts, MachineFacts, OSFacts
from macml.probe.infer_silicon import x86_is_not_apple_silicon


def machine(platform: str, arch: str) -> MachineFacts:
    return MachineFacts(platform=platform, os=OSFacts(system="", name="", version=""), cpu=CPUFacts(brand="", hardware_arch=arch))


@pytest.mark.parametrize("platform", ["linux", "win32"])
def test_x86_64_hardware_off_the_mac_is_not_apple_silicon(platform):
    facts = machine(platform, "x86_64")
    sources = {"cpu.hardware_arch": "CPU brand: AMD Ryzen 9 7950X"}
    cpu = x86_is_not_apple_silicon(facts, facts.cpu, sources)
    assert cpu.apple_silicon is False
    assert "Ryzen" in sources["cpu.apple_silicon"]


@pytest.mark.parametrize("platform, arch", [("darwin", "x86_64"), ("linux", "unknown"), ("linux", "aarch64"),
                                            ("win32", "")])
def test_apple_silicon_stays_unknown_without_x86_hardware_off_the_mac(platform, arch):
    facts = machine(platform, arch)
    sources = {}
    assert x86_is_not_apple_silicon(facts, facts.cpu, sources).apple_silicon is None
    assert sources == {}


def test_an_x86_64_linux_beside_a_stated_apple_chip_may_be_an_emulated_container():
    facts = machine("linux", "x86_64")
    statements = [{"fact": "cpu.hardware_arch", "value": "arm64", "text": "Docker Desktop on my M1 MacBook"},
                  {"fact": "cpu.hardware_arch", "value": "x86_64", "text": "Linux 6.6.12-linuxkit x86_64 GNU/Linux"}]
    assert x86_is_not_apple_silicon(facts, facts.cpu, {}, statements).apple_silicon is None
