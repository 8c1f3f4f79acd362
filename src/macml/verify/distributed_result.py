"""What a data-parallel verify run measured, as frozen values, and the pure rules that judge it.

`collect` turns checks/workloads/distributed_torch.py's events into DistributedMeasurements;
`judge` turns them, with the link's peak bandwidth where known, into Checks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Tuple

from macml.verify.result import Check

# Scaling below this share of N x the 1-process throughput is worth a warning on GPUs; on the CPU
# the ranks share the cores, so the number is shown but not judged.
GPU_SCALING_WARN = 0.7


@dataclass(frozen=True)
class RankInfo:
    rank: int
    local_rank: int
    host: str
    device: str  # "cuda:0", "cpu"
    name: str


@dataclass(frozen=True)
class BusBandwidth:
    bytes: int
    seconds: float
    algbw_gbs: float
    busbw_gbs: float


@dataclass(frozen=True)
class DistributedMeasurements:
    backend: Optional[str] = None  # "nccl", "gloo"
    world_size: Optional[int] = None
    nccl: Optional[str] = None
    ranks: Tuple[RankInfo, ...] = ()
    allreduce_exact: Optional[bool] = None
    allreduce_max_error: Optional[float] = None
    baseline_images_per_s: Optional[float] = None
    images_per_s: Optional[float] = None
    ms_per_step: Optional[float] = None
    param_max_diff: Optional[float] = None
    first_loss: Optional[float] = None
    final_loss: Optional[float] = None
    busbw: Tuple[BusBandwidth, ...] = ()
    done: bool = False
    error: Optional[str] = None

    @property
    def scaling_efficiency(self) -> Optional[float]:
        if not (self.images_per_s and self.baseline_images_per_s and self.world_size):
            return None
        return self.images_per_s / (self.world_size * self.baseline_images_per_s)

    @property
    def on_gpus(self) -> bool:
        return self.backend == "nccl"


def _rank(item: Any) -> Optional[RankInfo]:
    if not isinstance(item, Mapping):
        return None
    try:
        return RankInfo(int(item["rank"]), int(item.get("local_rank", 0)), str(item.get("host", "")),
                        str(item.get("device", "")), str(item.get("name", "")))
    except (KeyError, TypeError, ValueError):
        return None


def collect(events: Iterable[Mapping[str, Any]]) -> DistributedMeasurements:
    found: dict = {}
    busbw = []
    for event in events:
        kind = event.get("event")
        if kind == "ranks":
            ranks = tuple(r for r in map(_rank, event.get("ranks") or []) if r is not None)
            found.update(backend=event.get("backend"), world_size=event.get("world_size"),
                         nccl=event.get("nccl"), ranks=ranks)
        elif kind == "allreduce":
            found.update(allreduce_exact=bool(event.get("exact")), allreduce_max_error=event.get("max_error"))
        elif kind == "baseline":
            found.update(baseline_images_per_s=event.get("images_per_s"))
        elif kind == "data_parallel":
            found.update(images_per_s=event.get("images_per_s"), ms_per_step=event.get("ms_per_step"),
                         param_max_diff=event.get("param_max_diff"), first_loss=event.get("first_loss"),
                         final_loss=event.get("final_loss"))
        elif kind == "busbw":
            busbw.append(BusBandwidth(int(event["bytes"]), float(event["seconds"]), float(event["algbw_gbs"]),
                                      float(event["busbw_gbs"])))
        elif kind == "done":
            found["done"] = True
        elif kind == "error":
            found["error"] = str(event.get("message") or event.get("kind"))
    return DistributedMeasurements(busbw=tuple(busbw), **found)


def _devices(m: DistributedMeasurements, wanted_gpus: bool) -> Check:
    if not m.ranks:
        return Check("devices", "fail", "no rank reported its device")
    devices = [r.device for r in m.ranks]
    where = ", ".join(f"rank {r.rank}: {r.device} ({r.name}) on {r.host}" for r in m.ranks)
    if len(m.ranks) != m.world_size:
        return Check("devices", "fail", f"{len(m.ranks)} of {m.world_size} ranks reported: {where}")
    if wanted_gpus and any(not d.startswith("cuda") for d in devices):
        return Check("devices", "fail", f"a rank is not on a GPU: {where}")
    per_host = {}
    for r in m.ranks:
        per_host.setdefault(r.host, []).append(r.device)
    shared = [h for h, ds in per_host.items() if wanted_gpus and len(set(ds)) != len(ds)]
    if shared:
        return Check("devices", "fail", f"two ranks share one GPU on {', '.join(shared)}: {where}")
    return Check("devices", "pass", where)


def _allreduce(m: DistributedMeasurements) -> Check:
    if m.allreduce_exact is None:
        return Check("all-reduce", "fail", "the all-reduce check did not run")
    if not m.allreduce_exact:
        return Check("all-reduce", "fail", f"wrong sums: max error {m.allreduce_max_error} (must be 0)")
    return Check("all-reduce", "pass", f"exact sums of known values across {m.world_size} ranks")


def _param_sync(m: DistributedMeasurements) -> Check:
    if m.param_max_diff is None:
        return Check("parameters in sync", "fail", "the data-parallel run did not finish")
    if m.param_max_diff != 0.0:
        return Check("parameters in sync", "fail",
                     f"ranks disagree after training: max |difference| {m.param_max_diff:.3g} (must be 0)")
    return Check("parameters in sync", "pass", "identical on every rank after training (max |difference| 0)")


def _loss(m: DistributedMeasurements, synthetic: bool) -> Check:
    if m.final_loss is None or m.first_loss is None:
        return Check("loss", "fail", "no loss reported")
    if not (math.isfinite(m.first_loss) and math.isfinite(m.final_loss)):
        return Check("loss", "fail", f"loss is not finite: {m.first_loss} -> {m.final_loss}")
    text = f"mean over ranks {m.first_loss:.3f} -> {m.final_loss:.3f}"
    if synthetic:
        return Check("loss", "pass", text + " (random labels: only finiteness is judged)")
    if m.final_loss >= m.first_loss:
        return Check("loss", "fail", text + ": training did not lower it")
    return Check("loss", "pass", text)


def _scaling(m: DistributedMeasurements) -> Check:
    eff = m.scaling_efficiency
    if m.world_size == 1:
        return Check("scaling", "skip", "one process: nothing to scale (the DDP wrapper's cost: "
                     f"{m.images_per_s:,.0f} img/s vs {m.baseline_images_per_s:,.0f} without it)"
                     if eff is not None else "one process: nothing to scale")
    if eff is None:
        return Check("scaling", "skip", "no throughput at 1 and N processes")
    text = (f"{m.images_per_s:,.0f} img/s with {m.world_size} processes vs {m.baseline_images_per_s:,.0f} with 1: "
            f"{eff:.0%} of linear")
    if not m.on_gpus:
        return Check("scaling", "skip", text + " (CPU ranks share the cores: not judged)")
    return Check("scaling", "pass" if eff >= GPU_SCALING_WARN else "warn", text)


def _bandwidth(m: DistributedMeasurements, link_peak_gbs: Optional[float], link: str) -> Check:
    if m.world_size == 1:
        return Check("all-reduce bandwidth", "skip", "one rank: nothing crosses a link")
    if not m.busbw:
        return Check("all-reduce bandwidth", "skip", "not measured")
    best = max(m.busbw, key=lambda b: b.busbw_gbs)
    text = f"bus bandwidth {best.busbw_gbs:.2f} GB/s at {best.bytes / 2**20:g} MiB"
    if link_peak_gbs:
        text += f" ({best.busbw_gbs / link_peak_gbs:.0%} of the {link} peak {link_peak_gbs:g} GB/s)"
    return Check("all-reduce bandwidth", "pass", text)


def judge(m: DistributedMeasurements, wanted_gpus: bool, synthetic: bool,
          link_peak_gbs: Optional[float] = None, link: str = "link") -> Tuple[Check, ...]:
    if m.error:
        return (Check("workload", "fail", m.error),)
    checks = (_devices(m, wanted_gpus), _allreduce(m), _param_sync(m), _loss(m, synthetic), _scaling(m),
              _bandwidth(m, link_peak_gbs, link))
    if not m.done:
        checks += (Check("workload", "fail", "the run stopped before its end"),)
    return checks
