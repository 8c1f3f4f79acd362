"""Several workload processes at once, where that leaves every number honest: `macml verify` on a
machine with cores to spare (Linux: the CPU timing is pinned with sched_setaffinity).

Every process starts at once and stops at a gate once it has imported its framework and read the
data, so imports overlap each other and the runs. Two lanes then decide who goes:
- the accelerator lane: one framework's main workload at a time, in order; once the running one has
  measured its accelerator (its matmul event: only parity and the accuracy training are left), the
  next one may set up its device (CUDA context, JAX client) and waits at its "accelerator" gate;
- the CPU lane: for each framework whose main has not found only a CPU, its CPU timing in a process
  of its own (--only cpu-timing), pinned to every core but one (the accelerator lane keeps that one),
  one at a time. It need not wait for its main to find its device: it sets up and warms up (compiles)
  as soon as it has imported. Its timed steps wait at a second gate until its main has timed its
  accelerator (so that neither timing bends the other) and nothing is importing; while they run,
  every other workload process (each of its threads) is held on the cores they leave, so that no
  compile, import or parity work beside them bends the CPU's number. Once the main is done, the
  timing is told to stop (after a minimum of steps), and every process gets every core back.
A main that finds no accelerator is a CPU run: its CPU-timing process is sent away, and it waits at
its second gate to run alone, after everything else. Each framework's result is its main run plus
its CPU-timing run.
"""
from __future__ import annotations

import os
import queue
import threading
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import psutil

from macml.probe.runner import kill_tree
from macml.verify.stream import Event, StreamResult, stream_events

MIN_CORES = 4  # below this, one core for the accelerator run leaves too few to time the CPU on
# The CPU-timing process must not touch an accelerator (nor take JAX's share of its memory).
CPU_ONLY_ENV = {"CUDA_VISIBLE_DEVICES": "", "HIP_VISIBLE_DEVICES": "", "JAX_PLATFORMS": "cpu"}


def overlap_cores(available: Optional[Sequence[int]] = None) -> Optional[Tuple[int, ...]]:
    """The cores a CPU timing may have beside an accelerator run (all but the lowest), or None where
    the CPU cannot be pinned or there are too few cores: then everything runs one after another."""
    if available is None:
        if not hasattr(os, "sched_getaffinity"):
            return None
        available = os.sched_getaffinity(0)
    cores = sorted(available)
    return tuple(cores[1:]) if len(cores) >= MIN_CORES else None


def pin_tree(pid: int, cores: Sequence[int]) -> None:
    """Every thread of the process and of its children onto `cores` (sched_setaffinity on a pid
    moves that one thread only; threads made later inherit their maker's cores)."""
    try:
        parent = psutil.Process(pid)
        processes = [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return
    for process in processes:
        try:
            threads = process.threads()
        except psutil.Error:
            continue
        for thread in threads:
            try:
                os.sched_setaffinity(thread.id, cores)
            except OSError:  # gone meanwhile
                pass


@dataclass(frozen=True)
class Finished:
    framework: str
    main: StreamResult
    cpu: Optional[StreamResult] = None  # the CPU timing run beside it, where there was one


class _Process:
    """One workload process as the scheduler (one thread) sees it."""

    def __init__(self, argv: List[str], env: Dict[str, str]):
        self.argv, self.env = argv, env
        # starting -> ready -> running -> done; a main may pass through setting-up -> set-up between
        # ready and running (its device found beside the run before it), or go cpu-wait -> alone;
        # a CPU timing passes through warming -> warmed (its second gate) before running
        self.phase = "starting"
        self.measured = False  # a running main has timed its accelerator: the next may set up
        self.proc = None
        self.result: Optional[StreamResult] = None

    def go(self, phase: str) -> None:
        self.phase = phase
        self._write("go\n")

    def stop(self) -> None:
        """A running CPU timing may end once it has its minimum of steps (its main is done)."""
        if self.phase == "running":
            self._write("stop\n")

    def send_away(self) -> None:
        """Stop it now (it may still be importing, which would take a core from a CPU run)."""
        if self.phase != "done":
            self.phase = "sent away"
            if self.proc is not None:
                kill_tree(self.proc)

    def _write(self, text: str) -> None:
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except (OSError, ValueError):  # it has gone; its exit is on the way
            pass


class _Job:
    def __init__(self, framework: str, main: _Process, cpu: Optional[_Process]):
        self.framework, self.main, self.cpu = framework, main, cpu
        self.accelerated: Optional[bool] = None  # what the main's device event said


class Scheduler:
    def __init__(self, jobs: Sequence[Tuple[str, List[str]]], cpu_argv: Callable[[str], List[str]],
                 env: Dict[str, str], timeout: float, on_event: Callable[[str, Event], None],
                 cpu_cores: Optional[Sequence[int]] = None):
        """cpu_cores: where the CPU timings run; the other workloads are held off them meanwhile
        (None: no pinning)."""
        cpu_env = dict(env, **CPU_ONLY_ENV)
        everything = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        rest = [c for c in everything if c not in set(cpu_cores or ())]
        # (the timing's cores, the others' cores while it runs, everyone's after)
        self.lanes = (list(cpu_cores), rest, everything) if cpu_cores and rest else None
        self.held: Tuple["_Process", ...] = ()
        self.jobs = [_Job(name, _Process(argv, env), _Process(cpu_argv(name), cpu_env)) for name, argv in jobs]
        self.timeout, self.on_event = timeout * len(self.jobs), on_event  # a gated process may wait for the others
        self.inbox: "queue.Queue" = queue.Queue()

    def run(self) -> List[Finished]:
        try:
            for job in self.jobs:
                self._start(job, job.main)
                self._start(job, job.cpu)
            while not all(p.phase == "done" for p in self._processes()):
                self._handle(*self.inbox.get())
                self._dispatch()
        finally:
            for process in self._processes():
                if process.proc is not None and process.proc.poll() is None:
                    kill_tree(process.proc)
        return [Finished(j.framework, j.main.result, j.cpu.result if j.accelerated else None) for j in self.jobs]

    def _processes(self) -> List[_Process]:
        return [p for j in self.jobs for p in (j.main, j.cpu)]

    def _start(self, job: _Job, process: _Process) -> None:
        def work():
            result = stream_events(process.argv, self.timeout, lambda e: self.inbox.put(("event", job, process, e)),
                                   process.env, on_start=lambda proc: self.inbox.put(("started", job, process, proc)))
            self.inbox.put(("exit", job, process, result))
        threading.Thread(target=work, daemon=True).start()

    def _handle(self, kind: str, job: _Job, process: _Process, payload) -> None:
        if kind == "started":
            process.proc = payload
            if process.phase == "sent away":  # sent away before it had even started
                kill_tree(payload)
        elif kind == "exit":
            process.result, process.phase = payload, "done"
            if process is job.main and not job.accelerated:
                job.cpu.send_away()  # no accelerator run to time the CPU beside
            elif process is job.main:
                job.cpu.stop()
        elif kind == "event":
            self.on_event(job.framework, payload)
            self._event(job, process, payload)

    def _event(self, job: _Job, process: _Process, event: Event) -> None:
        kind = event.get("event")
        if kind == "ready" and event.get("gate") == "accelerator":
            if process.phase == "running":  # it had the lane already
                process.go("running")
            else:
                process.phase = "set-up"
        elif kind == "ready":
            process.phase = {"cpu": "cpu-wait", "cpu-timed": "warmed"}.get(event.get("gate"), "ready")
        elif kind == "matmul" and process is job.main and event.get("device") != "cpu":
            process.measured = True
        elif kind == "device" and process is job.main:
            job.accelerated = event.get("device") != "cpu"
            if not job.accelerated:
                process.phase = "cpu-pending"  # the accelerator lane is free again
                job.cpu.send_away()

    def _dispatch(self) -> None:
        mains = [j.main for j in self.jobs]
        running = [m for m in mains if m.phase in ("running", "alone")]
        if not running:
            self._go_first([m for m in mains if m.phase == "set-up"] or [m for m in mains if m.phase == "ready"],
                           "running")
        elif all(m.measured for m in running) and not any(m.phase in ("setting-up", "set-up") for m in mains):
            self._go_first([m for m in mains if m.phase == "ready"], "setting-up")
        self._dispatch_cpu_lane()
        busy = {p.phase for p in self._processes()}
        waiting_cpu = any(j.accelerated and j.cpu.phase != "done" for j in self.jobs)
        if not busy & {"starting", "ready", "setting-up", "set-up", "running", "alone", "sent away"} and not waiting_cpu:
            self._go_first([m for m in mains if m.phase == "cpu-wait"], "alone")
        self._hold_others()

    def _dispatch_cpu_lane(self) -> None:
        busy = {p.phase for p in self._processes()}
        if not any(j.cpu.phase in ("warming", "warmed", "running") for j in self.jobs) and "alone" not in busy:
            known_first = sorted((j for j in self.jobs if j.accelerated is not False), key=lambda j: j.accelerated is None)
            self._go_first([j.cpu for j in known_first if j.cpu.phase == "ready"], "warming")
        if busy & {"starting", "alone"}:
            return
        for job in self.jobs:
            if job.cpu.phase == "warmed" and (job.main.measured or job.main.phase == "done"):
                job.cpu.go("running")
                if job.main.phase == "done":
                    job.cpu.stop()

    def _hold_others(self) -> None:
        """While a CPU timing runs, it has its cores and the other live workloads the cores it leaves
        (a CPU timing that waited its turn was held too); after, every workload has every core."""
        timing = tuple(j.cpu for j in self.jobs if j.cpu.phase == "running")
        if self.lanes is None or timing == self.held:
            return
        self.held = timing
        for process in self._processes():
            if process.proc is None or process.phase == "done":
                continue
            if process in timing:
                pin_tree(process.proc.pid, self.lanes[0])
            else:
                pin_tree(process.proc.pid, self.lanes[1] if timing else self.lanes[2])

    @staticmethod
    def _go_first(candidates: List[_Process], phase: str) -> None:
        if candidates:
            candidates[0].go(phase)
