"""The one skeleton every verify workload runs in (target interpreter; stdlib, Python 3.6+).

A workload is a backend object that knows one framework; `run_mnist(backend)` owns the order
and the events, written one JSON object per line to stdout ("event" names the kind;
src/macml/verify/result.py reads them):

  device -> accelerator timing -> matmul -> parity -> CPU timing -> CPU matmul -> accuracy -> done

A backend supplies:
  name                                  the framework's key
  describe(args) -> dict                import the framework, pick the device, return the
                                        "device" event's fields ("device" is the accelerator's
                                        kind, or "cpu"); raise UsageError for a device the
                                        target does not have
  load(pixels, labels, n) -> (x, y)     uint8 bytes (n*28*28) and label bytes -> host arrays
  trainer(device, x, y, weights)        .step(idx) -> loss, .batches(count), .mode,
                                        .placement() -> (kind, raw): where the parameters and
                                        the batches live, read back from the framework
  sync(device, value)                   wait until the device has computed value
  loss_value(loss) -> float
  matmul(device, n) -> run              run() enqueues one n x n FP32 matmul and returns it
  precisions(device) -> [str]           parity modes, the training precision first
  reference_ops() -> _reference.ArrayOps  the float64 array library the parity reference is
                                        computed in (raise ImportError where there is none)
  step_outputs(device, weights, batch, precision) -> (logits, loss, [grads])  from the spec
                                        weights [(name, shape, array('f'))] and the batch's
                                        (pixel bytes, label bytes): the framework's own arrays
                                        (ops.host reads them), gradients in Keras layout,
                                        dropout off
  evaluate(trainer, x, y) -> int        correct test predictions
and may set pool_ties = "every" when its max-pool gradient goes to every tied maximum
(see _reference.every_max).
"""
import argparse
import array
import gzip
import json
import os
import random
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
from _model_spec import BATCH, load_weights, training_weights, write_npz  # noqa: E402
from _reference import all_finite, host_step, reference_step, rel_error  # noqa: E402

T0 = time.perf_counter()
SYNTHETIC_IMAGES = 8192


class UsageError(Exception):
    """The user asked for something the target cannot do (a device it does not have)."""


def emit(event, **fields):
    fields["event"] = event
    fields["t"] = round(time.perf_counter() - T0, 3)  # seconds since the workload started
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def idx_payload(path):
    """IDX file (gz or raw) -> (dims, payload bytes); a bad or truncated file names itself."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, ValueError) as exc:
            raise ValueError("%s is not a complete gzip file: %s" % (path, exc))
    if len(data) < 4 or data[:3] != b"\x00\x00\x08":
        raise ValueError("%s is not an unsigned-byte IDX file" % path)
    ndim = data[3]
    if len(data) < 4 + 4 * ndim:
        raise ValueError("%s is truncated: its header is cut short" % path)
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    payload = data[4 + 4 * ndim:]
    expected = 1
    for dim in dims:
        expected *= dim
    if len(payload) != expected:
        raise ValueError("%s is truncated: %d bytes for dims %s" % (path, len(payload), dims))
    return dims, payload


def parse_slice(text, length):
    """"START:STOP" (either part may be empty) -> slice over `length` items."""
    start, _, stop = (text or ":").partition(":")
    return slice(int(start) if start else 0, int(stop) if stop else length)


def read_split(images, labels, where):
    """Two IDX files -> (pixels, labels, n) of the slice; mismatches name the files."""
    dims, pixels = idx_payload(images)
    ldims, labs = idx_payload(labels)
    if len(dims) != 3 or dims[1:] != (28, 28):
        raise ValueError("%s holds images of shape %s, not 28x28" % (images, dims[1:]))
    if len(ldims) != 1 or ldims[0] != dims[0]:
        raise ValueError("%s has %s labels for the %d images of %s" % (labels, ldims, dims[0], images))
    if labs and max(labs) > 9:
        raise ValueError("%s has a label %d: MNIST labels are 0-9" % (labels, max(labs)))
    part = parse_slice(where, dims[0])
    n = len(range(*part.indices(dims[0])))
    start = part.indices(dims[0])[0]
    return pixels[start * 784:(start + n) * 784], labs[start:start + n], n


def stroke_digit(rng):
    """One 28x28 uint8 image like an MNIST digit: 2-3 thick strokes in the centre 20x20 box,
    blank borders. Random pixels are no stand-in: they saturate the softmax and turn one FP32
    step's gradients into a sum of cancelling terms (seen: 1.2e-3 against float64, MNIST 3e-5)."""
    canvas = bytearray(784)
    for _ in range(rng.randint(2, 3)):
        x0, y0, x1, y1 = (rng.uniform(5, 22) for _ in range(4))
        bend_x, bend_y = rng.uniform(-6, 6), rng.uniform(-6, 6)
        for i in range(15):
            t = i / 14.0
            px = x0 + (x1 - x0) * t + bend_x * 4 * t * (1 - t)
            py = y0 + (y1 - y0) * t + bend_y * 4 * t * (1 - t)
            cx, cy = int(px), int(py)
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    value = 255 if dx == dy == 0 else (170 if dx == 0 or dy == 0 else 80)
                    at = (cy + dy) * 28 + cx + dx
                    canvas[at] = max(canvas[at], value)
    return bytes(canvas)


def synthetic_split(n=SYNTHETIC_IMAGES, seed=0):
    """--synthetic: BATCH generated digit-like images with random labels, repeated to n images.
    The first batch (the parity batch) is the generated one: deterministic on every machine."""
    rng = random.Random(seed)
    pixels = b"".join(stroke_digit(rng) for _ in range(BATCH))
    labels = bytes(rng.randrange(10) for _ in range(BATCH))
    reps = n // BATCH
    return pixels * reps, labels * reps, reps * BATCH


def workload_parser(name):
    ap = argparse.ArgumentParser(description="macml verify workload: %s" % name)
    ap.add_argument("--device", default="auto", help="auto, cpu, or the accelerator kind")
    ap.add_argument("--train", nargs=2, metavar=("IMAGES", "LABELS"))
    ap.add_argument("--test", nargs=2, metavar=("IMAGES", "LABELS"))
    ap.add_argument("--train-slice", default=":")
    ap.add_argument("--test-slice", default=":")
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--steps", type=int, default=0, help="training steps (0: --epochs)")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--cpu-seconds", type=float, default=2.0)
    ap.add_argument("--weights", help="initial weights (.npz, Keras layout); default: the spec's draw")
    ap.add_argument("--dump-step", metavar="NPZ", help="write one step's logits, loss and gradients and stop")
    return ap


def time_training(backend, device, data, weights, label, budget_s, max_steps, chunk, warmup_steps):
    """Set-up (data to the device, model, graph capture) and warm-up steps timed apart, then
    synchronised chunks of `chunk` steps until the budget or max_steps runs out (at least 3)."""
    start = time.perf_counter()
    trainer = backend.trainer(device, data[0], data[1], weights)
    backend.sync(device, None)
    setup_s = time.perf_counter() - start
    batches = trainer.batches(warmup_steps + max_steps)
    loss = None
    for _ in range(warmup_steps):
        loss = trainer.step(next(batches))
    backend.sync(device, loss)
    warmup_s = time.perf_counter() - start
    per_step, began = [], time.perf_counter()
    while len(per_step) * chunk < max_steps and (time.perf_counter() - began < budget_s or len(per_step) < 3):
        t0 = time.perf_counter()
        for _ in range(chunk):
            loss = trainer.step(next(batches))
        backend.sync(device, loss)
        per_step.append((time.perf_counter() - t0) / chunk)
        emit("progress", phase=label, done=min(1.0, (time.perf_counter() - began) / max(budget_s, 1e-9)))
    per_step.sort()
    kind, placement = trainer.placement()
    emit("timing", device=kind, placement=placement, mode=trainer.mode, warmup_steps=warmup_steps,
         warmup_s=warmup_s, setup_s=setup_s, steps=len(per_step) * chunk, median_ms=1000 * per_step[len(per_step) // 2],
         min_ms=1000 * per_step[0], max_ms=1000 * per_step[-1], final_loss=backend.loss_value(loss),
         threads=getattr(backend, "threads", None))


def matmul_probe(backend, device, kind, n, budget_s=0.5):
    """The device's FP32 matmul rate: one untimed call, then at least 3 and at most 50 in budget_s."""
    run = backend.matmul(device, n)
    backend.sync(device, run())
    reps, start = 0, time.perf_counter()
    while reps < 3 or (time.perf_counter() - start < budget_s and reps < 50):
        out = run()
        reps += 1
        if reps % 5 == 0:
            backend.sync(device, out)
    backend.sync(device, out)
    emit("matmul", device=kind, n=n, tflops=2.0 * n ** 3 * reps / (time.perf_counter() - start) / 1e12)


def first_batch(data_host):
    """The parity batch: the first BATCH images' pixel bytes and label bytes."""
    pixels, labels, _ = data_host
    return pixels[:BATCH * 784], labels[:BATCH]


def numpy_batch(np, batch):
    """A parity batch as float32 NHWC in [0, 1] and int64 labels, for the backends built on NumPy."""
    pixels, labels = batch
    x = np.frombuffer(pixels, dtype=np.uint8).reshape(-1, 28, 28, 1).astype(np.float32) / 255.0
    return x, np.frombuffer(labels, dtype=np.uint8).astype(np.int64)


def numpy_weights(np, weights):
    """Spec weights [(name, shape, array('f'))] -> writable float32 NumPy arrays in Keras layout."""
    return [np.frombuffer(v.tobytes(), dtype=np.float32).reshape(s).copy() for _, s, v in weights]


def parity(backend, device, kind, data_host, weights):
    """One forward+backward from the same weights and batch, dropout off. On an accelerator:
    against the framework's own CPU in FP32, in every precision mode it trains with; on the CPU:
    against the float64 reference of the same step, computed in the framework's own array library."""
    try:
        ops = backend.reference_ops()
    except ImportError as exc:
        emit("note", message="parity not judged: no float64 array library to compare in (%s)" % exc)
        return
    batch = first_batch(data_host)
    if device == "cpu":
        with ops.context():
            x, y = ops.batch(*batch)
            ref = reference_step(ops, x, y, [ops.floats(v, s) for _, s, v in weights],
                                 getattr(backend, "pool_ties", "first"))
        reference = ops.name
    else:
        ref, reference = host_step(ops, backend.step_outputs("cpu", weights, batch, "fp32")), "cpu-fp32"
    for precision in backend.precisions(device):
        logits, loss, grads = backend.step_outputs(device, weights, batch, precision)
        emit("parity", device=kind, precision=precision, reference=reference, finite=all_finite(ops, [logits] + grads),
             logits_rel=rel_error(ops, logits, ref[0]), loss_rel=abs(loss - ref[1]) / max(abs(ref[1]), 1e-30),
             grad_rel=max(rel_error(ops, g, r) for g, r in zip(grads, ref[2])))


def dump_step(backend, device, path, data_host, weights):
    """--dump-step: one step's outputs in Keras layout, for the cross-framework parity test
    (a float32 .npz written with the stdlib)."""
    ops = backend.reference_ops()
    logits, loss, grads = backend.step_outputs(device, weights, first_batch(data_host), backend.precisions(device)[-1])
    with ops.context():
        arrays = [("logits",) + ops.to_float32(logits), ("loss", (), array.array("f", [loss]))]
        arrays += [("grad%d" % i,) + ops.to_float32(g) for i, g in enumerate(grads)]
    write_npz(path, arrays)


def accuracy(backend, device, data, test, steps):
    trainer = backend.trainer(device, data[0], data[1], data[2])
    start, loss, shown = time.perf_counter(), None, 0
    for i, idx in enumerate(trainer.batches(steps)):
        loss = trainer.step(idx)
        if (i + 1) * 20 // steps > shown:
            shown = (i + 1) * 20 // steps
            emit("progress", phase="train", done=(i + 1) / steps)
    final_loss = backend.loss_value(loss)
    train_s = time.perf_counter() - start
    correct = backend.evaluate(trainer, test[0], test[1])
    kind, placement = trainer.placement()
    emit("accuracy", device=kind, placement=placement, steps=steps, images=steps * BATCH, train_images=data[3],
         test_images=test[2], train_s=train_s, accuracy=correct / test[2], final_loss=final_loss)


def run_mnist(backend, argv=None):
    """The protocol, in its one order; returns the exit status."""
    ap = workload_parser(backend.name)
    if hasattr(backend, "add_arguments"):
        backend.add_arguments(ap)
    args = ap.parse_args(argv)
    try:
        info = backend.describe(args)
    except ImportError as exc:
        emit("error", kind="missing-framework", message="cannot import %s: %s" % (backend.name, exc))
        return 3
    except UsageError as exc:
        emit("error", kind="usage", message=str(exc))
        return 2
    accel = info["device"]
    try:
        host = synthetic_split() if args.synthetic else read_split(args.train[0], args.train[1], args.train_slice)
        test_host = None if args.synthetic else read_split(args.test[0], args.test[1], args.test_slice)
        weights = load_weights(args.weights)
    except (OSError, ValueError) as exc:
        emit("error", kind="data", message=str(exc))
        return 2
    if args.dump_step:
        dump_step(backend, accel, args.dump_step, host, weights)
        return 0
    emit("device", parameters=sum(len(v) for _, _, v in weights), **info)
    train = backend.load(*host) + (training_weights(weights), host[2])
    if accel != "cpu":
        emit("phase", name="warm-up and timing on %s" % accel)
        time_training(backend, accel, train, train[2], "accelerator timing", 1.0, 300, 10, 5)
        matmul_probe(backend, accel, accel, 4096)
    emit("phase", name="parity: %s against %s" % (accel, "the CPU" if accel != "cpu" else "float64"))
    parity(backend, accel, accel, host, weights)
    emit("phase", name="timing on CPU")
    time_training(backend, "cpu", train, train[2], "CPU timing", args.cpu_seconds, 10000, 1, 2)
    matmul_probe(backend, "cpu", "cpu", 1024)
    if not args.synthetic:
        emit("phase", name="training on %s" % accel)
        test = backend.load(*test_host) + (test_host[2],)
        steps = args.steps or args.epochs * (host[2] // BATCH)
        accuracy(backend, accel, train, test, steps)
    emit("done")
    return 0


def main(backend, argv=None):
    """The script's entry point: any exception becomes an "error" event and status 1."""
    try:
        sys.exit(run_mnist(backend, argv))
    except Exception as exc:  # the orchestrator turns this into a MacmlError with the message
        emit("error", kind=type(exc).__name__, message=str(exc))
        sys.exit(1)
