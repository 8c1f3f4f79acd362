"""What the doctor's facts say about the machine a verify run found no accelerator on: is there a
GPU the framework should have used (then the run fails, with the fix), or none (then the CPU run
is judged, and its PASS says it proves no acceleration)?

The facts come from the doctor's own probes (OS commands and the interpreter, no framework import),
started only once a workload reports the CPU, so they run beside its CPU training.
"""
from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Tuple

from macml import frameworks
from macml.errors import MacmlError
from macml.facts import MachineFacts, describe_gpu
from macml.recipes.catalog import Recipe, find_recipe, load_all, match
from macml.recipes.recommend import preference

VENDOR = {"cuda": "NVIDIA", "rocm": "AMD"}  # "mps": the Mac's Metal GPU, Apple or AMD


@dataclass(frozen=True)
class MissedGpu:
    """A GPU the hardware offers that some build of the framework uses, and how to get there."""

    gpu: str  # "NVIDIA H200, 141 GiB VRAM, compute 9.0"
    fix: str
    commands: Tuple[str, ...] = ()

    @property
    def sentence(self) -> str:
        commands = "; ".join(self.commands)
        return f"{self.fix} {commands}".strip()


@dataclass(frozen=True)
class NoAccelerator:
    """What the facts say where the framework found no accelerator."""

    missed: Optional[MissedGpu]  # None: no GPU this framework could use
    gpus_known: bool = True  # False: the probes could not list the GPUs


def missed_gpu(framework: str, facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[MissedGpu]:
    kind = facts.accelerator_kind
    known = frameworks.get(framework)
    if kind is None or known is None or kind not in known.gpu_kinds:
        return None
    gpus = [g for g in facts.gpus if g.vendor == VENDOR.get(kind, g.vendor)]
    name = describe_gpu(gpus[0]) if gpus else kind.upper()
    from macml.diagnose.framework_checks import cpu_only_build_fix

    build = cpu_only_build_fix(framework, kind, facts)
    if build is not None:
        return MissedGpu(name, build.text, build.commands)
    recipe = next((n for n in preference(facts) if find_recipe(n, recipes).framework == framework
                   and match(find_recipe(n, recipes), facts).ok), None)
    if recipe is not None:
        return MissedGpu(name, f"Install the {framework} build that uses it:", (f"macml install --recipe {recipe}",))
    return MissedGpu(name, f"`macml doctor` says why {framework} does not use it and what to install.", ("macml doctor",))


def judge_no_accelerator(framework: str, facts: MachineFacts, recipes: Sequence[Recipe]) -> NoAccelerator:
    return NoAccelerator(missed_gpu(framework, facts, recipes), facts.gpu_list_known)


def live_facts(python: str) -> MachineFacts:
    from macml.probe.collect import collect_snapshot, facts_from_snapshot

    return facts_from_snapshot(collect_snapshot(python=python, frameworks=False))


class MachineProbe:
    """The doctor's facts, probed at most once per `macml verify`, in the background from `start()`."""

    def __init__(self, python: str, probe: Callable[[str], MachineFacts] = live_facts):
        self.python, self.probe = python, probe
        self._future: Optional[Future] = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._future is None:
                pool = ThreadPoolExecutor(max_workers=1)
                self._future = pool.submit(self.probe, self.python)
                pool.shutdown(wait=False)

    def no_accelerator(self, framework: str) -> NoAccelerator:
        self.start()
        try:
            facts = self._future.result()
        except (MacmlError, OSError):  # the run is still judged; only the GPU list is unknown
            return NoAccelerator(None, gpus_known=False)
        return judge_no_accelerator(framework, facts, load_all())
