"""MLX's view of its GPU back ends (Metal on a Mac, CUDA with mlx[cuda] on Linux), as JSON (target interpreter)."""
from _probe_common import run_probe

# The wheels that carry MLX's back ends (mlx[cuda] pulls one of the CUDA ones, mlx[cpu] mlx-cpu).
BACKEND_DISTS = ("mlx-metal", "mlx-cuda", "mlx-cuda-12", "mlx-cuda-13", "mlx-cpu")


def installed_backends():
    """Back-end wheels installed beside mlx, or None where importlib.metadata is missing (Python < 3.8)."""
    try:
        from importlib import metadata
    except ImportError:
        return None
    found = []
    for dist in BACKEND_DISTS:
        try:
            metadata.version(dist)
            found.append(dist)
        except metadata.PackageNotFoundError:
            pass
    return found


def collect():
    import mlx.core as mx

    cuda = getattr(mx, "cuda", None)
    backends = installed_backends()
    return {
        "version": getattr(mx, "__version__", None),
        "metal_available": bool(mx.metal.is_available()),
        "cuda_available": bool(cuda.is_available()) if cuda is not None and hasattr(cuda, "is_available") else None,
        "cuda_built": None if backends is None else any(d.startswith("mlx-cuda") for d in backends),
        "backend_dists": backends,
        "default_device": str(mx.default_device()),
    }


if __name__ == "__main__":
    run_probe("mlx", "mlx", collect)
