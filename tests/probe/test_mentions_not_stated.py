"""Lines that only mention hardware (a question, advice, a model's size, someone else's card, another OS's file)
give no fact about the writer's machine, whichever reader sees them; the same facts stated plainly still count."""
import pytest

from macml.probe.paste.statements import read_statements


def _facts(line):
    return [(s.fact, s.value) for s in read_statements([line])]


@pytest.mark.parametrize("line, fact", [
    ("Will this work on a Ryzen 7 5700G based system?", "cpu.hardware_arch"),
    ("Does it work if my GPU is Navi 14", "gpu.gfx"),
    ("You need at least an M2 Max (38 GPUs), 96 GB of memory", "cpu.memory_bytes"),
    ("GPU model and memory: M1 (the 70B model takes 48 GB)", "cpu.memory_bytes"),
])
def test_a_mention_states_nothing(line, fact):
    assert fact not in dict(_facts(line))


def test_a_card_reported_by_others_is_not_owned():
    names = [v["name"] for f, v in _facts("GPU: RTX 2080 Ti; same issue reported with RTX 3090 by others")
             if f in ("gpu", "gpu.owned")]
    assert "RTX 2080 Ti" in names and "RTX 3090" not in names


@pytest.mark.parametrize("line, fact, value", [
    ("I have 32 GB of memory on this Mac", "cpu.memory_bytes", 32 * 1024**3),
    ("I have an M1 with 16GB of memory, will it work?", "cpu.memory_bytes", 16 * 1024**3),
    ("my Ryzen 7 5700G based system crashes", "cpu.hardware_arch", "x86_64"),
    ("C:\\Users\\me\\koboldcpp.exe --usevulkan", "platform", "win32"),
])
def test_the_same_fact_stated_still_counts(line, fact, value):
    assert (fact, value) in _facts(line)


def test_another_oss_build_named_beside_the_writers_os():
    """'koboldcpp-linux-x64' is a file offered for Linux; 'I'm on macOS' is the writer's OS."""
    said = dict(_facts("I see only koboldcpp-linux-x64 and koboldcpp.exe in the release, I'm on macOS"))
    assert said.get("platform") == "darwin" and said.get("cpu.hardware_arch") is None
