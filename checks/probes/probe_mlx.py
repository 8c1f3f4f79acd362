"""MLX's view of Metal, as JSON (target interpreter)."""
from _probe_common import run_probe


def collect():
    import mlx.core as mx

    return {
        "version": getattr(mx, "__version__", None),
        "metal_available": bool(mx.metal.is_available()),
        "default_device": str(mx.default_device()),
    }


if __name__ == "__main__":
    run_probe("mlx", "mlx", collect)
