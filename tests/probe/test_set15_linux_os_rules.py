"""Set 15's Linux OS readers: a distribution named in inxi, lsb_release-like lines, list items and prose; a
numbered 'N.KEY:value' list; a distribution's point release written with a leading zero."""
from __future__ import annotations

from macml.probe.paste import distro_rules
from macml.probe.paste.statements import read_statements
from macml.probe.stated import _distro_stated, _point_release


def _facts(*lines: str):
    return [(s.fact, s.value) for s in read_statements(list(lines))]


def test_inxi_distro_mid_line_names_the_installed_distribution_not_its_base():
    line = "    v: 1.30.0 Distro: Linux Mint 22.1 Xia base: Ubuntu 24.04 noble"
    assert distro_rules.inxi_distro(line) == [("platform", "linux"), ("os.name", "Linux Mint 22.1")]
    assert ("os.name", "Linux Mint 22.1") in _facts(line)
    assert distro_rules.inxi_distro("  Distro: Ubuntu 22.04.3 LTS (Jammy Jellyfish)")[1] == ("os.name", "Ubuntu 22.04.3 LTS")
    assert distro_rules.inxi_distro("  Distro: Arch Linux") == [("platform", "linux"), ("os.name", "Arch Linux")]


def test_release_line():
    assert distro_rules.release_line("Ubuntu Release:        20.04") == [("platform", "linux"), ("os.name", "Ubuntu 20.04")]
    assert distro_rules.release_line("Release: 20.04") == []


def test_bare_list_item_names_the_distribution_without_inventing_a_version():
    assert distro_rules.bare_item("- Ubuntu") == [("platform", "linux"), ("os.name", "Ubuntu")]
    assert distro_rules.bare_item("- Ubuntu is great") == []
    assert ("os.name", "Ubuntu") in _facts("- Ubuntu")


def test_prose_names_the_distribution_the_machine_runs():
    line = "The host machine runs CachyOS with Ryzen 7800X3D, Radeon RX 7800 XT, and 64GB RAM."
    assert distro_rules.runs_distro(line) == [("platform", "linux"), ("os.name", "CachyOS")]
    assert ("os.name", "CachyOS") in _facts(line)
    assert distro_rules.runs_distro("It doesn't run on Fedora 40") == []
    assert distro_rules.runs_distro("we tested on Ubuntu or Debian") == []
    assert distro_rules.runs_distro("a Ubuntu-based image") == []
    assert distro_rules.runs_distro("I have a similar problem on Linux Mint") == [("platform", "linux"), ("os.name", "Linux Mint")]


def test_prose_naming_a_distribution_not_this_machine_s_gives_nothing():
    assert ("os.name", "Ubuntu 22.04") not in _facts("I'm on a Mac.", "using the Ubuntu 22.04 docker image")
    assert ("platform", "linux") not in _facts("I'm on a Mac.", "using the Ubuntu 22.04 docker image")
    for line in ("using the Ubuntu 22.04 docker image", "Works fine on Ubuntu 22.04 but fails on my Mac",
                 "CI runs on Ubuntu 20.04", "The wheels are built on CentOS 7", "reported on Arch Linux",
                 "My friend using Manjaro", "I'm using the Ubuntu 22.04 docker image"):
        assert distro_rules.runs_distro(line) == [], line


def test_cpu_answer_naming_an_x86_family_is_x86_64():
    assert distro_rules.keyed_facts("cpu", "Xeon-6338*2") == [("cpu.hardware_arch", "x86_64")]
    assert distro_rules.keyed_facts("cpu", "Apple M2") == []
    assert distro_rules.keyed_facts("gpu", "Xeon") == []
    assert distro_rules.keyed_facts("cpu", "Apple M1 Pro (not Ryzen)") == []


def test_numbered_list_items_are_key_value_answers():
    facts = _facts("2.CPU:Xeon-6338*2", "3.RAM:1TB DDR-4 3200MHZ")
    assert ("cpu.hardware_arch", "x86_64") in facts
    assert ("cpu.memory_bytes", 1024 ** 4) in facts
    assert _facts("1. Install the new Ubuntu system.") == []


def test_point_release_with_a_leading_zero_is_the_same_release():
    assert _point_release("22.04.03") == "22.04.3"
    assert _point_release("24.04") == "24.04"
    assert _point_release("22.1") == "22.1"


def test_a_later_version_of_the_same_distribution_fills_a_bare_name():
    statements = [{"fact": "os.name", "value": "Linux Mint", "line": 1},
                  {"fact": "os.name", "value": "Ubuntu 24.04", "line": 5},
                  {"fact": "os.name", "value": "Linux Mint 22.1", "line": 10}]
    assert _distro_stated(statements)["value"] == "Linux Mint 22.1"
    assert _distro_stated(statements[:2])["value"] == "Linux Mint"
