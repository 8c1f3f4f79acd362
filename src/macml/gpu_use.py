"""Does a framework use the GPU this machine offers? One table, read by the doctor and by
`macml install` after it installs a recipe."""
from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple

from macml.facts import MachineFacts


def mac_has_metal_gpu(facts: MachineFacts) -> bool:
    """A GPU PyTorch's MPS, tensorflow-metal or MLX would use (they skip Intel iGPUs)."""
    if not facts.is_mac:
        return False
    return facts.cpu.apple_silicon or any(g.vendor in ("Apple", "AMD") for g in facts.gpus)


def accelerator_kind(facts: MachineFacts) -> Optional[str]:
    """'mps', 'cuda', 'rocm' or None: what the hardware offers a framework."""
    if mac_has_metal_gpu(facts):
        return "mps"
    if facts.gpus_by_vendor("NVIDIA"):
        return "cuda"
    if not facts.is_mac and facts.gpus_by_vendor("AMD"):
        return "rocm"
    return None


# Each: (uses the GPU? None when the build was never meant to, label for a sentence).
def _torch(data: dict, kind: str) -> Tuple[Optional[bool], str]:
    if kind == "mps":
        if not data.get("mps_built"):
            return None, ""  # check_torch_build explains a build without MPS
        return bool(data.get("mps_available")), "MPS"
    if not data.get("cuda_version") and not data.get("hip_version"):
        return None, ""
    names = ", ".join(data.get("device_names") or [])
    return bool(data.get("cuda_available")), f"{'ROCm' if kind == 'rocm' else 'CUDA'} ({names})" if names else kind.upper()


def _tensorflow(data: dict, kind: str) -> Tuple[Optional[bool], str]:
    return bool(data.get("gpus")), ", ".join(data.get("gpus") or []) or "GPU"


def _mlx(data: dict, kind: str) -> Tuple[Optional[bool], str]:
    return (bool(data.get("metal_available")), "Metal") if kind == "mps" else (None, "")


def _jax(data: dict, kind: str) -> Tuple[Optional[bool], str]:
    platforms = set(data.get("platforms") or [])
    return bool(platforms - {"cpu"}), ", ".join(data.get("devices") or [])


def _plaidml(data: dict, kind: str) -> Tuple[Optional[bool], str]:
    devices = [d for d in data.get("devices") or [] if not d.startswith("llvm_cpu")]
    return bool(devices), ", ".join(devices)


SEES_GPU: Dict[str, Callable[[dict, str], Tuple[Optional[bool], str]]] = {
    "torch": _torch, "tensorflow": _tensorflow, "mlx": _mlx, "jax": _jax, "plaidml": _plaidml,
}
