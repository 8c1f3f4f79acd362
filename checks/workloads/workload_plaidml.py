"""macml verify workload for PlaidML-Keras: the Keras 2.2.4 mnist_cnn on a PlaidML device.

Runs inside the TARGET interpreter (Python 3.6+): stdlib + numpy + keras 2.2.4 +
plaidml(-keras) 0.7.0, no macml imports. Same JSON-line events as checks/verify_torch.py.
The device is the one PlaidML's settings select (see `plaidml-setup`, or macml's
plaidml_setup.configure), or --device ID. The CPU baseline is PlaidML's own llvm_cpu.0,
reached in the same process through K.clear_session(); parity compares one step against
an independent float64 NumPy implementation of the same network.
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # loaded by file path (tests), not run as a script
    sys.path.insert(0, HERE)
from _workload_common import (  # noqa: E402
    BATCH, emit, emit_matmul, emit_parity, idx_payload, in_twentieths, missing_framework, parse_slice,
    run_workload, step_stats, time_chunks, training_steps, workload_parser)

CPU_DEVICE = "llvm_cpu.0"


def read_idx(path, np):
    dims, payload = idx_payload(path)
    return np.frombuffer(payload, dtype=np.uint8).reshape(dims)


def load_split(files, where, np):
    x, y = read_idx(files[0], np), read_idx(files[1], np)
    part = parse_slice(where, x.shape[0])
    return x[part].reshape(-1, 28, 28, 1).astype(np.float32) / 255.0, y[part].astype(np.int64)


def device_kind(device_id):
    return "cpu" if device_id.startswith("llvm_cpu") or "cpu" in device_id else "gpu"


def device_backend(device_id):
    if device_kind(device_id) == "cpu":
        return "cpu"
    return "metal" if device_id.startswith("metal_") else "opencl"


def select_device(device_id):
    """Point PlaidML at one device before keras opens one (experimental config: all ids)."""
    os.environ["PLAIDML_DEVICE_IDS"] = device_id
    os.environ["PLAIDML_EXPERIMENTAL"] = "1"


def configured_device(plaidml):
    """The (id, description) PlaidML will open; its own error says what is wrong."""
    dev = plaidml.devices(plaidml.Context(), limit=1)[0]
    return dev.id.decode(), dev.description.decode()


def build_model(keras):
    from keras.layers import Activation, Conv2D, Dense, Dropout, Flatten, MaxPooling2D
    model = keras.models.Sequential([
        Conv2D(32, (3, 3), activation="relu", input_shape=(28, 28, 1)),
        Conv2D(64, (3, 3), activation="relu"), MaxPooling2D((2, 2)), Dropout(0.25), Flatten(),
        Dense(128, activation="relu"), Dropout(0.5), Dense(10), Activation("softmax"),
    ])
    model.compile(loss="categorical_crossentropy", optimizer=keras.optimizers.Adadelta(lr=1.0),
                  metrics=["accuracy"])
    return model


def batches(np, n_images, count, seed=0):
    """`count` shuffled index batches, reshuffled every epoch; last partial batch dropped."""
    rng, per_epoch, done = np.random.RandomState(seed), n_images // BATCH, 0
    while done < count:
        perm = rng.permutation(n_images)
        for b in range(min(per_epoch, count - done)):
            yield perm[b * BATCH:(b + 1) * BATCH]
        done += per_epoch


def time_training(np, keras, x, onehot, kind, label, budget_s, max_steps, warmup_steps, min_steps=3):
    """Warm-up (PlaidML compiles the step) timed apart, then the median step.

    Keras 2.2.4's train_on_batch copies the batch in and the loss out every step; there is
    no way around that host sync in this API, so it is part of what is measured."""
    model = build_model(keras)
    order = batches(np, x.shape[0], warmup_steps + max_steps)
    start = time.perf_counter()
    for _ in range(warmup_steps):
        idx = next(order)
        model.train_on_batch(x[idx], onehot[idx])
    warmup_s = time.perf_counter() - start

    def one_step():
        idx = next(order)
        return model.train_on_batch(x[idx], onehot[idx])[0]
    per_step, loss = time_chunks(one_step, 1, label, budget_s, max_steps, min_steps)
    fields = step_stats(per_step, 1)
    fields.update(final_loss=float("nan") if loss is None else float(loss), threads=None)
    emit("timing", device=kind, mode="keras-train_on_batch", warmup_steps=warmup_steps, warmup_s=warmup_s, **fields)


def matmul_probe(np, K, kind, n, budget_s=0.5):
    rng = np.random.RandomState(0)
    a = K.variable(rng.randn(n, n).astype(np.float32))
    b = K.variable(rng.randn(n, n).astype(np.float32))
    run = K.function([], [K.sum(K.dot(a, b))])
    run([])  # compile
    reps, start = 0, time.perf_counter()
    while reps < 3 or (time.perf_counter() - start < budget_s and reps < 50):
        run([])
        reps += 1
    emit_matmul(kind, n, reps, time.perf_counter() - start)


def windows(np, x):
    """(N,H,W,C) -> (N,H-2,W-2,3,3,C) views of every 3x3 patch (stride 1, valid)."""
    n, h, w, c = x.shape
    s = x.strides
    return np.lib.stride_tricks.as_strided(x, (n, h - 2, w - 2, 3, 3, c), (s[0], s[1], s[2], s[1], s[2], s[3]))


def reference_step(np, x, onehot, weights):
    """Float64 forward + backward of the network with dropout off: (logits, [grads])."""
    w1, b1, w2, b2, w3, b3, w4, b4 = [np.asarray(w, dtype=np.float64) for w in weights]
    x = x.astype(np.float64)
    n = x.shape[0]
    p1 = windows(np, x)
    z1 = np.tensordot(p1, w1, axes=3) + b1
    a1 = np.maximum(z1, 0)
    p2 = windows(np, np.ascontiguousarray(a1))
    z2 = np.tensordot(p2, w2, axes=3) + b2
    a2 = np.maximum(z2, 0)
    blocks = a2.reshape(n, 12, 2, 12, 2, 64)
    pooled = blocks.max(axis=(2, 4))
    flat = pooled.reshape(n, -1)
    z3 = flat.dot(w3) + b3
    h = np.maximum(z3, 0)
    logits = h.dot(w4) + b4
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    d_logits = (probs - onehot) / n
    g_w4, g_b4 = h.T.dot(d_logits), d_logits.sum(0)
    d_z3 = d_logits.dot(w4.T) * (z3 > 0)
    g_w3, g_b3 = flat.T.dot(d_z3), d_z3.sum(0)
    d_pooled = d_z3.dot(w3.T).reshape(n, 12, 1, 12, 1, 64)
    winner = blocks == pooled.reshape(n, 12, 1, 12, 1, 64)
    d_z2 = (winner * d_pooled).reshape(a2.shape) * (z2 > 0)
    g_w2, g_b2 = np.tensordot(p2, d_z2, axes=([0, 1, 2], [0, 1, 2])), d_z2.sum((0, 1, 2))
    d_p2 = np.tensordot(d_z2, w2, axes=([3], [3]))  # (n,24,24,3,3,32)
    d_a1 = np.zeros_like(a1)
    for i in range(3):
        for j in range(3):
            d_a1[:, i:i + 24, j:j + 24, :] += d_p2[:, :, :, i, j, :]
    d_z1 = d_a1 * (z1 > 0)
    g_w1, g_b1 = np.tensordot(p1, d_z1, axes=([0, 1, 2], [0, 1, 2])), d_z1.sum((0, 1, 2))
    return logits, [g_w1, g_b1, g_w2, g_b2, g_w3, g_b3, g_w4, g_b4]


def rel_error(np, a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def parity_weights(np, shapes_like):
    """Fixed, seeded weights: the comparison is then the same on every run. Keras' own
    initialisers are unseeded, and an unlucky draw puts a pre-activation within float32
    rounding of a ReLU kink, which shows up as a spurious gradient error (seen: 1e-3).
    Keras starts biases at 0, so blank MNIST borders give pre-activations of exactly 0,
    where ReLU has no derivative (PlaidML uses a non-zero one): non-zero biases avoid it."""
    rng = np.random.RandomState(1)
    weights = []
    for w in shapes_like:
        if w.ndim > 1:  # Glorot-uniform, as Keras would draw it
            fan_in, fan_out = int(np.prod(w.shape[:-1])), int(w.shape[-1] * (np.prod(w.shape[:-2]) if w.ndim == 4 else 1))
            limit = np.sqrt(6.0 / (fan_in + fan_out))
            weights.append(rng.uniform(-limit, limit, w.shape).astype(w.dtype))
        else:
            weights.append((rng.uniform(0.01, 0.1, w.shape) * rng.choice([-1, 1], w.shape)).astype(w.dtype))
    return weights


def parity(np, keras, x, onehot, kind, backend):
    """One forward+backward from identical weights, dropout off: PlaidML vs float64 NumPy."""
    K = keras.backend
    model = build_model(keras)
    model.set_weights(parity_weights(np, model.get_weights()))
    logits_t = model.layers[-1].input
    target = K.placeholder(shape=(None, 10))
    loss = K.mean(K.categorical_crossentropy(target, model.output))
    grads = K.gradients(loss, model.trainable_weights)
    run = K.function([model.input, target, K.learning_phase()], [logits_t] + list(grads))
    out = run([x[:BATCH], onehot[:BATCH], 0])
    ref_logits, ref_grads = reference_step(np, x[:BATCH], onehot[:BATCH], model.get_weights())
    finite = all(bool(np.isfinite(o).all()) for o in out)
    precision = {"metal": "fp32-metal", "opencl": "fp32-opencl"}.get(backend, "fp32")
    emit_parity(kind, precision, finite, lambda a, b: rel_error(np, a, b), (out[0], out[1:]), (ref_logits, ref_grads),
                reference="numpy-float64")


def accuracy(np, keras, kind, x, onehot, test_x, test_y, steps):
    model = build_model(keras)
    start, loss = time.perf_counter(), float("nan")
    for idx in in_twentieths(batches(np, x.shape[0], steps), steps):
        loss = model.train_on_batch(x[idx], onehot[idx])[0]
    train_s = time.perf_counter() - start
    predicted = model.predict(test_x, batch_size=1000).argmax(axis=1)
    emit("accuracy", device=kind, steps=steps, images=steps * BATCH, train_images=x.shape[0],
         test_images=test_x.shape[0], train_s=train_s, accuracy=float((predicted == test_y).mean()),
         final_loss=float(loss))


def cpu_baseline(np, keras, x, onehot, device_id, seconds, min_steps):
    """Time PlaidML's own CPU device in this process, then switch back."""
    K = keras.backend
    select_device(CPU_DEVICE)
    K.clear_session()
    time_training(np, keras, x, onehot, "cpu", "CPU timing", seconds, 10000, 1, min_steps)
    matmul_probe(np, K, "cpu", 512)
    select_device(device_id)
    K.clear_session()


def parse_args(argv):
    ap = workload_parser(device_help="a PlaidML device id, or auto (its settings)")
    ap.add_argument("--accel-seconds", type=float, default=2.0)
    ap.add_argument("--min-steps", type=int, default=3, help="timed steps at least, whatever the time budget")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    os.environ["KERAS_BACKEND"] = "plaidml.keras.backend"
    if args.device not in ("auto", "gpu", "cpu"):
        select_device(args.device)
    elif args.device == "cpu":
        select_device(CPU_DEVICE)
    try:
        import numpy as np
        import plaidml
        plaidml.quiet()
        device_id, description = configured_device(plaidml)
        import keras
    except ImportError as exc:
        return missing_framework("plaidml-keras", exc)
    kind, backend = device_kind(device_id), device_backend(device_id)
    detail = "" if kind != "cpu" else "PlaidML is set to %s (its CPU device); run plaidml set-up to pick a GPU" % device_id
    emit("device", framework="plaidml", version=str(plaidml.__version__), device=kind, backend=backend,
         name=description, device_id=device_id, keras_version=keras.__version__, detail=detail,
         parameters=1199882)
    if args.synthetic:
        rng = np.random.RandomState(0)
        x, y = rng.rand(2048, 28, 28, 1).astype(np.float32), rng.randint(0, 10, 2048)
    else:
        x, y = load_split(args.train, args.train_slice, np)
        test_x, test_y = load_split(args.test, args.test_slice, np)
    onehot = np.eye(10, dtype=np.float32)[y]
    emit("data", train_images=x.shape[0], test_images=0 if args.synthetic else test_x.shape[0])
    if kind != "cpu":
        emit("phase", name="warm-up and timing on %s" % device_id)
        time_training(np, keras, x, onehot, kind, "accelerator timing", args.accel_seconds, 300, 3, args.min_steps)
        matmul_probe(np, keras.backend, kind, 2048)
    emit("phase", name="parity NumPy float64 vs %s" % device_id)
    parity(np, keras, x, onehot, kind, backend)
    emit("phase", name="timing on CPU (%s)" % CPU_DEVICE)
    if kind != "cpu":
        cpu_baseline(np, keras, x, onehot, device_id, args.cpu_seconds, args.min_steps)
    else:
        time_training(np, keras, x, onehot, "cpu", "CPU timing", args.cpu_seconds, 10000, 1, args.min_steps)
        matmul_probe(np, keras.backend, "cpu", 512)
    if not args.synthetic:
        emit("phase", name="training on %s" % device_id)
        steps = training_steps(args, x.shape[0])
        accuracy(np, keras, kind, x, onehot, test_x, test_y, steps)
    emit("done")
    return 0


if __name__ == "__main__":
    run_workload(main)
