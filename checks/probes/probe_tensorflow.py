"""TensorFlow's view of its GPUs and of the Metal plugin, as JSON (target interpreter)."""
import os
import sys

from _probe_common import run_probe


def metal_plugin_path():
    for entry in sys.path:
        candidate = os.path.join(entry, "tensorflow-plugins", "libmetal_plugin.dylib")
        if os.path.exists(candidate):
            return candidate
    return None


def collect():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    plugin = metal_plugin_path()
    import tensorflow as tf  # a Metal plugin that fails to load raises here: the probe reports the error

    gpus = [d.name for d in tf.config.list_physical_devices("GPU")]
    return {
        "version": tf.__version__,
        "gpus": gpus,
        "built_with_cuda": bool(tf.test.is_built_with_cuda()),
        "metal_plugin_present": plugin is not None,
        "metal_plugin_loaded": bool(plugin and gpus),
    }


if __name__ == "__main__":
    run_probe("tensorflow", "tensorflow", collect)
