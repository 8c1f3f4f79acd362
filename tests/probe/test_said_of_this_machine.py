"""The shared tests of whether a line states a fact about the writer's machine or only mentions it."""
import pytest

from macml.probe.paste import said_of_this_machine as said


def _at(line, fact):
    start = line.index(fact)
    return said.mentioned_only(line, start, start + len(fact))


@pytest.mark.parametrize("line, fact", [
    ("I have an RTX 4090 and 64 GB of RAM", "RTX 4090"),
    ("GPU: NVIDIA T4 (Colab)", "NVIDIA T4"),
    ("My Mac is a 2019 MacBook Pro with an i9", "2019 MacBook Pro"),
    ("I'm on Ubuntu 22.04 with ROCm 6.1", "Ubuntu 22.04"),
    ("pip install -r requirements.txt fails on my RX 6800 XT", "RX 6800 XT"),
    ("The GPU is a 3090 and it crashes after a minute", "3090"),
    ("I have an M1 with 16GB of memory, will it work?", "16GB"),  # a question after the statement
    ("Will it work? I have an RTX 3090.", "RTX 3090"),  # the question is another sentence
])
def test_stated(line, fact):
    assert not _at(line, fact)


@pytest.mark.parametrize("line, fact", [
    ("I don't have an NVIDIA GPU", "NVIDIA GPU"),
    ("Will this work on a Ryzen 7 5700G based system?", "Ryzen 7 5700G"),
    ("Does the M3 Pro (18 GPU), 36GB work?", "36GB"),
    ("If this machine has an RTX 4090, you should use the cu124 wheel", "RTX 4090"),
    ("You need at least an M2 Max (38 GPUs), 96 GB", "M2 Max"),
    ("I am thinking of buying a Ryzen 7 8845HS based mini PC", "Ryzen 7 8845HS"),
    ("My colleague's CPU has AVX2 and it works for him", "AVX2"),
    ("Users on Linux get HSA_STATUS_ERROR_INVALID_ISA", "HSA_STATUS_ERROR_INVALID_ISA"),
    ("In the paper, the GPU is 3090", "3090"),
    ("I can reproduce in Fedora 40 on our CI runners, my laptop is a Mac", "Fedora 40"),
    ("I also tried in Ubuntu 22.04 on a different machine and it works fine", "Ubuntu 22.04"),
    ("My previous machine was an i7 with AVX2, now I have an M2 Max", "AVX2"),
    ("This works on my Linux machine but fails on my Mac", "Linux"),
    ("It worked on my old 2017 iMac, but fails on my new Mac Studio", "2017 iMac"),
    ("I used to run this on my 2015 MacBook Pro before I switched to Linux", "2015 MacBook Pro"),
    ("my 2019 MacBook Pro was stolen last week", "2019 MacBook Pro"),
    ("GPU: RTX 2080 Ti; same issue reported with RTX 3090 by others", "RTX 3090"),
])
def test_mentioned_only(line, fact):
    assert _at(line, fact)


@pytest.mark.parametrize("text, os_name", [
    ("I downloaded koboldcpp-linux-x64 by mistake, I am on Windows", "win32"),
    ("in the release, I'm on macOS", "darwin"),
    ("on our CI runners, my laptop is a Mac", "darwin"),
    ("by reinstalling, my question is about macOS", "darwin"),
    ("; I use Windows 11", "win32"),
    ("but on my Windows PC it just hangs", "win32"),
    ("I'm on linux 100% of the time", "linux"),
    ("I get this error with the wheel", None),
    ("the Windows build is broken", None),
])
def test_writers_os(text, os_name):
    assert said.writers_os(text) == os_name
