"""The result of `macml verify`: one FrameworkVerify per framework run, as text or JSON."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from rich.console import Console
from rich.table import Table

from macml.report import CHECK_MARK, marked
from macml.verify.result import Check, Measurements, Timing, cpu_label, parity_tolerance

JUDGED = ("accelerator", "parity", "accuracy")  # a PASS needs each of them passed


@dataclass(frozen=True)
class FrameworkVerify:
    framework: str
    python: str
    data: str  # what the accuracy run trained on, in words
    synthetic: bool
    cpu_requested: bool
    measurements: Measurements
    checks: Tuple[Check, ...]
    stderr_tail: str = ""

    @property
    def failed(self) -> bool:
        return any(c.status == "fail" for c in self.checks)

    @property
    def not_judged(self) -> Tuple[str, ...]:
        """Checks a PASS needs that this run could not judge (too few steps, --synthetic, no float64 library)."""
        return tuple(c.name for c in self.checks if c.name in JUDGED and c.status == "skip")

    @property
    def passed(self) -> bool:
        return not self.failed and not self.not_judged

    @property
    def verdict(self) -> str:
        return "FAIL" if self.failed else ("PASS" if self.passed else "NOT JUDGED")

    @property
    def found_no_accelerator(self) -> bool:
        """The framework found no accelerator although the CPU was not asked for."""
        info = self.measurements.info
        return info is not None and not info.accelerated and not self.cpu_requested

    @property
    def cpu_only(self) -> bool:
        return self.cpu_requested or self.found_no_accelerator


def _timing_json(t: Optional[Timing]) -> Optional[Dict[str, Any]]:
    if t is None:
        return None
    return dict(dataclasses.asdict(t), images_per_s=round(t.images_per_s, 1), epoch_s=round(t.epoch_s, 3),
                tflops=round(t.tflops, 4))


def run_json(run: FrameworkVerify) -> Dict[str, Any]:
    m = run.measurements
    parity = [dict(dataclasses.asdict(p), tolerance=parity_tolerance(p)[0], tolerance_for=parity_tolerance(p)[1])
              for p in m.parity]
    info = m.info
    share = None
    if info and info.peak_tflops and m.accel:
        share = m.accel.tflops / info.peak_tflops
    return {
        "framework": run.framework,
        "python": run.python,
        "verdict": run.verdict,
        "not_judged": list(run.not_judged),
        "data": run.data,
        "synthetic": run.synthetic,
        "accuracy_claim": not run.synthetic,
        "cpu_only": run.cpu_only,
        "accelerator_found": None if info is None else info.accelerated,
        "device": dataclasses.asdict(info) if info else None,
        "accelerator": _timing_json(m.accel),
        "cpu": _timing_json(m.cpu),
        "speedup": round(m.cpu.median_ms / m.accel.median_ms, 2) if m.cpu and m.accel else None,
        "achieved_share_of_peak": round(share, 4) if share is not None else None,
        "matmul_tflops": {"accelerator": m.accel_matmul_tflops, "cpu": m.cpu_matmul_tflops},
        "parity": parity,
        "accuracy": dataclasses.asdict(m.accuracy) if m.accuracy else None,
        "checks": [dataclasses.asdict(c) for c in run.checks],
        "notes": list(m.notes),
        "error": m.error,
        "timeline": dict(m.timeline),
    }


def _device_line(run: FrameworkVerify) -> str:
    info = run.measurements.info
    if info is None:
        return f"{run.framework}: the workload reported no device"
    backend = f" ({info.backend})" if info.backend and info.backend != info.device else ""
    line = f"{info.framework} {info.version} on [bold]{info.device}[/]{backend}: {info.name}"
    if info.peak_tflops:
        line += f" — peak {info.peak_tflops:g} TFLOPS FP32"
        if info.bandwidth_gbs:
            line += f", {info.bandwidth_gbs:g} GB/s"
    return line


def _timing_table(m: Measurements) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    cols = [t for t in (m.accel, m.cpu) if t is not None]
    for t in cols:
        label = "CPU" if t.device == "cpu" else t.device
        table.add_column(f"{label} ({cpu_label(t)})" if t.device == "cpu" else label, justify="right")
    peak = m.info.peak_tflops if m.info else None

    def tflops(t: Timing) -> str:
        text = f"{t.tflops:.3f}"
        return f"{text} ({t.tflops / peak:.1%} of peak)" if peak and t.device != "cpu" else text

    matmul = {"cpu": m.cpu_matmul_tflops}
    rows = [
        ("warm-up", lambda t: f"{t.warmup_s:.2f} s ({t.warmup_steps} steps)"),
        ("  of it setup", lambda t: f"{t.setup_s or 0:.2f} s"),
        ("steady state", lambda t: f"{t.steps} steps, {t.mode}"),
        ("median ms/step", lambda t: f"{t.median_ms:.2f}"),
        ("images/s", lambda t: f"{t.images_per_s:,.0f}"),
        ("s per 60k epoch", lambda t: f"{t.epoch_s:.2f}"),
        ("achieved TFLOPS", tflops),
        ("matmul TFLOPS", lambda t: _fmt(matmul.get(t.device, m.accel_matmul_tflops))),
    ]
    for name, cell in rows:
        table.add_row(name, *(cell(t) for t in cols))
    return table


def _fmt(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}"


def render_run(run: FrameworkVerify, console: Console, verbose: bool) -> None:
    m = run.measurements
    console.print(_device_line(run))
    if run.found_no_accelerator:
        why = f" ({m.info.detail})" if m.info.detail else ""
        console.print(f"no accelerator found{why}: judging the CPU run", markup=False)
    console.print(f"data: {run.data}", markup=False)
    if m.accel or m.cpu:
        console.print(_timing_table(m))
    if m.accel and m.cpu:
        console.print(f"speedup over the CPU: [bold]{m.cpu.median_ms / m.accel.median_ms:.1f}x[/]")
    if m.cpu and m.cpu.beside_accelerator:
        console.print(f"The CPU was timed in a second process pinned to {m.cpu.cores or 'all but one of the'} cores "
                      "while the accelerator run went on beside it (one core kept free for it).", markup=False)
    if m.accuracy:
        a = m.accuracy
        console.print(f"training: {a.steps} steps on {a.device} in {a.train_s:.2f} s "
                      f"({a.steps * 128 / max(a.train_s, 1e-9):,.0f} images/s over the whole run)")
    for check in run.checks:
        console.print(marked(CHECK_MARK[check.status], f"{check.name}: {check.detail}", " "))
    for note in m.notes:
        console.print(f"   note: {note}", markup=False)
    if run.synthetic:
        console.print("[yellow]--synthetic: generated images; this run makes no accuracy claim.[/]")
    if run.cpu_only:
        how = "--device cpu" if run.cpu_requested else "no accelerator found"
        console.print(f"CPU-only run ({how}): a PASS means the workload trains correctly on the CPU; "
                      "it says nothing about acceleration.")
    if run.stderr_tail and (verbose or not run.passed):
        console.print("[dim]workload stderr (tail):[/]")
        console.print(run.stderr_tail.rstrip()[-2000:], markup=False, highlight=False)
    style = "bold green" if run.passed else "bold red"
    failed = ", ".join(c.name for c in run.checks if c.status == "fail")
    why = f" (failed: {failed})" if failed else (f" (not judged: {', '.join(run.not_judged)})" if run.not_judged else "")
    if run.passed and run.cpu_only:
        why = " (CPU only: the CPU build works; this proves no acceleration)"
    console.print(f"[{style}]{run.framework}: {run.verdict}[/]" + why)


def summary_row(run: FrameworkVerify) -> Dict[str, Any]:
    """One run's line of the side-by-side table: the accelerator's timing, else the CPU's."""
    m = run.measurements
    timing = m.accel or m.cpu
    checks = {c.name: c for c in run.checks}
    worst = max((max(p.logits_rel, p.grad_rel) for p in m.parity), default=None)
    return {
        "framework": run.framework,
        "version": m.info.version if m.info else None,
        "device": timing.device if timing else (m.info.device if m.info else None),
        "ms_per_step": round(timing.median_ms, 3) if timing else None,
        "images_per_s": round(timing.images_per_s, 1) if timing else None,
        "tflops": round(timing.tflops, 4) if timing else None,
        "parity": checks["parity"].status if "parity" in checks else None,
        "parity_worst_rel": worst,
        "accuracy": m.accuracy.accuracy if m.accuracy else None,
        "accuracy_check": checks["accuracy"].status if "accuracy" in checks else None,
        "verdict": run.verdict,
        "cpu_only": run.cpu_only,
    }


def summary_table(runs: Tuple[FrameworkVerify, ...]) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False, title="side by side")
    for name, justify in (("framework", "left"), ("device", "left"), ("ms/step", "right"), ("images/s", "right"),
                          ("TFLOPS", "right"), ("parity", "left"), ("accuracy", "right"), ("verdict", "left")):
        table.add_column(name, justify=justify)
    for run in runs:
        r = summary_row(run)
        parity = "-" if r["parity_worst_rel"] is None else f"{r['parity']} {r['parity_worst_rel']:.1e}"
        accuracy = "-" if r["accuracy"] is None else f"{r['accuracy']:.2%} ({r['accuracy_check']})"
        table.add_row(f"{r['framework']} {r['version'] or ''}".strip(), r["device"] or "-",
                      "-" if r["ms_per_step"] is None else f"{r['ms_per_step']:.1f}",
                      "-" if r["images_per_s"] is None else f"{r['images_per_s']:,.0f}",
                      "-" if r["tflops"] is None else f"{r['tflops']:.3f}", parity, accuracy,
                      r["verdict"] + (" (CPU only)" if r["cpu_only"] and r["verdict"] == "PASS" else ""),
                      style="green" if r["verdict"] == "PASS" else None)
    return table


@dataclass(frozen=True)
class VerifyReport:
    runs: Tuple[FrameworkVerify, ...]

    @property
    def passed(self) -> bool:
        return bool(self.runs) and all(r.passed for r in self.runs)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def to_json(self) -> Dict[str, Any]:
        verdict = "PASS" if self.passed else ("FAIL" if any(r.failed for r in self.runs) else "NOT JUDGED")
        return {"verdict": verdict, "summary": [summary_row(r) for r in self.runs],
                "runs": [run_json(r) for r in self.runs]}

    def render_text(self, console: Console, verbose: bool) -> None:
        for i, run in enumerate(self.runs):
            if i:
                console.print()
            render_run(run, console, verbose)
        if len(self.runs) > 1:
            console.print()
            console.print(summary_table(self.runs))
