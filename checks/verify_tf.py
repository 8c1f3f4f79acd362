"""macml verify workload for TensorFlow/Keras (tensorflow-metal on a Mac, CUDA on Linux).

Runs inside the TARGET interpreter: stdlib + tensorflow only. Same JSON-lines protocol and
arguments as verify_torch.py; devices are reported as "gpu" or "cpu". Written from the
TensorFlow docs; macml's CI has no TensorFlow, so keep it small and plain.
"""
import argparse
import gzip
import json
import struct
import sys
import time

BATCH = 128


def emit(event, **fields):
    fields["event"] = event
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def read_idx(path):
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if len(data) < 4 or data[:3] != b"\x00\x00\x08":
        raise ValueError("%s is not an unsigned-byte IDX file" % path)
    ndim = data[3]
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return dims, data[4 + 4 * ndim:]


def load_split(tf, images, labels, where):
    (n, h, w), pixels = read_idx(images)
    _, labs = read_idx(labels)
    start, _, stop = where.partition(":")
    start, stop = int(start or 0), int(stop or n)
    x = tf.reshape(tf.io.decode_raw(pixels, tf.uint8), (n, h, w, 1))[start:stop]
    y = tf.cast(tf.io.decode_raw(labs, tf.uint8), tf.int32)[start:stop]
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


def time_training(tf, kind, device, make, label, budget_s, max_steps, chunk, warmup_steps=5):
    start = time.perf_counter()
    trainer = make()
    setup_s = time.perf_counter() - start
    batches = trainer.batches(warmup_steps + max_steps)
    for _ in range(warmup_steps):
        loss = trainer.step(next(batches))
    float(loss)  # waits for the device
    warmup_s = time.perf_counter() - start
    per_step, began = [], time.perf_counter()
    while len(per_step) * chunk < max_steps and (time.perf_counter() - began < budget_s or len(per_step) < 3):
        t0 = time.perf_counter()
        for _ in range(chunk):
            loss = trainer.step(next(batches))
        float(loss)
        per_step.append((time.perf_counter() - t0) / chunk)
        emit("progress", phase=label, done=min(1.0, (time.perf_counter() - began) / budget_s))
    per_step.sort()
    emit("timing", device=kind, mode=trainer.mode, warmup_steps=warmup_steps, warmup_s=warmup_s, setup_s=setup_s,
         steps=len(per_step) * chunk, median_ms=1000 * per_step[len(per_step) // 2], min_ms=1000 * per_step[0],
         max_ms=1000 * per_step[-1], threads=tf.config.threading.get_intra_op_parallelism_threads() or None)


def matmul_probe(tf, kind, device, n):
    with tf.device(device):
        a, b = tf.random.normal((n, n)), tf.random.normal((n, n))
        float(tf.reduce_sum(a @ b))
        start, reps = time.perf_counter(), 10
        for _ in range(reps):
            c = a @ b
        float(tf.reduce_sum(c))
    emit("matmul", device=kind, n=n, tflops=2.0 * n ** 3 * reps / (time.perf_counter() - start) / 1e12)


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
    (ref_l, ref_g), (dut_l, dut_g) = out
    finite = all(bool(tf.reduce_all(tf.math.is_finite(t))) for t in [dut_l] + list(dut_g))
    emit("parity", device="gpu", precision=precision, finite=finite, logits_rel=rel(dut_l, ref_l),
         grad_rel=max(rel(d, r) for d, r in zip(dut_g, ref_g)))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="auto")
    ap.add_argument("--train", nargs=2)
    ap.add_argument("--test", nargs=2)
    ap.add_argument("--train-slice", default=":")
    ap.add_argument("--test-slice", default=":")
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--steps", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--cpu-seconds", type=float, default=3.0)
    args = ap.parse_args(argv)
    try:
        import tensorflow as tf
    except ImportError as exc:
        emit("error", kind="missing-framework", message="cannot import tensorflow: %s" % exc)
        return 3
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
        time_training(tf, kind, dev, lambda: Trainer(tf, dev, x, y, 0), "accelerator timing", 1.0, 300, 10)
        matmul_probe(tf, kind, dev, 4096)
        tf32 = not metal and tf.config.experimental.is_tensor_float_32_execution_enabled()
        parity(tf, dev, x, y, "tf32" if tf32 else ("fp32-metal" if metal else "fp32"))
    emit("phase", name="timing on CPU")
    time_training(tf, "cpu", "/CPU:0", lambda: Trainer(tf, "/CPU:0", x, y, 0), "CPU timing", args.cpu_seconds,
                  10000, 1, warmup_steps=2)
    matmul_probe(tf, "cpu", "/CPU:0", 1024)
    if not args.synthetic:
        emit("phase", name="training")
        trainer = Trainer(tf, dev, x, y, 0)
        steps = args.steps or args.epochs * (int(x.shape[0]) // BATCH)
        start = time.perf_counter()
        for i, idx in enumerate(trainer.batches(steps)):
            loss = trainer.step(idx)
            if i % 25 == 0:
                emit("progress", phase="train", done=i / steps)
        final_loss = float(loss)
        train_s = time.perf_counter() - start
        with tf.device(dev):
            logits = trainer.model(tf.cast(test_x, tf.float32) / 255.0, training=False)
            correct = int(tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), test_y), tf.int32)))
        emit("accuracy", device=trainer.param_device(), steps=steps, train_images=int(x.shape[0]),
             test_images=int(test_x.shape[0]), train_s=train_s, accuracy=correct / int(test_x.shape[0]),
             final_loss=final_loss)
    emit("done")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:
        emit("error", kind=type(exc).__name__, message=str(exc))
        sys.exit(1)
