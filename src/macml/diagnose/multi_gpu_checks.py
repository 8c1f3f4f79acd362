"""Checks for training on several NVIDIA GPUs: hidden GPUs, mixed models, NCCL settings, links."""
from __future__ import annotations

from typing import List, Optional, Tuple

from macml.facts import MachineFacts, model_named
from macml.diagnose.findings import Finding, Fix, info, ok, warn
from macml.probe.nvidia_topology import describe_link, slowest_link

# NCCL variables that, set to these values, take the fast paths away (NCCL's environment docs).
SLOW_NCCL = {
    "NCCL_P2P_DISABLE": ("1", "GPU-to-GPU peer copies (NVLink, PCIe P2P) are off"),
    "NCCL_SHM_DISABLE": ("1", "shared-memory transport between processes is off"),
    "NCCL_IB_DISABLE": ("1", "InfiniBand/RoCE between nodes is off: sockets instead"),
    "NCCL_NET": ("socket", "the network transport is forced to plain sockets"),
    "NCCL_P2P_LEVEL": ("loc", "peer copies are allowed only within one GPU"),
}
VERIFY_MULTI = "macml verify --nproc all"


def _torch_sees(facts: MachineFacts) -> Optional[int]:
    probe = facts.frameworks.get("torch")
    if probe is None or not probe.ok or not probe.data.get("cuda_available"):
        return None
    return len(probe.data.get("device_names") or [])


def _visible_list(value: str) -> Tuple[str, ...]:
    return tuple(part for part in (p.strip() for p in value.split(",")) if part)


def check_hidden_gpus(facts: MachineFacts) -> Optional[Finding]:
    """NVIDIA GPUs that CUDA_VISIBLE_DEVICES hides from the frameworks."""
    nvidia = facts.gpus_by_vendor("NVIDIA")
    value = facts.env.get("CUDA_VISIBLE_DEVICES")
    if not nvidia or value is None:
        return None
    seen = _torch_sees(facts)
    listed = _visible_list(value)
    visible = seen if seen is not None else len([p for p in listed if p != "-1"])
    # an index names a GPU that exists: '6,7' means at least 8, whatever a framework's own list shows
    present = max([len(nvidia)] + [int(p) + 1 for p in listed if p.isdigit()])
    if visible >= present:
        return None
    source = "torch sees" if seen is not None else "CUDA_VISIBLE_DEVICES names"
    listing = f"nvidia-smi lists {len(nvidia)}" if present == len(nvidia) else f"its index {present - 1} means at least {present}"
    everything = ",".join(str(i) for i in range(present))
    return warn("GPU", f"CUDA_VISIBLE_DEVICES={value!r} hides GPUs: {listing}, {source} {visible}",
                Fix("Show every GPU to the frameworks (or leave it set on purpose to share the machine):",
                    (f"export CUDA_VISIBLE_DEVICES={everything}  # or: unset CUDA_VISIBLE_DEVICES", VERIFY_MULTI)))


def _named_models(facts: MachineFacts, vendor: str) -> List[str]:
    """The models of a vendor's GPUs that name one (not 'AMD GPU 0', which stands for an unknown model)."""
    return [g.model for g in facts.gpus_by_vendor(vendor) if model_named(g.model)]


def check_mixed_gpus(facts: MachineFacts) -> Optional[Finding]:
    """Several NVIDIA (or AMD) GPU models in one machine: data-parallel training runs at the slowest one's pace. Only
    named models count: a GPU whose model is unknown may be any."""
    models = _named_models(facts, "NVIDIA")
    if len(set(models)) < 2:
        return _mixed_amd_gpus(facts)
    kinds = sorted(set(models))
    counts = ", ".join(f"{models.count(k)}x {k}" for k in kinds)
    return warn("GPU", f"Mixed NVIDIA GPUs ({counts}): data-parallel training waits for the slowest each step",
                Fix("Train data-parallel on identical GPUs only, by index:",
                    ("nvidia-smi -L  # find the indices of one model", "export CUDA_VISIBLE_DEVICES=<those indices>")))


def _mixed_amd_gpus(facts: MachineFacts) -> Optional[Finding]:
    """Several AMD GPU models in one machine (often an APU's iGPU beside a Radeon card): ROCm numbers them all,
    so device 0 may be the slower or unsupported one. Reported under mixed_gpus, like NVIDIA's. GPUs whose model
    nothing gave ('AMD GPU 0', 'AMD GPU 1' from rocm-smi's rows) are not different models."""
    models = _named_models(facts, "AMD")
    kinds = sorted(set(models))
    if len(kinds) < 2:
        return None
    counts = ", ".join(f"{models.count(k)}x {k}" for k in kinds)
    return warn("GPU", f"Mixed AMD GPUs ({counts}): ROCm may pick the wrong one as device 0, and data-parallel "
                       "training waits for the slowest",
                Fix("Show ROCm only the GPUs you mean to use, by index:",
                    ("rocm-smi --showproductname  # find the indices of one model",
                     "export HIP_VISIBLE_DEVICES=<those indices>")))


def check_nccl_env(facts: MachineFacts) -> Optional[Finding]:
    """NCCL environment variables that disable peer-to-peer, shared memory or InfiniBand."""
    found = [(name, facts.env[name], why) for name, (value, why) in SLOW_NCCL.items()
             if facts.env.get(name, "").strip().lower() == value]
    if not found:
        return None
    details = tuple(f"{name}={value}: {why}" for name, value, why in found)
    names = " ".join(name for name, _, _ in found)
    return warn("GPU", f"NCCL is told to avoid its fast paths ({', '.join(n for n, _, _ in found)})",
                Fix("Unset them unless a known hardware fault needs them, then measure:",
                    (f"unset {names}", VERIFY_MULTI)), *details)


def check_gpu_links(facts: MachineFacts) -> Optional[Finding]:
    """How the GPUs are linked (nvidia-smi topo -m), and the NCCL that torch carries."""
    if len(facts.gpus_by_vendor("NVIDIA")) < 2 or not facts.gpu_links:
        return None
    probe = facts.frameworks.get("torch")
    nccl = probe.data.get("nccl_version") if probe is not None and probe.ok else None
    carried = f"; torch carries NCCL {nccl}" if nccl else ""
    words = sorted(set(facts.gpu_links.values()))
    pairs = tuple(f"GPU {pair.replace('-', ' - GPU ')}: {word} ({describe_link(word)})"
                  for pair, word in facts.gpu_links.items())
    if all(w.startswith("NV") for w in words):
        return ok("GPU", f"Every GPU pair is linked by NVLink ({', '.join(words)}){carried}", *pairs)
    if any(w.startswith("NV") for w in words):
        return info("GPU", f"Some GPU pairs have NVLink, others go over PCIe{carried}", None, *pairs)
    return info("GPU", f"The GPUs talk over PCIe only (slowest path: {describe_link(slowest_link(words))}): "
                       f"all-reduce bandwidth is bounded by PCIe{carried}",
                Fix("Measure what data-parallel training gets here:", (VERIFY_MULTI,)), *pairs)
