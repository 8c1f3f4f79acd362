"""verify.schedule: several workload processes at once, and never two where that would bend a number.
Stub workloads speak the protocol (ready, go, device, work) and stamp their work with the clock."""
from __future__ import annotations

import json
import sys

import pytest

from macml.verify.schedule import CPU_ONLY_ENV, Scheduler, overlap_cores

STUB = r'''
import json, os, sys, time
name, device = sys.argv[1], sys.argv[2]
def emit(event, **fields):
    print(json.dumps(dict(fields, event=event, at=time.monotonic())), flush=True)
def go():
    if sys.stdin.readline().strip() != "go":
        sys.exit(4)
if "--only" in sys.argv:
    time.sleep(0.1)  # the import
    emit("ready", gate="cpu-timing")
    go()
    emit("work", part="cpu-warm-up", start=True)
    time.sleep(0.1)
    emit("work", part="cpu-warm-up", start=False)
    emit("ready", gate="cpu-timed")
    go()
    emit("work", part="cpu-timing", start=True, env=os.environ.get("JAX_PLATFORMS"))
    time.sleep(0.3)
    emit("timing", device="cpu", median_ms=40.0)
    emit("work", part="cpu-timing", start=False)
    sys.exit(0)
time.sleep(0.1)  # the import
emit("ready", gate="device")
go()
emit("work", part=device + "-setup", start=True)
time.sleep(0.1)
emit("device", device=device)
emit("work", part=device + "-setup", start=False)
if device == "cpu":
    emit("ready", gate="cpu")
    go()
    emit("work", part="alone", start=True)
    time.sleep(0.3)
    emit("work", part="alone", start=False)
else:
    emit("ready", gate="accelerator")
    go()
    emit("work", part=device, start=True)  # the timed part
    time.sleep(0.3)
    emit("work", part=device, start=False)
    emit("matmul", device=device)
    emit("work", part=device + "-rest", start=True)  # parity and accuracy: never timed
    time.sleep(1.0)
    emit("work", part=device + "-rest", start=False)
emit("done")
'''


@pytest.fixture
def stub(tmp_path):
    path = tmp_path / "stub.py"
    path.write_text(STUB)
    return str(path)


def intervals(finished):
    """(framework, part) -> (start, end) of each stretch of work, from the stamped events."""
    found = {}
    for f in finished:
        events = list(f.main.events) + (list(f.cpu.events) if f.cpu else [])
        for e in events:
            if e["event"] == "work":
                start, end = found.get((f.framework, e["part"]), (None, None))
                found[(f.framework, e["part"])] = (e["at"], end) if e["start"] else (start, e["at"])
    return found


def overlap(a, b):
    return a[0] < b[1] and b[0] < a[1]


def test_accelerator_runs_take_turns_cpu_timings_run_beside_them_and_a_cpu_run_goes_alone(stub):
    jobs = [(name, [sys.executable, stub, name, device]) for name, device in
            (("torch", "cuda"), ("mlx", "cpu"), ("jax", "gpu"))]
    seen = []
    finished = Scheduler(jobs, lambda name: [sys.executable, stub, name, "cpu", "--only"], {}, 60,
                         lambda name, event: seen.append((name, event["event"]))).run()
    assert [f.framework for f in finished] == ["torch", "mlx", "jax"]
    assert [f.main.returncode for f in finished] == [0, 0, 0]
    assert finished[1].cpu is None and finished[0].cpu.returncode == 0 and finished[2].cpu.returncode == 0
    work = intervals(finished)
    assert ("mlx", "cpu-timing") not in work  # sent away: its main found no accelerator
    assert not overlap(work[("torch", "cuda")], work[("jax", "gpu")])  # one accelerator run at a time
    assert not overlap(work[("torch", "cpu-timing")], work[("jax", "cpu-timing")])  # one CPU timing at a time
    runs = [(work[(name, part)][0], work[(name, part + "-rest")][1]) for name, part in (("torch", "cuda"), ("jax", "gpu"))]
    assert any(overlap(run, work[("torch", "cpu-timing")]) for run in runs)  # a CPU timing beside an accelerator run
    alone = work[("mlx", "alone")]
    assert all(not overlap(alone, other) for key, other in work.items() if key != ("mlx", "alone"))
    imported = max(e["at"] for f in finished for e in f.main.events if e["event"] == "ready" and e["gate"] == "device")
    assert work[("torch", "cpu-timing")][0] > imported  # timed once nothing imports any more
    measured = next(e["at"] for e in finished[0].main.events if e["event"] == "matmul")
    assert work[("torch", "cpu-timing")][0] > measured  # and once its main has timed its accelerator
    cpu_env = next(e for e in finished[0].cpu.events if e["event"] == "work" and e["part"] == "cpu-timing")["env"]
    assert cpu_env == CPU_ONLY_ENV["JAX_PLATFORMS"] and ("torch", "timing") in seen


def test_the_next_run_sets_up_its_device_beside_the_untimed_rest_of_the_one_before(stub):
    jobs = [(name, [sys.executable, stub, name, device]) for name, device in (("jax", "gpu"), ("torch", "cuda"))]
    finished = Scheduler(jobs, lambda name: [sys.executable, stub, name, "cpu", "--only"], {}, 60,
                         lambda name, event: None).run()
    assert [f.main.returncode for f in finished] == [0, 0]
    work = intervals(finished)
    (first, lane), (second, its_lane) = sorted([("jax", "gpu"), ("torch", "cuda")], key=lambda k: work[k][0])
    setup = work[(second, its_lane + "-setup")]
    assert overlap(setup, work[(first, lane + "-rest")])
    assert not overlap(setup, work[(first, lane)])  # never beside a timed part
    assert work[(second, its_lane)][0] >= work[(first, lane + "-rest")][1]  # its own run waits for the lane


def test_a_workload_that_dies_at_its_gate_does_not_hold_the_others(stub, tmp_path):
    dead = tmp_path / "dead.py"
    dead.write_text("import sys\nsys.exit(3)\n")
    jobs = [("tensorflow", [sys.executable, str(dead)]), ("torch", [sys.executable, stub, "torch", "cuda"])]
    finished = Scheduler(jobs, lambda name: [sys.executable, stub, name, "cpu", "--only"], {}, 60,
                         lambda name, event: None).run()
    assert [f.main.returncode for f in finished] == [3, 0] and finished[0].cpu is None
    assert finished[1].cpu.returncode == 0


@pytest.mark.parametrize("available, cores", [((0, 1), None), ((0, 1, 2, 3), (1, 2, 3)), ((8, 3, 5, 6, 7), (5, 6, 7, 8))],
                         ids=["two-cores-run-in-turn", "four", "unordered"])
def test_overlap_leaves_the_lowest_core_to_the_accelerator_run(available, cores):
    assert overlap_cores(available) == cores


@pytest.fixture
def overlapped(monkeypatch):
    """run_verify through the scheduler on this machine, whatever its core count."""
    from macml.verify import command
    monkeypatch.setattr(command, "overlap_cores", lambda: (0,))


def test_real_workload_through_the_gates_on_a_machine_without_accelerator(overlapped):
    pytest.importorskip("torch")
    from macml.verify.command import run_verify

    report = run_verify(framework="torch", synthetic=True, cpu_seconds=0.2)
    (run,) = report.runs
    assert run.measurements.finished and run.measurements.cpu is not None
    assert not run.measurements.cpu.beside_accelerator  # no accelerator: the CPU run times itself, alone
    assert {c.name: c.status for c in run.checks}["accelerator"] == "pass"
    assert json.dumps(report.to_json())


SAMPLER = r'''
import json, os, sys, threading, time
def emit(event, **fields):
    print(json.dumps(dict(fields, event=event, at=time.monotonic())), flush=True)
cores = lambda: sorted(os.sched_getaffinity(0))
if "--only" in sys.argv:
    os.sched_setaffinity(0, [int(c) for c in sys.argv[-1].split(",")])
    emit("ready", gate="cpu-timing")
    sys.stdin.readline()
    emit("ready", gate="cpu-timed")
    sys.stdin.readline()
    time.sleep(0.2)  # the scheduler holds the others off this one's cores meanwhile
    emit("work", part="cpu-timing", start=True, cores=cores())
    time.sleep(0.6)
    emit("work", part="cpu-timing", start=False, cores=cores())
    sys.exit(0)
samples = []
def sample():  # a thread made before any pinning, like a framework's thread pool
    for _ in range(40):
        samples.append((time.monotonic(), cores()))
        time.sleep(0.05)
pool = threading.Thread(target=sample)
pool.start()
emit("ready", gate="device")
sys.stdin.readline()
emit("device", device="gpu")
emit("matmul", device="gpu")  # its accelerator timed: the CPU timing may go
pool.join()
emit("samples", samples=samples)
emit("done")
'''


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity") or len(__import__("os").sched_getaffinity(0)) < 2,
                    reason="needs Linux CPU affinity and at least 2 cores")
def test_while_a_cpu_timing_runs_every_thread_of_the_other_workloads_keeps_off_its_cores(tmp_path):
    import os
    script = tmp_path / "sampler.py"
    script.write_text(SAMPLER)
    everything = sorted(os.sched_getaffinity(0))
    cpu_cores, rest = everything[1:], everything[:1]
    finished = Scheduler([("jax", [sys.executable, str(script)])],
                         lambda name: [sys.executable, str(script), "--only", ",".join(map(str, cpu_cores))],
                         {}, 60, lambda name, event: None, cpu_cores=cpu_cores).run()
    timing = {e["start"]: e for e in finished[0].cpu.events if e["event"] == "work"}
    assert timing[True]["cores"] == timing[False]["cores"] == cpu_cores
    samples = next(e["samples"] for e in finished[0].main.events if e["event"] == "samples")
    during = [c for at, c in samples if timing[True]["at"] <= at <= timing[False]["at"]]
    after = [c for at, c in samples if at > timing[False]["at"] + 0.2]
    assert during and all(c == rest for c in during), samples
    assert after and all(c == everything for c in after), samples


CPU_TIMING = r'''
import sys, time
sys.path.insert(0, sys.argv[1])
from _workload_common import run_mnist

class Trainer:
    mode = "eager"
    def step(self, idx):
        time.sleep(0.02)
    def batches(self, count):
        return iter(range(count))
    def placement(self):
        return "cpu", "cpu"

class Backend:  # the real --only cpu-timing protocol around a CPU that takes 20 ms a step
    name = "stub"
    def describe(self, args):
        return {}
    def load(self, pixels, labels, n):
        return pixels, labels
    def trainer(self, device, x, y, weights):
        return Trainer()
    def sync(self, device, value):
        pass
    def loss_value(self, loss):
        return 0.0
    def matmul(self, device, n):
        return lambda: None

sys.exit(run_mnist(Backend(), sys.argv[2:]))
'''

MAIN_DONE_SOON = r'''
import json, sys
def emit(event, **fields):
    print(json.dumps(dict(fields, event=event)), flush=True)
emit("ready", gate="device")
sys.stdin.readline()
emit("device", device="gpu")
emit("ready", gate="accelerator")
sys.stdin.readline()
emit("matmul", device="gpu")
emit("done")
'''


def test_a_cpu_timing_beside_a_finished_run_stops_after_its_minimum_of_steps(tmp_path):
    from conftest import PROJECT

    timing, main = tmp_path / "cpu_timing.py", tmp_path / "main.py"
    timing.write_text(CPU_TIMING)
    main.write_text(MAIN_DONE_SOON)
    argv = [sys.executable, str(timing), str(PROJECT / "checks" / "workloads"), "--only", "cpu-timing", "--gate",
            "--synthetic", "--cpu-seconds", "30"]
    finished = Scheduler([("stub", [sys.executable, str(main)])], lambda name: argv, {}, 60,
                         lambda name, event: None).run()
    assert finished[0].main.returncode == 0 and finished[0].cpu.returncode == 0, finished[0].cpu
    (result,) = [e for e in finished[0].cpu.events if e["event"] == "timing"]
    gates = [e["gate"] for e in finished[0].cpu.events if e["event"] == "ready"]
    assert gates == ["cpu-timing", "cpu-timed"]
    assert 20 <= result["steps"] < 60, result  # 30 s and 60 steps allowed: the stop ended it at the minimum


def test_every_process_verify_schedules_waits_at_its_gates(monkeypatch):
    """The scheduler can hold back only processes that read its "go": the main runs and their CPU
    timings alike (a CPU timing started without --gate timed itself at once, beside everything)."""
    from conftest import load_check_script
    from macml.verify import command

    started = []

    class Recorder:
        def __init__(self, jobs, cpu_argv, *args, **kwargs):
            started.extend(argv for _, argv in jobs)
            started.extend(cpu_argv(name) for name, _ in jobs)

        def run(self):
            return []

    monkeypatch.setattr(command, "Scheduler", Recorder)
    monkeypatch.setattr(command, "overlap_cores", lambda: (1, 2, 3))
    monkeypatch.setattr(command, "importable_frameworks", lambda python: ["torch", "jax"])
    command.run_verify(synthetic=True)
    parser = load_check_script("workloads/_workload_common.py").workload_parser("any")
    parsed = [parser.parse_args(argv[2:]) for argv in started]
    assert len(parsed) == 4 and all(args.gate for args in parsed), started
    assert sum(args.only == "cpu-timing" for args in parsed) == 2
