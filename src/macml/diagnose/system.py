"""Checks of the machine itself: the probes, the GPU, macOS, Rosetta."""
from __future__ import annotations

import dataclasses
from typing import List, Optional, Sequence, Tuple

from macml import versions
from macml.knowledge.compat import before_mps, mps_min_macos
from macml.diagnose.common import describe_chip, install_recipe, macos_at_least
from macml.facts import GPU, MachineFacts, describe_gpu
from macml.diagnose.findings import Finding, Fix, info, ok, warn, fail
from macml.diagnose.ruled_out import only_ruled_out, ruled_out_finding
from macml.recipes.catalog import Recipe, find_recipe, match
from macml.recipes.conditions import is_virtual_machine, unmet_conditions
from macml.recipes.recommend import lowest_macos, preference

REPORT_FIX = Fix("Attach a snapshot to a bug report so the parser can be fixed.",
                 ("macml doctor --save-snapshot macml-snapshot.json",))


def check_probe_problems(facts: MachineFacts) -> Optional[Finding]:
    """Probe commands that failed, hung or printed something unreadable."""
    if not facts.problems:
        return None
    return warn("System", "Part of this machine could not be read", REPORT_FIX, *facts.problems)


def check_gpu(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """Which GPUs there are, and whether any can accelerate training."""
    details = tuple(describe_gpu(g) for g in facts.gpus) if len(facts.gpus) > 1 else ()
    if facts.is_mac and facts.vm:
        return None  # check_virtual_machine explains what a VM's GPU can do
    if only_ruled_out(facts):
        return ruled_out_finding(facts)
    if not facts.gpus and not facts.gpu_list_known:
        return info("GPU", "GPUs unknown: the evidence holds no GPU listing",
                    Fix("Run `macml doctor` on the machine itself (or attach its `nvidia-smi` / "
                        "`system_profiler SPDisplaysDataType` output) to learn which GPUs it has."))
    if not facts.gpus:
        return warn("GPU", "No GPU found: training will run on the CPU",
                    Fix("Nothing can accelerate training on this machine: CPU builds are all it needs "
                        "(see the recommended recipe). For a GPU, use a machine or cloud instance that has one."))
    usable = [g for g in facts.gpus if g.vendor in (("Apple", "AMD") if facts.is_mac else ("NVIDIA", "AMD"))]
    nvidia = facts.gpus_by_vendor("NVIDIA")
    if facts.is_mac and not usable and nvidia:
        return warn("GPU", f"{nvidia[0].model}: no current ML framework uses an NVIDIA GPU in a Mac",
                    Fix("CUDA's last macOS release was 10.2 and NVIDIA's macOS drivers stop at 10.13 High Sierra; "
                        "PyTorch and TensorFlow ship no macOS CUDA builds. What works: a CPU build (torch 2.2.2 is "
                        "the last Intel-Mac wheel), or PlaidML through Metal for a modest gain; for CUDA, use a "
                        "Linux machine or a cloud GPU.", install_recipe(facts, recipes, "torch", "cpu")), *details)
    if facts.is_mac and not usable:
        return warn("GPU", f"Only an integrated {facts.gpus[0].model}: PyTorch MPS, tensorflow-metal and MLX skip it",
                    Fix("Expect CPU speed from PyTorch: a CPU build is what fits (the plaidml-amd recipe's Mac pin "
                        "needs an AMD GPU).", install_recipe(facts, recipes, "torch", "cpu")), *details)
    if not facts.is_mac and not usable and all(g.vendor == "Apple" for g in facts.gpus):
        system = {"linux": "Linux", "win32": "Windows"}.get(facts.platform, facts.platform)
        return warn("GPU", f"{facts.gpus[0].model} under {system}: no ML framework uses an Apple GPU outside "
                    "macOS", Fix("PyTorch MPS, MLX and tensorflow-metal need macOS's Metal. Boot macOS to train on this "
                                 f"GPU; under {system} a CPU build is what fits.", install_recipe(facts, recipes, "torch", "cpu")),
                    *details)
    best = usable[0] if usable else facts.gpus[0]
    return ok("GPU", describe_gpu(best), *details)


def macos_fit(facts: MachineFacts, recipes: Sequence[Recipe]) -> Tuple[List[Recipe], List[Recipe]]:
    """The Metal recipes for this Mac, split by its macOS: (a row fits, too old for every row). The same
    matching `macml recipes` shows, with the interpreter left out (it can be changed, macOS less so)."""
    hardware = dataclasses.replace(facts, interpreter=None)
    fits, too_old = [], []
    for name in preference(hardware, recipes, fallback=False):
        recipe = find_recipe(name, recipes)
        if recipe.accelerator not in ("mps", "metal"):
            continue
        found = match(recipe, hardware)
        if found.ok:
            fits.append(recipe)
        elif found.shortfalls_about("min_os"):
            too_old.append(recipe)
    return fits, too_old


def check_macos_version(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """macOS too old for a Metal recipe (each recipe's oldest row, as `macml recipes` matches it), or for
    the installed torch's MPS."""
    if not facts.is_mac or is_virtual_machine(facts):
        return None
    label = f"macOS {facts.os.version}" + (f" ({facts.os.build})" if facts.os.build else "")
    if not facts.os.version_tuple:
        return info("System", "macOS version unknown (the evidence gives no readable version)")
    fits, too_old = macos_fit(facts, recipes)
    needs = tuple(f"{r.name} needs macOS {lowest_macos(r)} or newer" for r in too_old)
    upgrade = Fix("Upgrade macOS (System Settings > General > Software Update).")
    torch = facts.package("torch")
    needed = mps_min_macos(torch) if torch and not before_mps(torch) else None  # torch < 1.12 has no MPS to need it
    if needed and macos_at_least(facts, needed) is False:
        older_torch = install_recipe(facts, recipes, "torch", "mps")  # none where no row of the MPS recipe runs here
        fix = Fix(upgrade.text + " Or let macml pick the newest torch whose MPS runs on this macOS:",
                  older_torch) if older_torch else upgrade
        return fail("System", f"{label} is too old for MPS in the installed torch {torch} "
                    f"(it needs macOS {needed[0]}.{needed[1]})", fix, *needs)
    if too_old and not fits:
        return fail("System", f"{label} is too old for every GPU recipe", upgrade, *needs)
    if too_old and too_old[0].rank < fits[0].rank:  # the recipe this Mac should get is out of reach
        return warn("System", f"{label} is too old for " + ", ".join(r.name for r in too_old), upgrade, *needs)
    if fits:
        newer = tuple(line for r in fits for line in _newer_rows_out_of_reach(r, facts))
        held_back = _held_back(fits[0], facts) if facts.cpu.apple_silicon else None  # unknown hardware: not said
        if held_back:  # the recipe this Mac should get works, but only at an older release
            newest, fitting = held_back
            return warn("System", f"{label} is too old for the current {fits[0].name} release: {newest.label} "
                        f"needs macOS {newest.when.min_os}", Fix(upgrade.text + f" Until then {fits[0].name} installs "
                                                                 f"{fitting.label}, which uses the GPU."), *needs)
        return ok("System", f"{label}: new enough for " + ", ".join(r.name for r in fits), *(newer + needs))
    return _too_old_for_an_unknown_gpu(facts, recipes, label, upgrade) or _too_old_for_every_recipe(facts, recipes, label,
                                                                                                    upgrade)


def _too_old_for_an_unknown_gpu(facts: MachineFacts, recipes: Sequence[Recipe], label: str,
                                upgrade: Fix) -> Optional[Finding]:
    """An Intel Mac whose GPUs the evidence does not list: the recipes an AMD GPU would get (the only GPU
    Metal's ML stacks use there) that this macOS already rules out, whichever GPU it turns out to have."""
    if facts.cpu.apple_silicon is not False or facts.gpu_list_known or facts.gpus:
        return None
    with_amd = dataclasses.replace(facts, gpus=(GPU(vendor="AMD", model="AMD GPU (assumed)"),), gpu_list_known=True)
    fits, too_old = macos_fit(with_amd, recipes)
    if not too_old or (fits and fits[0].rank < too_old[0].rank):
        return None
    return warn("System", f"{label} is too old for " + ", ".join(r.name for r in too_old)
                + " (the GPU is unknown: this is what an AMD GPU would get)", upgrade,
                *(f"{r.name} needs macOS {lowest_macos(r)} or newer" for r in too_old))


def _too_old_for_every_recipe(facts: MachineFacts, recipes: Sequence[Recipe], label: str,
                              upgrade: Fix) -> Optional[Finding]:
    """An Intel Mac with an AMD GPU that no recipe at all fits, where some would on a newer macOS (OS X 10.8: PlaidML
    needs 10.10, even the CPU build's wheel 10.9). Not for Intel or NVIDIA GPUs alone: no Mac GPU recipe uses them at
    any macOS, so this check stays silent there, as it does for the Metal recipes."""
    hardware = dataclasses.replace(facts, interpreter=None)
    if not any(g.vendor == "AMD" for g in facts.gpus) or any(match(recipe, hardware).ok for recipe in recipes):
        return None
    needs = []
    for recipe in recipes:
        if all(s.subject == "min_os" for s in match(recipe, hardware).unmet):
            rows = [pin.when.min_os for pin, unmet in _rows_by_reach(recipe, facts) if _only_macos(unmet)]
            needs += [f"{recipe.name} needs macOS {min(rows, key=versions.release)} or newer"] if rows else []
    if not needs:
        return None
    return warn("System", f"{label} is older than every recipe here needs", upgrade, *needs)


def _rows_by_reach(recipe: Recipe, facts: MachineFacts) -> list:
    """(pin, what it lacks here) for each row of a recipe, the interpreter aside (it can change, macOS less so)."""
    hardware = dataclasses.replace(facts, interpreter=None)
    return [(pin, unmet_conditions(pin.when, hardware)) for pin in recipe.pins]


def _only_macos(unmet) -> bool:
    return bool(unmet) and all(s.subject == "min_os" for s in unmet)


def _held_back(recipe: Recipe, facts: MachineFacts):
    """(the recipe's newest row, the row this macOS gets) when only the macOS keeps the newest one out of reach."""
    rows = _rows_by_reach(recipe, facts)
    fitting = next((pin for pin, unmet in rows if not unmet), None)
    return (rows[0][0], fitting) if fitting is not None and _only_macos(rows[0][1]) else None


def _newer_rows_out_of_reach(recipe: Recipe, facts: MachineFacts) -> List[str]:
    """The rows a recipe prefers that only a newer macOS would get ('torch 2.15.0 (macOS 14+) needs macOS 14.0')."""
    lines = []
    for pin, unmet in _rows_by_reach(recipe, facts):
        if not unmet:
            break
        if _only_macos(unmet):
            lines.append(f"{recipe.name}: {pin.label} needs macOS {pin.when.min_os}")
    return lines[:1]


def check_rosetta_python(facts: MachineFacts) -> Optional[Finding]:
    """An x86_64 Python translated by Rosetta 2 on Apple silicon (no MPS, no MLX, slow)."""
    interp = facts.interpreter
    if not facts.is_mac or interp is None:
        return None
    if facts.rosetta is None and interp.machine == "x86_64":
        return info("Python", f"Python {interp.version} is x86_64: if this Mac has Apple silicon, it runs under "
                    "Rosetta 2 (the evidence does not say which chip this is)",
                    Fix("Check the chip: `1` (Apple silicon) means this x86_64 Python runs under Rosetta; then "
                        "`macml doctor` on that Mac says what to do.", ("sysctl -n hw.optional.arm64",)))
    if facts.rosetta is None:
        return None
    if not facts.rosetta:
        if not facts.cpu.apple_silicon:
            return None
        return ok("Python", " ".join(filter(None, ("Python", interp.version))) + " runs natively ("
                  + (interp.machine or "arm64, as the process beside it") + ")")
    return fail(
        "Python",
        f"Python {interp.version}{' at ' + interp.executable if interp.executable else ''} is x86_64, running under Rosetta 2 on {describe_chip(facts)}",
        Fix("Use a native arm64 Python: Homebrew in /opt/homebrew, python.org's universal2 installer, "
            "or Miniforge's arm64 build; then create a fresh venv from it. "
            "PyTorch MPS, tensorflow-metal and MLX ship arm64-only wheels.",
            ("/opt/homebrew/bin/python3 -m venv ~/.venvs/ml",
             "~/.venvs/ml/bin/python -c 'import platform; print(platform.machine())'  # must print arm64")),
        f"interpreter machine: {interp.machine}; hardware: arm64",
    )

