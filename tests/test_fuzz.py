"""Fuzzing: every reader of outside input, fed arbitrary text, bytes and JSON (and mutated recorded
machines), raises nothing but MacmlError; and the command line, given drawn option values (numbers
with nan, inf and negatives, paths that are files, folders, missing or devices, text with control
characters) and environment variables, exits 0, 1 or 2 with no traceback and no raw escape. Bounded
in the normal run; `--hypothesis-profile deep` searches longer.

A new reader (e.g. a pasted-report importer) is one more (name, callable) pair in TEXT_READERS.
"""
import io
import json
import sys

import pytest
from hypothesis import given, strategies as st
from rich.console import Console

from macml import frameworks
from macml.diagnose import run_checks
from macml.probe.paste import import_pastes
from macml.probe.paste.text import clean_lines, decode_paste
from macml.diagnose.doctor import DoctorReport
from macml.errors import MacmlError
from macml.probe import cache, linux, macos, windows
from macml.probe.collect import facts_from_snapshot, os_module
from macml.probe.frameworks import parse_frameworks, parse_probe_output
from macml.probe.interpreter import parse_interpreter, parse_interpreter_output
from macml.probe.runner import CommandResult
from macml.probe.snapshot import load_snapshot, validate_snapshot
from macml.recipes.catalog import load_all, load_recipe_file, parse_recipe

from conftest import MACHINES, load_json

RECIPES = load_all()


def replaying(text):
    """A `run` that answers every command with this text (exit 0), as a recorded machine would."""
    return lambda argv, timeout=None: CommandResult(tuple(argv), 0, text, "")


def diagnose_snapshot(snapshot):
    facts = facts_from_snapshot(validate_snapshot(snapshot, "fuzzed.json"))
    findings = tuple(run_checks(facts, RECIPES))
    crashed = [f.message for f in findings if " crashed: " in f.message]
    assert not crashed, crashed
    report = DoctorReport(facts, findings, "fuzzed.json")
    json.dumps(report.to_json())
    report.render_text(Console(file=io.StringIO(), width=100), verbose=True)


# Every reader of outside text: (name, callable taking one str).
TEXT_READERS = [
    ("macos.parse_sw_vers", macos.parse_sw_vers),
    ("macos.parse_sysctl_int", macos.parse_sysctl_int),
    ("macos.parse_size", macos.parse_size),
    ("macos.parse_core_counts", macos.parse_core_counts),
    ("macos.parse_metal", macos.parse_metal),
    ("macos.normalise_vendor", macos.normalise_vendor),
    ("macos.parse_system_profiler_json", macos.parse_system_profiler_json),
    ("macos.parse_system_profiler_text", macos.parse_system_profiler_text),
    ("linux.parse_os_release", linux.parse_os_release),
    ("linux.parse_colon_table", linux.parse_colon_table),
    ("linux.parse_meminfo_total", linux.parse_meminfo_total),
    ("linux.parse_nvidia_smi", linux.parse_nvidia_smi),
    ("linux.parse_nvidia_query", linux.parse_nvidia_query),
    ("linux.parse_rocm_smi", linux.parse_rocm_smi),
    ("linux.parse_rocm_product", linux.parse_rocm_product),
    ("windows.parse_ver", windows.parse_ver),
    ("macos.build_facts", lambda text: macos.build_facts(replaying(text))),
    ("linux.build_facts", lambda text: linux.build_facts(replaying(text))),
    ("windows.build_facts", lambda text: windows.build_facts(replaying(text))),
    ("interpreter output", lambda text: parse_interpreter(parse_interpreter_output("/fuzz/python", text))),
    ("framework probe output", lambda text: parse_frameworks({"torch": parse_probe_output("torch", text)})),
    ("recipe text", lambda text: parse_recipe(text, "fuzzed.toml")),
    ("pasted report, diagnosed", lambda text: run_checks(facts_from_snapshot(import_pastes([text])), load_all())),
    ("pasted bytes", lambda text: clean_lines(decode_paste(text.encode("utf-8", "surrogatepass")))),
]
READER_IDS = [name for name, _ in TEXT_READERS]


def only_user_errors(read, value):
    try:
        read(value)
    except MacmlError:
        pass


# Lines that look like the real outputs, so the search reaches past the first guard.
FRAGMENTS = st.sampled_from([
    "ProductVersion:\t14.4.1", "BuildVersion: 23E224", "Chipset Model: Apple M2", "Total Number of Cores: 10",
    "| 0  NVIDIA H100 80GB HBM3          On  |", "| N/A 30C P0 70W / 700W |  1MiB / 81559MiB |",
    "Driver Version: 550.54.15   CUDA Version: 12.4", "NVIDIA A100, 535.1, 40960 MiB, 8.0",
    "GPU[0]\t\t: Card series: \t\tNavi 31", "0    1  0x744c  30.0°C", "MemTotal: 16303540 kB",
    "Model name: AMD EPYC", "CPU(s): 2", 'NAME="Debian"', "VERSION_ID=12", "Microsoft Windows [Version 10.0.22631]",
    '{"SPDisplaysDataType": [{"sppci_model": "Apple M1", "sppci_cores": "8"}]}', "[[pins]]", "[requires]",
    'label = "x"', 'requirements = ["torch==2.5.1"]', "name = 'x'", "    ", ":", "\ufffd", "\x00", "\ud800",
    "Darwin Kernel Version 23.4.0: root:xnu-10063/RELEASE_ARM64_T8103", "Code Type: X86-64 (Translated)",
    "GPU 0: NVIDIA GeForce RTX 4090", "Python platform: macOS-14.5-arm64-arm-64bit", "torch==2.5.1+cu121",
    "Model: Mac15,6, BootROM 1, 18 GB, SMC", "$ sysctl -n machdep.cpu.brand_string hw.memsize", "Apple M1",
    "> PlaidML Setup (0.7.0)", "metal_amd_radeon_pro_460.0 : AMD Radeon Pro 460 (Metal)", "\x1b[32mOS: darwin\x1b[0m",
    "07/10 16:07:40 - mmengine - INFO - GPU 0: Tesla T4", "- **OS:** darwin", "PyTorch version: N/A",
])
TEXT = st.one_of(st.text(), st.lists(st.one_of(FRAGMENTS, st.text(max_size=20)), max_size=12).map("\n".join))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)


@pytest.mark.parametrize("read", [reader for _, reader in TEXT_READERS], ids=READER_IDS)
@given(text=TEXT)
def test_text_readers_raise_only_user_errors(read, text):
    only_user_errors(read, text)


@pytest.mark.parametrize("read", [reader for _, reader in TEXT_READERS], ids=READER_IDS)
@given(document=JSON)
def test_text_readers_given_json_raise_only_user_errors(read, document):
    only_user_errors(read, json.dumps(document))


@given(data=st.binary())
def test_snapshot_and_recipe_files_of_any_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "input"
    path.write_bytes(data)
    only_user_errors(load_snapshot, path)
    only_user_errors(load_recipe_file, path)


@given(record=JSON, now=st.floats(allow_nan=True))
def test_probe_cache_records_of_any_shape(record, now):
    result = cache.read_record(record, now)
    assert result is None or result["ok"] is True


@given(platform=st.sampled_from(["darwin", "linux", "win32"]), commands=st.dictionaries(st.text(max_size=40), JSON, max_size=6),
       interpreter=JSON, frameworks=JSON, env=JSON)
def test_snapshots_of_any_shape(platform, commands, interpreter, frameworks, env):
    snapshot = {"macml_snapshot": 1, "platform": platform, "commands": commands, "interpreter": interpreter,
                "frameworks": frameworks, "env": env}
    only_user_errors(diagnose_snapshot, snapshot)


MACHINE_FILES = sorted(MACHINES.glob("*.json"))


def paths(value, prefix=()):
    """Every (path) inside a JSON document, the document itself first."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield from paths(child, prefix + (key,))


@given(machine=st.sampled_from(MACHINE_FILES), data=st.data())
def test_mutated_recorded_machines(machine, data):
    """A recorded machine with a few of its values replaced: new text for a command output (kept
    a string, so it reaches the parsers), or any JSON anywhere."""
    snapshot = load_json(machine)
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from([p for p in paths(snapshot) if p]))
        parent = snapshot
        for key in where[:-1]:
            parent = parent[key]
        old = parent[where[-1]]
        parent[where[-1]] = data.draw(TEXT if isinstance(old, str) else JSON)
    only_user_errors(diagnose_snapshot, snapshot)


def test_every_os_module_is_fuzzed():
    assert {f"{os_module(p).__name__.rsplit('.', 1)[-1]}.build_facts" for p in ("darwin", "linux", "win32")} <= set(READER_IDS)


# ---------------------------------------------------------------- the command line: options and environment
# Each example runs the real CLI in this process (conftest.run_cli) with drawn option values and
# environment variables. Property: an exit code of 0, 1 or 2, no traceback, no raw escape sequence on
# stdout or stderr. Nothing drawn reaches a network or trains: `--python` is never a working
# interpreter for verify and install, install is always a dry run, offline.

CAPTURE_FILES = sorted((MACHINES.parent / "captures").glob("*.txt"))
PRINTABLE_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=24)
ODD = st.one_of(PRINTABLE_TEXT, st.sampled_from([
    "\x1b]0;pwned\x07", "\x1b[2J\x1b[1A", "\x9b31m", "[bold]x[/]", "-", "--", "all", "--json", " ", "\r\n",
]))
NUMBER = st.one_of(
    st.sampled_from(["inf", "-inf", "nan", "0", "-0", "-1", "1e308", "1e400", "1e-320", "3", "20", "0x10", "1_000",
                     "", " 5", "²", "１", "9" * 5000]),
    st.floats().map(repr), st.integers(-(10**12), 10**12).map(str), ODD)
KNOWN_FRAMEWORKS = {"all"} | {n for f in frameworks.with_workload() for n in (f.name, *f.aliases)}
PLACES = ("missing-folder", "new-file", "file", "empty-dir", "full-dir", "under-a-file", "/dev/null", "/dev/zero")


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    """Each kind of path an option may be handed, made once."""
    root = tmp_path_factory.mktemp("places")
    (root / "file").write_text("just text\n")
    (root / "empty-dir").mkdir()
    (root / "full-dir").mkdir()
    (root / "full-dir" / "x").write_text("x")
    return {"missing-folder": root / "no" / "such" / "x.json", "new-file": root / "new.json",
            "file": root / "file", "empty-dir": root / "empty-dir", "full-dir": root / "full-dir",
            "under-a-file": root / "file" / "below", "/dev/null": "/dev/null", "/dev/zero": "/dev/zero"}


def place(places, kinds=PLACES):
    return st.sampled_from(kinds).map(lambda kind: str(places[kind]))


def output_place(places):
    """Where an output may be asked to go: never a real device (a regression there would replace
    /dev/null for the whole machine; tests/test_hostile_input.py writes into a FIFO instead)."""
    return place(places, tuple(k for k in PLACES if not k.startswith("/dev/")))


def evidence(places):
    """What --from may be given: a recorded machine, a real capture, or any kind of path."""
    return st.one_of(st.sampled_from(MACHINE_FILES + CAPTURE_FILES).map(str), place(places))


def environment(places):
    return st.fixed_dictionaries({}, optional={
        "MACML_CACHE_DIR": place(places), "MACML_PYPI_URL": ODD, "PIP_INDEX_URL": ODD, "CUDA_VISIBLE_DEVICES": ODD,
        "PYTORCH_ENABLE_MPS_FALLBACK": ODD, "NCCL_P2P_DISABLE": ODD})


def options(data, choices):
    """Some of choices ({option: strategy of its value, or None for a flag}), each drawn at most once."""
    drawn = []
    for option in data.draw(st.lists(st.sampled_from(sorted(choices)), unique=True, max_size=len(choices))):
        drawn += [option] if choices[option] is None else [option, data.draw(choices[option])]
    return drawn


def command_line(data, places, command):
    missing_python = str(places["missing-folder"].parent / "python")
    if command == "doctor":  # replayed, or live with an interpreter that is not there (stops before probing)
        checks = data.draw(st.lists(st.one_of(st.sampled_from(["gpu", "nvidia_driver", "install_target"]), ODD),
                                    max_size=2))
        source = data.draw(st.sampled_from([["--from", data.draw(evidence(places))], ["--python", missing_python]]))
        return ["doctor", *checks, *source, *options(data, {
            "--timeout": NUMBER, "-v": None, "--json": None, "--refresh": None, "--save-snapshot": output_place(places),
            "--from": evidence(places)})]
    if command == "recipes":
        return ["recipes", "--from", data.draw(evidence(places)), *options(data, {"-v": None, "--json": None})]
    if command == "snapshot":
        return ["snapshot", "import", data.draw(evidence(places)), *options(data, {
            "-o": output_place(places), "--json": None})]
    if command == "verify-framework":  # a real interpreter, stopped by the framework's name before any training
        unknown = ODD.filter(lambda t: t.strip() and t.lower() not in KNOWN_FRAMEWORKS and not t.startswith("-"))
        return ["verify", "--python", sys.executable, "--framework", data.draw(unknown), "--synthetic",
                *options(data, {"--json": None, "--steps": st.sampled_from(["1", "2"])})]
    if command == "verify":
        return ["verify", "--python", data.draw(st.sampled_from([missing_python, str(places["file"]), "/dev/null"])),
                *options(data, {"--steps": NUMBER, "--epochs": NUMBER, "--cpu-seconds": NUMBER, "--nproc": NUMBER,
                                "--nnodes": NUMBER, "--node-rank": NUMBER, "--device": ODD, "--framework": ODD,
                                "--data-dir": place(places), "--synthetic": None, "--json": None,
                                "--rdzv-endpoint": ODD})]
    target = data.draw(st.sampled_from([["--python", missing_python], ["--venv", str(places["file"])],
                                        ["--venv", str(places["under-a-file"])], ["--venv", str(places["full-dir"])]]))
    return ["install", "--dry-run", "--offline", *target, *options(data, {
        "--recipe": st.one_of(st.sampled_from(["pytorch-cpu", "mlx", "pytorch-cuda"]), ODD),
        "--recipe-file": place(places), "--json": None, "--uv": None, "--yes": None, "--no-wait": None})]


@pytest.mark.parametrize("command", ["doctor", "recipes", "snapshot", "verify", "verify-framework", "install"])
@given(data=st.data())
def test_the_command_line_never_crashes_nor_prints_escapes(places, command, data):
    from conftest import run_cli

    argv = command_line(data, places, command)
    result = run_cli(*argv, env=data.draw(environment(places)))
    shown = result.stdout + result.stderr
    assert result.returncode in (0, 1, 2), (argv, shown[-2000:])
    assert "Traceback (most recent call last)" not in shown, (argv, shown[-2000:])  # the word alone may be an echoed argument
    assert not set(shown) & {"\x1b", "\x9b", "\x07"}, (argv, shown[-2000:])
