"""`macml verify`: run the MNIST convnet workload in the target interpreter and judge it.

The workloads (checks/verify_*.py) run inside the target interpreter and stream JSON
lines; this module chooses frameworks, resolves the data, drives a progress bar from the
events, and turns the events into a VerifyReport with pure functions (verify_result).
"""
from __future__ import annotations

import dataclasses
import functools
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Sequence, Tuple

from macml import frameworks, paths, progress
from macml.errors import MOST_COUNT, MOST_SECONDS, MacmlError, require_positive
from macml.facts import GPU
from macml.knowledge.gpu_specs import peak_fp32
from macml.verify.machine import MachineProbe
from macml.verify.mnist import MnistFiles, resolve_mnist, validate_mnist
from macml.probe.runner import LiveCommands, children_tied, run_command
from macml.verify.report import FrameworkVerify, VerifyReport
from macml.verify.result import DeviceInfo, collect, judge
from macml.verify.schedule import Scheduler, overlap_cores
from macml.verify.stream import StreamResult, show_progress, stream_events

WORKLOAD_TIMEOUT = 1800.0

# Prints, one a line, the modules given as arguments that the target can import.
_FINDER_MARK = "macml-module-finder"
_FIND_MODULES = (
    "import importlib.util as u, sys\n"
    f"print({_FINDER_MARK!r})\n"
    "for n in sys.argv[1:]:\n"
    "    try:\n"
    "        print(n if u.find_spec(n) else '')\n"
    "    except Exception:\n"
    "        pass\n"
)


def parse_importable(stdout: str) -> Tuple[str, ...]:
    """The finder's output -> names of frameworks with a workload, in the finder's order."""
    by_module = {f.module: f.name for f in frameworks.with_workload()}
    return tuple(by_module[n] for n in (line.strip() for line in stdout.splitlines()) if n in by_module)


def importable_frameworks(python: str) -> Tuple[str, ...]:
    """Frameworks with a workload that the target interpreter can import (find_spec, no import)."""
    modules = [f.module for f in frameworks.with_workload()]
    result = run_command([python, "-c", _FIND_MODULES, *modules], timeout=60)
    if result.missing:
        raise MacmlError(f"Cannot run the interpreter {python}.", hint="Pass --python PATH to an existing python.")
    if _FINDER_MARK not in result.stdout.splitlines()[:1]:
        raise MacmlError(f"{python} did not run as a Python 3 interpreter ({result.last_error_line}).",
                         hint="Pass --python the path of a Python executable (e.g. .venv/bin/python).")
    return parse_importable(result.stdout)


def choose_frameworks(requested: Optional[str], installed: Sequence[str]) -> Tuple[str, ...]:
    if requested and requested.lower() == "all":
        if not installed:
            raise MacmlError("No framework with a verify workload is installed in the target interpreter.",
                             hint="See `macml doctor` and `macml recipes`, or pass --python PATH.")
        return tuple(installed)
    if requested:
        name = frameworks.resolve(requested).name
        if name not in installed:
            raise MacmlError(f"{name} is not installed in the target interpreter.",
                             hint="Install it first (see `macml recipes`), or pass --python PATH to another interpreter.")
        return (name,)
    chosen = tuple(n for n in installed if frameworks.BY_NAME[n].verify_by_default)
    if not chosen:
        names = ", ".join(f.name for f in frameworks.with_workload() if f.verify_by_default)
        raise MacmlError(f"No supported ML framework ({names}) is installed in the target interpreter.",
                         hint="See `macml doctor` and `macml recipes`, or pass --python PATH.")
    return chosen


def workload_args(data: Optional[MnistFiles], device: Optional[str], steps: Optional[int], epochs: int,
                  cpu_seconds: float) -> List[str]:
    args = ["--device", (device or "auto").lower(), "--epochs", str(epochs), "--cpu-seconds", f"{cpu_seconds:g}"]
    if steps:
        args += ["--steps", str(steps)]
    if data is None:
        return args + ["--synthetic"]
    return args + ["--train", str(data.train_images), str(data.train_labels),
                   "--test", str(data.test_images), str(data.test_labels),
                   "--train-slice", data.train_slice, "--test-slice", data.test_slice]


@functools.lru_cache(maxsize=1)
def mac_gpu() -> Optional[GPU]:
    """The Metal GPU, read once with the doctor's own probes and parsers (name, cores, peak)."""
    from macml.probe import macos

    gpus = macos.build_facts(LiveCommands(timeout=30).run).gpus
    return next((g for g in gpus if g.vendor in ("Apple", "AMD")), None)


def with_peak(info: DeviceInfo, gpu: Optional[GPU] = None) -> DeviceInfo:
    """Add the chip's peak FP32 and bandwidth where macml.knowledge.gpu_specs knows the chip."""
    if not info.accelerated:
        return info
    if gpu is None and info.backend in ("mps", "metal") and sys.platform == "darwin":
        gpu = mac_gpu()
    name = gpu.model if gpu else info.name
    peak = (gpu.peak_fp32_tflops, gpu.bandwidth_gbs) if gpu and gpu.peak_fp32_tflops else peak_fp32(name)
    if not peak:
        return dataclasses.replace(info, name=name)
    return dataclasses.replace(info, name=name, peak_tflops=peak[0], bandwidth_gbs=peak[1])


def check_device(device: Optional[str], chosen: Sequence[str]) -> None:
    """--device must be a device each chosen framework names so (torch: cuda, not gpu)."""
    for name in chosen if device else ():
        framework = frameworks.BY_NAME[name]
        if not framework.accepts_device(device.lower()):
            raise MacmlError(f"--device {device} is not a {name} device: {name} takes {framework.device_choices}.",
                             hint="`macml doctor` shows which devices each framework sees here.")


def on_cpu_without_asking(event: dict, cpu_requested: bool) -> bool:
    return event.get("event") == "device" and event.get("device") == "cpu" and not cpu_requested


@dataclass(frozen=True)
class Setting:
    """What every framework's run in one `macml verify` shares."""

    python: str
    args: Tuple[str, ...]  # the workload's arguments
    data_text: str
    synthetic: bool
    cpu_requested: bool
    full: bool  # the full 60k training set (the accuracy threshold)
    machine: MachineProbe


def workload_argv(setting: Setting, framework: str) -> List[str]:
    script = paths.check_script(frameworks.BY_NAME[framework].workload_script)
    if not script.is_file():
        raise MacmlError(f"The {framework} verify workload ({script.name}) is not available in this macml.")
    return [setting.python, str(script), *setting.args]


def workload_env(environ=os.environ) -> dict:
    """The workloads' environment: unbuffered, quiet TensorFlow, and JAX's own persistent compilation
    cache in macml's cache folder (a second verify skips XLA's compile and GPU autotuning; measured
    times never include compiling). A user's own JAX cache setting wins; an unusable folder means none."""
    env = dict(environ, PYTHONUNBUFFERED="1", TF_CPP_MIN_LOG_LEVEL="2")
    if "JAX_COMPILATION_CACHE_DIR" not in env:
        folder = paths.user_cache_dir("jax-compile", env)
        if paths.cache_problem(folder) is None:
            env["JAX_COMPILATION_CACHE_DIR"] = str(folder)
            env.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0.2")
    return env


def watch(setting: Setting, bar, framework: str = ""):
    """The callback for a workload's events: the progress bar, and the doctor's facts probed beside
    a CPU run nobody asked for (they decide whether it may pass)."""
    def on_event(event: dict) -> None:
        if on_cpu_without_asking(event, setting.cpu_requested):
            setting.machine.start()
        show_progress(bar, labelled(framework, event) if framework else event)
    return on_event


def labelled(framework: str, event: dict) -> dict:
    if event.get("event") == "phase":
        return dict(event, name=f"{framework}: {event.get('name')}")
    if event.get("event") == "progress":
        return dict(event, phase=f"{framework}: {event.get('phase')}")
    return event


def run_framework(setting: Setting, framework: str, stream: Callable = stream_events) -> FrameworkVerify:
    """One framework, everything in one process, one after another."""
    argv = workload_argv(setting, framework)
    with progress.Bar(framework) as bar:
        result = stream(argv, WORKLOAD_TIMEOUT, watch(setting, bar), workload_env())
    return finish_run(setting, framework, result)


def run_overlapped(setting: Setting, chosen: Sequence[str], cores: Tuple[int, ...]) -> List[FrameworkVerify]:
    """Every framework through the two lanes of verify.schedule: the CPU timed beside the accelerator
    run on `cores`, the next framework imported while the current one runs."""
    jobs = [(name, workload_argv(setting, name) + ["--gate", "--cpu-timing", "elsewhere"]) for name in chosen]
    cpus = ",".join(str(c) for c in cores)

    def cpu_argv(name: str) -> List[str]:
        return workload_argv(setting, name) + ["--only", "cpu-timing", "--cpus", cpus, "--gate"]

    with progress.Bar("verify") as bar:
        watchers = {name: watch(setting, bar, name) for name in chosen}
        finished = Scheduler(jobs, cpu_argv, workload_env(), WORKLOAD_TIMEOUT,
                             lambda name, event: watchers[name](event), cpu_cores=cores).run()
    return [finish_run(setting, f.framework, f.main, f.cpu) for f in finished]


def cpu_timing_events(result: Optional[StreamResult]) -> List[dict]:
    """The CPU-timing run's measurements; where it failed, a note saying so (the speed goes unjudged)."""
    if result is None:
        return []
    kept = [e for e in result.events if e.get("event") in ("timing", "matmul")]
    if not kept:
        error = next((e.get("message") for e in result.events if e.get("event") == "error"), None)
        why = error or (result.stderr_tail.strip().splitlines() or [f"exit status {result.returncode}"])[-1]
        kept.append({"event": "note", "message": f"the CPU timing beside the accelerator run failed: {why}"})
    return kept


def finish_run(setting: Setting, framework: str, result: StreamResult,
               cpu: Optional[StreamResult] = None) -> FrameworkVerify:
    """A workload's events (and its CPU timing's) -> the judged run; the user's mistakes raise."""
    if result.missing:
        raise MacmlError(f"Cannot run the interpreter {setting.python}: {result.stderr_tail}",
                         hint="Pass --python PATH to an existing python.")
    usage = next((e for e in result.events if e.get("event") == "error" and e.get("kind") in ("usage", "data")), None)
    if usage is not None:  # a device the target lacks, or bad data: the user's to fix, before any training
        raise MacmlError(f"{framework}: {usage.get('message')}",
                         hint="Check --device against `macml doctor`, and --data-dir's files.")
    measured = collect(list(result.events) + cpu_timing_events(cpu))
    if result.timed_out:
        measured = dataclasses.replace(measured, error=f"the workload ran past {WORKLOAD_TIMEOUT:g} s and was stopped")
    elif result.returncode not in (0, None) and not measured.error:
        measured = dataclasses.replace(measured, error=f"the workload exited with status {result.returncode}")
    if measured.info is not None:
        measured = dataclasses.replace(measured, info=with_peak(measured.info))
    cpu_only_machine = measured.info is not None and not measured.info.accelerated and not setting.cpu_requested
    no_accel = setting.machine.no_accelerator(framework) if cpu_only_machine else None
    checks = judge(measured, setting.cpu_requested, setting.synthetic, setting.full, no_accel)
    return FrameworkVerify(framework, setting.python, setting.data_text, setting.synthetic, setting.cpu_requested,
                           measured, checks, result.stderr_tail)


def _download_progress():
    shown = {}

    def report(name: str, done: int, total: Optional[int]) -> None:
        step = done * 10 // total if total else done >> 22
        if shown.get(name) != step:
            shown[name] = step
            size = f"{done / 1e6:.1f}/{total / 1e6:.1f} MB" if total else f"{done / 1e6:.1f} MB"
            progress.say(f"downloading {name}: {size}")

    return report


@children_tied(signal.SIGTERM)  # a workload left behind by a killed macml would go on using the GPU
def run_verify(python: Optional[str] = None, framework: Optional[str] = None, device: Optional[str] = None,
               steps: Optional[int] = None, epochs: int = 1, data_dir: Optional[Path] = None,
               synthetic: bool = False, cpu_seconds: float = 3.0) -> VerifyReport:
    if steps is not None:
        require_positive("--steps", steps, MOST_COUNT)
    require_positive("--epochs", epochs, MOST_COUNT)
    require_positive("--cpu-seconds", cpu_seconds, MOST_SECONDS, "number of seconds")
    python = python or sys.executable
    chosen = choose_frameworks(framework, importable_frameworks(python))
    check_device(device, chosen)
    data = None if synthetic else resolve_mnist(data_dir, progress=_download_progress())
    if data is not None:
        validate_mnist(data)
    data_text = "generated digit-like stroke images (--synthetic)" if data is None else data.description
    args = workload_args(data, device, steps, epochs, cpu_seconds)
    cpu_requested = (device or "").lower() == "cpu"
    setting = Setting(python, tuple(args), data_text, synthetic, cpu_requested, data is None or data.full,
                      MachineProbe(python))
    cores = None if cpu_requested else overlap_cores()
    if cores is None:
        runs = [run_framework(setting, name) for name in chosen]
    else:
        runs = run_overlapped(setting, chosen, cores)
    return VerifyReport(tuple(runs))  # every run is shown, accelerated or not
