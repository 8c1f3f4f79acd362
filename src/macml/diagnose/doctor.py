"""`macml doctor`: probe (or replay), run the checks, return a report."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterable, Optional, Sequence, Tuple

from rich.console import Console
from rich.text import Text

from macml import __version__, frameworks
from macml.diagnose import all_checks, describe, run_checks
from macml.recipes.catalog import load_all
from macml.errors import MOST_SECONDS, MacmlError, require_positive
from macml.facts import MachineFacts, describe_gpu, format_bytes, to_jsonable
from macml.diagnose.findings import LEVELS, Finding
from macml.report import bold, marked
from macml.probe import cache as probe_cache
from macml.probe.collect import collect_snapshot, facts_from_snapshot
from macml.probe.inputs import evidence_lines, load_inputs
from macml.probe.snapshot import save_snapshot

JSON_SCHEMA = 1
NOTABLE_FLAGS = ("avx", "avx2", "fma", "avx512f", "amx", "neon", "sme")
AREA_ORDER = ("System", "GPU", "Python") + tuple(f.area for f in frameworks.FRAMEWORKS) + ("Not applicable",)


def worst(levels: Iterable[str]) -> str:
    return max(levels, key=LEVELS.index, default="ok")


@dataclass(frozen=True)
class ChecksList:
    checks: Tuple[Tuple[str, str], ...]
    exit_code: int = 0

    def to_json(self) -> Dict[str, Any]:
        return {"checks": [{"name": n, "description": d} for n, d in self.checks]}

    def render_text(self, console: Console, verbose: bool) -> None:
        width = max(len(n) for n, _ in self.checks)
        for name, description in self.checks:
            console.print(f"{name.ljust(width)}  {description}", markup=False)


def list_checks() -> ChecksList:
    return ChecksList(tuple((name, describe(fn)) for name, fn in all_checks().items()))


@dataclass(frozen=True)
class DoctorReport:
    facts: MachineFacts
    findings: Tuple[Finding, ...]
    source: str  # "live" or the --from file names
    snapshot_saved: Optional[str] = None
    evidence: Tuple[str, ...] = ()  # what an imported paste held: "collect_env (issue.txt lines 3-40)"
    notes: Tuple[str, ...] = ()  # how the run went where it differs from the usual (shown with -v)

    @property
    def exit_code(self) -> int:
        return 1 if any(f.level == "fail" for f in self.findings) else 0

    def counts(self) -> Dict[str, int]:
        return {level: sum(f.level == level for f in self.findings) for level in LEVELS}

    def to_json(self) -> Dict[str, Any]:
        return {
            "macml_doctor": JSON_SCHEMA,
            "macml_version": __version__,
            "source": self.source,
            "evidence": list(self.evidence),
            "facts": to_jsonable(self.facts),
            "findings": [to_jsonable(f) for f in self.findings],
            "summary": self.counts(),
            "notes": list(self.notes),
            "exit_code": self.exit_code,
        }

    def render_text(self, console: Console, verbose: bool) -> None:
        render_doctor(self, console, verbose)


def header_line(facts: MachineFacts) -> str:
    chip = facts.cpu.chip.name if facts.cpu.chip else (facts.cpu.brand or "CPU unknown")
    interp = facts.interpreter
    python = (f"Python {interp.version or '?'} ({interp.machine or '?'}, {interp.kind})" if interp
              else "no interpreter facts")
    system = f"{facts.os.name} {facts.os.version or '(version unknown)'}" if facts.os.name else "OS unknown"
    return f"{system} · {chip} · {python}"


def render_finding(console: Console, finding: Finding, verbose: bool) -> None:
    console.print(marked(finding.level, finding.message, indent="    "), highlight=False)
    if verbose or finding.level in ("warn", "fail"):
        for line in finding.details:
            console.print(f"        {line}", markup=False, highlight=False)
    if finding.fix and (verbose or finding.level != "ok"):
        console.print(f"        fix: {finding.fix.text}", markup=False, highlight=False)
        for command in finding.fix.commands:
            console.print(f"          $ {command}", markup=False, highlight=False)


def render_doctor(report: DoctorReport, console: Console, verbose: bool) -> None:
    console.print(Text.assemble(bold("macml doctor"), f" · {header_line(report.facts)}"), highlight=False)
    if report.source != "live":
        kind = "pasted reports" if report.evidence else "snapshot"
        console.print(f"(replayed from {kind} {report.source})", markup=False)
    if report.evidence:
        console.print(f"Evidence read: {'; '.join(report.evidence)}. What these do not show is unknown.", markup=False)
    areas = sorted({f.area for f in report.findings}, key=lambda a: AREA_ORDER.index(a) if a in AREA_ORDER else 99)
    for area in areas:
        items = [f for f in report.findings if f.area == area]
        console.print(marked(worst(f.level for f in items), area), highlight=False)
        for finding in items:
            render_finding(console, finding, verbose)
    if verbose:
        render_facts(console, report.facts)
    counts = report.counts()
    summary = f"{counts['fail']} failing, {counts['warn']} warning(s), {counts['ok']} ok"
    verdict = marked("fail", "problems found") if report.exit_code else marked("ok", "no failing checks")
    console.print(Text.assemble("\n", verdict, f" · {summary}"), highlight=False)
    if report.snapshot_saved:
        console.print(f"Snapshot written to {report.snapshot_saved}", markup=False)
    for note in report.notes if verbose else ():
        console.print(f"note: {note}", markup=False)


def fact_lines(facts: MachineFacts) -> Iterable[Tuple[str, str]]:
    os_facts, cpu, interp = facts.os, facts.cpu, facts.interpreter
    yield "OS", " ".join(p for p in (os_facts.name, os_facts.version, os_facts.build and f"({os_facts.build})") if p)
    cores = f"{cpu.cores} cores" if cpu.cores else ""
    if cpu.performance_cores:
        cores += f" ({cpu.performance_cores}P + {cpu.efficiency_cores or 0}E)"
    memory = format_bytes(cpu.memory_bytes) if cpu.memory_bytes else ""
    silicon = {True: "Apple silicon", False: "Intel Mac", None: "Apple silicon unknown"}[cpu.apple_silicon]
    yield "CPU", ", ".join(p for p in (cpu.chip.name if cpu.chip else cpu.brand, cpu.hardware_arch,
                                       silicon if facts.is_mac else "", cores, memory) if p)
    if cpu.flags is not None:
        yield "CPU flags", " ".join(f for f in cpu.flags if f in NOTABLE_FLAGS) or "none of " + ", ".join(NOTABLE_FLAGS)
    for index, gpu in enumerate(facts.gpus):
        peak = f", {gpu.peak_fp32_tflops:g} TFLOPS FP32" if gpu.peak_fp32_tflops else ""
        yield f"GPU {index}", describe_gpu(gpu) + peak
    if not facts.gpus:
        yield "GPU", "none" if facts.gpu_list_known else "unknown (no GPU listing in the evidence)"
    yield "VM", {True: f"yes ({facts.hypervisor or 'hypervisor unknown'})", False: "no", None: "unknown"}[facts.vm]
    yield "eGPU", {True: "yes", False: "no", None: "unknown"}[facts.egpu]
    if interp:
        yield "Python", (f"{interp.executable or 'path unknown'} ({interp.version or '?'}, "
                         f"{interp.implementation or '?'}, {interp.machine or '?'}, {interp.kind})")
        if interp.known:
            yield "pip", interp.pip_version or "not installed"
    for name, probe in facts.frameworks.items():
        data = {k: v for k, v in probe.data.items() if v not in (None, [], "")}
        yield name, (", ".join(f"{k}={v}" for k, v in data.items()) if probe.ok else f"error: {probe.error}")
    for key, value in facts.env.items():
        yield "env", f"{key}={value}"
    for fact, source in facts.sources.items():
        yield "from", f"{fact} <- {source}"


def render_facts(console: Console, facts: MachineFacts) -> None:
    console.print("\n[bold]Facts[/]")
    for label, text in fact_lines(facts):
        console.print(f"  {label:<10} {text}", markup=False, highlight=False)


def validate_names(only: Sequence[str]) -> None:
    known = all_checks()
    by_lower = {name.lower(): name for name in known}
    for name in only:
        if name not in known:
            exact = by_lower.get(name.lower())  # only the capitals differ: that one, nothing else
            close = [exact] if exact else [by_lower[n] for n in difflib.get_close_matches(name.lower(), list(by_lower), n=3)]
            hint = f"Did you mean: {', '.join(close)}?" if close else "See: macml doctor --list-checks"
            raise MacmlError(f"Unknown check {name!r}.", hint)


def not_applicable(only: Sequence[str], findings: Sequence[Finding]) -> Tuple[Finding, ...]:
    """A check asked for by name that had nothing to say: say so, rather than print nothing."""
    checks, answered = all_checks(), {f.check for f in findings}
    return tuple(Finding("Not applicable", "info", f"{name} does not apply to this machine", check=name,
                         details=(f"It looks for: {describe(checks[name])}",))
                 for name in dict.fromkeys(only) if name not in answered)


def run_doctor(only: Sequence[str] = (), python: Optional[str] = None, snapshot_in: Sequence[Path] = (),
               snapshot_out: Optional[Path] = None, timeout: float = 20.0, use_cache: bool = True) -> DoctorReport:
    """snapshot_in: --from files, macml snapshots or pasted reports (several merge)."""
    validate_names(only)
    require_positive("--timeout", timeout, MOST_SECONDS, "number of seconds")
    unusable = None if snapshot_in else probe_cache.unusable()
    snapshot = (load_inputs(snapshot_in).snapshot if snapshot_in
                else collect_snapshot(python, timeout, use_cache and unusable is None))
    if snapshot_out:
        save_snapshot(snapshot, snapshot_out)
    facts = facts_from_snapshot(snapshot)
    source = ", ".join(str(p) for p in snapshot_in) if snapshot_in else "live"
    findings = tuple(run_checks(facts, load_all(), only))
    notes = (f"probe cache not used: {unusable} (MACML_CACHE_DIR sets where it lives); every framework was "
             "probed afresh",) if unusable else ()
    return DoctorReport(facts, findings + not_applicable(only, findings), source,
                        str(snapshot_out) if snapshot_out else None, tuple(evidence_lines(snapshot)), notes)
