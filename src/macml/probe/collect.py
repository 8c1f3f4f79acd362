"""The edge: probe the live machine into a snapshot, and turn any snapshot into facts.

Live and replayed diagnoses share one path: a live probe records a snapshot, and facts
are always built from a snapshot. So `--from FILE` exercises exactly the code a live run
does, without running anything.
"""
from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from macml.probe import linux as parse_linux, windows as parse_windows
from macml.facts import CPUFacts, GPU, MachineFacts, OSFacts
from macml.probe.frameworks import parse_frameworks, probe_frameworks_raw
from macml.probe.interpreter import parse_interpreter, probe_interpreter_raw, target_python
from macml.probe.runner import CommandResult, LiveCommands, ReplayCommands
from macml.probe.snapshot import FORMAT_VERSION, load_snapshot, result_record

RELEVANT_ENV = (
    "PYTORCH_ENABLE_MPS_FALLBACK",
    "PYTORCH_MPS_HIGH_WATERMARK_RATIO",
    "PYTORCH_MPS_LOW_WATERMARK_RATIO",
    "PLAIDML_DEVICE_IDS",
    "PLAIDML_EXPERIMENTAL",
    "PLAIDML_SETTINGS",
    "KERAS_BACKEND",
    "CUDA_VISIBLE_DEVICES",
    "HIP_VISIBLE_DEVICES",
    "HSA_OVERRIDE_GFX_VERSION",
)

MAC_COMMANDS = (
    ("sw_vers",),
    ("sysctl", "-n", "machdep.cpu.brand_string"),
    ("sysctl", "-n", "hw.memsize"),
    ("sysctl", "-n", "hw.optional.arm64"),
    ("system_profiler", "-json", "SPHardwareDataType", "SPDisplaysDataType"),
)

Builder = Callable[[Callable[[Sequence[str]], CommandResult]], Tuple[OSFacts, CPUFacts, Tuple[GPU, ...], Tuple[str, ...]]]


def current_platform() -> str:
    if sys.platform == "darwin":
        return "darwin"
    if sys.platform.startswith("win"):
        return "win32"
    return "linux"


def _builder(platform: str) -> Tuple[Builder, Sequence[Sequence[str]]]:
    """The OS module's facts builder and the commands worth running up front, concurrently."""
    if platform == "darwin":
        from macml.probe.macos import build_mac_facts

        return build_mac_facts, MAC_COMMANDS
    if platform == "win32":
        return parse_windows.build_windows_facts, parse_windows.COMMANDS
    return parse_linux.build_linux_facts, parse_linux.COMMANDS


def system_fingerprint(run: Callable[[Sequence[str]], CommandResult]) -> Dict[str, str]:
    """The cheap outputs a framework's answer depends on (OS build, GPU driver, GPU list),
    without the parts that change every run (temperatures, memory in use)."""
    sw_vers = run(("sw_vers",)) if current_platform() == "darwin" else None
    smi = run(parse_linux.NVIDIA_SMI)
    driver, cuda, gpus = parse_linux.parse_nvidia_smi(smi.stdout) if smi.ok else (None, None, [])
    rocm = run(parse_linux.ROCM_SMI)
    return {
        "os": sw_vers.stdout if sw_vers else run(parse_linux.UNAME).stdout,
        "nvidia": f"{smi.returncode} {driver} {cuda} {[name for name, _ in gpus]}",
        "rocm": f"{rocm.returncode} {parse_linux.parse_rocm_smi(rocm.stdout) if rocm.ok else ''}",
    }


def relevant_env() -> Dict[str, str]:
    return {k: os.environ[k] for k in RELEVANT_ENV if k in os.environ}


def collect_snapshot(python: Optional[str] = None, timeout: float = 20.0, use_cache: bool = True,
                     frameworks: bool = True) -> Dict[str, Any]:
    """Probe this machine. OS commands run concurrently with the interpreter probe; the
    framework probes start as soon as the interpreter and the fingerprint commands answer.
    frameworks=False skips them (seconds each) for callers that only match recipes."""
    platform = current_platform()
    build, prefetch = _builder(platform)
    commands = LiveCommands(timeout=timeout)
    env = relevant_env()
    python = target_python(python)
    with ThreadPoolExecutor(max_workers=len(prefetch) + 1) as pool:
        interpreter_future = pool.submit(probe_interpreter_raw, python, timeout)
        command_futures = [pool.submit(commands.run, argv) for argv in prefetch]
        interpreter = interpreter_future.result()
        fingerprint = system_fingerprint(commands.run) if use_cache and frameworks else None
        frameworks_future = (pool.submit(probe_frameworks_raw, python, interpreter, timeout, fingerprint, env)
                             if frameworks else None)
        for future in command_futures:
            future.result()
        build(commands.run)  # runs any follow-up command a parser needs (e.g. a fallback form)
        framework_results = frameworks_future.result() if frameworks_future else {}
    return {
        "macml_snapshot": FORMAT_VERSION,
        "platform": platform,
        "commands": {key: result_record(r) for key, r in sorted(commands.recorded.items())},
        "interpreter": interpreter,
        "frameworks": framework_results,
        "env": env,
    }


def facts_from_snapshot(snapshot: Dict[str, Any]) -> MachineFacts:
    """Facts from recorded outputs; never runs a live command."""
    platform = snapshot["platform"]
    build, _ = _builder(platform)
    try:
        os_facts, cpu, gpus, problems = build(ReplayCommands(snapshot.get("commands") or {}).run)
    except Exception as exc:  # a parser bug on strange input must not hide the rest of the report
        os_facts = OSFacts(system=platform, name="unknown", version="")
        cpu, gpus = CPUFacts(brand="unknown", hardware_arch="unknown"), ()
        problems = (f"could not read the system probes: {type(exc).__name__}: {exc}",)
    env = snapshot.get("env") or {}
    return MachineFacts(
        platform=platform,
        os=os_facts,
        cpu=cpu,
        gpus=tuple(gpus),
        interpreter=parse_interpreter(snapshot.get("interpreter") or {}),
        frameworks=parse_frameworks(snapshot.get("frameworks") or {}),
        env={str(k): str(v) for k, v in env.items()},
        problems=tuple(problems),
    )


def collect_facts(python: Optional[str] = None, snapshot_in: Optional[Path] = None, timeout: float = 20.0,
                  use_cache: bool = True, frameworks: bool = True) -> MachineFacts:
    snapshot = load_snapshot(snapshot_in) if snapshot_in else collect_snapshot(python, timeout, use_cache, frameworks)
    return facts_from_snapshot(snapshot)
