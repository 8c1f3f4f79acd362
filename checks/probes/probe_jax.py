"""JAX's devices, as JSON (target interpreter)."""
from _probe_common import run_probe


def collect():
    import jax

    devices = jax.devices()
    return {
        "version": jax.__version__,
        "backend": jax.default_backend(),
        "devices": [str(d) for d in devices],
        "platforms": sorted({d.platform for d in devices}),
    }


if __name__ == "__main__":
    run_probe("jax", "jax", collect)
