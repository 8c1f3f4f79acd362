"""macml verify workload for TensorFlow/Keras (Keras 3 from TF 2.16, Keras 2 before; CUDA on
Linux, tensorflow-metal on a Mac, or the CPU): the spec'd mnist_cnn.

Runs inside the TARGET interpreter: stdlib + tensorflow (numpy comes with it). The order
and the events are _workload_common.run_mnist's. Weights are in Keras' layout already.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _model_spec import ADADELTA, BATCH, DROPOUT  # noqa: E402
from _workload_common import UsageError, main, numpy_batch, numpy_weights  # noqa: E402

ACCEL_NAMES = ("gpu", "cuda", "mps", "metal")  # what --device may call TensorFlow's GPU


def build_model(keras):
    layers = keras.layers
    return keras.Sequential([
        keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"), layers.Conv2D(64, 3, activation="relu"),
        layers.MaxPooling2D(2), layers.Dropout(DROPOUT[0]), layers.Flatten(), layers.Dense(128, activation="relu"),
        layers.Dropout(DROPOUT[1]), layers.Dense(10),
    ])  # Keras' defaults are the spec's: Glorot-uniform kernels, zero biases


def variable_device(variable):
    """Where a trainable variable lives: a Keras 3 keras.Variable wraps the tf.Variable in .value
    (a property); Keras 2 hands out the tf.Variable itself (whose .value is a method)."""
    inner = getattr(variable, "value", None)
    return (variable if inner is None or callable(inner) else inner).device


def kind_of(device_string):
    text = (device_string or "").upper()
    return "gpu" if ":GPU:" in text else ("cpu" if ":CPU:" in text else "unknown")


class Trainer:
    """Model, Adadelta and the data on one device; step(idx) is one tf.function call."""

    def __init__(self, tf, device, x_u8, y, weights):
        import numpy as np
        self.tf, self.device = tf, device
        tf.random.set_seed(0)
        with tf.device(device):
            self.x = tf.identity(tf.cast(x_u8, tf.float32) / 255.0)
            self.y = tf.identity(y)
            self.model = build_model(tf.keras)
            self.model.set_weights(numpy_weights(np, weights))
            self.opt = tf.keras.optimizers.Adadelta(**ADADELTA)
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

        @tf.function
        def step(idx):
            with tf.GradientTape() as tape:
                loss = loss_fn(tf.gather(self.y, idx), self.model(tf.gather(self.x, idx), training=True))
            grads = tape.gradient(loss, self.model.trainable_variables)
            self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
            return loss
        self._step = step
        self.mode = "tf.function"

    def step(self, idx):
        with self.tf.device(self.device):
            return self._step(idx)

    def batches(self, count):
        n = int(self.x.shape[0])
        per_epoch, done = n // BATCH, 0
        while done < count:
            with self.tf.device(self.device):
                perm = self.tf.random.shuffle(self.tf.range(n))
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch

    def placement(self):
        param, batch = variable_device(self.model.trainable_variables[0]), self.x.device
        kind = kind_of(param) if kind_of(param) == kind_of(batch) else "mixed"
        return kind, "parameters on %s, batches on %s" % (param, batch)


class TensorFlowBackend:
    name = "tensorflow"

    def preload(self):
        import tensorflow  # noqa: F401  (no device is touched yet)

    def describe(self, args):
        import tensorflow as tf
        self.tf = tf
        self.metal = sys.platform == "darwin"
        gpus = tf.config.list_physical_devices("GPU")
        wanted = (args.device or "auto").lower()
        if wanted not in ("auto", "cpu") + ACCEL_NAMES:
            raise UsageError("TensorFlow has no device '%s'; use gpu or cpu" % args.device)
        if wanted in ACCEL_NAMES and not gpus:
            raise UsageError("TensorFlow %s sees no GPU on this machine (%s)" % (tf.__version__, self._why_not()))
        use_gpu = bool(gpus) and wanted != "cpu"
        self.devices = {"cpu": "/CPU:0", "gpu": "/GPU:0"}
        self.threads = tf.config.threading.get_intra_op_parallelism_threads() or None
        name = "CPU"
        if use_gpu:
            details = tf.config.experimental.get_device_details(gpus[0]) or {}
            name = details.get("device_name") or ("Apple GPU (Metal)" if self.metal else "GPU")
        import keras  # the Keras tf.keras is: 3.x from TF 2.16, 2.x before
        return {"framework": "tensorflow", "version": "%s (Keras %s)" % (tf.__version__, keras.__version__),
                "device": "gpu" if use_gpu else "cpu", "name": name, "detail": "" if gpus else self._why_not(),
                "backend": "cpu" if not use_gpu else ("metal" if self.metal else "cuda")}

    def _why_not(self):
        return "tf.config.list_physical_devices('GPU') is empty" + (
            " (is tensorflow-metal installed and matching?)" if self.metal else "")

    def load(self, pixels, labels, n):
        tf = self.tf
        x = tf.reshape(tf.io.decode_raw(pixels, tf.uint8), (n, 28, 28, 1))
        return x, tf.cast(tf.io.decode_raw(labels, tf.uint8), tf.int32)

    def trainer(self, device, x, y, weights):
        return Trainer(self.tf, self.devices[device], x, y, weights)

    def sync(self, device, value):
        if value is not None:
            float(self.tf.reshape(value, [-1])[0])  # waits for the device
        elif hasattr(self.tf.test.experimental, "sync_devices"):
            self.tf.test.experimental.sync_devices()

    def loss_value(self, loss):
        return float(loss)

    def matmul(self, device, n):
        tf = self.tf
        with tf.device(self.devices[device]):
            a, b = tf.random.normal((n, n)), tf.random.normal((n, n))

        def run():  # strict FP32, the rate the peak is quoted in (TF's default on NVIDIA is TF32)
            saved = tf.config.experimental.tensor_float_32_execution_enabled()
            tf.config.experimental.enable_tensor_float_32_execution(False)
            try:
                with tf.device(self.devices[device]):
                    return tf.matmul(a, b)
            finally:
                tf.config.experimental.enable_tensor_float_32_execution(saved)
        return run

    def precisions(self, device):
        """TF32 is on by default for CUDA (Ampere and later): parity in it and in strict FP32."""
        if device == "cpu":
            return ["fp32"]
        if self.metal:
            return ["fp32-metal"]
        tf32 = self.tf.config.experimental.tensor_float_32_execution_enabled()
        return ["tf32", "fp32"] if tf32 else ["fp32"]

    def reference_ops(self):
        from _reference import numpy_ops
        return numpy_ops()  # TensorFlow depends on NumPy

    def step_outputs(self, device, weights, batch, precision):
        import numpy as np
        tf = self.tf
        x, y = numpy_batch(np, batch)
        saved = tf.config.experimental.tensor_float_32_execution_enabled()
        tf.config.experimental.enable_tensor_float_32_execution(precision == "tf32")
        try:
            with tf.device(self.devices[device]):
                model = build_model(tf.keras)
                model.set_weights(numpy_weights(np, weights))
                loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
                xb = tf.identity(tf.constant(x))
                with tf.GradientTape() as tape:
                    logits = model(xb, training=False)
                    loss = loss_fn(tf.constant(y), logits)
                grads = tape.gradient(loss, model.trainable_variables)
            return logits.numpy(), float(loss), [g.numpy() for g in grads]
        finally:
            tf.config.experimental.enable_tensor_float_32_execution(saved)

    def evaluate(self, trainer, x, y):
        tf = self.tf
        correct = 0
        with tf.device(trainer.device):
            for i in range(0, int(x.shape[0]), 1000):
                logits = trainer.model(tf.cast(x[i:i + 1000], tf.float32) / 255.0, training=False)
                hits = tf.equal(tf.argmax(logits, 1, output_type=tf.int32), y[i:i + 1000])
                correct += int(tf.reduce_sum(tf.cast(hits, tf.int32)))
        return correct


if __name__ == "__main__":
    main(TensorFlowBackend())
