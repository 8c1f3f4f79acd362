"""macml verify workload for MLX (Apple silicon GPU through Metal).

Runs inside the TARGET interpreter: stdlib + mlx only. Same JSON-lines protocol and
arguments as verify_torch.py; devices are "gpu" or "cpu". MLX arrays live in unified
memory; the device is chosen per operation (mx.set_default_device / mx.stream). Written
from the MLX docs; macml's CI has no MLX, so keep it small and plain.
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


def read_idx(mx, path, where):
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if len(data) < 4 or data[:3] != b"\x00\x00\x08":
        raise ValueError("%s is not an unsigned-byte IDX file" % path)
    ndim = data[3]
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    payload = data[4 + 4 * ndim:]
    try:
        flat = mx.array(memoryview(payload))  # the buffer protocol: no copy through Python ints
    except (TypeError, ValueError):
        flat = mx.array(list(payload), dtype=mx.uint8)
    start, _, stop = where.partition(":")
    return flat.reshape(dims)[int(start or 0):int(stop or dims[0])]


def build_model(nn):
    return nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        lambda x: x.reshape(x.shape[0], -1), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 10),
    )


def count_params(model):
    from mlx.utils import tree_flatten
    return sum(v.size for _, v in tree_flatten(model.parameters()))


class Trainer:
    def __init__(self, mx, nn, optim, device, x_u8, y, seed):
        self.mx = mx
        mx.set_default_device(device)
        mx.random.seed(seed)
        self.x = x_u8.reshape(-1, 28, 28, 1).astype(mx.float32) / 255.0
        self.y = y.astype(mx.int32)
        self.model = build_model(nn)
        self.model.train()
        self.opt = optim.AdaDelta(learning_rate=1.0)

        def loss_fn(model, xb, yb):
            return nn.losses.cross_entropy(model(xb), yb, reduction="mean")
        self.loss_and_grad = nn.value_and_grad(self.model, loss_fn)
        self.mode = "lazy"
        mx.eval(self.x, self.y, self.model.parameters())

    def step(self, idx):
        loss, grads = self.loss_and_grad(self.model, self.x[idx], self.y[idx])
        self.opt.update(self.model, grads)
        self.mx.eval(loss, self.model.parameters(), self.opt.state)  # builds and runs this step's graph
        return loss

    def batches(self, count):
        n = self.x.shape[0]
        per_epoch, done = n // BATCH, 0
        while done < count:
            perm = self.mx.random.permutation(n)
            for b in range(min(per_epoch, count - done)):
                yield perm[b * BATCH:(b + 1) * BATCH]
            done += per_epoch


def time_training(mx, kind, make, label, budget_s, max_steps, chunk, warmup_steps=5):
    start = time.perf_counter()
    trainer = make()
    setup_s = time.perf_counter() - start
    batches = trainer.batches(warmup_steps + max_steps)
    for _ in range(warmup_steps):
        loss = trainer.step(next(batches))
    warmup_s = time.perf_counter() - start
    per_step, began = [], time.perf_counter()
    while len(per_step) * chunk < max_steps and (time.perf_counter() - began < budget_s or len(per_step) < 3):
        t0 = time.perf_counter()
        for _ in range(chunk):
            loss = trainer.step(next(batches))
        mx.synchronize()
        per_step.append((time.perf_counter() - t0) / chunk)
        emit("progress", phase=label, done=min(1.0, (time.perf_counter() - began) / budget_s))
    per_step.sort()
    emit("timing", device=kind, mode=trainer.mode, warmup_steps=warmup_steps, warmup_s=warmup_s, setup_s=setup_s,
         steps=len(per_step) * chunk, median_ms=1000 * per_step[len(per_step) // 2], min_ms=1000 * per_step[0],
         max_ms=1000 * per_step[-1], final_loss=loss.item())


def matmul_probe(mx, kind, device, n):
    mx.set_default_device(device)
    a, b = mx.random.normal((n, n)), mx.random.normal((n, n))
    mx.eval(a @ b)
    start, reps = time.perf_counter(), 10
    for _ in range(reps):
        mx.eval(a @ b)
    emit("matmul", device=kind, n=n, tflops=2.0 * n ** 3 * reps / (time.perf_counter() - start) / 1e12)


def parity(mx, nn, x_u8, y):
    from mlx.utils import tree_flatten
    mx.random.seed(1)
    model = build_model(nn)
    model.eval()  # dropout off
    x = x_u8[:BATCH].reshape(-1, 28, 28, 1).astype(mx.float32) / 255.0
    yb = y[:BATCH].astype(mx.int32)

    def loss_fn(m, xb, lb):
        return nn.losses.cross_entropy(m(xb), lb, reduction="mean")
    out = []
    for device in (mx.cpu, mx.gpu):
        with mx.stream(device):
            logits = model(x)
            _, grads = nn.value_and_grad(model, loss_fn)(model, x, yb)
            mx.eval(logits, grads)
        out.append((logits, [g for _, g in tree_flatten(grads)]))

    def rel(a, b):
        return (mx.linalg.norm(a - b) / mx.maximum(mx.linalg.norm(b), 1e-30)).item()
    (ref_l, ref_g), (dut_l, dut_g) = out
    finite = all(not mx.any(mx.isnan(t) | mx.isinf(t)).item() for t in [dut_l] + dut_g)
    emit("parity", device="gpu", precision="fp32-metal", finite=finite, logits_rel=rel(dut_l, ref_l),
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
        import mlx.core as mx
        import mlx.nn as nn
        import mlx.optimizers as optim
    except ImportError as exc:
        emit("error", kind="missing-framework", message="cannot import mlx: %s" % exc)
        return 3
    metal = bool(getattr(mx, "metal", None) and mx.metal.is_available())
    use_gpu = metal and args.device != "cpu"
    kind, dev = ("gpu", mx.gpu) if use_gpu else ("cpu", mx.cpu)
    emit("device", framework="mlx", version=getattr(mx, "__version__", "?"), device=kind,
         backend="metal" if use_gpu else "cpu", name="Apple GPU (Metal)" if use_gpu else "CPU",
         detail="" if metal else "mlx.core.metal.is_available() is False",
         parameters=count_params(build_model(nn)))
    if args.synthetic:
        x = mx.random.randint(0, 256, (8192, 28, 28)).astype(mx.uint8)
        y = mx.random.randint(0, 10, (8192,))
    else:
        x = read_idx(mx, args.train[0], args.train_slice)
        y = read_idx(mx, args.train[1], args.train_slice)
        test_x = read_idx(mx, args.test[0], args.test_slice)
        test_y = read_idx(mx, args.test[1], args.test_slice)
    if use_gpu:
        emit("phase", name="warm-up and timing on the GPU")
        time_training(mx, kind, lambda: Trainer(mx, nn, optim, dev, x, y, 0), "accelerator timing", 1.0, 300, 10)
        matmul_probe(mx, kind, dev, 4096)
        parity(mx, nn, x, y)
    emit("phase", name="timing on CPU")
    time_training(mx, "cpu", lambda: Trainer(mx, nn, optim, mx.cpu, x, y, 0), "CPU timing", args.cpu_seconds,
                  10000, 1, warmup_steps=2)
    matmul_probe(mx, "cpu", mx.cpu, 1024)
    if not args.synthetic:
        emit("phase", name="training")
        trainer = Trainer(mx, nn, optim, dev, x, y, 0)
        steps = args.steps or args.epochs * (x.shape[0] // BATCH)
        start = time.perf_counter()
        for i, idx in enumerate(trainer.batches(steps)):
            loss = trainer.step(idx)
            if i % 25 == 0:
                emit("progress", phase="train", done=i / steps)
        final_loss = loss.item()
        train_s = time.perf_counter() - start
        trainer.model.eval()
        tx = test_x.reshape(-1, 28, 28, 1).astype(mx.float32) / 255.0
        correct = mx.sum(mx.argmax(trainer.model(tx), axis=1) == test_y.astype(mx.int32)).item()
        emit("accuracy", device=kind, steps=steps, train_images=x.shape[0], test_images=test_x.shape[0],
             train_s=train_s, accuracy=correct / test_x.shape[0], final_loss=final_loss)
    emit("done")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:
        emit("error", kind=type(exc).__name__, message=str(exc))
        sys.exit(1)
