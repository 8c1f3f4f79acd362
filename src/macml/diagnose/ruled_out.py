"""What the doctor says where the evidence rules one GPU vendor out but lists no GPUs.

collect_env's 'Nvidia driver version: No CUDA' (or ollama finding no NVIDIA library) says no NVIDIA driver
answered; it says nothing of an Intel or AMD GPU. So the doctor never says "no GPU here" from it: it names
what was ruled out, where that came from, and what to do if the machine does have an NVIDIA GPU after all.
"""
from __future__ import annotations

from typing import Optional

from macml.diagnose.findings import Finding, Fix, info
from macml.facts import MachineFacts


def only_ruled_out(facts: MachineFacts) -> bool:
    """No GPU listing, but the evidence rules out a vendor's driver (on a Mac, 'No CUDA' is the rule and says nothing)."""
    return not facts.is_mac and not facts.gpus and not facts.gpu_list_known and bool(facts.gpus_ruled_out)


def ruled_out_reason(facts: MachineFacts) -> str:
    """"no NVIDIA driver answered ('Nvidia driver version: No CUDA')"; "" when nothing is ruled out."""
    if not only_ruled_out(facts):
        return ""
    return facts.sources.get("gpus_ruled_out") or "; ".join(f"no {v} driver answered" for v in facts.gpus_ruled_out)


def driver_fix_text(facts: MachineFacts) -> str:
    """What to do if the ruled-out vendor's GPU is there after all (its driver is missing or broken)."""
    if "NVIDIA" not in facts.gpus_ruled_out:
        return ""
    return ("If this machine has an NVIDIA GPU, install its driver (`nvidia-smi` must answer), "
            "then use the pytorch-cuda recipe instead.")


def ruled_out_finding(facts: MachineFacts) -> Optional[Finding]:
    """The GPU finding for a listing that only rules a vendor out: what is ruled out and why; others unknown."""
    reason = ruled_out_reason(facts)
    if not reason:
        return None
    return info("GPU", f"{reason[0].upper()}{reason[1:]}; other GPUs unknown",
                Fix(driver_fix_text(facts) or "Run `macml doctor` on the machine itself to learn which GPUs it has."))


def cpu_reason(facts: MachineFacts) -> str:
    """Why a CPU build runs: "no GPU here" only where the GPU listing is known to be empty."""
    reason = ruled_out_reason(facts)
    if reason:
        return f"{reason}; other GPUs unknown"
    if facts.gpus:
        return "no GPU here that a build uses"
    return "no GPU here" if facts.gpu_list_known else "no usable GPU is known"
