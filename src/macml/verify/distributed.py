"""`macml verify --nproc N|all [--nnodes M --node-rank R --rdzv-endpoint HOST:PORT]`.

Launches checks/workloads/distributed_torch.py through torchrun (torch.distributed.run: its c10d
rendezvous, NCCL on GPUs, gloo on the CPU) in the target interpreter, streams the events of
global rank 0, and judges them with the pure rules of `distributed_result`.
"""
from __future__ import annotations

import os
import signal
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from rich.console import Console

from macml import paths, progress
from macml.report import CHECK_MARK, marked
from macml.errors import MOST_COUNT, MacmlError, require_positive
from macml.probe.nvidia_topology import (NVLINK_STATUS, TOPOLOGY, describe_link, nvlink_peak_gbs,
                                         parse_nvlink_status, parse_topology)
from macml.probe.runner import children_tied, run_command
from macml.verify.distributed_result import DistributedMeasurements, collect, judge
from macml.verify.mnist import resolve_mnist, validate_mnist
from macml.verify.result import Check
from macml.verify.stream import show_progress, stream_events

SCRIPT = "workloads/distributed_torch.py"
TIMEOUT = 1800.0
_GPU_COUNT = "import torch; print(torch.cuda.device_count() if torch.cuda.is_available() else 0)"


@dataclass(frozen=True)
class Launch:
    """What to start on this node: torchrun's options, checked."""

    nproc: int
    nnodes: int = 1
    node_rank: int = 0
    endpoint: Optional[str] = None
    device: str = "cuda"  # "cuda" (NCCL) or "cpu" (gloo)

    def torchrun_args(self) -> List[str]:
        args = ["--nproc-per-node", str(self.nproc)]
        if self.nnodes == 1:
            return args + ["--standalone"]
        # is_host: the node-rank-0 agent serves the c10d store; the others connect to it.
        return args + ["--nnodes", str(self.nnodes), "--node-rank", str(self.node_rank), "--rdzv-backend", "c10d",
                       "--rdzv-endpoint", str(self.endpoint), "--rdzv-id", "macml-verify", "--max-restarts", "0",
                       "--rdzv-conf", f"is_host={1 if self.node_rank == 0 else 0}"]


def nproc_count(text: str) -> Optional[int]:
    """--nproc as given: a positive number of processes, or None for 'all' (one per GPU)."""
    if text.strip().lower() == "all":
        return None
    digits = text.strip()
    count = int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 12 else 0
    if not 0 < count <= MOST_COUNT:
        raise MacmlError(f"--nproc takes a positive number or 'all', not {text!r}.")
    return count


def parse_nproc(text: str, gpus: int) -> int:
    """'all' -> every visible GPU; a positive number as given."""
    count = nproc_count(text)
    if count is None and gpus < 1:
        raise MacmlError("--nproc all starts one process per GPU, and the target sees no GPU.",
                         hint="Pass a number of processes (e.g. --nproc 2) to run on the CPU with gloo.")
    return gpus if count is None else count


def check_nodes(nnodes: int, node_rank: int, endpoint: Optional[str]) -> None:
    if nnodes < 1:
        raise MacmlError("--nnodes must be at least 1.")
    if not 0 <= node_rank < nnodes:
        raise MacmlError(f"--node-rank must be from 0 to {nnodes - 1} with --nnodes {nnodes}.")
    if nnodes > 1 and not (endpoint and ":" in endpoint and endpoint.rsplit(":", 1)[1].isdigit()):
        raise MacmlError("Several nodes need --rdzv-endpoint HOST:PORT (the node-rank-0 machine, a free port).")


def plan_launch(nproc: str, nnodes: int, node_rank: int, endpoint: Optional[str], device: Optional[str],
                gpus: int) -> Launch:
    """Check the options against each other and against the GPUs the target sees."""
    check_nodes(nnodes, node_rank, endpoint)
    wanted = (device or "auto").lower()
    if wanted not in ("auto", "cuda", "cpu"):
        raise MacmlError(f"--device {device} is not supported with --nproc.", hint="Use --device cuda or cpu.")
    if wanted == "cuda" and gpus < 1:
        raise MacmlError("--device cuda, but the target interpreter sees no CUDA GPU.",
                         hint="Run `macml doctor`, or use --device cpu for gloo on the CPU.")
    use_gpu = wanted == "cuda" or (wanted == "auto" and gpus > 0)
    count = parse_nproc(nproc, gpus if use_gpu or wanted == "auto" else 0)
    if use_gpu and count > gpus:
        raise MacmlError(f"--nproc {count} needs {count} GPUs on this node; the target sees {gpus}.",
                         hint="CUDA_VISIBLE_DEVICES may hide some; `macml doctor` lists them.")
    return Launch(count, nnodes, node_rank, endpoint, "cuda" if use_gpu else "cpu")


def visible_gpus(python: str) -> int:
    result = run_command([python, "-c", _GPU_COUNT], timeout=120)
    if result.missing:
        raise MacmlError(f"Cannot run the interpreter {python}.", hint="Pass --python PATH to an existing python.")
    if not result.ok:
        raise MacmlError(f"torch does not import in {python}: {result.last_error_line}",
                         hint="Install PyTorch first (see `macml recipes`).")
    lines = result.stdout.strip().splitlines()
    return int(lines[-1]) if lines and lines[-1].isdigit() else 0


def link_peak() -> Tuple[Optional[float], str]:
    """GPU 0's NVLink bandwidth (one direction) and the slowest GPU-to-GPU path, from nvidia-smi."""
    nvlink = run_command(list(NVLINK_STATUS), timeout=20)
    peak = nvlink_peak_gbs(parse_nvlink_status(nvlink.stdout)) if nvlink.ok else None
    topo = run_command(list(TOPOLOGY), timeout=20)
    topology = parse_topology(topo.stdout) if topo.ok else None
    slowest = topology.slowest if topology else None
    link = "NVLink" if peak else (describe_link(slowest) if slowest else "link")
    return peak, link


@dataclass(frozen=True)
class DistributedReport:
    python: str
    launch: Launch
    command: str
    data: str
    synthetic: bool
    measurements: DistributedMeasurements
    checks: Tuple[Check, ...]
    link: str
    link_peak_gbs: Optional[float]
    stderr_tail: str = ""

    @property
    def passed(self) -> bool:
        return not any(c.status == "fail" for c in self.checks)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def to_json(self) -> Dict[str, Any]:
        m = self.measurements
        return {"verify_distributed": 1, "python": self.python, "launch": asdict(self.launch),
                "command": self.command, "data": self.data, "synthetic": self.synthetic,
                "verdict": "PASS" if self.passed else "FAIL",
                "measurements": dict(asdict(m), scaling_efficiency=m.scaling_efficiency),
                "link": self.link, "link_peak_gbs": self.link_peak_gbs,
                "checks": [asdict(c) for c in self.checks], "stderr_tail": self.stderr_tail}

    def render_text(self, console: Console, verbose: bool) -> None:
        m, launch = self.measurements, self.launch
        nccl = f", NCCL {m.nccl}" if m.nccl else ""
        console.print(f"data-parallel MNIST convnet: {launch.nproc} process(es) x {launch.nnodes} node(s), "
                      f"{m.backend or launch.device}{nccl}", markup=False)
        console.print(f"data: {self.data}", markup=False)
        for bw in m.busbw:
            console.print(f"  all-reduce {bw.bytes / 2**20:g} MiB: {bw.seconds * 1e3:.2f} ms, "
                          f"algbw {bw.algbw_gbs:.2f} GB/s, busbw {bw.busbw_gbs:.2f} GB/s", markup=False)
        for check in self.checks:
            console.print(marked(CHECK_MARK[check.status], f"{check.name}: {check.detail}", " "))
        if verbose or not self.passed:
            console.print("[dim]command:[/] ", end="")
            console.print(self.command, markup=False)
            if self.stderr_tail.strip():
                console.print("[dim]stderr (tail):[/]")
                console.print(self.stderr_tail.rstrip()[-2000:], markup=False, highlight=False)
        style = "bold green" if self.passed else "bold red"
        console.print(f"[{style}]distributed verify: {'PASS' if self.passed else 'FAIL'}[/]")


def workload_argv(python: str, launch: Launch, steps: Optional[int], data_args: List[str]) -> List[str]:
    script = paths.check_script(SCRIPT)
    return [python, "-m", "torch.distributed.run", *launch.torchrun_args(), str(script),
            "--device", launch.device, "--steps", str(steps or 30), *data_args]


@children_tied(signal.SIGTERM)  # torchrun stops its ranks on SIGTERM
def run_distributed(python: Optional[str], nproc: str, nnodes: int = 1, node_rank: int = 0,
                    endpoint: Optional[str] = None, device: Optional[str] = None, steps: Optional[int] = None,
                    data_dir: Optional[Path] = None, synthetic: bool = False) -> DistributedReport:
    python = python or sys.executable
    nproc_count(nproc)  # the options' own mistakes first, before the target is asked anything
    check_nodes(nnodes, node_rank, endpoint)
    if steps is not None:
        require_positive("--steps", steps, MOST_COUNT)
    launch = plan_launch(nproc, nnodes, node_rank, endpoint, device, visible_gpus(python))
    data = None if synthetic else resolve_mnist(data_dir)
    if data is not None:
        validate_mnist(data)
    data_args = ["--synthetic"] if data is None else [
        "--train", str(data.train_images), str(data.train_labels), "--train-slice", data.train_slice]
    argv = workload_argv(python, launch, steps, data_args)
    peak, link = link_peak() if launch.device == "cuda" and launch.nproc > 1 else (None, "link")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with progress.Bar(f"{launch.nproc}x{launch.nnodes} ranks") as bar:
        result = stream_events(argv, TIMEOUT, lambda e: show_progress(bar, e), env)
    if result.missing:
        raise MacmlError(f"Cannot run the interpreter {python}: {result.stderr_tail}")
    measured = collect(result.events)
    if launch.nnodes > 1 and not result.events and not result.timed_out:
        # The rendezvous hands out global ranks in arrival order: the node that got rank 0 reports.
        ok = result.returncode == 0
        checks = (Check("this node", "pass" if ok else "fail",
                        f"its {launch.nproc} rank(s) {'finished' if ok else 'failed'}; the node that got global "
                        "rank 0 prints the report"),)
    else:
        checks = judge(measured, launch.device == "cuda", data is None, peak, link)
        if result.timed_out:
            checks += (Check("workload", "fail", f"stopped after {TIMEOUT:g} s"),)
        elif result.returncode not in (0, None) and all(c.status != "fail" for c in checks):
            checks += (Check("workload", "fail", f"torchrun exited with status {result.returncode}"),)
    data_text = "generated digit-like stroke images (--synthetic)" if data is None else data.description
    return DistributedReport(python, launch, " ".join(argv), data_text, data is None, measured, checks, link, peak,
                             result.stderr_tail)
