"""What a verify workload measured, as frozen values, and the pure rules that judge it.

`collect` turns a workload's JSON-line events into a Measurements; `judge` turns that
(plus what the user asked for) into Checks. Nothing here touches the machine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Tuple

from macml.verify.machine import NoAccelerator

BATCH = 128
MFLOP_PER_TRAINED_IMAGE = 71.57  # forward 23.98 MFLOP, x~3 for backward (../shared/FACTS.md)
FULL_EPOCH_STEPS = 60000 // BATCH  # 468: projections are for a full 60k-image epoch
FULL_THRESHOLD = 0.97  # after one epoch of the 60k training set
OFFLINE_THRESHOLD = 0.90  # after one epoch of 8k images (measured: 94.1% on CPU)
# Strict FP32 on the accelerator against FP32 on the CPU, one step from the spec's weights: each side is
# ~3e-5 from float64 in the worst gradient tensor (FP64_REF_TOL's measurements), and cuDNN may pick
# another FP32 algorithm (Winograd) than the CPU. Measured on an H200: torch 2.11 3.2e-5, JAX 0.11
# 1.7e-6 (benchmarks/results/h200-verify-*.txt); a real defect is orders of magnitude larger.
STRICT_FP32_TOL = 1e-4
TF32_TOL = 3e-2
METAL_TOL = 1e-4  # Metal/OpenCL kernels sum in other orders than the CPU; not measured here
# One FP32 step against its float64 reference (--device cpu): the conv gradients sum ~86k terms.
# Measured on the 10k split's first batch: torch, TF 2.21/2.15, JAX 3.2e-5; MLX 0.32 (CPU) 2.1e-4;
# on --synthetic's generated batch: torch 5.1e-6, TF 3.7e-6/4.2e-6, JAX 2.1e-6, MLX 6.1e-6, PlaidML 7.7e-6.
FP64_REF_TOL = 3e-4


@dataclass(frozen=True)
class DeviceInfo:
    framework: str
    version: str
    device: str  # "cuda", "mps", "gpu", "cpu", ...
    backend: str  # "cuda", "rocm", "mps", "metal", "cpu"
    name: str
    parameters: Optional[int] = None
    peak_tflops: Optional[float] = None
    bandwidth_gbs: Optional[float] = None
    detail: str = ""  # why no accelerator, as the framework said it

    @property
    def accelerated(self) -> bool:
        return self.device != "cpu"


@dataclass(frozen=True)
class Timing:
    device: str
    mode: str  # "eager", "cuda-graph", "graph"...
    warmup_steps: int
    warmup_s: float
    steps: int
    median_ms: float
    min_ms: float
    max_ms: float
    threads: Optional[int] = None
    setup_s: Optional[float] = None  # inside warmup_s: data to the device, graph capture
    cores: Optional[int] = None  # the cores it was pinned to, where it was
    beside_accelerator: bool = False  # timed in a process of its own while the accelerator run went on

    @property
    def images_per_s(self) -> float:
        return BATCH * 1000.0 / self.median_ms

    @property
    def epoch_s(self) -> float:
        return self.median_ms * FULL_EPOCH_STEPS / 1000.0

    @property
    def tflops(self) -> float:
        return MFLOP_PER_TRAINED_IMAGE * 1e6 * self.images_per_s / 1e12


@dataclass(frozen=True)
class Parity:
    device: str
    precision: str  # "fp32", "tf32" or "fp32-metal"
    finite: bool
    logits_rel: float
    grad_rel: float
    reference: str = "cpu-fp32"  # or the float64 reference on the CPU: "torch-float64", "numpy-float64", "mlx-float64"

    @property
    def against_float64(self) -> bool:
        return self.reference.endswith("-float64")


@dataclass(frozen=True)
class Accuracy:
    device: str  # where the trained parameters lived
    steps: int
    train_images: int
    test_images: int
    train_s: float
    accuracy: float
    final_loss: float


@dataclass(frozen=True)
class Measurements:
    info: Optional[DeviceInfo] = None
    accel: Optional[Timing] = None
    cpu: Optional[Timing] = None
    accel_matmul_tflops: Optional[float] = None
    cpu_matmul_tflops: Optional[float] = None
    accel_matmul_precision: str = "fp32"  # what the accelerator's matmul ran in (JAX on NVIDIA: tf32)
    parity: Tuple[Parity, ...] = ()  # the training precision, and strict FP32 when that differs
    accuracy: Optional[Accuracy] = None
    notes: Tuple[str, ...] = ()
    error: Optional[str] = None
    finished: bool = False
    # When each measurement arrived, in seconds since its workload process started ("device",
    # "timing:cuda", "timing:cpu", ..., "done"): where verify's time goes.
    timeline: Tuple[Tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # "pass", "fail", "warn", "skip"
    detail: str


TIMELINE = ("device", "timing", "matmul", "parity", "accuracy", "done")


def _fields(cls, event: Mapping[str, Any]) -> dict:
    names = cls.__dataclass_fields__
    return {k: v for k, v in event.items() if k in names}


def collect(events: Iterable[Mapping[str, Any]]) -> Measurements:
    """Events from a workload (see checks/workloads/_workload_common.py) -> Measurements."""
    found: dict = {"notes": [], "parity": [], "timeline": {}}
    for ev in events:
        kind = ev.get("event")
        if kind in TIMELINE and isinstance(ev.get("t"), (int, float)):
            key = f"{kind}:{ev['device']}" if kind in ("timing", "matmul", "parity") and ev.get("device") else kind
            found["timeline"].setdefault(key, float(ev["t"]))
        if kind == "device":
            found["info"] = DeviceInfo(**_fields(DeviceInfo, ev))
        elif kind == "timing":
            key = "cpu" if ev.get("device") == "cpu" else "accel"
            found[key] = Timing(**_fields(Timing, ev))
        elif kind == "matmul":
            key = "cpu_matmul_tflops" if ev.get("device") == "cpu" else "accel_matmul_tflops"
            found[key] = float(ev["tflops"])
            if key == "accel_matmul_tflops" and ev.get("precision"):
                found["accel_matmul_precision"] = str(ev["precision"])
        elif kind == "parity":
            found["parity"].append(Parity(**_fields(Parity, ev)))
        elif kind == "accuracy":
            found["accuracy"] = Accuracy(**_fields(Accuracy, ev))
        elif kind == "note":
            found["notes"].append(str(ev.get("message", "")))
        elif kind == "error":
            found["error"] = str(ev.get("message", "the workload failed"))
        elif kind == "done":
            found["finished"] = True
    found["notes"], found["parity"] = tuple(found["notes"]), tuple(found["parity"])
    found["timeline"] = tuple(found["timeline"].items())
    return Measurements(**found)


def parity_tolerance(parity: Parity) -> Tuple[float, str]:
    if parity.against_float64:
        return FP64_REF_TOL, f"FP32 on the CPU against a float64 reference ({parity.reference})"
    if parity.precision == "tf32":
        return TF32_TOL, "TF32 on CUDA (10-bit mantissa in convolutions/matmuls)"
    if parity.precision.startswith("fp32-"):  # "fp32-metal", "fp32-opencl": shader back ends
        return METAL_TOL, f"FP32 on {parity.precision[5:].capitalize()}"
    return STRICT_FP32_TOL, "strict FP32"


def check_accelerator(m: Measurements, cpu_requested: bool, no_accel: Optional[NoAccelerator] = None) -> Check:
    info = m.info
    used = m.accuracy.device if m.accuracy else (m.accel.device if m.accel else (m.cpu.device if m.cpu else None))
    if cpu_requested:
        if used != "cpu":
            return Check("accelerator", "fail", f"asked for the CPU but the parameters lived on {used}")
        return Check("accelerator", "pass", "CPU-only check (--device cpu): parameters and data lived on the CPU")
    if info is None:
        return Check("accelerator", "fail", "the workload reported no device")
    if not info.accelerated:
        return check_cpu_only_machine(info, used, no_accel)
    if used != info.device:
        return Check("accelerator", "fail", f"asked for {info.device} but the parameters lived on {used}")
    return Check("accelerator", "pass", f"parameters and data lived on {info.device} ({info.name})")


def check_cpu_only_machine(info: DeviceInfo, used: Optional[str], no_accel: Optional[NoAccelerator]) -> Check:
    """The framework found no accelerator: a failure where the machine has a GPU it should use,
    else the CPU run is what there is to judge."""
    why = f" ({info.detail})" if info.detail else ""
    if no_accel is None:
        return Check("accelerator", "fail", f"no accelerator found{why}: every number below is the CPU's")
    if no_accel.missed is not None:
        return Check("accelerator", "fail", f"{info.framework} found no accelerator{why}, but this machine has "
                                            f"{no_accel.missed.gpu}. {no_accel.missed.sentence}")
    if used != "cpu":
        return Check("accelerator", "fail", f"no accelerator found, yet the parameters lived on {used}")
    machine = (f"macml doctor finds no GPU here that a build of {info.framework} uses" if no_accel.gpus_known else
               "macml could not list this machine's GPUs")
    return Check("accelerator", "pass", f"no accelerator, and {machine}: parameters and data lived on the CPU "
                                        "(a CPU-only check: it proves the CPU build works, not acceleration)")


def parity_line(p: Parity) -> Tuple[bool, str]:
    tol, precision = parity_tolerance(p)
    worst = max(p.logits_rel, p.grad_rel)
    if not p.finite or not all(math.isfinite(v) for v in (p.logits_rel, p.grad_rel)):
        return False, f"NaN or Inf in the {p.device} logits or gradients ({precision})"
    verdict = "within" if worst <= tol else "OVER"
    return worst <= tol, (f"{precision}: relative error logits {p.logits_rel:.1e}, gradients {p.grad_rel:.1e}, "
                          f"{verdict} tolerance {tol:.0e}")


def check_parity(m: Measurements) -> Check:
    if not m.parity:
        return Check("parity", "skip", "no parity step was measured")
    lines = [parity_line(p) for p in m.parity]
    return Check("parity", "pass" if all(ok for ok, _ in lines) else "fail", "; ".join(t for _, t in lines))


def check_speed(m: Measurements) -> Check:
    if m.accel is None or m.cpu is None:
        return Check("speed", "skip", "no accelerator timing" if m.accel is None else "no CPU timing")
    ratio = m.cpu.median_ms / m.accel.median_ms
    if ratio < 1.0:
        return Check("speed", "warn", (
            f"the {m.accel.device} is {1 / ratio:.1f}x SLOWER than the CPU: this model is small, so each step is "
            "bound by kernel-launch and dispatch overhead, not arithmetic; a weak or power-saving GPU loses to "
            "many CPU cores here. A finding, not a failure: larger models and batches favour the GPU."))
    return Check("speed", "pass", f"{ratio:.1f}x faster than the CPU ({cpu_label(m.cpu)})")


def cpu_label(t: Timing) -> str:
    """'15 threads on 15 cores, beside the accelerator run' / '16 threads'."""
    text = f"{t.threads or '?'} threads" + (f" on {t.cores} cores" if t.cores else "")
    return text + (", beside the accelerator run" if t.beside_accelerator else "")


def check_matmul(m: Measurements) -> Check:
    info, tf = m.info, m.accel_matmul_tflops
    if tf is None:
        return Check("matmul", "skip", "no accelerator matmul probe")
    if m.accel_matmul_precision == "tf32":
        return Check("matmul", "pass", f"{tf:.1f} TFLOPS on a large matmul in TF32, the framework's default here "
                                       "(the FP32 peak does not apply)")
    if info is None or not info.peak_tflops:
        return Check("matmul", "pass", f"{tf:.1f} TFLOPS on a large FP32 matmul (peak unknown)")
    share = tf / info.peak_tflops
    status = "warn" if share < 0.1 or share > 1.0 else "pass"
    hint = ""
    if share < 0.1:
        hint = ": the GPU itself underperforms (power state, thermal, shared?)"
    elif share > 1.0:  # no FP32 matmul beats the FP32 peak: a reduced precision (TF32, FP16) ran
        hint = ": above the FP32 peak, so this matmul did not run in strict FP32 (TF32 or lower precision?)"
    return Check("matmul", status, f"{tf:.1f} TFLOPS on a large matmul = {share:.0%} of the {info.peak_tflops:g} peak{hint}")


def check_accuracy(m: Measurements, synthetic: bool, full: bool) -> Check:
    a = m.accuracy
    if synthetic:
        return Check("accuracy", "skip", "--synthetic: generated images, speed and parity only, NO accuracy claim")
    if a is None:
        return Check("accuracy", "fail", "the training run did not finish")
    if not math.isfinite(a.final_loss):
        return Check("accuracy", "fail", f"training diverged: loss {a.final_loss}")
    threshold = FULL_THRESHOLD if full else OFFLINE_THRESHOLD
    epoch_steps = a.train_images // BATCH
    text = f"{a.accuracy:.2%} on {a.test_images:,} test images after {a.steps} steps ({a.steps / epoch_steps:.2f} epochs)"
    if a.steps < epoch_steps:
        return Check("accuracy", "skip", f"{text}; not judged: under one epoch ({epoch_steps} steps)")
    return Check("accuracy", "pass" if a.accuracy >= threshold else "fail", f"{text}; threshold {threshold:.0%}")


def judge(m: Measurements, cpu_requested: bool, synthetic: bool, full: bool,
          no_accel: Optional[NoAccelerator] = None) -> Tuple[Check, ...]:
    """no_accel: what the doctor's facts say, where the framework found no accelerator and the CPU
    was not asked for (None: not known, and a run without an accelerator fails)."""
    checks = [check_accelerator(m, cpu_requested, no_accel), check_parity(m), check_speed(m), check_matmul(m),
              check_accuracy(m, synthetic, full)]
    if m.error or not m.finished:
        checks.insert(0, Check("workload", "fail", m.error or "the workload stopped before it finished"))
    return tuple(checks)
