"""Terminal escapes in outside text (GPU and OS names in pastes and snapshots, recipe labels, an
interpreter's stderr) never reach the terminal: text output strips control characters and escape
sequences; JSON keeps the exact text, escaped."""
import json

import pytest

from macml.probe.paste.text import decode_paste

from macml import report

from conftest import MACHINES, PROJECT, run_cli, run_macml

CAPTURES = PROJECT / "tests" / "captures"
# Set the window title, clear the screen, move up and erase a line, an 8-bit CSI, a bell, a carriage return.
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[1A\x1b[2K\x9b31m\x07\r"


def laced(text: str) -> str:
    """Every line with the escapes at its end (after what parsers read, so the text still gets through)."""
    return "\n".join(line + ESCAPES for line in text.split("\n"))


def laced_snapshot(value, key=""):
    if isinstance(value, str) and key not in ("platform",):
        return laced(value)
    if isinstance(value, dict):
        return {k: laced_snapshot(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [laced_snapshot(v) for v in value]
    return value


def assert_clean(result):
    shown = result.stdout + result.stderr
    assert "Traceback" not in shown, shown
    assert not set(shown) & {"\x1b", "\x9b", "\x07", "\r"}, [c for c in shown if c in "\x1b\x9b\x07\r"][:3]
    assert result.returncode in (0, 1, 2), shown


@pytest.fixture(scope="module")
def laced_inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("laced")
    made = []
    for machine in sorted(MACHINES.glob("*.json")):
        path = folder / machine.name
        path.write_text(json.dumps(laced_snapshot(json.loads(machine.read_text(encoding="utf-8")))))
        made.append(path)
    for capture in sorted(CAPTURES.glob("*.txt")):
        path = folder / capture.name
        path.write_text(laced(decode_paste(capture.read_bytes())), encoding="utf-8")
        made.append(path)
    return made


def test_every_recorded_fixture_with_escapes_prints_none(laced_inputs):
    for path in laced_inputs:
        for command in (["doctor", "-v"], ["recipes", "-v"]):
            assert_clean(run_cli(*command, "--from", path))


def test_json_keeps_the_exact_text_escaped(laced_inputs):
    path = next(p for p in laced_inputs if p.name == "linux-no-gpu.json")
    result = run_cli("doctor", "--from", path, "--json")
    assert "\x1b" not in result.stdout and "\\u001b" in result.stdout
    assert "\x1b]0;pwned\x07\x1b[2J" in json.loads(result.stdout)["facts"]["os"]["name"]


def test_an_interpreters_stderr_is_printed_without_escapes(tmp_path):
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\nprintf 'boom \\033]0;pwned\\007\\033[2J\\n' >&2\nexit 3\n")
    python.chmod(0o755)
    for command in (["doctor"], ["verify", "--synthetic"], ["install", "--recipe", "pytorch-cpu", "--dry-run"]):
        result = run_macml(*command, "--python", str(python))
        assert result.returncode == 2
        assert_clean(result)


def test_a_recipe_label_with_escapes_is_printed_without_them(tmp_path):
    recipe = tmp_path / "r.toml"
    recipe.write_text('name = "r"\nsummary = "s"\nframework = "none"\n[[pins]]\n'
                      'label = "pins \\u001b]0;pwned\\u0007\\u001b[2J"\nrequirements = ["six==1.17.0"]\n')
    result = run_macml("install", "--recipe-file", str(recipe), "--dry-run", "--offline",
                       "--venv", str(tmp_path / "v"))
    assert_clean(result)
    assert "pins ]0;pwned" not in result.stdout and "pins" in result.stdout


def test_an_unknown_option_with_escapes_is_printed_without_them():
    assert_clean(run_cli("doctor", "--x\x1b]0;pwned\x07"))


@pytest.mark.parametrize("text, shown", [
    ("GPU \x1b[31mred\x1b[0m", "GPU red"),
    ("title \x1b]0;pwned\x07 after", "title  after"),
    ("st \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "st link"),
    ("tab\tnew\nline", "tab\tnew\nline"),
    ("cr\r\nbell\x07 del\x7f c1\x9b2J nul\x00", "cr\nbell del c12J nul"),
    ("reset \x1bc done, lone \x1b", "reset  done, lone "),
    ("unterminated \x1b]0;title\nnext line", "unterminated \nnext line"),
], ids=["csi-colour", "osc-title-bel", "osc-hyperlink-st", "tab-newline-kept", "c0-c1-del", "two-char-escape",
        "unterminated-osc-stops-at-line-end"])
def test_printable(text, shown):
    assert report.printable(text) == shown
