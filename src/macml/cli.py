"""Command line: parse options, call a command that returns a Report, render it once.

Heavy modules are imported inside the commands so `macml doctor` starts fast.
"""
from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Callable, List, Optional

import typer
from rich.text import Text

from macml import errors, frameworks, progress
from macml.errors import MacmlError
from macml.report import Report, console as terminal

app = typer.Typer(
    help="Is my GPU actually being used for machine learning, and if not, what do I install?",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Typer raises click's ClickException for command-line mistakes; newer Typers vendor click, so find
# the class through an exception Typer exports.
CommandLineError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
PythonOpt = typer.Option(None, "--python", help="Target interpreter (default: the one running macml).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON document instead of text.")


def _emit(produce: Callable[[], Report], as_json: bool, verbose: bool = False, children: bool = False) -> None:
    """The one place a command's result is rendered and the process exits. children: the command runs
    children that must not outlive it (install, verify): SIGINT, SIGTERM and SIGHUP stop them, and the
    exit status is 128 + the signal."""
    progress.set_quiet(as_json)
    try:
        with errors.signals_raised() if children else contextlib.nullcontext():
            report = produce()
    except MacmlError as exc:
        _error(exc.message, exc.hint, as_json)
        raise typer.Exit(exc.exit_code)
    except errors.Interrupted as exc:
        _error(f"interrupted by {exc.name}; its child processes were stopped", "", as_json)
        raise typer.Exit(errors.signal_exit_code(exc.signum))
    except KeyboardInterrupt:
        terminal(stderr=True).print("interrupted")
        raise typer.Exit(130)
    if as_json:
        print(json.dumps(report.to_json(), indent=2, sort_keys=False))
    else:
        report.render_text(terminal(), verbose)
    raise typer.Exit(report.exit_code)


def _error(message: str, hint: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"error": message, "hint": hint}, indent=2))
        return
    err = terminal(stderr=True)
    err.print(Text.assemble(Text("error:", style="bold red"), " ", message))
    if hint:
        err.print(hint, markup=False)


@app.command()
def doctor(
    checks: Optional[List[str]] = typer.Argument(None, help="Run only these checks (see --list-checks)."),
    python: Optional[str] = PythonOpt,
    as_json: bool = JsonOpt,
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Show every fact and passing check."),
    list_checks: bool = typer.Option(False, "--list-checks", help="List the checks and exit."),
    save_snapshot: Optional[Path] = typer.Option(None, "--save-snapshot", help="Write raw probe outputs to FILE."),
    from_snapshot: Optional[List[Path]] = typer.Option(
        None, "--from", help="Diagnose a snapshot FILE or pasted report text, not this machine (repeatable)."),
    timeout: float = typer.Option(20.0, "--timeout", help="Seconds allowed for each probe command."),
    refresh: bool = typer.Option(False, "--refresh", help="Re-run every framework probe (ignore the cache)."),
) -> None:
    """Probe this machine and a Python interpreter; explain what blocks GPU acceleration."""
    from macml.diagnose import doctor as doctor_mod

    if list_checks:
        _emit(doctor_mod.list_checks, as_json)
    _emit(
        lambda: doctor_mod.run_doctor(
            only=checks or (),
            python=python or None,
            snapshot_in=from_snapshot or (),
            snapshot_out=save_snapshot,
            timeout=timeout,
            use_cache=not refresh,
        ),
        as_json,
        verbose,
    )


@app.command()
def recipes(
    python: Optional[str] = PythonOpt,
    from_snapshot: Optional[List[Path]] = typer.Option(
        None, "--from", help="Match against a snapshot FILE or pasted report text (repeatable)."),
    as_json: bool = JsonOpt,
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Show each recipe's summary and audit date."),
    audit: bool = typer.Option(False, "--audit", help="Check every row of every recipe against the package indexes "
                                                      "(exit 1 when a row is wrong)."),
) -> None:
    """List the install recipes and whether each fits this machine."""
    from macml.recipes import command as recipes_cmd

    if audit:
        _emit(recipes_cmd.run_audit, as_json, verbose)
    _emit(lambda: recipes_cmd.run_recipes(python=python or None, snapshot_in=from_snapshot or ()),
          as_json, verbose)


snapshot_app = typer.Typer(help="Snapshots: build one from pasted reports.", no_args_is_help=True)
app.add_typer(snapshot_app, name="snapshot")


@snapshot_app.command("import")
def snapshot_import(
    files: List[Path] = typer.Argument(..., help="Text files holding pasted outputs (collect_env, nvidia-smi, ...)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the snapshot to FILE (default: print it)."),
    as_json: bool = JsonOpt,
) -> None:
    """Build a version-1 snapshot from pasted command outputs, recognised by their content."""
    from macml.probe import import_command

    _emit(lambda: import_command.run_import(files, output), as_json)


@app.command()
def install(
    recipe: Optional[str] = typer.Option(None, "--recipe", help="Recipe name (see `macml recipes`)."),
    recipe_file: Optional[Path] = typer.Option(None, "--recipe-file", help="Your own recipe TOML file."),
    python: Optional[str] = PythonOpt,
    venv: Optional[Path] = typer.Option(None, "--venv", help="Create (or reuse) a venv at DIR and install there."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show the plan and stop."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask before installing."),
    use_uv: bool = typer.Option(False, "--uv", help="Plan, install and roll back with `uv pip` (uv on PATH or installed beside macml)."),
    allow_system: bool = typer.Option(
        False, "--allow-system-python", help="Install into a system or externally managed interpreter anyway."
    ),
    offline: bool = typer.Option(False, "--offline", help="Skip the PyPI pre-flight check."),
    no_wait: bool = typer.Option(False, "--no-wait", help="Fail at once if another install into the target runs."),
    from_pypi: bool = typer.Option(False, "--from-pypi", help="Take the recipe's requirements from PyPI (or your pip "
                                   "index) instead of its own index (e.g. where download.pytorch.org is unreachable; "
                                   "on Linux x86_64 PyPI's torch is the CUDA build)."),
    as_json: bool = JsonOpt,
) -> None:
    """Install a recipe into an interpreter or a new venv: plan, pre-flight, apply, roll back on failure."""
    from macml.install import command as install_mod

    _emit(
        lambda: install_mod.run_install(
            recipe=recipe,
            recipe_file=recipe_file,
            python=python or None,
            venv=venv,
            dry_run=dry_run,
            yes=yes,
            use_uv=use_uv,
            allow_system=allow_system,
            offline=offline,
            wait=not no_wait,
            from_pypi=from_pypi,
        ),
        as_json,
        children=True,
    )


@app.command()
def verify(
    python: Optional[str] = PythonOpt,
    framework: Optional[str] = typer.Option(None, "--framework", help=", ".join(f.name for f in frameworks.with_workload()) + "."),
    device: Optional[str] = typer.Option(None, "--device", help="Force a device, as the framework names it: " + "; ".join(
        f"{f.name} {'|'.join(f.devices)}" for f in frameworks.with_workload()) + " (cpu: a CPU-only check)."),
    steps: Optional[int] = typer.Option(None, "--steps", help="Train this many steps instead of whole epochs."),
    epochs: int = typer.Option(1, "--epochs", help="Epochs of training for the accuracy check."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Use MNIST IDX files (gz or raw) from DIR."),
    synthetic: bool = typer.Option(False, "--synthetic", help="Generated digit-like images: speed and parity, no accuracy."),
    cpu_seconds: float = typer.Option(3.0, "--cpu-seconds", help="Most seconds for the CPU timing (it stops sooner, after 60 steps)."),
    nproc: Optional[str] = typer.Option(None, "--nproc", help="Data-parallel over N processes (or 'all' GPUs): "
                                        "DDP with NCCL on GPUs, gloo on the CPU."),
    nnodes: int = typer.Option(1, "--nnodes", help="Machines in the data-parallel job (torchrun c10d rendezvous)."),
    node_rank: int = typer.Option(0, "--node-rank", help="This machine's rank among --nnodes (0 hosts the rendezvous)."),
    rdzv_endpoint: Optional[str] = typer.Option(None, "--rdzv-endpoint", help="HOST:PORT of node rank 0."),
    as_json: bool = JsonOpt,
) -> None:
    """Train the MNIST convnet on the accelerator and the CPU; prove acceleration works."""
    if nproc is not None or nnodes > 1:
        from macml.verify import distributed

        _emit(lambda: distributed.run_distributed(
            python=python or None, nproc=nproc or "1", nnodes=nnodes, node_rank=node_rank,
            endpoint=rdzv_endpoint, device=device, steps=steps, data_dir=data_dir, synthetic=synthetic),
            as_json, children=True)
    from macml.verify import command as verify_mod

    _emit(
        lambda: verify_mod.run_verify(
            python=python or None,
            framework=framework,
            device=device,
            steps=steps,
            epochs=epochs,
            data_dir=data_dir,
            synthetic=synthetic,
            cpu_seconds=cpu_seconds,
        ),
        as_json,
        children=True,
    )


def _safe_streams() -> None:
    """Text from outside may hold characters the terminal cannot encode (a lone surrogate from a
    snapshot, an emoji on a cp1252 console): print a replacement character, never crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure:
            reconfigure(errors="replace")


def main(argv: Optional[List[str]] = None) -> None:
    _safe_streams()
    args = sys.argv[1:] if argv is None else list(argv)
    if "--json" not in args:
        app(args=args, prog_name="macml")
        return
    # With --json even a command-line mistake answers in JSON, as the README promises.
    try:
        code = app(args=args, prog_name="macml", standalone_mode=False)
    except CommandLineError as exc:
        hint = f"See: {exc.ctx.command_path} --help" if getattr(exc, "ctx", None) else ""
        print(json.dumps({"error": exc.format_message(), "hint": hint}, indent=2))
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
