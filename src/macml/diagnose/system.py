"""Checks of the machine itself: the probes, the GPU, macOS, Rosetta."""
from __future__ import annotations

from typing import Optional, Sequence

from macml.knowledge.compat import mps_min_macos
from macml.diagnose.common import describe_chip, install_recipe, macos_at_least, reinstall_recipe
from macml.facts import MachineFacts, describe_gpu
from macml.diagnose.findings import Finding, Fix, info, ok, warn, fail
from macml.recipes.catalog import Recipe

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
                    Fix("Expect CPU speed from PyTorch. PlaidML can use Intel iGPUs through Metal, "
                        "but the gain over the CPU is small.", reinstall_recipe(recipes, "plaidml", "metal")), *details)
    best = usable[0] if usable else facts.gpus[0]
    return ok("GPU", describe_gpu(best), *details)


def check_macos_version(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """macOS too old for MPS (14.0), tensorflow-metal (12.1) or MLX (14.0)."""
    if not facts.is_mac:
        return None
    at_14 = macos_at_least(facts, (14, 0))
    label = f"macOS {facts.os.version}" + (f" ({facts.os.build})" if facts.os.build else "")
    if at_14 is None:
        return info("System", "macOS version unknown (sw_vers gave nothing readable)")
    if at_14:
        return ok("System", f"{label}: new enough for PyTorch MPS, tensorflow-metal and MLX")
    upgrade = Fix("Upgrade macOS (System Settings > General > Software Update) to 14 Sonoma or later.")
    missing = ["MLX (needs 14.0; 13.x wheels stop at 0.29.3)",
               "current PyTorch MPS (torch 2.9+ needs 14.0; 2.5-2.8 were the last on macOS 13)"]
    if macos_at_least(facts, (12, 3)) is False:
        missing.append("any PyTorch MPS (needs 12.3)")
    if macos_at_least(facts, (12, 1)) is False:
        missing.append("tensorflow-metal (needs 12.1)")
        return fail("System", f"{label} is too old for GPU training frameworks", upgrade, *missing)
    torch = facts.package("torch")
    needed = mps_min_macos(torch) if torch else None
    if needed and macos_at_least(facts, needed) is False:
        return fail("System", f"{label} is too old for MPS in the installed torch {torch} "
                    f"(it needs macOS {needed[0]}.{needed[1]})",
                    Fix(upgrade.text + " Or let macml pick the newest torch whose MPS runs on this macOS:",
                        install_recipe(facts, recipes, "torch", "mps")), *missing)
    return warn("System", f"{label} is too old for " + " and ".join(m.split(" (")[0] for m in missing[:2]),
                upgrade, *missing)


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
        return ok("Python", f"Python {interp.version} runs natively ({interp.machine})")
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

