"""macml verify workload for PlaidML-Keras: the Keras 2.2.4 mnist_cnn on a PlaidML device.

Runs inside the TARGET interpreter (Python 3.6+): stdlib + numpy + keras 2.2.4 +
plaidml(-keras) 0.7.0, no macml imports. Same JSON-line events as checks/verify_torch.py.
The device is the one PlaidML's settings select (see `plaidml-setup`, or macml's
plaidml_setup.configure), or --device ID. The CPU baseline is PlaidML's own llvm_cpu.0,
reached in the same process through K.clear_session(); parity compares one step against
an independent float64 NumPy implementation of the same network.
"""
import argparse
import gzip
import json
import os
import struct
import sys
import time

BATCH = 128
CPU_DEVICE = "llvm_cpu.0"


def emit(event, **fields):
    fields["event"] = event
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def read_idx(path, np):
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if len(data) < 4 or data[:3] != b"\x00\x00\x08":
        raise ValueError("%s is not an unsigned-byte IDX file" % path)
    ndim = data[3]
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    payload = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim)
    if payload.size != int(np.prod(dims)):
        raise ValueError("%s is truncated: %d bytes for dims %s" % (path, payload.size, dims))
    return payload.reshape(dims)


def load_split(files, where, np):
    x, y = read_idx(files[0], np), read_idx(files[1], np)
    start, _, stop = (where or ":").partition(":")
    part = slice(int(start) if start else 0, int(stop) if stop else x.shape[0])
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
    per_step, began, loss = [], time.perf_counter(), float("nan")
    while len(per_step) < max_steps and (time.perf_counter() - began < budget_s or len(per_step) < min_steps):
        idx = next(order)
        t0 = time.perf_counter()
        loss = model.train_on_batch(x[idx], onehot[idx])[0]
        per_step.append(time.perf_counter() - t0)
        emit("progress", phase=label, done=min(1.0, (time.perf_counter() - began) / max(budget_s, 1e-9)))
    per_step.sort()
    emit("timing", device=kind, mode="keras-train_on_batch", warmup_steps=warmup_steps, warmup_s=warmup_s,
         steps=len(per_step), median_ms=1000 * per_step[len(per_step) // 2], min_ms=1000 * per_step[0],
         max_ms=1000 * per_step[-1], final_loss=float(loss), threads=None)


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
    emit("matmul", device=kind, n=n, tflops=2.0 * n ** 3 * reps / (time.perf_counter() - start) / 1e12)


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


def parity(np, keras, x, onehot, kind, backend):
    """One forward+backward from identical weights, dropout off: PlaidML vs float64 NumPy."""
    K = keras.backend
    model = build_model(keras)
    # Keras starts biases at 0, so blank MNIST borders give pre-activations of exactly 0,
    # where ReLU has no derivative (PlaidML uses a non-zero one). Non-zero biases avoid it.
    rng = np.random.RandomState(1)
    model.set_weights([w if w.ndim > 1 else rng.uniform(0.01, 0.1, w.shape).astype(w.dtype) * rng.choice([-1, 1], w.shape)
                       for w in model.get_weights()])
    logits_t = model.layers[-1].input
    target = K.placeholder(shape=(None, 10))
    loss = K.mean(K.categorical_crossentropy(target, model.output))
    grads = K.gradients(loss, model.trainable_weights)
    run = K.function([model.input, target, K.learning_phase()], [logits_t] + list(grads))
    out = run([x[:BATCH], onehot[:BATCH], 0])
    ref_logits, ref_grads = reference_step(np, x[:BATCH], onehot[:BATCH], model.get_weights())
    finite = all(bool(np.isfinite(o).all()) for o in out)
    precision = {"metal": "fp32-metal", "opencl": "fp32-opencl"}.get(backend, "fp32")
    emit("parity", device=kind, precision=precision, finite=finite, reference="numpy-float64",
         logits_rel=rel_error(np, out[0], ref_logits),
         grad_rel=max(rel_error(np, g, r) for g, r in zip(out[1:], ref_grads)))


def accuracy(np, keras, kind, x, onehot, test_x, test_y, steps):
    model = build_model(keras)
    start, shown, loss = time.perf_counter(), 0, float("nan")
    for i, idx in enumerate(batches(np, x.shape[0], steps)):
        loss = model.train_on_batch(x[idx], onehot[idx])[0]
        if (i + 1) * 20 // steps > shown:
            shown = (i + 1) * 20 // steps
            emit("progress", phase="train", done=(i + 1) / steps)
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
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="auto", help="a PlaidML device id, or auto (its settings)")
    ap.add_argument("--train", nargs=2, metavar=("IMAGES", "LABELS"))
    ap.add_argument("--test", nargs=2, metavar=("IMAGES", "LABELS"))
    ap.add_argument("--train-slice", default=":")
    ap.add_argument("--test-slice", default=":")
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--steps", type=int, default=0, help="training steps (0: --epochs)")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--cpu-seconds", type=float, default=3.0)
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
        emit("error", kind="missing-framework", message="cannot import plaidml-keras: %s" % exc)
        return 3
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
        steps = args.steps or args.epochs * (x.shape[0] // BATCH)
        accuracy(np, keras, kind, x, onehot, test_x, test_y, steps)
    emit("done")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # the orchestrator turns this into a MacmlError with the message
        emit("error", kind=type(exc).__name__, message=str(exc))
        sys.exit(1)
