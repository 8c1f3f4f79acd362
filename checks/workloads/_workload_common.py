"""Shared pieces of the verify workloads (checks/verify_*.py): stdlib only, Python 3.6+.

The workloads run inside the TARGET interpreter and write one JSON object per line to
stdout, "event" naming its kind; src/macml/verify_result.py reads them. This module holds
what they have in common: the event writer, the IDX (MNIST) reader, the arguments, the
timed-steps loop and its statistics, and the progress events of a training run.
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


def idx_payload(path):
    """IDX file (gz or raw) -> (dims, payload bytes); a bad or truncated file is a clear error."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
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


def workload_parser(device_help=None):
    """The arguments every workload takes; a workload adds its own before parsing."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="auto", help=device_help)
    ap.add_argument("--train", nargs=2, metavar=("IMAGES", "LABELS"))
    ap.add_argument("--test", nargs=2, metavar=("IMAGES", "LABELS"))
    ap.add_argument("--train-slice", default=":")
    ap.add_argument("--test-slice", default=":")
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--steps", type=int, default=0, help="training steps (0: --epochs)")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--cpu-seconds", type=float, default=3.0)
    return ap


def training_steps(args, train_images):
    return args.steps or args.epochs * (train_images // BATCH)


def missing_framework(name, exc):
    emit("error", kind="missing-framework", message="cannot import %s: %s" % (name, exc))
    return 3


def time_chunks(run_chunk, chunk, label, budget_s, max_steps, min_chunks=3):
    """Time run_chunk() (`chunk` steps, synchronised) until the budget or max_steps runs out,
    but at least min_chunks times. Returns (sorted seconds per step, run_chunk's last result)."""
    per_step, began, last = [], time.perf_counter(), None
    while len(per_step) * chunk < max_steps and (time.perf_counter() - began < budget_s or len(per_step) < min_chunks):
        t0 = time.perf_counter()
        last = run_chunk()
        per_step.append((time.perf_counter() - t0) / chunk)
        emit("progress", phase=label, done=min(1.0, (time.perf_counter() - began) / max(budget_s, 1e-9)))
    per_step.sort()
    return per_step, last


def step_stats(per_step, chunk):
    """Fields of the "timing" event from the sorted seconds per step."""
    return {"steps": len(per_step) * chunk, "median_ms": 1000 * per_step[len(per_step) // 2],
            "min_ms": 1000 * per_step[0], "max_ms": 1000 * per_step[-1]}


def time_trainer(make, sync, label, budget_s, max_steps, chunk, warmup_steps):
    """Build a trainer (.batches(count), .step(idx) -> loss, .mode) and warm it up, timed
    apart, then time chunks of steps. sync(loss or None) waits for the device.
    Returns (last loss, fields of the "timing" event)."""
    start = time.perf_counter()
    trainer = make()
    sync(None)
    setup_s = time.perf_counter() - start
    batches = trainer.batches(warmup_steps + max_steps)
    loss = None
    for _ in range(warmup_steps):
        loss = trainer.step(next(batches))
    sync(loss)
    warmup_s = time.perf_counter() - start

    def run_chunk():
        for _ in range(chunk):
            last = trainer.step(next(batches))
        sync(last)
        return last
    per_step, loss = time_chunks(run_chunk, chunk, label, budget_s, max_steps)
    fields = {"mode": trainer.mode, "warmup_steps": warmup_steps, "warmup_s": warmup_s, "setup_s": setup_s}
    fields.update(step_stats(per_step, chunk))
    return loss, fields


def emit_matmul(kind, n, reps, seconds):
    emit("matmul", device=kind, n=n, tflops=2.0 * n ** 3 * reps / seconds / 1e12)


def emit_parity(device, precision, finite, rel, dut, ref, **extra):
    """The "parity" event; dut and ref are (logits, grads), rel(a, b) is a's relative error to b."""
    emit("parity", device=device, precision=precision, finite=finite, logits_rel=rel(dut[0], ref[0]),
         grad_rel=max(rel(d, r) for d, r in zip(dut[1], ref[1])), **extra)


def in_twentieths(batches, total):
    """Yields the batches; after each twentieth of `total` steps, a "train" progress event."""
    shown = 0
    for i, batch in enumerate(batches):
        yield batch
        if (i + 1) * 20 // total > shown:
            shown = (i + 1) * 20 // total
            emit("progress", phase="train", done=(i + 1) / total)


def train_for(trainer, steps, to_float):
    """`steps` training steps with a progress event every 25 -> (final loss, seconds);
    to_float(loss) waits for the device, so the seconds include the last step."""
    start, loss = time.perf_counter(), None
    for i, idx in enumerate(trainer.batches(steps)):
        loss = trainer.step(idx)
        if i % 25 == 0:
            emit("progress", phase="train", done=i / steps)
    final_loss = to_float(loss)
    return final_loss, time.perf_counter() - start


def run_workload(main):
    """The script's entry point: any exception becomes an "error" event and status 1."""
    try:
        sys.exit(main())
    except Exception as exc:  # the orchestrator turns this into a MacmlError with the message
        emit("error", kind=type(exc).__name__, message=str(exc))
        sys.exit(1)
