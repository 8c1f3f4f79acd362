"""Every signal ends every child of `macml verify`: the workload (one framework) or torchrun and its
ranks (--nproc), whatever the signal and wherever it was sent; macml exits 128 + the signal."""
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from conftest import PROJECT

pytest.importorskip("torch")

LONG_RUN = ["--synthetic", "--device", "cpu", "--steps", "100000"]


def start_verify(*args):
    env = dict(os.environ, PYTHONPATH=str(PROJECT / "src"))
    return subprocess.Popen([sys.executable, "-m", "macml", "verify", *args, "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)


def processes_running(proc, script, count, timeout=120):
    """The descendants of proc whose command line names script, once there are count of them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = []
        for child in psutil.Process(proc.pid).children(recursive=True):
            try:
                if any(script in part for part in child.cmdline()):
                    found.append(child)
            except psutil.Error:
                continue
        if len(found) >= count:
            return found
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    pytest.fail(f"{count} processes running {script} never appeared")


@pytest.mark.parametrize("args, script, count, signum", [
    (LONG_RUN, "workload_torch.py", 1, signal.SIGTERM),
    (LONG_RUN, "workload_torch.py", 1, signal.SIGHUP),
    pytest.param(["--nproc", "2", *LONG_RUN], "distributed_torch.py", 3, signal.SIGTERM, marks=pytest.mark.heavy),
    pytest.param(["--nproc", "2", *LONG_RUN], "distributed_torch.py", 3, signal.SIGHUP, marks=pytest.mark.heavy),
    (LONG_RUN, "workload_torch.py", 1, signal.SIGINT),
    (LONG_RUN, "workload_torch.py", 1, signal.SIGKILL),
    pytest.param(["--nproc", "2", *LONG_RUN], "distributed_torch.py", 3, signal.SIGKILL, marks=pytest.mark.heavy),
], ids=["one-framework-sigterm", "one-framework-sighup", "torchrun-sigterm", "torchrun-sighup",
        "one-framework-ctrl-c-to-the-group", "one-framework-kill-9", "torchrun-kill-9"])
def test_a_signal_to_macml_ends_every_child(args, script, count, signum):
    proc = start_verify(*args)
    children = processes_running(proc, script, count)
    try:
        # Ctrl-C reaches the terminal's whole process group; the others are sent to macml alone.
        os.killpg(proc.pid, signum) if signum == signal.SIGINT else os.kill(proc.pid, signum)
        out, err = proc.communicate(timeout=60)
        _, alive = psutil.wait_procs(children, timeout=20)
        assert not alive, [p.cmdline() for p in alive]
        if signum == signal.SIGKILL:  # nothing of macml runs after it: the children die with it
            assert proc.returncode == -signal.SIGKILL
            return
        assert proc.returncode == 128 + signum, err[-2000:]
        assert f"interrupted by {signal.Signals(signum).name}" in out
        assert "Traceback" not in out + err
    finally:
        for child in children:
            try:
                child.kill()
            except psutil.Error:
                pass


def test_a_signal_the_moment_a_workload_starts_leaves_no_child_and_no_thread_keeping_macml_alive():
    """Seen once under load: SIGHUP landed before stream_events' cleanup began; the child died but
    the 30-minute deadline timer (not a daemon) kept macml from exiting."""
    import threading

    from macml.errors import Interrupted
    from macml.verify.stream import stream_events

    started = []

    def signal_now(proc):
        started.append(proc)
        raise Interrupted(signal.SIGHUP)

    with pytest.raises(Interrupted):
        stream_events([sys.executable, "-c", "import time; time.sleep(60)"], 1800, lambda event: None,
                      on_start=signal_now)
    assert started[0].poll() is not None
    assert not [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
