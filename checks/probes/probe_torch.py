"""PyTorch's own view of its accelerators, as JSON (runs in the target interpreter)."""
from _probe_common import run_probe


def collect():
    import torch

    mps = getattr(torch.backends, "mps", None)
    facts = {
        "version": torch.__version__,
        "mps_built": bool(mps and mps.is_built()),
        "mps_available": bool(mps and mps.is_available()),
        "cuda_version": torch.version.cuda,
        "hip_version": getattr(torch.version, "hip", None),
        "cuda_available": False,
        "device_names": [],
        "capabilities": [],
        "arch_list": [],
        "cudnn_version": None,
    }
    if torch.cuda.is_available():
        count = torch.cuda.device_count()
        facts["cuda_available"] = True
        facts["device_names"] = [torch.cuda.get_device_name(i) for i in range(count)]
        facts["capabilities"] = ["%d.%d" % torch.cuda.get_device_capability(i) for i in range(count)]
        facts["arch_list"] = list(torch.cuda.get_arch_list())
        facts["cudnn_version"] = torch.backends.cudnn.version()
        nccl = torch.cuda.nccl.version() if hasattr(torch.cuda, "nccl") else None
        facts["nccl_version"] = ".".join(str(v) for v in nccl) if isinstance(nccl, tuple) else nccl
    elif torch.version.cuda or getattr(torch.version, "hip", None):
        facts["arch_list"] = list(torch.cuda.get_arch_list())
    return facts


if __name__ == "__main__":
    run_probe("torch", "torch", collect)
