"""The edge: probe the live machine into a snapshot, and turn any snapshot into facts.

Live and replayed diagnoses share one path: a live probe records a snapshot, and facts
are always built from a snapshot. So `--from FILE` exercises exactly the code a live run
does, without running anything.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, Mapping, Optional, Sequence

from macml.probe import linux, macos, windows
from macml.errors import MacmlError
from macml.facts import MachineFacts
from macml.probe.infer import infer
from macml.probe.stated import fill_from_statements
from macml.probe.stated_imports import fill_import_failures
from macml.probe import cache as probe_cache
from macml.probe.frameworks import parse_frameworks, probe_frameworks_raw
from macml.probe.interpreter import parse_interpreter, probe_interpreter_raw, target_python
from macml.probe.runner import CommandResult, LiveCommands, ReplayCommands, command_key
from macml.probe.snapshot import FORMAT_VERSION, result_record

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

def current_platform() -> str:
    if sys.platform == "darwin":
        return "darwin"
    if sys.platform.startswith("win"):
        return "win32"
    return "linux"


def os_module(platform: str) -> ModuleType:
    """The OS module for a platform: COMMANDS, FINGERPRINT and build_facts(run) -> SystemFacts."""
    return {"darwin": macos, "win32": windows}.get(platform, linux)


def system_fingerprint(module: ModuleType, run: Callable[[Sequence[str]], CommandResult]) -> Dict[str, str]:
    """The outputs a framework's answer depends on (OS build, GPU driver, GPU list)."""
    return {command_key(argv): f"{result.returncode} {result.stdout}"
            for argv, result in ((argv, run(argv)) for argv in module.FINGERPRINT)}


def relevant_env() -> Dict[str, str]:
    """The variables above, and every NCCL_* one (they change how multi-GPU training talks)."""
    return {k: v for k, v in os.environ.items() if k in RELEVANT_ENV or k.startswith("NCCL_")}


def collect_snapshot(python: Optional[str] = None, timeout: float = 20.0, use_cache: bool = True,
                     frameworks: bool = True) -> Dict[str, Any]:
    """Probe this machine. OS commands run concurrently with the interpreter probe; the
    framework probes start as soon as the interpreter and the fingerprint commands answer.
    frameworks=False skips them (seconds each) for callers that only match recipes. use_cache=False
    (`--refresh`) re-probes every framework and stores the new answers."""
    platform = current_platform()
    module = os_module(platform)
    commands = LiveCommands(timeout=timeout)
    env = relevant_env()
    python = target_python(python)
    with ThreadPoolExecutor(max_workers=len(module.COMMANDS) + 2) as pool:
        interpreter_future = pool.submit(probe_interpreter_raw, python, timeout)
        command_futures = [pool.submit(commands.run, argv) for argv in module.COMMANDS]
        fingerprint = system_fingerprint(module, commands.run) if frameworks else None  # waits for its commands
        cpuinfo_future = (pool.submit(cached_cpu_features, fingerprint, use_cache)
                          if frameworks else None)  # `recipes` needs no CPU flags
        interpreter = interpreter_future.result()
        frameworks_future = (pool.submit(probe_frameworks_raw, python, interpreter, timeout, fingerprint, env,
                                         use_cache) if frameworks else None)
        for future in command_futures:
            future.result()
        module.build_facts(commands.run)  # runs any follow-up command a parser needs (e.g. a fallback form)
        framework_results = frameworks_future.result() if frameworks_future else {}
        cpuinfo = cpuinfo_future.result() if cpuinfo_future else None
    return {
        "macml_snapshot": FORMAT_VERSION,
        "platform": platform,
        "commands": {key: result_record(r) for key, r in sorted(commands.recorded.items())},
        "interpreter": interpreter,
        "frameworks": framework_results,
        "env": env,
        **({"cpuinfo": cpuinfo} if cpuinfo else {}),
    }


def cached_cpu_features(fingerprint: Mapping[str, str], use_cache: bool = True) -> Dict[str, Any]:
    """cpu_features(), reused from the probe cache while this system's fingerprint (OS build, kernel,
    GPU list) is unchanged: py-cpuinfo takes about a second, most of a warm doctor run."""
    key = probe_cache.probe_key("cpuinfo", {}, fingerprint, {}, "")
    cached = probe_cache.load(key) if use_cache else None
    if cached is not None and isinstance(cached.get("features"), dict):
        return dict(cached["features"], cached_at=cached["cached_at"])
    features = cpu_features()
    if "error" not in features:
        probe_cache.store(key, {"ok": True, "features": features})
    return features


def cpu_features() -> Dict[str, Any]:
    """The CPU's features as py-cpuinfo reads them in this process: {"source", "arch", "brand", "flags"}.
    Under Rosetta that is the translated CPU (no AVX before macOS 15): what x86_64 wheels will meet."""
    try:
        import cpuinfo

        info = cpuinfo.get_cpu_info()
    except Exception as exc:  # a library failure leaves the flags unknown, never the doctor broken
        return {"source": "py-cpuinfo", "error": f"{type(exc).__name__}: {exc}"}
    return {"source": f"py-cpuinfo {info.get('cpuinfo_version_string', '')}".strip(),
            "arch": str(info.get("arch_string_raw") or info.get("arch") or ""),
            "brand": str(info.get("brand_raw") or ""),
            "flags": sorted(str(f) for f in info.get("flags") or [])}


def facts_from_snapshot(snapshot: Dict[str, Any]) -> MachineFacts:
    """Facts from recorded outputs; never runs a live command."""
    platform = snapshot["platform"] or "unknown"  # pasted facts that never name the OS
    try:
        system = os_module(platform).build_facts(ReplayCommands(snapshot.get("commands") or {}).run)
    except Exception as exc:  # a parser bug: facts built around it would claim "no GPU" from nothing
        raise MacmlError(f"macml could not read this machine's system probe outputs ({type(exc).__name__}: {exc}).",
                         "This is a bug in macml: please report it with the file written by "
                         "`macml doctor --save-snapshot snap.json`.") from None
    if platform == "unknown" and not system.os.version:  # the Linux module's default name is no evidence
        system = dataclasses.replace(system, os=dataclasses.replace(system.os, system="", name=""))
    env = snapshot.get("env") or {}
    problems = system.problems
    if snapshot.get("evidence") is not None:  # imported from pastes: absent means not pasted, not "not there"
        problems = tuple(p.replace("is not available", "is not in the pasted evidence") for p in problems)
    facts = MachineFacts(
        platform=platform,
        os=system.os,
        cpu=system.cpu,
        gpus=system.gpus,
        interpreter=parse_interpreter(snapshot.get("interpreter") or {}),
        frameworks=parse_frameworks(snapshot.get("frameworks") or {}),
        env={str(k): str(v) for k, v in env.items()},
        problems=problems,
        gpu_links=system.gpu_links,
    )
    statements = snapshot.get("statements") or ()
    return infer(fill_import_failures(fill_from_statements(facts, statements), statements), snapshot)


def collect_facts(python: Optional[str] = None, snapshot_in: Sequence[Path] = (), timeout: float = 20.0,
                  use_cache: bool = True, frameworks: bool = True) -> MachineFacts:
    """snapshot_in: --from files (snapshots or pasted reports); none probes this machine."""
    from macml.probe.inputs import load_inputs

    snapshot = (load_inputs(snapshot_in).snapshot if snapshot_in
                else collect_snapshot(python, timeout, use_cache, frameworks))
    return facts_from_snapshot(snapshot)
