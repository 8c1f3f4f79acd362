"""Checks of the target interpreter as an install target, and of its environment variables."""
from __future__ import annotations

from typing import Optional, Sequence

from macml.diagnose.common import python_cmd
from macml.facts import MachineFacts
from macml.diagnose.findings import Finding, Fix, info, ok, warn
from macml.recipes.catalog import Recipe
from macml.recipes.recommend import recommendation

OS_PYTHON_PREFIXES = ("/usr/bin/", "/System/", "/Library/Developer/CommandLineTools/", "/Applications/Xcode")
# Unified-memory defaults of PyTorch's MPS allocator; the low mark must not exceed the high one.
MPS_DEFAULT_LOW_WATERMARK = 1.4
MPS_HIGH_WATERMARK_MAX = 2.0


def venv_fix(facts: MachineFacts, recipes: Sequence[Recipe], why: str) -> Fix:
    best = recommendation(facts, recipes)
    create = (f"macml install --recipe {best.recipe} --venv ~/.venvs/ml",) if best else ()
    return Fix(f"{why} Install into a virtual environment instead (macml can create it"
               + ("" if best else "; `macml recipes` lists what fits") + "):",
               create + (f"{python_cmd(facts)} -m venv ~/.venvs/ml  # or by hand",))


def check_install_target(facts: MachineFacts, recipes: Sequence[Recipe]) -> Optional[Finding]:
    """Externally managed (PEP 668) or OS-provided Python as the install target."""
    interp = facts.interpreter
    if interp is None or interp.kind == "unknown" and not interp.externally_managed:
        return None  # a pasted report does not say where the interpreter lives
    where = f"Python {interp.version}" + (f" ({interp.kind}) at {interp.executable}" if interp.kind != "unknown" else "")
    if interp.externally_managed:
        return warn("Python", f"{where} is externally managed (PEP 668): pip refuses to install into it",
                    venv_fix(facts, recipes, "Do not force it with --break-system-packages."))
    if interp.kind == "system" and interp.executable.startswith(OS_PYTHON_PREFIXES):
        return warn("Python", f"{where} belongs to the operating system",
                    venv_fix(facts, recipes, "Packages installed there can break OS tools and vanish on OS updates."))
    if interp.kind == "system":
        return info("Python", f"{where} is a base interpreter, not a virtual environment",
                    venv_fix(facts, recipes, "A venv keeps ML packages apart from everything else."))
    return ok("Python", where)


def parse_ratio(text: str) -> Optional[float]:
    try:
        return float(text)
    except ValueError:
        return None


def check_mps_env(facts: MachineFacts) -> Optional[Finding]:
    """PYTORCH_ENABLE_MPS_FALLBACK / MPS watermark variables set in a way that cannot work."""
    env = facts.env
    fallback = env.get("PYTORCH_ENABLE_MPS_FALLBACK")
    high_text = env.get("PYTORCH_MPS_HIGH_WATERMARK_RATIO")
    low_text = env.get("PYTORCH_MPS_LOW_WATERMARK_RATIO")
    if fallback is None and high_text is None and low_text is None:
        return None
    if fallback is not None and fallback.strip() not in ("0", "1"):
        return warn("PyTorch", f"PYTORCH_ENABLE_MPS_FALLBACK={fallback!r} is ignored: PyTorch accepts only 1 or 0",
                    Fix("Export it as 1 in the shell, before Python starts (setting os.environ after "
                        "`import torch` has no effect):", ("export PYTORCH_ENABLE_MPS_FALLBACK=1",)))
    high = parse_ratio(high_text) if high_text is not None else None
    low = parse_ratio(low_text) if low_text is not None else MPS_DEFAULT_LOW_WATERMARK
    if high_text is not None and (high is None or not 0.0 <= high <= MPS_HIGH_WATERMARK_MAX):
        return warn("PyTorch", f"PYTORCH_MPS_HIGH_WATERMARK_RATIO={high_text!r}: the first MPS allocation fails "
                    f"('invalid high watermark ratio'); it must be 0.0 (no limit) to {MPS_HIGH_WATERMARK_MAX}",
                    Fix("Unset it (default 1.7) or pick a value in range:", ("unset PYTORCH_MPS_HIGH_WATERMARK_RATIO",)))
    if high is not None and high > 0 and low is not None and low > high:
        return warn("PyTorch", f"PYTORCH_MPS_HIGH_WATERMARK_RATIO={high_text} is below the low watermark ({low:g}): "
                    "the first MPS allocation fails ('invalid low watermark ratio')",
                    Fix("Lower the low watermark with it:", (f"export PYTORCH_MPS_LOW_WATERMARK_RATIO={high / 2:g}",)))
    if not facts.has_metal_gpu:
        return info("PyTorch", "MPS variables are set, but this machine has no MPS device: they do nothing here")
    return ok("PyTorch", "MPS environment variables are valid")
