"""The README's set-up commands are what CI runs, and they work where pip refuses the system Python."""
import re

from conftest import PROJECT


def readme_commands():
    text = (PROJECT / "README.md").read_text(encoding="utf-8")
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", setup)


def test_the_set_up_is_two_commands_each_in_a_venv():
    commands = readme_commands()
    assert len(commands) == 2
    for command in commands:  # PEP 668: never pip into the system interpreter
        assert command.startswith("python3 -m venv .venv && .venv/bin/python -m pip install -e ")


def test_ci_runs_the_readme_test_command_exactly():
    test_command = readme_commands()[1]
    assert "pytest" in test_command
    ci_lines = (PROJECT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines
