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


def expand_braces(name):
    """Shell-style: `a{1,2}b{x,y}` is four names."""
    braces = re.search(r"\{([^}]*)\}", name)
    if not braces:
        return [name]
    return [full for part in braces.group(1).split(",")
            for full in expand_braces(name[:braces.start()] + part + name[braces.end():])]


def named_paths(text):
    """Every project path the README names in backticks (`src/macml/probe/{macos,linux}.py` is two)."""
    for name in re.findall(r"`((?:src|checks|recipes|tests|benchmarks)/[\w./{},-]+)`", text):
        yield from expand_braces(name)


def test_brace_expansion_reads_every_group():
    assert expand_braces("r/h{7,8}-b{1,2}.txt") == ["r/h7-b1.txt", "r/h7-b2.txt", "r/h8-b1.txt", "r/h8-b2.txt"]
    assert expand_braces("r/run{,2}/") == ["r/run/", "r/run2/"]


def test_every_path_the_readme_names_is_in_the_tree():
    text = (PROJECT / "README.md").read_text(encoding="utf-8")
    named = [n for n in named_paths(text) if "NAME" not in n and "*" not in n]
    assert len(named) > 20
    assert not [n for n in named if not (PROJECT / n).exists()]
