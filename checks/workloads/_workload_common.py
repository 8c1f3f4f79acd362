"""The one skeleton every verify workload runs in (target interpreter; stdlib, Python 3.6+).

A workload is a backend object that knows one framework; `run_mnist(backend)` owns the order
and the events, written one JSON object per line to stdout ("event" names the kind;
src/macml/verify/result.py reads them):

  device -> accelerator timing -> matmul -> parity -> CPU timing -> CPU matmul -> accuracy -> done

With an accelerator, macml may time the CPU in a second process instead (--cpu-timing elsewhere
here, --only cpu-timing there), pinned to all cores but one, while this one uses the accelerator.

A backend supplies:
  name                                  the framework's key
  preload()                             (optional) import the framework without touching a device
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
  matmul(device, n) -> run              run() enqueues one n x n FP32 matmul and returns it (or in
                                        matmul_precision(device), where the backend has that)
  precisions(device) -> [str]           parity modes, the training precision first
  reference_ops() -> _reference.ArrayOps  the float64 array library the parity reference is
                                        computed in (raise ImportError where there is none)
  step_outputs(device, weights, batch, precision) -> (logits, loss, [grads])  from the spec
                                        weights [(name, shape, array('f'))] and the batch's
                                        (pixel bytes, label bytes): the framework's own arrays
                                        (ops.host reads them), gradients in Keras layout,
                                        dropout off
  evaluate(trainer, x, y) -> int        correct test predictions
  prepare(device, train, data_host, weights)  (optional) compile the run's programs ahead, while
                                        the run before this one may still hold the accelerator
and may set pool_ties = "every" when its max-pool gradient goes to every tied maximum
(see _reference.every_max).
"""
import argparse
import array
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
from _mnist_data import idx_payload, read_split, synthetic_split  # noqa: E402,F401  (idx_payload: for the tests)
from _model_spec import BATCH, load_weights, training_weights, write_npz  # noqa: E402
from _reference import all_finite, host_step, reference_step, rel_error  # noqa: E402

T0 = time.perf_counter()


class UsageError(Exception):
    """The user asked for something the target cannot do (a device it does not have)."""


def emit(event, **fields):
    fields["event"] = event
    fields["t"] = round(time.perf_counter() - T0, 3)  # seconds since the workload started
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


# A median over this many CPU steps is steady (the spread of step times is reported beside it); the
# --cpu-seconds budget stops sooner on a slow CPU (at least 3 steps).
CPU_TIMING_STEPS = 60
# Beside an accelerator run, macml says "stop" once that run is done: the CPU timing then ends after
# this many steps, rather than making the whole command wait for its full budget.
CPU_STEPS_BEFORE_STOP = 20


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
    ap.add_argument("--gate", action="store_true", help="wait for 'go' on stdin before using a device")
    ap.add_argument("--cpu-timing", choices=("here", "elsewhere"), default="here",
                    help="elsewhere: beside an accelerator, macml times the CPU in another process")
    ap.add_argument("--only", choices=("cpu-timing",), help="run only the CPU timing (that other process)")
    ap.add_argument("--cpus", help="comma-separated cores for --only cpu-timing")
    return ap


def time_training(backend, device, data, weights, label, budget_s, max_steps, chunk, warmup_steps,
                  warmed=None, stop_after=None, **extra):
    """Set-up (data to the device, model, graph capture) and warm-up steps timed apart, then
    synchronised chunks of `chunk` steps until the budget or max_steps runs out (at least 3).
    warmed(): called between the warm-up and the timed steps; stop_after: (steps, asked) ends the
    timing early once that many steps are timed and asked() says so."""
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
    if warmed is not None:
        warmed()
    per_step, began = [], time.perf_counter()
    while len(per_step) * chunk < max_steps and (time.perf_counter() - began < budget_s or len(per_step) < 3):
        if stop_after and len(per_step) * chunk >= stop_after[0] and stop_after[1]():
            break
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
         threads=getattr(backend, "threads", None), **extra)


def matmul_probe(backend, device, kind, n, budget_s=0.5):
    """The device's matmul rate, in FP32 unless the backend's matmul_precision(device) says otherwise:
    one untimed call, then at least 3 and at most 50 in budget_s."""
    run = backend.matmul(device, n)
    backend.sync(device, run())
    reps, start = 0, time.perf_counter()
    while reps < 3 or (time.perf_counter() - start < budget_s and reps < 50):
        out = run()
        reps += 1
        if reps % 5 == 0:
            backend.sync(device, out)
    backend.sync(device, out)
    precision = getattr(backend, "matmul_precision", lambda device: "fp32")(device)
    emit("matmul", device=kind, n=n, precision=precision,
         tflops=2.0 * n ** 3 * reps / (time.perf_counter() - start) / 1e12)


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


def read_data(args):
    """(train, test or None, weights): host bytes of the split (or --synthetic) and the spec's weights."""
    host = synthetic_split() if args.synthetic else read_split(args.train[0], args.train[1], args.train_slice)
    test_host = None if args.synthetic else read_split(args.test[0], args.test[1], args.test_slice)
    return host, test_host, load_weights(args.weights)


def gate(args, name):
    """With --gate, say "ready" and wait for macml's "go" (it runs one accelerator job at a time, lets
    the next one set up its device meanwhile, and a CPU-only run alone); EOF means macml went away."""
    if not args.gate:
        return
    emit("ready", gate=name)
    if order(wait=True) != "go":
        raise SystemExit(4)


_ORDERS = bytearray()


def order(wait):
    """The next line macml wrote on stdin ("go", "stop"), "" at EOF; without wait, None when none is
    there yet. Read unbuffered from fd 0, so that select() sees every line not yet read."""
    while b"\n" not in _ORDERS:
        if not wait:
            try:
                import select
                if not select.select([0], [], [], 0)[0]:
                    return None
            except (OSError, ValueError):  # no select() on this stdin (Windows pipes)
                return None
        chunk = os.read(0, 256)
        if not chunk:
            return ""
        _ORDERS.extend(chunk)
    line, _, rest = bytes(_ORDERS).partition(b"\n")
    _ORDERS[:] = rest
    return line.decode("ascii", "replace").strip()


def run_mnist(backend, argv=None):
    """The protocol, in its one order; returns the exit status."""
    ap = workload_parser(backend.name)
    if hasattr(backend, "add_arguments"):
        backend.add_arguments(ap)
    args = ap.parse_args(argv)
    if args.only == "cpu-timing":
        return cpu_timing_only(backend, args)
    try:
        getattr(backend, "preload", lambda: None)()  # imported before the gate: beside another framework's run
        host, test_host, weights = read_data(args)
    except ImportError as exc:
        emit("error", kind="missing-framework", message="cannot import %s: %s" % (backend.name, exc))
        return 3
    except (OSError, ValueError) as exc:
        emit("error", kind="data", message=str(exc))
        return 2
    gate(args, "device")
    try:
        info = backend.describe(args)
    except ImportError as exc:
        emit("error", kind="missing-framework", message="cannot import %s: %s" % (backend.name, exc))
        return 3
    except UsageError as exc:
        emit("error", kind="usage", message=str(exc))
        return 2
    accel = info["device"]
    if args.dump_step:
        dump_step(backend, accel, args.dump_step, host, weights)
        return 0
    emit("device", parameters=sum(len(v) for _, _, v in weights), **info)
    train = backend.load(*host) + (training_weights(weights), host[2])
    if accel != "cpu" and hasattr(backend, "prepare"):
        emit("phase", name="compiling for %s" % accel)
        backend.prepare(accel, train, host, weights)
    # macml may let a run find its device while the one before it finishes its untimed work;
    # it says "go" again when the accelerator is this run's alone
    gate(args, "cpu" if accel == "cpu" else "accelerator")
    if accel != "cpu":
        emit("phase", name="warm-up and timing on %s" % accel)
        time_training(backend, accel, train, train[2], "accelerator timing", 1.0, 300, 10, 5)
        matmul_probe(backend, accel, accel, 4096)
    emit("phase", name="parity: %s against %s" % (accel, "the CPU" if accel != "cpu" else "float64"))
    parity(backend, accel, accel, host, weights)
    if accel == "cpu" or args.cpu_timing == "here":
        emit("phase", name="timing on CPU")
        time_training(backend, "cpu", train, train[2], "CPU timing", args.cpu_seconds, CPU_TIMING_STEPS, 1, 2)
        matmul_probe(backend, "cpu", "cpu", 1024)
    if not args.synthetic:
        emit("phase", name="training on %s" % accel)
        test = backend.load(*test_host) + (test_host[2],)
        steps = args.steps or args.epochs * (host[2] // BATCH)
        accuracy(backend, accel, train, test, steps)
    emit("done")
    return 0


def cpu_timing_only(backend, args):
    """--only cpu-timing: the CPU timing and matmul alone, in a process of their own that macml starts
    with the accelerator run: pinned to the cores --cpus names (the accelerator run keeps the others),
    it imports and prepares, then (with --gate) waits until macml says go (once nothing is importing;
    macml stops it if that run finds no accelerator), warms up, and waits for go again before the
    timed steps; a "stop" after CPU_STEPS_BEFORE_STOP of them ends the timing."""
    cores = [int(c) for c in args.cpus.split(",")] if args.cpus else []
    if cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)  # before the framework sizes its thread pools
    args.device = "cpu"
    try:
        backend.describe(args)
        host, _, weights = read_data(args)
    except (ImportError, UsageError, OSError, ValueError) as exc:
        emit("error", kind="cpu-timing", message=str(exc))
        return 1
    train = backend.load(*host) + (training_weights(weights), host[2])
    gate(args, "cpu-timing")
    emit("phase", name="timing on CPU (beside the accelerator run)")
    used = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    # set-up and warm-up (compiles) share the cores; macml holds the others off them only for the
    # timed steps, which start at the second gate
    asked = (lambda: order(wait=False) == "stop") if args.gate else (lambda: False)
    time_training(backend, "cpu", train, train[2], "CPU timing", args.cpu_seconds, CPU_TIMING_STEPS, 1, 2,
                  warmed=lambda: gate(args, "cpu-timed"), stop_after=(CPU_STEPS_BEFORE_STOP, asked),
                  cores=used, beside_accelerator=True)
    matmul_probe(backend, "cpu", "cpu", 1024)
    emit("done")
    return 0


def main(backend, argv=None):
    """The script's entry point: any exception becomes an "error" event and status 1."""
    try:
        sys.exit(run_mnist(backend, argv))
    except Exception as exc:  # the orchestrator turns this into a MacmlError with the message
        emit("error", kind=type(exc).__name__, message=str(exc))
        sys.exit(1)
