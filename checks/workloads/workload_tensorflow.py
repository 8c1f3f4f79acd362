"""macml verify workload for TensorFlow/Keras (tensorflow-metal on a Mac, CUDA on Linux).

Runs inside the TARGET interpreter: stdlib + tensorflow only. Same JSON-lines protocol and
arguments as verify_torch.py; devices are reported as "gpu" or "cpu". Written from the
TensorFlow docs; macml's CI has no TensorFlow, so keep it small and plain.
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _workload_common import (  # noqa: E402
    BATCH, emit, emit_matmul, emit_parity, idx_payload, missing_framework, parse_slice, run_workload,
    time_trainer, train_for, training_steps, workload_parser)


def load_split(tf, images, labels, where):
    (n, h, w), pixels = idx_payload(images)
    _, labs = idx_payload(labels)
    part = parse_slice(where, n)
    x = tf.reshape(tf.io.decode_raw(pixels, tf.uint8), (n, h, w, 1))[part]
    y = tf.cast(tf.io.decode_raw(labs, tf.uint8), tf.int32)[part]
    return x, y


def build_model(keras):
    layers = keras.layers
    return keras.Sequential([
        keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"), layers.Conv2D(64, 3, activation="relu"),
        layers.MaxPooling2D(2), layers.Dropout(0.25), layers.Flatten(), layers.Dense(128, activation="relu"),
        layers.Dropout(0.5), layers.Dense(10),
    ])


class Trainer:
    """Model, Adadelta(lr=1.0) and the data on one device; step(idx) is one tf.function call."""

    def __init__(self, tf, device, x_u8, y, seed):
        self.tf, self.device = tf, device
        tf.keras.utils.set_random_seed(seed)
        with tf.device(device):
            self.x = tf.identity(tf.cast(x_u8, tf.float32) / 255.0)
            self.y = tf.identity(y)
            self.model = build_model(tf.keras)
            self.opt = tf.keras.optimizers.Adadelta(learning_rate=1.0)  # Keras' default is 0.001
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

    def param_device(self):
        return "gpu" if "GPU" in self.model.trainable_variables[0].device.upper() else "cpu"


def wait_for(loss):
    if loss is not None:
        float(loss)  # waits for the device


def time_training(tf, kind, make, label, budget_s, max_steps, chunk, warmup_steps=5):
    _, fields = time_trainer(make, wait_for, label, budget_s, max_steps, chunk, warmup_steps)
    fields["threads"] = tf.config.threading.get_intra_op_parallelism_threads() or None
    emit("timing", device=kind, **fields)


def matmul_probe(tf, kind, device, n):
    with tf.device(device):
        a, b = tf.random.normal((n, n)), tf.random.normal((n, n))
        float(tf.reduce_sum(a @ b))
        start, reps = time.perf_counter(), 10
        for _ in range(reps):
            c = a @ b
        float(tf.reduce_sum(c))
    emit_matmul(kind, n, reps, time.perf_counter() - start)


def parity(tf, gpu, x_u8, y, precision):
    """One forward+backward from identical weights, dropout off, CPU vs GPU."""
    x = tf.cast(x_u8[:BATCH], tf.float32) / 255.0
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    out, weights = [], None
    for device in ("/CPU:0", gpu):
        with tf.device(device):
            tf.keras.utils.set_random_seed(1)
            model = build_model(tf.keras)
            if weights is None:
                weights = model.get_weights()
            model.set_weights(weights)
            with tf.GradientTape() as tape:
                logits = model(tf.identity(x), training=False)
                loss = loss_fn(y[:BATCH], logits)
            out.append((logits, tape.gradient(loss, model.trainable_variables)))

    def rel(a, b):
        a, b = tf.cast(a, tf.float64), tf.cast(b, tf.float64)
        return float(tf.norm(a - b) / tf.maximum(tf.norm(b), 1e-30))
    ref, (dut_l, dut_g) = out
    finite = all(bool(tf.reduce_all(tf.math.is_finite(t))) for t in [dut_l] + list(dut_g))
    emit_parity("gpu", precision, finite, rel, (dut_l, dut_g), ref)


def main(argv=None):
    args = workload_parser().parse_args(argv)
    try:
        import tensorflow as tf
    except ImportError as exc:
        return missing_framework("tensorflow", exc)
    gpus = tf.config.list_physical_devices("GPU")
    use_gpu = bool(gpus) and args.device != "cpu"
    kind, dev = ("gpu", "/GPU:0") if use_gpu else ("cpu", "/CPU:0")
    metal = sys.platform == "darwin"
    name = "CPU"
    if use_gpu:
        details = tf.config.experimental.get_device_details(gpus[0]) or {}
        name = details.get("device_name") or ("Apple GPU (Metal)" if metal else "GPU")
    detail = "" if gpus else "tf.config.list_physical_devices('GPU') is empty" + (
        " (is tensorflow-metal installed and matching?)" if metal else "")
    emit("device", framework="tensorflow", version=tf.__version__, device=kind, name=name, detail=detail,
         backend="cpu" if not use_gpu else ("metal" if metal else "cuda"),
         parameters=int(build_model(tf.keras).count_params()))
    if args.synthetic:
        x = tf.random.uniform((8192, 28, 28, 1), 0, 256, dtype=tf.int32, seed=0)
        x, y = tf.cast(x, tf.uint8), tf.random.uniform((8192,), 0, 10, dtype=tf.int32, seed=1)
    else:
        x, y = load_split(tf, args.train[0], args.train[1], args.train_slice)
        test_x, test_y = load_split(tf, args.test[0], args.test[1], args.test_slice)
    if use_gpu:
        emit("phase", name="warm-up and timing on the GPU")
        time_training(tf, kind, lambda: Trainer(tf, dev, x, y, 0), "accelerator timing", 1.0, 300, 10)
        matmul_probe(tf, kind, dev, 4096)
        tf32 = not metal and tf.config.experimental.is_tensor_float_32_execution_enabled()
        parity(tf, dev, x, y, "tf32" if tf32 else ("fp32-metal" if metal else "fp32"))
    emit("phase", name="timing on CPU")
    time_training(tf, "cpu", lambda: Trainer(tf, "/CPU:0", x, y, 0), "CPU timing", args.cpu_seconds, 10000, 1,
                  warmup_steps=2)
    matmul_probe(tf, "cpu", "/CPU:0", 1024)
    if not args.synthetic:
        emit("phase", name="training")
        trainer = Trainer(tf, dev, x, y, 0)
        steps = training_steps(args, int(x.shape[0]))
        final_loss, train_s = train_for(trainer, steps, float)
        with tf.device(dev):
            logits = trainer.model(tf.cast(test_x, tf.float32) / 255.0, training=False)
            correct = int(tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), test_y), tf.int32)))
        emit("accuracy", device=trainer.param_device(), steps=steps, train_images=int(x.shape[0]),
             test_images=int(test_x.shape[0]), train_s=train_s, accuracy=correct / int(test_x.shape[0]),
             final_loss=final_loss)
    emit("done")
    return 0


if __name__ == "__main__":
    run_workload(main)
