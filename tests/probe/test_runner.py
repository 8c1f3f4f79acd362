"""The one subprocess function: hangs, missing tools and bad bytes are results, not crashes; tied
children die with macml."""
import os
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest

from conftest import PROJECT
from macml.probe import runner
from macml.probe.runner import CommandResult, LiveCommands, ReplayCommands, command_key, run_command


def test_hung_command_times_out_quickly():
    result = run_command([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5)
    assert result.timed_out and not result.ok and result.returncode is None


def test_missing_tool_is_a_result():
    result = run_command(["macml-no-such-tool-xyz", "--version"])
    assert result.missing and not result.ok


def test_non_utf8_output_is_decoded_with_replacement():
    result = run_command([sys.executable, "-c", "import sys; sys.stdout.buffer.write(b'GPU \\xff\\xfe ok')"])
    assert result.ok
    assert result.stdout.startswith("GPU ") and result.stdout.endswith(" ok") and "\ufffd" in result.stdout


def test_stdout_and_stderr_are_kept_apart():
    result = run_command([sys.executable, "-c", "import sys; print('out'); print('noise', file=sys.stderr)"])
    assert (result.stdout.strip(), result.stderr.strip()) == ("out", "noise")


def test_live_commands_run_once_and_record_only_present_tools():
    live = LiveCommands(timeout=5)
    argv = (sys.executable, "-c", "import random; print(random.random())")
    first, second = live.run(argv), live.run(argv)
    assert first.stdout == second.stdout  # cached, not re-run
    live.run(("macml-no-such-tool-xyz",))
    assert list(live.recorded) == [command_key(argv)]


@pytest.mark.parametrize("record, expected", [
    ({"returncode": 0, "stdout": "x", "stderr": ""}, (0, "x", False, False)),
    ({"returncode": None, "stdout": "", "stderr": "", "timed_out": True}, (None, "", True, False)),
], ids=["ok", "timed-out"])
def test_replay_answers_from_the_record(record, expected):
    result = ReplayCommands({"tool -a": record}).run(("tool", "-a"))
    assert (result.returncode, result.stdout, result.timed_out, result.missing) == expected


def test_replay_treats_absent_commands_as_missing_tools():
    assert ReplayCommands({}).run(("nvidia-smi",)).missing


def test_timeout_also_kills_grandchildren_holding_the_pipes():
    import time
    script = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); time.sleep(60)"
    start = time.monotonic()
    result = run_command([sys.executable, "-c", script], timeout=1.0)
    assert result.timed_out and time.monotonic() - start < 15


def test_concurrent_requests_for_one_command_run_it_once(tmp_path):
    from concurrent.futures import ThreadPoolExecutor
    counter = tmp_path / "runs"
    argv = (sys.executable, "-c", f"import time; open({str(counter)!r}, 'a').write('x'); time.sleep(0.5)")
    live = LiveCommands(timeout=10)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: live.run(argv), range(4)))
    assert counter.read_text() == "x" and all(r is results[0] for r in results)


@pytest.mark.parametrize("stderr, line", [("a\nModuleNotFoundError: x\n", "ModuleNotFoundError: x"), ("", "no output")],
                         ids=["traceback-tail", "silent"])
def test_last_error_line(stderr, line):
    from macml.probe.runner import CommandResult
    assert CommandResult(("x",), 1, "", stderr).last_error_line == line


@pytest.mark.parametrize("result, why", [
    (CommandResult(("x",), 0, "fine"), ""),
    (CommandResult(("x",), None, missing=True), "is not available"),
    (CommandResult(("x",), None, stderr="timed out after 10s", timed_out=True), "timed out"),
    (CommandResult(("x",), 9, "", "Traceback (most recent call last):\n  ...\nImportError: no torch\n"),
     "failed (exit 9: ImportError: no torch)"),
    (CommandResult(("x",), 1, "NVIDIA-SMI has failed because it couldn't communicate with the driver.\n", ""),
     "failed (exit 1: NVIDIA-SMI has failed because it couldn't communicate with the driver.)"),
    (CommandResult(("x",), 3), "failed (exit 3: no message)"),
], ids=["ok", "missing", "timed-out", "traceback-last-line", "stdout-when-no-stderr", "silent"])
def test_why_a_command_failed(result, why):
    assert result.why_failed() == why


def test_children_are_tied_where_the_os_allows_and_only_from_the_main_thread(monkeypatch):
    with runner.children_tied(signal.SIGKILL, (7,)):
        here = runner.tie_options()
        elsewhere = []
        thread = threading.Thread(target=lambda: elsewhere.append(runner.tie_options()))
        thread.start()
        thread.join()
    assert elsewhere == [{}]  # the parent-death signal follows the thread that started the child
    assert runner.tie_options() == {}  # only inside
    if os.name == "posix":
        assert here["pass_fds"] == (7,)
    assert ("preexec_fn" in here) == sys.platform.startswith("linux")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert runner._prctl.__wrapped__() is None  # macOS: the inherited lock is what holds


def test_a_tied_child_dies_with_a_killed_parent():
    if not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal is Linux's")
    script = ("import signal, sys\nfrom macml.probe import runner\n"
              "with runner.children_tied(signal.SIGKILL):\n"
              "    runner.run_command(['sleep', '60'], timeout=120)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], env=dict(os.environ, PYTHONPATH=str(PROJECT / "src")))
    deadline = time.monotonic() + 30
    while not psutil.Process(parent.pid).children() and time.monotonic() < deadline:
        time.sleep(0.05)
    (child,) = psutil.Process(parent.pid).children()
    parent.kill()
    parent.wait()
    _, alive = psutil.wait_procs([child], timeout=5)
    for process in alive:
        process.kill()
    assert not alive
